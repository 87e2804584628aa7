//! The den-race suite: positions from real games where the side to move made
//! the move that lost a race for a den, with the moves that would have held.
//!
//! The suite is built with hindsight ([`build`]): a lost race is usually
//! decided well before the den is entered, and a search from the position
//! before the losing move often agrees with that move. So the builder walks
//! back from each den entry, searching the position *after* each of the
//! loser's moves, to the first move after which a long search sees the loss;
//! the position before it is kept with that move (the mistake) and every move
//! whose resulting position a long search does not see as lost (the holds).
//! [`score`] then counts how many of the suite a search at a given limit
//! answers with a holding move.
//!
//! The suite file is text: `# rules: Name=Value ...` lines (which hold until
//! the next one, as in self-play data), `#` comments, and one line per entry:
//!
//! ```text
//! <fen> [moves m1 m2 ...] ; mistake <move> ; hold <move> <move> ...
//! ```
//!
//! The moves that led to the position are kept: under `Repetition=draw` or
//! `forbid` they are part of it.

pub mod build;
pub mod score;

use crate::engine::score::TB_BOUND;
use crate::rules::{Game, Move, Rules};
use crate::tools::pgn::read::{InputError, PositionSpec, is_skipped, parse_position_line};
use crate::util::fs::{TextFileError, read_text};
use crate::util::options::OptionError;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One position of the suite: where the mistake was made, the mistake, and
/// the moves that hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The rules the game was played under.
    pub rules: Rules,
    /// The position, with the moves that led to it.
    pub position: PositionSpec,
    /// The move the game played, after which a long search sees the loss.
    pub mistake: Move,
    /// Every move after which a long search does not see a loss.
    pub holds: Vec<Move>,
}

impl SuiteEntry {
    /// The entry's line (without its rules, which a `# rules:` line gives).
    pub fn line(&self) -> String {
        let mut out = self.position.fen.clone();
        if !self.position.moves.is_empty() {
            out.push_str(" moves ");
            out.push_str(&self.position.moves.join(" "));
        }
        write!(out, " ; mistake {} ; hold", self.mistake).expect("writing to a String");
        for m in &self.holds {
            write!(out, " {m}").expect("writing to a String");
        }
        out
    }
}

/// Why a suite file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// A `# rules:` line names rules this build does not know.
    #[error("line {line}: rules: {error}")]
    Rules {
        /// The line, from 1.
        line: usize,
        /// What was wrong.
        #[source]
        error: OptionError,
    },
    /// The position, or a move leading to it, is not valid under its rules.
    #[error("line {line}: {error}")]
    Position {
        /// The line, from 1.
        line: usize,
        /// What was wrong.
        #[source]
        error: InputError,
    },
    /// A part of the line is missing or out of place.
    #[error("line {line}: expected '<position> ; mistake <move> ; hold <move>...', {what}")]
    Shape {
        /// The line, from 1.
        line: usize,
        /// What was missing.
        what: &'static str,
    },
    /// The mistake or a hold is not a legal move of the position.
    #[error("line {line}: '{text}' is not a legal move here")]
    Move {
        /// The line, from 1.
        line: usize,
        /// The word that is not a legal move.
        text: String,
    },
    /// The mistake is also listed as a hold, or no move holds.
    #[error("line {line}: the holds must be at least one move, and not the mistake")]
    Holds {
        /// The line, from 1.
        line: usize,
    },
}

/// Why a suite file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SuiteFileError {
    /// The file cannot be read.
    #[error(transparent)]
    File(#[from] TextFileError),
    /// It holds no position (empty, or comments only).
    #[error("{}: no positions in the suite", .0.display())]
    Empty(PathBuf),
    /// A line of it is wrong.
    #[error("{}: {error}", .path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line and what is wrong with it.
        error: Box<SuiteError>,
    },
}

/// Reads a suite file: every entry checked against its rules, and at least one.
pub fn read_suite_file(path: &Path) -> Result<Vec<SuiteEntry>, SuiteFileError> {
    let text = read_text(path)?;
    let entries = read_suite(&text).map_err(|error| SuiteFileError::Line {
        path: path.to_path_buf(),
        error: Box::new(error),
    })?;
    if entries.is_empty() {
        return Err(SuiteFileError::Empty(path.to_path_buf()));
    }
    Ok(entries)
}

/// Reads a suite file's text: every entry checked against its rules.
pub fn read_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut rules = Rules::default();
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if let Some(settings) = raw.trim().strip_prefix("# rules:") {
            rules = Rules::default();
            rules
                .apply_settings(settings.split_whitespace())
                .map_err(|error| SuiteError::Rules { line, error })?;
        } else if !is_skipped(raw) {
            entries.push(parse_entry(raw, line, rules)?);
        }
    }
    Ok(entries)
}

/// One entry line under `rules`.
fn parse_entry(raw: &str, line: usize, rules: Rules) -> Result<SuiteEntry, SuiteError> {
    let shape = |what| SuiteError::Shape { line, what };
    let mut parts = raw.split(';').map(str::trim);
    let position = parse_position_line(parts.next().unwrap_or_default())
        .map_err(|error| SuiteError::Position { line, error })?;
    let mistake = parts
        .next()
        .and_then(|p| p.strip_prefix("mistake"))
        .ok_or(shape("no 'mistake'"))?;
    let holds = parts
        .next()
        .and_then(|p| p.strip_prefix("hold"))
        .ok_or(shape("no 'hold'"))?;
    if parts.next().is_some() {
        return Err(shape("more after the holds"));
    }
    let game = position
        .game(rules)
        .map_err(|error| SuiteError::Position { line, error })?;
    let legal = |text: &str| {
        legal_move(&game, text).ok_or_else(|| SuiteError::Move {
            line,
            text: text.to_string(),
        })
    };
    let mistake = match mistake.split_whitespace().collect::<Vec<_>>()[..] {
        [m] => legal(m)?,
        _ => return Err(shape("one mistake")),
    };
    let holds = holds
        .split_whitespace()
        .map(legal)
        .collect::<Result<Vec<_>, _>>()?;
    if holds.is_empty() || holds.contains(&mistake) {
        return Err(SuiteError::Holds { line });
    }
    Ok(SuiteEntry {
        rules,
        position,
        mistake,
        holds,
    })
}

/// The legal move `text` names in `game`'s position, if it is one (read by
/// the protocol's move parser, in either case).
fn legal_move(game: &Game, text: &str) -> Option<Move> {
    let m: Move = text.to_ascii_lowercase().parse().ok()?;
    game.is_legal(m).then_some(m)
}

/// The whole suite as a file's text, a `# rules:` line wherever the rules change.
pub fn suite_text(entries: &[SuiteEntry]) -> String {
    let mut out = String::new();
    let mut last: Option<Rules> = None;
    for e in entries {
        if last != Some(e.rules) {
            writeln!(out, "# rules: {}", e.rules).expect("writing to a String");
            last = Some(e.rules);
        }
        writeln!(out, "{}", e.line()).expect("writing to a String");
    }
    out
}

/// When a search's score says the side to move wins by force: a mate or a
/// table win, or, if a margin is given, at least that many centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judge {
    /// Scores of at least this many centipawns count as won too.
    pub won_cp: Option<i32>,
}

impl Judge {
    /// Whether `score` (internal units, for the side to move) is a win the
    /// search sees.
    pub fn is_won(&self, score: i32) -> bool {
        // Mates and table wins are the band from TB_BOUND up.
        score >= TB_BOUND || self.won_cp.is_some_and(|cp| score >= cp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::START_FEN;

    fn entry_text() -> String {
        format!("{START_FEN} moves a3a4 ; mistake g7g6 ; hold a7a6 b8b7")
    }

    /// An entry reads back as it was written, with its rules.
    #[test]
    fn an_entry_reads_back_as_written() {
        let text = format!("# rules: Repetition=draw\n# a comment\n{}\n", entry_text());
        let entries = read_suite(&text).unwrap();
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(e.position.moves, vec!["a3a4"]);
        assert_eq!(e.mistake.to_string(), "g7g6");
        assert_eq!(e.holds.len(), 2);
        assert_ne!(e.rules, Rules::default());
        assert_eq!(read_suite(&suite_text(&entries)).unwrap(), entries);
    }

    /// A wrong line is refused with its line number and the cause.
    #[test]
    fn bad_lines_name_their_line_and_cause() {
        let cases = [
            (format!("{START_FEN} ; mistake g7g6"), "no 'hold'"),
            (format!("{START_FEN} ; hold a7a6"), "no 'mistake'"),
            (
                format!("{START_FEN} ; mistake a1a9 ; hold a7a6"),
                "not a legal move",
            ),
            (
                format!("{START_FEN} moves a3a4 ; mistake g7g6 ; hold g7g6"),
                "at least one move",
            ),
            (
                format!("{START_FEN} moves a3a4 ; mistake g7g6 ; hold"),
                "at least one move",
            ),
            ("# rules: NoSuchRule=1".to_string(), "rules"),
        ];
        for (text, cause) in cases {
            let err = read_suite(&format!("\n{text}\n")).unwrap_err().to_string();
            assert!(err.starts_with("line 2: "), "{err}");
            assert!(err.contains(cause), "{text}: {err}");
        }
    }

    /// Mates and table wins are wins; a plain score only past the margin.
    #[test]
    fn the_judge_counts_mates_and_the_margin() {
        let mate_only = Judge { won_cp: None };
        assert!(mate_only.is_won(crate::engine::score::MATE - 5));
        assert!(mate_only.is_won(crate::engine::score::TB_WIN - 40));
        assert!(!mate_only.is_won(5000));
        assert!(!mate_only.is_won(-crate::engine::score::MATE + 5));
        let margin = Judge { won_cp: Some(800) };
        assert!(margin.is_won(800) && !margin.is_won(799));
    }
}
