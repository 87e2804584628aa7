//! The root of the search: iterative deepening, the root moves and what
//! the main thread reports.

use super::{Listener, SearchInfo, SearchResult, Worker};
use crate::engine::MAX_DEPTH;
use crate::engine::score::{INFINITY, MATE, MATE_BOUND};
use crate::rules::Move;
use std::sync::atomic::Ordering;

impl Worker<'_> {
    /// Iterative deepening until stopped or a limit is reached. Only the main
    /// thread reports to `listener`.
    pub fn iterate(&mut self, listener: &dyn Listener) -> SearchResult {
        let mut result = SearchResult {
            best_move: self.root_moves.first().map_or(Move::NULL, |r| r.mv),
            ..SearchResult::default()
        };
        if self.root_moves.is_empty() {
            return result;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_DEPTH as i32)
            .min(MAX_DEPTH as i32);
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        // With one line, the threads pool their iterations: the search answers
        // with the deepest any thread completed.
        let pooled = multipv == 1;
        // Helpers start one ply deeper on odd threads so threads spread over depths.
        let mut depth = 1 + (self.id % 2) as i32;
        let mut best_changes = 0.0f64;
        // The deepest iteration the main thread has reported (pooled search).
        let mut reported = 0;
        while depth <= max_depth {
            for rm in self.root_moves.iter_mut() {
                rm.previous_score = rm.score;
            }
            let previous_best = self.root_moves[0].mv;
            for pv_index in 0..multipv {
                self.seldepth = 0;
                self.search_root(depth, pv_index);
                if self.stopped {
                    break;
                }
                // The lines found so far are settled; keep them in score order.
                self.root_moves[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                break;
            }
            if self.is_main() && !pooled {
                // Reported once the depth is done: a later line may overtake an
                // earlier one, which would otherwise be reported twice.
                for pv_index in 0..multipv {
                    self.report(depth, pv_index, listener);
                }
            }
            self.can_stop = true;
            result.depth = depth;
            if self.root_moves[0].mv != previous_best {
                best_changes += 1.0;
            }
            best_changes *= 0.5;
            let best = &self.root_moves[0];
            result.best_move = best.mv;
            result.score = best.score.unwrap_or(-INFINITY);
            result.pv = best.pv.clone();
            result.ponder_move = best.pv.get(1).copied();
            result.seldepth = self.seldepth.max(1) as i32;
            result.lines = self.root_moves[..multipv]
                .iter()
                .map(|r| (r.score.unwrap_or(-INFINITY), r.pv.clone()))
                .collect();
            if pooled {
                self.shared.offer(&result);
                if self.is_main() {
                    reported = self.report_iterations(reported, listener);
                }
                if depth >= max_depth {
                    // The deepest iteration asked for is done: every thread stops.
                    self.shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            if self.is_main() {
                if let Some(n) = self.limits.mate
                    && result.score >= MATE_BOUND
                    && (MATE - result.score + 1) / 2 <= n
                {
                    break;
                }
                if let Some(clock) = self.clock
                    && clock.should_stop_iterating(best_changes, self.root_moves.len())
                {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            depth += 1;
            if pooled {
                // A depth another thread has completed is not searched again.
                depth = depth.max(self.shared.deepest_depth() + 1);
            }
        }
        if pooled && self.is_main() {
            self.report_iterations(reported, listener);
            let deepest = self.shared.deepest_depth();
            if deepest > result.depth
                && let Some(d) = self.shared.iteration(deepest)
            {
                result = d;
            }
        }
        self.flush_nodes();
        result.nodes = self.shared.total_nodes();
        result
    }

    /// Reports, in depth order, every iteration the threads completed after
    /// depth `reported` (each depth's first, whichever thread finished it: the
    /// threads skip depths another has done, so this thread's own need not be
    /// one of them); answers the depth reported last.
    fn report_iterations(&self, mut reported: i32, listener: &dyn Listener) -> i32 {
        while let Some(result) = self.shared.iteration(reported + 1) {
            let line = (result.depth, result.seldepth, 1, result.score);
            self.send_info(line, result.pv.clone(), listener);
            reported += 1;
        }
        reported
    }

    /// Sends one `info` line: `(depth, seldepth, multipv, score)` and the
    /// PV, with the search's counters as they stand.
    fn send_info(
        &self,
        (depth, seldepth, multipv, score): (i32, i32, usize, i32),
        pv: Vec<Move>,
        listener: &dyn Listener,
    ) {
        self.flush_nodes();
        listener.info(&SearchInfo {
            depth,
            seldepth,
            multipv,
            score,
            nodes: self.shared.total_nodes(),
            time_ms: self.clock.map_or(0, |c| c.elapsed_ms()),
            hashfull: self.shared.tt.hashfull(),
            pv,
            tbhits: self.shared.tbhits.load(Ordering::Relaxed),
        });
    }

    /// Searches the root moves from `pv_index` on, with the full window
    /// (MultiPV line `pv_index + 1`; the lines before it are settled), and
    /// scores each: exactly where it beats the best of those searched before
    /// it, `None` (a fail low) elsewhere.
    fn search_root(&mut self, depth: i32, pv_index: usize) {
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.make(mv);
            let score = if i == pv_index {
                -self.pv_search(-beta, -alpha, depth - 1, 1)
            } else {
                let s = -self.zw_search(-alpha, depth - 1, 1);
                if s > alpha && s < beta {
                    -self.pv_search(-beta, -alpha, depth - 1, 1)
                } else {
                    s
                }
            };
            self.unmake();
            if self.stopped {
                return;
            }
            let score = match self.limits.root_caps.iter().find(|(m, _)| *m == mv) {
                Some(&(_, cap)) => score.min(cap),
                None => score,
            };
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = Some(score);
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = None;
            }
            alpha = alpha.max(score);
        }
        self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    /// Reports MultiPV line `pv_index + 1` of iteration `depth`, with its
    /// score of the iteration before where it has none yet.
    fn report(&self, depth: i32, pv_index: usize, listener: &dyn Listener) {
        let rm = &self.root_moves[pv_index];
        let Some(score) = rm.score.or(rm.previous_score) else {
            return;
        };
        let line = (depth, self.seldepth.max(1) as i32, pv_index + 1, score);
        self.send_info(line, rm.pv.clone(), listener);
    }
}
