//! The net's two inner loops, written for the vector unit: the output's
//! clipped dot product and the accumulator's update by a move. Every x86-64 has
//! SSE2, and with it `pmaddwd`, which multiplies eight i16 pairs and adds
//! them two by two into i32 lanes in one instruction; left to itself the
//! compiler widened each value to i32 and multiplied with shuffles, and the
//! dot product was a third of the search's time (callgrind on `bench`).
//! Other targets use the plain loops, which give the same numbers.

/// Σ clamp(vᵢ, 0, `ceiling`)·wᵢ over `values` and `weights` (equally long),
/// in wrapping i32 arithmetic: the same sum in any order, and the net's
/// loader refused any net whose true sum leaves the i32 range.
#[inline]
pub fn clipped_dot(values: &[i16], weights: &[i16], ceiling: i16) -> i32 {
    assert_eq!(values.len(), weights.len(), "one weight per value");
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of every x86-64 processor.
        unsafe { x86::clipped_dot(values, weights, ceiling) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        plain_clipped_dot(values, weights, ceiling)
    }
}

/// [`clipped_dot`] one value at a time: the reference, and the tail of the
/// vector loop.
#[inline]
fn plain_clipped_dot(values: &[i16], weights: &[i16], ceiling: i16) -> i32 {
    values.iter().zip(weights).fold(0i32, |sum, (&v, &w)| {
        sum.wrapping_add(i32::from(v.clamp(0, ceiling)) * i32::from(w))
    })
}

/// `new` = `old` + `add` − `sub` (− `taken`), lane by lane in wrapping i16
/// arithmetic: the accumulator after a move (the mover leaves `sub`'s
/// square for `add`'s, and a captured piece's row `taken` goes). All
/// slices are equally long.
#[inline]
pub fn update(new: &mut [i16], old: &[i16], add: &[i16], sub: &[i16], taken: Option<&[i16]>) {
    let n = new.len();
    assert!(
        old.len() == n && add.len() == n && sub.len() == n,
        "rows of one length"
    );
    assert!(taken.is_none_or(|t| t.len() == n), "rows of one length");
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of every x86-64 processor.
        unsafe { x86::update(new, old, add, sub, taken) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        plain_update(new, old, add, sub, taken)
    }
}

/// [`update`] one lane at a time: the reference, and the vector loop's tail.
#[inline]
fn plain_update(new: &mut [i16], old: &[i16], add: &[i16], sub: &[i16], taken: Option<&[i16]>) {
    for i in 0..new.len() {
        let mut v = old[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
        if let Some(t) = taken {
            v = v.wrapping_sub(t[i]);
        }
        new[i] = v;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_madd_epi16,
        _mm_max_epi16, _mm_min_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi32,
        _mm_storeu_si128, _mm_sub_epi16,
    };

    /// Eight i16 lanes of `row` from `at` on.
    ///
    /// # Safety
    /// `at + 8` must be at most `row.len()`.
    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn load(row: &[i16], at: usize) -> __m128i {
        debug_assert!(at + 8 <= row.len());
        // SAFETY: the caller keeps the eight lanes inside `row`; `loadu`
        // takes any alignment.
        unsafe { _mm_loadu_si128(row.as_ptr().add(at).cast::<__m128i>()) }
    }

    /// Eight lanes at a time; the lengths were checked equal by the caller.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn update(new: &mut [i16], old: &[i16], add: &[i16], sub: &[i16], taken: Option<&[i16]>) {
        let lanes = new.len() / 8 * 8;
        for at in (0..lanes).step_by(8) {
            // SAFETY: `at + 8 <= lanes <= len` of every row (all equally long).
            unsafe {
                let mut v =
                    _mm_sub_epi16(_mm_add_epi16(load(old, at), load(add, at)), load(sub, at));
                if let Some(t) = taken {
                    v = _mm_sub_epi16(v, load(t, at));
                }
                _mm_storeu_si128(new.as_mut_ptr().add(at).cast::<__m128i>(), v);
            }
        }
        super::plain_update(
            &mut new[lanes..],
            &old[lanes..],
            &add[lanes..],
            &sub[lanes..],
            taken.map(|t| &t[lanes..]),
        );
    }

    /// Eight i16 lanes at a time; SSE2 is part of x86-64, so the
    /// intrinsics need no run-time check.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn clipped_dot(values: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        let lanes = values.len() / 8 * 8;
        let (zero, top) = (_mm_setzero_si128(), _mm_set1_epi16(ceiling));
        let mut sum = _mm_setzero_si128();
        for at in (0..lanes).step_by(8) {
            // SAFETY: `at + 8 <= lanes <= len` of both (equally long) rows.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            let clipped = _mm_min_epi16(_mm_max_epi16(v, zero), top);
            // Each pair sum is at most 2·32767·32768 in size: no overflow.
            sum = _mm_add_epi32(sum, _mm_madd_epi16(clipped, w));
        }
        // The four lanes added: swap halves, then neighbours.
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
        _mm_cvtsi128_si32(sum).wrapping_add(super::plain_clipped_dot(
            &values[lanes..],
            &weights[lanes..],
            ceiling,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The vector loop gives the reference's sum for any values, weights,
        /// length (a tail that is no multiple of eight included) and ceiling.
        #[test]
        fn the_vector_dot_is_the_plain_one(
            pairs in proptest::collection::vec((any::<i16>(), any::<i16>()), 0..300),
            ceiling in 0i16..=i16::MAX,
        ) {
            let (values, weights): (Vec<i16>, Vec<i16>) = pairs.into_iter().unzip();
            prop_assert_eq!(
                clipped_dot(&values, &weights, ceiling),
                plain_clipped_dot(&values, &weights, ceiling)
            );
        }
    }

    proptest! {
        /// The vector update gives the reference's rows, with and without a
        /// captured piece, for any length.
        #[test]
        fn the_vector_update_is_the_plain_one(
            rows in proptest::collection::vec(any::<[i16; 4]>(), 0..300),
            capture in any::<bool>(),
        ) {
            let column = |k: usize| rows.iter().map(|r| r[k]).collect::<Vec<i16>>();
            let (old, add, sub, taken) = (column(0), column(1), column(2), column(3));
            let taken = capture.then_some(taken.as_slice());
            let mut fast = vec![0; old.len()];
            let mut plain = vec![0; old.len()];
            update(&mut fast, &old, &add, &sub, taken);
            plain_update(&mut plain, &old, &add, &sub, taken);
            prop_assert_eq!(fast, plain);
        }
    }

    #[test]
    fn the_dot_clips_below_zero_and_above_the_ceiling() {
        let values = [-5, 3, 200, 7, 0, 1, 1, 1, 100];
        let weights = [9, 2, 1, 1, 1, 1, 1, 1, -2];
        // −5 → 0, 200 → 50, 100 → 50: 6 + 50 + 7 + 3 − 100.
        assert_eq!(clipped_dot(&values, &weights, 50), -34);
    }
}
