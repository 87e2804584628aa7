//! The room each side has to keep a table draw under `Repetition=forbid`
//! (see `Worker::drawing_room`), remembered per position: a search among
//! table draws meets the same positions again and again, and counting the
//! room probes the tables once for every move of both sides.

use crate::rules::{Move, Position, Rules};
use crate::tb::{TableSet, Verdict};

/// Positions remembered per thread: 16,384 of 16 bytes, 256 KiB.
const SLOTS: usize = 1 << 14;

/// A slot no position has filled yet.
const EMPTY: u8 = u8::MAX;

/// One position's room, apart from the game's history.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    /// The side to move's drawing moves, every move allowed; `EMPTY` in a
    /// slot never filled.
    ours: u8,
    /// Its opponent's drawing moves, as if it were to move.
    theirs: u8,
}

/// Each side's room by position key, direct-mapped: a newer position takes
/// the slot of an older one.
pub(super) struct RoomCache {
    slots: Box<[Slot]>,
}

impl RoomCache {
    /// An empty cache.
    pub(super) fn new() -> RoomCache {
        let empty = Slot {
            key: 0,
            ours: EMPTY,
            theirs: EMPTY,
        };
        RoomCache {
            slots: vec![empty; SLOTS].into_boxed_slice(),
        }
    }

    /// The room of the side to move in `pos`, the history aside, and of its
    /// opponent as if it were to move: from the cache, or counted and kept.
    pub(super) fn rooms(&mut self, tb: &TableSet, rules: &Rules, pos: &Position) -> (i32, i32) {
        let key = pos.key();
        let slot = &mut self.slots[(key as usize) & (SLOTS - 1)];
        if slot.ours != EMPTY && slot.key == key {
            return (slot.ours as i32, slot.theirs as i32);
        }
        let ours = room(tb, rules, pos, |_| true);
        let mut passed = *pos;
        passed.make_null();
        let theirs = room(tb, rules, &passed, |_| true);
        *slot = Slot {
            key,
            // A position has far fewer moves than `EMPTY`.
            ours: ours.min(EMPTY as i32 - 1) as u8,
            theirs: theirs.min(EMPTY as i32 - 1) as u8,
        };
        (ours, theirs)
    }
}

/// The moves of `from` that `allowed` lets by and after which the tables do
/// not call the position won for the opponent.
pub(super) fn room(
    tb: &TableSet,
    rules: &Rules,
    from: &Position,
    allowed: impl Fn(Move) -> bool,
) -> i32 {
    let keeps = |m: Move| {
        let mut child = *from;
        child.make(m);
        !matches!(tb.probe(&child), Some(Verdict::Win(_)))
    };
    let moves = from.generate(rules);
    moves.iter().filter(|&&m| allowed(m) && keeps(m)).count() as i32
}
