//! The hidden layer of both perspectives, kept up to date as moves are made:
//! a move changes two or three inputs per perspective, so the new values are
//! the old ones plus and minus a few rows of `W1`, never the whole sum again.
//!
//! Sums wrap on i16 overflow (a net whose hidden values overflow is the
//! trainer's bug, not a reason to panic), and wrapping adds and subtracts
//! undo each other exactly, so the incremental values always equal the
//! from-scratch ones.

use super::features::{active_features, feature_index};
use super::network::Network;
use super::simd::{clipped_dot, update};
use crate::rules::{Move, Piece, Position, Side, Square};

/// The largest score the net reports, in either sign: far from the search's
/// mate scores, so that a wild net cannot fake a mate.
pub const EVAL_LIMIT: i32 = 20_000;

/// The hidden values of both perspectives: H for Red's view, then H for Blue's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
}

/// What a move changes on the board, read from the position before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDelta {
    /// The piece that moves.
    pub mover: Piece,
    /// Where it stood before the move.
    pub from: Square,
    /// Where it stands after the move.
    pub to: Square,
    /// The piece taken on `to`, if any.
    pub captured: Option<Piece>,
}

impl MoveDelta {
    /// The change `mv`, legal in `pos`, makes.
    #[inline]
    pub fn of(pos: &Position, mv: Move) -> MoveDelta {
        MoveDelta {
            mover: pos.piece_at(mv.from()).expect("a legal move has a mover"),
            from: mv.from(),
            to: mv.to(),
            captured: pos.piece_at(mv.to()),
        }
    }
}

impl Accumulator {
    /// The hidden values of `pos`, summed from scratch.
    pub fn from_position(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            values: vec![0; 2 * net.hidden()].into(),
        };
        acc.refresh(net, pos);
        acc
    }

    /// Recomputes every value from `pos` (no allocation).
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        let h = net.hidden();
        for side in Side::BOTH {
            let values = &mut self.values[side.index() * h..side.index() * h + h];
            values.copy_from_slice(net.bias());
            for input in active_features(pos, side) {
                add_row(values, net.w1_row(input));
            }
        }
    }

    /// The H values of `side`'s view.
    #[inline]
    pub fn perspective(&self, side: Side) -> &[i16] {
        let h = self.values.len() / 2;
        &self.values[side.index() * h..side.index() * h + h]
    }

    /// Sets `self` to `before` with `delta` applied: one pass over each row.
    #[inline]
    pub fn apply(&mut self, net: &Network, before: &Accumulator, delta: &MoveDelta) {
        let h = net.hidden();
        for side in Side::BOTH {
            let range = side.index() * h..side.index() * h + h;
            let (old, new) = (&before.values[range.clone()], &mut self.values[range]);
            let add = net.w1_row(feature_index(side, delta.mover, delta.to));
            let sub = net.w1_row(feature_index(side, delta.mover, delta.from));
            let taken = delta
                .captured
                .map(|victim| net.w1_row(feature_index(side, victim, delta.to)));
            update(new, old, add, sub, taken);
        }
    }
}

#[inline]
fn add_row(values: &mut [i16], row: &[i16]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(w);
    }
}

impl Network {
    /// The score of the position whose hidden values are `acc`, in centipawns
    /// for `side_to_move`, within ±[`EVAL_LIMIT`].
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Side) -> i32 {
        let h = self.hidden();
        let ceiling = self.ceiling();
        let (w_us, w_them) = self.w2().split_at(h);
        // `Network::new` refused any net whose sum could leave the i32 range.
        let sum = self.b2()
            + clipped_dot(acc.perspective(side_to_move), w_us, ceiling)
            + clipped_dot(acc.perspective(side_to_move.opponent()), w_them, ceiling);
        let q = self.quantisation();
        let cp = i64::from(sum) * i64::from(q.scale) / (i64::from(q.qa) * i64::from(q.qb));
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// The score of `pos` computed from scratch (for `eval` and tests; the
    /// search keeps an [`AccumulatorStack`] instead).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::from_position(self, pos), pos.side_to_move())
    }
}

/// One accumulator per ply of a line of play, allocated once: making a move
/// fills the next one from the current one, unmaking steps back.
#[derive(Clone, Debug)]
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    stack: Vec<Accumulator>,
    top: usize,
}

impl<'a> AccumulatorStack<'a> {
    /// A stack for lines of up to `depth` moves from `root` (deeper lines still
    /// work: the stack grows).
    pub fn new(net: &'a Network, root: &Position, depth: usize) -> AccumulatorStack<'a> {
        let root = Accumulator::from_position(net, root);
        AccumulatorStack {
            net,
            stack: vec![root; depth + 1],
            top: 0,
        }
    }

    /// The hidden values of the current position.
    #[inline]
    pub fn current(&self) -> &Accumulator {
        &self.stack[self.top]
    }

    /// The current position's score for `side_to_move`.
    #[inline]
    pub fn evaluate(&self, side_to_move: Side) -> i32 {
        self.net.evaluate(self.current(), side_to_move)
    }

    /// Steps forward over `mv`, legal in `before` (the current position).
    #[inline]
    pub fn push(&mut self, before: &Position, mv: Move) {
        if self.top + 1 == self.stack.len() {
            let copy = self.stack[self.top].clone();
            self.stack.push(copy);
        }
        let (done, rest) = self.stack.split_at_mut(self.top + 1);
        rest[0].apply(self.net, &done[self.top], &MoveDelta::of(before, mv));
        self.top += 1;
    }

    /// Steps back over the last move pushed.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop without a push");
        self.top = self.top.saturating_sub(1);
    }

    /// Moves pushed and not popped.
    pub fn depth(&self) -> usize {
        self.top
    }
}
