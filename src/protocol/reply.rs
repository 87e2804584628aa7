//! The lines an engine writes (engine → GUI), as a typed enum parsed with
//! `FromStr` and printed with `Display`. The match runner reads engines through
//! it; `Display` prints each line exactly as the protocol loop does, so that the
//! engine can print through it too and both sides agree by construction.

use super::error::ParseError;
use crate::engine::score::{Score, ScoreBound};
use crate::rules::Move;
use crate::util::options::OptionKind;
use std::fmt;
use std::str::FromStr;

/// One line from an engine, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name <text>` or `id author <text>`.
    Id(IdLine),
    /// `option name <name> type <type> [default <v>] [min <a>] [max <b>] [var <v>]...`.
    Option(OptionLine),
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`: the answer to `isready`, once every earlier command is done.
    ReadyOk,
    /// `info ...`: search progress or a message.
    Info(InfoLine),
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move played (`Move::NULL` for `0000`, "no move").
        best: Move,
        /// The expected reply, if any.
        ponder: Option<Move>,
    },
}

/// The two `id` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdLine {
    /// `id name <text>`: the engine's name and version.
    Name(String),
    /// `id author <text>`: who wrote the engine.
    Author(String),
}

/// The kinds of option the protocol knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// `check`: the value is `true` or `false`.
    Check,
    /// An integer in a range.
    Spin,
    /// One of a list of words.
    Combo,
    /// An action without value.
    Button,
    /// `string`: free text such as a file name; `<empty>` stands for none.
    String,
}

impl OptionType {
    const NAMES: [(&'static str, OptionType); 5] = [
        ("check", OptionType::Check),
        ("spin", OptionType::Spin),
        ("combo", OptionType::Combo),
        ("button", OptionType::Button),
        ("string", OptionType::String),
    ];

    /// The protocol word for this kind.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("string", |(n, _)| n)
    }
}

/// An `option` line: what a GUI needs to show and check an option. Values are
/// kept as text, since their meaning depends on the type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLine {
    /// The option's name (may contain spaces).
    pub name: String,
    /// Its kind, with the default, range or choices the line carries.
    pub kind: OptionType,
    /// The default value, if given.
    pub default: Option<String>,
    /// Smallest value of a spin.
    pub min: Option<i64>,
    /// Largest value of a spin.
    pub max: Option<i64>,
    /// The choices of a combo.
    pub vars: Vec<String>,
}

/// An `info` line. Every field is optional; `Display` prints those present in
/// the order the protocol loop prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    /// Iteration depth of the iterative deepening, in plies.
    pub depth: Option<u32>,
    /// Deepest ply reached, quiescence search included.
    pub seldepth: Option<u32>,
    /// Which MultiPV line, from 1 (best first).
    pub multipv: Option<u32>,
    /// The line's score, for the side to move.
    pub score: Option<Score>,
    /// Whether the score is a bound; printed only with a score.
    pub bound: ScoreBound,
    /// Win/draw/loss per mille for the side to move (`UCI_ShowWDL`).
    pub wdl: Option<(u32, u32, u32)>,
    /// Nodes searched by all threads.
    pub nodes: Option<u64>,
    /// Nodes per second, over all threads.
    pub nps: Option<u64>,
    /// Milliseconds since `go`, wall time.
    pub time: Option<u64>,
    /// Per mille of the hash table in use.
    pub hashfull: Option<u32>,
    /// Positions answered by the endgame tables.
    pub tbhits: Option<u64>,
    /// The root move being searched.
    pub currmove: Option<Move>,
    /// Its number among the root moves, from 1.
    pub currmovenumber: Option<u32>,
    /// The principal variation (present but empty prints a bare `pv`).
    pub pv: Option<Vec<Move>>,
    /// Free text to the end of the line.
    pub string: Option<String>,
}

impl Reply {
    /// Whether `line` is a `bestmove` line, readable or not (its first word,
    /// as [`Reply::from_str`] reads it): the answer a search is waited for
    /// with, so one that does not parse is an unreadable move, not noise.
    pub fn is_bestmove_line(line: &str) -> bool {
        line.split_whitespace().next() == Some("bestmove")
    }
}

impl FromStr for Reply {
    type Err = ParseError;

    /// Parses one line; words are separated by any run of spaces or tabs (free
    /// text is rejoined with single spaces).
    fn from_str(line: &str) -> Result<Reply, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            return Err(ParseError::Empty);
        };
        let no_args = |reply: Reply, name: &'static str| match rest.first() {
            None => Ok(reply),
            Some(w) => Err(ParseError::Unexpected {
                head: name,
                word: w.to_string(),
            }),
        };
        match head {
            "uciok" => no_args(Reply::UciOk, "uciok"),
            "readyok" => no_args(Reply::ReadyOk, "readyok"),
            "id" => parse_id(rest),
            "option" => parse_option(rest).map(Reply::Option),
            "info" => parse_info(rest).map(Reply::Info),
            "bestmove" => parse_bestmove(rest),
            other => Err(ParseError::UnknownReply(other.to_string())),
        }
    }
}

fn parse_id(rest: &[&str]) -> Result<Reply, ParseError> {
    let (key, text) = rest.split_first().ok_or(ParseError::Missing {
        head: "id",
        what: "'name' or 'author'",
    })?;
    if text.is_empty() {
        return Err(ParseError::Missing {
            head: "id",
            what: "the text",
        });
    }
    let text = text.join(" ");
    match *key {
        "name" => Ok(Reply::Id(IdLine::Name(text))),
        "author" => Ok(Reply::Id(IdLine::Author(text))),
        other => Err(ParseError::Unexpected {
            head: "id",
            word: other.to_string(),
        }),
    }
}

fn parse_option(rest: &[&str]) -> Result<OptionLine, ParseError> {
    const KEYWORDS: [&str; 5] = ["type", "default", "min", "max", "var"];
    let missing = |what| ParseError::Missing {
        head: "option",
        what,
    };
    match rest.first() {
        Some(&"name") => {}
        Some(w) => {
            return Err(ParseError::Unexpected {
                head: "option",
                word: w.to_string(),
            });
        }
        None => return Err(missing("'name <name>'")),
    }
    let rest = &rest[1..];
    let type_at = rest
        .iter()
        .position(|w| *w == "type")
        .ok_or(missing("'type <type>'"))?;
    if type_at == 0 {
        return Err(missing("the name"));
    }
    let name = rest[..type_at].join(" ");
    let type_word = rest.get(type_at + 1).ok_or(missing("the type"))?;
    let kind = OptionType::NAMES
        .iter()
        .find(|(n, _)| n == type_word)
        .map(|(_, t)| *t)
        .ok_or_else(|| ParseError::BadValue {
            head: "option",
            field: "type".into(),
            value: type_word.to_string(),
        })?;
    let mut option = OptionLine {
        name,
        kind,
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut i = type_at + 2;
    while i < rest.len() {
        let key = rest[i];
        // A value runs to the next keyword: string defaults may hold spaces.
        let end = rest[i + 1..]
            .iter()
            .position(|w| KEYWORDS.contains(w))
            .map_or(rest.len(), |p| i + 1 + p);
        let value = rest[i + 1..end].join(" ");
        let bad = || ParseError::BadValue {
            head: "option",
            field: key.to_string(),
            value: value.clone(),
        };
        match key {
            "default" => option.default = Some(value.clone()),
            "min" => option.min = Some(value.parse().map_err(|_| bad())?),
            "max" => option.max = Some(value.parse().map_err(|_| bad())?),
            "var" if !value.is_empty() => option.vars.push(value.clone()),
            "var" => return Err(bad()),
            other => {
                return Err(ParseError::Unexpected {
                    head: "option",
                    word: other.to_string(),
                });
            }
        }
        i = end;
    }
    Ok(option)
}

/// The keywords of `info`, which end a `pv` list.
const INFO_KEYWORDS: [&str; 16] = [
    "depth",
    "seldepth",
    "multipv",
    "score",
    "lowerbound",
    "upperbound",
    "wdl",
    "nodes",
    "nps",
    "time",
    "hashfull",
    "currmove",
    "currmovenumber",
    "pv",
    "string",
    "tbhits",
];

fn parse_info(rest: &[&str]) -> Result<InfoLine, ParseError> {
    let mut info = InfoLine::default();
    let mut i = 0;
    let value = |i: usize, field: &'static str| -> Result<&str, ParseError> {
        rest.get(i + 1).copied().ok_or(ParseError::Missing {
            head: "info",
            what: field,
        })
    };
    fn num<T: FromStr>(field: &str, text: &str) -> Result<T, ParseError> {
        text.parse().map_err(|_| ParseError::BadValue {
            head: "info",
            field: field.to_string(),
            value: text.to_string(),
        })
    }
    while i < rest.len() {
        let key = rest[i];
        match key {
            "depth" => info.depth = Some(num(key, value(i, "a depth")?)?),
            "seldepth" => info.seldepth = Some(num(key, value(i, "a seldepth")?)?),
            "multipv" => info.multipv = Some(num(key, value(i, "a multipv index")?)?),
            "nodes" => info.nodes = Some(num(key, value(i, "a node count")?)?),
            "nps" => info.nps = Some(num(key, value(i, "a speed")?)?),
            "time" => info.time = Some(num(key, value(i, "a time")?)?),
            "hashfull" => info.hashfull = Some(num(key, value(i, "a per mille")?)?),
            "tbhits" => info.tbhits = Some(num(key, value(i, "a count")?)?),
            "currmovenumber" => info.currmovenumber = Some(num(key, value(i, "a move number")?)?),
            "currmove" => info.currmove = Some(num(key, value(i, "a move")?)?),
            "score" => {
                let kind = value(i, "'cp <n>' or 'mate <n>'")?;
                let n: i32 = num(kind, value(i + 1, "the score's value")?)?;
                info.score = Some(match kind {
                    "cp" => Score::Cp(n),
                    "mate" => Score::Mate(n),
                    other => {
                        return Err(ParseError::BadValue {
                            head: "info",
                            field: "score".into(),
                            value: other.to_string(),
                        });
                    }
                });
                i += 3;
                match rest.get(i) {
                    Some(&"lowerbound") => info.bound = ScoreBound::Lower,
                    Some(&"upperbound") => info.bound = ScoreBound::Upper,
                    _ => continue,
                }
                i += 1;
                continue;
            }
            "wdl" => {
                let w = num(key, value(i, "three per mille values")?)?;
                let d = num(key, value(i + 1, "three per mille values")?)?;
                let l = num(key, value(i + 2, "three per mille values")?)?;
                info.wdl = Some((w, d, l));
                i += 4;
                continue;
            }
            "pv" => {
                let mut pv = Vec::new();
                i += 1;
                while let Some(w) = rest.get(i) {
                    if INFO_KEYWORDS.contains(w) {
                        break;
                    }
                    pv.push(num("pv", w)?);
                    i += 1;
                }
                info.pv = Some(pv);
                continue;
            }
            "string" => {
                info.string = Some(rest[i + 1..].join(" "));
                break;
            }
            other => {
                return Err(ParseError::Unexpected {
                    head: "info",
                    word: other.to_string(),
                });
            }
        }
        i += 2;
    }
    Ok(info)
}

fn parse_bestmove(rest: &[&str]) -> Result<Reply, ParseError> {
    let mv = |text: &str, field: &str| -> Result<Move, ParseError> {
        text.parse().map_err(|_| ParseError::BadValue {
            head: "bestmove",
            field: field.to_string(),
            value: text.to_string(),
        })
    };
    match rest {
        [] => Err(ParseError::Missing {
            head: "bestmove",
            what: "the move",
        }),
        [best] => Ok(Reply::BestMove {
            best: mv(best, "move")?,
            ponder: None,
        }),
        [best, "ponder", p] => Ok(Reply::BestMove {
            best: mv(best, "move")?,
            ponder: Some(mv(p, "ponder")?),
        }),
        [_, "ponder"] => Err(ParseError::Missing {
            head: "bestmove",
            what: "the move after 'ponder'",
        }),
        [_, "ponder", _, w, ..] | [_, w, ..] => Err(ParseError::Unexpected {
            head: "bestmove",
            word: w.to_string(),
        }),
    }
}

impl fmt::Display for IdLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdLine::Name(t) => write!(f, "id name {t}"),
            IdLine::Author(t) => write!(f, "id author {t}"),
        }
    }
}

impl OptionLine {
    /// The line that announces an option of the given kind.
    pub fn of(name: &str, kind: &OptionKind) -> OptionLine {
        let mut line = OptionLine {
            name: name.to_string(),
            kind: OptionType::Button,
            default: None,
            min: None,
            max: None,
            vars: Vec::new(),
        };
        match kind {
            OptionKind::Check { default } => {
                line.kind = OptionType::Check;
                line.default = Some(default.to_string());
            }
            OptionKind::Spin { default, min, max } => {
                line.kind = OptionType::Spin;
                line.default = Some(default.to_string());
                (line.min, line.max) = (Some(*min), Some(*max));
            }
            OptionKind::Combo { default, choices } => {
                line.kind = OptionType::Combo;
                line.default = Some(default.to_string());
                line.vars = choices.iter().map(|c| c.to_string()).collect();
            }
            OptionKind::Button => {}
            OptionKind::String { default } => {
                line.kind = OptionType::String;
                line.default = Some(default.to_string());
            }
        }
        line
    }
}

impl fmt::Display for OptionLine {
    /// `option name <name> type <type> default <v> [min <a> max <b>] [var <v> ...]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type {}", self.name, self.kind.name())?;
        if let Some(d) = &self.default {
            write!(f, " default {d}")?;
        }
        if let Some(v) = self.min {
            write!(f, " min {v}")?;
        }
        if let Some(v) = self.max {
            write!(f, " max {v}")?;
        }
        for v in &self.vars {
            write!(f, " var {v}")?;
        }
        Ok(())
    }
}

impl fmt::Display for InfoLine {
    /// The fields present, in the protocol loop's order: `depth seldepth multipv
    /// score [bound] wdl nodes nps time hashfull tbhits currmove currmovenumber pv string`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(v) = self.depth {
            write!(f, " depth {v}")?;
        }
        if let Some(v) = self.seldepth {
            write!(f, " seldepth {v}")?;
        }
        if let Some(v) = self.multipv {
            write!(f, " multipv {v}")?;
        }
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
            match self.bound {
                ScoreBound::Exact => {}
                ScoreBound::Lower => f.write_str(" lowerbound")?,
                ScoreBound::Upper => f.write_str(" upperbound")?,
            }
        }
        if let Some((w, d, l)) = self.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        if let Some(v) = self.nodes {
            write!(f, " nodes {v}")?;
        }
        if let Some(v) = self.nps {
            write!(f, " nps {v}")?;
        }
        if let Some(v) = self.time {
            write!(f, " time {v}")?;
        }
        if let Some(v) = self.hashfull {
            write!(f, " hashfull {v}")?;
        }
        if let Some(v) = self.tbhits {
            write!(f, " tbhits {v}")?;
        }
        if let Some(v) = self.currmove {
            write!(f, " currmove {v}")?;
        }
        if let Some(v) = self.currmovenumber {
            write!(f, " currmovenumber {v}")?;
        }
        if let Some(pv) = &self.pv {
            f.write_str(" pv")?;
            for m in pv {
                write!(f, " {m}")?;
            }
        }
        if let Some(s) = &self.string {
            write!(f, " string {s}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id(id) => id.fmt(f),
            Reply::Option(o) => o.fmt(f),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => info.fmt(f),
            Reply::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

    fn round_trip(line: &str) -> Reply {
        let reply: Reply = line
            .parse()
            .unwrap_or_else(|e| panic!("{line:?} did not parse: {e}"));
        assert_eq!(reply.to_string(), line, "display of {reply:?}");
        assert_eq!(reply.to_string().parse::<Reply>(), Ok(reply.clone()));
        reply
    }

    #[test]
    fn the_engines_lines_round_trip() {
        for line in [
            "id name doushou 0.1.0",
            "id author the doushou developers",
            "uciok",
            "readyok",
            "option name Threads type spin default 1 min 1 max 256",
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name UCI_Variant type combo default jungle var jungle var xoudouqi",
            "option name Book File type string default my book.txt",
            "info depth 7 seldepth 12 multipv 1 score cp -35 nodes 1234 nps 56000 time 22 hashfull 3 pv g3g4 a7a6 g4g5",
            "info depth 7 seldepth 9 multipv 2 score mate -3 upperbound wdl 0 0 1000 nodes 1 nps 1000 time 0 hashfull 0 pv",
            "info depth 9 seldepth 9 multipv 1 score cp 12 lowerbound nodes 5 nps 5 time 1 hashfull 0 pv c3d3",
            "info depth 0 score mate 0",
            "info depth 0 score cp 0",
            "info string game over: red wins: a piece entered the blue den",
            "info string error: unknown command 'foo'",
            "info currmove g3g4 currmovenumber 2",
            "bestmove g3g4",
            "bestmove c3d3 ponder a6b6",
            "bestmove 0000",
        ] {
            round_trip(line);
        }
    }

    #[test]
    fn the_uci_answer_of_the_engine_parses_and_prints_back() {
        // Every option line the engine prints, built as uci.rs builds it.
        for (name, kind) in Engine::option_list() {
            let built = OptionLine::of(name, &kind);
            let line = built.to_string();
            let Reply::Option(o) = round_trip(&line) else {
                panic!("{line} is not an option");
            };
            assert_eq!(o.name, name);
            assert_eq!(o, built, "{line}");
        }
    }

    #[test]
    fn fields_are_read() {
        let Ok(Reply::Info(info)) =
            "info depth 3 score cp 40 lowerbound nodes 99 pv a3a4 a7a6 string hi there".parse()
        else {
            panic!("info did not parse");
        };
        assert_eq!(info.depth, Some(3));
        assert_eq!(info.score, Some(Score::Cp(40)));
        assert_eq!(info.bound, ScoreBound::Lower);
        assert_eq!(info.pv.as_ref().map(Vec::len), Some(2));
        assert_eq!(info.string.as_deref(), Some("hi there"));
        assert_eq!(
            "bestmove g3g4 ponder a7a6".parse(),
            Ok(Reply::BestMove {
                best: "g3g4".parse().unwrap(),
                ponder: Some("a7a6".parse().unwrap())
            })
        );
    }

    #[test]
    fn bad_lines_say_why() {
        for bad in [
            "",
            "   ",
            "hello",
            "uciok now",
            "id",
            "id name",
            "id colour red",
            "option",
            "option name",
            "option name X",
            "option name X type",
            "option name X type dial",
            "option name X type spin min low",
            "option name X type combo var",
            "info depth",
            "info depth deep",
            "info score",
            "info score cp",
            "info score pawns 3",
            "info wdl 1 2",
            "info pv g3g4 zz",
            "info sideways 3",
            "bestmove",
            "bestmove xyzzy",
            "bestmove g3g4 ponder",
            "bestmove g3g4 ponder q9q9",
            "bestmove g3g4 extra",
            "bestmove g3g4 ponder a7a6 more",
        ] {
            assert!(bad.parse::<Reply>().is_err(), "{bad:?} parsed");
        }
        assert_eq!("".parse::<Reply>(), Err(ParseError::Empty));
        assert!(matches!(
            "bestmove xyzzy".parse::<Reply>(),
            Err(ParseError::BadValue { .. })
        ));
    }
}
