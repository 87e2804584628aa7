//! The commands of the protocol as a typed enum, parsed with `FromStr`.
//! Parsing checks the shape of a command; whether a position or move is legal is
//! the engine's business.

use super::error::ParseError;
use crate::engine::GoLimits;
use crate::rules::{Move, START_FEN};
use std::str::FromStr;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok` once every earlier command is done.
    IsReady,
    /// `debug on|off`: with on, every line read is echoed as `info string debug: received ...`.
    Debug(bool),
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `ucinewgame`: a new game follows; the transposition table is cleared.
    NewGame,
    /// `position startpos|fen <fen> [moves ...]`.
    Position {
        /// The position's text (`startpos` becomes the start position's).
        fen: String,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// `go ...` with search limits.
    Go(GoLimits),
    /// `go perft <depth>`: count the leaves of the legal move tree, per root move.
    Perft(u32),
    /// `stop`: end the search now and answer `bestmove`.
    Stop,
    /// `ponderhit`: the expected move was played; the ponder search goes on as a normal one.
    PonderHit,
    /// `quit`: stop any search and end the loop.
    Quit,
    /// `d`: draw the board and state.
    Display,
    /// `eval`: the evaluation term by term.
    Eval,
    /// `moves`: the legal moves.
    Moves,
    /// `bench [depth]`: the fixed bench search, default depth [`crate::engine::bench::DEFAULT_DEPTH`].
    Bench(Option<u32>),
    /// `register ...`: UCI's registration, which this engine does not need.
    Register,
    /// `help`: the commands, for a person typing at a terminal.
    Help,
}

/// Every command word, and how many words each takes when that is fixed:
/// words beyond those are ignored (with a warning), as UCI asks.
const COMMAND_WORDS: [(&str, Option<usize>); 16] = [
    ("uci", Some(0)),
    ("help", Some(0)),
    ("isready", Some(0)),
    ("ucinewgame", Some(0)),
    ("stop", Some(0)),
    ("ponderhit", Some(0)),
    ("quit", Some(0)),
    ("d", Some(0)),
    ("eval", Some(0)),
    ("moves", Some(0)),
    ("debug", Some(1)),
    ("register", None),
    ("setoption", None),
    ("position", None),
    ("go", None),
    ("bench", None),
];

/// A line read the way UCI asks: "if the engine receives an unknown command or
/// token it should just ignore it and try to parse the rest of the line". The
/// command found, and what was ignored around it, for a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LenientLine {
    /// The command, read from the words the line's parser knows.
    pub command: Command,
    /// Unknown words before the command word, extra words after a command
    /// that takes none: each was skipped.
    pub ignored: Vec<ParseError>,
}

impl FromStr for LenientLine {
    type Err = ParseError;

    /// Skips words up to the first command word, parses from there, and drops
    /// extra words after a command of fixed length. A line with no command word,
    /// or whose command is malformed, is an error.
    fn from_str(line: &str) -> Result<LenientLine, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let found = words.iter().enumerate().find_map(|(i, w)| {
            COMMAND_WORDS
                .iter()
                .find(|(c, _)| c == w)
                .map(|&(command, arity)| (i, command, arity))
        });
        let Some((start, command, arity)) = found else {
            return Err(ParseError::UnknownCommand(
                words.first().unwrap_or(&"").to_string(),
            ));
        };
        let mut ignored = Vec::new();
        if start > 0 {
            ignored.push(ParseError::UnknownCommand(words[..start].join(" ")));
        }
        let mut end = words.len();
        if let Some(n) = arity
            && words.len() > start + 1 + n
        {
            end = start + 1 + n;
            ignored.push(ParseError::Unexpected {
                head: command,
                word: words[end..].join(" "),
            });
        }
        let command = words[start..end].join(" ").parse()?;
        Ok(LenientLine { command, ignored })
    }
}

/// The keywords of `go`, which end a `searchmoves` list.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

impl FromStr for Command {
    type Err = ParseError;

    /// Parses one line; words are separated by any run of spaces or tabs.
    fn from_str(line: &str) -> Result<Command, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            return Err(ParseError::UnknownCommand(String::new()));
        };
        let no_args = |cmd: Command, name: &'static str| match rest.first() {
            None => Ok(cmd),
            Some(w) => Err(ParseError::Unexpected {
                head: name,
                word: w.to_string(),
            }),
        };
        match head {
            "uci" => no_args(Command::Uci, "uci"),
            "isready" => no_args(Command::IsReady, "isready"),
            "ucinewgame" => no_args(Command::NewGame, "ucinewgame"),
            "stop" => no_args(Command::Stop, "stop"),
            "ponderhit" => no_args(Command::PonderHit, "ponderhit"),
            "quit" => no_args(Command::Quit, "quit"),
            "help" => no_args(Command::Help, "help"),
            "d" => no_args(Command::Display, "d"),
            "eval" => no_args(Command::Eval, "eval"),
            "moves" => no_args(Command::Moves, "moves"),
            "debug" => match rest {
                ["on"] => Ok(Command::Debug(true)),
                ["off"] => Ok(Command::Debug(false)),
                [] => Err(ParseError::Missing {
                    head: "debug",
                    what: "on or off",
                }),
                [w, ..] => Err(ParseError::BadValue {
                    head: "debug",
                    field: "mode".into(),
                    value: w.to_string(),
                }),
            },
            "register" => Ok(Command::Register),
            "bench" => match rest {
                [] => Ok(Command::Bench(None)),
                [d] => Ok(Command::Bench(Some(depth("bench", d)?))),
                [_, w, ..] => Err(ParseError::Unexpected {
                    head: "bench",
                    word: w.to_string(),
                }),
            },
            "setoption" => parse_setoption(rest),
            "position" => parse_position(rest),
            "go" => parse_go(rest),
            other => Err(ParseError::UnknownCommand(other.to_string())),
        }
    }
}

fn number<T: FromStr>(command: &'static str, field: &str, text: &str) -> Result<T, ParseError> {
    text.parse().map_err(|_| ParseError::BadValue {
        head: command,
        field: field.to_string(),
        value: text.to_string(),
    })
}

/// A search depth: 1 to [`crate::engine::MAX_DEPTH`], as every tool's `--depth`.
fn depth(command: &'static str, text: &str) -> Result<u32, ParseError> {
    number::<u32>(command, "depth", text)
        .ok()
        .filter(|d| (1..=crate::engine::MAX_DEPTH).contains(d))
        .ok_or_else(|| ParseError::BadValue {
            head: command,
            field: "depth (1 to 100)".into(),
            value: text.to_string(),
        })
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    let missing = ParseError::Missing {
        head: "setoption",
        what: "'name <option>'",
    };
    let (first, rest) = rest.split_first().ok_or(missing.clone())?;
    if *first != "name" {
        return Err(ParseError::Unexpected {
            head: "setoption",
            word: first.to_string(),
        });
    }
    let value_at = rest.iter().position(|w| *w == "value");
    let name_words = &rest[..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(missing);
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(ParseError::Missing {
            head: "setoption",
            what: "the value after 'value'",
        });
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => START_FEN.to_string(),
        ["startpos", w, ..] => {
            return Err(ParseError::Unexpected {
                head: "position",
                word: w.to_string(),
            });
        }
        ["fen", fields @ ..] if !fields.is_empty() => fields.join(" "),
        ["fen"] => {
            return Err(ParseError::Missing {
                head: "position",
                what: "the position after 'fen'",
            });
        }
        [] => {
            return Err(ParseError::Missing {
                head: "position",
                what: "'startpos' or 'fen <position>'",
            });
        }
        [w, ..] => {
            return Err(ParseError::Unexpected {
                head: "position",
                word: w.to_string(),
            });
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(rest: &[&str]) -> Result<Command, ParseError> {
    let mut limits = GoLimits::default();
    let mut i = 0;
    // Clocks can go negative in some GUIs once time is out; that is zero
    // left. A move time is asked for, not counted down: it cannot be.
    let time = |i: usize| -> Result<u64, ParseError> {
        let text = rest.get(i + 1).ok_or(ParseError::Missing {
            head: "go",
            what: "a value after a time keyword",
        })?;
        if rest[i] == "movetime" {
            return number::<u64>("go", rest[i], text);
        }
        Ok(number::<i64>("go", rest[i], text)?.max(0) as u64)
    };
    let count = |i: usize| -> Result<u64, ParseError> {
        let text = rest.get(i + 1).ok_or(ParseError::Missing {
            head: "go",
            what: "a value after depth, nodes, mate, movestogo or perft",
        })?;
        number::<u64>("go", rest[i], text)
    };
    while i < rest.len() {
        match rest[i] {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i + 1 < rest.len() && !GO_KEYWORDS.contains(&rest[i + 1]) {
                    i += 1;
                    let m: Move = rest[i].parse().map_err(|_| ParseError::BadValue {
                        head: "go",
                        field: "searchmoves".into(),
                        value: rest[i].to_string(),
                    })?;
                    limits.searchmoves.push(m);
                }
                if limits.searchmoves.is_empty() {
                    return Err(ParseError::Missing {
                        head: "go",
                        what: "moves after searchmoves",
                    });
                }
                i += 1;
                continue;
            }
            kw @ ("wtime" | "btime" | "winc" | "binc" | "movetime") => {
                let v = time(i)?;
                match kw {
                    "wtime" => limits.time.red_time = Some(v),
                    "btime" => limits.time.blue_time = Some(v),
                    "winc" => limits.time.red_increment = Some(v),
                    "binc" => limits.time.blue_increment = Some(v),
                    _ => limits.time.movetime = Some(v),
                }
                i += 1;
            }
            kw @ ("movestogo" | "depth" | "nodes" | "mate" | "perft") => {
                let v = count(i)?;
                let small = || -> Result<u32, ParseError> {
                    u32::try_from(v).map_err(|_| ParseError::BadValue {
                        head: "go",
                        field: kw.to_string(),
                        value: v.to_string(),
                    })
                };
                match kw {
                    "movestogo" => limits.time.moves_to_go = Some(v),
                    "depth" => limits.depth = Some(depth("go", rest[i + 1])?),
                    "nodes" => limits.nodes = Some(v),
                    "mate" => limits.mate = Some(small()?),
                    _ => {
                        if i + 2 < rest.len() {
                            return Err(ParseError::Unexpected {
                                head: "go",
                                word: rest[i + 2].to_string(),
                            });
                        }
                        return Ok(Command::Perft(small()?));
                    }
                }
                i += 1;
            }
            other => {
                return Err(ParseError::Unexpected {
                    head: "go",
                    word: other.to_string(),
                });
            }
        }
        i += 1;
    }
    // A bare `go` searches until `stop`, as UCI engines do. Any clock word
    // asks for a move, even without the mover's clock (see `lacks_mover_clock`).
    let t = &limits.time;
    let limited = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.mate.is_some()
        || t.movetime.is_some()
        || t.red_time.is_some()
        || t.blue_time.is_some()
        || t.red_increment.is_some()
        || t.blue_increment.is_some()
        || t.moves_to_go.is_some();
    if !limited {
        limits.infinite = true;
    }
    Ok(Command::Go(limits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!("uci".parse(), Ok(Command::Uci));
        assert_eq!(
            "  setoption   name Move Overhead value 50 ".parse(),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            })
        );
        assert_eq!(
            "setoption name Clear Hash".parse(),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        let Ok(Command::Position { fen, moves }) =
            "position fen 7/7/7/7/7/7/7/7/3l3 b 0 1 moves a1a2 b2b3".parse()
        else {
            panic!("position fen did not parse");
        };
        assert_eq!(fen, "7/7/7/7/7/7/7/7/3l3 b 0 1");
        assert_eq!(moves, vec!["a1a2", "b2b3"]);
        let Ok(Command::Go(l)) =
            "go wtime -5 btime 1000 winc 10 binc 10 searchmoves a3a4 g3g4 depth 5".parse()
        else {
            panic!("go did not parse");
        };
        assert_eq!(l.time.red_time, Some(0));
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.depth, Some(5));
        assert_eq!("go perft 3".parse(), Ok(Command::Perft(3)));
        let Ok(Command::Go(bare)) = "go".parse() else {
            panic!("go did not parse");
        };
        assert!(bare.infinite, "a bare go searches until stop");
    }

    #[test]
    fn bad_commands_say_why() {
        for bad in [
            "",
            "foo",
            "go depth",
            "go depth x",
            "go sideways",
            "position",
            "position fen",
            "position startpos extra",
            "setoption",
            "setoption name",
            "setoption name Hash value",
            "debug maybe",
            "isready now",
            "go searchmoves",
            "go searchmoves zz99",
        ] {
            assert!(bad.parse::<Command>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn unknown_words_are_skipped_as_uci_asks() {
        let lenient = |line: &str| line.parse::<LenientLine>();
        let joho = lenient("joho isready").expect("isready found");
        assert_eq!(joho.command, Command::IsReady);
        assert_eq!(
            joho.ignored,
            vec![ParseError::UnknownCommand("joho".into())]
        );
        let extra = lenient("isready extra words").expect("isready found");
        assert_eq!(extra.command, Command::IsReady);
        assert_eq!(
            extra.ignored,
            vec![ParseError::Unexpected {
                head: "isready",
                word: "extra words".into()
            }]
        );
        assert_eq!(
            lenient("joho debug on").map(|l| l.command),
            Ok(Command::Debug(true))
        );
        assert_eq!(lenient("uci").map(|l| l.ignored), Ok(Vec::new()));
        assert_eq!(
            lenient("register later").map(|l| l.command),
            Ok(Command::Register)
        );
        // Nothing to find, or a malformed command found: still errors.
        assert_eq!(
            lenient("xyzzy plugh"),
            Err(ParseError::UnknownCommand("xyzzy".into()))
        );
        assert_eq!(
            lenient("joho position fen").map_err(|e| e.head()),
            Err(Some("position"))
        );
        assert_eq!(lenient("go depth x").map_err(|e| e.head()), Err(Some("go")));
    }

    #[test]
    fn any_clock_word_asks_for_a_move() {
        for line in [
            "go btime 1000",
            "go winc 100",
            "go movestogo 5",
            "go binc 0",
        ] {
            let Ok(Command::Go(limits)) = line.parse() else {
                panic!("{line} did not parse");
            };
            assert!(!limits.infinite, "{line} would wait for stop");
        }
    }
}
