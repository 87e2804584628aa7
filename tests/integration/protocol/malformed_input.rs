//! Malformed input.

use super::*;

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
