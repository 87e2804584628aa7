//! One search of a position on the engine's threads: the options, the
//! transposition table and the helper threads (lazy SMP) kept between
//! searches, and a search's steps from `go` to its answer.

use super::control::SearchControl;
use super::eval::{self, EvalKind};
use super::limits::GoLimits;
use super::options::EngineOptions;
use super::params::LmrTable;
use super::score;
use super::search::{self, Listener, PaddedCounter, SearchLimits, SearchResult, Shared, Worker};
use super::skill::Skill;
use super::tablebases::{self, DrawListener, RootVerdict};
use super::time::{Clock, NO_CLOCK_MOVETIME_MS};
use super::tt::TranspositionTable;
use crate::rules::{Game, Move, Outcome};
use crate::tb::TableSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Everything a search needs but the position: the options, the table and the
/// helper threads. Cheap to clone onto the search thread.
#[derive(Clone)]
pub struct SearchThreads {
    /// The engine's options.
    pub(super) options: EngineOptions,
    /// The transposition table, kept between searches.
    pub(super) tt: Arc<TranspositionTable>,
    /// Threads - 1 helpers for lazy SMP, kept between searches.
    pub(super) helpers: Option<Arc<rayon::ThreadPool>>,
    /// The late-move reductions of `options.params`, worked out when they change.
    pub(super) lmr: Arc<LmrTable>,
}

impl SearchThreads {
    /// The endgame tables that answer for `game`: loaded, made under its
    /// rules, and holding positions of its size.
    fn tables_for(&self, game: &Game) -> Option<&TableSet> {
        let tb = self.options.tablebases.as_deref()?;
        if !tb.answers_for(game.rules()) {
            log::info!("tables made under other rules: not used");
            return None;
        }
        (self.options.tb_max_pieces >= 2).then_some(tb)
    }

    /// Forgets every entry of the table (a new game, each bench position).
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// One whole search of `game` on the calling thread and the helpers;
    /// then, under `infinite` and `ponder`, waits for the user to let the
    /// answer out.
    pub fn search(
        &self,
        game: &Game,
        limits: &GoLimits,
        control: &SearchControl,
        listener: &dyn Listener,
    ) -> SearchResult {
        // Step 1. A finished game has no move.
        let start = Instant::now();
        if let Some(outcome) = game.outcome() {
            control.wait_for_release(limits.infinite);
            return finished_result(outcome, game);
        }

        // Step 2. The endgame tables at the root: a win or loss they decide
        // is the answer; a draw is searched among its drawing moves.
        let tables = self.tables_for(game);
        let root = match tablebases::at_root(tables, game, limits, &self.options, start) {
            RootVerdict::Decided(decided) => {
                listener.info(&tablebases::decided_info(&decided));
                control.wait_for_release(limits.infinite);
                return *decided;
            }
            RootVerdict::Search(root) => root,
        };

        // Step 3. The clock and the limits the main thread keeps to.
        let options = &self.options;
        let side = game.position().side_to_move();
        let clock = Clock::new(
            &limits.time,
            side,
            options.move_overhead_ms,
            root.time_percent,
            Arc::clone(&control.pondering),
        );
        if limits.time.lacks_mover_clock(side) {
            listener.message(&format!(
                "no clock for {side}, the side to move: searching {NO_CLOCK_MOVETIME_MS} ms"
            ));
        }
        let threads = options.threads.max(1);
        log::info!("search start: go {limits}; time {clock}; {threads} threads");
        let (mut search_limits, skill) = self.search_limits(game, limits, root.searchmoves, &clock);
        if let Some(tb) = tables.filter(|_| skill.is_none()) {
            search_limits.root_caps = tablebases::captures_lost_by_history(
                tb,
                game,
                &clock,
                &search_limits,
                options,
                listener,
            );
        }

        // Step 4. The threads search, sharing the table.
        let draw_listener = DrawListener(listener);
        let listener: &dyn Listener = if root.table_draw {
            &draw_listener
        } else {
            listener
        };
        let tt = &*self.tt;
        tt.new_search();
        let done_thinking = AtomicBool::new(false);
        // The net's bias for the rules of this game (the rule inputs): the
        // rules change with `setoption`, the net with `EvalFile`.
        let net = (options.eval == EvalKind::Nnue).then(|| options.net.for_rules(game.rules()));
        let shared = Shared {
            tt,
            stop: &done_thinking,
            user_stop: &control.stop,
            nodes: (0..threads).map(|_| PaddedCounter::default()).collect(),
            weights: &eval::WEIGHTS,
            net: net.as_ref(),
            features: options.features,
            params: &options.params,
            lmr: &self.lmr,
            contempt: options.contempt,
            tb: tables,
            tb_max_pieces: options.tb_max_pieces,
            tbhits: Default::default(),
            iterations: Default::default(),
            breadcrumbs: Default::default(),
        };
        let mut result = self.run_threads(&shared, game, &clock, &search_limits, listener);

        // Step 5. The answer: a weaker level's choice among its lines, a
        // table draw reported as the draw, and the counters.
        if let Some(skill) = skill {
            play_at_level(&skill, &mut result, game);
        }
        if root.table_draw {
            tablebases::report_as_draw(&mut result);
        }
        result.nodes = shared.total_nodes();
        result.tbhits = shared.tbhits.load(Ordering::Relaxed);
        result.time_ms = start.elapsed().as_millis() as u64;
        result.hashfull = tt.hashfull();
        log::info!(
            "search done thinking: depth {} nodes {} time {} ms best {}",
            result.depth,
            result.nodes,
            result.time_ms,
            result.best_move
        );
        control.wait_for_release(limits.infinite);
        result
    }

    /// The search on the calling thread (the main worker, which alone reports
    /// and watches the clock) and on `Threads - 1` helpers, which stop with it.
    fn run_threads(
        &self,
        shared: &Shared,
        game: &Game,
        clock: &Clock,
        limits: &SearchLimits,
        listener: &dyn Listener,
    ) -> SearchResult {
        let threads = shared.nodes.len();
        let think = || {
            let mut main = Worker::new(shared, game.clone(), 0, Some(clock), limits.clone());
            let result = main.iterate(listener);
            main.flush_nodes();
            // The helpers stop with the main thread, whatever stopped it.
            shared.stop.store(true, Ordering::Relaxed);
            result
        };
        match &self.helpers {
            Some(pool) if threads > 1 => pool.in_place_scope(|scope| {
                for id in 1..threads {
                    let (game, limits) = (game.clone(), limits.clone());
                    scope.spawn(move |_| {
                        let mut worker = Worker::new(shared, game, id, None, limits);
                        worker.iterate(&search::Silent);
                        worker.flush_nodes();
                    });
                }
                think()
            }),
            _ => think(),
        }
    }
}

impl SearchThreads {
    /// What the main thread is limited by: the user's limits, one ply for
    /// a single legal move on the clock, and the caps of a weaker level
    /// (which also keeps a few lines to choose from).
    fn search_limits(
        &self,
        game: &Game,
        limits: &GoLimits,
        searchmoves: Vec<Move>,
        clock: &Clock,
    ) -> (SearchLimits, Option<Skill>) {
        let options = &self.options;
        let mut applied = SearchLimits {
            depth: limits.depth.map(|d| d.max(1) as i32),
            nodes: limits.nodes,
            mate: limits.mate.map(|m| m as i32),
            searchmoves,
            multipv: options.multipv,
            root_caps: Vec::new(),
        };
        if game.legal_moves().len() == 1 && clock.is_on_clock() && !limits.ponder {
            // One legal move: play it at once, with a score from a one-ply look.
            applied.depth = Some(1);
        }
        let skill =
            Skill::from_options(options.skill_level, options.limit_strength, options.uci_elo);
        if let Some(skill) = skill {
            // A weaker level searches less and keeps a few lines to choose from.
            applied.multipv = applied.multipv.max(skill.lines());
            let depth = skill.depth_cap();
            applied.depth = Some(applied.depth.map_or(depth, |d| d.min(depth)));
            let nodes = skill.node_cap();
            applied.nodes = Some(applied.nodes.map_or(nodes, |n| n.min(nodes)));
            log::info!(
                "skill level {:.2}: depth {depth}, {nodes} nodes",
                skill.level()
            );
        }
        (applied, skill)
    }
}

/// A weaker level's move: one of its lines, chosen by [`Skill::choose`].
fn play_at_level(skill: &Skill, result: &mut SearchResult, game: &Game) {
    if result.lines.len() < 2 {
        return;
    }
    let scores: Vec<i32> = result.lines.iter().map(|(score, _)| *score).collect();
    let (score, pv) = result.lines[skill.choose(&scores, game.position().key())].clone();
    result.best_move = pv[0];
    result.ponder_move = pv.get(1).copied();
    result.score = score;
    result.pv = pv;
}

/// Helper threads for `threads` search threads in all (none for one).
pub(super) fn helper_pool(
    threads: usize,
) -> Result<Option<Arc<rayon::ThreadPool>>, rayon::ThreadPoolBuildError> {
    if threads <= 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads - 1)
        .thread_name(|i| format!("search helper {}", i + 1))
        .build()
        .map(|pool| Some(Arc::new(pool)))
}

/// The result a finished game gets from `go`: no move, and a score saying who won.
fn finished_result(outcome: Outcome, game: &Game) -> SearchResult {
    let score = match outcome {
        Outcome::Draw(_) => 0,
        Outcome::Win { winner, .. } if winner == game.position().side_to_move() => score::MATE,
        Outcome::Win { .. } => -score::MATE,
    };
    SearchResult {
        best_move: Move::NULL,
        score,
        outcome: Some(outcome),
        ..SearchResult::default()
    }
}
