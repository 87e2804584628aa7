//! Behaviour protocol.md promises that the engine once lacked.

use super::*;

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
