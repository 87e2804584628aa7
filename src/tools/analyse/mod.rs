//! What `doushou analyse` does: positions or whole games in, one answer per input out,
//! searched on every core. Position lines are read as they come (a script
//! writing to the pipe gets each answer before it writes the next line),
//! games once the input has ended (a record ends only where the next
//! begins); the answers are printed strictly in input order, each as soon as
//! it and every answer before it are ready, and flushed.
//! The command line is in `src/cli/analyse.rs`; the answer of [`analyse`]
//! says which exit code it gives.

pub mod annotate;
pub mod pool;
pub mod report;

use crate::engine::time::TimeLimits;
use crate::engine::{GoLimits, option};
use crate::rules::{Position, Rules, Side};
use crate::tb::{TableSet, TbError, Verdict};
use crate::tools::pgn::read::{self as input, GameSpec, LineError, PositionSpec};
use crate::util::options::OptionError;
use pool::{AnalysisTask, Setup, TaskError, TaskResult};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The depth searched when no limit is given: quick, and deep enough to see
/// simple tactics.
pub const DEFAULT_DEPTH: u32 = 10;

/// Above this many searches, a terminal gets a progress bar.
const PROGRESS_MIN_TASKS: usize = 20;

/// What `doushou analyse` was asked to do, once the command line is read.
#[derive(Clone, Debug)]
pub struct AnalyseConfig {
    /// The input file; `None` or `-` reads standard input.
    pub input: Option<PathBuf>,
    /// Search depth (with no limit at all, [`DEFAULT_DEPTH`]).
    pub depth: Option<u32>,
    /// Node budget per search.
    pub nodes: Option<u64>,
    /// Time per search, ms.
    pub movetime: Option<u64>,
    /// Lines reported per position.
    pub multipv: u32,
    /// One JSON object per line instead of text.
    pub json: bool,
    /// The input is games, to annotate move by move.
    pub game: bool,
    /// Centipawns lost that make a move a blunder.
    pub blunder: u32,
    /// Searches at once (`None`: one per core).
    pub jobs: Option<usize>,
    /// Table per job, MB.
    pub hash: usize,
    /// The endgame tables' directory: positions they hold are marked, and
    /// every job's engine searches with them (`TablebasePath`).
    pub tablebases: Option<PathBuf>,
    /// The rules in force.
    pub rules: Rules,
    /// Engine options set on every job's engine, `(name, value)`.
    pub engine_options: Vec<(String, String)>,
}

/// Why `analyse` could not run at all, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    /// The tables of `--tablebases` could not be read, or were refused (made
    /// under other rules than the analysis's, or corrupted).
    #[error("tablebases: {0}")]
    Tablebases(#[source] TbError),
    /// `--variant`/`--set` named unknown rules.
    #[error("rules: {0}")]
    Rules(#[source] OptionError),
    /// The input file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file, or `-` for standard input.
        path: String,
        /// The system's reason it could not be read.
        #[source]
        source: std::io::Error,
    },
    /// The output could not be written (a closed pipe included).
    #[error("cannot write the output: {0}")]
    Write(#[source] std::io::Error),
}

/// One answer of the output, in input order.
enum Unit {
    /// An input fault, answered as is.
    Fault(LineError),
    /// Reading stopped at this line: the input is not positions.
    Stop {
        /// The line reading stopped at.
        line: usize,
        /// Why, and what to do instead.
        why: StopReason,
    },
    /// A position line: one search.
    Position {
        line: usize,
        /// The position searched (after the line's moves).
        fen: String,
        /// Who is to move there.
        to_move: Side,
        /// Its search's index in the task list.
        task: usize,
    },
    /// A game: searches `first..=first + moves` (each position before a move,
    /// then the last one).
    Game {
        /// 1-based, counting faulty games too.
        number: usize,
        spec: GameSpec,
        /// The index of its first search in the task list.
        first: usize,
    },
}

impl Unit {
    /// The searches this answer needs.
    fn tasks(&self) -> std::ops::Range<usize> {
        match self {
            Unit::Fault(_) | Unit::Stop { .. } => 0..0,
            Unit::Position { task, .. } => *task..*task + 1,
            Unit::Game { spec, first, .. } => *first..*first + spec.start.moves.len() + 1,
        }
    }
}

/// Answers every input; `Ok(false)` when some input was invalid.
pub fn analyse(args: &AnalyseConfig) -> Result<bool, AnalyseError> {
    let rules = args.rules;
    let mut engine_options = args.engine_options.clone();
    // Read and checked against the rules before any input or search.
    let tables = match &args.tablebases {
        Some(dir) => {
            // Shared with the jobs' engines (`TablebasePath` of the same
            // directory): one copy in memory, however many jobs.
            let set = TableSet::shared(dir, Some(rules)).map_err(AnalyseError::Tablebases)?;
            engine_options.push((
                option::TABLEBASE_PATH.to_string(),
                dir.display().to_string(),
            ));
            Some(set)
        }
        None => None,
    };
    let (source, name) = open_input(args.input.as_ref())?;
    let limits = GoLimits {
        depth: args
            .depth
            .or((args.nodes.is_none() && args.movetime.is_none()).then_some(DEFAULT_DEPTH)),
        nodes: args.nodes,
        time: TimeLimits {
            movetime: args.movetime,
            ..TimeLimits::default()
        },
        ..GoLimits::default()
    };
    let setup = Setup {
        hash_mb: args.hash,
        multipv: args.multipv as usize,
        limits,
        engine_options,
    };
    let jobs = args.jobs.unwrap_or_else(crate::util::pool::every_core);
    let mut printer = Printer {
        units: Vec::new(),
        results: Vec::new(),
        next: 0,
        all_valid: true,
        out: std::io::stdout().lock(),
        as_json: args.json,
        multipv: args.multipv as usize,
        blunder_cp: args.blunder.min(i32::MAX as u32) as i32,
        tables: tables.as_deref(),
        rules,
    };
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    let game = args.game;
    // Not joined: it may wait on an open pipe after the output has gone
    // (`| head -1`), and the process ends without it.
    std::thread::spawn(move || read_units(source, game, rules, &reader_events));
    let mut progress = AnalyseProgress::new();
    let mut read_error = None;
    let printed = pool::serve(&setup, jobs, events, Event::Searched, |searches| {
        let mut searches = Some(searches);
        for event in inbox {
            match event {
                Event::Input(unit, tasks) => {
                    let first = printer.results.len();
                    printer.results.extend(tasks.iter().map(|_| None));
                    printer.units.push(unit);
                    progress.total = printer.results.len();
                    if let Some(searches) = &searches {
                        for (k, task) in tasks.into_iter().enumerate() {
                            // The workers outlive this loop: a send cannot fail.
                            let _ = searches.send((first + k, task));
                        }
                    }
                    printer.flush()?;
                }
                Event::Ended(error) => {
                    read_error = error;
                    // The workers end once the searches sent are done.
                    searches = None;
                }
                Event::Searched(i, result) => {
                    printer.results[i] = Some(result);
                    if printer.ready() {
                        // The answers may go to the same terminal as the bar.
                        progress.hide();
                    }
                    printer.flush()?;
                    progress.tick();
                }
            }
        }
        Ok(())
    });
    progress.finish();
    printed.map_err(AnalyseError::Write)?;
    match read_error {
        Some(source) => Err(AnalyseError::Read { path: name, source }),
        None => Ok(printer.all_valid),
    }
}

/// What reaches the printing thread, in the order it happened.
enum Event {
    /// The next answer to give, with the searches it needs (their indices
    /// follow those sent before).
    Input(Unit, Vec<AnalysisTask>),
    /// The input ended, or could not be read further.
    Ended(Option<std::io::Error>),
    /// A search is done: its index and result.
    Searched(usize, TaskResult),
}

/// The input, opened, and its name: a file named on the command line that
/// cannot be opened is said before anything is searched.
type Input = (Box<dyn BufRead + Send>, String);

fn open_input(path: Option<&PathBuf>) -> Result<Input, AnalyseError> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let name = p.display().to_string();
            match std::fs::File::open(p) {
                Ok(file) => Ok((Box::new(std::io::BufReader::new(file)), name)),
                Err(source) => Err(AnalyseError::Read { path: name, source }),
            }
        }
        _ => Ok((
            Box::new(std::io::BufReader::new(std::io::stdin())),
            "standard input".to_string(),
        )),
    }
}

/// Reads the input and sends the answers it asks for: a position line's as
/// soon as the line is read, games once the input has ended. Bytes that are
/// not UTF-8 become U+FFFD and so make their line invalid, not the whole run.
fn read_units(
    mut source: Box<dyn BufRead + Send>,
    game: bool,
    rules: Rules,
    events: &mpsc::Sender<Event>,
) {
    let mut bytes = Vec::new();
    if game {
        let error = source.read_to_end(&mut bytes).err();
        let (units, tasks) = game_units(&String::from_utf8_lossy(&bytes), rules);
        for unit in units {
            let mine = tasks[unit.tasks()].to_vec();
            let _ = events.send(Event::Input(unit, mine));
        }
        let _ = events.send(Event::Ended(error));
        return;
    }
    let mut lines = PositionLines::new(rules);
    let mut line = 0;
    let error = loop {
        bytes.clear();
        match source.read_until(b'\n', &mut bytes) {
            Ok(0) => break None,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Some(e),
        }
        line += 1;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end_matches('\n');
        let text = text.strip_suffix('\r').unwrap_or(text);
        let (answers, stop) = lines.read(line, text);
        for (unit, task) in answers {
            // The printer has gone: nobody reads the answers.
            if events
                .send(Event::Input(unit, task.into_iter().collect()))
                .is_err()
            {
                return;
            }
        }
        if stop {
            break None;
        }
    };
    let _ = events.send(Event::Ended(error));
}

/// After this many faulty lines with the same error in a row, a file of
/// positions is taken to be something else, and reading stops.
const SAME_ERRORS_BEFORE_STOP: usize = 5;

/// Why an input line has no answer.
#[derive(Clone, Debug, thiserror::Error)]
enum AnswerError {
    /// Its search (or one of its game's) failed.
    #[error(transparent)]
    Search(TaskError),
    /// It was never searched (the run stopped first).
    #[error("not searched")]
    NotSearched,
    /// Its game's moves do not replay.
    #[error("the game could not be replayed")]
    NotReplayable,
}

/// Why reading positions stopped before the end of the input.
#[derive(Clone, Copy, Debug, thiserror::Error)]
enum StopReason {
    /// The first line is a PGN tag.
    #[error(
        "this looks like a game record (PGN), not positions: give --game to annotate its games"
    )]
    GameRecord,
    /// The first line opens a JSON object.
    #[error(
        "this looks like JSON, not positions: give one position a line (FEN or startpos, then moves ...), or --game for game records"
    )]
    Json,
    /// One error, again and again.
    #[error(
        "the same error {SAME_ERRORS_BEFORE_STOP} times in a row: stopped reading (one position a line, or --game for game records)"
    )]
    SameErrors,
}

/// What a faulty first line suggests the input is instead of positions.
fn not_positions(line_text: &str) -> Option<StopReason> {
    let t = line_text.trim_start();
    if t.starts_with('[') {
        Some(StopReason::GameRecord)
    } else if t.starts_with('{') {
        Some(StopReason::Json)
    } else {
        None
    }
}

/// Position lines read one at a time, each checked at once so that only
/// valid positions are searched. A first faulty line that looks like a game
/// record or JSON stops the reading with a hint, and so do
/// [`SAME_ERRORS_BEFORE_STOP`] identical errors in a row, rather than one
/// error per line of a file that holds no positions.
struct PositionLines {
    rules: Rules,
    /// Searches handed out so far: the index of the next one.
    tasks: usize,
    seen_valid: bool,
    seen_fault: bool,
    /// The last error and how many times in a row it came.
    same_errors: (String, usize),
}

/// What one input line asks for: its answers, each with its search if it
/// has one, and whether reading stops there.
type LineAnswers = (Vec<(Unit, Option<AnalysisTask>)>, bool);

impl PositionLines {
    fn new(rules: Rules) -> PositionLines {
        PositionLines {
            rules,
            tasks: 0,
            seen_valid: false,
            seen_fault: false,
            same_errors: (String::new(), 0),
        }
    }

    /// The answers of line `line` (1-based).
    fn read(&mut self, line: usize, line_text: &str) -> LineAnswers {
        if input::is_skipped(line_text) {
            return (Vec::new(), false);
        }
        let rules = self.rules;
        let checked = input::parse_position_line(line_text)
            .and_then(|spec| spec.game(rules).map(|game| (spec, game)));
        let error = match checked {
            Ok((position, game)) => {
                self.seen_valid = true;
                self.same_errors.1 = 0;
                let unit = Unit::Position {
                    line,
                    fen: game.position().fen(),
                    to_move: game.position().side_to_move(),
                    task: self.tasks,
                };
                self.tasks += 1;
                let task = AnalysisTask {
                    rules,
                    position,
                    played: None,
                };
                return (vec![(unit, Some(task))], false);
            }
            Err(error) => error,
        };
        let message = error.to_string();
        let first_fault = !self.seen_valid && !self.seen_fault;
        self.seen_fault = true;
        let mut answers = vec![(Unit::Fault(LineError { line, error }), None)];
        if first_fault && let Some(why) = not_positions(line_text) {
            answers.push((Unit::Stop { line, why }, None));
            return (answers, true);
        }
        if self.same_errors.0 == message {
            self.same_errors.1 += 1;
        } else {
            self.same_errors = (message, 1);
        }
        let stop = self.same_errors.1 == SAME_ERRORS_BEFORE_STOP;
        if stop {
            let why = StopReason::SameErrors;
            answers.push((Unit::Stop { line, why }, None));
        }
        (answers, stop)
    }
}

/// One unit per game, with a search for each position of it.
fn game_units(text: &str, rules: crate::rules::Rules) -> (Vec<Unit>, Vec<AnalysisTask>) {
    let mut units = Vec::new();
    let mut tasks = Vec::new();
    for (i, game) in input::parse_games(text, rules).into_iter().enumerate() {
        match game {
            Ok(spec) => {
                let first = tasks.len();
                tasks.extend(game_tasks(&spec));
                units.push(Unit::Game {
                    number: i + 1,
                    spec,
                    first,
                });
            }
            Err(e) => units.push(Unit::Fault(e)),
        }
    }
    (units, tasks)
}

/// The searches that annotate a game ([`annotate::annotate`]): one per
/// position before each move, with the move played there, then the last
/// position. `analyse --game` and the GUI's review share them.
pub fn game_tasks(spec: &GameSpec) -> Vec<AnalysisTask> {
    let moves = &spec.start.moves;
    (0..=moves.len())
        .map(|ply| AnalysisTask {
            rules: spec.rules,
            position: PositionSpec {
                fen: spec.start.fen.clone(),
                moves: moves[..ply].to_vec(),
            },
            // The game's moves were read and checked as moves.
            played: moves.get(ply).and_then(|m| m.parse().ok()),
        })
        .collect()
}

/// The tables' verdict for each position of a game that a move was played
/// in, then for its last position (see [`table_verdict`]).
fn game_marks(
    tables: Option<&TableSet>,
    spec: &GameSpec,
    notes: &annotate::GameNotes,
) -> Vec<Option<Verdict>> {
    let last = spec.start.game(spec.rules).ok().map(|g| g.position().fen());
    notes
        .plies
        .iter()
        .map(|p| Some(p.fen.as_str()))
        .chain([last.as_deref()])
        .map(|fen| fen.and_then(|f| table_verdict(tables, &spec.rules, f)))
        .collect()
}

/// Prints the answers in input order as their searches come in.
struct Printer<'a, W: Write> {
    /// Every answer to give so far, in input order.
    units: Vec<Unit>,
    results: Vec<Option<TaskResult>>,
    /// The first unit not printed yet.
    next: usize,
    all_valid: bool,
    out: W,
    as_json: bool,
    multipv: usize,
    blunder_cp: i32,
    tables: Option<&'a TableSet>,
    /// The rules of every position line.
    rules: Rules,
}

/// The tables' verdict for the side to move in the position `fen` under
/// `rules`: `None` without tables, when the tables were made under other
/// rules, or when the position has more pieces than any table.
fn table_verdict(tables: Option<&TableSet>, rules: &Rules, fen: &str) -> Option<Verdict> {
    let set = tables.filter(|t| t.answers_for(rules))?;
    let pos: Position = fen.parse().ok()?;
    if !set.holds_size_of(&pos) {
        return None;
    }
    set.probe(&pos)
}

impl<W: Write> Printer<'_, W> {
    /// Whether the next unit to print has all its searches.
    fn ready(&self) -> bool {
        self.units
            .get(self.next)
            .is_some_and(|u| self.results[u.tasks()].iter().all(Option::is_some))
    }

    /// Prints every unit from `next` on whose searches are all done.
    fn flush(&mut self) -> std::io::Result<()> {
        let mut wrote = false;
        while self.ready() {
            let (text, valid) = self.render(&self.units[self.next]);
            self.all_valid &= valid;
            writeln!(self.out, "{text}")?;
            wrote = true;
            self.next += 1;
        }
        if wrote {
            // Whoever reads the pipe gets each answer when it is ready.
            self.out.flush()?;
        }
        Ok(())
    }

    /// The answer's line, and whether its input was valid.
    fn render(&self, unit: &Unit) -> (String, bool) {
        let as_json = self.as_json;
        let (line, outcome) = match unit {
            Unit::Fault(e) => return (report::error(e, as_json), false),
            Unit::Stop { line, why } => {
                return (
                    report::error_message(*line, &why.to_string(), as_json),
                    false,
                );
            }
            Unit::Position {
                line,
                fen,
                to_move,
                task,
            } => (
                *line,
                match &self.results[*task] {
                    Some(Ok(answer)) => Ok(report::position(
                        *line,
                        fen,
                        *to_move,
                        &answer.search,
                        table_verdict(self.tables, &self.rules, fen),
                        self.multipv,
                        as_json,
                    )),
                    Some(Err(e)) => Err(AnswerError::Search(e.clone())),
                    None => Err(AnswerError::NotSearched),
                },
            ),
            Unit::Game { number, spec, .. } => {
                let searches: Result<Vec<_>, AnswerError> = self.results[unit.tasks()]
                    .iter()
                    .map(|r| match r {
                        Some(Ok(r)) => Ok(r),
                        Some(Err(e)) => Err(AnswerError::Search(e.clone())),
                        None => Err(AnswerError::NotSearched),
                    })
                    .collect();
                (
                    spec.line,
                    searches.and_then(|s| {
                        annotate::annotate(spec, &s, self.blunder_cp)
                            .map(|notes| {
                                let marks = game_marks(self.tables, spec, &notes);
                                report::game(*number, spec, &notes, &marks, as_json)
                            })
                            .ok_or(AnswerError::NotReplayable)
                    }),
                )
            }
        };
        match outcome {
            Ok(text) => (text, true),
            Err(e) => (report::error_message(line, &e.to_string(), as_json), false),
        }
    }
}

/// A progress bar on standard error, only when it is a terminal and the work
/// is long enough to be worth watching.
struct AnalyseProgress {
    /// The searches known so far (more may come while the input is read).
    total: usize,
    done: usize,
    enabled: bool,
    last_drawn: Option<Instant>,
}

impl AnalyseProgress {
    fn new() -> AnalyseProgress {
        AnalyseProgress {
            total: 0,
            done: 0,
            enabled: std::io::stderr().is_terminal(),
            last_drawn: None,
        }
    }

    fn tick(&mut self) {
        self.done += 1;
        if !self.enabled || self.total <= PROGRESS_MIN_TASKS {
            return;
        }
        // Redrawing ten times a second is plenty and keeps the terminal cheap.
        if self
            .last_drawn
            .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
            && self.done < self.total
        {
            return;
        }
        self.last_drawn = Some(Instant::now());
        const WIDTH: usize = 30;
        let filled = WIDTH * self.done / self.total.max(1);
        eprint!(
            "\r[{}{}] {}/{} positions",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            self.done,
            self.total
        );
    }

    /// Erases the bar; the next tick draws it again.
    fn hide(&mut self) {
        if self.enabled && self.last_drawn.take().is_some() {
            eprint!("\r\x1b[2K");
        }
    }

    /// Erases the bar for good: the terminal then shows only the answers.
    fn finish(&mut self) {
        self.hide();
        self.enabled = false;
    }
}
