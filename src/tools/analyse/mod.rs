//! What `doushou analyse` does: positions or whole games in, one answer per input out,
//! searched on every core. The input is read whole first (so that its length
//! is known for the progress bar and the work can be shared out), then the
//! answers are printed strictly in input order, each as soon as it and every
//! answer before it are ready.
//! The command line is in `src/cli/analyse.rs`; the answer of [`analyse`]
//! says which exit code it gives.

pub mod annotate;
pub mod pool;
pub mod report;

use crate::engine::GoLimits;
use crate::engine::time::TimeLimits;
use crate::rules::{Position, Rules, Side};
use crate::tb::{TableSet, TbError, Verdict};
use crate::tools::pgn::read::{self as input, GameSpec, LineError, PositionSpec};
use crate::util::options::OptionError;
use pool::{AnalysisTask, Setup, TaskResult};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
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
    pub jobs: Option<u32>,
    /// Table per job, MB.
    pub hash: u32,
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
    /// `--eval-file` names a file that is not a usable net.
    #[error("{0}")]
    Eval(String),
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
        message: String,
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
            engine_options.push(("TablebasePath".to_string(), dir.display().to_string()));
            Some(set)
        }
        None => None,
    };
    let text = read_input(args.input.as_ref())?;
    let (units, tasks) = if args.game {
        game_units(&text, rules)
    } else {
        position_units(&text, rules)
    };
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
        hash_mb: args.hash as usize,
        multipv: args.multipv as usize,
        limits,
        engine_options,
    };
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let mut printer = Printer {
        units: &units,
        results: vec![None; tasks.len()],
        next: 0,
        all_valid: true,
        out: std::io::stdout().lock(),
        as_json: args.json,
        multipv: args.multipv as usize,
        blunder_cp: args.blunder.min(i32::MAX as u32) as i32,
        tables: tables.as_deref(),
        rules,
    };
    let mut progress = AnalyseProgress::new(tasks.len());
    let printed = printer.flush().and_then(|()| {
        pool::run(&tasks, &setup, jobs, |i, result| {
            printer.results[i] = Some(result);
            if printer.ready() {
                // The answers may go to the same terminal as the bar.
                progress.hide();
            }
            printer.flush()?;
            progress.tick();
            Ok(())
        })
    });
    progress.finish();
    match printed {
        Ok(()) => Ok(printer.all_valid),
        Err(e) => Err(AnalyseError::Write(e)),
    }
}

/// The whole input as text; bytes that are not UTF-8 become U+FFFD and so
/// make their line invalid, not the whole run.
fn read_input(path: Option<&PathBuf>) -> Result<String, AnalyseError> {
    let mut bytes = Vec::new();
    let (name, result) = match path {
        Some(p) if p.as_os_str() != "-" => (
            p.display().to_string(),
            std::fs::File::open(p).and_then(|mut f| f.read_to_end(&mut bytes)),
        ),
        _ => ("standard input".to_string(), {
            std::io::stdin().lock().read_to_end(&mut bytes)
        }),
    };
    result.map_err(|source| AnalyseError::Read { path: name, source })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// One unit per position line, checked now so that only valid positions are searched.
/// After this many faulty lines with the same error in a row, a file of
/// positions is taken to be something else, and reading stops.
const SAME_ERRORS_BEFORE_STOP: usize = 5;

/// What a faulty first line suggests the input is instead of positions.
fn not_positions(line_text: &str) -> Option<&'static str> {
    let t = line_text.trim_start();
    if t.starts_with('[') {
        Some(
            "this looks like a game record (PGN), not positions: give --game to annotate its games",
        )
    } else if t.starts_with('{') {
        Some(
            "this looks like JSON, not positions: give one position a line (FEN or startpos, then moves ...), or --game for game records",
        )
    } else {
        None
    }
}

/// One unit per position line. A first faulty line that looks like a game
/// record or JSON stops the reading with a hint, and so do
/// [`SAME_ERRORS_BEFORE_STOP`] identical errors in a row, rather than one
/// error per line of a file that holds no positions.
fn position_units(text: &str, rules: crate::rules::Rules) -> (Vec<Unit>, Vec<AnalysisTask>) {
    let mut units = Vec::new();
    let mut tasks = Vec::new();
    let mut seen_valid = false;
    let mut same_errors: (String, usize) = (String::new(), 0);
    for (i, line_text) in text.lines().enumerate() {
        let line = i + 1;
        if input::is_skipped(line_text) {
            continue;
        }
        let checked = input::parse_position_line(line_text)
            .and_then(|spec| spec.game(rules).map(|game| (spec, game)));
        match checked {
            Ok((position, game)) => {
                seen_valid = true;
                same_errors.1 = 0;
                units.push(Unit::Position {
                    line,
                    fen: game.position().fen(),
                    to_move: game.position().side_to_move(),
                    task: tasks.len(),
                });
                tasks.push(AnalysisTask {
                    rules,
                    position,
                    played: None,
                });
            }
            Err(error) => {
                let message = error.to_string();
                let first_fault = !seen_valid && !units.iter().any(|u| matches!(u, Unit::Fault(_)));
                units.push(Unit::Fault(LineError { line, error }));
                if first_fault && let Some(hint) = not_positions(line_text) {
                    units.push(Unit::Stop {
                        line,
                        message: hint.to_string(),
                    });
                    break;
                }
                if same_errors.0 == message {
                    same_errors.1 += 1;
                } else {
                    same_errors = (message, 1);
                }
                if same_errors.1 == SAME_ERRORS_BEFORE_STOP {
                    units.push(Unit::Stop {
                        line,
                        message: format!(
                            "the same error {SAME_ERRORS_BEFORE_STOP} times in a row: stopped reading (one position a line, or --game for game records)"
                        ),
                    });
                    break;
                }
            }
        }
    }
    (units, tasks)
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
    units: &'a [Unit],
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
            let units = self.units;
            let text = self.render(&units[self.next]);
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

    fn render(&mut self, unit: &Unit) -> String {
        let as_json = self.as_json;
        let (line, outcome) = match unit {
            Unit::Fault(e) => {
                self.all_valid = false;
                return report::error(e, as_json);
            }
            Unit::Stop { line, message } => {
                self.all_valid = false;
                return report::error_message(*line, message, as_json);
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
                    Some(Err(e)) => Err(e.to_string()),
                    None => Err("not searched".to_string()),
                },
            ),
            Unit::Game { number, spec, .. } => {
                let searches: Result<Vec<_>, String> = self.results[unit.tasks()]
                    .iter()
                    .map(|r| match r {
                        Some(Ok(r)) => Ok(r),
                        Some(Err(e)) => Err(e.to_string()),
                        None => Err("not searched".to_string()),
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
                            .ok_or_else(|| "the game could not be replayed".to_string())
                    }),
                )
            }
        };
        outcome.unwrap_or_else(|e| {
            self.all_valid = false;
            report::error_message(line, &e, as_json)
        })
    }
}

/// A progress bar on standard error, only when it is a terminal and the work
/// is long enough to be worth watching.
struct AnalyseProgress {
    total: usize,
    done: usize,
    enabled: bool,
    last_drawn: Option<Instant>,
}

impl AnalyseProgress {
    fn new(total: usize) -> AnalyseProgress {
        AnalyseProgress {
            total,
            done: 0,
            enabled: total > PROGRESS_MIN_TASKS && std::io::stderr().is_terminal(),
            last_drawn: None,
        }
    }

    fn tick(&mut self) {
        self.done += 1;
        if !self.enabled {
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
