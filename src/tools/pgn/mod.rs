//! Game records in PGN, read and written in one place: `doushou match`
//! writes them, `doushou analyse` and the GUI read them, the GUI writes them
//! too. Tags come in a fixed order (the seven required ones first, White
//! being Red, who moves first), built by one [`GameTags`] for every writer;
//! then the moves numbered by full moves, wrapped near 80 columns, and the
//! result.
//!
//! - this module: [`Record`] and its writer, [`GameTags`], the strict
//!   reader [`parse`] that `match --resume` uses;
//! - [`read`]: the lenient reader of games and position lines (records,
//!   one game per line, `startpos moves ...`) checked against the rules.
//!
//! ```text
//! [Event "doushou match"]
//! [Site "?"]
//! [Date "2025.01.31"]
//! [Round "1"]
//! [White "new"]
//! [Black "old"]
//! [Result "1-0"]
//! [Red "new"]
//! [Blue "old"]
//! [Termination "red wins: a piece entered the blue den"]
//! [Variant "jungle"]
//! [Rules "DogOverWolf=false ..."]
//! [TimeControl "10+0.1"]
//! [SetUp "1"]
//! [FEN "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"]
//!
//! 1. g3g4 a7a6 2. g4g5 ... 1-0
//! ```

pub mod read;

use crate::engine::option;
use crate::engine::skill::FULL_STRENGTH;
use crate::rules::Rules;
use read::Entry;
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// The column after which move text wraps.
const WRAP: usize = 80;

/// One game record: its tags, its moves and its result, as PGN writes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tags in order, as (name, value).
    pub tags: Vec<(String, String)>,
    /// The moves, in protocol notation.
    pub moves: Vec<String>,
    /// Comments, each with how many moves come before it (0: before the
    /// first), written `{text}`; a `}` in the text is written `)`.
    pub comments: Vec<(usize, String)>,
    /// `1-0`, `0-1` or `1/2-1/2` (or `*` for an unfinished game).
    pub result: String,
}

impl Record {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A tag value with `\` and `"` escaped and control characters replaced by
/// `?`, so that any engine's garbage stays within its quotes and its line.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A comment as movetext writes it: in braces, on one line, with no `}`
/// inside to close it early.
fn comment_token(text: &str) -> String {
    let text: Vec<&str> = text.split_whitespace().collect();
    format!("{{{}}}", text.join(" ").replace('}', ")"))
}

impl fmt::Display for Record {
    /// The record, tags then moves, ending with a blank line. The first move's
    /// number and side come from the `FEN` tag's side to move and move number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        let (mut number, mut blue) = self
            .tag("FEN")
            .map(|fen| {
                let fields: Vec<&str> = fen.split_whitespace().collect();
                let blue = fields.get(1) == Some(&"b");
                let number = fields.get(3).and_then(|n| n.parse().ok()).unwrap_or(1u32);
                (number.max(1), blue)
            })
            .unwrap_or((1, false));
        let mut tokens = Vec::with_capacity(self.moves.len() * 3 / 2 + 1);
        let mut comments = self.comments.iter().peekable();
        for (i, m) in self.moves.iter().enumerate() {
            let mut commented = false;
            while let Some((_, text)) = comments.next_if(|(before, _)| *before <= i) {
                tokens.push(comment_token(text));
                commented = true;
            }
            // Blue's move after a comment takes its number again, as PGN does.
            if !blue {
                tokens.push(format!("{number}."));
            } else if i == 0 || commented {
                tokens.push(format!("{number}..."));
            }
            tokens.push(m.clone());
            if blue {
                number += 1;
            }
            blue = !blue;
        }
        tokens.extend(comments.map(|(_, text)| comment_token(text)));
        tokens.push(self.result.clone());
        let mut column = 0;
        for t in tokens {
            if column > 0 && column + 1 + t.len() > WRAP {
                writeln!(f)?;
                column = 0;
            }
            if column > 0 {
                f.write_str(" ")?;
                column += 1;
            }
            f.write_str(&t)?;
            column += t.len();
        }
        writeln!(f)?;
        writeln!(f)
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), as the `Date` tag writes it, from
/// the system clock alone: days since 1970 to a civil date (H. Hinnant's
/// `civil_from_days`).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of_day((secs / 86_400) as i64)
}

/// The civil date of a day counted from 1970-01-01, as `YYYY.MM.DD`.
fn date_of_day(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// What a record says about its game besides the moves: the one tag builder
/// of `doushou match` and the GUI, so that both write the same tags in the
/// same order.
#[derive(Clone, Debug)]
pub struct GameTags {
    /// `doushou match`, `doushou gui`, or a loaded record's own.
    pub event: String,
    /// Where it was played (`?` when unknown).
    pub site: String,
    /// `YYYY.MM.DD` ([`today`]), the `Date` tag.
    pub date: String,
    /// The round (`-` when it has none).
    pub round: String,
    /// Who played Red and Blue, as `[red, blue]`.
    pub players: [String; 2],
    /// The level each side's engine played at (`Skill Level 5`,
    /// `UCI_Elo 1500`), if it was weakened; written as `RedLevel`/`BlueLevel`.
    pub levels: [Option<String>; 2],
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// How the game ended, in words; none while it goes on.
    pub termination: Option<String>,
    /// The rules it is played under (the `Variant` and `Rules` tags).
    pub rules: Rules,
    /// The time control, if the game had one (`TimeControl`).
    pub time_control: Option<String>,
    /// The first position (`SetUp` and `FEN`).
    pub start_fen: String,
    /// Any other tags (of a loaded record), written last.
    pub extra: Vec<(String, String)>,
}

/// The level an engine plays at, from the options it is sent, as the
/// `RedLevel`/`BlueLevel` tags say it: `UCI_Elo N` when `UCI_LimitStrength`
/// is on, else `Skill Level N` when that is below full strength (20); none at
/// full strength.
pub fn level_of<'a>(options: impl IntoIterator<Item = &'a (String, String)>) -> Option<String> {
    let mut limit = false;
    let mut elo = None;
    let mut skill = None;
    for (name, value) in options {
        if name.eq_ignore_ascii_case(option::LIMIT_STRENGTH) {
            limit = value.eq_ignore_ascii_case("true");
        } else if name.eq_ignore_ascii_case(option::ELO) {
            elo = Some(value.trim().to_string());
        } else if name.eq_ignore_ascii_case(option::SKILL_LEVEL) {
            skill = value.trim().parse::<i32>().ok().filter(|l| *l >= 0);
        }
    }
    match (limit, elo, skill) {
        (true, Some(elo), _) => Some(format!("{} {elo}", option::ELO)),
        (_, _, Some(level)) if level < FULL_STRENGTH => {
            Some(format!("{} {level}", option::SKILL_LEVEL))
        }
        _ => None,
    }
}

/// The tags that [`GameTags`] writes itself: a loaded record's own are
/// replaced, never doubled.
pub const BUILT_TAGS: [&str; 17] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Red",
    "Blue",
    "RedLevel",
    "BlueLevel",
    "Termination",
    "Variant",
    "Rules",
    "TimeControl",
    "SetUp",
    "FEN",
];

impl GameTags {
    /// The tags in the order records write them.
    pub fn tags(&self) -> Vec<(String, String)> {
        let [red, blue] = &self.players;
        let mut tags: Vec<(&str, String)> = vec![
            ("Event", self.event.clone()),
            ("Site", self.site.clone()),
            ("Date", self.date.clone()),
            ("Round", self.round.clone()),
            ("White", red.clone()),
            ("Black", blue.clone()),
            ("Result", self.result.clone()),
            ("Red", red.clone()),
            ("Blue", blue.clone()),
        ];
        for (name, level) in ["RedLevel", "BlueLevel"].into_iter().zip(&self.levels) {
            if let Some(level) = level {
                tags.push((name, level.clone()));
            }
        }
        if let Some(t) = &self.termination {
            tags.push(("Termination", t.clone()));
        }
        tags.push((
            "Variant",
            self.rules.preset_name().unwrap_or("custom").to_string(),
        ));
        tags.push(("Rules", self.rules.to_string()));
        if let Some(tc) = &self.time_control {
            tags.push(("TimeControl", tc.clone()));
        }
        // `SetUp` tells readers that the game starts at the `FEN` tag's position.
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", self.start_fen.clone()));
        let mut tags: Vec<(String, String)> =
            tags.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
        tags.extend(
            self.extra
                .iter()
                .filter(|(n, _)| !BUILT_TAGS.iter().any(|b| b.eq_ignore_ascii_case(n)))
                .cloned(),
        );
        tags
    }

    /// The record of these tags and `moves` (protocol notation).
    pub fn record(&self, moves: Vec<String>) -> Record {
        Record {
            tags: self.tags(),
            moves,
            comments: Vec::new(),
            result: self.result.clone(),
        }
    }
}

/// Why a records file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct PgnError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong, in words.
    pub what: String,
}

/// Reads every record of a file: tag lines, then move text up to a result,
/// as [`read::read_entries`] cuts them, but strictly: text outside a record,
/// a record without a result (its movetext ended by a blank line, a tag or
/// the end of the file) and words after a result are errors.
pub fn parse(text: &str) -> Result<Vec<Record>, PgnError> {
    read::read_entries(text)
        .into_iter()
        .map(|entry| {
            let err = |line, what| PgnError { line, what };
            let record = match entry {
                Ok(Entry::Record(record)) => record,
                Ok(Entry::Plain { line, .. }) => {
                    return Err(err(line, "move text before any tag".into()));
                }
                Err(e) => return Err(err(e.line, e.error.to_string())),
            };
            if let Some((word, line)) = record.after_result {
                return Err(err(line, format!("'{word}' after the result")));
            }
            let mut read = Record {
                tags: record.tags.into_iter().map(|(tag, _)| tag).collect(),
                moves: record.moves.into_iter().map(|(m, _)| m).collect(),
                comments: record.comments,
                result: String::new(),
            };
            let Some(result) = record.result else {
                let round = read.tag("Round").unwrap_or("?");
                let what = format!("the record of round {round} has no result");
                return Err(err(record.last_line, what));
            };
            read.result = result;
            Ok(read)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fen: &str, moves: usize) -> Record {
        Record {
            tags: vec![
                ("Event".into(), "doushou match".into()),
                ("Termination".into(), "red \"crashed\" \\ \u{1} here".into()),
                ("FEN".into(), fen.into()),
            ],
            moves: (0..moves)
                .map(|i| ["g3g4", "a7a6"][i % 2].to_string())
                .collect(),
            comments: Vec::new(),
            result: "1/2-1/2".into(),
        }
    }

    #[test]
    fn records_print_and_read_back() {
        let a = record(crate::rules::START_FEN, 41);
        let b = record("7/7/7/7/3l3/7/7/7/3L3 b 0 7", 3);
        let text = format!("{a}{b}");
        assert!(text.contains("\n\n1. g3g4 a7a6 2. g3g4"), "{text}");
        assert!(
            text.contains("\n\n7... g3g4 8. a7a6 g3g4 1/2-1/2\n\n"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= WRAP), "{text}");
        assert!(
            text.contains(r#"[Termination "red \"crashed\" \\ ? here"]"#),
            "{text}"
        );
        let back = parse(&text).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].moves, a.moves);
        assert_eq!(back[1].moves, b.moves);
        assert_eq!(back[0].result, "1/2-1/2");
        assert_eq!(back[1].tag("FEN"), Some("7/7/7/7/3l3/7/7/7/3L3 b 0 7"));
        assert_eq!(
            back[0].tag("Termination"),
            Some("red \"crashed\" \\ ? here")
        );
    }

    #[test]
    fn comments_read_and_write_back_in_place() {
        let mut a = record(crate::rules::START_FEN, 3);
        a.comments = vec![
            (0, "before".into()),
            (1, "after red's\nfirst } move".into()),
            (3, "at the end".into()),
        ];
        let text = a.to_string();
        // The movetext wraps at 80 columns: compare it on one line.
        assert!(
            text.replace('\n', " ").contains(
                "{before} 1. g3g4 {after red's first ) move} 1... a7a6 2. g3g4 {at the end} 1/2-1/2"
            ),
            "{text}"
        );
        let back = parse(&text).unwrap();
        assert_eq!(
            back[0].comments,
            [
                (0, "before".to_string()),
                (1, "after red's first ) move".to_string()),
                (3, "at the end".to_string())
            ]
        );
        assert_eq!(back[0].moves, a.moves);
        assert_eq!(back[0].to_string(), text);
        let wrapped = parse("[Event \"x\"]\n\n1. g3g4 {one\n two} *\n").unwrap();
        assert_eq!(wrapped[0].comments, [(1, "one two".to_string())]);
    }

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(date_of_day(0), "1970.01.01");
        assert_eq!(date_of_day(11_016), "2000.02.29");
        assert_eq!(date_of_day(20_788), "2026.12.01");
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        assert_eq!(&d[4..5], ".");
    }

    #[test]
    fn tags_in_order_with_levels_and_no_doubles() {
        let options = [
            ("Skill Level".to_string(), "5".to_string()),
            ("Hash".to_string(), "16".to_string()),
        ];
        let tags = GameTags {
            event: "doushou gui".into(),
            site: "?".into(),
            date: "2026.12.01".into(),
            round: "-".into(),
            players: ["human".into(), "doushou".into()],
            levels: [None, level_of(&options)],
            result: "0-1".into(),
            termination: Some("red resigns".into()),
            rules: Rules::default(),
            time_control: Some("300+2".into()),
            start_fen: crate::rules::START_FEN.into(),
            extra: vec![
                ("Red".into(), "old".into()),
                ("Annotator".into(), "me".into()),
            ],
        };
        let names: Vec<String> = tags.tags().into_iter().map(|(n, _)| n).collect();
        // Every built tag in BUILT_TAGS's order (no RedLevel: Red plays at
        // full strength), then the loaded record's others.
        let expected: Vec<&str> = BUILT_TAGS
            .iter()
            .copied()
            .filter(|n| *n != "RedLevel")
            .chain(["Annotator"])
            .collect();
        assert_eq!(names, expected);
        let record = tags.record(vec!["g3g4".into()]);
        assert_eq!(record.tag("BlueLevel"), Some("Skill Level 5"));
        assert_eq!(record.tag("Red"), Some("human"));
        assert_eq!(record.result, "0-1");
        let back = parse(&record.to_string()).unwrap();
        assert_eq!(back[0], record);
        let full = [("Skill Level".to_string(), "20".to_string())];
        assert_eq!(level_of(&full), None);
        let elo = [
            ("UCI_LimitStrength".to_string(), "true".to_string()),
            ("UCI_Elo".to_string(), "1500".to_string()),
        ];
        assert_eq!(level_of(&elo).as_deref(), Some("UCI_Elo 1500"));
    }

    #[test]
    fn broken_files_say_where() {
        assert!(parse("1. g3g4 1-0").is_err());
        assert!(parse("[Event \"x\"]\n\n1. g3g4").is_err());
        assert!(parse("[Event x]\n").is_err());
        assert!(parse("[Event \"x\"]\n\n1. g3g4 1-0 a7a6").is_err());
        // A blank line ends a record's movetext: this one has no result.
        let unfinished = parse("[Round \"4\"]\n\n1. g3g4\n\n[Round \"5\"]\n\n1-0\n").unwrap_err();
        assert_eq!(unfinished.line, 3, "{unfinished}");
        assert!(unfinished.what.contains("round 4"), "{unfinished}");
        assert_eq!(parse("").unwrap(), vec![]);
    }
}
