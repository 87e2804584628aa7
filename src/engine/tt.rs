//! The transposition table shared by all search threads, without locks.
//!
//! Each entry is two 64-bit words: the position's key xor-ed with the data, and
//! the data. A reader recomputes `key ^ data` and accepts the entry only if it
//! matches its own key, so a torn write from another thread reads as a miss,
//! never as wrong data (the "lockless hashing" of Hyatt and Mann).
//!
//! The data word, from the lowest bit:
//!
//! ```text
//!  63        58 57 56 55      48 47            32 31            16 15  12 11        0
//! +------------+-----+----------+----------------+----------------+------+-----------+
//! | age (6)    |bound| depth(8) | static eval 16 | score (16)     | 0000 | move (12) |
//! +------------+-----+----------+----------------+----------------+------+-----------+
//! ```
//!
//! Four entries make a 64-byte bucket, one cache line. A position's bucket is
//! chosen by the high bits of `key * buckets`, so any bucket count works and the
//! table is exactly as large as `Hash` allows.

use super::score::{ScoreBound, TB_BOUND};
use crate::rules::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The bound's two bits in the data word: 0 is an empty slot.
fn bound_bits(bound: ScoreBound) -> u64 {
    match bound {
        ScoreBound::Upper => 1,
        ScoreBound::Lower => 2,
        ScoreBound::Exact => 3,
    }
}

/// One entry as read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The best or refuting move, or null.
    pub best_move: Move,
    /// The score, as stored (mate scores relative to the stored node; see
    /// [`score_from_tt`]).
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: ScoreBound,
}

#[derive(Default)]
#[repr(C)]
struct TtEntry {
    check: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<TtEntry>() == 16);

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [TtEntry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Depths are stored with this offset so that quiescence depths (down to -8) fit in a byte.
const DEPTH_OFFSET: i32 = 8;

fn pack(m: Move, score: i32, eval: i32, depth: i32, bound: ScoreBound, age: u8) -> u64 {
    (m.bits() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + DEPTH_OFFSET).clamp(0, 255) as u64) << 48)
        | (bound_bits(bound) << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(data: u64) -> Probe {
    Probe {
        best_move: Move::from_bits((data & 0xFFF) as u16).unwrap_or(Move::NULL),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        // Only written entries are unpacked (an empty slot's data word is
        // 0, which no key matches), and every write has a bound.
        bound: match (data >> 56) & 3 {
            1 => ScoreBound::Upper,
            2 => ScoreBound::Lower,
            _ => ScoreBound::Exact,
        },
    }
}

fn age_of(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

/// Why a table of the size asked for cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableSizeError {
    /// More than the memory the system says is available (asked first,
    /// because Linux grants almost any allocation and kills the process later).
    #[error("at most the {available_mb} MB of memory available")]
    MoreThanAvailable {
        /// The memory available, in MB.
        available_mb: u64,
    },
    /// The allocator refused the table.
    #[error("a size that can be allocated ({megabytes} MB could not)")]
    AllocationRefused {
        /// The size asked for, in MB.
        megabytes: usize,
    },
}

/// The shared table. Sized once by `Hash`; cleared between games.
pub struct TranspositionTable {
    buckets: Buckets,
    /// Bumped at each new search so that old entries are replaced first.
    age: AtomicU64,
    /// Whether a search may have stored an entry since the table was made
    /// or last cleared: clearing a table no search has written is skipped,
    /// so a new engine's first `ucinewgame` does not touch every page of a
    /// table it has not used (some 40 ms of page faults for 64 MB).
    written: AtomicBool,
}

/// The table's buckets, in memory mapped from no file: a whole number of
/// buckets long.
struct Buckets(memmap2::MmapMut);

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        let count = self.0.len() / std::mem::size_of::<Bucket>();
        // SAFETY: the map holds `count` buckets' bytes, page-aligned (more
        // than a bucket's 64), and lives as long as `self`; all-zero bytes
        // are a valid `Bucket` (integer atomics: the empty entries `clear`
        // writes), and every write goes through those atomics.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<Bucket>(), count) }
    }
}

impl TranspositionTable {
    /// A table of `megabytes` MB, or why it cannot be had: more than the memory
    /// the system has available, or an allocation refused. Asking first matters
    /// because Linux grants almost any allocation and kills the process later.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, TableSizeError> {
        let bytes = megabytes.max(1) << 20;
        if let Some(available) = available_memory()
            && bytes as u64 > available
        {
            return Err(TableSizeError::MoreThanAvailable {
                available_mb: available >> 20,
            });
        }
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // Anonymous pages from the system, zero until written: they become
        // resident only as the search reaches them, so the default table made
        // at start-up costs nothing when `setoption name Hash` replaces it
        // (filling it cost 64 MB of peak memory under `Hash 16`).
        let map = memmap2::MmapMut::map_anon(count * std::mem::size_of::<Bucket>())
            .map_err(|_| TableSizeError::AllocationRefused { megabytes })?;
        Ok(TranspositionTable {
            buckets: Buckets(map),
            age: AtomicU64::new(0),
            written: AtomicBool::new(false),
        })
    }

    /// The table's size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets every entry. Through a shared reference, so that a task on the
    /// search thread (bench) can start each position afresh; no search may run
    /// at the same time (its entries would survive).
    pub fn clear(&self) {
        if !self.written.swap(false, Ordering::Relaxed) {
            return;
        }
        for entry in self.buckets.iter().flat_map(|b| &b.entries) {
            entry.check.store(0, Ordering::Relaxed);
            entry.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: entries of earlier searches age.
    /// Every search that may store an entry starts so.
    pub fn new_search(&self) {
        self.written.store(true, Ordering::Relaxed);
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 63) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the CPU to bring the bucket of `key` into cache ahead of a probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; the pointer is to a live bucket.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Probe> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a search result for `key`, in a search begun by
    /// [`TranspositionTable::new_search`]. An entry for the same position is kept
    /// over a shallower new one unless the new one is exact or the old one aged;
    /// otherwise the shallowest, oldest entry of the bucket gives way.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        best_move: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: ScoreBound,
    ) {
        let age = self.current_age();
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key {
                let old = unpack(data);
                if bound != ScoreBound::Exact && depth + 3 < old.depth && age_of(data) == age {
                    return;
                }
                // Keep the old move when the new result has none.
                let m = if best_move.is_null() {
                    old.best_move
                } else {
                    best_move
                };
                let new = pack(m, score, eval, depth, bound, age);
                e.data.store(new, Ordering::Relaxed);
                e.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age_gap = (age.wrapping_sub(age_of(data)) & 63) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else {
                unpack(data).depth - 8 * age_gap
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let new = pack(best_move, score, eval, depth, bound, age);
        victim.data.store(new, Ordering::Relaxed);
        victim.check.store(key ^ new, Ordering::Relaxed);
    }

    /// Per mille of a sample of entries written in the current search, as UCI's
    /// `hashfull` reports it.
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

/// The memory the system can still give, from `/proc/meminfo` where there is one.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Mate scores are stored relative to the node (distance from it), and read back
/// relative to the root, so that a mate found at one ply is right at another.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_every_field() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::from_bits(5 | 12 << 6).unwrap();
        tt.store(0xDEAD_BEEF, m, -29_990, 1234, -3, ScoreBound::Lower);
        let p = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            p,
            Probe {
                best_move: m,
                score: -29_990,
                eval: 1234,
                depth: -3,
                bound: ScoreBound::Lower
            }
        );
        assert!(tt.probe(0xDEAD_BEEF ^ 1).is_none());
    }

    #[test]
    fn a_clear_empties_what_a_search_stored() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.clear();
        let m = Move::from_bits(0x123).unwrap();
        for _ in 0..2 {
            tt.new_search();
            tt.store(42, m, 10, 20, 3, ScoreBound::Exact);
            assert!(tt.probe(42).is_some());
            tt.clear();
            assert!(tt.probe(42).is_none());
            assert_eq!(tt.hashfull(), 0);
        }
    }

    #[test]
    fn deeper_entries_survive_and_hashfull_counts() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.new_search();
        tt.store(7, Move::NULL, 10, 0, 20, ScoreBound::Lower);
        tt.store(7, Move::NULL, 11, 0, 2, ScoreBound::Upper);
        assert_eq!(tt.probe(7).unwrap().depth, 20);
        tt.store(7, Move::NULL, 12, 0, 2, ScoreBound::Exact);
        assert_eq!(tt.probe(7).unwrap().score, 12);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                Move::NULL,
                0,
                0,
                1,
                ScoreBound::Exact,
            );
        }
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn an_impossible_size_is_refused() {
        // A petabyte: more than any machine has, or more than it can allocate.
        let error = TranspositionTable::new(1 << 30).err().unwrap();
        assert!(matches!(
            error,
            TableSizeError::MoreThanAvailable { .. }
                | TableSizeError::AllocationRefused {
                    megabytes: 1_073_741_824
                }
        ));
    }

    #[test]
    fn table_is_the_size_asked() {
        assert_eq!(TranspositionTable::new(16).unwrap().size_bytes(), 16 << 20);
    }
}
