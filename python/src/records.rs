//! Game records: every game of a PGN text read and checked against the
//! rules, and one game written, by the crate's own reader and writer (the
//! format `doushou match` and the GUI write). `doushou/pgn.py` turns these
//! plain values into `Game` objects.

use crate::PgnError;
use crate::board::Board;
use doushou::rules::Rules;
use doushou::tools::pgn::read::{Entry, entry_game, read_entries};
use doushou::tools::pgn::{GameTags, Record, today};
use pyo3::prelude::*;

/// One game as read: (first line, tags, rules as `Name=Value ...`, first
/// position, moves, result if any, comments as (moves before it, text)).
type ReadGame = (
    usize,
    Vec<(String, String)>,
    String,
    String,
    Vec<String>,
    Option<String>,
    Vec<(usize, String)>,
);

/// Every game of `text`: records (tags, then moves) and one-line games
/// (`startpos moves ...`), each checked move by move under the rules its
/// `Variant` and `Rules` tags name. The first faulty game raises `PgnError`
/// naming its line.
#[pyfunction]
fn read_games(text: &str) -> PyResult<Vec<ReadGame>> {
    read_entries(text)
        .into_iter()
        .map(|entry| {
            let entry =
                entry.map_err(|e| PgnError::new_err(format!("line {}: {}", e.line, e.error)))?;
            let comments = match &entry {
                Entry::Record(record) => record.comments.clone(),
                Entry::Plain { .. } => Vec::new(),
            };
            let game = entry_game(entry, Rules::default())
                .map_err(|e| PgnError::new_err(format!("line {}: {}", e.line, e.error)))?;
            Ok((
                game.line,
                game.tags,
                game.rules.to_string(),
                game.start.fen,
                game.start.moves,
                game.result,
                comments,
            ))
        })
        .collect()
}

/// The record of one game as `doushou match` writes it: tags in the order
/// given, moves numbered and wrapped, comments in braces, the result.
#[pyfunction]
fn write_game(
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    comments: Vec<(usize, String)>,
    result: String,
) -> String {
    Record {
        tags,
        moves,
        comments,
        result,
    }
    .to_string()
}

/// The tags `doushou match` and the GUI write, in their order, for the game
/// on `board` (its rules, first position and, if it is over, result and
/// termination), dated today.
#[pyfunction]
#[pyo3(signature = (board, event = "?", site = "?", round = "-", red = "?", blue = "?"))]
fn game_tags(
    board: PyRef<'_, Board>,
    event: &str,
    site: &str,
    round: &str,
    red: &str,
    blue: &str,
) -> Vec<(String, String)> {
    let outcome = board.game.outcome();
    GameTags {
        event: event.to_string(),
        site: site.to_string(),
        date: today(),
        round: round.to_string(),
        players: [red.to_string(), blue.to_string()],
        levels: [None, None],
        result: outcome.map_or("*", |o| o.score_text()).to_string(),
        termination: outcome.map(|o| o.to_string()),
        rules: *board.game.rules(),
        time_control: None,
        start_fen: board.game.start_position().fen(),
        extra: Vec::new(),
    }
    .tags()
}

/// Adds the record functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(write_game, m)?)?;
    m.add_function(wrap_pyfunction!(game_tags, m)?)?;
    Ok(())
}
