//! The lines `doushou analyse` prints: readable text, or one JSON object per
//! line. Scores are always from the side to move's (or the mover's) view, as
//! the protocol gives them: `cp N` or `mate N`.

use super::annotate::{GameNotes, PlyNote};
use super::input::{GameSpec, LineError};
use crate::engine::score::{Score, wdl};
use crate::engine::search::SearchResult;
use crate::json::{self, Object};
use crate::rules::{Move, Outcome, Side};

/// A score as text: `cp 12` or `mate -3`.
fn score_text(score: i32) -> String {
    Score::from_internal(score).to_string()
}

/// A score as JSON: `{"cp":12}` or `{"mate":-3}`.
fn score_json(score: i32) -> String {
    match Score::from_internal(score) {
        Score::Cp(v) => Object::new().num("cp", v),
        Score::Mate(n) => Object::new().num("mate", n),
    }
    .finish()
}

fn wdl_json((w, d, l): (u32, u32, u32)) -> String {
    format!("[{w},{d},{l}]")
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

fn moves_json(moves: &[Move]) -> String {
    json::string_array(moves.iter().map(Move::to_string))
}

/// The line for a fault in the input (or a search that could not run).
pub fn error(e: &LineError, as_json: bool) -> String {
    error_message(e.line, &e.error.to_string(), as_json)
}

/// The same for a message that is not an input fault.
pub fn error_message(line: usize, message: &str, as_json: bool) -> String {
    if as_json {
        Object::new()
            .num("line", line)
            .str("error", message)
            .finish()
    } else {
        format!("line {line}: error: {message}")
    }
}

/// The answer for one position line. `fen` is the position searched (after
/// the line's moves) and `to_move` its side to move.
pub fn position(
    line: usize,
    fen: &str,
    to_move: Side,
    r: &SearchResult,
    multipv: usize,
    as_json: bool,
) -> String {
    if let Some(outcome) = r.outcome {
        return if as_json {
            Object::new()
                .num("line", line)
                .str("fen", fen)
                .raw("bestmove", "null")
                .raw("score", "null")
                .raw("wdl", &wdl_json(outcome_wdl(outcome, to_move)))
                .num("depth", 0)
                .num("nodes", 0)
                .raw("pv", "[]")
                .str("result", outcome.score_text())
                .str("outcome", &outcome.to_string())
                .finish()
        } else {
            format!(
                "line {line}: game over: {} ({outcome})",
                outcome.score_text()
            )
        };
    }
    if as_json {
        let mut o = Object::new()
            .num("line", line)
            .str("fen", fen)
            .str("bestmove", &r.best_move.to_string())
            .raw("score", &score_json(r.score))
            .raw("wdl", &wdl_json(wdl(r.score)))
            .num("depth", r.depth)
            .num("nodes", r.nodes)
            .raw("pv", &moves_json(&r.pv));
        if multipv > 1 {
            let lines = r.lines.iter().enumerate().map(|(i, (score, pv))| {
                Object::new()
                    .num("multipv", i + 1)
                    .raw("score", &score_json(*score))
                    .raw("wdl", &wdl_json(wdl(*score)))
                    .raw("pv", &moves_json(pv))
                    .finish()
            });
            o = o.raw("multipv", &json::array(lines));
        }
        o.finish()
    } else {
        let (w, d, l) = wdl(r.score);
        let mut s = format!(
            "line {line}: bestmove {} score {} wdl {w} {d} {l} depth {} nodes {} pv {}",
            r.best_move,
            score_text(r.score),
            r.depth,
            r.nodes,
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
/// one line per move, then how the game ended).
pub fn game(number: usize, spec: &GameSpec, notes: &GameNotes, as_json: bool) -> String {
    let [red_blunders, blue_blunders] = notes.blunders();
    let result = spec
        .result
        .clone()
        .or_else(|| notes.outcome.map(|o| o.score_text().to_string()));
    if as_json {
        let tags = spec
            .tags
            .iter()
            .fold(Object::new(), |o, (n, v)| o.str(n, v))
            .finish();
        let plies = notes.plies.iter().map(|p| {
            Object::new()
                .num("ply", p.ply)
                .num("move_number", p.move_number)
                .str("side", side_name(p.side))
                .str("fen", &p.fen)
                .str("move", &p.played.to_string())
                .str("best", &p.best.to_string())
                .raw("score_before", &score_json(p.before))
                .raw("score_after", &score_json(p.after))
                .num("drop", p.drop)
                .num("blunder", p.blunder)
                .num("depth", p.depth)
                .raw("pv", &moves_json(&p.pv))
                .finish()
        });
        let o = Object::new()
            .num("game", number)
            .num("line", spec.line)
            .raw("tags", &tags)
            .str("rules", &spec.rules.to_string())
            .str("fen", &spec.start.fen)
            .raw(
                "result",
                &result.as_deref().map_or("null".into(), json::string),
            )
            .raw(
                "outcome",
                &notes
                    .outcome
                    .map_or("null".into(), |o| json::string(&o.to_string())),
            )
            .raw(
                "blunders",
                &Object::new()
                    .num("red", red_blunders)
                    .num("blue", blue_blunders)
                    .finish(),
            )
            .raw("moves", &json::array(plies));
        return o.finish();
    }
    let players = match (spec.tag("Red"), spec.tag("Blue")) {
        (Some(r), Some(b)) => format!(" {r} (Red) vs {b} (Blue),"),
        _ => String::new(),
    };
    let mut s = format!(
        "game {number} (line {}):{players} {} plies, result {}, blunders Red {red_blunders} Blue {blue_blunders}",
        spec.line,
        notes.plies.len(),
        result.as_deref().unwrap_or("unknown"),
    );
    for p in &notes.plies {
        let flag = if p.blunder { "  ?? blunder" } else { "" };
        s.push_str(&format!(
            "\n  {:>7} {:<5} {:>9} -> {:<9} drop {:<5} best {}{flag}",
            move_label(p),
            p.played,
            score_text(p.before),
            score_text(p.after),
            p.drop,
            p.best,
        ));
    }
    match notes.outcome {
        Some(o) => s.push_str(&format!("\n  game over: {} ({o})", o.score_text())),
        None => s.push_str(&format!(
            "\n  final position: score {} for the side to move",
            score_text(notes.final_score)
        )),
    }
    s
}
