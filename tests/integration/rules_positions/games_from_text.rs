//! Games from text.

use super::repetition::{REP, REP_MOVES};
use super::*;

#[test]
fn game_from_fen_and_moves_reports_the_bad_move() {
    let r = Rules::default();
    let ok = Game::from_fen_and_moves(r, START_FEN, &["g3g4", "a7a6", "g4g5"]).unwrap();
    assert_eq!(ok.plies_played(), 3);
    assert_eq!(ok.position().side_to_move(), Side::Blue);
    assert_eq!(
        ok.position().fen(),
        "l5t/1d3c1/2p1w1e/r6/6R/7/E1W1P2/1C3D1/T5L b 3 2"
    );

    let cases: [(&[&str], usize, bool); 7] = [
        (&["zz"], 0, true),
        (&["g3g4", "a7a6", "g4"], 2, true),
        (&["g3g4", "a9a8", "g4g6"], 2, false), // two squares
        (&["g3g4", "g4g5"], 1, false),         // Red's piece on Blue's turn
        (&["g3g4", "a9a8", "d4d5"], 2, false), // empty square
        (&["a3a4", "a7a6", "a4b4"], 2, false), // elephant into water
        (&["0000"], 0, false),                 // the null move is no move
    ];
    for (moves, index, malformed) in cases {
        match Game::from_fen_and_moves(r, START_FEN, moves) {
            Err(GameError::Move { index: i, error }) => {
                assert_eq!(i, index, "{moves:?}");
                assert_eq!(
                    matches!(error, MoveError::Malformed(_)),
                    malformed,
                    "{moves:?}: {error:?}"
                );
                let text = moves[index];
                assert!(error.to_string().contains(text), "{moves:?}: {error}");
            }
            other => panic!("{moves:?}: {other:?}"),
        }
    }
    assert!(matches!(
        Game::from_fen_and_moves(r, "7/7 w", &["a1a2"]),
        Err(GameError::Fen(FenError::RankCount { found: 2 }))
    ));
    // A move after the game is over is illegal.
    match Game::from_fen_and_moves(r, "l3C2/7/7/7/7/7/7/7/7 w", &["e9d9", "a9a8"]) {
        Err(GameError::Move { index: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
    // A move repeating a position a third time is refused at its index.
    let mut moves = REP_MOVES.to_vec();
    moves.push("g8g9");
    match Game::from_fen_and_moves(r, REP, &moves) {
        Err(GameError::Move { index: 7, error }) => {
            assert!(matches!(error, MoveError::Illegal { .. }))
        }
        other => panic!("{other:?}"),
    }
}
