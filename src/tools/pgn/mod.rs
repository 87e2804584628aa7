//! Game records in PGN that other tools read back: tags in a fixed order (the
//! seven required ones first, White being Red, who moves first), then the
//! moves numbered by full moves, wrapped near 80 columns, and the result.
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

use crate::tools::analyse::input::{self, Entry};
use std::fmt;

/// The column after which move text wraps.
const WRAP: usize = 80;

/// One game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tags in order, as (name, value).
    pub tags: Vec<(String, String)>,
    /// The moves, in protocol notation.
    pub moves: Vec<String>,
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
        for (i, m) in self.moves.iter().enumerate() {
            if !blue {
                tokens.push(format!("{number}."));
            } else if i == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(m.clone());
            if blue {
                number += 1;
            }
            blue = !blue;
        }
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

/// Why a records file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for PgnError {}

/// Reads every record of a file: tag lines, then move text up to a result,
/// as [`input::read_entries`] cuts them, but strictly: text outside a record,
/// a record without a result (its movetext ended by a blank line, a tag or
/// the end of the file) and words after a result are errors.
pub fn parse(text: &str) -> Result<Vec<Record>, PgnError> {
    input::read_entries(text)
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
