//! Scores: the internal integer scale the search and table share (mates
//! counted in plies from the root), and the forms the protocol and tools
//! report it in (centipawns or moves to mate, a bound, win/draw/loss odds).
//! Below both search and tt, so neither imports the other for it.

use std::fmt;

/// A win in `n` plies from the root scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score, mates included: the widest window is `-INFINITY..INFINITY`.
pub const INFINITY: i32 = MATE + 1;
/// A table win in `n` plies, found `ply` plies from the root, scores
/// `TB_WIN - ply - n`: below every den entry the search finds (mates), above
/// every evaluation (at most `nnue::EVAL_LIMIT`, 20000).
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this (in absolute value) are table results or mates:
/// the transposition table stores them relative to the node.
pub const TB_BOUND: i32 = TB_WIN - 1_000;
/// The score of a table verdict `ply` plies from the root: exact wins and
/// losses in the band below the mates; `None` for a draw, and for a win or
/// loss longer than the `left` plies the no-capture limit leaves (the limit
/// may draw it first; the search then goes on without the table's word).
pub fn table_score(verdict: crate::tb::Verdict, ply: usize, left: u32) -> Option<i32> {
    use crate::tb::Verdict;
    match verdict {
        Verdict::Win(n) if n <= left => Some(TB_WIN - ply as i32 - n as i32),
        Verdict::Loss(n) if n <= left => Some(-(TB_WIN - ply as i32 - n as i32)),
        _ => None,
    }
}

/// A score as the protocol reports it; in JSON `{"cp":12}` or `{"mate":-3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// A forced win in this many moves (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// The protocol form of an internal score. A table win or loss is as
    /// sure as a mate the search found, and is reported as one: the plies
    /// from the root to the end are `MATE - |score|` for a mate and
    /// `TB_WIN - |score|` for a table result.
    pub fn from_internal(score: i32) -> Score {
        let plies = if score.abs() >= MATE_BOUND {
            MATE - score.abs()
        } else if score.abs() >= TB_BOUND {
            TB_WIN - score.abs()
        } else {
            return Score::Cp(score);
        };
        if score > 0 {
            Score::Mate((plies + 1) / 2)
        } else {
            Score::Mate(-plies / 2)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// What a score says about the true score: the search's answer as reported,
/// and as the transposition table keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreBound {
    /// The true score: it fell inside the search window.
    #[default]
    Exact,
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
}

/// Win/draw/loss per mille for a score, from a logistic model of the score
/// (mates are certain).
pub fn wdl(score: i32) -> (u32, u32, u32) {
    match Score::from_internal(score) {
        Score::Mate(n) if n > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let p = |x: f64| 1.0 / (1.0 + (-x).exp());
            let win = (1000.0 * p((cp as f64 - 200.0) / 110.0)).round() as u32;
            let loss = (1000.0 * p((-cp as f64 - 200.0) / 110.0)).round() as u32;
            (win, 1000 - win - loss, loss)
        }
    }
}
