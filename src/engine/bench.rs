//! The bench: a fixed-depth search of every position in
//! `bench-positions/bench.txt`. With one thread its node count is deterministic,
//! the signature that commits quote as `Bench: N`.

use crate::engine::search::Silent;
use crate::engine::{GoLimits, SearchControl, SearchThreads};
use crate::rules::{Game, GameError, Rules};
use std::time::{Duration, Instant};

/// The bench positions, built into the binary so the bench runs anywhere.
pub const POSITIONS: &str = include_str!("../../bench-positions/bench.txt");

/// The default depth of the bench.
pub const DEFAULT_DEPTH: i32 = 9;

/// The positions of [`POSITIONS`], comments and blank lines dropped.
pub fn positions() -> impl Iterator<Item = &'static str> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Why a bench run gave no count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BenchError {
    /// A bench position is not valid under the rules asked for (a rule
    /// switch can make one illegal).
    #[error("bench position {number}: {error}")]
    Position {
        /// The position's number in the bench, from 1.
        number: usize,
        /// What is wrong with it.
        #[source]
        error: GameError,
    },
    /// A `stop` ended the run during this position (from 1): the count so
    /// far is not a signature.
    #[error("bench stopped at position {0}")]
    Stopped(usize),
}

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Milliseconds searching, over all positions.
    pub time_ms: u64,
}

impl BenchReport {
    /// Nodes per second of the timed searches (the table clears not counted).
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Searches every bench position to `depth` under `rules` with the threads's
/// options (the table cleared for each, so runs do not depend on one another),
/// writing a line per position and a last line `<nodes> nodes <nps> nps` to
/// `out`. Only the searches are timed: clearing the table costs in proportion
/// to its size, and would make nps depend on `Hash`. A `stop` through
/// `control` ends it early, with an error.
pub fn run(
    threads: &SearchThreads,
    rules: Rules,
    depth: Option<i32>,
    control: &SearchControl,
    mut out: impl FnMut(&str),
) -> Result<BenchReport, BenchError> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for (i, fen) in positions().enumerate() {
        threads.clear_hash();
        let game = Game::from_fen_and_moves::<&str>(rules, fen, &[]).map_err(|error| {
            BenchError::Position {
                number: i + 1,
                error,
            }
        })?;
        let limits = GoLimits {
            depth: Some(depth as u32),
            ..GoLimits::default()
        };
        let start = Instant::now();
        let result = threads.search(&game, &limits, control, &Silent);
        searching += start.elapsed();
        if control.stop_requested() {
            return Err(BenchError::Stopped(i + 1));
        }
        nodes += result.nodes;
        out(&format!(
            "position {:>2} depth {} nodes {:>9} bestmove {} {}",
            i + 1,
            result.depth,
            result.nodes,
            result.best_move,
            crate::engine::score::Score::from_internal(result.score)
        ));
    }
    let report = BenchReport {
        nodes,
        time_ms: searching.as_millis() as u64,
    };
    out(&format!("{} nodes {} nps", report.nodes, report.nps()));
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_bench_says_where_it_stopped() {
        let engine = crate::engine::Engine::new();
        let control = SearchControl::default();
        control.stop();
        let ran = run(
            engine.threads(),
            Rules::default(),
            Some(2),
            &control,
            |_| {},
        );
        assert_eq!(ran, Err(BenchError::Stopped(1)));
        assert_eq!(
            BenchError::Stopped(1).to_string(),
            "bench stopped at position 1"
        );
    }
}
