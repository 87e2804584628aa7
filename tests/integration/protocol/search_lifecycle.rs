//! The search lifecycle as UCI asks it: under `ponder` and `infinite` no limit
//! lets `bestmove` out; every `go` answers; unknown words are skipped; perft and
//! bench run like searches.

use super::*;

/// Limits that end the thinking of a search quickly, alone and combined.
const QUICK_LIMITS: [&str; 7] = [
    "nodes 1000",
    "movetime 100",
    "depth 3",
    "wtime 100 btime 100",
    "wtime 100 btime 100 winc 10 binc 10 movestogo 2",
    "nodes 1000 movetime 50 depth 2",
    "mate 1 depth 4",
];

/// Sends `go`, lets the engine think for a while and checks that no `bestmove`
/// came; answers the lines read. Its limits end the thinking quickly, so
/// the engine is watched over a time for the answer that must not come.
#[track_caller]
fn no_bestmove_yet(e: &mut EngineProcess, go: &str) -> Vec<String> {
    e.send(go);
    let why = format!("{go}: bestmove before stop or ponderhit");
    no_bestmove_within(e, Duration::from_millis(300), &why)
}

#[test]
fn no_limit_ends_the_answer_of_infinite_or_ponder() {
    let mut e = EngineProcess::start();
    let moves = ["g3g4"];
    e.quiet(&position_cmd("startpos", &moves));
    let game = game("startpos", &moves);
    for release_by_ponderhit in [true, false] {
        for limits in QUICK_LIMITS {
            for kind in ["infinite", "ponder"] {
                let go = format!("go {kind} {limits}");
                let mut lines = no_bestmove_yet(&mut e, &go);
                // Ponder searches end once by ponderhit (the limits, counted
                // from it, then let the move out) and once by stop.
                let release = if kind == "ponder" && release_by_ponderhit {
                    "ponderhit"
                } else {
                    "stop"
                };
                e.send(release);
                lines.extend(e.read_until(|l| l.starts_with("bestmove")));
                check_search(&e, &lines, &game);
                nothing_more(&mut e);
            }
        }
    }
    e.finish();
}

#[test]
fn a_clock_without_the_movers_time_still_gets_a_move() {
    let mut e = EngineProcess::start();
    // Red to move with Blue's clock only, or no clock but an increment or
    // a move count; Blue to move with Red's clock only, or increments.
    let cases: [(&[&str], &str); 4] = [
        (&[], "go btime 500 binc 100"),
        (&[], "go movestogo 5"),
        (&["g3g4"], "go wtime 1000"),
        (&["g3g4"], "go winc 100 binc 100"),
    ];
    for (moves, go) in cases {
        e.quiet(&position_cmd("startpos", moves));
        let lines = e.go(go);
        check_search(&e, &lines, &game("startpos", moves));
        if !lines.iter().any(|l| l.starts_with("info string no clock")) {
            e.fail(&format!(
                "{go}: no info string saying why the time is fixed"
            ));
        }
        nothing_more(&mut e);
    }
    e.finish();
}

#[test]
fn a_malformed_position_command_leaves_no_position() {
    let mut e = EngineProcess::start();
    for bad in [
        "position",
        "position fen",
        "position fen moves g3g4",
        "position garbage",
        "position startpos extra",
        "position startpos g3g4",
        "joho position fen",
    ] {
        e.quiet("position startpos moves g3g4");
        let err = expect_error(&mut e, bad);
        if !err.contains("no position") {
            e.fail(&format!(
                "{bad}: the error does not say no position is held"
            ));
        }
        expect_no_position(&mut e);
    }
    e.finish();
}

#[test]
fn unknown_words_are_skipped_and_the_command_runs() {
    let mut e = EngineProcess::start();
    for (line, answer) in [
        ("joho isready", "readyok"),
        ("isready extra", "readyok"),
        ("joho plugh isready now", "readyok"),
        ("uci extra", "uciok"),
    ] {
        e.send(line);
        let lines = e.read_until(|l| l == answer);
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        if errors == 0 {
            e.fail(&format!("{line}: the skipped words were not reported"));
        }
        nothing_more(&mut e);
    }
    // `register` is UCI's: accepted, and nothing to say.
    e.quiet("register later");
    e.quiet("register name someone code 1234");
    // The command found after unknown words takes effect.
    e.send("joho debug on");
    e.read_until(|l| l.starts_with("info string error: "));
    e.send("isready");
    e.read_until(|l| l == "info string debug: received 'isready'");
    e.read_until(|l| l == "readyok");
    // A quit with words after it still quits.
    e.send("quit now");
    assert_eq!(e.wait_exit(TIMEOUT).code(), Some(0));
    e.check_stderr();
}

#[test]
fn debug_on_echoes_each_line_as_received() {
    let mut e = EngineProcess::start();
    e.send("debug on");
    e.sync();
    for line in [
        "position startpos moves g3g4",
        "setoption name Hash value 16",
        "ucinewgame",
    ] {
        e.send(line);
        let lines = e.sync();
        let expected = [
            format!("info string debug: received '{line}'"),
            "info string debug: received 'isready'".to_string(),
        ];
        if lines != expected {
            e.fail(&format!("{line}: expected {expected:?}, got {lines:?}"));
        }
    }
    // Bad lines too, before their error; blanks are trimmed.
    e.send("  foo  ");
    let lines = e.sync();
    if lines.first().map(String::as_str) != Some("info string debug: received 'foo'")
        || !lines[1].starts_with("info string error: ")
    {
        e.fail(&format!("foo: got {lines:?}"));
    }
    // `debug off` is still echoed; what follows is not.
    e.send("debug off");
    let lines = e.sync();
    if lines != ["info string debug: received 'debug off'"] {
        e.fail(&format!("debug off: got {lines:?}"));
    }
    e.quiet("position startpos");
    e.finish();
}

#[test]
fn perft_and_bench_run_like_searches() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos moves g3g4");
    // Counts far too long to finish: isready is answered meanwhile and stop
    // ends them, with a line saying so instead of a total.
    for (cmd, stopped) in [
        ("go perft 30", "info string perft stopped"),
        ("bench 60", "info string bench stopped"),
    ] {
        e.send(cmd);
        e.sync();
        e.sync();
        e.send("stop");
        let lines = e.read_until(|l| l.starts_with("info string"));
        if !lines.last().unwrap().starts_with(stopped) {
            e.fail(&format!(
                "{cmd}: expected {stopped:?} after stop, got {lines:?}"
            ));
        }
        nothing_more(&mut e);
    }
    // A command that changes the state ends them too.
    e.send("go perft 30");
    e.send("position startpos");
    e.read_until(|l| l == "info string perft stopped");
    nothing_more(&mut e);
    // The position stands and a search works after them.
    let lines = e.go("go depth 2");
    check_search(&e, &lines, &game("startpos", &[]));
    e.finish();
}
