//! The node function and quiescence: alpha-beta over one position's moves,
//! in the numbered steps of [`Worker::search`].

use super::Worker;
use super::shared::{BREADCRUMB_PLIES, BreadcrumbGuard, MAX_PLY};
use crate::engine::score::{INFINITY, MATE, MATE_BOUND, ScoreBound};
use crate::engine::tt::{score_from_tt, score_to_tt};
use crate::rules::{DEN, MAX_MOVES, Move, NEIGHBOURS};

impl Worker<'_> {
    /// Searches a node where the window is open (`alpha` < score < `beta` is
    /// expected to matter): a principal-variation node.
    #[inline]
    pub(super) fn pv_search(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        self.search::<Pv>(alpha, beta, depth, ply)
    }

    /// Searches a node with the zero window (`beta - 1`, `beta`): is the score
    /// at least `beta`? The question every move but the first is asked.
    #[inline]
    pub(super) fn zw_search(&mut self, beta: i32, depth: i32, ply: usize) -> i32 {
        self.search::<NonPv>(beta - 1, beta, depth, ply)
    }

    /// The node function: alpha-beta over the moves of the current position,
    /// `depth` plies deep (then quiescence), `ply` plies from the root.
    /// Whether the node keeps a principal variation is its type `N`.
    fn search<N: NodeType>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        let pv_node = N::PV;
        debug_assert!(
            pv_node || beta - alpha == 1,
            "a zero-window node has a zero window"
        );
        // Step 1. Count the node; a stopped search's scores are void.
        self.pv_len[ply] = 0;
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 2. Nodes the rules or the endgame tables decide.
        if let Some(score) = self.terminal_score(ply) {
            return score;
        }
        if let Some(score) = self.table_score(ply, depth) {
            return score;
        }

        // Step 3. At the horizon, quiescence.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(alpha, beta, ply);
        }

        // Step 4. Mate distance pruning: no line from here beats a mate
        // already in hand.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 5. The transposition table: its move to try first, and a
        // cutoff where its bound settles the node (never on the PV).
        let pos = *self.game.position();
        let key = pos.key();
        let features = self.shared.features;
        let params = self.shared.params;
        let entry = self.shared.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(e) = entry
            && features.tt_cutoffs
        {
            tt_move = e.best_move;
            let score = score_from_tt(e.score, ply);
            let settles = match e.bound {
                ScoreBound::Exact => true,
                ScoreBound::Lower => score >= beta,
                ScoreBound::Upper => score <= alpha,
            };
            if !pv_node && e.depth >= depth && settles {
                return score;
            }
        }

        // Step 6. The static evaluation. The table keeps the raw one: the
        // fade depends on the no-capture count, which the key does not hold.
        let raw_eval = match entry {
            Some(e) => e.eval,
            None => self.static_eval(&pos),
        };
        let static_eval = self.fade_with_no_capture_count(raw_eval, &pos);
        let threatened = Self::den_threatened(&pos);

        // Step 7. Internal iterative reduction: with no table move this
        // node's ordering is a guess, so it gets a ply less.
        let depth = if tt_move.is_null() && depth >= params.iir_min_depth() && features.iir {
            depth - 1
        } else {
            depth
        };

        // Step 8. Reverse futility pruning: far enough above beta near the
        // leaves, the node fails high on its evaluation alone; not while an
        // enemy races for our den, which the evaluation misjudges.
        if features.futility
            && !pv_node
            && !Self::den_approached(&pos, params.futility_race_steps() as usize)
            && beta.abs() < MATE_BOUND
            && depth <= params.futility_max_depth()
            && static_eval - params.futility_margin() * depth >= beta
        {
            return static_eval;
        }

        // Step 9. Breadcrumbs: where another thread is searching this node
        // near the root, this one reduces its late moves more, to go
        // elsewhere sooner.
        let visit = if features.breadcrumbs && self.shared.nodes.len() > 1 && ply < BREADCRUMB_PLIES
        {
            self.shared.breadcrumbs.enter(self.id, key)
        } else {
            Default::default()
        };
        let _leave = BreadcrumbGuard::new(&self.shared.breadcrumbs, key, visit);

        // Step 10. The moves, best guesses first.
        let moves = self.game.legal_moves();
        let mut order = self
            .heuristics
            .order(&pos, &self.rules, &moves, tt_move, ply);
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut quiets_tried: [Move; MAX_MOVES] = [Move::NULL; MAX_MOVES];
        let mut quiet_count = 0;
        for i in 0..order.len() {
            let mv = order.pick(i);
            let capture = pos.is_capture(mv);

            // Step 11. Late-move pruning: near the leaves, quiet moves after
            // enough quiet ones are not tried.
            if features.late_move_pruning
                && !pv_node
                && !threatened
                && !capture
                && i > 0
                && depth <= params.lmp_max_depth()
                && best_score > -MATE_BOUND
                && quiet_count as i32
                    >= params.lmp_base() + params.lmp_per_depth_squared() * depth * depth
            {
                continue;
            }

            // Step 12. Principal variation search: the first move with the
            // full window, the others with the zero window, late quiet ones
            // reduced (late-move reductions), each searched again in full
            // where it beats alpha.
            self.shared.tt.prefetch(pos.key_after(mv));
            self.make(mv);
            let score = if i == 0 {
                if pv_node {
                    -self.pv_search(-beta, -alpha, depth - 1, ply + 1)
                } else {
                    -self.zw_search(-alpha, depth - 1, ply + 1)
                }
            } else {
                let mut reduction = 0;
                if features.lmr
                    && depth >= params.lmr_min_depth()
                    && !capture
                    && !threatened
                    && i >= params.lmr_first_reduced_move() as usize
                {
                    reduction = self.shared.lmr.reduction(depth, i);
                    if pv_node {
                        reduction -= 1;
                    }
                    if self.heuristics.is_killer(ply, mv) {
                        reduction -= 1;
                    }
                    if visit.another_thread_here {
                        reduction += 1;
                    }
                    if features.history_lmr {
                        reduction -=
                            self.heuristics.history(&pos, mv) / params.lmr_history_divisor();
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                let mut s = -self.zw_search(-alpha, depth - 1 - reduction, ply + 1);
                if s > alpha && reduction > 0 {
                    s = -self.zw_search(-alpha, depth - 1, ply + 1);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.pv_search(-beta, -alpha, depth - 1, ply + 1);
                }
                s
            };
            self.unmake();
            if self.stopped {
                return 0;
            }

            // Step 13. The best move so far, the PV, and on a cutoff the
            // move-ordering heuristics' reward.
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.pv[ply][0] = mv;
                        let child_len = self.pv_len[ply + 1];
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
                        self.pv_len[ply] = child_len + 1;
                    }
                    if score >= beta {
                        if !capture {
                            let tried = &quiets_tried[..quiet_count];
                            self.heuristics
                                .reward_quiet(params, &pos, mv, ply, depth, tried);
                        }
                        break;
                    }
                }
            }
        }

        // Step 14. Store the result in the transposition table.
        let bound = if best_score >= beta {
            ScoreBound::Lower
        } else if best_score > original_alpha {
            ScoreBound::Exact
        } else {
            ScoreBound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best_score, ply),
            raw_eval,
            depth,
            bound,
        );
        best_score
    }

    /// Captures only, but while the enemy stands next to our den there is no
    /// standing pat: only taking that piece (or winning first) can save us.
    /// The caller has already counted the node and found it not terminal.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        let pos = *self.game.position();
        let threatened = Self::den_threatened(&pos);
        let mut best;
        if threatened {
            // Any move that is not a capture of a threatening piece loses at once,
            // unless the move itself draws by the no-capture limit.
            let limit = self.rules.no_capture_limit;
            best = if limit > 0 && pos.plies_since_capture() + 1 >= limit {
                self.draw_score()
            } else {
                -MATE + ply as i32 + 2
            };
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        } else {
            best = self.faded_eval(&pos);
            if best >= beta || ply >= MAX_PLY - 1 {
                return best;
            }
            alpha = alpha.max(best);
        }
        // Repetition never forbids a capture: these are legal moves.
        let mut captures = pos.generate_captures(&self.rules);
        if threatened {
            let den = DEN[pos.side_to_move().index()].trailing_zeros() as usize;
            captures.retain(|m| NEIGHBOURS[den] & m.to().bit() != 0);
        }
        let mut order = self
            .heuristics
            .order(&pos, &self.rules, &captures, Move::NULL, ply);
        for i in 0..order.len() {
            let mv = order.pick(i);
            self.make(mv);
            self.count_node();
            let score = if self.stopped {
                0
            } else {
                match self.terminal_score(ply + 1) {
                    Some(s) => -s,
                    None => -self.quiescence(-beta, -alpha, ply + 1),
                }
            };
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// What a node of the search is, fixed at compile time so that each kind
/// gets its own code without run-time tests.
trait NodeType {
    /// A principal-variation node: its window is open and it keeps a PV.
    const PV: bool;
}

/// A node on the principal variation.
struct Pv;
/// A node searched with a zero window.
struct NonPv;

impl NodeType for Pv {
    const PV: bool = true;
}

impl NodeType for NonPv {
    const PV: bool = false;
}
