//! The engine: one object owning the game, the options, the transposition table
//! and the running search. The protocol loop, bench and the tools all drive it
//! the same way; it never reads input itself.

pub mod eval;
pub mod nnue;
pub mod search;
pub mod time;
pub mod tt;

use crate::options::{OptionError, OptionKind};
use crate::rules::{Game, GameError, Move, Outcome, RULE_OPTION_NAMES, Rules};
use search::{Bounds, Features, Listener, PaddedCounter, SearchResult, Shared, Worker};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use time::{Clock, TimeLimits};
use tt::TranspositionTable;

/// Everything `go` can ask for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Clock and move time.
    pub time: TimeLimits,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search the position after the expected reply until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
}

/// The engine's own options (the rule options live in [`Rules`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size, MB.
    pub hash_mb: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for transmission delays.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ponder (informational: `go ponder` works regardless).
    pub ponder: bool,
    /// Whether `info` carries `wdl`.
    pub show_wdl: bool,
    /// Search feature switches.
    pub features: Features,
    /// Centipawns a draw costs the root side (see [`search::Shared::contempt`]).
    pub contempt: i32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            move_overhead_ms: 30,
            ponder: false,
            show_wdl: false,
            features: Features::default(),
            contempt: DEFAULT_CONTEMPT,
        }
    }
}

/// The draw score's default offset: a draw is worth this much less than
/// equality to the side that searches (set by match, docs/strength.md).
pub const DEFAULT_CONTEMPT: i32 = 30;

/// The engine options in the order `uci` lists them, before the rule options.
const ENGINE_OPTIONS: [&str; 16] = [
    "Threads",
    "Hash",
    "Clear Hash",
    "MultiPV",
    "Move Overhead",
    "Ponder",
    "UCI_ShowWDL",
    "Contempt",
    "Search_TT",
    "Search_NullMove",
    "Search_LMR",
    "Search_Futility",
    "Search_Aspiration",
    "Search_DenExtension",
    "Search_IIR",
    "Search_HistoryLMR",
];

fn engine_option_kind(name: &str) -> Option<(&'static str, OptionKind)> {
    let name = ENGINE_OPTIONS
        .into_iter()
        .find(|n| n.eq_ignore_ascii_case(name.trim()))?;
    let d = EngineOptions::default();
    let check = |default| OptionKind::Check { default };
    let kind = match name {
        "Threads" => OptionKind::Spin {
            default: d.threads as i64,
            min: 1,
            max: 256,
        },
        "Hash" => OptionKind::Spin {
            default: d.hash_mb as i64,
            min: 1,
            max: 65536,
        },
        "Clear Hash" => OptionKind::Button,
        "MultiPV" => OptionKind::Spin {
            default: 1,
            min: 1,
            max: 32,
        },
        "Move Overhead" => OptionKind::Spin {
            default: d.move_overhead_ms as i64,
            min: 0,
            max: 5000,
        },
        "Ponder" => check(d.ponder),
        "UCI_ShowWDL" => check(d.show_wdl),
        "Contempt" => OptionKind::Spin {
            default: d.contempt as i64,
            min: -1000,
            max: 1000,
        },
        "Search_TT" => check(d.features.tt_cutoffs),
        "Search_NullMove" => check(d.features.null_move),
        "Search_LMR" => check(d.features.lmr),
        "Search_Futility" => check(d.features.futility),
        "Search_Aspiration" => check(d.features.aspiration),
        "Search_DenExtension" => check(d.features.den_extension),
        "Search_IIR" => check(d.features.iir),
        "Search_HistoryLMR" => check(d.features.history_lmr),
        _ => unreachable!("every listed engine option has a kind"),
    };
    Some((name, kind))
}

/// What a search is told when it starts and what the caller hears back.
pub type OnDone = Box<dyn FnOnce(SearchResult) + Send>;

/// Why `go` could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// No valid position was set (none yet, or the last one was rejected).
    NoPosition,
}

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
}

/// The engine object.
pub struct Engine {
    rules: Rules,
    game: Option<Game>,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    running: Option<Running>,
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
            tt: Arc::new(TranspositionTable::new(options.hash_mb).expect("the default table fits")),
            options,
            running: None,
        }
    }

    /// Every option, engine options first, with its kind: what `uci` prints.
    pub fn option_list() -> Vec<(&'static str, OptionKind)> {
        ENGINE_OPTIONS
            .into_iter()
            .filter_map(engine_option_kind)
            .chain(
                RULE_OPTION_NAMES
                    .into_iter()
                    .map(|n| (n, Rules::option_kind(n).expect("listed"))),
            )
            .collect()
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The engine options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The current game, if a valid position is set.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Sets an option by name (any case); `value` is `None` for buttons. A valid
    /// value ends a running search first (as `stop` would); a refused one leaves
    /// everything as it was. A rule option replays the current game under the new
    /// rules; if a move of it is illegal under them the engine holds no position.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let Some((name, kind)) = engine_option_kind(name) else {
            let mut rules = self.rules;
            rules.set(name, value.unwrap_or(""))?;
            self.end_search();
            if rules != self.rules {
                self.rules = rules;
                self.game = self.game.as_ref().and_then(|g| replay(g, rules));
            }
            return Ok(());
        };
        let value = value.unwrap_or("");
        let mut o = self.options.clone();
        match name {
            "Threads" => o.threads = kind.parse_int(name, value)? as usize,
            "Hash" => o.hash_mb = kind.parse_int(name, value)? as usize,
            "Clear Hash" => {}
            "MultiPV" => o.multipv = kind.parse_int(name, value)? as usize,
            "Move Overhead" => o.move_overhead_ms = kind.parse_int(name, value)? as u64,
            "Ponder" => o.ponder = kind.parse_bool(name, value)?,
            "UCI_ShowWDL" => o.show_wdl = kind.parse_bool(name, value)?,
            "Contempt" => o.contempt = kind.parse_int(name, value)? as i32,
            "Search_TT" => o.features.tt_cutoffs = kind.parse_bool(name, value)?,
            "Search_NullMove" => o.features.null_move = kind.parse_bool(name, value)?,
            "Search_LMR" => o.features.lmr = kind.parse_bool(name, value)?,
            "Search_Futility" => o.features.futility = kind.parse_bool(name, value)?,
            "Search_Aspiration" => o.features.aspiration = kind.parse_bool(name, value)?,
            "Search_DenExtension" => o.features.den_extension = kind.parse_bool(name, value)?,
            "Search_IIR" => o.features.iir = kind.parse_bool(name, value)?,
            "Search_HistoryLMR" => o.features.history_lmr = kind.parse_bool(name, value)?,
            _ => unreachable!("every listed engine option is handled"),
        }
        self.end_search();
        if o.hash_mb != self.options.hash_mb {
            // Drop the old table first so that both never live at once.
            self.tt = Arc::new(TranspositionTable::new(1).expect("a 1 MB table"));
            match TranspositionTable::new(o.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(why) => {
                    self.tt = Arc::new(
                        TranspositionTable::new(self.options.hash_mb).expect("the old size fit"),
                    );
                    return Err(OptionError::BadValue {
                        name: name.to_string(),
                        value: value.to_string(),
                        expected: why,
                    });
                }
            }
        }
        if name == "Clear Hash" {
            self.clear_hash();
        }
        self.options = o;
        Ok(())
    }

    /// Forgets everything learnt (the table) for a new game.
    pub fn new_game(&mut self) {
        self.end_search();
        self.clear_hash();
    }

    fn clear_hash(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => {
                let fresh =
                    TranspositionTable::new(self.options.hash_mb).expect("the size fit before");
                self.tt = Arc::new(fresh);
            }
        }
    }

    /// Sets the position from its text and moves. On error the engine holds no
    /// position until the next valid one.
    pub fn set_position<S: AsRef<str>>(&mut self, fen: &str, moves: &[S]) -> Result<(), GameError> {
        self.end_search();
        match Game::from_fen_and_moves(self.rules, fen, moves) {
            Ok(game) => {
                self.game = Some(game);
                Ok(())
            }
            Err(e) => {
                self.game = None;
                Err(e)
            }
        }
    }

    /// Starts a search on its own thread and returns at once. `on_done` gets the
    /// result exactly once, after `listener` heard the last progress line. A
    /// search still running is stopped first (its result reported as usual).
    pub fn go(
        &mut self,
        limits: Limits,
        listener: Arc<dyn Listener>,
        on_done: OnDone,
    ) -> Result<(), GoError> {
        self.end_search();
        let game = self.game.clone().ok_or(GoError::NoPosition)?;
        let stop = Arc::new(AtomicBool::new(false));
        let pondering = Arc::new(AtomicBool::new(limits.ponder));
        let tt = Arc::clone(&self.tt);
        let options = self.options.clone();
        let (stop2, pondering2) = (Arc::clone(&stop), Arc::clone(&pondering));
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let result = run_search(
                    &game,
                    &options,
                    &tt,
                    &limits,
                    &stop2,
                    &pondering2,
                    &*listener,
                );
                on_done(result);
            })
            .expect("the search thread starts");
        self.running = Some(Running {
            handle,
            stop,
            pondering,
        });
        Ok(())
    }

    /// Runs a search to its end on the calling thread (bench, analysis).
    pub fn search(
        &mut self,
        limits: &Limits,
        listener: &dyn Listener,
    ) -> Result<SearchResult, GoError> {
        self.wait();
        let game = self.game.as_ref().ok_or(GoError::NoPosition)?;
        let stop = AtomicBool::new(false);
        let pondering = Arc::new(AtomicBool::new(false));
        Ok(run_search(
            game,
            &self.options,
            &self.tt,
            limits,
            &stop,
            &pondering,
            listener,
        ))
    }

    /// Asks the running search, if any, to stop; it reports as usual.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The expected move was played: the ponder search goes on as a normal one.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Stops the running search, if any, and waits for it to report: what every
    /// command that changes the engine's state does first.
    fn end_search(&mut self) {
        self.stop();
        self.wait();
    }

    /// Replaces the game (a tool that borrowed the engine puts the user's back).
    pub fn set_game(&mut self, game: Option<Game>) {
        self.end_search();
        self.game = game;
    }

    /// Waits for the running search, if any, to end (and report).
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.end_search();
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

/// The result a finished game gets from `go`: no move, and a score saying who won.
fn finished_result(outcome: Outcome, game: &Game) -> SearchResult {
    let score = match outcome {
        Outcome::Draw(_) => 0,
        Outcome::Win { winner, .. } if winner == game.position().side_to_move() => search::MATE,
        Outcome::Win { .. } => -search::MATE,
    };
    SearchResult {
        best_move: Move::NULL,
        score,
        outcome: Some(outcome),
        ..SearchResult::default()
    }
}

/// One whole search: helpers and main thread, then waiting out `infinite` and
/// `ponder` until the protocol says `stop` or `ponderhit`.
fn run_search(
    game: &Game,
    options: &EngineOptions,
    tt: &TranspositionTable,
    limits: &Limits,
    stop: &AtomicBool,
    pondering: &Arc<AtomicBool>,
    listener: &dyn Listener,
) -> SearchResult {
    let start = Instant::now();
    let wait_for_user = |result: SearchResult| {
        // `infinite` and `ponder` answer only after `stop` (or `ponderhit`).
        while (limits.infinite || pondering.load(Ordering::Relaxed))
            && !stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        result
    };
    if let Some(outcome) = game.outcome() {
        return wait_for_user(finished_result(outcome, game));
    }
    tt.new_search();
    let side = game.position().side_to_move();
    let clock = Clock::new(
        &limits.time,
        side,
        options.move_overhead_ms,
        Arc::clone(pondering),
    );
    let mut bounds = Bounds {
        depth: limits.depth.map(|d| d.max(1) as i32),
        nodes: limits.nodes,
        mate: limits.mate.map(|m| m as i32),
        searchmoves: limits.searchmoves.clone(),
        multipv: options.multipv,
    };
    let root_moves = game.legal_moves().len();
    if root_moves == 1 && clock.is_timed() && !limits.ponder {
        // One legal move: play it at once, with a score from a one-ply look.
        bounds.depth = Some(1);
    }
    let threads = options.threads.max(1);
    let shared = Shared {
        tt,
        stop,
        nodes: (0..threads).map(|_| PaddedCounter::default()).collect(),
        weights: &eval::WEIGHTS,
        features: options.features,
        contempt: options.contempt,
    };
    let mut result = std::thread::scope(|scope| {
        for id in 1..threads {
            let (shared, game, bounds) = (&shared, game.clone(), bounds.clone());
            scope.spawn(move || {
                let mut worker = Worker::new(shared, game, id, None, bounds);
                worker.iterate(&search::Silent);
                worker.flush_nodes();
            });
        }
        let mut main = Worker::new(&shared, game.clone(), 0, Some(&clock), bounds);
        let result = main.iterate(listener);
        main.flush_nodes();
        let result = wait_for_user(result);
        stop.store(true, Ordering::Relaxed);
        result
    });
    result.nodes = shared.total_nodes();
    result.time_ms = start.elapsed().as_millis() as u64;
    result.hashfull = tt.hashfull();
    result
}
