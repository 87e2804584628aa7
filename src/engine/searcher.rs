//! One search of a position: the options, the table and the helper threads
//! (lazy SMP) that [`Searcher::search`] runs, and the endgame tables' answer
//! at the root.

use super::control::SearchControl;
use super::eval::{self, EvalKind};
use super::limits::GoLimits;
use super::options::EngineOptions;
use super::params::{LmrTable, SearchParams};
use super::score;
use super::search::{self, Listener, PaddedCounter, SearchLimits, SearchResult, Shared, Worker};
use super::skill::Skill;
use super::time::{Clock, NO_CLOCK_MOVETIME_MS};
use super::tt::TranspositionTable;
use crate::rules::{Game, Move, Outcome, Repetition, Rules};
use crate::tb::{self, TableSet, Verdict};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Everything a search needs but the position: the options, the table and the
/// helper threads. Cheap to clone onto the search thread.
#[derive(Clone)]
pub struct Searcher {
    /// The engine's options.
    pub(super) options: EngineOptions,
    /// The transposition table, kept between searches.
    pub(super) tt: Arc<TranspositionTable>,
    /// Threads - 1 helpers for lazy SMP, kept between searches.
    pub(super) helpers: Option<Arc<rayon::ThreadPool>>,
    /// The late-move reductions of `options.params`, worked out when they change.
    pub(super) lmr: Arc<LmrTable>,
}

impl Searcher {
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

    /// One whole search of `game` on the calling thread and the helpers; then,
    /// under `infinite` and `ponder`, waits for the user to let the answer out.
    pub fn search(
        &self,
        game: &Game,
        limits: &GoLimits,
        control: &SearchControl,
        listener: &dyn Listener,
    ) -> SearchResult {
        let start = Instant::now();
        if let Some(outcome) = game.outcome() {
            control.wait_for_release(limits.infinite);
            return finished_result(outcome, game);
        }
        let tables = self.tables_for(game);
        let RootPlan {
            searchmoves,
            long_losses,
        } = match self.root_in_tables(tables, game, limits, start) {
            Ok(plan) => plan,
            Err(decided) => {
                listener.info(&table_info(&decided));
                control.wait_for_release(limits.infinite);
                return *decided;
            }
        };
        // Among the drawing moves every line is the tables' draw: reported
        // as one (`cp 0`), not as the search's contempt for it, unless the
        // search finds the game's history losing it (`Repetition=forbid`).
        let draw_listener = DrawListener(listener);
        let table_draw = long_losses.is_some();
        let listener: &dyn Listener = if table_draw { &draw_listener } else { listener };
        let options = &self.options;
        let tt = &*self.tt;
        tt.new_search();
        let side = game.position().side_to_move();
        // A root one capture away from the tables decides which table
        // position the game enters (under `forbid`, maybe one the history
        // squeezes).
        let entering = tables.is_some_and(|tb| {
            let largest = tb.max_pieces().min(options.tb_max_pieces);
            tb::piece_count(game.position()) == largest + 1
        });
        let emphasis = time_emphasis(game.rules(), table_draw, entering, &options.params);
        let clock = Clock::new(
            &limits.time,
            side,
            options.move_overhead_ms,
            emphasis,
            Arc::clone(&control.pondering),
        );
        if limits.time.lacks_mover_clock(side) {
            listener.message(&format!(
                "no clock for {side}, the side to move: searching {NO_CLOCK_MOVETIME_MS} ms"
            ));
        }
        let threads = options.threads.max(1);
        log::info!("search start: go {limits}; time {clock}; {threads} threads");
        let (mut search_limits, skill) = self.search_limits(game, limits, searchmoves, &clock);
        search_limits.long_losses = long_losses.unwrap_or_default();
        if let Some(tb) = tables.filter(|_| skill.is_none()) {
            search_limits.history_losses =
                self.captures_lost_by_history(tb, game, &clock, &search_limits, listener);
        }
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
        if let Some(skill) = skill {
            play_at_level(&skill, &mut result, game);
        } else if let Some(tb) = tables.filter(|_| table_draw && !limits.infinite) {
            self.hold_by_proof(tb, game, &clock, &search_limits, &mut result, listener);
        }
        if table_draw {
            result.score = as_table_draw(result.score);
            result
                .lines
                .iter_mut()
                .for_each(|(score, _)| *score = as_table_draw(*score));
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

impl Searcher {
    /// What the tables say of the root before any search: `Err` with the
    /// answer when they decide it and the user wants a move, not analysis
    /// (several lines, or thinking until `stop`, which searches a won or
    /// lost root too, each move scored by the tables one ply down); else the
    /// root moves to search and, where they are the tables' drawing moves,
    /// those of them into a loss too long for the no-capture limit.
    fn root_in_tables(
        &self,
        tables: Option<&TableSet>,
        game: &Game,
        limits: &GoLimits,
        start: Instant,
    ) -> Result<RootPlan, Box<SearchResult>> {
        let searchmoves = limits.searchmoves.clone();
        let Some(tb) = tables else {
            return Ok(RootPlan {
                searchmoves,
                long_losses: None,
            });
        };
        let analysing = limits.infinite || self.options.multipv > 1;
        match table_root(tb, game, limits, start) {
            TableRoot::Decided(result) if !analysing => Err(result),
            TableRoot::Decided(_) | TableRoot::Unknown => Ok(RootPlan {
                searchmoves,
                long_losses: None,
            }),
            TableRoot::Drawing { moves, long_losses } => Ok(RootPlan {
                searchmoves: moves,
                long_losses: Some(long_losses),
            }),
        }
    }

    /// Under `Repetition=forbid` a search among table draws can give up a
    /// root that holds: a loss the history forces on one path is stored
    /// with its position alone, and met again on another path whose
    /// history leaves a drawing move free (one game's root scored every
    /// move mated in 8 where one held, which a search of that move alone
    /// saw). Where the search scores the root lost, the proof with the
    /// history (exact, `tb::held_under_history`) decides; a move it proves to
    /// hold is played instead, scored as the draw it is.
    fn hold_by_proof(
        &self,
        tb: &TableSet,
        game: &Game,
        clock: &Clock,
        limits: &SearchLimits,
        result: &mut SearchResult,
        listener: &dyn Listener,
    ) {
        let percent = self.options.params.history_proof_percent();
        let lost = result.score <= -score::TB_BOUND;
        if game.rules().repetition != Repetition::Forbid || percent == 0 || !lost {
            return;
        }
        if limits.multipv > 1 {
            return; // several lines are analysis: the search's own
        }
        let budget = tb::ProofBudget {
            positions: PROOF_POSITIONS,
            deadline: clock.deadline_after_search(percent as u64),
            progress: None,
        };
        let memory = &mut tb::ProofMemory::new(2 * PROOF_POSITIONS as usize);
        let (verdict, spent) = tb::held_under_history(tb, game, budget, memory);
        log::info!(
            "root given up: the history proof says {} in {spent} positions",
            verdict.word()
        );
        let tb::HistoryVerdict::Held { holding, .. } = verdict else {
            return;
        };
        let allowed = |m: &Move| limits.searchmoves.is_empty() || limits.searchmoves.contains(m);
        let Some(&hold) = holding.iter().find(|m| allowed(m)) else {
            return;
        };
        listener.message(&format!(
            "the search saw every move lose; the history proof holds the draw with {hold} ({spent} positions)"
        ));
        *result = SearchResult {
            best_move: hold,
            ponder_move: None,
            score: 0,
            pv: vec![hold],
            lines: vec![(0, vec![hold])],
            ..std::mem::take(result)
        };
    }

    /// Under `Repetition=forbid`, the root's captures into a table draw
    /// that the opponent, to move with the history begun afresh by the
    /// capture, is proven to win: the tables' draw there is the history's
    /// loss from the start (an attacker that can wait squeezes a defender
    /// out of fresh positions), which no search of the root's depth sees.
    /// The proofs share the budget of [`PROOF_POSITIONS`] and the clock's
    /// share for them; a capture left unsettled is searched as before.
    fn captures_lost_by_history(
        &self,
        tb: &TableSet,
        game: &Game,
        clock: &Clock,
        limits: &SearchLimits,
        listener: &dyn Listener,
    ) -> Vec<Move> {
        let percent = self.options.params.history_proof_percent();
        if game.rules().repetition != Repetition::Forbid || percent == 0 {
            return Vec::new();
        }
        let pos = game.position();
        let deadline = clock.deadline_after_search(percent as u64);
        let mut memory = tb::ProofMemory::new(2 * PROOF_POSITIONS as usize);
        let mut spent = 0;
        let mut lost = Vec::new();
        for &m in game.legal_moves().iter() {
            let searched = limits.searchmoves.is_empty() || limits.searchmoves.contains(&m);
            if !searched || !pos.is_capture(m) {
                continue;
            }
            let mut after = game.clone();
            after.make(m);
            let small = tb::piece_count(after.position()) <= self.options.tb_max_pieces;
            if !small || tb.probe(after.position()) != Some(Verdict::Draw) {
                continue;
            }
            let budget = tb::ProofBudget {
                positions: PROOF_POSITIONS.saturating_sub(spent),
                deadline,
                progress: None,
            };
            let (won, nodes) = tb::won_under_history(tb, &after, budget, &mut memory);
            spent += nodes;
            if let tb::WinProof::Won(_) = won {
                listener.message(&format!(
                    "{m} captures into a table draw the history loses ({nodes} positions)"
                ));
                lost.push(m);
            }
        }
        lost
    }

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
        let mut bounds = SearchLimits {
            depth: limits.depth.map(|d| d.max(1) as i32),
            nodes: limits.nodes,
            mate: limits.mate.map(|m| m as i32),
            searchmoves,
            multipv: options.multipv,
            long_losses: Vec::new(),
            history_losses: Vec::new(),
        };
        if game.legal_moves().len() == 1 && clock.is_on_clock() && !limits.ponder {
            // One legal move: play it at once, with a score from a one-ply look.
            bounds.depth = Some(1);
        }
        let skill =
            Skill::from_options(options.skill_level, options.limit_strength, options.uci_elo);
        if let Some(skill) = skill {
            // A weaker level searches less and keeps a few lines to choose from.
            bounds.multipv = bounds.multipv.max(skill.lines());
            let depth = skill.depth_cap();
            bounds.depth = Some(bounds.depth.map_or(depth, |d| d.min(depth)));
            let nodes = skill.node_cap();
            bounds.nodes = Some(bounds.nodes.map_or(nodes, |n| n.min(nodes)));
            log::info!(
                "skill level {:.2}: depth {depth}, {nodes} nodes",
                skill.level()
            );
        }
        (bounds, skill)
    }
}

/// Positions the proof of a given-up root may expand, whatever the clock
/// leaves, and the states its memory keeps (4.5 MB at most, taken only
/// where a proof runs); the roots seen settled in 1,500 to 15,000.
const PROOF_POSITIONS: u64 = 200_000;

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

/// The root moves to search, as the tables see them.
struct RootPlan {
    /// The moves to search (empty: every legal move).
    searchmoves: Vec<Move>,
    /// At a table-draw root, those of them into a loss too long for the
    /// no-capture limit; `None` where the root is no table draw.
    long_losses: Option<Vec<Move>>,
}

/// What the tables say at the root.
enum TableRoot {
    /// A win or loss that stands under the no-capture limit: the fastest win
    /// or the longest loss is played without a search.
    Decided(Box<SearchResult>),
    /// A draw: the search chooses among the moves that keep it and those
    /// into a loss the no-capture limit may overturn (`long_losses`, scored
    /// below the draws: [`SearchLimits::long_losses`]).
    Drawing {
        moves: Vec<Move>,
        long_losses: Vec<Move>,
    },
    /// Not in the tables, or a verdict the no-capture limit may overturn.
    Unknown,
}

/// The share of the usual time a move plans, percent: more
/// (`TABLE_DRAW_TIME_PERCENT`) where the root is one capture from the
/// tables (`entering`) and, under `Repetition=forbid`, where it is a table
/// draw the history may squeeze; the usual elsewhere.
fn time_emphasis(rules: &Rules, table_draw: bool, entering: bool, params: &SearchParams) -> u64 {
    if entering || (table_draw && rules.repetition == Repetition::Forbid) {
        params.table_draw_time_percent() as u64
    } else {
        100
    }
}

/// The root's legal moves ranked by the tables (repetition respected), with
/// what the best one means; see [`TableRoot`].
fn table_root(tb: &TableSet, game: &Game, limits: &GoLimits, start: Instant) -> TableRoot {
    let pos = game.position();
    if !tb.holds_size_of(pos) {
        return TableRoot::Unknown;
    }
    let Some(ranked) = tb.rank_moves(pos) else {
        return TableRoot::Unknown;
    };
    let legal = game.legal_moves();
    let ranked: Vec<(Move, Verdict)> = ranked
        .into_iter()
        .filter(|(m, _)| {
            legal.contains(m) && (limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        })
        .collect();
    let Some(&(best, verdict)) = ranked.first() else {
        return TableRoot::Unknown;
    };
    let left = tb::plies_before_limit(game.rules(), pos);
    let Some(score) = score::table_score(verdict, 0, left) else {
        if verdict == Verdict::Draw {
            // A loss too long for the no-capture limit may be a draw too
            // (unless the opponent captures on the way): the search judges
            // it with the others. Leaving it out can leave only draws the
            // history loses.
            let long = |v: &Verdict| matches!(*v, Verdict::Loss(plies) if plies > left);
            let drawing = ranked
                .iter()
                .filter(|(_, v)| *v == Verdict::Draw || long(v));
            return TableRoot::Drawing {
                moves: drawing.map(|(m, _)| *m).collect(),
                long_losses: ranked
                    .iter()
                    .filter(|(_, v)| long(v))
                    .map(|(m, _)| *m)
                    .collect(),
            };
        }
        return TableRoot::Unknown;
    };
    let pv = table_line(tb, game, best);
    let tbhits = ranked.len() as u64 + pv.len() as u64;
    let time_ms = start.elapsed().as_millis() as u64;
    TableRoot::Decided(Box::new(SearchResult {
        best_move: best,
        ponder_move: pv.get(1).copied(),
        score,
        depth: 1,
        nodes: tbhits,
        lines: vec![(score, pv.clone())],
        seldepth: pv.len() as i32,
        pv,
        time_ms,
        hashfull: 0,
        outcome: None,
        tbhits,
    }))
}

/// The one `info` line of a root the tables decided.
fn table_info(result: &SearchResult) -> search::SearchInfo {
    search::SearchInfo {
        depth: result.depth,
        seldepth: result.seldepth,
        multipv: 1,
        score: result.score,
        nodes: result.nodes,
        time_ms: result.time_ms,
        hashfull: 0,
        pv: result.pv.clone(),
        tbhits: result.tbhits,
    }
}

/// The score of a line among the tables' drawing moves: the draw (0), or a
/// win or loss the search found because the game's history forbids moves the
/// tables count on.
fn as_table_draw(score: i32) -> i32 {
    if score.abs() >= score::TB_BOUND {
        score
    } else {
        0
    }
}

/// Reports every line of a search as the tables' draw (see [`as_table_draw`]).
struct DrawListener<'a>(&'a dyn Listener);

impl Listener for DrawListener<'_> {
    fn info(&self, info: &search::SearchInfo) {
        let score = as_table_draw(info.score);
        self.0.info(&search::SearchInfo {
            score,
            ..info.clone()
        });
    }

    fn message(&self, text: &str) {
        self.0.message(text);
    }
}

/// The line both sides play by the tables from `first` on, to the end of the
/// game (at most 64 plies shown).
fn table_line(tb: &TableSet, game: &Game, first: Move) -> Vec<Move> {
    let mut g = game.clone();
    let mut line = vec![first];
    g.make(first);
    while line.len() < 64 && g.outcome().is_none() {
        let legal = g.legal_moves();
        let next = tb
            .rank_moves(g.position())
            .and_then(|r| r.into_iter().find(|(m, _)| legal.contains(m)));
        let Some((m, _)) = next else { break };
        g.make(m);
        line.push(m);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_time_one_capture_from_the_tables_and_at_a_table_draw_under_forbid() {
        let params = SearchParams::default();
        let under = |repetition| Rules {
            repetition,
            ..Rules::default()
        };
        let more = params.table_draw_time_percent() as u64;
        assert!(more > 100);
        let forbid = under(Repetition::Forbid);
        assert_eq!(time_emphasis(&forbid, true, false, &params), more);
        assert_eq!(time_emphasis(&forbid, false, true, &params), more);
        assert_eq!(time_emphasis(&forbid, false, false, &params), 100);
        for rules in [under(Repetition::Draw), under(Repetition::None)] {
            // A table draw there is a draw: nothing to squeeze.
            assert_eq!(time_emphasis(&rules, true, false, &params), 100);
            assert_eq!(time_emphasis(&rules, false, true, &params), more);
        }
    }
}
