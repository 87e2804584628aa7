//! The clocks of a game on the page: a time control per side (base time and
//! increment), the side whose clock runs and since when. The game charges the
//! time used at every change and asks who has run out; engines with a clock
//! are given `wtime`/`btime` to play on.

use super::api::{ClockView, ClocksView};
use crate::client::TimeControl;
use crate::rules::Side;
use std::time::Instant;

/// The longest base time accepted, ms (10 hours).
pub const MAX_BASE_MS: u64 = 10 * 3600 * 1000;
/// The largest increment accepted, ms (10 minutes).
pub const MAX_INC_MS: u64 = 10 * 60 * 1000;

/// A time control the clocks refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// A base time outside 1 s to [`MAX_BASE_MS`], ms.
    #[error("clock base {0} ms: expected 1000 to {MAX_BASE_MS}")]
    Base(u64),
    /// An increment over [`MAX_INC_MS`], ms.
    #[error("clock increment {0} ms: expected 0 to {MAX_INC_MS}")]
    Increment(u64),
}

/// One side's clock: its control and the time it had at the last charge.
#[derive(Clone, Copy, Debug)]
struct SideClock {
    control: TimeControl,
    /// Time left at the last charge, ms; negative once the flag fell.
    remaining_ms: i64,
}

/// Both sides' clocks, either of which may be absent, and the one that runs.
#[derive(Clone, Debug, Default)]
pub struct Clocks {
    sides: [Option<SideClock>; 2],
    /// The side whose clock runs, and since when (the last charge).
    running: Option<(Side, Instant)>,
}

impl Clocks {
    /// Gives `side` a clock (reset to its base time), or takes it away; a
    /// time control out of range is refused and nothing changes.
    pub fn set(&mut self, side: Side, control: Option<TimeControl>) -> Result<(), ClockError> {
        if let Some(c) = control {
            if !(1000..=MAX_BASE_MS).contains(&c.base_ms) {
                return Err(ClockError::Base(c.base_ms));
            }
            if c.increment_ms > MAX_INC_MS {
                return Err(ClockError::Increment(c.increment_ms));
            }
        }
        self.charge();
        self.sides[side.index()] = control.map(|control| SideClock {
            control,
            remaining_ms: control.base_ms as i64,
        });
        Ok(())
    }

    /// Every clock back to its base time, none running (a new game).
    pub fn reset(&mut self) {
        self.running = None;
        for clock in self.sides.iter_mut().flatten() {
            clock.remaining_ms = clock.control.base_ms as i64;
        }
    }

    /// Whether `side` plays on a clock.
    pub fn has(&self, side: Side) -> bool {
        self.sides[side.index()].is_some()
    }

    /// Takes the time used since the last charge off the running clock.
    pub fn charge(&mut self) {
        if let Some((side, since)) = self.running {
            if let Some(clock) = self.sides[side.index()].as_mut() {
                clock.remaining_ms -= since.elapsed().as_millis() as i64;
            }
            self.running = Some((side, Instant::now()));
        }
    }

    /// Charges, then runs the clock of `side` (none: every clock stops).
    pub fn run(&mut self, side: Option<Side>) {
        self.charge();
        self.running = side.filter(|s| self.has(*s)).map(|s| (s, Instant::now()));
    }

    /// Time left for `side` now, ms.
    pub fn remaining(&self, side: Side) -> Option<i64> {
        let clock = self.sides[side.index()]?;
        let running = match self.running {
            Some((s, since)) if s == side => since.elapsed().as_millis() as i64,
            _ => 0,
        };
        Some(clock.remaining_ms - running)
    }

    /// The side whose clock runs and has run out, if any.
    pub fn flag_fallen(&self) -> Option<Side> {
        let (side, _) = self.running?;
        (self.remaining(side)? <= 0).then_some(side)
    }

    /// After `side` moved: its time is charged; the increment is added if
    /// its flag had not fallen. Answers whether it had.
    pub fn moved(&mut self, side: Side) -> bool {
        self.charge();
        let Some(clock) = self.sides[side.index()].as_mut() else {
            return false;
        };
        if clock.remaining_ms <= 0 {
            return true;
        }
        clock.remaining_ms += clock.control.increment_ms as i64;
        false
    }

    /// The `wtime`/`btime`/`winc`/`binc` words of a `go` for the clocks that exist.
    pub fn go_words(&self) -> String {
        let mut words = String::new();
        for (side, time, inc) in [(Side::Red, "wtime", "winc"), (Side::Blue, "btime", "binc")] {
            if let (Some(left), Some(clock)) = (self.remaining(side), self.sides[side.index()]) {
                words.push_str(&format!(
                    " {time} {} {inc} {}",
                    left.max(1),
                    clock.control.increment_ms
                ));
            }
        }
        words
    }

    /// The `TimeControl` tag: `300+2` (seconds) when both sides share one,
    /// each side's otherwise; none without clocks.
    pub fn tag(&self) -> Option<String> {
        let text = |c: &Option<SideClock>| c.map_or("-".to_string(), |c| c.control.to_string());
        match &self.sides {
            [None, None] => None,
            [a, b] if a.map(|c| c.control) == b.map(|c| c.control) => Some(text(a)),
            [a, b] => Some(format!("red {}; blue {}", text(a), text(b))),
        }
    }

    /// What the page shows.
    pub fn view(&self) -> ClocksView {
        let clock = |side: Side| {
            self.sides[side.index()].map(|c| ClockView {
                control: c.control,
                remaining_ms: self.remaining(side).unwrap_or(0),
            })
        };
        ClocksView {
            red: clock(Side::Red),
            blue: clock(Side::Blue),
            running: self.running.map(|(s, _)| s.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increments_flags_and_tags() {
        let mut clocks = Clocks::default();
        let control = TimeControl {
            base_ms: 60_000,
            increment_ms: 1500,
        };
        clocks.set(Side::Red, Some(control)).unwrap();
        // Refused time controls leave Blue without a clock (the tag below).
        for (base_ms, increment_ms, error) in [
            (5, 0, ClockError::Base(5)),
            (1000, MAX_INC_MS + 1, ClockError::Increment(MAX_INC_MS + 1)),
        ] {
            let control = TimeControl {
                base_ms,
                increment_ms,
            };
            assert_eq!(clocks.set(Side::Blue, Some(control)), Err(error));
        }
        assert_eq!(clocks.tag().as_deref(), Some("red 60+1.5; blue -"));
        clocks.set(Side::Blue, Some(control)).unwrap();
        assert_eq!(clocks.tag().as_deref(), Some("60+1.5"));
        clocks.run(Some(Side::Red));
        assert!(!clocks.moved(Side::Red));
        assert!(clocks.remaining(Side::Red).unwrap() > 60_000);
        assert!(clocks.go_words().contains("winc 1500"));
        // A clock run down to nothing: the flag falls.
        clocks.sides[1].as_mut().unwrap().remaining_ms = 0;
        clocks.run(Some(Side::Blue));
        assert_eq!(clocks.flag_fallen(), Some(Side::Blue));
        assert!(
            clocks.moved(Side::Blue),
            "a move after the flag is too late"
        );
        clocks.reset();
        assert_eq!(clocks.remaining(Side::Blue), Some(60_000));
        assert_eq!(clocks.view().running, None);
    }
}
