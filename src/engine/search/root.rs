//! The root of the search: iterative deepening, aspiration windows, the
//! root moves and what the main thread reports.

use super::shared::{HISTORY_LOSS_CAP, LONG_LOSS_CAP};
use super::{Listener, SearchInfo, SearchResult, Worker};
use crate::engine::MAX_DEPTH;
use crate::engine::score::{INFINITY, MATE, MATE_BOUND, ScoreBound};
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
            .bounds
            .depth
            .unwrap_or(MAX_DEPTH as i32)
            .min(MAX_DEPTH as i32);
        let multipv = self.bounds.multipv.clamp(1, self.root_moves.len());
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
                self.search_root_window(depth, pv_index, listener);
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
                    self.report(depth, pv_index, ScoreBound::Exact, listener);
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
            result.score = best.score;
            result.pv = best.pv.clone();
            result.ponder_move = best.pv.get(1).copied();
            result.seldepth = self.seldepth.max(1) as i32;
            result.lines = self.root_moves[..multipv]
                .iter()
                .map(|r| (r.score, r.pv.clone()))
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
                if let Some(n) = self.bounds.mate
                    && best.score >= MATE_BOUND
                    && (MATE - best.score + 1) / 2 <= n
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
            self.send_info(line, ScoreBound::Exact, result.pv.clone(), listener);
            reported += 1;
        }
        reported
    }

    /// Sends one `info` line: `(depth, seldepth, multipv, score)`, its bound
    /// and PV, with the search's counters as they stand.
    fn send_info(
        &self,
        (depth, seldepth, multipv, score): (i32, i32, usize, i32),
        bound: ScoreBound,
        pv: Vec<Move>,
        listener: &dyn Listener,
    ) {
        self.flush_nodes();
        listener.info(&SearchInfo {
            depth,
            seldepth,
            multipv,
            score,
            bound,
            nodes: self.shared.total_nodes(),
            time_ms: self.clock.map_or(0, |c| c.elapsed_ms()),
            hashfull: self.shared.tt.hashfull(),
            pv,
            tbhits: self.shared.tbhits.load(Ordering::Relaxed),
        });
    }

    /// Searches the root for one MultiPV line with aspiration windows around the
    /// previous score, widening on fail high or low.
    fn search_root_window(&mut self, depth: i32, pv_index: usize, listener: &dyn Listener) {
        let previous = self.root_moves[pv_index].previous_score;
        let params = self.shared.params;
        let mut delta = params.aspiration_delta();
        let (mut alpha, mut beta) = if self.shared.features.aspiration
            && depth >= params.aspiration_min_depth()
            && previous.abs() < MATE_BOUND
        {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search_root(alpha, beta, depth, pv_index);
            if self.stopped {
                return;
            }
            self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if score <= alpha {
                if self.is_main() {
                    self.report(depth, pv_index, ScoreBound::Upper, listener);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                if self.is_main() {
                    self.report(depth, pv_index, ScoreBound::Lower, listener);
                }
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta += delta / 2;
            if delta > params.aspiration_max_delta() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32, pv_index: usize) -> i32 {
        let mut best = -INFINITY;
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
                return best;
            }
            let score = if self.bounds.long_losses.contains(&mv) {
                score.min(LONG_LOSS_CAP)
            } else if self.bounds.history_losses.contains(&mv) {
                score.min(HISTORY_LOSS_CAP)
            } else {
                score
            };
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    fn report(&self, depth: i32, pv_index: usize, bound: ScoreBound, listener: &dyn Listener) {
        let rm = &self.root_moves[pv_index];
        let score = if rm.score == -INFINITY {
            rm.previous_score
        } else {
            rm.score
        };
        if score == -INFINITY {
            return;
        }
        let line = (depth, self.seldepth.max(1) as i32, pv_index + 1, score);
        self.send_info(line, bound, rm.pv.clone(), listener);
    }
}
