//! No-capture limit and the order of results.

use super::*;

#[test]
fn no_capture_limit_draws() {
    let fen = "6c/7/7/7/7/7/7/7/C6 w 99 50";
    board(fen, "Ca1 cg9");
    let r = rules(&["NoCaptureLimit=100"]);
    let mut game = Game::new(r, pos(fen));
    assert_eq!(game.outcome(), None);
    play(&mut game, &["a1a2"]);
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    // A lower limit is reached sooner: 99 plies already are a draw under 99.
    let game = Game::new(rules(&["NoCaptureLimit=99"]), pos(fen));
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    // 0 turns the rule off, however long it has been.
    for fen in [
        "6c/7/7/7/7/7/7/7/C6 w 99 50",
        "6c/7/7/7/7/7/7/7/C6 w 5000 50",
    ] {
        let mut game = Game::new(rules(&["NoCaptureLimit=0"]), pos(fen));
        play(&mut game, &["a1a2", "g9g8"]);
        assert_eq!(game.outcome(), None, "{fen}");
    }
}

#[test]
fn a_capture_resets_the_counter() {
    let fen = "6d/7/7/c6/L6/7/7/7/7 w 99 50";
    board(fen, "La5 ca6 dg9");
    let mut game = Game::new(rules(&["NoCaptureLimit=100"]), pos(fen));
    play(&mut game, &["a5a6"]);
    assert_eq!(game.position().plies_since_capture(), 0);
    assert_eq!(game.outcome(), None);
    play(&mut game, &["g9g8"]);
    assert_eq!(game.position().plies_since_capture(), 1);
    assert_eq!(game.position().move_number(), 51);
}

#[test]
fn den_entry_beats_the_no_capture_limit() {
    let fen = "6c/3C3/7/7/7/7/7/7/7 w 99 50";
    board(fen, "Cd8 cg9");
    let mut game = Game::new(rules(&["NoCaptureLimit=100"]), pos(fen));
    play(&mut game, &["d8d9"]);
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Den));
}

#[test]
fn den_entry_beats_a_blocked_opponent() {
    // Blue's only piece, the cat on a1, is hemmed in, and the Red cat enters the
    // den on the 100th ply without capture: the den decides.
    let fen = "7/3C3/7/7/7/7/7/E6/cT5 w 99 50";
    board(fen, "ca1 Ea2 Tb1 Cd8");
    let mut game = Game::new(Rules::default(), pos(fen));
    play(&mut game, &["d8d9"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Den));
    // Any other cat move leaves Blue to move without a move: that loses first,
    // before the no-capture draw.
    let mut game = Game::new(Rules::default(), pos(fen));
    play(&mut game, &["d8c8"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
}

#[test]
fn no_legal_move_beats_the_no_capture_limit() {
    let fen = "7/7/7/7/7/7/7/E6/c1T4 w 99 50";
    board(fen, "ca1 Ea2 Tc1");
    let mut game = Game::new(rules(&["NoCaptureLimit=100"]), pos(fen));
    play(&mut game, &["c1b1"]);
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
}

#[test]
fn repetition_draw_beats_the_no_capture_limit() {
    // Eight plies from 92: the third occurrence and the 100th ply come together.
    let fen = "6c/7/7/7/7/7/7/7/C6 w 92 50";
    board(fen, "Ca1 cg9");
    let moves = [
        "a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1", "g8g9",
    ];
    let play_all = |r: Rules| {
        let mut game = Game::new(r, pos(fen));
        for m in moves {
            // Game::make, not play_text: the game may be over one ply early.
            game.make(m.parse().unwrap());
        }
        assert_eq!(game.position().plies_since_capture(), 100);
        game.outcome()
    };
    assert_eq!(
        play_all(rules(&["Repetition=draw", "NoCaptureLimit=100"])),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
    assert_eq!(
        play_all(rules(&["Repetition=none", "NoCaptureLimit=100"])),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    assert_eq!(
        play_all(rules(&["Repetition=draw", "NoCaptureLimit=0"])),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
}
