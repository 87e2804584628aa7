//! Dens and the end of the game.

use super::*;

#[test]
fn own_den_is_never_entered() {
    let fen = "6c/7/7/7/7/7/7/7/2L4 w";
    board(fen, "Lc1 cg9");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c1"),
        set(&["c1b1", "c1c2"])
    );
    let fen = "7/3l3/7/7/7/7/7/7/C6 b";
    board(fen, "ld8 Ca1");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d8"),
        set(&["d8c8", "d8e8", "d8d7"])
    );
}

#[test]
fn entering_the_enemy_den_wins() {
    let fen = "l3C2/7/7/7/7/7/7/7/7 w";
    board(fen, "Ce9 la9");
    let r = Rules::default();
    assert_eq!(moves_from(fen, &r, "e9"), set(&["e9d9", "e9f9", "e9e8"]));
    let mut game = Game::new(r, pos(fen));
    assert_eq!(game.outcome(), None);
    play(&mut game, &["e9d9"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Den));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.position().count_moves(&r), 0);
    assert_eq!(game.clone().perft(1), 0);
    assert!(game.play_text("a9a8").is_err());

    let fen = "7/7/7/7/7/7/7/7/2r3L b";
    board(fen, "rc1 Lg1");
    assert_eq!(moves_from(fen, &r, "c1"), set(&["c1b1", "c1c2", "c1d1"]));
    let mut game = Game::new(r, pos(fen));
    play(&mut game, &["c1d1"]);
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::Den));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn a_position_with_a_piece_in_the_enemy_den_is_over() {
    for fen in ["l2C3/7/7/7/7/7/7/7/6L b", "l2C3/7/7/7/7/7/7/7/6L w"] {
        board(fen, "Cd9 la9 Lg1");
        let game = Game::new(Rules::default(), pos(fen));
        assert!(game.legal_moves().is_empty(), "{fen}");
        assert_eq!(pos(fen).count_moves(&Rules::default()), 0, "{fen}");
        assert_eq!(game.outcome(), win(Side::Red, WinReason::Den), "{fen}");
        assert_eq!(game.clone().perft(2), 0, "{fen}");
    }
    let fen = "7/7/7/7/7/7/7/7/L2c3 w";
    board(fen, "cd1 La1");
    let game = Game::new(Rules::default(), pos(fen));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::Den));
}

#[test]
fn a_side_with_no_pieces_loses() {
    // Red lion a5 takes Blue's last piece, the cat on a6.
    let fen = "7/7/7/c6/L6/7/7/7/7 w";
    board(fen, "La5 ca6");
    let mut game = Game::new(Rules::default(), pos(fen));
    assert_eq!(game.outcome(), None);
    play(&mut game, &["a5a6"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::AllCaptured));
    assert!(game.legal_moves().is_empty());
    // Given as a position, whoever is to move.
    for fen in ["7/7/7/7/L6/7/7/7/6T b", "7/7/7/7/L6/7/7/7/6T w"] {
        board(fen, "La5 Tg1");
        let game = Game::new(Rules::default(), pos(fen));
        assert_eq!(
            game.outcome(),
            win(Side::Red, WinReason::AllCaptured),
            "{fen}"
        );
        assert!(game.legal_moves().is_empty(), "{fen}");
    }
    let fen = "7/7/7/7/l6/7/7/7/7 w";
    let game = Game::new(Rules::default(), pos(fen));
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::AllCaptured));
}

#[test]
fn a_blocked_side_to_move_loses() {
    // Blue cat a1 hemmed in by Red elephant a2 and Red tiger b1.
    let fen = "7/7/7/7/7/7/7/E6/cT5 b";
    board(fen, "ca1 Ea2 Tb1");
    let game = Game::new(Rules::default(), pos(fen));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
    // The same board with Red to move is a game going on.
    let fen = "7/7/7/7/7/7/7/E6/cT5 w";
    assert_eq!(Game::new(Rules::default(), pos(fen)).outcome(), None);
    // Red cat g9 (in Blue's corner) hemmed in by Blue elephant g8 and tiger f9.
    let fen = "5tC/6e/7/7/7/7/7/7/7 w";
    board(fen, "Cg9 eg8 tf9");
    let game = Game::new(Rules::default(), pos(fen));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::NoLegalMove));
    // Being blocked after a move: Red tiger c1 closes the pocket.
    let fen = "7/7/7/7/7/7/7/E6/c1T4 w";
    board(fen, "ca1 Ea2 Tc1");
    let mut game = Game::new(Rules::default(), pos(fen));
    play(&mut game, &["c1b1"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
}
