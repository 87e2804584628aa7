//! What `go` asks of a search: its limits, and the deepest search any
//! command may ask for.

use super::time::TimeLimits;
use crate::rules::Move;
use std::fmt;

/// The deepest search a command may ask for, in plies (`go depth`, `bench`,
/// every tool's `--depth`), and the deepest iteration any search runs (one
/// with no depth limit stops thinking there): deeper than any search ends
/// in a lifetime, and below the search's stack of [`super::search::MAX_PLY`].
pub const MAX_DEPTH: u32 = 100;

/// Everything `go` can ask for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Clock and move time.
    pub time: TimeLimits,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Most nodes, over all threads.
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`, whatever the clock says.
    pub infinite: bool,
    /// Search the position after the expected reply until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
}

impl fmt::Display for GoLimits {
    /// The limits as the words of `go` (for the log).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.time;
        let numbers = [
            ("wtime", t.red_time),
            ("btime", t.blue_time),
            ("winc", t.red_increment),
            ("binc", t.blue_increment),
            ("movestogo", t.moves_to_go),
            ("movetime", t.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
        ];
        let mut words: Vec<String> = numbers
            .iter()
            .filter_map(|(word, n)| n.map(|n| format!("{word} {n}")))
            .collect();
        for (word, on) in [("infinite", self.infinite), ("ponder", self.ponder)] {
            if on {
                words.push(word.to_string());
            }
        }
        if !self.searchmoves.is_empty() {
            words.push("searchmoves".to_string());
            words.extend(self.searchmoves.iter().map(Move::to_string));
        }
        write!(f, "{}", words.join(" "))
    }
}
