//! What protocol.md promises a GUI about a running search and about the
//! endgame tables, on the real binary through its pipes: a
//! malformed command during a search gets its error line and nothing else,
//! the search ending only by `stop` with one `bestmove`; every `go` that is
//! refused when idle is answered `bestmove 0000`; a position the tables win
//! or lose is reported as a `mate` score, in every line of an analysis that
//! keeps its lines and deepens.

use crate::common;

use common::{EngineProcess, Score, parse_info, two_piece_tables};

/// The lines that are not `info` lines (search progress comes at any time).
fn answers(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
        .collect()
}

#[test]
fn a_malformed_command_during_a_search_answers_only_its_error() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos");
    e.send("go infinite");
    let mut seen = Vec::new();
    for bad in [
        "go depth x",
        "go movetime -5",
        "go searchmoves a9a8",
        "position garbage",
        "setoption name Hash value 0",
    ] {
        e.send(bad);
        let lines = e.sync();
        let said = answers(&lines);
        if said.len() != 1 || !said[0].starts_with("info string error: ") {
            e.fail(&format!(
                "{bad:?} during a search: expected one error line, got {said:?}"
            ));
        }
        seen.extend(lines);
    }
    // The search still runs: it ends by `stop`, with one `bestmove`.
    e.send("stop");
    seen.extend(e.read_until(|l| l.starts_with("bestmove")));
    seen.extend(e.sync());
    let bestmoves: Vec<&String> = seen.iter().filter(|l| l.starts_with("bestmove")).collect();
    if bestmoves.len() != 1 || bestmoves[0] == "bestmove 0000" {
        e.fail(&format!(
            "expected the search's own bestmove only, got {bestmoves:?}"
        ));
    }
    // `position garbage` left no position for the next `go`.
    e.send("go depth 1");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string error: no valid position", "bestmove 0000"],
        "{}",
        e.transcript()
    );
    e.finish();
}

#[test]
fn a_go_refused_when_idle_is_answered_bestmove_0000() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos");
    // A negative move time and a depth out of 1..=100 are refused, not
    // searched with no final `info` line (protocol.md: every `go` has one).
    for bad in ["go movetime -5", "go depth 0", "go depth 101"] {
        e.send(bad);
        let lines = e.sync();
        let ok = lines.len() == 2
            && lines[0].starts_with("info string error: ")
            && lines[1] == "bestmove 0000";
        if !ok {
            e.fail(&format!(
                "{bad:?}: expected an error and bestmove 0000, got {lines:?}"
            ));
        }
    }
    e.finish();
}

/// Red's lion against Blue's rat, a win in 15 plies for Red: mate in 8.
const LION_WINS: &str = "6r/7/7/7/7/7/7/7/L6 w 0 1";

#[test]
fn a_table_win_is_reported_as_mate_in_every_line() {
    let mut e = EngineProcess::start();
    let dir = two_piece_tables().to_str().unwrap().to_string();
    e.quiet(&format!("setoption name TablebasePath value {dir}"));
    e.quiet(&format!("position fen {LION_WINS}"));
    let lines = e.go("go depth 3");
    let scores: Vec<Option<Score>> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| parse_info(l).unwrap().score)
        .collect();
    assert!(!scores.is_empty(), "{}", e.transcript());
    assert!(
        scores.iter().all(|s| *s == Some(Score::Mate(8))),
        "{scores:?}"
    );

    // Analysis keeps its lines (two legal moves) and deepens until `stop`.
    e.quiet("setoption name MultiPV value 3");
    e.send("go infinite");
    let lines = e.read_until(|l| l.starts_with("info depth 5 "));
    let infos: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| parse_info(l).unwrap())
        .collect();
    let lines_seen: Vec<u32> = infos.iter().filter_map(|i| i.multipv).collect();
    assert!(lines_seen.contains(&2), "{}", e.transcript());
    for info in &infos {
        let mate = matches!(info.score, Some(Score::Mate(_)));
        assert!(mate, "{info:?}: {}", e.transcript());
    }
    e.send("stop");
    e.read_until(|l| l.starts_with("bestmove"));
    e.finish();
}
