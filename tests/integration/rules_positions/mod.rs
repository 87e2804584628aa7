//! Positions built by hand to reach each rule of `docs/rules.md` under each relevant
//! switch value: river jumps and what blocks them, water, rat and elephant, traps,
//! dog over wolf, dens, the ends of the game, repetition, the no-capture limit,
//! and the position notation with its errors.
//!
//! Squares: files a..g, ranks 1..9. Water b4 c4 b5 c5 b6 c6 e4 f4 e5 f5 e6 f6;
//! dens d1 (Red) and d9 (Blue); Red traps c1 e1 d2, Blue traps c9 e9 d8.
//! Every FEN written here is checked against the list of pieces it is meant to
//! hold (`board`), so that a slip in writing it shows up as such.

use crate::common;
mod dens;
mod dog_over_wolf;
mod games_from_text;
mod no_capture_limit;
mod notation;
mod rat_and_elephant;
mod repetition;
mod river_jumps;
mod traps;
mod water;

use doushou::rules::{
    DrawReason, FenError, Game, GameError, Move, MoveError, Outcome, Piece, Position, Rules,
    START_FEN, Side, Square, WinReason,
};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn rules(settings: &[&str]) -> Rules {
    let mut r = Rules::default();
    r.apply_settings(settings.iter().copied())
        .unwrap_or_else(|e| panic!("{settings:?}: {e}"));
    r
}

fn pos(fen: &str) -> Position {
    fen.parse()
        .unwrap_or_else(|e| panic!("{fen}: does not parse: {e:?}"))
}

/// Asserts that `fen` holds exactly the pieces listed as `"Lb3 cg9 ..."` (letter,
/// then square), nothing else.
fn board(fen: &str, pieces: &str) {
    let p = pos(fen);
    let mut want = BTreeSet::new();
    for item in pieces.split_whitespace() {
        let (letter, square) = item.split_at(1);
        want.insert((square.to_string(), letter.chars().next().unwrap()));
    }
    let got: BTreeSet<(String, char)> = Square::all()
        .filter_map(|s| p.piece_at(s).map(|pc| (s.to_string(), pc.letter())))
        .collect();
    assert_eq!(got, want, "{fen} does not hold {pieces}");
}

/// Builds a FEN from pieces listed as `"Lb3 cg9"` (used by the table-driven tests).
fn fen_of(pieces: &str, side: char) -> String {
    let mut grid = [[None::<char>; 7]; 9];
    for item in pieces.split_whitespace() {
        let b = item.as_bytes();
        let file = (b[1] - b'a') as usize;
        let rank = (b[2] - b'1') as usize;
        assert!(grid[rank][file].is_none(), "two pieces on {item}");
        grid[rank][file] = Some(b[0] as char);
    }
    let mut ranks = Vec::new();
    for rank in (0..9).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for cell in grid[rank] {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    format!("{} {side}", ranks.join("/"))
}

fn strings(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Every legal move of the position (no history), also checking that the
/// position's generator, its counter and the game agree.
fn legal(fen: &str, r: &Rules) -> BTreeSet<String> {
    let p = pos(fen);
    let game = Game::new(*r, p);
    let from_game = strings(&game.legal_moves());
    let generated = p.generate(r);
    assert_eq!(strings(&generated), from_game, "{fen}");
    assert_eq!(generated.len(), from_game.len(), "{fen}: duplicate moves");
    assert_eq!(p.count_moves(r), from_game.len() as u64, "{fen}");
    from_game
}

/// The legal moves of the piece on `square`, which must belong to the side to move.
fn moves_from(fen: &str, r: &Rules, square: &str) -> BTreeSet<String> {
    let p = pos(fen);
    let piece = p
        .piece_at(sq(square))
        .unwrap_or_else(|| panic!("{fen}: no piece on {square}"));
    assert_eq!(
        piece.side,
        p.side_to_move(),
        "{fen}: {square} is not the mover's"
    );
    legal(fen, r)
        .into_iter()
        .filter(|m| m.starts_with(square))
        .collect()
}

fn play(game: &mut Game, moves: &[&str]) {
    for m in moves {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {:?}: {e}", game.position()));
    }
}

fn win(winner: Side, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}
