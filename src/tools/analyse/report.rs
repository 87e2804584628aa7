//! The lines `doushou analyse` prints: readable text, or one JSON object per
//! line. Scores are always from the side to move's (or the mover's) view, as
//! the protocol gives them: `cp N` or `mate N`. A position the endgame tables
//! hold is marked with their verdict, for its side to move too: `tb win 17`,
//! `tb loss 16`, `tb draw` (in JSON `"tablebase": {"verdict": "win", "plies":
//! 17}`, `null` when the tables do not hold it or there are none).

use super::annotate::{GameNotes, PlyNote};
use crate::engine::score::{Score, wdl};
use crate::engine::search::SearchResult;
use crate::rules::{Move, Outcome, Side};
use crate::tb::Verdict;
use crate::tools::pgn::read::{GameSpec, LineError};
use crate::util::words::count;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// A score as text: `cp 12` or `mate -3`.
fn score_text(score: i32) -> String {
    Score::from_internal(score).to_string()
}

/// Win/draw/loss per mille for the side to move of a finished game.
fn outcome_wdl(outcome: Outcome, to_move: Side) -> (u32, u32, u32) {
    match outcome {
        Outcome::Draw(_) => (0, 1000, 0),
        Outcome::Win { winner, .. } if winner == to_move => (1000, 0, 0),
        Outcome::Win { .. } => (0, 0, 1000),
    }
}

fn moves_text(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(Move::to_string).collect();
    words.join(" ")
}

fn move_words(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// A table's verdict in JSON: `{"verdict": "win", "plies": 17}`; a draw has
/// `"plies": null`.
#[derive(Serialize)]
struct TableRecord {
    verdict: &'static str,
    plies: Option<u32>,
}

fn table_record(v: Option<Verdict>) -> Option<TableRecord> {
    v.map(|v| match v {
        Verdict::Win(n) => TableRecord {
            verdict: "win",
            plies: Some(n),
        },
        Verdict::Loss(n) => TableRecord {
            verdict: "loss",
            plies: Some(n),
        },
        Verdict::Draw => TableRecord {
            verdict: "draw",
            plies: None,
        },
    })
}

/// ` tb win 17` (a leading space), or nothing.
fn table_text(v: Option<Verdict>) -> String {
    v.map_or_else(String::new, |v| format!(" tb {v}"))
}

/// One JSON line; the records hold only strings and numbers, which always
/// serialise.
fn json_line(record: &impl Serialize) -> String {
    serde_json::to_string(record).expect("analysis records serialise")
}

/// The line for an input fault.
#[derive(Serialize)]
struct ErrorRecord<'a> {
    line: usize,
    error: &'a str,
}

/// The answer for a position; a finished game has no move or score but a
/// result and an outcome.
#[derive(Serialize)]
struct PositionRecord<'a> {
    line: usize,
    fen: &'a str,
    bestmove: Option<String>,
    score: Option<Score>,
    wdl: [u32; 3],
    depth: i32,
    nodes: u64,
    pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    multipv: Option<Vec<LineRecord>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<String>,
    tablebase: Option<TableRecord>,
}

/// One of the MultiPV lines.
#[derive(Serialize)]
struct LineRecord {
    multipv: usize,
    score: Score,
    wdl: [u32; 3],
    pv: Vec<String>,
}

/// The answer for a game.
#[derive(Serialize)]
struct GameJson<'a> {
    game: usize,
    line: usize,
    /// The tags in the record's order (a map would sort them).
    #[serde(serialize_with = "ordered_map")]
    tags: &'a [(String, String)],
    rules: String,
    fen: &'a str,
    result: Option<String>,
    outcome: Option<String>,
    blunders: Blunders,
    moves: Vec<PlyRecord>,
    /// The tables' verdict for the last position.
    final_tablebase: Option<TableRecord>,
}

/// Blunders per side, as the game's JSON record counts them.
#[derive(Serialize)]
struct Blunders {
    red: usize,
    blue: usize,
}

/// One move of a game and its judgement.
#[derive(Serialize)]
struct PlyRecord {
    ply: usize,
    move_number: u32,
    side: &'static str,
    fen: String,
    #[serde(rename = "move")]
    played: String,
    best: String,
    score_before: Score,
    score_after: Score,
    drop: i32,
    blunder: bool,
    depth: i32,
    pv: Vec<String>,
    /// The tables' verdict for the position before the move.
    tablebase: Option<TableRecord>,
}

fn ordered_map<S: Serializer>(
    pairs: &&[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(pairs.len()))?;
    for (name, value) in pairs.iter() {
        map.serialize_entry(name, value)?;
    }
    map.end()
}

/// The line for a fault in the input (or a search that could not run).
pub fn error(e: &LineError, as_json: bool) -> String {
    error_message(e.line, &e.error.to_string(), as_json)
}

/// The same for a message that is not an input fault.
pub fn error_message(line: usize, message: &str, as_json: bool) -> String {
    if as_json {
        json_line(&ErrorRecord {
            line,
            error: message,
        })
    } else {
        format!("line {line}: error: {message}")
    }
}

/// The answer for one position line. `fen` is the position searched (after
/// the line's moves), `to_move` its side to move and `table` the endgame
/// tables' verdict for it.
pub fn position(
    line: usize,
    fen: &str,
    to_move: Side,
    r: &SearchResult,
    table: Option<Verdict>,
    multipv: usize,
    as_json: bool,
) -> String {
    if let Some(outcome) = r.outcome {
        return if as_json {
            let (w, d, l) = outcome_wdl(outcome, to_move);
            json_line(&PositionRecord {
                line,
                fen,
                bestmove: None,
                score: None,
                wdl: [w, d, l],
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                multipv: None,
                result: Some(outcome.score_text()),
                outcome: Some(outcome.to_string()),
                tablebase: table_record(table),
            })
        } else {
            format!(
                "line {line}: game over: {} ({outcome}){}",
                outcome.score_text(),
                table_text(table)
            )
        };
    }
    // A position the tables draw is a certain draw, and so is each of its
    // lines (the search keeps to the drawing moves): not a logistic guess
    // from its score of 0.
    let odds = |score| match table {
        Some(Verdict::Draw) => (0, 1000, 0),
        _ => wdl(score),
    };
    if as_json {
        let wdl_array = |score| {
            let (w, d, l) = odds(score);
            [w, d, l]
        };
        let lines = (multipv > 1).then(|| {
            r.lines
                .iter()
                .enumerate()
                .map(|(i, (score, pv))| LineRecord {
                    multipv: i + 1,
                    score: Score::from_internal(*score),
                    wdl: wdl_array(*score),
                    pv: move_words(pv),
                })
                .collect()
        });
        json_line(&PositionRecord {
            line,
            fen,
            bestmove: Some(r.best_move.to_string()),
            score: Some(Score::from_internal(r.score)),
            wdl: wdl_array(r.score),
            depth: r.depth,
            nodes: r.nodes,
            pv: move_words(&r.pv),
            multipv: lines,
            result: None,
            outcome: None,
            tablebase: table_record(table),
        })
    } else {
        let (w, d, l) = odds(r.score);
        let mut s = format!(
            "line {line}: bestmove {} score {} wdl {w} {d} {l} depth {} nodes {}{} pv {}",
            r.best_move,
            score_text(r.score),
            r.depth,
            r.nodes,
            table_text(table),
            moves_text(&r.pv)
        );
        if multipv > 1 {
            for (i, (score, pv)) in r.lines.iter().enumerate().skip(1) {
                s.push_str(&format!(
                    " | {}: score {} pv {}",
                    i + 1,
                    score_text(*score),
                    moves_text(pv)
                ));
            }
        }
        s
    }
}

/// `12.` for Red's move, `12...` for Blue's.
fn move_label(note: &PlyNote) -> String {
    match note.side {
        Side::Red => format!("{}.", note.move_number),
        Side::Blue => format!("{}...", note.move_number),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Blue => "blue",
    }
}

/// The answer for one game: one JSON object, or a text block (a header, then
/// one line per move, then how the game ended). `tables` holds the endgame
/// tables' verdict for the position before each move, then for the last one.
pub fn game(
    number: usize,
    spec: &GameSpec,
    notes: &GameNotes,
    tables: &[Option<Verdict>],
    as_json: bool,
) -> String {
    let table = |i: usize| tables.get(i).copied().flatten();
    let [red_blunders, blue_blunders] = notes.blunders();
    let result = spec
        .result
        .clone()
        .or_else(|| notes.outcome.map(|o| o.score_text().to_string()));
    if as_json {
        let moves = notes
            .plies
            .iter()
            .enumerate()
            .map(|(i, p)| PlyRecord {
                ply: p.ply,
                move_number: p.move_number,
                side: side_name(p.side),
                fen: p.fen.clone(),
                played: p.played.to_string(),
                best: p.best.to_string(),
                score_before: Score::from_internal(p.before),
                score_after: Score::from_internal(p.after),
                drop: p.drop,
                blunder: p.blunder,
                depth: p.depth,
                pv: move_words(&p.pv),
                tablebase: table_record(table(i)),
            })
            .collect();
        return json_line(&GameJson {
            game: number,
            line: spec.line,
            tags: &spec.tags,
            rules: spec.rules.to_string(),
            fen: &spec.start.fen,
            result,
            outcome: notes.outcome.map(|o| o.to_string()),
            blunders: Blunders {
                red: red_blunders,
                blue: blue_blunders,
            },
            moves,
            final_tablebase: table_record(table(notes.plies.len())),
        });
    }
    let players = match (spec.tag("Red"), spec.tag("Blue")) {
        (Some(r), Some(b)) => format!(" {r} (Red) vs {b} (Blue),"),
        _ => String::new(),
    };
    let mut s = format!(
        "game {number} (line {}):{players} {}, result {}, blunders Red {red_blunders} Blue {blue_blunders}",
        spec.line,
        count(notes.plies.len() as u64, "ply", "plies"),
        result.as_deref().unwrap_or("unknown"),
    );
    for (i, p) in notes.plies.iter().enumerate() {
        let flag = if p.blunder { "  ?? blunder" } else { "" };
        s.push_str(&format!(
            "\n  {:>7} {:<5} {:>9} -> {:<9} drop {:<5} best {}{}{flag}",
            move_label(p),
            p.played,
            score_text(p.before),
            score_text(p.after),
            p.drop,
            p.best,
            table_text(table(i)),
        ));
    }
    let last = table_text(table(notes.plies.len()));
    match notes.outcome {
        Some(o) => s.push_str(&format!("\n  game over: {} ({o}){last}", o.score_text())),
        None => s.push_str(&format!(
            "\n  final position: score {} for the side to move{last}",
            score_text(notes.final_score)
        )),
    }
    s
}
