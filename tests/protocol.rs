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
//! `examples/protocol_latency.rs`).
//!
//! The last section holds tests of behaviour that protocol.md promises and the
//! engine lacked when they were written (reported on issue 3): commands that
//! change state during a search, a valid `setoption` with no position held,
//! escaping of quoted input, `bench` keeping the position, `moves` in a
//! finished game, `go` with no limit waiting for `stop`. `multipv_reports_that_many_distinct_lines_per_depth` also
//! failed then (a line reported twice in one iteration).

mod common;

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

// ---------------------------------------------------------------------------
// uci and the options
// ---------------------------------------------------------------------------

/// The `option` lines of the engine's answer to `uci`.
fn uci_options(e: &mut EngineProcess) -> Vec<common::OptionLine> {
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    if !lines[0].starts_with("id name doushou") || !lines[1].starts_with("id author ") {
        e.fail("uci must begin with 'id name doushou ...' and 'id author ...'");
    }
    let options: Vec<_> = lines[2..lines.len() - 1]
        .iter()
        .map(|l| parse_option(l).unwrap_or_else(|m| e.fail(&format!("{m}: {l}"))))
        .collect();
    let names: BTreeSet<String> = options.iter().map(|o| o.name.to_lowercase()).collect();
    if names.len() != options.len() {
        e.fail("an option is listed twice");
    }
    options
}

#[test]
fn uci_lists_options_and_each_takes_its_values() {
    let mut e = EngineProcess::spawn();
    let options = uci_options(&mut e);
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    for must in ["Threads", "Hash", "MultiPV", "UCI_ShowWDL", "UCI_Variant"] {
        assert!(names.contains(&must), "uci does not list {must}: {names:?}");
    }
    for o in &options {
        let set = |v: &str| format!("setoption name {} value {v}", o.name);
        match o.kind.as_str() {
            "button" => e.quiet(&format!("setoption name {}", o.name)),
            "check" => {
                let d = o.default.clone().unwrap();
                let other = if d == "true" { "false" } else { "true" };
                e.quiet(&set(other));
                e.quiet(&set(&d));
                expect_error(&mut e, &set("maybe"));
            }
            "spin" => {
                let (min, max) = (o.min.unwrap(), o.max.unwrap());
                e.quiet(&set(o.default.as_ref().unwrap()));
                expect_error(&mut e, &set(&(min - 1).to_string()));
                expect_error(&mut e, &set(&(max + 1).to_string()));
                expect_error(&mut e, &set("twelve"));
            }
            "combo" => {
                for v in &o.vars {
                    e.quiet(&set(v));
                }
                e.quiet(&set(o.default.as_ref().unwrap()));
                expect_error(&mut e, &set("no-such-choice"));
            }
            _ => {}
        }
    }
    // debug on echoes each command read as an info string; off stops it.
    e.send("debug on");
    let lines = e.sync();
    if lines.is_empty() || !lines.iter().all(|l| l.starts_with("info string ")) {
        e.fail(&format!(
            "debug on: expected info string lines, got {lines:?}"
        ));
    }
    e.send("debug off");
    e.sync();
    e.quiet("ucinewgame");
    // Names are matched without regard to case.
    e.quiet("setoption name threads value 1");
    e.quiet("setoption name MULTIPV value 1");
    // Still the default rules after all that: the start position's 24 moves.
    assert_eq!(engine_moves(&mut e), legal_set(&game("startpos", &[])));
    e.finish();
}

#[test]
fn every_uci_option_is_documented_in_protocol_md() {
    let mut e = EngineProcess::spawn();
    let options = uci_options(&mut e);
    e.finish();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let missing: Vec<&str> = options
        .iter()
        .map(|o| o.name.as_str())
        .filter(|n| !doc.contains(&format!("`{n}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "options printed by uci but not documented as `Name` in protocol.md: {missing:?}"
    );
}

// ---------------------------------------------------------------------------
// Whole games
// ---------------------------------------------------------------------------

/// Plays up to `plies` plies (or to the end) from the start position, the
/// engine choosing both sides with alternating kinds of `go`, the position sent
/// afresh each time. Each `go` has exactly one legal bestmove.
fn play_game(settings: &[(&str, &str)], gos: &[&str], plies: usize) {
    let mut e = EngineProcess::start();
    for (name, value) in settings {
        e.quiet(&format!("setoption name {name} value {value}"));
    }
    e.quiet("ucinewgame");
    let rules = rules_with(
        &settings
            .iter()
            .filter(|(n, _)| Rules::option_kind(n).is_some())
            .copied()
            .collect::<Vec<_>>(),
    );
    let mut game = game_with(rules, "startpos", &[]);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.quiet(&position_cmd("startpos", &refs));
        let lines = e.go(gos[ply % gos.len()]);
        let answer = check_search(&e, &lines, &game);
        // Exactly one bestmove: nothing more comes before readyok.
        let later = e.sync();
        if !later.is_empty() {
            e.fail(&format!("more output after bestmove: {later:?}"));
        }
        game.play_text(&answer.best).unwrap();
        moves.push(answer.best);
    }
    if let Some(outcome) = game.outcome() {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.quiet(&position_cmd("startpos", &refs));
        let lines = e.go("go depth 3");
        expect_game_over(&e, &lines, outcome);
    }
    e.finish();
}

#[test]
fn whole_game_every_bestmove_legal_and_one_per_go() {
    play_game(
        &[("Move Overhead", "0")],
        &[
            "go depth 3",
            "go movetime 20",
            "go wtime 2000 btime 2000 winc 20 binc 20",
        ],
        80,
    );
}

#[test]
fn whole_game_two_threads_xoudouqi() {
    play_game(
        &[
            ("Threads", "2"),
            ("UCI_Variant", "xoudouqi"),
            ("Move Overhead", "0"),
        ],
        &["go movetime 15", "go depth 3"],
        60,
    );
}

// ---------------------------------------------------------------------------
// Search control: isready, stop, quit, end of input, ponder
// ---------------------------------------------------------------------------

#[test]
fn isready_answered_while_go_infinite_runs_and_search_goes_on() {
    for threads in [1, 2] {
        let mut e = EngineProcess::start();
        e.quiet(&format!("setoption name Threads value {threads}"));
        let moves = ["g3g4", "a7a6"];
        e.quiet(&position_cmd("startpos", &moves));
        let game = game("startpos", &moves);
        e.send("go infinite");
        let mut all = e.read_until(|l| l.starts_with("info depth"));
        e.send("isready");
        let before = e.read_until(|l| l == "readyok");
        if !bestmoves(&before).is_empty() {
            e.fail("bestmove before stop in go infinite");
        }
        all.extend(before);
        // The search goes on: more iterations are reported after readyok.
        let more = e.read_until(|l| l.starts_with("info depth") || l.starts_with("bestmove"));
        if !more.last().unwrap().starts_with("info depth") {
            e.fail("go infinite ended without stop");
        }
        all.extend(more);
        for _ in 0..5 {
            let lines = e.sync();
            if !bestmoves(&lines).is_empty() {
                e.fail("bestmove before stop in go infinite");
            }
            all.extend(lines);
        }
        // Still nothing after a while: the engine's clock says how long.
        all.extend(searched_for(
            &mut e,
            200,
            "bestmove before stop in go infinite",
        ));
        e.send("stop");
        all.extend(e.read_until(|l| l.starts_with("bestmove")));
        check_search(&e, &all, &game);
        let later = e.sync();
        if !later.is_empty() {
            e.fail(&format!("more output after bestmove: {later:?}"));
        }
        e.finish();
    }
}

#[test]
fn stop_right_after_go_gives_one_legal_bestmove() {
    let mut e = EngineProcess::start();
    let setups: [(&str, &[&str]); 2] = [
        ("startpos", &[]),
        (
            "l5t/1d3c1/r1p1w1e/7/3L3/7/E1T1P1R/1C3D1/6W w 4 8",
            &["d5d4"],
        ),
    ];
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        for (fen, moves) in setups {
            let game = game(fen, moves);
            e.quiet(&position_cmd(fen, moves));
            for go in [
                "go infinite",
                "go",
                "go depth 60",
                "go movetime 600000",
                "go wtime 600000 btime 600000",
                "go nodes 100000000000",
                "go ponder",
                "go ponder wtime 1000 btime 1000",
                "go mate 60",
            ] {
                e.send_bytes(format!("{go}\nstop\n").as_bytes());
                let lines = e.read_until(|l| l.starts_with("bestmove"));
                check_search(&e, &lines, &game);
                let later = e.sync();
                if !later.is_empty() {
                    e.fail(&format!("{go}: more output after bestmove: {later:?}"));
                }
            }
        }
    }
    e.finish();
}

/// protocol.md: a `go` arriving while a search runs first ends that search
/// (its `bestmove` is printed): one bestmove per go, in order.
#[test]
fn go_during_a_search_ends_it_first() {
    let mut e = EngineProcess::start();
    let moves = ["g3g4"];
    let game = game("startpos", &moves);
    e.quiet(&position_cmd("startpos", &moves));
    e.send_bytes(b"go infinite\ngo ponder\ngo movetime 600000\ngo depth 2\n");
    let mut best = Vec::new();
    while best.len() < 4 {
        let line = e.next_line();
        if line.starts_with("bestmove") {
            best.push(line);
        }
    }
    nothing_more(&mut e);
    for line in best {
        let (m, _) = parse_bestmove(&line).unwrap();
        if let Err(err) = game.clone().play_text(&m) {
            e.fail(&format!("{line}: not legal: {err}"));
        }
    }
    e.finish();
}

#[test]
fn rapid_go_stop_cycles_each_give_one_legal_bestmove() {
    const CYCLES: usize = 200;
    for threads in [1, 2] {
        let mut e = EngineProcess::start();
        e.quiet(&format!("setoption name Threads value {threads}"));
        let moves = ["g3g4", "a7a6", "g4g5"];
        e.quiet(&position_cmd("startpos", &moves));
        let game = game("startpos", &moves);
        e.send_bytes("go movetime 1\nstop\n".repeat(CYCLES).as_bytes());
        let mut best = Vec::new();
        while best.len() < CYCLES {
            let line = e.next_line();
            if line.starts_with("bestmove") {
                best.push(line);
            }
        }
        let later = e.sync();
        if !bestmoves(&later).is_empty() {
            e.fail(&format!("more than {CYCLES} bestmoves for {CYCLES} go"));
        }
        for line in &best {
            let (m, ponder) = parse_bestmove(line).unwrap();
            let mut g = game.clone();
            if let Err(err) = g.play_text(&m) {
                e.fail(&format!("{line}: not legal: {err}"));
            }
            if let Some(p) = ponder
                && let Err(err) = g.play_text(&p)
            {
                e.fail(&format!("{line}: ponder move not legal: {err}"));
            }
        }
        e.finish();
    }
}

#[test]
fn go_ponder_answers_only_after_ponderhit_or_stop() {
    let mut e = EngineProcess::start();
    let moves = ["g3g4"];
    e.quiet(&position_cmd("startpos", &moves));
    let game = game("startpos", &moves);

    // A depth-limited ponder search finishes its work, then waits.
    e.send("go ponder depth 3");
    let mut lines = e.read_until(|l| l.starts_with("info depth 3"));
    lines.extend(no_bestmove_within(
        &mut e,
        Duration::from_millis(300),
        "bestmove while pondering, before ponderhit",
    ));
    e.send("ponderhit");
    lines.extend(e.read_until(|l| l.starts_with("bestmove")));
    check_search(&e, &lines, &game);
    nothing_more(&mut e);

    // The clock does not run while pondering: movetime counts from ponderhit.
    e.send("go ponder movetime 50");
    let mut lines = searched_for(
        &mut e,
        400,
        "go ponder movetime 50 answered before ponderhit",
    );
    e.send("ponderhit");
    lines.extend(e.read_until(|l| l.starts_with("bestmove")));
    check_search(&e, &lines, &game);

    // With a clock: likewise, and then the move comes by itself.
    e.send("go ponder wtime 2000 btime 2000 winc 10 binc 10");
    let mut lines = searched_for(&mut e, 300, "go ponder wtime answered before ponderhit");
    e.send("ponderhit");
    lines.extend(e.read_until(|l| l.starts_with("bestmove")));
    check_search(&e, &lines, &game);

    // stop ends a ponder search too.
    e.send("go ponder");
    let mut lines = e.read_until(|l| l.starts_with("info depth"));
    lines.extend(e.sync());
    e.send("stop");
    lines.extend(e.read_until(|l| l.starts_with("bestmove")));
    check_search(&e, &lines, &game);

    // With no search running, ponderhit and stop print nothing.
    e.quiet("ponderhit");
    e.quiet("stop");
    e.finish();
}

#[test]
fn end_of_input_exits_with_code_0() {
    // At once, before any command.
    let e = EngineProcess::spawn();
    let rest = e.finish();
    assert!(rest.is_empty(), "output without input: {rest:?}");

    // After some commands.
    let mut e = EngineProcess::start();
    e.quiet("position startpos moves g3g4");
    e.finish();

    // A last line without its newline is still read.
    let mut e = EngineProcess::spawn();
    e.send_bytes(b"isready");
    let rest = e.finish();
    assert_eq!(rest, vec!["readyok".to_string()]);

    // During go infinite and during go ponder, with one and two threads.
    for go in ["go infinite", "go ponder"] {
        for threads in [1, 2] {
            let mut e = EngineProcess::start();
            e.quiet(&format!("setoption name Threads value {threads}"));
            e.quiet("position startpos");
            e.send(go);
            e.read_until(|l| l.starts_with("info depth"));
            let rest = e.finish();
            let bm = bestmoves(&rest);
            assert!(bm.len() <= 1, "{go}: more than one bestmove: {rest:?}");
            for b in bm {
                let (m, _) = parse_bestmove(b).unwrap();
                assert!(game("startpos", &[]).play_text(&m).is_ok(), "{b}");
            }
        }
    }
}

#[test]
fn quit_exits_also_during_a_search() {
    // Idle; nothing after quit is read.
    let mut e = EngineProcess::start();
    e.send_bytes(b"quit\nisready\n");
    let status = e.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0));
    let rest = e.rest_of_output();
    assert!(
        !rest.contains(&"readyok".to_string()),
        "a command after quit was answered: {rest:?}"
    );
    e.check_stderr();

    for go in [
        "go infinite",
        "go ponder",
        "go depth 100",
        "go movetime 600000",
    ] {
        for threads in [1, 2] {
            let mut e = EngineProcess::start();
            e.quiet(&format!("setoption name Threads value {threads}"));
            e.quiet("position startpos moves g3g4");
            e.send(go);
            e.read_until(|l| l.starts_with("info depth"));
            e.send("quit");
            let status = e.wait_exit(TIMEOUT);
            assert_eq!(status.code(), Some(0), "{go}, {threads} threads");
            let rest = e.rest_of_output();
            assert!(bestmoves(&rest).len() <= 1, "{rest:?}");
            e.check_stderr();
        }
    }
}

// ---------------------------------------------------------------------------
// Malformed input
// ---------------------------------------------------------------------------

#[test]
fn malformed_commands_and_options_get_one_error_each() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos moves g3g4");
    for bad in [
        "foo",
        "xyzzy plugh",
        "Isready",
        "debug maybe",
        "debug",
        "setoption",
        "setoption Hash value 1",
        "setoption name",
        "setoption name Hash value",
        "setoption name NoSuchOption value 1",
        "setoption name Hashes value 16",
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name MultiPV value 33",
        "setoption name MultiPV value many",
        "setoption name Move Overhead value -1",
        "setoption name NoCaptureLimit value 10001",
        "setoption name NoCaptureLimit value -5",
        "setoption name DogOverWolf value maybe",
        "setoption name DogOverWolf",
        "setoption name TigerJump value horizontal",
        "setoption name UCI_Variant value chess",
        "bench deep",
        "bench 3 4",
    ] {
        expect_error(&mut e, bad);
    }
    // None of that changed anything: the position and the options stand.
    assert_eq!(
        engine_moves(&mut e),
        legal_set(&game("startpos", &["g3g4"]))
    );
    let lines = e.go("go depth 2");
    let answer = check_search(&e, &lines, &game("startpos", &["g3g4"]));
    assert!(
        answer.infos.iter().all(|i| i.multipv.unwrap_or(1) == 1),
        "MultiPV changed by a refused value"
    );
    e.finish();
}

#[test]
fn malformed_go_gets_an_error_and_bestmove_0000() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos");
    for bad in [
        "go depth",
        "go depth x",
        "go depth -1",
        "go depth 99999999999",
        "go sideways",
        "go movetime",
        "go movetime soon",
        "go nodes -5",
        "go wtime 1000 btime",
        "go infinite please",
        "go searchmoves",
        "go searchmoves zz99",
        "go searchmoves a1a9 depth 2",
        "go searchmoves a9a8",
        "go perft",
        "go perft x",
        "go perft 3 4",
    ] {
        expect_go_error(&mut e, bad);
    }
    let lines = e.go("go depth 2");
    check_search(&e, &lines, &game("startpos", &[]));
    e.finish();
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

#[test]
fn malformed_positions_each_kind_get_one_error_and_leave_no_position() {
    let mut e = EngineProcess::start();
    for fen in [
        // rank count
        "7/7/7 w 0 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L/7 w 0 1",
        // rank width, too narrow and too wide
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L w 0 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L w 0 1",
        // unknown characters, digits out of 1..7
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X w 0 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/8 w 0 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T05L w 0 1",
        // the same animal twice
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/L5L w 0 1",
        // not a rat in the water
        "l5t/1d3c1/r1p1w1e/7/1E5/7/2W1P1R/1C3D1/T5L w 0 1",
        // in its own den
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T2L3 w 0 1",
        "l2t3/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1",
        // both dens entered
        "3L3/7/7/7/7/7/7/7/3l3 w 0 1",
        // side to move missing or bad
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x 0 1",
        // counters
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w -1 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w abc 1",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 0",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 x",
        // a field too many
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 extra",
    ] {
        // The library refuses each too (else the test data is wrong).
        assert!(fen.parse::<Position>().is_err(), "test data: {fen} parses");
        e.quiet("position startpos");
        let err = expect_error(&mut e, &format!("position fen {fen}"));
        if fen.contains('X') && !err.contains('X') {
            e.fail("the error does not name the bad character");
        }
        expect_no_position(&mut e);
        // A bad position with moves after it: also refused.
        e.quiet("position startpos");
        expect_error(&mut e, &format!("position fen {fen} moves a1a2"));
        expect_no_position(&mut e);
    }
    // A valid position brings everything back.
    e.quiet("position startpos");
    assert_eq!(engine_moves(&mut e), legal_set(&game("startpos", &[])));
    e.finish();
}

#[test]
fn illegal_moves_in_position_get_one_error_and_leave_no_position() {
    let mut e = EngineProcess::start();
    let cases: [(&str, &[&str]); 9] = [
        ("startpos", &["a1a9"]),          // not a move of the rules
        ("startpos", &["a9a8"]),          // Blue's piece, Red to move
        ("startpos", &["d4d5"]),          // no piece there
        ("startpos", &["0000"]),          // the null move
        ("startpos", &["g3g4", "zz"]),    // not a move at all
        ("startpos", &["g3g4", "g3g5x"]), // nor this
        ("startpos", &["g3g4", "g4g5"]),  // Red twice
        (
            "startpos",
            &[
                "a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1", "a8a9",
            ],
        ), // third repetition (forbid)
        ("3L3/7/7/7/7/7/7/7/6e b 0 1", &["g1g2"]), // the game is over
    ];
    for (fen, moves) in cases {
        // The library refuses the list too (else the test data is wrong).
        let f = if fen == "startpos" { START_FEN } else { fen };
        assert!(
            Game::from_fen_and_moves(Rules::default(), f, moves).is_err(),
            "test data: {moves:?} is legal"
        );
        e.quiet("position startpos");
        let err = expect_error(&mut e, &position_cmd(fen, moves));
        let bad = moves.last().unwrap();
        if !err.contains(bad) {
            e.fail(&format!("the error does not name the move {bad}: {err}"));
        }
        expect_no_position(&mut e);
    }
    e.quiet("position startpos moves a1a2 a9a8 a2a1 a8a9 a1a2 a9a8 a2a1");
    assert_eq!(
        engine_moves(&mut e),
        legal_set(&game(
            "startpos",
            &["a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1"]
        ))
    );
    e.finish();
}

#[test]
fn blank_lines_whitespace_crlf_long_lines_and_bad_bytes() {
    let mut e = EngineProcess::start();
    // Empty and blank lines: no answer at all.
    e.send_bytes(b"\n\n   \n\t\t\n \t \r\n\r\n");
    let lines = e.sync();
    assert!(lines.is_empty(), "blank lines answered: {lines:?}");

    // Runs of spaces and tabs, CRLF.
    e.send_bytes(b"   isready \t \r\n");
    let lines = e.read_until(|l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    e.send_bytes(b"\tposition \t startpos   moves\tg3g4  a7a6 \r\n");
    let after = game("startpos", &["g3g4", "a7a6"]);
    assert_eq!(engine_moves(&mut e), legal_set(&after));
    e.send_bytes(b"position startpos moves g3g4\r\n");
    assert_eq!(
        engine_moves(&mut e),
        legal_set(&game("startpos", &["g3g4"])),
        "a CRLF line's last move lost its \\r"
    );
    e.send_bytes(b"setoption   name  MultiPV\tvalue   2\r\n");
    e.send_bytes(b"\tgo  depth\t2 \r\n");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let answer = check_search(&e, &lines, &game("startpos", &["g3g4"]));
    assert!(
        answer.infos.iter().any(|i| i.multipv == Some(2)),
        "setoption with tabs and runs of spaces not applied"
    );
    e.quiet("setoption name MultiPV value 1");

    // A 2 MB line: one error, skipped whole, state unchanged.
    let mut long = b"position startpos moves".to_vec();
    while long.len() < 2 << 20 {
        long.extend_from_slice(b" a1a2");
    }
    long.push(b'\n');
    expect_error_bytes(&mut e, &long);
    let mut junk = vec![b'x'; 2 << 20];
    junk.push(b'\n');
    expect_error_bytes(&mut e, &junk);
    assert_eq!(
        engine_moves(&mut e),
        legal_set(&game("startpos", &["g3g4"]))
    );

    // Bytes that are not UTF-8, and a NUL.
    expect_error_bytes(&mut e, b"\xff\xfe\n");
    expect_error_bytes(&mut e, b"isready\xff\n");
    expect_error_bytes(&mut e, b"isready\0\n");
    e.send_bytes(b"go depth 1 \xc3\n");
    expect_error_lines(&mut e, "go with a bad byte", true);
    expect_error_bytes(&mut e, b"position startpos moves g3g4 \xe9\n");
    expect_no_position(&mut e);
    e.quiet("position startpos");
    let lines = e.go("go depth 2");
    check_search(&e, &lines, &game("startpos", &[]));
    e.finish();
}

// ---------------------------------------------------------------------------
// Finished games
// ---------------------------------------------------------------------------

/// Finished games: (settings, position, moves).
type Case = (Settings, &'static str, &'static [&'static str]);

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

#[test]
fn finished_games_answer_without_a_move() {
    let mut e = EngineProcess::start();
    for (settings, fen, moves) in finished_cases() {
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        let g = game_with(rules_with(settings), fen, moves);
        let outcome = g.outcome().expect("test data: the game is over");
        e.quiet(&position_cmd(fen, moves));
        for go in ["go depth 5", "go movetime 50", "go wtime 1000 btime 1000"] {
            let lines = e.go(go);
            expect_game_over(&e, &lines, outcome);
            nothing_more(&mut e);
        }
        // go infinite and go ponder answer only after stop / ponderhit.
        // (A bare `go ponder` would search on after ponderhit as a bare `go`
        // does, until stop; with a clock, ponderhit ends it.)
        for (go, end) in [
            ("go infinite", "stop"),
            ("go ponder wtime 1000 btime 1000", "ponderhit"),
        ] {
            e.send(go);
            let lines = e.sync();
            if !lines.is_empty() {
                e.fail(&format!(
                    "{go} in a finished game answered before {end}: {lines:?}"
                ));
            }
            e.send(end);
            let lines = e.read_until(|l| l.starts_with("bestmove"));
            expect_game_over(&e, &lines, outcome);
        }
        e.quiet("position startpos");
        e.quiet("setoption name UCI_Variant value jungle");
    }
    // With the limit off, the no-capture position is in play again.
    e.quiet("setoption name NoCaptureLimit value 0");
    let fen = "2l4/7/7/7/7/7/7/7/6E w 100 60";
    e.quiet(&position_cmd(fen, &[]));
    let lines = e.go("go depth 2");
    check_search(
        &e,
        &lines,
        &game_with(rules_with(&[("NoCaptureLimit", "0")]), fen, &[]),
    );
    e.finish();
}

// ---------------------------------------------------------------------------
// go limits and what the info lines say
// ---------------------------------------------------------------------------

#[test]
fn go_depth_ends_by_itself_with_a_full_final_info_line() {
    let mut e = EngineProcess::start();
    let cases: [(&str, &[&str], u32); 3] = [
        ("startpos", &[], 4),
        ("startpos", &["g3g4", "a7a6"], 5),
        ("2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34", &[], 4),
    ];
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        for (fen, moves, depth) in cases {
            e.quiet(&position_cmd(fen, moves));
            let lines = e.go(&format!("go depth {depth}"));
            let answer = check_search(&e, &lines, &game(fen, moves));
            assert_eq!(answer.last.depth, Some(depth), "final depth: {lines:?}");
            let depths: BTreeSet<u32> = answer
                .infos
                .iter()
                .filter(|i| i.is_exact_line())
                .filter_map(|i| i.depth)
                .collect();
            assert_eq!(depths, (1..=depth).collect(), "every iteration reported");
            let nodes: Vec<u64> = answer.infos.iter().filter_map(|i| i.nodes).collect();
            assert!(
                nodes.windows(2).all(|w| w[0] <= w[1]),
                "nodes go down: {nodes:?}"
            );
            assert!(answer.last.nodes.unwrap() > 0);
            nothing_more(&mut e);
        }
    }
    e.finish();
}

#[test]
fn go_mate_finds_the_shortest_forced_win_and_stops() {
    let mut e = EngineProcess::start();
    // (position, mate limit); the wins are proven here by exhaustive search.
    let cases = [
        ("7/7/3L3/7/7/7/7/7/6e w 0 1", 2),
        ("1c3d1/2p4/2L1T2/7/7/7/7/7/6e w 0 1", 3),
        ("1c3d1/2p4/2L1T2/7/7/7/7/7/6e w 0 1", 5),
        ("1c5/7/2L4/7/7/7/7/7/6e w 0 1", 4),
    ];
    for (fen, limit) in cases {
        for fen in [
            fen.to_string(),
            fen.parse::<Position>().unwrap().mirrored().fen(),
        ] {
            let mut g = game(&fen, &[]);
            let shortest = (1..=limit)
                .find(|&n| wins_within(&mut g, n))
                .expect("test data: a win within the limit");
            e.quiet(&position_cmd(&fen, &[]));
            let lines = e.go(&format!("go mate {limit}"));
            let answer = check_search(&e, &lines, &g);
            assert_eq!(
                answer.last.score,
                Some(Score::Mate(shortest as i32)),
                "{fen}: go mate {limit}"
            );
            // The move played keeps the win within that many moves.
            let m: Move = answer.best.parse().unwrap();
            g.make(m);
            let keeps = match g.outcome() {
                Some(Outcome::Win { .. }) => true,
                Some(Outcome::Draw(_)) => false,
                None => shortest > 1 && loses_within(&mut g, shortest - 1),
            };
            assert!(keeps, "{fen}: {} does not win in {shortest}", answer.best);
        }
    }
    e.finish();
}

#[test]
fn go_nodes_stops_near_the_limit() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos moves g3g4 a7a6");
    let game = game("startpos", &["g3g4", "a7a6"]);
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        for limit in [5_000u64, 30_000] {
            let lines = e.go(&format!("go nodes {limit}"));
            let answer = check_search(&e, &lines, &game);
            let n = answer.last.nodes.unwrap();
            assert!(n >= limit / 2, "go nodes {limit}: stopped at {n}");
            // One thread checks the limit every 1024 nodes. With more, only
            // the main thread checks the total, so a helper may run on while it
            // is descheduled on a loaded machine: no upper bound there.
            assert!(
                threads > 1 || n <= limit + 1024,
                "go nodes {limit} with {threads} threads searched {n}"
            );
        }
        // Even a tiny limit gives a legal move.
        let lines = e.go("go nodes 1");
        check_search(&e, &lines, &game);
    }
    e.finish();
}

#[test]
fn go_searchmoves_plays_only_among_them() {
    let mut e = EngineProcess::start();
    let moves = ["g3g4", "a7a6"];
    let game = game("startpos", &moves);
    e.quiet(&position_cmd("startpos", &moves));
    let cases: [&[&str]; 3] = [&["a1b1", "g1g2"], &["b2b1"], &["f2f1", "a1b1", "g4g5"]];
    for (i, allowed) in cases.iter().enumerate() {
        for m in *allowed {
            assert!(legal_set(&game).contains(*m), "test data: {m} not legal");
        }
        let go = match i {
            0 => format!("go depth 4 searchmoves {}", allowed.join(" ")),
            1 => format!("go searchmoves {} wtime 1000 btime 1000", allowed.join(" ")),
            _ => format!("go searchmoves {} movetime 50", allowed.join(" ")),
        };
        let lines = e.go(&go);
        let answer = check_search(&e, &lines, &game);
        assert!(
            allowed.contains(&answer.best.as_str()),
            "{go}: {}",
            answer.best
        );
        for info in &answer.infos {
            let first = &info.pv.as_ref().unwrap()[0];
            assert!(allowed.contains(&first.as_str()), "{go}: pv {first}");
        }
    }
    // With MultiPV 3 and two moves allowed: two lines per depth.
    e.quiet("setoption name MultiPV value 3");
    let lines = e.go("go depth 3 searchmoves a1b1 g1g2");
    let answer = check_search(&e, &lines, &game);
    let pvs: BTreeSet<u32> = answer.infos.iter().filter_map(|i| i.multipv).collect();
    assert_eq!(pvs, BTreeSet::from([1, 2]), "{lines:?}");
    e.finish();
}

/// For each depth, the exact lines: multipv 1..=k, each once, distinct first moves.
fn check_multipv(e: &EngineProcess, answer: &Answer, k: u32, depth: u32) {
    for d in 1..=depth {
        let lines: Vec<&Info> = answer
            .infos
            .iter()
            .filter(|i| i.depth == Some(d) && i.is_exact_line())
            .collect();
        // The final line repeats multipv 1 at the last depth.
        let lines = if d == depth {
            &lines[..lines.len().saturating_sub(1)]
        } else {
            &lines[..]
        };
        let numbers: Vec<u32> = lines.iter().map(|i| i.multipv.unwrap_or(0)).collect();
        let firsts: BTreeSet<&String> = lines.iter().map(|i| &i.pv.as_ref().unwrap()[0]).collect();
        if numbers != (1..=k).collect::<Vec<_>>() || firsts.len() != k as usize {
            e.fail(&format!(
                "depth {d}: expected multipv 1..={k} with distinct moves, got {numbers:?} {firsts:?}"
            ));
        }
    }
}

#[test]
fn multipv_reports_that_many_distinct_lines_per_depth() {
    let mut e = EngineProcess::start();
    e.quiet("setoption name MultiPV value 3");
    e.quiet("position startpos");
    let lines = e.go("go depth 4");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    check_multipv(&e, &answer, 3, 4);
    let last_first = answer
        .infos
        .iter()
        .rev()
        .find(|i| i.multipv == Some(1) && i.is_exact_line())
        .unwrap();
    assert_eq!(last_first.pv.as_ref().unwrap()[0], answer.best);

    // Fewer legal moves than lines: one line per move.
    let fen = "6e/7/7/7/7/7/7/7/T6 w 0 1";
    let n = game(fen, &[]).legal_moves().len() as u32;
    assert!(n < 3, "test data");
    e.quiet(&position_cmd(fen, &[]));
    let lines = e.go("go depth 3");
    let answer = check_search(&e, &lines, &game(fen, &[]));
    check_multipv(&e, &answer, n, 3);

    e.quiet("setoption name MultiPV value 1");
    e.quiet("position startpos");
    let lines = e.go("go depth 3");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    check_multipv(&e, &answer, 1, 3);
    e.finish();
}

#[test]
fn uci_show_wdl_adds_wdl_to_scores() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos");
    let lines = e.go("go depth 3");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    assert!(
        answer.infos.iter().all(|i| i.wdl.is_none()),
        "wdl without UCI_ShowWDL"
    );

    e.quiet("setoption name UCI_ShowWDL value true");
    let positions = [
        "startpos",
        "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34",
        // Red wins in 2; Blue loses in 2.
        "7/7/3L3/7/7/7/7/7/6e w 0 1",
        "7/7/3L3/7/7/7/7/7/6e b 0 1",
        // Red is a lion up.
        "6e/7/7/7/7/7/7/7/L5E b 0 1",
    ];
    for fen in positions {
        e.quiet(&position_cmd(fen, &[]));
        let lines = e.go("go depth 4");
        let answer = check_search(&e, &lines, &game(fen, &[]));
        for info in answer.infos.iter().filter(|i| i.score.is_some()) {
            let Some((w, d, l)) = info.wdl else {
                e.fail(&format!("no wdl with UCI_ShowWDL: {info:?}"));
            };
            let fits = match info.score.unwrap() {
                Score::Mate(n) if n > 0 => (w, d, l) == (1000, 0, 0),
                Score::Mate(_) => (w, d, l) == (0, 0, 1000),
                Score::Cp(cp) if cp > 0 => w >= l,
                Score::Cp(cp) if cp < 0 => w <= l,
                Score::Cp(_) => w == l,
            };
            if !fits {
                e.fail(&format!("wdl does not fit the score: {info:?}"));
            }
        }
    }
    e.quiet("setoption name UCI_ShowWDL value false");
    e.quiet("position startpos");
    let lines = e.go("go depth 2");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    assert!(
        answer.infos.iter().all(|i| i.wdl.is_none()),
        "wdl after turning it off"
    );
    e.finish();
}

// ---------------------------------------------------------------------------
// Commands for people: d, eval, moves, go perft, bench
// ---------------------------------------------------------------------------

/// Sends a diagnostic command and answers its lines (not checked as protocol).
fn diagnostic(e: &mut EngineProcess, cmd: &str) -> Vec<String> {
    e.strict = false;
    e.send(cmd);
    let lines = e.sync();
    e.strict = true;
    lines
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

#[test]
fn d_draws_the_board_and_states_fen_side_state_and_rules() {
    let mut e = EngineProcess::start();
    let cases: [(Settings, &str, &[&str]); 4] = [
        (&[], "startpos", &[]),
        (&[], "startpos", &["g3g4", "a7a6", "g4f4"]),
        (
            &[("DogOverWolf", "true")],
            "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34",
            &[],
        ),
        (&[], "3L3/7/7/7/7/7/7/7/6e b 0 1", &[]),
    ];
    for (settings, fen, moves) in cases {
        e.quiet("setoption name UCI_Variant value jungle");
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        let rules = rules_with(settings);
        let g = game_with(rules, fen, moves);
        let pos = g.position();
        e.quiet(&position_cmd(fen, moves));
        let lines = diagnostic(&mut e, "d");
        let field = |key: &str| -> String {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("d has no '{key}' line: {lines:?}"))
                .to_string()
        };
        assert_eq!(field("Fen: "), pos.fen());
        assert_eq!(field("Side to move: "), pos.side_to_move().to_string());
        let state = field("State: ");
        match g.outcome() {
            None => assert_eq!(state, "in play"),
            Some(o) => assert!(state.starts_with("over"), "{state} for {o}"),
        }
        let rules_line = field("Rules: ");
        for (name, value) in rules.settings() {
            let want = format!("{name}={value}");
            assert!(rules_line.contains(&want), "{rules_line} lacks {want}");
        }
        // The board: ranks 9..1, each square's letter or an empty mark.
        for sq in doushou::rules::Square::all() {
            let name = sq.to_string();
            let (file, rank) = (name.as_bytes()[0] - b'a', &name[1..]);
            let row = lines
                .iter()
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .find(|w| w.len() == 8 && w[0] == rank)
                .unwrap_or_else(|| panic!("d draws no rank {rank}: {lines:?}"));
            let drawn = row[1 + file as usize];
            match pos.piece_at(sq) {
                Some(p) => assert_eq!(drawn, p.letter().to_string(), "{sq}"),
                None => assert!(
                    [".", "~", "#", "*"].contains(&drawn),
                    "{sq}: empty drawn as {drawn}"
                ),
            }
        }
    }
    e.finish();
}

#[test]
fn eval_total_is_the_sum_of_its_terms() {
    let mut e = EngineProcess::start();
    for (fen, moves) in [
        ("startpos", &[][..]),
        ("startpos", &["g3g4", "a7a6"][..]),
        ("2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34", &[][..]),
    ] {
        e.quiet(&position_cmd(fen, moves));
        let lines = diagnostic(&mut e, "eval");
        assert!(lines.len() >= 3, "eval: {lines:?}");
        let value = |l: &str| -> i64 {
            l.split_whitespace()
                .last()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("eval line without a value: {l:?}"))
        };
        let total_line = lines.last().unwrap();
        assert_eq!(total_line.split_whitespace().next(), Some("total"));
        let sum: i64 = lines[1..lines.len() - 1].iter().map(|l| value(l)).sum();
        assert_eq!(value(total_line), sum, "{lines:?}");
    }
    e.finish();
}

#[test]
fn moves_lists_the_legal_moves_of_the_library() {
    let mut e = EngineProcess::start();
    let cases: [(&str, &[&str]); 6] = [
        ("startpos", &[]),
        ("startpos", &["g3g4", "a7a6", "g4g5", "a6a5"]),
        // Jumps of lion and tiger, blocked and not.
        ("l5t/1d3c1/r1p1w1e/7/3L3/7/E1T1P1R/1C3D1/6W w 4 8", &[]),
        ("l5t/1d3c1/2p1w2/1r4e/4R2/7/E1W1P2/1C3D1/T5L w 0 10", &[]),
        // Blue may not repeat the start position a third time.
        (
            "startpos",
            &["a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1"],
        ),
        ("5e1/l1d4/2p1wc1/1r5/7/3t3/2W4/1C1D2R/ET3L1 b 9 48", &[]),
    ];
    for (fen, moves) in cases {
        e.quiet(&position_cmd(fen, moves));
        assert_eq!(
            engine_moves(&mut e),
            legal_set(&game(fen, moves)),
            "{fen} moves {moves:?}"
        );
    }
    e.finish();
}

/// `go perft <depth>`: the divide lines and the total.
fn perft(e: &mut EngineProcess, depth: u32) -> (Vec<(String, u64)>, u64) {
    let lines = background_diagnostic(e, &format!("go perft {depth}"), |l| {
        l.starts_with("Nodes searched: ")
    });
    let (last, divide) = lines.split_last().expect("perft answered nothing");
    let total: u64 = last
        .strip_prefix("Nodes searched: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("perft's last line: {last:?}"));
    let divide = divide
        .iter()
        .map(|l| {
            let (m, n) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("divide line {l:?}"));
            (m.to_string(), n.parse().unwrap_or_else(|_| panic!("{l:?}")))
        })
        .collect();
    (divide, total)
}

#[test]
fn go_perft_divides_and_counts() {
    let mut e = EngineProcess::start();
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        // docs/rules.md: perft 3 of the start position is 12,240 over 24 moves.
        e.quiet("position startpos");
        let (divide, total) = perft(&mut e, 3);
        assert_eq!(total, 12_240);
        assert_eq!(divide.len(), 24);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), total);
        let moves: BTreeSet<String> = divide.iter().map(|(m, _)| m.clone()).collect();
        assert_eq!(moves, legal_set(&game("startpos", &[])));

        // Elsewhere, against the library's perft, move by move.
        let (fen, moves) = (
            "l5t/1d3c1/r1p1w1e/7/3L3/7/E1T1P1R/1C3D1/6W w 4 8",
            ["d5d4", "a7a6"],
        );
        e.quiet(&position_cmd(fen, &moves));
        let (divide, total) = perft(&mut e, 2);
        let mut g = game(fen, &moves);
        assert_eq!(total, g.perft(2));
        assert_eq!(divide.len(), g.legal_moves().len());
        for (m, n) in divide {
            let mut h = g.clone();
            h.play_text(&m).unwrap();
            assert_eq!(n, h.perft(1), "divide {m}");
        }
    }
    e.finish();
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

#[test]
fn bench_reports_each_position_and_a_deterministic_total() {
    let mut e = EngineProcess::start();
    let (total, per_position) = bench(&mut e, 3);
    let fens: Vec<&str> = doushou::engine::bench::positions().collect();
    assert_eq!(
        per_position.len(),
        fens.len(),
        "one line per bench position"
    );
    assert_eq!(per_position.iter().map(|(n, _)| n).sum::<u64>(), total);
    for ((_, best), fen) in per_position.iter().zip(&fens) {
        let mut g = game(fen, &[]);
        match g.outcome() {
            Some(_) => assert_eq!(best, "0000", "{fen} is over"),
            None => assert!(g.play_text(best).is_ok(), "{fen}: {best}"),
        }
    }
    let (again, _) = bench(&mut e, 3);
    assert_eq!(total, again, "bench with one thread is deterministic");
    e.finish();
}

/// The search parameters are hidden options: `uci` does not list them, but
/// `setoption` changes the search (the bench's node count) and setting the
/// default back restores it; out-of-range values are refused.
#[test]
fn search_parameters_are_hidden_options_that_change_the_search() {
    let mut e = EngineProcess::start();
    e.send("uci");
    let listing = e.read_until(|l| l == "uciok");
    assert!(
        cfg!(feature = "tune") || !listing.iter().any(|l| l.contains("LMR_BASE_X100")),
        "hidden unless built for tuning: {listing:?}"
    );
    let (default_nodes, _) = bench(&mut e, 5);
    e.quiet("setoption name LMR_BASE_X100 value 150");
    e.quiet("setoption name futility_margin value 60");
    let (tuned_nodes, _) = bench(&mut e, 5);
    assert_ne!(
        default_nodes, tuned_nodes,
        "the parameters reach the search"
    );
    e.quiet("setoption name LMR_BASE_X100 value 50");
    e.quiet("setoption name FUTILITY_MARGIN value 110");
    let (reset_nodes, _) = bench(&mut e, 5);
    assert_eq!(
        default_nodes, reset_nodes,
        "the defaults give the same search"
    );
    for bad in ["-1000", "301", "x"] {
        e.send(&format!("setoption name LMR_BASE_X100 value {bad}"));
        let lines = e.sync();
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string error:")
                && lines[0].contains("LMR_BASE_X100"),
            "{bad:?}: {lines:?}"
        );
    }
    let (after_errors, _) = bench(&mut e, 5);
    assert_eq!(
        default_nodes, after_errors,
        "a refused value changes nothing"
    );
    e.finish();
}

// ---------------------------------------------------------------------------
// Rule options
// ---------------------------------------------------------------------------

#[test]
fn rule_options_change_the_legal_moves() {
    let mut e = EngineProcess::start();
    // (settings, position, a move the settings allow that the defaults do not,
    // or the other way round when prefixed by '-')
    let cases: [(Settings, &str, &str); 6] = [
        // A red dog below a blue wolf: the dog takes it only when it outranks it.
        (
            &[("DogOverWolf", "true")],
            "6e/7/7/3w3/3D3/7/7/7/T6 w 0 1",
            "d5d6",
        ),
        // xoudouqi: a rat may take a rat from the water onto the bank.
        (
            &[("UCI_Variant", "xoudouqi")],
            "6e/7/7/7/rR5/7/7/7/T6 w 0 1",
            "b5a5",
        ),
        (
            &[("RatBankCapture", "true")],
            "6e/7/7/7/rR5/7/7/7/T6 w 0 1",
            "b5a5",
        ),
        // A lion beside the river: no horizontal jump with LionJump vertical.
        (
            &[("LionJump", "vertical")],
            "6e/7/7/7/L6/7/7/7/T6 w 0 1",
            "-a5d5",
        ),
        // A tiger below the river: no jump at all with TigerJump none.
        (
            &[("TigerJump", "none")],
            "6e/7/7/7/7/7/1T5/7/6L w 0 1",
            "-b3b7",
        ),
        // A rat in the water beside an elephant.
        (
            &[("RatWaterElephant", "true")],
            "6e/7/7/7/Er5/7/7/7/T6 b 0 1",
            "b5a5",
        ),
    ];
    for (settings, fen, shows) in cases {
        let (removed, m) = match shows.strip_prefix('-') {
            Some(m) => (true, m),
            None => (false, shows),
        };
        let default_moves = legal_set(&game(fen, &[]));
        let set_moves = legal_set(&game_with(rules_with(settings), fen, &[]));
        // The test data shows the difference.
        assert_eq!(default_moves.contains(m), removed, "test data {fen} {m}");
        assert_eq!(set_moves.contains(m), !removed, "test data {fen} {m}");

        e.quiet(&position_cmd(fen, &[]));
        assert_eq!(engine_moves(&mut e), default_moves, "{fen} default rules");
        // Setting the option replays the position under the new rules.
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        assert_eq!(engine_moves(&mut e), set_moves, "{fen} with {settings:?}");
        // And a search plays by them.
        let lines = e.go("go depth 2");
        check_search(&e, &lines, &game_with(rules_with(settings), fen, &[]));
        e.quiet("setoption name UCI_Variant value jungle");
        assert_eq!(engine_moves(&mut e), default_moves, "{fen} back to jungle");
    }

    // A game whose moves become illegal under new rules: the engine says so
    // and holds no position.
    e.quiet("setoption name DogOverWolf value true");
    e.quiet("position fen 6e/7/7/3w3/3D3/7/7/7/T6 w 0 1 moves d5d6");
    expect_error(&mut e, "setoption name DogOverWolf value false");
    expect_no_position(&mut e);
    e.finish();
}

// ---------------------------------------------------------------------------
// Behaviour protocol.md promises that the engine lacked when these tests were
// written (see the report of issue 3).
// ---------------------------------------------------------------------------

/// protocol.md: "Commands that change the engine's state (`position`,
/// `setoption`, `ucinewgame`, `go`) arriving while a search runs first end that
/// search as `stop` would (its `bestmove` is printed), then take effect."
#[test]
fn state_changing_commands_during_go_infinite_end_the_search() {
    let cases: [(&str, &[&str]); 4] = [
        ("position startpos moves g3g4", &["g3g4"]),
        ("setoption name Threads value 2", &[]),
        ("setoption name DogOverWolf value true", &[]),
        ("ucinewgame", &[]),
    ];
    for (cmd, moves_after) in cases {
        let mut e = EngineProcess::start();
        e.quiet("position startpos");
        e.send("go infinite");
        let mut lines = e.read_until(|l| l.starts_with("info depth"));
        e.send(cmd);
        lines.extend(e.read_until(|l| l.starts_with("bestmove")));
        check_search(&e, &lines, &game("startpos", &[]));
        let later = e.sync();
        if !later.is_empty() {
            e.fail(&format!("{cmd}: output after bestmove: {later:?}"));
        }
        let mut rules = Rules::default();
        if cmd.contains("DogOverWolf") {
            rules.set("DogOverWolf", "true").unwrap();
        }
        assert_eq!(
            engine_moves(&mut e),
            legal_set(&game_with(rules, "startpos", moves_after)),
            "{cmd} took effect"
        );
        e.finish();
    }
}

/// protocol.md: a valid `setoption` prints nothing; the engine is left "with
/// its state unchanged" by a bad line. With no valid position held (after a
/// refused one), a valid setoption must not report an error either.
#[test]
fn valid_setoption_without_a_position_prints_nothing() {
    let mut e = EngineProcess::start();
    expect_error(&mut e, "position startpos moves a1a9");
    e.quiet("setoption name Hash value 16");
    e.quiet("setoption name UCI_ShowWDL value true");
    e.quiet("setoption name DogOverWolf value true");
    expect_no_position(&mut e);
    e.finish();
}

/// Input echoed in an error is escaped: stdout never carries control
/// characters (an escape sequence from the input would reach the GUI's terminal
/// or log as is).
#[test]
fn errors_escape_the_input_they_quote() {
    let mut e = EngineProcess::start();
    for bad in [
        &b"fo\x01o\n"[..],
        b"setoption name Fo\x01o value 1\n",
        b"setoption name Hash value 1\x1b\n",
        b"position fen 7/7/7/7/7/7/7/7/6E \x1b[31m\n",
        b"position fen 7/7/7/7/7/7/7/7/6E w \x01 1\n",
        b"position fen 7/7/7/7/7/7/7/7/6E w 0 1 \x01\n",
        b"position startpos moves g3g\x01\n",
        b"go depth \x01\n",
    ] {
        // check_protocol_line fails on a control character in any line.
        e.send_bytes(bad);
        e.sync();
    }
    e.finish();
}

/// protocol.md: "With no limit at all, `go` searches until `stop`." In a
/// position whose search reaches the deepest iteration at once, the engine
/// must still wait for `stop`.
#[test]
fn go_without_limits_waits_for_stop() {
    let mut e = EngineProcess::start();
    for fen in [
        // Every move draws by the no-capture limit.
        "2l4/7/7/7/7/7/7/7/6E w 99 60",
        // Red wins in 2 whatever Blue does.
        "7/7/3L3/7/7/7/7/7/6e w 0 1",
    ] {
        e.quiet(&position_cmd(fen, &[]));
        e.send("go");
        let why = format!("{fen}: go without limits answered before stop");
        let mut lines = no_bestmove_within(&mut e, Duration::from_millis(300), &why);
        e.send("stop");
        lines.extend(e.read_until(|l| l.starts_with("bestmove")));
        check_search(&e, &lines, &game(fen, &[]));
    }
    e.finish();
}

/// `bench` is a diagnostic: it leaves the position set before it in place.
#[test]
fn bench_keeps_the_position() {
    let mut e = EngineProcess::start();
    let moves = ["g3g4", "a7a6"];
    e.quiet(&position_cmd("startpos", &moves));
    bench(&mut e, 1);
    assert_eq!(
        engine_moves(&mut e),
        legal_set(&game("startpos", &moves)),
        "the position after bench"
    );
    e.finish();
}

/// protocol.md: `moves` lists "every legal move (just `moves` when there is
/// none)". In a finished game no move is legal: `position ... moves` refuses
/// any (the game is over), so `moves` must list none, draws included.
#[test]
fn moves_lists_nothing_in_a_finished_game() {
    let mut e = EngineProcess::start();
    for (settings, fen, moves) in finished_cases() {
        e.quiet("position startpos");
        e.quiet("setoption name UCI_Variant value jungle");
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        let g = game_with(rules_with(settings), fen, moves);
        let outcome = g.outcome().expect("test data: the game is over");
        // The library itself plays no move here.
        for m in legal_set(&g) {
            assert!(
                g.clone().play_text(&m).is_err(),
                "{m} playable after {outcome}"
            );
        }
        e.quiet(&position_cmd(fen, moves));
        let listed = engine_moves(&mut e);
        if !listed.is_empty() {
            e.fail(&format!(
                "{fen} {moves:?} is over ({outcome}), yet moves lists {listed:?}"
            ));
        }
    }
    e.finish();
}

// ---------------------------------------------------------------------------
// The search lifecycle as UCI asks it: under `ponder` and `infinite` no limit
// lets `bestmove` out; every `go` answers; unknown words are skipped; perft and
// bench run like searches.
// ---------------------------------------------------------------------------

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
    for round in 0..3 {
        for limits in QUICK_LIMITS {
            for kind in ["infinite", "ponder"] {
                let go = format!("go {kind} {limits}");
                let mut lines = no_bestmove_yet(&mut e, &go);
                // Ponder searches end one round in three by ponderhit: the
                // limits, counted from it, then let the move out.
                let release = if kind == "ponder" && round != 1 {
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
    let cases: [(&[&str], &str); 6] = [
        (&[], "go btime 1000"),
        (&[], "go winc 100"),
        (&[], "go movestogo 5"),
        (&[], "go btime 500 binc 100"),
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
