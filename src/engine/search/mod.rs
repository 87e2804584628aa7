//! Alpha-beta search: iterative deepening (`iterate.rs`), principal
//! variation search with quiescence over captures and the pruning this game
//! allows (`node.rs`). One [`Worker`] per thread; they share only the
//! transposition table, the stop flags and the iterations they complete
//! (lazy SMP, `shared.rs`).
//!
//! Den threats play the role of checks: a side that can enter the enemy den wins
//! at once, so every node first looks for that move (a one-ply win, scored
//! exactly) and quiescence never stands pat while the enemy has a piece next to
//! its den; it may then only take that piece. The search thus sees every den
//! entry within its horizon without extending anything.

use super::eval::{evaluate, standoff_scaled};
use super::nnue::{Accumulator, AccumulatorStack};
use super::ordering::Heuristics;
use super::score::{MATE, table_score};
use super::tablebases::room::{RoomCache, drawing_room, history_may_lose_draw};
use super::time::Clock;
use crate::rules::{DEN_APPROACH, Game, Move, Position, Repetition, Rules, Side};
use std::sync::atomic::Ordering;

mod iterate;
mod node;
mod shared;
pub use shared::{
    Features, Listener, MAX_PLY, PaddedCounter, SearchInfo, SearchLimits, SearchResult, Shared,
    Silent,
};

/// A root move with its score and line, kept between iterations.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Its score in the iteration under way; `None` until searched in it
    /// (or where it failed low, so that only an upper bound is known).
    score: Option<i32>,
    /// Its score in the iteration before, `None` before the first.
    previous_score: Option<i32>,
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
    limits: SearchLimits,
    /// The net's hidden values along the current line, when the net evaluates.
    accumulators: Option<AccumulatorStack<'a>>,
    /// Each side's room to keep a table draw, by position.
    rooms: RoomCache,
}

impl<'a> Worker<'a> {
    /// A worker for thread `id` (0 is the main thread, which alone watches the
    /// clock and the limits).
    pub fn new(
        shared: &'a Shared<'a>,
        game: Game,
        id: usize,
        clock: Option<&'a Clock>,
        limits: SearchLimits,
    ) -> Worker<'a> {
        let rules = *game.rules();
        let legal = game.legal_moves();
        let root_moves = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: None,
                previous_score: None,
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
            limits,
            rooms: RoomCache::new(),
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

    /// Takes back the last [`Worker::make`].
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
                // search took: the incremental values are the position's. A
                // wrong step stays wrong in every position below it, so one
                // evaluation in 16 checked finds it at a sixteenth of the
                // cost to debug builds (which the tests run).
                debug_assert!(
                    !self.nodes.is_multiple_of(16)
                        || self.shared.net.is_some_and(
                            |net| *stack.current() == Accumulator::from_position(net, pos)
                        )
                );
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
                let out_of_nodes = self.limits.nodes.is_some_and(|n| total >= n);
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
        Self::den_approached(pos, 1)
    }

    /// Whether the enemy has a piece at most `steps` steps from our den.
    #[inline]
    fn den_approached(pos: &Position, steps: usize) -> bool {
        let us = pos.side_to_move();
        DEN_APPROACH[us.index()][steps] & pos.occupied(us.opponent()) != 0
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
        if let Some(step) = pos.unstoppable_den_step(&self.rules) {
            // Won in two moves, unless the count or a repetition gets there first.
            let limit = self.rules.no_capture_limit;
            let in_time = limit == 0 || pos.plies_since_capture() + 3 < limit;
            if in_time && !self.game.would_repeat_third(step) {
                return Some(MATE - ply as i32 - 3);
            }
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
            crate::tb::Verdict::Draw if history_may_lose_draw(&self.game, depth) => return None,
            crate::tb::Verdict::Draw => {
                let params = self.shared.params;
                self.draw_score() + drawing_room(&mut self.rooms, tb, &self.game, params)?
            }
            v => table_score(
                v,
                ply,
                crate::tb::plies_before_limit(&self.rules, self.game.position()),
            )?,
        };
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        Some(score)
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
    /// count grows (`NO_CAPTURE_FADE_PERCENT` of it kept at the limit): a side
    /// that is better but shuffles sees its advantage fade, so it prefers the
    /// capture (or den attack) that resets the count.
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
        let n = i64::from((pos.plies_since_capture() as i32).min(limit));
        let limit = i64::from(limit);
        let faded = i64::from(100 - self.shared.params.no_capture_fade_percent());
        let draw = self.draw_score();
        let kept = i64::from(eval - draw) * (100 * limit - faded * n) / (100 * limit);
        draw + kept as i32
    }
}
