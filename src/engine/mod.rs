//! The engine: one object owning the game, the options, the transposition table
//! and the running search. The protocol loop, bench and the tools all drive it
//! the same way; it never reads input itself.

pub mod bench;
mod control;
pub mod eval;
mod limits;
pub mod nnue;
mod options;
pub mod ordering;
pub mod params;
pub mod score;
pub mod search;
pub mod skill;
mod tablebases;
mod threads;
pub mod time;
pub mod tt;

pub use control::SearchControl;
pub use limits::{GoLimits, MAX_DEPTH};
pub use options::{DEFAULT_CONTEMPT, EngineOptions, name as option};
pub use threads::SearchThreads;

use crate::rules::{Game, GameError, RULE_OPTIONS, Rules, Side};
use crate::util::options::{OptionError, OptionKind};
use control::{FinishOnDrop, SearchThread};
use eval::EvalKind;
use options::{ENGINE_OPTIONS, SEARCH_SWITCHES, engine_option, spin};
use params::SearchParams;
use search::{Listener, SearchResult};
use std::sync::Arc;
use threads::helper_pool;
use tt::TranspositionTable;

/// What a search is told when it starts and what the caller hears back.
pub type OnDone = Box<dyn FnOnce(SearchResult) + Send>;

/// Why `go` could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// No valid position was set (none yet, or the last one was rejected).
    #[error("no valid position")]
    NoPosition,
}

/// The static evaluation of a position split into the terms people read, as
/// `eval` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    /// Whose view the scores take.
    pub side_to_move: Side,
    /// The net's description when the net evaluated; `None` for the linear
    /// evaluation.
    pub net: Option<String>,
    /// Each term and its centipawns (the net is one term, `nnue`).
    pub terms: Vec<(&'static str, i32)>,
    /// The sum of the terms: the evaluation.
    pub total: i32,
}

/// The engine the protocol and every tool drive: options, rules, the game, the search thread.
pub struct Engine {
    rules: Rules,
    game: Option<Game>,
    threads: SearchThreads,
    /// Started at the first task run in the background.
    thread: Option<SearchThread>,
    /// The control of the last task sent to the thread, until waited for.
    running: Option<Arc<SearchControl>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default options, the default rules, the start position.
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        let rules = Rules::default();
        Engine {
            rules,
            game: Some(Game::new(rules, crate::rules::Position::startpos())),
            threads: SearchThreads {
                tt: Arc::new(
                    TranspositionTable::new(options.hash_mb).expect("the default table fits"),
                ),
                helpers: None,
                lmr: Arc::new(options.params.lmr_table()),
                options,
            },
            thread: None,
            running: None,
        }
    }

    /// Every option, engine options first, with its kind: what `uci` prints.
    /// The hidden options ([`Engine::hidden_options`]) are settable but
    /// listed only by a build with the `tune` feature, for tuners and match
    /// scripts that want them listed.
    pub fn option_list() -> Vec<(&'static str, OptionKind)> {
        let defaults = EngineOptions::default();
        let hidden = if cfg!(feature = "tune") {
            Engine::hidden_options()
        } else {
            Vec::new()
        };
        ENGINE_OPTIONS
            .iter()
            .map(|o| (o.name, (o.kind)(&defaults)))
            .chain(hidden)
            .chain(RULE_OPTIONS.iter().map(|o| (o.name, o.kind.clone())))
            .collect()
    }

    /// The hidden options: the search's feature switches (`Search_*`) and
    /// its tunable parameters, each a spin.
    pub fn hidden_options() -> Vec<(&'static str, OptionKind)> {
        let defaults = EngineOptions::default();
        let switches = SEARCH_SWITCHES
            .iter()
            .map(|o| (o.name, (o.kind)(&defaults)));
        let params = params::PARAMS.iter().map(|p| {
            let kind = spin(p.default.into(), p.min.into(), p.max.into());
            (p.name, kind)
        });
        switches.chain(params).collect()
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The engine options in force (the rule options are in [`Engine::rules`]).
    pub fn options(&self) -> &EngineOptions {
        &self.threads.options
    }

    /// What searches with the engine's options and table (bench).
    pub fn threads(&self) -> &SearchThreads {
        &self.threads
    }

    /// The static evaluation of the current position by the evaluation in
    /// force, term by term; `None` without a valid position.
    pub fn eval_terms(&self) -> Option<EvalTerms> {
        let game = self.game.as_ref()?;
        let pos = game.position();
        let options = &self.threads.options;
        let (net, mut terms) = match options.eval {
            EvalKind::Nnue => (
                Some(options.net.description().to_string()),
                vec![(
                    "nnue",
                    options.net.for_rules(game.rules()).evaluate_position(pos),
                )],
            ),
            EvalKind::Linear => (
                None,
                eval::term_scores(pos, game.rules(), &eval::WEIGHTS).to_vec(),
            ),
        };
        let whole: i32 = terms.iter().map(|(_, v)| v).sum();
        let percent = options.params.standoff_percent();
        let scaled = eval::standoff_scaled(whole, pos, game.rules(), percent);
        if scaled != whole {
            terms.push(("standoff", scaled - whole));
        }
        Some(EvalTerms {
            side_to_move: pos.side_to_move(),
            net,
            total: scaled,
            terms,
        })
    }

    /// A warning when the evaluation in force cannot see the rules in force:
    /// the net has no input for some of them, so it evaluates as under the
    /// default rules (`docs/nnue.md`, "Rule inputs"). `None` when it can, or
    /// with the linear evaluation (which reads the rules itself).
    pub fn eval_warning(&self) -> Option<String> {
        let options = &self.threads.options;
        if options.eval != EvalKind::Nnue {
            return None;
        }
        let missing = options.net.missing_rules(&self.rules);
        // One short line: what the net lacks (its description, the training
        // summary, is for `eval` to show).
        (!missing.is_empty()).then(|| {
            format!(
                "the net has no input for {}: it evaluates as under the default rules",
                missing.join(", ")
            )
        })
    }

    /// The current game, if a valid position is set.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Whether a search (or another background task) is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|c| !c.is_finished())
    }

    /// Sets options given as `(name, value)` pairs, in order, as the tools
    /// pass them on from their command lines; stops at the first refusal.
    pub fn set_options(&mut self, settings: &[(String, String)]) -> Result<(), OptionError> {
        settings
            .iter()
            .try_for_each(|(name, value)| self.set_option(name, Some(value)))
    }

    /// Sets an option by name (any case); `value` is `None` for buttons. A valid
    /// value ends a running search first (as `stop` would); a refused one leaves
    /// everything as it was. A rule option replays the current game under the new
    /// rules; if a move of it is illegal under them the engine holds no position.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        if let Some(param) = SearchParams::find(name) {
            return self.set_param(param, value.unwrap_or(""));
        }
        let Some(option) = engine_option(name) else {
            let mut rules = self.rules;
            rules.set(name, value.unwrap_or(""))?;
            log::info!("option {name} = {}", value.unwrap_or(""));
            self.set_rules(rules);
            return Ok(());
        };
        let name = option.name;
        let kind = (option.kind)(&EngineOptions::default());
        kind.check_button(name, value)?;
        let value = value.unwrap_or("");
        let mut o = self.threads.options.clone();
        (option.apply)(&mut o, &kind, name, value)?;
        // The table's static evaluations belong to the evaluation that wrote them.
        let eval_changed =
            o.eval != self.threads.options.eval || !Arc::ptr_eq(&o.net, &self.threads.options.net);
        self.end_search();
        let refused = |expected: String| OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            expected,
        };
        if o.threads != self.threads.options.threads {
            self.threads.helpers = helper_pool(o.threads)
                .map_err(|e| refused(format!("threads that can be started ({e})")))?;
        }
        if o.hash_mb != self.threads.options.hash_mb {
            // Drop the old table first so that both never live at once.
            self.threads.tt = Arc::new(TranspositionTable::new(1).expect("a 1 MB table"));
            match TranspositionTable::new(o.hash_mb) {
                Ok(tt) => self.threads.tt = Arc::new(tt),
                Err(why) => {
                    self.threads.tt = Arc::new(
                        TranspositionTable::new(self.threads.options.hash_mb)
                            .expect("the old size fit"),
                    );
                    return Err(refused(why.to_string()));
                }
            }
        }
        if name == option::CLEAR_HASH || eval_changed {
            self.threads.clear_hash();
        }
        log::info!("option {name} = {value}");
        let warned = self.eval_warning();
        self.threads.options = o;
        self.warn_if_new(warned);
        Ok(())
    }

    /// Logs [`Engine::eval_warning`] if there is one and it is not `warned`,
    /// the one before the change: said once when the net and the rules stop
    /// matching, not at every option after.
    fn warn_if_new(&self, warned: Option<String>) {
        if let Some(warning) = self.eval_warning()
            && Some(&warning) != warned.as_ref()
        {
            log::warn!("{warning}");
        }
    }

    /// Sets a search parameter (a hidden option): a running search ends first.
    fn set_param(&mut self, param: &params::Param, value: &str) -> Result<(), OptionError> {
        let kind = spin(param.default.into(), param.min.into(), param.max.into());
        let value = kind.parse_int(param.name, value.trim())? as i32;
        self.end_search();
        let mut params = self.threads.options.params.clone();
        params
            .set(param, value)
            .expect("parse_int checked the range");
        if params.lmr_table() != *self.threads.lmr {
            self.threads.lmr = Arc::new(params.lmr_table());
        }
        log::info!("option {} = {value}", param.name);
        self.threads.options.params = params;
        Ok(())
    }

    /// Puts `rules` in force, as setting each rule option would: a running
    /// search ends, and the current game is replayed under them (if a move of
    /// it is illegal under them the engine holds no position).
    pub fn set_rules(&mut self, rules: Rules) {
        self.end_search();
        if rules != self.rules {
            let warned = self.eval_warning();
            self.rules = rules;
            self.warn_if_new(warned);
            self.game = self.game.as_ref().and_then(|g| replay(g, rules));
        }
    }

    /// Forgets everything learnt (the table) for a new game.
    pub fn new_game(&mut self) {
        self.end_search();
        log::info!("new game: the table is cleared");
        self.threads.clear_hash();
    }

    /// Sets the position from its text and moves. On error the engine holds no
    /// position until the next valid one.
    pub fn set_position<S: AsRef<str>>(&mut self, fen: &str, moves: &[S]) -> Result<(), GameError> {
        self.end_search();
        match Game::from_fen_and_moves(self.rules, fen, moves) {
            Ok(game) => {
                log::debug!("position {} after {} moves", fen, moves.len());
                self.game = Some(game);
                Ok(())
            }
            Err(e) => {
                log::debug!("position refused: {e}");
                self.game = None;
                Err(e)
            }
        }
    }

    /// Starts a search on the search thread and returns at once. `on_done` gets
    /// the result exactly once, after `listener` heard the last progress line. A
    /// search still running is stopped first (its result reported as usual).
    pub fn go(
        &mut self,
        limits: GoLimits,
        listener: Arc<dyn Listener>,
        on_done: OnDone,
    ) -> Result<(), GoError> {
        self.end_search();
        let game = self.game.clone().ok_or(GoError::NoPosition)?;
        self.run_in_background(limits.ponder, move |threads, control| {
            let result = threads.search(&game, &limits, control, &*listener);
            log::info!(
                "bestmove {} after depth {}, {} nodes",
                result.best_move,
                result.depth,
                result.nodes
            );
            on_done(result);
        });
        Ok(())
    }

    /// Answers a `go` that has nothing to search (no position) when a
    /// search under `limits` would answer: at once, or, under `infinite` and
    /// `ponder`, on the search thread once `stop` (or `ponderhit`) lets it
    /// out, so that the GUI gets its one answer when it waits for it and a
    /// command sent meanwhile is one sent during a search.
    pub fn answer_unsearched(&mut self, limits: &GoLimits, answer: impl FnOnce() + Send + 'static) {
        if !limits.infinite && !limits.ponder {
            answer();
            return;
        }
        let infinite = limits.infinite;
        self.run_in_background(limits.ponder, move |_, control| {
            control.wait_for_release(infinite);
            answer();
        });
    }

    /// Runs `task` on the search thread and returns at once; `stop` (and the
    /// commands that end a search) reach it through its [`SearchControl`]. A
    /// task still running is stopped and waited for first.
    pub fn run_in_background(
        &mut self,
        pondering: bool,
        task: impl FnOnce(&SearchThreads, &SearchControl) + Send + 'static,
    ) {
        self.end_search();
        let control = Arc::new(SearchControl::new(pondering));
        let finished = FinishOnDrop(Arc::clone(&control));
        let threads = self.threads.clone();
        self.thread
            .get_or_insert_with(SearchThread::start)
            .run(Box::new(move || {
                let finished = finished;
                let threads = threads;
                task(&threads, &finished.0);
                // The table is let go before the task counts as finished, so
                // that a new `Hash` never lives beside the old one.
                drop(threads);
            }));
        self.running = Some(control);
    }

    /// Runs a search to its end on the calling thread (bench, analysis).
    pub fn search(
        &mut self,
        limits: &GoLimits,
        listener: &dyn Listener,
    ) -> Result<SearchResult, GoError> {
        self.wait();
        let game = self.game.as_ref().ok_or(GoError::NoPosition)?;
        Ok(self
            .threads
            .search(game, limits, &SearchControl::new(false), listener))
    }

    /// Asks the running search, if any, to stop; it reports as usual.
    pub fn stop(&self) {
        if let Some(c) = &self.running {
            c.stop();
        }
    }

    /// The expected move was played: the ponder search goes on as a normal one.
    pub fn ponderhit(&self) {
        if let Some(c) = &self.running {
            c.ponderhit();
        }
    }

    /// Stops the running search, if any, and waits for it to report: what every
    /// command that changes the engine's state does first.
    fn end_search(&mut self) {
        self.stop();
        self.wait();
    }

    /// Replaces the game (a tool that borrowed the engine puts the user's
    /// back; a refused `position` leaves none). A running search goes on
    /// with the game it was given: only a valid command ends it.
    pub fn set_game(&mut self, game: Option<Game>) {
        self.game = game;
    }

    /// Waits for the running search, if any, to end (and report).
    pub fn wait(&mut self) {
        if let Some(c) = self.running.take() {
            c.wait_finished();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.end_search();
        // Then the search thread is joined, as it is dropped.
    }
}

/// The same game (start and moves) under other rules, if all its moves stay legal.
fn replay(game: &Game, rules: Rules) -> Option<Game> {
    let moves: Vec<String> = game.moves_played().iter().map(|m| m.to_string()).collect();
    let start = game_start_fen(game);
    Game::from_fen_and_moves(rules, &start, &moves).ok()
}

/// The first position of a game, as text.
fn game_start_fen(game: &Game) -> String {
    let mut g = game.clone();
    while g.plies_played() > 0 {
        g.unmake();
    }
    g.position().fen()
}
