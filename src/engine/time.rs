//! How long to think: deadlines from the clock or a fixed move time, the move
//! overhead taken off, and pondering, during which no deadline runs.

use crate::rules::Side;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The time-related part of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeLimits {
    /// Exactly this long per move, in ms.
    pub movetime: Option<u64>,
    /// Red's remaining time, ms (`wtime`).
    pub red_time: Option<u64>,
    /// Blue's remaining time, ms (`btime`).
    pub blue_time: Option<u64>,
    /// Red's increment, ms.
    pub red_increment: u64,
    /// Blue's increment, ms.
    pub blue_increment: u64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u64>,
}

/// The search's clock: started at `go`, it tells the main thread when to stop.
pub struct Clock {
    start: Instant,
    /// Time budget: the search aims at `optimum` and never passes `maximum` (ms).
    optimum_ms: Option<u64>,
    maximum_ms: Option<u64>,
    /// True while `go ponder` waits for `ponderhit`.
    pondering: Arc<AtomicBool>,
    /// Whether the search began as a ponder search.
    began_pondering: bool,
    /// Milliseconds after `start` at which pondering ended; deadlines count from it.
    deadline_base_ms: AtomicU64,
}

impl Clock {
    /// A clock for `side` to move, with `overhead_ms` kept in reserve per move.
    pub fn new(
        limits: &TimeLimits,
        side: Side,
        overhead_ms: u64,
        pondering: Arc<AtomicBool>,
    ) -> Clock {
        let (optimum_ms, maximum_ms) = budget(limits, side, overhead_ms);
        let began_pondering = pondering.load(Ordering::Relaxed);
        Clock {
            began_pondering,
            start: Instant::now(),
            optimum_ms,
            maximum_ms,
            pondering,
            deadline_base_ms: AtomicU64::new(0),
        }
    }

    /// Milliseconds since `go`.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether any deadline applies (not `infinite`, depth- or node-limited search).
    pub fn is_timed(&self) -> bool {
        self.maximum_ms.is_some()
    }

    /// Milliseconds counted against the budget: none while pondering; after a
    /// ponderhit, counted from the first check after it.
    fn used_ms(&self) -> Option<u64> {
        if self.pondering.load(Ordering::Relaxed) {
            return None;
        }
        let now = self.elapsed_ms();
        if self.began_pondering {
            let _ = self.deadline_base_ms.compare_exchange(
                0,
                now.max(1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        Some(now.saturating_sub(self.deadline_base_ms.load(Ordering::Relaxed)))
    }

    /// Whether the hard deadline has passed: the search must stop now.
    pub fn must_stop_now(&self) -> bool {
        match (self.maximum_ms, self.used_ms()) {
            (Some(max), Some(used)) => used >= max,
            _ => false,
        }
    }

    /// Whether to stop rather than start another iteration: past the soft
    /// budget, stretched while the best move keeps changing.
    pub fn should_stop_iterating(&self, best_move_changes: f64, root_moves: usize) -> bool {
        let (Some(optimum), Some(used)) = (self.optimum_ms, self.used_ms()) else {
            return false;
        };
        if root_moves == 1 {
            return true;
        }
        let stretch = 0.6 * (1.0 + best_move_changes).min(2.5);
        used as f64 >= optimum as f64 * stretch
    }
}

/// (optimum, maximum) in ms for this move, or `None` when no clock is given.
fn budget(limits: &TimeLimits, side: Side, overhead_ms: u64) -> (Option<u64>, Option<u64>) {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead_ms).max(1);
        return (Some(t), Some(t));
    }
    let (time, increment) = match side {
        Side::Red => (limits.red_time, limits.red_increment),
        Side::Blue => (limits.blue_time, limits.blue_increment),
    };
    let Some(time) = time else {
        return (None, None);
    };
    // A quarter of the clock stays in reserve against stalls of the machine:
    // spending the clock down to a few moves' worth loses games to a single
    // late hiccup. Jungle games run to about 50 moves a side.
    let reserve = time / 4;
    let available = time.saturating_sub(overhead_ms + reserve).max(1);
    let moves_to_go = limits.moves_to_go.unwrap_or(50).clamp(1, 50);
    let optimum = (available / moves_to_go + increment * 3 / 4).min(available / 2);
    let maximum = (optimum * 3).min(available / 2).max(optimum);
    (Some(optimum.max(1)), Some(maximum.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_within_the_clock() {
        let limits = TimeLimits {
            red_time: Some(1000),
            red_increment: 10,
            blue_time: Some(50),
            ..TimeLimits::default()
        };
        let (opt, max) = budget(&limits, Side::Red, 30);
        assert!(opt.unwrap() <= max.unwrap() && max.unwrap() < 970);
        // A quarter of the clock is never planned for.
        assert!(max.unwrap() <= 750 / 2);
        let (_, max_blue) = budget(&limits, Side::Blue, 30);
        assert!(max_blue.unwrap() <= 20);
        let fixed = TimeLimits {
            movetime: Some(100),
            ..TimeLimits::default()
        };
        assert_eq!(budget(&fixed, Side::Red, 30), (Some(70), Some(70)));
        assert_eq!(budget(&TimeLimits::default(), Side::Red, 30), (None, None));
    }
}
