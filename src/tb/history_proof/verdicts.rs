//! The tables' verdicts the proof has read, by position. A proof meets
//! few boards under very many histories, and at every position it expands
//! it reads the verdict of each move's position (the side's room), so
//! nearly every read is one it made before: kept here, it costs one look
//! instead of a table's index and block.

use crate::rules::Position;
use crate::tb::set::TableSet;
use crate::tb::verdict::Verdict;
use std::cell::{Cell, OnceCell};

/// Positions kept, a power of two: 1 MiB (16 bytes a slot).
const SLOTS: usize = 1 << 16;

/// A position's key and its verdict (`None`: no table holds it).
type Slot = Option<(u64, Option<Verdict>)>;

/// The verdicts read, one position a slot by its key, a newer read taking
/// the slot of an older (read again if met again).
pub(super) struct Verdicts<'a> {
    tb: &'a TableSet,
    /// Taken at the first read, so a proof that reads none costs nothing.
    slots: OnceCell<Box<[Cell<Slot>]>>,
    /// The slots less one: a key's low bits pick its slot.
    mask: usize,
}

impl<'a> Verdicts<'a> {
    /// The reads of `tb`, none kept yet.
    pub(super) fn new(tb: &'a TableSet) -> Verdicts<'a> {
        Verdicts::with_slots(tb, SLOTS)
    }

    /// The reads of `tb` in `slots` slots (a power of two).
    pub(super) fn with_slots(tb: &'a TableSet, slots: usize) -> Verdicts<'a> {
        debug_assert!(slots.is_power_of_two());
        Verdicts {
            tb,
            slots: OnceCell::new(),
            mask: slots - 1,
        }
    }

    /// [`TableSet::probe`] of `pos`, from the slot if kept there.
    pub(super) fn probe(&self, pos: &Position) -> Option<Verdict> {
        let slots = self
            .slots
            .get_or_init(|| vec![Cell::new(None); self.mask + 1].into());
        let key = pos.key();
        let slot = &slots[key as usize & self.mask];
        if let Some((kept, verdict)) = slot.get()
            && kept == key
        {
            return verdict;
        }
        let verdict = self.tb.probe(pos);
        slot.set(Some((key, verdict)));
        verdict
    }
}
