//! Repetition.

use super::*;

/// Red cat a1, Blue cat g9; both shuffle one square and back, twice. After the
/// seventh ply Blue's g8g9 would bring the start position a third time.
pub(super) const REP: &str = "6c/7/7/7/7/7/7/7/C6 w 0 1";
pub(super) const REP_MOVES: [&str; 7] = ["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"];

#[test]
fn repetition_forbid_removes_exactly_the_repeating_move() {
    board(REP, "Ca1 cg9");
    let r = rules(&["Repetition=forbid"]);
    let mut game = Game::new(r, pos(REP));
    play(&mut game, &REP_MOVES);
    assert_eq!(game.occurrences(), 2);
    let before = game.position().generate(&r);
    assert_eq!(strings(&before), set(&["g8f8", "g8g7", "g8g9"]));
    assert_eq!(strings(&game.legal_moves()), set(&["g8f8", "g8g7"]));
    assert_eq!(game.outcome(), None);
    let third: Move = "g8g9".parse().unwrap();
    assert!(game.would_repeat_third(third));
    assert!(!game.is_legal(third));
    assert!(game.is_legal("g8f8".parse().unwrap()));
    let err = game.play_text("g8g9").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err:?}");
    assert_eq!(game.plies_played(), 7, "a refused move is not played");
    // The other moves stay playable; after one of them the repetition is gone.
    let mut g = game.clone();
    play(&mut g, &["g8g7"]);
    assert_eq!(
        strings(&g.legal_moves()),
        strings(&g.position().generate(&r))
    );
    // Earlier in the same game, before the second occurrence, nothing was forbidden.
    let mut g = Game::new(r, pos(REP));
    play(&mut g, &REP_MOVES[..3]);
    assert_eq!(strings(&g.legal_moves()), set(&["g8f8", "g8g7", "g8g9"]));
}

#[test]
fn repetition_forbid_also_for_red() {
    // Blue starts the shuffle: Red's a2a1 would be the third occurrence.
    let fen = "6c/7/7/7/7/7/7/7/C6 b 0 1";
    let r = Rules::default();
    let mut game = Game::new(r, pos(fen));
    play(
        &mut game,
        &["g9g8", "a1a2", "g8g9", "a2a1", "g9g8", "a1a2", "g8g9"],
    );
    assert_eq!(strings(&game.legal_moves()), set(&["a2a3", "a2b2"]));
    assert!(game.play_text("a2a1").is_err());
}

#[test]
fn repetition_draw_and_none() {
    let draw = rules(&["Repetition=draw"]);
    let mut game = Game::new(draw, pos(REP));
    play(&mut game, &REP_MOVES);
    assert_eq!(game.outcome(), None);
    assert_eq!(strings(&game.legal_moves()), set(&["g8f8", "g8g7", "g8g9"]));
    play(&mut game, &["g8g9"]);
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));

    let none = rules(&["Repetition=none"]);
    let mut game = Game::new(none, pos(REP));
    play(&mut game, &REP_MOVES);
    play(&mut game, &["g8g9"]);
    assert_eq!(game.outcome(), None);
    // And on: a fourth and fifth time change nothing.
    play(&mut game, &REP_MOVES[..4]);
    play(&mut game, &REP_MOVES[..4]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().len(), 2);
}

#[test]
fn a_capture_clears_the_repetition_history() {
    // Red lion a5, Blue cat a7 and Blue dog g9: both shuffle, then the lion takes
    // the cat. Positions before the capture cannot come back.
    let fen = "6d/7/c6/7/L6/7/7/7/7 w 0 1";
    board(fen, "La5 ca7 dg9");
    let mut game = Game::new(Rules::default(), pos(fen));
    play(
        &mut game,
        &["a5a4", "g9g8", "a4a5", "g8g9", "a5a4", "g9g8", "a4a5"],
    );
    assert!(!game.is_legal("g8g9".parse().unwrap()));
    play(&mut game, &["g8f8", "a5a6", "f8g8", "a6a7"]);
    assert_eq!(game.position().plies_since_capture(), 0);
    assert_eq!(game.occurrences(), 1);
    assert_eq!(
        strings(&game.legal_moves()),
        strings(&game.position().generate(game.rules()))
    );
    // The shuffle starts again from scratch: two more occurrences are allowed.
    play(
        &mut game,
        &["g8g9", "a7a6", "g9g8", "a6a7", "g8g9", "a7a6", "g9g8"],
    );
    assert!(!game.is_legal("a6a7".parse().unwrap()));
    assert!(game.is_legal("a6a5".parse().unwrap()));
}

#[test]
fn every_move_forbidden_by_repetition_loses() {
    // Blue cat in the a1 pocket beside Red tiger b1: from a1 its only move is a1a2.
    // Red lion g5 shuffles g5-g6. After seven plies Blue, to move with the cat on
    // a1 for the second time, has only a1a2, which would repeat a third time.
    let fen = "7/7/7/7/6L/7/7/c6/1T5 w 0 1";
    board(fen, "ca2 Tb1 Lg5");
    let moves = ["g5g6", "a2a1", "g6g5", "a1a2", "g5g6", "a2a1", "g6g5"];
    let forbid = Rules::default();
    let mut game = Game::new(forbid, pos(fen));
    play(&mut game, &moves);
    assert_eq!(game.position().side_to_move(), Side::Blue);
    assert_eq!(strings(&game.position().generate(&forbid)), set(&["a1a2"]));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.count_legal_moves(), 0);
    assert_eq!(game.clone().perft(1), 0);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
    // Under the other values Blue still has its move.
    for v in ["draw", "none"] {
        let mut game = Game::new(rules(&[&format!("Repetition={v}")]), pos(fen));
        play(&mut game, &moves);
        assert_eq!(strings(&game.legal_moves()), set(&["a1a2"]), "{v}");
        assert_eq!(game.outcome(), None, "{v}");
    }
}
