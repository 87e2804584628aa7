//! Search control: isready, stop, quit, end of input, ponder.

use super::*;

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
