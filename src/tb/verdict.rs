//! A table's answer for one position, and how a table byte holds it (the
//! bottom of `tb`: every other file of it may use this one).

use std::fmt;

/// A table byte that is no position of a game (two pieces on one square).
pub const NO_POSITION: u8 = 255;

/// The longest distance a table byte holds: a distance `n` is stored as
/// `n + 1`, which must stay below [`NO_POSITION`].
pub const MAX_DISTANCE: u32 = 253;

/// A table's answer for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// It wins, the game ending in this many plies (odd; 0 when it has already won).
    Win(u32),
    /// It loses in this many plies (even; 0 when the game is already lost).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Verdict {
    /// The verdict a table byte holds, `None` for no position.
    #[inline]
    pub fn from_byte(b: u8) -> Option<Verdict> {
        match b {
            0 => Some(Verdict::Draw),
            NO_POSITION => None,
            v => {
                let n = (v - 1) as u32;
                Some(if n % 2 == 1 {
                    Verdict::Win(n)
                } else {
                    Verdict::Loss(n)
                })
            }
        }
    }

    /// The verdict for the side that made the move leading to a position
    /// with this verdict.
    pub fn before(self) -> Verdict {
        match self {
            Verdict::Win(n) => Verdict::Loss(n + 1),
            Verdict::Loss(n) => Verdict::Win(n + 1),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// Orders verdicts for the side to move: larger is better (a faster win,
    /// a slower loss).
    pub fn rank(self) -> i64 {
        match self {
            Verdict::Win(n) => 1_000_000 - n as i64,
            Verdict::Draw => 0,
            Verdict::Loss(n) => -1_000_000 + n as i64,
        }
    }
}

impl fmt::Display for Verdict {
    /// `win N`, `loss N` or `draw`, as `doushou tb probe` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(n) => write!(f, "win {n}"),
            Verdict::Loss(n) => write!(f, "loss {n}"),
            Verdict::Draw => f.write_str("draw"),
        }
    }
}
