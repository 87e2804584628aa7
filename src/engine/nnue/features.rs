//! The network's inputs: one per (perspective, piece, square), shared by the
//! engine's inference and the trainer so that both index the same weights.
//!
//! Each side sees the board from its own seat: Blue's view is the board turned
//! half a turn ([`Square::rotated`]), so the start position looks the same to
//! both sides and one set of weights serves both. A piece is "ours" or
//! "theirs" relative to the perspective:
//!
//! ```text
//! index = ((theirs ? 8 : 0) + animal) * 63 + square as seen by the perspective
//! ```
//!
//! giving [`INPUTS`] = 2 × 8 × 63 = 1008 inputs, of which at most 16 are active.

use crate::rules::{Piece, Position, SQUARES, Side, Square, squares};

/// Number of inputs of each perspective.
pub const INPUTS: usize = 2 * 8 * SQUARES;

/// Most active inputs in one position (every animal of both sides).
pub const MAX_ACTIVE: usize = 16;

/// The input that `piece` on `square` lights in `perspective`'s view.
#[inline]
pub fn feature_index(perspective: Side, piece: Piece, square: Square) -> usize {
    let theirs = usize::from(piece.side != perspective);
    let seen = match perspective {
        Side::Red => square,
        Side::Blue => square.rotated(),
    };
    ((theirs * 8) + piece.animal.index()) * SQUARES + seen.index()
}

/// The active inputs of `perspective` in `pos`, in square order.
pub fn active_features(pos: &Position, perspective: Side) -> impl Iterator<Item = usize> + '_ {
    squares(pos.occupied(Side::Red) | pos.occupied(Side::Blue)).map(move |sq| {
        let piece = pos.piece_at(sq).expect("an occupied square holds a piece");
        feature_index(perspective, piece, sq)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Animal;

    #[test]
    fn indices_cover_the_inputs_once() {
        let mut seen = vec![false; INPUTS];
        for perspective in Side::BOTH {
            seen.iter_mut().for_each(|s| *s = false);
            for side in Side::BOTH {
                for animal in Animal::ALL {
                    for sq in Square::all() {
                        let i = feature_index(perspective, Piece::new(side, animal), sq);
                        assert!(i < INPUTS);
                        assert!(!seen[i], "index {i} used twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn the_start_position_looks_the_same_to_both_sides() {
        let pos = Position::startpos();
        let mut red: Vec<usize> = active_features(&pos, Side::Red).collect();
        let mut blue: Vec<usize> = active_features(&pos, Side::Blue).collect();
        red.sort();
        blue.sort();
        assert_eq!(red.len(), MAX_ACTIVE);
        assert_eq!(red, blue);
    }
}
