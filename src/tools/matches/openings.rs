//! Openings: the positions games start from. A file holds one opening a line,
//! either a position (`<fen> [moves ...]`) or moves from the start position;
//! `#` starts a comment. Each is checked with the rules: legal and not over.

use crate::rules::{Game, GameError, Outcome, Rules, START_FEN};
use crate::util::fs::{TextFileError, read_text};
use crate::util::rng::SplitMix64;
use std::fmt;

/// The default openings (`bench-positions/openings.txt`), built into the
/// binary so that `doushou match` runs anywhere.
pub const DEFAULT_OPENINGS: &str = include_str!("../../../bench-positions/openings.txt");

/// Where a game starts: a position and moves played from it (the moves are
/// part of the game record, so repetitions count from the position).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Opening {
    /// The first position, as text.
    pub fen: String,
    /// Moves from it, in protocol notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The opening's game under `rules`: its moves played, ready to go on.
    pub fn game(&self, rules: Rules) -> Result<Game, OpeningError> {
        let game = Game::from_fen_and_moves(rules, &self.fen, &self.moves)
            .map_err(OpeningError::Invalid)?;
        if let Some(outcome) = game.outcome() {
            return Err(OpeningError::Over(outcome));
        }
        Ok(game)
    }
}

impl fmt::Display for Opening {
    /// The line as an openings file holds it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.fen == START_FEN {
            f.write_str(&self.moves.join(" "))
        } else if self.moves.is_empty() {
            f.write_str(&self.fen)
        } else {
            write!(f, "{} moves {}", self.fen, self.moves.join(" "))
        }
    }
}

/// Why an opening was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The position or a move is not valid under the rules.
    #[error(transparent)]
    Invalid(#[from] GameError),
    /// The game is already over there.
    #[error("the game is already over ({0})")]
    Over(Outcome),
    /// The file holds no opening.
    #[error("no opening in the file")]
    Empty,
    /// A line of a file is refused.
    #[error("line {line}: {error}")]
    Line {
        /// Line number, from 1.
        line: usize,
        /// Why the line was refused (never another `Line`).
        #[source]
        error: Box<OpeningError>,
    },
}

/// Why an openings file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsFileError {
    /// The file cannot be opened, or holds no text.
    #[error("--openings: {0}")]
    File(#[from] TextFileError),
    /// The file holds a line that is refused.
    #[error("--openings {}: {source}", path.display())]
    Refused {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong in it.
        #[source]
        source: OpeningError,
    },
}

/// Reads the openings file at `path` and checks each opening under `rules`.
pub fn read_openings(
    path: &std::path::Path,
    rules: Rules,
) -> Result<Vec<Opening>, OpeningsFileError> {
    let text = read_text(path)?;
    parse_openings(&text, rules).map_err(|source| OpeningsFileError::Refused {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads openings from a file's text and checks each under `rules`.
pub fn parse_openings(text: &str, rules: Rules) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at_line = |error| OpeningError::Line {
            line: i + 1,
            error: Box::new(error),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves_at = words.iter().position(|w| *w == "moves");
        let opening = if words[0].contains('/') {
            let (fen, moves) = match moves_at {
                Some(m) => (&words[..m], &words[m + 1..]),
                None => (&words[..], &[][..]),
            };
            Opening {
                fen: fen.join(" "),
                moves: moves.iter().map(|m| m.to_string()).collect(),
            }
        } else {
            let moves = if words[0] == "startpos" || words[0] == "moves" {
                &words[moves_at.map_or(1, |m| m + 1)..]
            } else {
                &words[..]
            };
            Opening {
                fen: START_FEN.to_string(),
                moves: moves.iter().map(|m| m.to_string()).collect(),
            }
        };
        opening.game(rules).map_err(at_line)?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

/// `count` openings of `plies` random legal moves from the start position,
/// none of them over. Deterministic in `seed`.
pub fn random_openings(count: usize, plies: usize, seed: u64, rules: Rules) -> Vec<Opening> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 100 + 100 {
        attempts += 1;
        let mut game = Game::new(rules, crate::rules::Position::startpos());
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies && game.outcome().is_none() {
            let legal = game.legal_moves();
            let m = legal[rng.below(legal.len())];
            game.make(m);
            moves.push(m.to_string());
        }
        let opening = Opening {
            fen: START_FEN.to_string(),
            moves,
        };
        if game.outcome().is_none() && !out.contains(&opening) {
            out.push(opening);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_openings_are_legal_open_and_distinct_positions_under_both_presets() {
        for rules in [Rules::JUNGLE, Rules::XOUDOUQI] {
            let openings = parse_openings(DEFAULT_OPENINGS, rules).unwrap();
            assert!(openings.len() >= 1000, "{}", openings.len());
            let mut keys = std::collections::HashSet::new();
            for opening in &openings {
                let game = opening.game(rules).unwrap();
                assert!(
                    keys.insert(game.position().key()),
                    "{opening}: a transposition"
                );
            }
        }
    }

    #[test]
    fn lines_of_both_kinds_are_read_and_checked() {
        let text =
            "# comment\n\ng3g4 a7a6\nstartpos moves a3a4\n7/7/7/7/3l3/7/7/7/2L4 w 0 1 # fen\n";
        let openings = parse_openings(text, Rules::default()).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].moves, ["g3g4", "a7a6"]);
        assert_eq!(openings[1].moves, ["a3a4"]);
        assert_eq!(openings[2].fen, "7/7/7/7/3l3/7/7/7/2L4 w 0 1");
        for bad in ["g3g5", "zz", "3L3/7/7/7/7/7/7/7/3l3 b 0 1", "# nothing"] {
            assert!(parse_openings(bad, Rules::default()).is_err(), "{bad}");
        }
        let Err(OpeningError::Line { line, .. }) =
            parse_openings("g3g4\ng3g4 g4g5", Rules::default())
        else {
            panic!("accepted");
        };
        assert_eq!(line, 2);
    }

    #[test]
    fn random_openings_are_deterministic_and_open() {
        let a = random_openings(10, 6, 42, Rules::default());
        assert_eq!(a, random_openings(10, 6, 42, Rules::default()));
        assert_ne!(a, random_openings(10, 6, 43, Rules::default()));
        assert_eq!(a.len(), 10);
        for o in &a {
            assert_eq!(o.moves.len(), 6);
            o.game(Rules::default()).unwrap();
        }
    }
}
