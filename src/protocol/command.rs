//! The commands of the protocol as a typed enum, parsed with `FromStr`.
//! Parsing checks the shape of a command; whether a position or move is legal is
//! the engine's business.

use crate::engine::Limits;
use crate::rules::{Move, START_FEN};
use std::fmt;
use std::str::FromStr;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `debug on|off`.
    Debug(bool),
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `ucinewgame`.
    NewGame,
    /// `position startpos|fen <fen> [moves ...]`.
    Position {
        /// The position's text (`startpos` becomes the start position's).
        fen: String,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// `go ...` with search limits.
    Go(Limits),
    /// `go perft <depth>`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: draw the board and state.
    Display,
    /// `eval`: the evaluation term by term.
    Eval,
    /// `moves`: the legal moves.
    Moves,
    /// `bench [depth]`.
    Bench(Option<u32>),
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// No command word known by that name.
    Unknown(String),
    /// A command lacks a part.
    Missing {
        /// The command.
        command: &'static str,
        /// What it lacks.
        what: &'static str,
    },
    /// A part of a command has a bad value.
    BadValue {
        /// The command.
        command: &'static str,
        /// Which part.
        field: String,
        /// The value given.
        value: String,
    },
    /// A word that the command does not take.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        word: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(w) => write!(f, "unknown command '{}'", w.escape_default()),
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            CommandError::BadValue {
                command,
                field,
                value,
            } => write!(
                f,
                "{command}: bad value '{}' for {field}",
                value.escape_default()
            ),
            CommandError::Unexpected { command, word } => {
                write!(f, "{command}: unexpected '{}'", word.escape_default())
            }
        }
    }
}

impl std::error::Error for CommandError {}

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
    type Err = CommandError;

    /// Parses one line; words are separated by any run of spaces or tabs.
    fn from_str(line: &str) -> Result<Command, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            return Err(CommandError::Unknown(String::new()));
        };
        let no_args = |cmd: Command, name: &'static str| match rest.first() {
            None => Ok(cmd),
            Some(w) => Err(CommandError::Unexpected {
                command: name,
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
            "d" => no_args(Command::Display, "d"),
            "eval" => no_args(Command::Eval, "eval"),
            "moves" => no_args(Command::Moves, "moves"),
            "debug" => match rest {
                ["on"] => Ok(Command::Debug(true)),
                ["off"] => Ok(Command::Debug(false)),
                [] => Err(CommandError::Missing {
                    command: "debug",
                    what: "on or off",
                }),
                [w, ..] => Err(CommandError::BadValue {
                    command: "debug",
                    field: "mode".into(),
                    value: w.to_string(),
                }),
            },
            "bench" => match rest {
                [] => Ok(Command::Bench(None)),
                [d] => Ok(Command::Bench(Some(number("bench", "depth", d)?))),
                [_, w, ..] => Err(CommandError::Unexpected {
                    command: "bench",
                    word: w.to_string(),
                }),
            },
            "setoption" => parse_setoption(rest),
            "position" => parse_position(rest),
            "go" => parse_go(rest),
            other => Err(CommandError::Unknown(other.to_string())),
        }
    }
}

fn number<T: FromStr>(command: &'static str, field: &str, text: &str) -> Result<T, CommandError> {
    text.parse().map_err(|_| CommandError::BadValue {
        command,
        field: field.to_string(),
        value: text.to_string(),
    })
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    let missing = CommandError::Missing {
        command: "setoption",
        what: "'name <option>'",
    };
    let (first, rest) = rest.split_first().ok_or(missing.clone())?;
    if *first != "name" {
        return Err(CommandError::Unexpected {
            command: "setoption",
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
        return Err(CommandError::Missing {
            command: "setoption",
            what: "the value after 'value'",
        });
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => START_FEN.to_string(),
        ["startpos", w, ..] => {
            return Err(CommandError::Unexpected {
                command: "position",
                word: w.to_string(),
            });
        }
        ["fen", fields @ ..] if !fields.is_empty() => fields.join(" "),
        ["fen"] => {
            return Err(CommandError::Missing {
                command: "position",
                what: "the position after 'fen'",
            });
        }
        [] => {
            return Err(CommandError::Missing {
                command: "position",
                what: "'startpos' or 'fen <position>'",
            });
        }
        [w, ..] => {
            return Err(CommandError::Unexpected {
                command: "position",
                word: w.to_string(),
            });
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(rest: &[&str]) -> Result<Command, CommandError> {
    let mut limits = Limits::default();
    let mut i = 0;
    // Clocks can go negative in some GUIs once time is out; that is zero left.
    let time = |i: usize| -> Result<u64, CommandError> {
        let text = rest.get(i + 1).ok_or(CommandError::Missing {
            command: "go",
            what: "a value after a time keyword",
        })?;
        Ok(number::<i64>("go", rest[i], text)?.max(0) as u64)
    };
    let count = |i: usize| -> Result<u64, CommandError> {
        let text = rest.get(i + 1).ok_or(CommandError::Missing {
            command: "go",
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
                    let m: Move = rest[i].parse().map_err(|_| CommandError::BadValue {
                        command: "go",
                        field: "searchmoves".into(),
                        value: rest[i].to_string(),
                    })?;
                    limits.searchmoves.push(m);
                }
                if limits.searchmoves.is_empty() {
                    return Err(CommandError::Missing {
                        command: "go",
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
                    "winc" => limits.time.red_increment = v,
                    "binc" => limits.time.blue_increment = v,
                    _ => limits.time.movetime = Some(v),
                }
                i += 1;
            }
            kw @ ("movestogo" | "depth" | "nodes" | "mate" | "perft") => {
                let v = count(i)?;
                let small = || -> Result<u32, CommandError> {
                    u32::try_from(v).map_err(|_| CommandError::BadValue {
                        command: "go",
                        field: kw.to_string(),
                        value: v.to_string(),
                    })
                };
                match kw {
                    "movestogo" => limits.time.moves_to_go = Some(v),
                    "depth" => limits.depth = Some(small()?),
                    "nodes" => limits.nodes = Some(v),
                    "mate" => limits.mate = Some(small()?),
                    _ => {
                        if i + 2 < rest.len() {
                            return Err(CommandError::Unexpected {
                                command: "go",
                                word: rest[i + 2].to_string(),
                            });
                        }
                        return Ok(Command::Perft(small()?));
                    }
                }
                i += 1;
            }
            other => {
                return Err(CommandError::Unexpected {
                    command: "go",
                    word: other.to_string(),
                });
            }
        }
        i += 1;
    }
    // A bare `go` searches until `stop`, as UCI engines do.
    let limited = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.mate.is_some()
        || limits.time.movetime.is_some()
        || limits.time.red_time.is_some()
        || limits.time.blue_time.is_some();
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
}
