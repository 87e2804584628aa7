//! The protocol of `protocol.md`, tested on the real binary through its pipes
//! (`common::EngineProcess`): every answer is awaited with a timeout, so a hung
//! engine fails a test instead of hanging it, and every stdout line is checked
//! to be a protocol line (`common::check_protocol_line`) except around the
//! commands whose answers are for people (`d`, `eval`, `moves`, `go perft`,
//! `bench`). Each test ends by closing stdin and checking that the process exits
//! with code 0 and that stderr shows no panic.
//!
//! Moves the engine plays are checked with the library's rules (`Game`), never
//! against results copied from the engine. Nothing here measures latency (see
//! `dev/protocol_latency.rs`).
//!
//! The module `promised` holds tests of behaviour that protocol.md promises
//! and the engine once lacked:
//! commands that change state during a search, a valid `setoption` with no
//! position held, escaping of quoted input, `bench` keeping the position,
//! `moves` in a finished game, `go` with no limit waiting for `stop`.
//! `multipv_reports_that_many_distinct_lines_per_depth` also failed then (a
//! line reported twice in one iteration).

mod commands_for_people;
use crate::common;
mod exact_answers;
mod finished_games;
mod go_limits;
mod malformed_input;
mod options;
mod promised;
mod rule_options;
mod search_control;
mod search_lifecycle;
mod whole_games;

use common::{EngineProcess, Info, Score, TIMEOUT, parse_bestmove, parse_info, parse_option};
use doushou::rules::{Game, Move, Outcome, Position, Rules, START_FEN};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Option settings as (name, value) pairs.
type Settings = &'static [(&'static str, &'static str)];

/// Rules with the given protocol settings applied, in order.
fn rules_with(settings: &[(&str, &str)]) -> Rules {
    let mut r = Rules::default();
    for (name, value) in settings {
        r.set(name, value)
            .unwrap_or_else(|e| panic!("{name}={value}: {e}"));
    }
    r
}

/// The game of `fen` (or `startpos`) and `moves` under `rules`.
fn game_with(rules: Rules, fen: &str, moves: &[&str]) -> Game {
    let fen = if fen == "startpos" { START_FEN } else { fen };
    Game::from_fen_and_moves(rules, fen, moves)
        .unwrap_or_else(|e| panic!("test data: {fen} moves {moves:?}: {e}"))
}

fn game(fen: &str, moves: &[&str]) -> Game {
    game_with(Rules::default(), fen, moves)
}

/// The `position` command for `fen` (or `startpos`) and `moves`.
fn position_cmd(fen: &str, moves: &[&str]) -> String {
    let mut s = if fen == "startpos" {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    };
    if !moves.is_empty() {
        s.push_str(" moves ");
        s.push_str(&moves.join(" "));
    }
    s
}

/// The library's legal moves, as text.
fn legal_set(game: &Game) -> BTreeSet<String> {
    game.legal_moves().iter().map(Move::to_string).collect()
}

/// The `info` lines that are not `info string`, parsed.
fn search_infos(lines: &[String]) -> Vec<Info> {
    lines
        .iter()
        .filter(|l| l.starts_with("info ") && !l.starts_with("info string"))
        .map(|l| parse_info(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

/// Reads a running search's output until an `info` line says, by its `time`
/// (the engine's own clock since `go`), that it has searched `ms`; fails
/// with `why` on a `bestmove` first. A slow machine only makes this wait
/// longer.
#[track_caller]
fn searched_for(e: &mut EngineProcess, ms: u64, why: &str) -> Vec<String> {
    let lines = e.read_until(|l| {
        l.starts_with("bestmove") || parse_info(l).is_ok_and(|i| i.time.is_some_and(|t| t >= ms))
    });
    if !bestmoves(&lines).is_empty() {
        e.fail(why);
    }
    lines
}

/// Reads what the engine prints for `window` once its search has no more
/// to do (it prints nothing then); fails with `why` on a `bestmove`. An
/// answer that must not come can only be watched for over a time: a slow
/// machine can make this pass without seeing it, never fail.
#[track_caller]
fn no_bestmove_within(e: &mut EngineProcess, window: Duration, why: &str) -> Vec<String> {
    let end = Instant::now() + window;
    let mut lines = Vec::new();
    loop {
        let left = end.saturating_duration_since(Instant::now());
        let Some(line) = (!left.is_zero()).then(|| e.poll_line(left)).flatten() else {
            break;
        };
        if line.starts_with("bestmove") {
            e.fail(why);
        }
        lines.push(line);
    }
    lines.extend(e.sync());
    if !bestmoves(&lines).is_empty() {
        e.fail(why);
    }
    lines
}

/// What a checked search answered.
struct Answer {
    best: String,
    infos: Vec<Info>,
    last: Info,
}

/// Checks the answer to one `go` in a position of the game still in play:
/// exactly one `bestmove`, last; a legal best move; the ponder move legal after
/// it and equal to the final line's second pv move; every pv a legal line of
/// play; a final `info` line with depth, seldepth, score, nodes, nps, time,
/// hashfull and a pv starting with the best move.
fn check_search(e: &EngineProcess, lines: &[String], game: &Game) -> Answer {
    let lines: Vec<String> = lines.iter().filter(|l| *l != "readyok").cloned().collect();
    let bm = bestmoves(&lines);
    if bm.len() != 1 || !lines.last().unwrap().starts_with("bestmove") {
        e.fail(&format!("expected exactly one bestmove, last: {lines:?}"));
    }
    let (best, ponder) = parse_bestmove(bm[0]).unwrap_or_else(|m| e.fail(&m));
    let mut after = game.clone();
    if let Err(err) = after.play_text(&best) {
        e.fail(&format!("bestmove {best} is not legal: {err}"));
    }
    if let Some(p) = &ponder
        && let Err(err) = after.clone().play_text(p)
    {
        e.fail(&format!("ponder move {p} is not legal after {best}: {err}"));
    }
    let infos = search_infos(&lines);
    for info in &infos {
        if let Some(pv) = &info.pv {
            let mut g = game.clone();
            for m in pv {
                if let Err(err) = g.play_text(m) {
                    e.fail(&format!("pv {pv:?}: {m} is not legal there: {err}"));
                }
            }
        }
    }
    let Some(last) = infos.iter().rev().find(|i| i.score.is_some()).cloned() else {
        e.fail("no info line with a score before bestmove");
    };
    let complete = last.depth.is_some()
        && last.seldepth.is_some()
        && last.nodes.is_some()
        && last.nps.is_some()
        && last.time.is_some()
        && last.hashfull.is_some()
        && last.pv.is_some();
    if !complete {
        e.fail(&format!("the final info line lacks a field: {last:?}"));
    }
    let pv = last.pv.as_ref().unwrap();
    if pv[0] != best {
        e.fail(&format!(
            "final pv {pv:?} does not start with bestmove {best}"
        ));
    }
    if ponder.as_ref() != pv.get(1) {
        e.fail(&format!("ponder {ponder:?} is not the pv's reply {pv:?}"));
    }
    Answer { best, infos, last }
}

/// The answer protocol.md gives to `go` in a finished game, the score from the
/// library's result.
fn expect_game_over(e: &EngineProcess, lines: &[String], outcome: Outcome) {
    let lines: Vec<&String> = lines.iter().filter(|l| *l != "readyok").collect();
    let score = match outcome {
        Outcome::Draw(_) => "info depth 0 score cp 0",
        Outcome::Win { .. } => "info depth 0 score mate 0",
    };
    let ok = lines.len() == 3
        && lines[0].starts_with("info string ")
        && lines[1] == score
        && lines[2] == "bestmove 0000";
    if !ok {
        e.fail(&format!(
            "game over ({outcome}): expected 'info string ...', '{score}', 'bestmove 0000'; got {lines:?}"
        ));
    }
}

/// Expects no more output (a `bestmove` already read was the only one).
#[track_caller]
fn nothing_more(e: &mut EngineProcess) {
    let later = e.sync();
    if !later.is_empty() {
        e.fail(&format!("unexpected output: {later:?}"));
    }
}

/// Sends `cmd` and expects exactly one `info string error: ...` line before
/// the next `readyok`; answers it.
#[track_caller]
fn expect_error(e: &mut EngineProcess, cmd: &str) -> String {
    e.send(cmd);
    expect_error_lines(e, cmd, false)
}

/// The same for raw bytes.
#[track_caller]
fn expect_error_bytes(e: &mut EngineProcess, bytes: &[u8]) -> String {
    e.send_bytes(bytes);
    expect_error_lines(e, &String::from_utf8_lossy(bytes), false)
}

/// Sends a bad `go` and expects the error and `bestmove 0000`.
#[track_caller]
fn expect_go_error(e: &mut EngineProcess, cmd: &str) -> String {
    e.send(cmd);
    expect_error_lines(e, cmd, true)
}

#[track_caller]
fn expect_error_lines(e: &mut EngineProcess, what: &str, then_null_move: bool) -> String {
    let lines = e.sync();
    let want = if then_null_move { 2 } else { 1 };
    let ok = lines.len() == want
        && lines[0].starts_with("info string error: ")
        && lines[0].len() > "info string error: ".len()
        && (!then_null_move || lines[1] == "bestmove 0000");
    if !ok {
        let tail = if then_null_move {
            " and 'bestmove 0000'"
        } else {
            ""
        };
        e.fail(&format!(
            "{what:?}: expected one 'info string error: ...' line{tail}, got {lines:?}"
        ));
    }
    lines[0].clone()
}

/// The engine's answer to `moves`, as a set; fails on duplicates.
fn engine_moves(e: &mut EngineProcess) -> BTreeSet<String> {
    e.strict = false;
    e.send("moves");
    let mut lines = e.sync();
    e.strict = true;
    if lines.len() != 1 || !(lines[0] == "moves" || lines[0].starts_with("moves ")) {
        e.fail(&format!("'moves' answered {lines:?}"));
    }
    let list: Vec<String> = lines
        .remove(0)
        .split(' ')
        .skip(1)
        .map(str::to_string)
        .collect();
    let set: BTreeSet<String> = list.iter().cloned().collect();
    if set.len() != list.len() {
        e.fail(&format!("'moves' lists a move twice: {list:?}"));
    }
    set
}

/// Whether the side to move can force a win within `n` of its own moves
/// (exhaustive, from the library's rules).
fn wins_within(g: &mut Game, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let me = g.position().side_to_move();
    for &m in g.legal_moves().iter() {
        g.make(m);
        let won = match g.outcome() {
            Some(Outcome::Win { winner, .. }) => winner == me,
            Some(Outcome::Draw(_)) => false,
            None => n > 1 && loses_within(g, n - 1),
        };
        g.unmake();
        if won {
            return true;
        }
    }
    false
}

/// Whether every move of the side to move (whose game is not over) lets the
/// opponent force a win within `n` of its moves.
fn loses_within(g: &mut Game, n: u32) -> bool {
    let me = g.position().side_to_move();
    for &m in g.legal_moves().iter() {
        g.make(m);
        let lost = match g.outcome() {
            Some(Outcome::Win { winner, .. }) => winner != me,
            Some(Outcome::Draw(_)) => false,
            None => wins_within(g, n),
        };
        g.unmake();
        if !lost {
            return false;
        }
    }
    true
}

/// After a refused position: `go` answers `no valid position` and `bestmove
/// 0000`; `d`, `eval`, `moves`, `go perft` answer an error.
fn expect_no_position(e: &mut EngineProcess) {
    let lines = {
        e.send("go depth 1");
        e.sync()
    };
    if lines != ["info string error: no valid position", "bestmove 0000"] {
        e.fail(&format!(
            "go without a valid position: expected the error and bestmove 0000, got {lines:?}"
        ));
    }
    for cmd in ["d", "eval", "moves", "go perft 1"] {
        expect_error(e, cmd);
    }
}

/// `bench <depth>`: the total nodes, the per-position nodes and best moves.
fn bench(e: &mut EngineProcess, depth: u32) -> (u64, Vec<(u64, String)>) {
    let lines = background_diagnostic(e, &format!("bench {depth}"), |l| l.ends_with(" nps"));
    let (last, per_position) = lines.split_last().expect("bench answered nothing");
    let words: Vec<&str> = last.split(' ').collect();
    let total: u64 = match words[..] {
        [n, "nodes", nps, "nps"] if nps.parse::<u64>().is_ok() => n.parse().unwrap(),
        _ => panic!("bench's last line is not '<n> nodes <m> nps': {last:?}"),
    };
    let per_position = per_position
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| {
                let i = w
                    .iter()
                    .position(|x| *x == key)
                    .unwrap_or_else(|| panic!("{l}"));
                w[i + 1].to_string()
            };
            (after("nodes").parse().unwrap(), after("bestmove"))
        })
        .collect();
    (total, per_position)
}

/// A finished game: (settings, position, moves).
type Case = (Settings, &'static str, &'static [&'static str]);

/// Finished games under several rules, each reached another way.
fn finished_cases() -> [Case; 7] {
    [
        // A red piece in the blue den.
        (&[], "3L3/7/7/7/7/7/7/7/6e b 0 1", &[]),
        // The den entered by the moves given.
        (&[], "7/7/3L3/7/7/7/7/7/6e w 0 1", &["d7d8", "g1f1", "d8d9"]),
        // Blue has no pieces left.
        (&[], "7/7/7/7/7/7/7/7/6E b 0 1", &[]),
        // Blue to move has no legal move.
        (&[], "rL5/T6/7/7/7/7/7/7/7 b 0 1", &[]),
        // The no-capture limit.
        (&[], "2l4/7/7/7/7/7/7/7/6E w 100 60", &[]),
        (
            &[("NoCaptureLimit", "10")],
            "2l4/7/7/7/7/7/7/7/6E w 10 60",
            &[],
        ),
        // A third occurrence under Repetition=draw.
        (
            &[("Repetition", "draw")],
            "startpos",
            &[
                "a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1", "a8a9",
            ],
        ),
    ]
}

/// Sends a diagnostic that runs on the search thread (`go perft`, `bench`):
/// its lines up to the one for which `last` holds, then nothing more.
fn background_diagnostic(
    e: &mut EngineProcess,
    cmd: &str,
    last: impl Fn(&str) -> bool,
) -> Vec<String> {
    e.strict = false;
    e.send(cmd);
    let lines = e.read_until(last);
    e.strict = true;
    nothing_more(e);
    lines
}
