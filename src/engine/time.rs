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
    /// Red's increment per move, ms (`winc`).
    pub red_increment: Option<u64>,
    /// Blue's increment per move, ms (`binc`).
    pub blue_increment: Option<u64>,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u64>,
}

/// How long a search thinks when `go` gives a clock but not the mover's: as
/// with `movetime` of this many ms. Short, since the GUI evidently expects a
/// move, and long enough for a sound one.
pub const NO_CLOCK_MOVETIME_MS: u64 = 1000;

impl TimeLimits {
    /// The mover's remaining time and increment.
    fn of(&self, side: Side) -> (Option<u64>, Option<u64>) {
        match side {
            Side::Red => (self.red_time, self.red_increment),
            Side::Blue => (self.blue_time, self.blue_increment),
        }
    }

    /// Whether `go` spoke of clocks (times, increments, moves to go) without
    /// giving `side`, the mover, its time and without a `movetime`: such a search
    /// has no deadline of its own and gets [`NO_CLOCK_MOVETIME_MS`].
    pub fn lacks_mover_clock(&self, side: Side) -> bool {
        let any_clock = self.red_time.is_some()
            || self.blue_time.is_some()
            || self.red_increment.is_some()
            || self.blue_increment.is_some()
            || self.moves_to_go.is_some();
        any_clock && self.movetime.is_none() && self.of(side).0.is_none()
    }
}

/// The search's clock: started at `go`, it tells the main thread when to stop.
pub struct Clock {
    start: Instant,
    /// Time budget: the search aims at `optimum` and never passes `maximum` (ms).
    optimum_ms: Option<u64>,
    maximum_ms: Option<u64>,
    /// A fixed time (`movetime`): think until the deadline, never stop early.
    fixed: bool,
    /// True while `go ponder` waits for `ponderhit`.
    pondering: Arc<AtomicBool>,
    /// Whether the search began as a ponder search.
    began_pondering: bool,
    /// Milliseconds after `start` at which pondering ended; deadlines count from it.
    deadline_base_ms: AtomicU64,
}

/// How long a fixed time of `ms` thinks: less `overhead_ms` (`Move
/// Overhead`), but never less than three quarters of it. Taking the whole
/// 30 ms of overhead off a short `movetime` left `go movetime 20` one
/// millisecond (depth 4 where 20 ms reaches depth 8): at 20 ms a move
/// doushou played as if a twentieth as fast, and lost its den races there.
fn fixed_think_ms(ms: u64, overhead_ms: u64) -> u64 {
    ms.saturating_sub(overhead_ms.min(ms / 4)).max(1)
}

impl Clock {
    /// A clock for `side` to move, with `overhead_ms` kept in reserve per
    /// move; on the mover's clock a move that matters more than most plans
    /// `emphasis_percent` of the usual share (100: the usual).
    pub fn new(
        limits: &TimeLimits,
        side: Side,
        overhead_ms: u64,
        emphasis_percent: u64,
        pondering: Arc<AtomicBool>,
    ) -> Clock {
        let fixed_ms = limits.movetime.or(limits
            .lacks_mover_clock(side)
            .then_some(NO_CLOCK_MOVETIME_MS));
        let (optimum_ms, maximum_ms) = match fixed_ms {
            Some(ms) => {
                let t = fixed_think_ms(ms, overhead_ms);
                (Some(t), Some(t))
            }
            None => budget(limits, side, overhead_ms, emphasis_percent),
        };
        let began_pondering = pondering.load(Ordering::Relaxed);
        Clock {
            began_pondering,
            start: Instant::now(),
            optimum_ms,
            maximum_ms,
            fixed: fixed_ms.is_some(),
            pondering,
            deadline_base_ms: AtomicU64::new(0),
        }
    }

    /// Milliseconds since `go`, wall time.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the mover plays on its clock (not a fixed time, not untimed): then
    /// a lone legal move is played at once.
    pub fn is_on_clock(&self) -> bool {
        self.maximum_ms.is_some() && !self.fixed
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

    /// When work after the search (a proof of the root) must end: a share
    /// (`percent`) of the move's planned time from now, never past the
    /// hard deadline; under a fixed time, its end. `None` when untimed (or
    /// pondering): then only the work's own budget bounds it.
    pub fn deadline_after_search(&self, percent: u64) -> Option<Instant> {
        let (optimum, maximum, used) = (self.optimum_ms?, self.maximum_ms?, self.used_ms()?);
        let extra = if self.fixed {
            0
        } else {
            optimum * percent / 100
        };
        let left = maximum.saturating_sub(used);
        Some(Instant::now() + std::time::Duration::from_millis(extra.min(left)))
    }

    /// Whether the hard deadline has passed: the search must stop now.
    pub fn must_stop_now(&self) -> bool {
        match (self.maximum_ms, self.used_ms()) {
            (Some(max), Some(used)) => used >= max,
            _ => false,
        }
    }

    /// Whether to stop rather than start another iteration: past the soft
    /// budget, stretched while the best move keeps changing. Only on a clock:
    /// a fixed time is there to be used up to its deadline.
    pub fn should_stop_iterating(&self, best_move_changes: f64, root_moves: usize) -> bool {
        if self.fixed {
            return false;
        }
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

impl std::fmt::Display for Clock {
    /// The time allocation, for the log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.optimum_ms, self.maximum_ms) {
            (Some(t), _) if self.fixed => write!(f, "fixed {t} ms"),
            (Some(optimum), Some(maximum)) => {
                write!(f, "optimum {optimum} ms, maximum {maximum} ms")
            }
            _ => write!(f, "untimed"),
        }
    }
}

/// Increments kept on the clock, beside `Move Overhead`, as a floor the plan
/// does not spend: a stall of the machine or of the GUI (a slow process
/// switch on a loaded machine) then eats the floor, not the flag.
pub const FLOOR_INCREMENTS: u64 = 3;

/// (optimum, maximum) in ms for this move on the mover's clock, or `None`
/// when the mover has no clock; `emphasis_percent` scales the share of the
/// clock above its floor (below it every move is as cheap as it can be).
fn budget(
    limits: &TimeLimits,
    side: Side,
    overhead_ms: u64,
    emphasis_percent: u64,
) -> (Option<u64>, Option<u64>) {
    let (time, increment) = limits.of(side);
    let increment = increment.unwrap_or(0);
    let Some(time) = time else {
        return (None, None);
    };
    // The floor: `Move Overhead` and a few increments are never planned for.
    // Below it the plan is at most a quarter of an increment a move (and an
    // eighth of what the clock has above the overhead), so that every move
    // gives the clock back more than it took and a long game at a short
    // increment climbs back over the floor.
    let floor = overhead_ms + FLOOR_INCREMENTS * increment;
    // Above it a quarter of the clock also stays in reserve against stalls:
    // spending the clock down to a few moves' worth loses games to a single
    // late hiccup. Jungle games run to about 50 moves a side.
    let reserve = time / 4 + floor;
    let Some(available) = time.checked_sub(reserve).filter(|&a| a > 0) else {
        let below_floor = (increment / 4).min(time.saturating_sub(overhead_ms) / 8);
        return (Some(below_floor.max(1)), Some(below_floor.max(1)));
    };
    let moves_to_go = limits.moves_to_go.unwrap_or(50).clamp(1, 50);
    let share = available / moves_to_go + increment * 3 / 4;
    let optimum = (share * emphasis_percent / 100).min(available / 2);
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
            red_increment: Some(10),
            blue_time: Some(50),
            ..TimeLimits::default()
        };
        let (opt, max) = budget(&limits, Side::Red, 30, 100);
        assert!(opt.unwrap() <= max.unwrap() && max.unwrap() < 970);
        // A quarter of the clock is never planned for.
        assert!(max.unwrap() <= 750 / 2);
        let (_, max_blue) = budget(&limits, Side::Blue, 30, 100);
        assert!(max_blue.unwrap() <= 20);
        assert_eq!(
            budget(&TimeLimits::default(), Side::Red, 30, 100),
            (None, None)
        );
    }

    /// The budget of the mover with `time` ms left and an increment of
    /// `increment` ms, 30 ms of `Move Overhead`.
    fn plan(time: u64, increment: Option<u64>) -> (u64, u64) {
        let limits = TimeLimits {
            red_time: Some(time),
            red_increment: increment,
            ..TimeLimits::default()
        };
        let (optimum, maximum) = budget(&limits, Side::Red, 30, 100);
        let (optimum, maximum) = (optimum.unwrap(), maximum.unwrap());
        assert!(1 <= optimum && optimum <= maximum, "{time}+{increment:?}");
        (optimum, maximum)
    }

    #[test]
    fn below_the_floor_a_move_costs_less_than_the_increment_gives() {
        // 50 ms left, 10 ms increment, 30 ms overhead: the floor (30 + 3 x 10)
        // is above the clock, so the plan is an eighth of the 20 ms above
        // the overhead (under a quarter of the increment).
        assert_eq!(plan(50, Some(10)), (2, 2));
        // Half a second of increment, the clock at two: a quarter increment.
        assert_eq!(plan(2000, Some(500)), (125, 125));
        // Just above the floor and the quarter in reserve: still at most the
        // increment's worth, and never up to the overhead's share.
        let (_, maximum) = plan(100, Some(10));
        assert!(maximum < 10, "{maximum}");
        // The clock below the overhead itself: the least there is.
        assert_eq!(plan(20, Some(10)), (1, 1));
        assert_eq!(plan(0, Some(10)), (1, 1));
        // No increment: below the overhead, 1 ms; above it, the quarter and
        // the overhead stay on the clock.
        assert_eq!(plan(25, None), (1, 1));
        let (_, maximum) = plan(1000, None);
        assert!(maximum <= (1000 - 250 - 30) / 2, "{maximum}");
    }

    #[test]
    fn a_long_game_at_a_short_increment_keeps_its_floor() {
        // 300 plies (150 moves of the mover) at 1+0.01, each move costing its
        // maximum and then 8 ms more than planned (a loaded machine): the
        // clock never falls below the floor of 30 ms overhead and three
        // increments, so a stall of 60 ms still does not lose on time.
        let mut time: u64 = 1000;
        let mut lowest = time;
        for _ in 0..150 {
            let (_, maximum) = plan(time, Some(10));
            time = (time + 10).checked_sub(maximum + 8).expect("flag fell");
            lowest = lowest.min(time);
        }
        assert!(lowest >= 30 + FLOOR_INCREMENTS * 10, "lowest {lowest} ms");
    }

    #[test]
    fn an_emphasised_move_plans_more_above_the_floor_only() {
        let limits = |time| TimeLimits {
            red_time: Some(time),
            red_increment: Some(10),
            ..TimeLimits::default()
        };
        let (usual, _) = budget(&limits(1000), Side::Red, 30, 100);
        let (more, most) = budget(&limits(1000), Side::Red, 30, 300);
        assert_eq!(more.unwrap(), usual.unwrap() * 3);
        // Half of what is above the reserve, at most.
        assert!(most.unwrap() <= (1000 - 250 - 60) / 2, "{most:?}");
        // Below the floor the plan does not grow: the clock must climb back.
        assert_eq!(
            budget(&limits(50), Side::Red, 30, 300),
            budget(&limits(50), Side::Red, 30, 100)
        );
    }

    fn clock(limits: &TimeLimits, side: Side) -> Clock {
        Clock::new(limits, side, 30, 100, Arc::new(AtomicBool::new(false)))
    }

    #[test]
    fn a_fixed_time_is_thought_to_its_deadline() {
        let fixed = TimeLimits {
            movetime: Some(100),
            ..TimeLimits::default()
        };
        let c = clock(&fixed, Side::Red);
        assert_eq!(c.to_string(), "fixed 75 ms");
        assert!(!c.is_on_clock());
        // A short fixed time keeps three quarters of itself, whatever the
        // overhead; a zero one thinks the least there is.
        let short = |ms| {
            let limits = TimeLimits {
                movetime: Some(ms),
                ..TimeLimits::default()
            };
            clock(&limits, Side::Red).to_string()
        };
        assert_eq!(short(20), "fixed 15 ms");
        assert_eq!(short(120), "fixed 90 ms");
        assert_eq!(short(1000), "fixed 970 ms");
        assert_eq!(short(0), "fixed 1 ms");
        // However much the best move settled, a fixed time is not cut short.
        assert!(!c.should_stop_iterating(0.0, 20));
        assert!(!c.should_stop_iterating(0.0, 1));
        assert_eq!(
            clock(&TimeLimits::default(), Side::Red).to_string(),
            "untimed"
        );
    }

    #[test]
    fn a_clock_without_the_movers_time_becomes_a_short_fixed_time() {
        let blue_only = TimeLimits {
            blue_time: Some(1000),
            ..TimeLimits::default()
        };
        let increment_only = TimeLimits {
            red_increment: Some(100),
            ..TimeLimits::default()
        };
        let moves_to_go_only = TimeLimits {
            moves_to_go: Some(5),
            ..TimeLimits::default()
        };
        let expected = format!("fixed {} ms", NO_CLOCK_MOVETIME_MS - 30);
        for limits in [&blue_only, &increment_only, &moves_to_go_only] {
            assert!(limits.lacks_mover_clock(Side::Red), "{limits:?}");
            assert_eq!(clock(limits, Side::Red).to_string(), expected);
        }
        // Blue has its clock: that is a normal timed search.
        assert!(!blue_only.lacks_mover_clock(Side::Blue));
        assert!(clock(&blue_only, Side::Blue).is_on_clock());
        // No clock word at all is no clock missing.
        assert!(!TimeLimits::default().lacks_mover_clock(Side::Red));
    }
}
