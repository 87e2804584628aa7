//! The engine: one object owning the game, the options, the transposition table
//! and the running search. The protocol loop, bench and the tools all drive it
//! the same way; it never reads input itself.

pub mod bench;
pub mod eval;
pub mod nnue;
pub mod ordering;
pub mod params;
pub mod score;
pub mod search;
pub mod skill;
pub mod time;
pub mod tt;

use crate::rules::{Game, GameError, Move, Outcome, RULE_OPTIONS, Rules, Side};
use crate::tb::{self, TableSet, Verdict};
use crate::util::options::{OptionError, OptionKind};
use eval::EvalKind;
use nnue::Network;
use params::{LmrTable, SearchParams};
use search::{Bounds, Features, Listener, PaddedCounter, SearchResult, Shared, Worker};
use skill::Skill;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;
use time::{Clock, NO_CLOCK_MOVETIME_MS, TimeLimits};
use tt::TranspositionTable;

/// The deepest search a command may ask for, in plies (`go depth`, `bench`,
/// every tool's `--depth`): deeper than any search ends in a lifetime, and
/// below the search's stack of [`search::MAX_PLY`].
pub const MAX_DEPTH: u32 = 100;

/// Everything `go` can ask for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Clock and move time.
    pub time: TimeLimits,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Most nodes, over all threads.
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`, whatever the clock says.
    pub infinite: bool,
    /// Search the position after the expected reply until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
}

impl fmt::Display for GoLimits {
    /// The limits as the words of `go` (for the log).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.time;
        let numbers = [
            ("wtime", t.red_time),
            ("btime", t.blue_time),
            ("winc", t.red_increment),
            ("binc", t.blue_increment),
            ("movestogo", t.moves_to_go),
            ("movetime", t.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
        ];
        let mut words: Vec<String> = numbers
            .iter()
            .filter_map(|(word, n)| n.map(|n| format!("{word} {n}")))
            .collect();
        for (word, on) in [("infinite", self.infinite), ("ponder", self.ponder)] {
            if on {
                words.push(word.to_string());
            }
        }
        if !self.searchmoves.is_empty() {
            words.push("searchmoves".to_string());
            words.extend(self.searchmoves.iter().map(Move::to_string));
        }
        write!(f, "{}", words.join(" "))
    }
}

/// The engine's own options (the rule options live in [`Rules`]).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads in all (lazy SMP); one is deterministic.
    pub threads: usize,
    /// Transposition table size, MB.
    pub hash_mb: usize,
    /// Lines to report (MultiPV), best first.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for transmission delays.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ponder (informational: `go ponder` works regardless).
    pub ponder: bool,
    /// Whether `info` carries `wdl`.
    pub show_wdl: bool,
    /// Search feature switches (`Search_*`), for measuring each feature.
    pub features: Features,
    /// The static evaluation the search uses.
    pub eval: EvalKind,
    /// The network `EvalKind::Nnue` uses, shared with the search threads.
    pub net: Arc<Network>,
    /// Centipawns a draw costs the root side (see [`search::Shared::contempt`]).
    pub contempt: i32,
    /// The tunable search parameters (hidden options, [`params::PARAMS`]).
    pub params: SearchParams,
    /// `Skill Level`: 0 (weakest) to 20 (full strength), see [`skill`].
    pub skill_level: i32,
    /// `UCI_LimitStrength`: play at the level of `uci_elo` instead.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for under `limit_strength`.
    pub uci_elo: i32,
    /// The endgame tables (`TablebasePath`), if any.
    pub tablebases: Option<Arc<TableSet>>,
    /// Positions with more pieces are not looked up (`TablebaseMaxPieces`).
    pub tb_max_pieces: u32,
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
            eval: EvalKind::DEFAULT,
            net: nnue::embedded(),
            contempt: DEFAULT_CONTEMPT,
            params: SearchParams::default(),
            skill_level: skill::FULL_STRENGTH,
            limit_strength: false,
            uci_elo: skill::ELO_MAX,
            tablebases: None,
            tb_max_pieces: 4,
        }
    }
}

/// The draw score's default offset: a draw is worth this much less than
/// equality to the side that searches (set by match, docs/strength.md).
pub const DEFAULT_CONTEMPT: i32 = 30;

/// One engine option: its name, its kind (with the default and range, from
/// the default options) and how a checked value applies to the options. The
/// one place an engine option is declared; `uci` lists them in this order,
/// before the rule options.
struct EngineOption {
    name: &'static str,
    kind: fn(&EngineOptions) -> OptionKind,
    apply: fn(&mut EngineOptions, &OptionKind, &str, &str) -> Result<(), OptionError>,
}

fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

/// A `check` option stored in a field of [`EngineOptions`].
macro_rules! check_option {
    ($name:literal, $($field:ident).+) => {
        EngineOption {
            name: $name,
            kind: |d| check(d.$($field).+),
            apply: |o, kind, name, value| {
                o.$($field).+ = kind.parse_bool(name, value)?;
                Ok(())
            },
        }
    };
}

/// A `spin` option in `min..=max` stored in a field of [`EngineOptions`].
macro_rules! spin_option {
    ($name:literal, $field:ident as $ty:ty, $min:expr, $max:expr) => {
        EngineOption {
            name: $name,
            kind: |d| spin(d.$field as i64, $min, $max),
            apply: |o, kind, name, value| {
                o.$field = kind.parse_int(name, value)? as $ty;
                Ok(())
            },
        }
    };
}

/// A `string` option naming a file that `$load` reads at once into a field of
/// [`EngineOptions`] (so a bad file is refused when set, not at the next
/// search); `$default` is the value `uci` shows, one that means "none".
macro_rules! string_option {
    ($name:literal, $field:ident, $load:path, $default:expr) => {
        EngineOption {
            name: $name,
            kind: |_| OptionKind::String { default: $default },
            apply: |o, _, _, value| {
                o.$field = $load(value)?;
                Ok(())
            },
        }
    };
}

const ENGINE_OPTIONS: [EngineOption; 23] = [
    spin_option!("Threads", threads as usize, 1, 256),
    spin_option!("Hash", hash_mb as usize, 1, 65536),
    EngineOption {
        name: "Clear Hash",
        kind: |_| OptionKind::Button,
        // Clearing is done by set_option, which knows the table.
        apply: |_, _, _, _| Ok(()),
    },
    spin_option!("MultiPV", multipv as usize, 1, 32),
    spin_option!("Move Overhead", move_overhead_ms as u64, 0, 5000),
    check_option!("Ponder", ponder),
    check_option!("UCI_ShowWDL", show_wdl),
    spin_option!("Contempt", contempt as i32, -1000, 1000),
    check_option!("Search_TT", features.tt_cutoffs),
    check_option!("Search_NullMove", features.null_move),
    check_option!("Search_LMR", features.lmr),
    check_option!("Search_Futility", features.futility),
    check_option!("Search_Aspiration", features.aspiration),
    check_option!("Search_DenExtension", features.den_extension),
    EngineOption {
        name: "Eval",
        kind: |d| OptionKind::Combo {
            default: d.eval.name(),
            choices: &EvalKind::NAMES,
        },
        apply: |o, kind, name, value| {
            o.eval = EvalKind::ALL[kind.parse_choice(name, value)?];
            Ok(())
        },
    },
    string_option!("EvalFile", net, load_net, EMBEDDED_NET[1]),
    check_option!("Search_IIR", features.iir),
    check_option!("Search_HistoryLMR", features.history_lmr),
    spin_option!(
        "Skill Level",
        skill_level as i32,
        0,
        skill::FULL_STRENGTH as i64
    ),
    check_option!("UCI_LimitStrength", limit_strength),
    spin_option!(
        "UCI_Elo",
        uci_elo as i32,
        skill::ELO_MIN as i64,
        skill::ELO_MAX as i64
    ),
    string_option!("TablebasePath", tablebases, load_tables, NO_TABLES[1]),
    spin_option!("TablebaseMaxPieces", tb_max_pieces as u32, 0, 8),
];

/// The `TablebasePath` values that mean no tables.
const NO_TABLES: [&str; 2] = ["", "<empty>"];

/// The tables a `TablebasePath` value names: none, or every table in the
/// directory, read now (made under one set of rules, which the search checks).
fn load_tables(value: &str) -> Result<Option<Arc<TableSet>>, OptionError> {
    let path = value.trim();
    if NO_TABLES.contains(&path) {
        return Ok(None);
    }
    let set =
        TableSet::shared(std::path::Path::new(path), None).map_err(|e| OptionError::Refused {
            name: "TablebasePath".to_string(),
            value: path.to_string(),
            reason: e.to_string(),
        })?;
    log::info!("TablebasePath: {path}: {set:?}");
    Ok(Some(set))
}

/// The `EvalFile` values that mean the net built into the binary.
const EMBEDDED_NET: [&str; 2] = ["", "<default>"];

/// The engine option called `name` (any case, surrounding blanks ignored).
fn engine_option(name: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

/// What a search is told when it starts and what the caller hears back.
pub type OnDone = Box<dyn FnOnce(SearchResult) + Send>;

/// Why `go` could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// No valid position was set (none yet, or the last one was rejected).
    #[error("no valid position")]
    NoPosition,
}

/// What the user says to one task on the search thread (`stop`, `ponderhit`)
/// and whether the task is over. Each task gets its own, so a `stop` sent right
/// after `go` can never be undone by a reset.
///
/// "The user said stop" is kept apart from "the search is done thinking" (a
/// limit reached, which is the search's own business): only the first, or a
/// `ponderhit`, lets the answer of `go infinite` or `go ponder` out.
#[derive(Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: Arc<AtomicBool>,
    /// Whether the task has ended; guards the waits on `changed`.
    finished: Mutex<bool>,
    changed: Condvar,
}

impl SearchControl {
    /// A control for a task that begins pondering (`go ponder`) or not.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            pondering: Arc::new(AtomicBool::new(pondering)),
            ..SearchControl::default()
        }
    }

    /// The user said stop: thinking ends and the answer goes out.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.notify();
    }

    /// The expected move was played: the clock starts; the answer may go out.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
        self.notify();
    }

    /// Whether the user said stop.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag `stop` sets, for code that only polls (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes the waits. The lock is taken after the flag is set, so a waiter
    /// that read the old value is already waiting and hears this.
    fn notify(&self) {
        let _guard = self.lock();
        self.changed.notify_all();
    }

    /// Waits until the answer may go out: at once, except under `infinite`
    /// (until `stop`) and while pondering (until `stop` or `ponderhit`).
    fn wait_for_release(&self, infinite: bool) {
        let mut guard = self.lock();
        while !self.stop_requested() && (infinite || self.pondering.load(Ordering::Relaxed)) {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn is_finished(&self) -> bool {
        *self.lock()
    }

    fn wait_finished(&self) {
        let mut guard = self.lock();
        while !*guard {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Marks its task finished when dropped, also when the task panicked: nothing
/// waits forever for a task that died.
struct FinishOnDrop(Arc<SearchControl>);

impl Drop for FinishOnDrop {
    fn drop(&mut self) {
        *self.0.lock() = true;
        self.0.changed.notify_all();
    }
}

type ThreadJob = Box<dyn FnOnce() + Send>;

/// The thread that runs searches (and perft, bench) one after another, kept
/// between them: starting a thread per `go` costs time under load.
struct SearchThread {
    tasks: Option<Sender<ThreadJob>>,
    handle: Option<JoinHandle<()>>,
}

impl SearchThread {
    fn start() -> SearchThread {
        let (tasks, queue) = mpsc::channel::<ThreadJob>();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                for task in queue {
                    // A panic is a bug, already reported on stderr; the thread
                    // lives on for the next task.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
                }
            })
            .expect("the search thread starts");
        SearchThread {
            tasks: Some(tasks),
            handle: Some(handle),
        }
    }

    fn run(&self, task: ThreadJob) {
        if let Some(tasks) = &self.tasks {
            // The thread outlives the sender: sending cannot fail.
            let _ = tasks.send(task);
        }
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop.
        self.tasks = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// Everything a search needs but the position: the options, the table and the
/// helper threads. Cheap to clone onto the search thread.
#[derive(Clone)]
pub struct Searcher {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    /// Threads - 1 helpers for lazy SMP, kept between searches.
    helpers: Option<Arc<rayon::ThreadPool>>,
    /// The late-move reductions of `options.params`, worked out when they change.
    lmr: Arc<LmrTable>,
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
        let mut searchmoves = limits.searchmoves.clone();
        let mut table_draw = false;
        // Analysis (several lines, or thinking until `stop`) searches a won
        // or lost root too: its lines and depths come as usual, each move
        // scored by the tables one ply down.
        let analysing = limits.infinite || self.options.multipv > 1;
        if let Some(tb) = tables {
            match table_root(tb, game, limits, start) {
                TableRoot::Decided(result) if !analysing => {
                    listener.info(&table_info(&result));
                    control.wait_for_release(limits.infinite);
                    return *result;
                }
                TableRoot::Decided(_) | TableRoot::Unknown => {}
                TableRoot::Drawing(moves) => {
                    searchmoves = moves;
                    table_draw = true;
                }
            }
        }
        // Among the drawing moves every line is the tables' draw: reported
        // as one (`cp 0`), not as the search's contempt for it.
        let draw_listener = DrawListener(listener);
        let listener: &dyn Listener = if table_draw { &draw_listener } else { listener };
        let options = &self.options;
        let tt = &*self.tt;
        tt.new_search();
        let side = game.position().side_to_move();
        let clock = Clock::new(
            &limits.time,
            side,
            options.move_overhead_ms,
            Arc::clone(&control.pondering),
        );
        if limits.time.lacks_mover_clock(side) {
            listener.message(&format!(
                "no clock for {side}, the side to move: searching {NO_CLOCK_MOVETIME_MS} ms"
            ));
        }
        let threads = options.threads.max(1);
        log::info!("search start: go {limits}; time {clock}; {threads} threads");
        let mut bounds = Bounds {
            depth: limits.depth.map(|d| d.max(1) as i32),
            nodes: limits.nodes,
            mate: limits.mate.map(|m| m as i32),
            searchmoves,
            multipv: options.multipv,
        };
        if game.legal_moves().len() == 1 && clock.is_on_clock() && !limits.ponder {
            // One legal move: play it at once, with a score from a one-ply look.
            bounds.depth = Some(1);
        }
        let skill =
            Skill::from_options(options.skill_level, options.limit_strength, options.uci_elo);
        if let Some(skill) = skill {
            // A weaker level searches less and keeps a few lines to choose from.
            bounds.multipv = bounds.multipv.max(skill::SKILL_LINES);
            let depth = skill.depth_cap();
            bounds.depth = Some(bounds.depth.map_or(depth, |d| d.min(depth)));
            let nodes = skill.node_cap();
            bounds.nodes = Some(bounds.nodes.map_or(nodes, |n| n.min(nodes)));
            log::info!(
                "skill level {:.2}: depth {depth}, {nodes} nodes",
                skill.level()
            );
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
        };
        let think = || {
            let mut main = Worker::new(&shared, game.clone(), 0, Some(&clock), bounds.clone());
            let result = main.iterate(listener);
            main.flush_nodes();
            // The helpers stop with the main thread, whatever stopped it.
            done_thinking.store(true, Ordering::Relaxed);
            result
        };
        let mut result = match &self.helpers {
            Some(pool) if threads > 1 => pool.in_place_scope(|scope| {
                for id in 1..threads {
                    let (shared, game, bounds) = (&shared, game.clone(), bounds.clone());
                    scope.spawn(move |_| {
                        let mut worker = Worker::new(shared, game, id, None, bounds);
                        worker.iterate(&search::Silent);
                        worker.flush_nodes();
                    });
                }
                think()
            }),
            _ => think(),
        };
        if let Some(skill) = skill
            && result.lines.len() > 1
        {
            let scores: Vec<i32> = result.lines.iter().map(|(score, _)| *score).collect();
            let (score, pv) = result.lines[skill.choose(&scores, game.position().key())].clone();
            result.best_move = pv[0];
            result.ponder_move = pv.get(1).copied();
            result.score = score;
            result.pv = pv;
        }
        if table_draw {
            result.score = 0;
            result.lines.iter_mut().for_each(|(score, _)| *score = 0);
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
}

/// Helper threads for `threads` search threads in all (none for one).
fn helper_pool(
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
    searcher: Searcher,
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
            searcher: Searcher {
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
    /// The search parameters are hidden (settable, not listed) unless the
    /// build has the `tune` feature, for tuners that want them listed.
    pub fn option_list() -> Vec<(&'static str, OptionKind)> {
        let defaults = EngineOptions::default();
        let tuning = if cfg!(feature = "tune") {
            Engine::tuning_options()
        } else {
            Vec::new()
        };
        ENGINE_OPTIONS
            .iter()
            .map(|o| (o.name, (o.kind)(&defaults)))
            .chain(tuning)
            .chain(RULE_OPTIONS.iter().map(|o| (o.name, o.kind.clone())))
            .collect()
    }

    /// The hidden options: the tunable search parameters, each a spin.
    pub fn tuning_options() -> Vec<(&'static str, OptionKind)> {
        params::PARAMS
            .iter()
            .map(|p| {
                let kind = spin(p.default.into(), p.min.into(), p.max.into());
                (p.name, kind)
            })
            .collect()
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The engine options in force (the rule options are in [`Engine::rules`]).
    pub fn options(&self) -> &EngineOptions {
        &self.searcher.options
    }

    /// What searches with the engine's options and table (bench).
    pub fn searcher(&self) -> &Searcher {
        &self.searcher
    }

    /// The static evaluation of the current position by the evaluation in
    /// force, term by term; `None` without a valid position.
    pub fn eval_terms(&self) -> Option<EvalTerms> {
        let game = self.game.as_ref()?;
        let pos = game.position();
        let options = &self.searcher.options;
        let (net, terms) = match options.eval {
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
        Some(EvalTerms {
            side_to_move: pos.side_to_move(),
            net,
            total: terms.iter().map(|(_, v)| v).sum(),
            terms,
        })
    }

    /// A warning when the evaluation in force cannot see the rules in force:
    /// the net has no input for some of them, so it evaluates as under the
    /// default rules (`docs/nnue.md`, "Rule inputs"). `None` when it can, or
    /// with the linear evaluation (which reads the rules itself).
    pub fn eval_warning(&self) -> Option<String> {
        let options = &self.searcher.options;
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
        let value = value.unwrap_or("");
        let mut o = self.searcher.options.clone();
        let kind = (option.kind)(&EngineOptions::default());
        (option.apply)(&mut o, &kind, name, value)?;
        // The table's static evaluations belong to the evaluation that wrote them.
        let eval_changed = o.eval != self.searcher.options.eval
            || !Arc::ptr_eq(&o.net, &self.searcher.options.net);
        self.end_search();
        let refused = |expected: String| OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            expected,
        };
        if o.threads != self.searcher.options.threads {
            self.searcher.helpers = helper_pool(o.threads)
                .map_err(|e| refused(format!("threads that can be started ({e})")))?;
        }
        if o.hash_mb != self.searcher.options.hash_mb {
            // Drop the old table first so that both never live at once.
            self.searcher.tt = Arc::new(TranspositionTable::new(1).expect("a 1 MB table"));
            match TranspositionTable::new(o.hash_mb) {
                Ok(tt) => self.searcher.tt = Arc::new(tt),
                Err(why) => {
                    self.searcher.tt = Arc::new(
                        TranspositionTable::new(self.searcher.options.hash_mb)
                            .expect("the old size fit"),
                    );
                    return Err(refused(why.to_string()));
                }
            }
        }
        if name == "Clear Hash" || eval_changed {
            self.searcher.clear_hash();
        }
        log::info!("option {name} = {value}");
        let warned = self.eval_warning();
        self.searcher.options = o;
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
        let mut params = self.searcher.options.params.clone();
        params
            .set(param, value)
            .expect("parse_int checked the range");
        if params.lmr_table() != *self.searcher.lmr {
            self.searcher.lmr = Arc::new(params.lmr_table());
        }
        log::info!("option {} = {value}", param.name);
        self.searcher.options.params = params;
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
        self.searcher.clear_hash();
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
        self.run_in_background(limits.ponder, move |searcher, control| {
            let result = searcher.search(&game, &limits, control, &*listener);
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

    /// Runs `task` on the search thread and returns at once; `stop` (and the
    /// commands that end a search) reach it through its [`SearchControl`]. A
    /// task still running is stopped and waited for first.
    pub fn run_in_background(
        &mut self,
        pondering: bool,
        task: impl FnOnce(&Searcher, &SearchControl) + Send + 'static,
    ) {
        self.end_search();
        let control = Arc::new(SearchControl::new(pondering));
        let finished = FinishOnDrop(Arc::clone(&control));
        let searcher = self.searcher.clone();
        self.thread
            .get_or_insert_with(SearchThread::start)
            .run(Box::new(move || {
                let finished = finished;
                let searcher = searcher;
                task(&searcher, &finished.0);
                // The table is let go before the task counts as finished, so
                // that a new `Hash` never lives beside the old one.
                drop(searcher);
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
            .searcher
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

/// The net an `EvalFile` value names: the embedded one, or a file read now.
fn load_net(value: &str) -> Result<Arc<Network>, OptionError> {
    let path = value.trim();
    if EMBEDDED_NET.contains(&path) {
        return Ok(nnue::embedded());
    }
    let net = nnue::load(std::path::Path::new(path)).map_err(|e| OptionError::Refused {
        name: "EvalFile".to_string(),
        value: path.to_string(),
        reason: e.to_string(),
    })?;
    log::info!(
        "EvalFile: {path} (H {}): {}",
        net.hidden(),
        net.description()
    );
    Ok(Arc::new(net))
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

/// What the tables say at the root.
enum TableRoot {
    /// A win or loss that stands under the no-capture limit: the fastest win
    /// or the longest loss is played without a search.
    Decided(Box<SearchResult>),
    /// A draw: the search chooses among the moves that keep it.
    Drawing(Vec<Move>),
    /// Not in the tables, or a verdict the no-capture limit may overturn.
    Unknown,
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
    let Some(score) = score::table_score(verdict, 0, tb::plies_before_limit(game.rules(), pos))
    else {
        if verdict == Verdict::Draw {
            let drawing = ranked.iter().filter(|(_, v)| *v == Verdict::Draw);
            return TableRoot::Drawing(drawing.map(|(m, _)| *m).collect());
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
        bound: score::ScoreBound::Exact,
        nodes: result.nodes,
        time_ms: result.time_ms,
        hashfull: 0,
        pv: result.pv.clone(),
        tbhits: result.tbhits,
    }
}

/// Reports every line of a search as the tables' draw, score 0.
struct DrawListener<'a>(&'a dyn Listener);

impl Listener for DrawListener<'_> {
    fn info(&self, info: &search::SearchInfo) {
        self.0.info(&search::SearchInfo {
            score: 0,
            bound: score::ScoreBound::Exact,
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
