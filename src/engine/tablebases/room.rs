//! Table draws inside the search under `Repetition=forbid`: when the
//! tables' draw may be trusted, and how it is scored by each side's room
//! to keep it, remembered per position (a search among table draws meets
//! the same positions again and again, and counting the room probes the
//! tables once for every move of both sides).

use crate::engine::params::SearchParams;
use crate::rules::{Game, Move, Position, Repetition, Rules};
use crate::tb::{TableSet, Verdict};

/// Whether, under `Repetition=forbid`, the game's history may turn a table
/// draw into a loss within the next `depth` plies: the side that runs out
/// of moves not repeating a position a third time must leave the drawing
/// ones. A third occurrence takes two more returns to a position, at least
/// 8 plies, unless one has already occurred twice since the last capture.
/// Beyond the horizon the table's draw stands.
#[inline]
pub fn history_may_lose_draw(game: &Game, depth: i32) -> bool {
    game.rules().repetition == Repetition::Forbid
        && depth > 0
        && (depth >= 8 || game.repetition_may_forbid())
}

/// Under `Repetition=forbid`, what a table draw is worth to the side to
/// move beyond the draw itself, by the room each side has to keep it: how
/// many legal moves (the history respected) do not lead to a table loss.
/// The history squeezes a defender with one or two drawing moves, each
/// position occurring at most twice since the last capture, until it must
/// leave the draw; so among drawn positions the side to move prefers those
/// where it has room and its opponent has none. The search sees that only
/// where it reaches the repetitions; the room points at them from further
/// away. The weight fades to nothing at the no-capture limit, which ends
/// the squeeze. 0 under the other rules; `None` when no legal move keeps
/// the draw: the position must be searched, not trusted.
pub fn drawing_room(
    cache: &mut RoomCache,
    tb: &TableSet,
    game: &Game,
    params: &SearchParams,
) -> Option<i32> {
    let rules = game.rules();
    if rules.repetition != Repetition::Forbid || params.drawing_room_weight() == 0 {
        return Some(0);
    }
    let pos = game.position();
    let (free, theirs) = cache.rooms(tb, rules, pos);
    // The history takes moves away: that room is this game's alone.
    let forbidden = game.forbidden();
    let ours = if forbidden.is_empty() {
        free
    } else {
        room(tb, rules, pos, |m| !forbidden.contains(m))
    };
    if ours == 0 {
        return None;
    }
    let squeeze =
        |room: i32| params.drawing_room_weight() * (params.drawing_room_enough() - room).max(0);
    let score = squeeze(theirs) - squeeze(ours);
    let limit = rules.no_capture_limit as i32;
    if limit == 0 {
        return Some(score);
    }
    let left = (limit - pos.plies_since_capture() as i32).max(0);
    Some(score * left / limit)
}

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
pub struct RoomCache {
    slots: Box<[Slot]>,
}

impl RoomCache {
    /// An empty cache.
    pub fn new() -> RoomCache {
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
    fn rooms(&mut self, tb: &TableSet, rules: &Rules, pos: &Position) -> (i32, i32) {
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
fn room(tb: &TableSet, rules: &Rules, from: &Position, allowed: impl Fn(Move) -> bool) -> i32 {
    let keeps = |m: Move| {
        let mut child = *from;
        child.make(m);
        !matches!(tb.probe(&child), Some(Verdict::Win(_)))
    };
    let moves = from.generate(rules);
    moves.iter().filter(|&&m| allowed(m) && keeps(m)).count() as i32
}
