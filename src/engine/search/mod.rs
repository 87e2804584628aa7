//! Alpha-beta search: iterative deepening with aspiration windows, principal
//! variation search, quiescence over captures, and the pruning this game allows.
//! One [`Worker`] per thread; they share only the transposition table and the
//! stop flags (lazy SMP).
//!
//! Den threats play the role of checks: a side that can enter the enemy den wins
//! at once, so every node first looks for that move (a one-ply win, scored
//! exactly) and quiescence never stands pat while the enemy has a piece next to
//! its den; it may then only take that piece. The search thus sees every den
//! entry within its horizon without extending anything.

use super::eval::{evaluate, standoff_scaled};
use super::nnue::{Accumulator, AccumulatorStack};
use super::ordering::Heuristics;
use super::score::{INFINITY, MATE, MATE_BOUND, ScoreBound, table_score};
use super::time::Clock;
use super::tt::{score_from_tt, score_to_tt};
use crate::rules::{
    Bitboard, DEN, Game, MAX_MOVES, Move, NEIGHBOURS, Position, Repetition, Rules, Side,
};
use std::sync::atomic::Ordering;

mod room;
mod root;
mod shared;
use shared::{BREADCRUMB_PLIES, Breadcrumbs};
pub use shared::{
    Bounds, Features, Listener, MAX_PLY, PaddedCounter, SearchInfo, SearchResult, Shared, Silent,
};

/// For each side's den, the squares two steps from it: next to a square
/// next to the den, neither the den nor next to it.
const TWO_STEPS_FROM_DEN: [Bitboard; 2] = {
    let mut zones = [0; 2];
    let mut side = 0;
    while side < 2 {
        let den = DEN[side].trailing_zeros() as usize;
        let mut sq = 0;
        while sq < NEIGHBOURS.len() {
            if NEIGHBOURS[den] & (1 << sq) != 0 {
                zones[side] |= NEIGHBOURS[sq];
            }
            sq += 1;
        }
        zones[side] &= !NEIGHBOURS[den] & !DEN[side];
        side += 1;
    }
    zones
};

/// A root move with its score and line, kept between iterations.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    previous_score: i32,
    pv: Vec<Move>,
}

/// One search thread: its own game, move-ordering heuristics and PV; the table is shared.
pub struct Worker<'a> {
    shared: &'a Shared<'a>,
    game: Game,
    rules: Rules,
    /// The side to move at the root: draws are scored from its view.
    root_side: Side,
    id: usize,
    nodes: u64,
    seldepth: usize,
    /// False until the first iteration is complete: a search always has a move.
    can_stop: bool,
    /// Killers and history, for move ordering and reductions.
    heuristics: Heuristics,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    root_moves: Vec<RootMove>,
    /// Set once this worker has seen the stop flag; results after it are void.
    stopped: bool,
    clock: Option<&'a Clock>,
    bounds: Bounds,
    /// The net's hidden values along the current line, when the net evaluates.
    accumulators: Option<AccumulatorStack<'a>>,
    /// Each side's room to keep a table draw, by position.
    rooms: room::RoomCache,
}

impl<'a> Worker<'a> {
    /// A worker for thread `id` (0 is the main thread, which alone watches the
    /// clock and the limits).
    pub fn new(
        shared: &'a Shared<'a>,
        game: Game,
        id: usize,
        clock: Option<&'a Clock>,
        bounds: Bounds,
    ) -> Worker<'a> {
        let rules = *game.rules();
        let legal = game.legal_moves();
        let root_moves = legal
            .iter()
            .filter(|m| bounds.searchmoves.is_empty() || bounds.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                previous_score: -INFINITY,
                pv: vec![mv],
            })
            .collect();
        let accumulators = shared
            .net
            .map(|net| AccumulatorStack::new(net, game.position(), MAX_PLY + 2));
        Worker {
            shared,
            accumulators,
            root_side: game.position().side_to_move(),
            game,
            rules,
            id,
            nodes: 0,
            seldepth: 0,
            can_stop: id != 0,
            heuristics: Heuristics::new(MAX_PLY + 2),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 2],
            root_moves,
            stopped: false,
            clock,
            bounds,
            rooms: room::RoomCache::new(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Plays `mv` in the game and steps the net's accumulators over it.
    #[inline]
    fn make(&mut self, mv: Move) {
        if let Some(stack) = &mut self.accumulators {
            stack.push(self.game.position(), mv);
        }
        self.game.make(mv);
    }

    /// Takes back the last [`Worker::make`] (a null move is taken back with
    /// `game.unmake` alone: it changes no accumulator).
    #[inline]
    fn unmake(&mut self) {
        if let Some(stack) = &mut self.accumulators {
            stack.pop();
        }
        self.game.unmake();
    }

    /// The static evaluation of the current position, `pos`.
    #[inline]
    fn static_eval(&self, pos: &Position) -> i32 {
        let eval = match &self.accumulators {
            Some(stack) => {
                // Every make pushed and every unmake popped, whatever path the
                // search took: the incremental values are the position's.
                debug_assert!(self.shared.net.is_some_and(
                    |net| *stack.current() == Accumulator::from_position(net, pos)
                ));
                stack.evaluate(pos.side_to_move())
            }
            None => evaluate(pos, &self.rules, self.shared.weights),
        };
        let percent = self.shared.params.standoff_percent();
        standoff_scaled(eval, pos, &self.rules, percent)
    }

    /// Counts a node and, every 256, publishes the count and checks the limits
    /// (often enough that `stop` is honoured within a fraction of a millisecond).
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.shared.nodes[self.id]
                .0
                .store(self.nodes, Ordering::Relaxed);
            if self.is_main() {
                let total = self.shared.total_nodes();
                let out_of_nodes = self.bounds.nodes.is_some_and(|n| total >= n);
                let out_of_time = self.clock.is_some_and(|c| c.must_stop_now());
                if out_of_nodes || out_of_time {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
            if self.can_stop && self.shared.must_stop() {
                self.stopped = true;
            }
        }
    }

    /// Publishes this thread's final node count.
    pub fn flush_nodes(&self) {
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
    }

    /// Whether the enemy has a piece next to our den: it wins next move unless
    /// taken (or the game ends first).
    #[inline]
    fn den_threatened(pos: &Position) -> bool {
        let us = pos.side_to_move();
        let den = DEN[us.index()].trailing_zeros() as usize;
        NEIGHBOURS[den] & pos.occupied(us.opponent()) != 0
    }

    /// Whether the move just played brought an enemy piece two steps from
    /// our den (one step from a square next to it) where none of our pieces
    /// can take it at once: a runner, which wins unless the reply stops it
    /// (`Search_RaceExtension` searches such a node one ply deeper).
    #[inline]
    fn runner_arrived(&self, pos: &Position) -> bool {
        let Some(last) = self.game.last_move() else {
            return false;
        };
        let us = pos.side_to_move();
        let to = last.to();
        TWO_STEPS_FROM_DEN[us.index()] & to.bit() & pos.occupied(us.opponent()) != 0
            && !pos
                .generate_captures(&self.rules)
                .iter()
                .any(|m| m.to() == to)
    }

    /// The squares where a quiet move stops a den race (`Search_RaceOrder`):
    /// next to our den and next to each enemy piece two steps from it; none
    /// when no enemy stands there or the feature is off.
    #[inline]
    fn race_guard(&self, pos: &Position) -> Bitboard {
        if !self.shared.features.race_order {
            return 0;
        }
        let us = pos.side_to_move();
        let mut runners = TWO_STEPS_FROM_DEN[us.index()] & pos.occupied(us.opponent());
        if runners == 0 {
            return 0;
        }
        let mut guard = NEIGHBOURS[DEN[us.index()].trailing_zeros() as usize];
        while runners != 0 {
            guard |= NEIGHBOURS[runners.trailing_zeros() as usize];
            runners &= runners - 1;
        }
        guard & !DEN[us.index()]
    }

    /// The verdicts every node gives before searching, in the order of docs/rules.md:
    /// lost (den entered or no pieces, no legal move), drawn, or a den entry that
    /// wins at once. `None` when the node must be searched. Asked without the
    /// node's moves: most nodes end at a table cutoff or in quiescence, which
    /// never need them all.
    #[inline]
    fn terminal_score(&self, ply: usize) -> Option<i32> {
        let pos = self.game.position();
        if pos.is_decided() {
            // The mover entered our den or took our last piece.
            return Some(-MATE + ply as i32);
        }
        if !self.game.has_legal_move() {
            return Some(-MATE + ply as i32);
        }
        if self.rules.repetition != Repetition::Forbid && self.game.occurrences() >= 2 {
            // A cycle gains nothing; under `draw` it is the start of a draw.
            return Some(self.draw_score());
        }
        if self.game.draw_reason().is_some() {
            return Some(self.draw_score());
        }
        if pos.can_enter_den(&self.rules) {
            return Some(MATE - ply as i32 - 1);
        }
        None
    }

    /// The endgame tables' exact score here, if they hold the position and
    /// their verdict stands under the game's rules: a win or loss that fits
    /// in what the no-capture limit leaves, a draw the history cannot take
    /// away before the horizon (`depth` plies on).
    #[inline]
    fn table_score(&mut self, ply: usize, depth: i32) -> Option<i32> {
        let tb = self.shared.tb?;
        let pos = self.game.position();
        if crate::tb::piece_count(pos) > self.shared.tb_max_pieces {
            return None;
        }
        let score = match tb.probe(pos)? {
            crate::tb::Verdict::Draw if self.history_may_lose_draw(depth) => return None,
            crate::tb::Verdict::Draw => self.draw_score() + self.drawing_room(tb)?,
            v => table_score(
                v,
                ply,
                crate::tb::plies_before_limit(&self.rules, self.game.position()),
            )?,
        };
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        Some(score)
    }

    /// Whether, under `Repetition=forbid`, the game's history may turn a
    /// table draw into a loss within the next `depth` plies: the side that
    /// runs out of moves not repeating a position a third time must leave
    /// the drawing ones. A third occurrence takes two more returns to a
    /// position, at least 8 plies, unless one has already occurred twice
    /// since the last capture. Beyond the horizon the table's draw stands.
    #[inline]
    fn history_may_lose_draw(&self, depth: i32) -> bool {
        self.rules.repetition == Repetition::Forbid
            && depth > 0
            && (depth >= 8 || self.game.repetition_may_forbid())
    }

    /// Under `Repetition=forbid`, a table draw scored by the room each side
    /// has to keep it: how many legal moves (the history respected) do not
    /// lead to a table loss. The history squeezes a defender with one or two
    /// drawing moves, each position occurring at most twice since the last
    /// capture, until it must leave the draw; so among drawn positions the
    /// side to move prefers those where it has room and its opponent has
    /// none. The search sees that only where it reaches the repetitions; the
    /// room points at them from further away. The weight fades to nothing
    /// at the no-capture limit, which ends the squeeze. `None` when no legal
    /// move keeps the draw: the position must be searched, not trusted.
    fn drawing_room(&mut self, tb: &crate::tb::TableSet) -> Option<i32> {
        let params = self.shared.params;
        if self.rules.repetition != Repetition::Forbid || params.drawing_room_weight() == 0 {
            return Some(0);
        }
        let pos = self.game.position();
        let (free, theirs) = self.rooms.rooms(tb, &self.rules, pos);
        // The history takes moves away: that room is this game's alone.
        let forbidden = self.game.forbidden();
        let ours = if forbidden.is_empty() {
            free
        } else {
            room::room(tb, &self.rules, pos, |m| !forbidden.contains(m))
        };
        if ours == 0 {
            return None;
        }
        let squeeze =
            |room: i32| params.drawing_room_weight() * (params.drawing_room_enough() - room).max(0);
        let score = squeeze(theirs) - squeeze(ours);
        let limit = self.rules.no_capture_limit as i32;
        if limit == 0 {
            return Some(score);
        }
        let left = (limit - pos.plies_since_capture() as i32).max(0);
        Some(score * left / limit)
    }

    /// A draw from the view of the side to move: worth `-contempt` to the root
    /// side, so that with a positive contempt the engine plays on rather than
    /// settle for a draw (and its opponent is assumed to welcome one).
    #[inline]
    fn draw_score(&self) -> i32 {
        if self.game.position().side_to_move() == self.root_side {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// The static evaluation, shrunk towards the draw score as the no-capture
    /// count grows: a side that is better but shuffles sees its advantage fade,
    /// so it prefers the capture (or den attack) that resets the count. At the
    /// limit the evaluation keeps half its weight.
    #[inline]
    fn faded_eval(&self, pos: &Position) -> i32 {
        self.fade_with_no_capture_count(self.static_eval(pos), pos)
    }

    #[inline]
    fn fade_with_no_capture_count(&self, eval: i32, pos: &Position) -> i32 {
        let limit = self.rules.no_capture_limit as i32;
        if limit == 0 {
            return eval;
        }
        let n = (pos.plies_since_capture() as i32).min(limit);
        let draw = self.draw_score();
        draw + (eval - draw) * (2 * limit - n) / (2 * limit)
    }

    /// Searches a node where the window is open (`alpha` < score < `beta` is
    /// expected to matter): a principal-variation node.
    #[inline]
    fn pv_search(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        self.search::<Pv>(alpha, beta, depth, ply)
    }

    /// Searches a node with the zero window (`beta - 1`, `beta`): is the score
    /// at least `beta`? The question every move but the first is asked.
    #[inline]
    fn zw_search(&mut self, beta: i32, depth: i32, ply: usize) -> i32 {
        self.search::<NonPv>(beta - 1, beta, depth, ply)
    }

    /// The zero-window search of the reply to a null move (no second null
    /// move in a row).
    #[inline]
    fn null_reply_search(&mut self, beta: i32, depth: i32, ply: usize) -> i32 {
        self.search::<AfterNull>(beta - 1, beta, depth, ply)
    }

    /// The node function: alpha-beta over the moves of the current position,
    /// `depth` plies deep (then quiescence), `ply` plies from the root. What
    /// the node may do (keep a PV, try a null move) is its type `N`.
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
        self.pv_len[ply] = 0;
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.terminal_score(ply) {
            return score;
        }
        if let Some(score) = self.table_score(ply, depth) {
            return score;
        }
        let threatened = Self::den_threatened(self.game.position());
        let features = self.shared.features;
        let depth = if (threatened && features.den_extension)
            || (features.race_extension && !threatened && self.runner_arrived(self.game.position()))
        {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            let den_threats = self.shared.features.qs_den_threats;
            return self.quiescence(alpha, beta, ply, den_threats);
        }
        // Mate distance pruning: no line from here beats a mate already in hand.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
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
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Some(ScoreBound::Exact) => true,
                    Some(ScoreBound::Lower) => score >= beta,
                    Some(ScoreBound::Upper) => score <= alpha,
                    None => false,
                }
            {
                return score;
            }
        }
        // The table keeps the raw evaluation: the fade depends on the
        // no-capture count, which the key does not hold.
        let raw_eval = match entry {
            Some(e) if e.bound.is_some() || e.eval != 0 => e.eval,
            _ => self.static_eval(&pos),
        };
        let static_eval = self.fade_with_no_capture_count(raw_eval, &pos);
        // No table move to try first: this node's ordering is a guess, so
        // spend a ply less on it (internal iterative reduction).
        let depth =
            if tt_move.is_null() && depth >= params.iir_min_depth() && self.shared.features.iir {
                depth - 1
            } else {
                depth
            };

        if !pv_node && !threatened && beta.abs() < MATE_BOUND {
            if features.futility
                && depth <= params.futility_max_depth()
                && static_eval - params.futility_margin() * depth >= beta
            {
                return static_eval;
            }
            if features.null_move
                && N::NULL_MOVE_ALLOWED
                && depth >= params.null_move_min_depth()
                && static_eval >= beta
                && pos.occupied(pos.side_to_move()).count_ones() > 1
            {
                let r =
                    params.null_move_base_reduction() + depth / params.null_move_depth_divisor();
                self.game.make_null();
                let score = -self.null_reply_search(-beta + 1, depth - 1 - r, ply + 1);
                self.game.unmake();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Another thread searching this node near the root: this one reduces
        // its late moves more, to go elsewhere sooner.
        let crumbs = &self.shared.breadcrumbs;
        let crumb = if self.shared.features.breadcrumbs
            && self.shared.nodes.len() > 1
            && ply < BREADCRUMB_PLIES
        {
            crumbs.enter(self.id, key)
        } else {
            (false, false)
        };
        let _leave = LeaveOnDrop(crumb.1.then_some((crumbs, key)));
        let marked = crumb.0;
        let moves = self.game.legal_moves();
        let mut order = self.heuristics.order(
            &pos,
            &self.rules,
            &moves,
            tt_move,
            ply,
            self.race_guard(&pos),
        );
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut quiets_tried: [Move; MAX_MOVES] = [Move::NULL; MAX_MOVES];
        let mut quiet_count = 0;
        for i in 0..order.len() {
            let mv = order.pick(i);
            let capture = pos.is_capture(mv);
            if features.futility
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
            self.shared.tt.prefetch(pos.key_after(mv));
            self.make(mv);
            let score = if i == 0 {
                // The first move of a PV node gets the full window; elsewhere
                // the window already is zero.
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
                    if marked {
                        reduction += 1;
                    }
                    if self.shared.features.history_lmr {
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
    /// With `den_threats` (quiescence's first ply, `Search_QsDenThreats`), the
    /// quiet moves that step next to the enemy den are tried too.
    /// The caller has already counted the node and found it not terminal.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, den_threats: bool) -> i32 {
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
        let den = DEN[pos.side_to_move().index()].trailing_zeros() as usize;
        let danger_zone = NEIGHBOURS[den];
        // Squares next to the enemy den: a quiet step there threatens to win.
        let threat_zone = if den_threats && !threatened {
            let enemy_den = DEN[pos.side_to_move().opponent().index()].trailing_zeros() as usize;
            NEIGHBOURS[enemy_den]
        } else {
            0
        };
        let captures = if threat_zone != 0 {
            // Quiet steps next to the enemy den too: every legal move, filtered.
            let mut moves = self.game.legal_moves();
            moves.retain(|m| {
                let to = m.to().bit();
                pos.is_capture(m) || (threat_zone & to != 0 && threat_zone & m.from().bit() == 0)
            });
            moves
        } else {
            // Repetition never forbids a capture: these are legal moves.
            let mut captures = pos.generate_captures(&self.rules);
            if threatened {
                captures.retain(|m| danger_zone & m.to().bit() != 0);
            }
            captures
        };
        let mut order = self
            .heuristics
            .order(&pos, &self.rules, &captures, Move::NULL, ply, 0);
        for i in 0..order.len() {
            let mv = order.pick(i);
            self.make(mv);
            self.count_node();
            let score = if self.stopped {
                0
            } else {
                match self.terminal_score(ply + 1) {
                    Some(s) => -s,
                    None => -self.quiescence(-beta, -alpha, ply + 1, false),
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
/// gets its own code without run-time tests: whether it keeps a principal
/// variation (an open window) and whether it may try a null move.
trait NodeType {
    /// A principal-variation node: its window is open and it keeps a PV.
    const PV: bool;
    /// Whether null-move pruning may be tried here (not right after one).
    const NULL_MOVE_ALLOWED: bool;
}

/// A node on the principal variation.
struct Pv;
/// A node searched with a zero window.
struct NonPv;
/// The zero-window reply to a null move.
struct AfterNull;

impl NodeType for Pv {
    const PV: bool = true;
    const NULL_MOVE_ALLOWED: bool = true;
}

impl NodeType for NonPv {
    const PV: bool = false;
    const NULL_MOVE_ALLOWED: bool = true;
}

impl NodeType for AfterNull {
    const PV: bool = false;
    const NULL_MOVE_ALLOWED: bool = false;
}

/// Leaves a node's breadcrumb however the node returns.
struct LeaveOnDrop<'s>(Option<(&'s Breadcrumbs, u64)>);

impl Drop for LeaveOnDrop<'_> {
    #[inline]
    fn drop(&mut self) {
        if let Some((crumbs, key)) = self.0 {
            crumbs.leave(key);
        }
    }
}
