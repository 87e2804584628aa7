//! Answers a GUI counts on, exact: a `go` with no position to search keeps
//! its one `bestmove` for when `stop` or `ponderhit` lets it out; a button
//! takes no value; a table draw is searched, scored as the draw; no search
//! reports a depth past the documented 1 to 100.

use super::common::two_piece_tables;
use super::*;

/// The refused `position` of protocol.md's own example: no position after it.
const NO_POSITION: &str = "position startpos moves a1b1 NaN";

/// Sends `go` with no position held: its error must come at once and alone,
/// its `bestmove` held for `end` (`stop` or `ponderhit`), which must let
/// out that one `bestmove 0000` and nothing more.
#[track_caller]
fn held_until(e: &mut EngineProcess, go: &str, end: &str, meanwhile: &[&str]) {
    e.send(go);
    let said = e.sync();
    if said != ["info string error: no valid position"] {
        e.fail(&format!(
            "{go} with no position: expected the error alone before {end}, got {said:?}"
        ));
    }
    // A malformed `go` now is a command during a search: its error alone.
    for line in meanwhile {
        e.send(line);
        let said = e.sync();
        if said.len() != 1 || !said[0].starts_with("info string error: ") {
            e.fail(&format!(
                "{line} while {go} waits: expected its error alone, got {said:?}"
            ));
        }
    }
    e.send(end);
    let said = e.read_until(|l| l.starts_with("bestmove"));
    if said != ["bestmove 0000"] {
        e.fail(&format!(
            "{go}, {end}: expected bestmove 0000, got {said:?}"
        ));
    }
    nothing_more(e);
}

#[test]
fn go_infinite_with_no_position_answers_only_after_stop() {
    let mut e = EngineProcess::start();
    e.send(NO_POSITION);
    e.sync();
    held_until(
        &mut e,
        "go infinite",
        "stop",
        &["go depth x", "go sideways"],
    );
    // Every `go` had exactly one answer: a plain `go` still answers at once.
    expect_no_position(&mut e);
    e.finish();
}

#[test]
fn go_ponder_with_no_position_answers_only_after_ponderhit_or_stop() {
    let mut e = EngineProcess::start();
    e.send(NO_POSITION);
    e.sync();
    // (A bare `go ponder` becomes a bare `go` at `ponderhit`, which waits
    // for `stop`.)
    for (go, end) in [
        ("go ponder wtime 1000 btime 1000", "ponderhit"),
        ("go ponder depth 3", "ponderhit"),
        ("go ponder", "stop"),
    ] {
        held_until(&mut e, go, end, &["go depth x"]);
    }
    // A valid command that changes the state ends the wait as `stop` would.
    e.send("go infinite");
    e.sync();
    e.send("position startpos");
    let said = e.sync();
    if said != ["bestmove 0000"] {
        e.fail(&format!(
            "position after a waiting go: expected its bestmove 0000, got {said:?}"
        ));
    }
    e.finish();
}

#[test]
fn a_button_given_a_value_is_refused() {
    let mut e = EngineProcess::start();
    e.quiet("setoption name Clear Hash");
    for bad in [
        "setoption name Clear Hash value 5",
        "setoption name clear hash value true",
    ] {
        let error = expect_error(&mut e, bad);
        if !error.contains("Clear Hash") || !error.contains("no value") {
            e.fail(&format!("{bad}: the error does not say why: {error}"));
        }
    }
    e.finish();
}

/// Red's lion on a1 and Blue's rat on a3, Red to move: the tables draw it.
const TABLE_DRAW: &str = "7/7/7/7/7/7/r6/7/L6 w 0 1";

#[test]
fn a_table_draw_is_searched_to_the_depth_asked_and_scored_cp_0() {
    let mut e = EngineProcess::start();
    let dir = two_piece_tables().to_str().unwrap().to_string();
    e.quiet(&format!("setoption name TablebasePath value {dir}"));
    e.quiet(&format!("position fen {TABLE_DRAW}"));
    let lines = e.go("go depth 6");
    let infos = search_infos(&lines);
    let depths: Vec<u32> = infos.iter().filter_map(|i| i.depth).collect();
    if depths.iter().max() != Some(&6) || depths.first() != Some(&1) {
        e.fail(&format!(
            "expected iterations from 1 up to 6, got {depths:?}"
        ));
    }
    if !infos.iter().all(|i| i.score == Some(Score::Cp(0))) {
        e.fail("a table draw's lines are not all cp 0");
    }
    check_search(&e, &lines, &game(TABLE_DRAW, &[]));
    e.finish();
    // protocol.md says so beside the tables' wins and losses.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    assert!(
        doc.contains("A position the tables draw is searched"),
        "protocol.md does not say what a table draw does to go"
    );
}

/// Every depth the search output reports.
fn depths(lines: &[String]) -> Vec<u32> {
    search_infos(lines).iter().filter_map(|i| i.depth).collect()
}

#[test]
fn no_search_reports_a_depth_past_100() {
    let mut e = EngineProcess::start();
    // Lost in 16 plies, no mate in 3 to find: the search runs to its last depth.
    e.quiet("position fen 6r/7/7/7/7/7/7/7/L6 b 0 1");
    let lines = e.go("go mate 3");
    let seen = depths(&lines);
    if seen.iter().max() != Some(&MAX_DEPTH) {
        e.fail(&format!(
            "go mate 3: expected depths up to {MAX_DEPTH}, got {seen:?}"
        ));
    }
    // A table position under `go infinite`: every iteration is a few probes.
    let dir = two_piece_tables().to_str().unwrap().to_string();
    e.quiet(&format!("setoption name TablebasePath value {dir}"));
    e.send("go infinite");
    let mut lines = e.read_until(|l| parse_info(l).is_ok_and(|i| i.depth >= Some(MAX_DEPTH)));
    e.send("stop");
    lines.extend(e.read_until(|l| l.starts_with("bestmove")));
    let seen = depths(&lines);
    if seen.iter().any(|&d| d > MAX_DEPTH) {
        e.fail(&format!(
            "go infinite: a depth past {MAX_DEPTH} in {seen:?}"
        ));
    }
    e.finish();
}

/// The deepest search protocol.md documents (`go depth`, 1 to 100).
const MAX_DEPTH: u32 = 100;
