//! The proof's memory of states: 17 bytes a state, 16 in buckets of one
//! cache line and a tag byte apart (most searches are for a state not
//! kept, and read the tags alone). It starts small, so a small proof stays
//! in the cache, and doubles in place when a state finds its bucket full
//! and half the memory is used, up to the size the user gave. Past that a
//! full bucket gives up the state cheapest to find again: a proof runs on
//! beyond what the memory holds (it searches again what it lost), and its
//! memory is what the user gave it, not what it reached.
//!
//! A state's 128-bit key becomes two 64-bit hashes: one picks the bucket,
//! the other is kept as the check, 48 of its bits beside the next 16 bits
//! of the first (which the doublings use to split a bucket). Two states
//! are mistaken for one only if 48 bits and the bucket's bits all agree.

use std::collections::TryReserveError;

/// Proof and disproof numbers: how many positions must still be proven,
/// or refuted, to settle one.
pub(super) type Numbers = (u32, u32);

/// A 64-bit value's bits spread over all of it (SplitMix64's finaliser).
pub(super) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// States in a bucket: four of 16 bytes, one 64-byte cache line.
const BUCKET: usize = 4;

/// The bytes one state takes: its slot and its tag.
pub const STATE_BYTES: usize = 17;

/// Buckets a memory starts with, as a power of two: 2^12, 256 KiB.
const FIRST_BITS: u32 = 12;

/// The bits of the bucket hash a check keeps for the doublings: a memory
/// grows at most 2^16 times past its start, to 2^28 buckets (2^30
/// states, 17 GiB).
const SPLIT_BITS: u32 = 16;

/// The largest number of states a memory holds.
const MAX_STATES: usize = BUCKET << (FIRST_BITS + SPLIT_BITS);

/// What proof searches learnt (see [`super::under_history`]), kept between
/// the questions of a game: a state (position, clock, history since the
/// last capture, attacker) is exact, so a later root meets the states an
/// earlier one reached, settled or not, and the work of short searches
/// adds up.
pub struct ProofMemory {
    /// Per state: its check and its numbers, proof number in the low half;
    /// room for the largest size, taken at the first state kept (zeroed
    /// pages cost nothing until touched).
    slots: Vec<[u64; 2]>,
    /// Per state, as `slots`: 7 bits of its check and the top bit set, or
    /// 0 where the slot is empty.
    tags: Vec<u8>,
    /// The number of buckets in use, a power of two.
    buckets: usize,
    /// The number of buckets it may grow to, a power of two.
    most_buckets: usize,
    /// The number of states kept.
    len: usize,
}

impl ProofMemory {
    /// A memory of at most `states` states, a power of two of them (but
    /// one bucket at least, and at most 2^30 states), [`STATE_BYTES`]
    /// each, taken as the proof needs them.
    pub fn new(states: usize) -> ProofMemory {
        let buckets = (states.min(MAX_STATES) / BUCKET).max(1);
        // The largest power of two not above it.
        let most_buckets = 1 << buckets.ilog2();
        ProofMemory {
            slots: Vec::new(),
            tags: Vec::new(),
            buckets: most_buckets.min(1 << FIRST_BITS),
            most_buckets,
            len: 0,
        }
    }

    /// [`ProofMemory::new`], where the system grants that much memory now:
    /// a memory too large is refused here rather than aborting the
    /// process when it grows.
    pub fn checked(states: usize) -> Result<ProofMemory, TryReserveError> {
        let memory = ProofMemory::new(states);
        // Reserved untouched (no page taken) and given back at once.
        Vec::<[u64; 2]>::new().try_reserve_exact(memory.capacity())?;
        Vec::<u8>::new().try_reserve_exact(memory.capacity())?;
        Ok(memory)
    }

    /// The number of states it holds at most.
    pub fn capacity(&self) -> usize {
        self.most_buckets * BUCKET
    }

    /// The bucket hash and the check of `state`.
    fn hashes(&self, (position, window): (u64, u64)) -> (u64, u64) {
        let bucket = mix(window ^ position.rotate_left(32));
        let kept = mix(position.wrapping_add(window.rotate_left(21))) | 1 << 63;
        let split = (bucket >> FIRST_BITS) & ((1 << SPLIT_BITS) - 1);
        (bucket, kept & !((1 << SPLIT_BITS) - 1) | split)
    }

    /// The tag of a check.
    fn tag(check: u64) -> u8 {
        (check >> 48) as u8 | 0x80
    }

    /// The slot of `check` in the bucket from `first`, if kept.
    fn find(&self, first: usize, check: u64) -> Option<usize> {
        let tag = ProofMemory::tag(check);
        (first..first + BUCKET).find(|&s| self.tags[s] == tag && self.slots[s][0] == check)
    }

    /// The first slot of the bucket a bucket hash picks.
    fn first_slot(&self, bucket: u64) -> usize {
        (bucket as usize & (self.buckets - 1)) * BUCKET
    }

    /// The numbers kept for `state`, if any.
    pub(super) fn get(&self, state: (u64, u64)) -> Option<Numbers> {
        if self.slots.is_empty() {
            return None;
        }
        let (bucket, check) = self.hashes(state);
        let found = self.find(self.first_slot(bucket), check);
        found.map(|s| unpack(self.slots[s][1]))
    }

    /// Keeps `numbers` for `state`: in its slot, an empty one (where its
    /// bucket is full the memory doubles first if half full and allowed
    /// to: a bucket fills long before the memory does), or the one of the
    /// bucket's states cheapest to find again (unsettled, with the least
    /// numbers: the least searched below it).
    pub(super) fn insert(&mut self, state: (u64, u64), numbers: Numbers) {
        if self.slots.is_empty() {
            self.slots = vec![[0; 2]; self.capacity()];
            self.tags = vec![0; self.capacity()];
        }
        let (bucket, check) = self.hashes(state);
        let mut first = self.first_slot(bucket);
        let matching = |memory: &ProofMemory, first: usize| {
            let empty = || (first..first + BUCKET).find(|&s| memory.tags[s] == 0);
            memory.find(first, check).or_else(empty)
        };
        let mut slot = matching(self, first);
        let half_full = |memory: &ProofMemory| memory.len * 2 >= memory.buckets * BUCKET;
        while slot.is_none() && self.buckets < self.most_buckets && half_full(self) {
            self.double();
            first = self.first_slot(bucket);
            slot = matching(self, first);
        }
        if slot.is_some_and(|s| self.tags[s] == 0) {
            self.len += 1;
        }
        let slot = slot.unwrap_or_else(|| {
            (first..first + BUCKET)
                .min_by_key(|&s| worth(unpack(self.slots[s][1])))
                .expect("a bucket has slots")
        });
        self.slots[slot] = [check, pack(numbers)];
        self.tags[slot] = ProofMemory::tag(check);
    }

    /// Twice the buckets: each state of bucket `i` stays, or moves to the
    /// new bucket `i + old` if its check's split bits say so.
    fn double(&mut self) {
        let old = self.buckets;
        let bit = 1u64 << (old.trailing_zeros() - FIRST_BITS);
        for i in 0..old {
            let mut free = (i + old) * BUCKET;
            for s in i * BUCKET..(i + 1) * BUCKET {
                if self.tags[s] != 0 && self.slots[s][0] & bit != 0 {
                    self.slots[free] = std::mem::take(&mut self.slots[s]);
                    self.tags[free] = std::mem::take(&mut self.tags[s]);
                    free += 1;
                }
            }
        }
        self.buckets = old * 2;
    }
}

/// What finding a state's numbers again would cost, roughly: a settled
/// state most (its whole proof), an unsettled one by its numbers.
fn worth((proof, disproof): Numbers) -> u64 {
    if proof == 0 || disproof == 0 {
        u64::MAX
    } else {
        u64::from(proof) + u64::from(disproof)
    }
}

fn pack((proof, disproof): Numbers) -> u64 {
    u64::from(proof) | u64::from(disproof) << 32
}

fn unpack(packed: u64) -> Numbers {
    (packed as u32, (packed >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_kept_is_found_with_its_numbers_and_others_are_not() {
        let mut memory = ProofMemory::new(100);
        assert_eq!(memory.capacity(), 64);
        assert_eq!(memory.get((1, 2)), None);
        memory.insert((1, 2), (3, 4));
        memory.insert((2, 1), (5, 0));
        assert_eq!(memory.get((1, 2)), Some((3, 4)));
        assert_eq!(memory.get((2, 1)), Some((5, 0)));
        assert_eq!(memory.get((1, 3)), None);
        memory.insert((1, 2), (0, u32::MAX / 4));
        assert_eq!(memory.get((1, 2)), Some((0, u32::MAX / 4)));
    }

    #[test]
    fn a_full_memory_gives_up_unsettled_states_before_settled_ones() {
        // One bucket: every state lands in it.
        let mut memory = ProofMemory::new(1);
        assert_eq!(memory.capacity(), BUCKET);
        memory.insert((10, 0), (0, 7));
        memory.insert((11, 0), (7, 0));
        memory.insert((12, 0), (9, 9));
        memory.insert((13, 0), (1, 1));
        memory.insert((14, 0), (2, 2));
        assert_eq!(memory.get((13, 0)), None, "the least searched goes");
        for (state, numbers) in [((10, 0), (0, 7)), ((11, 0), (7, 0)), ((12, 0), (9, 9))] {
            assert_eq!(memory.get(state), Some(numbers));
        }
        assert_eq!(memory.get((14, 0)), Some((2, 2)));
    }

    #[test]
    fn a_memory_that_may_grow_keeps_nearly_all_and_one_that_may_not_keeps_its_size() {
        let state = |i: u64| (mix(i), mix(!i));
        let mut roomy = ProofMemory::new(1 << 20);
        let mut full = ProofMemory::new(1 << 14);
        for i in 0..100_000 {
            roomy.insert(state(i), (i as u32 + 1, 2));
            full.insert(state(i), (i as u32 + 1, 2));
        }
        // Grown to hold them at half its size or more.
        assert_eq!(roomy.buckets * BUCKET, 1 << 18);
        let kept = (0..100_000).filter(|&i| roomy.get(state(i)) == Some((i as u32 + 1, 2)));
        let kept = kept.count();
        assert!(kept > 90_000, "{kept}");
        assert_eq!(full.buckets * BUCKET, 1 << 14);
        let kept = (0..100_000)
            .filter(|&i| full.get(state(i)).is_some())
            .count();
        assert!(kept <= 1 << 14 && kept > 1 << 13, "{kept}");
    }
}
