//! The command line of `doushou races`: build the den-race suite from game
//! records, or score a search against it (the work is in
//! [`crate::tools::races`]).
//!
//! Exit code: 0 when done, 1 for a bad input file, a failed write or an engine
//! program (`score --program`) that fails, 2 for a bad command line, a file
//! it names that cannot be opened or created, or an option the engine refuses.

use crate::cli::args::parse_shard;
use crate::cli::args::{self, EvalArgs, RulesArgs};
use crate::cli::exit::{Failure, write_out};
use crate::client::EngineSpec;
use crate::engine::GoLimits;
use crate::engine::time::TimeLimits;
use crate::tools::analyse::pool::{Setup, TaskError};
use crate::tools::races::build::{self, BuildConfig, BuildError, BuildRun};
use crate::tools::races::score::{Answer, score_suite, score_suite_with_program};
use crate::tools::races::{Judge, SuiteFileError, read_suite_file};
use crate::util::fs::TextFileError;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// Arguments of `doushou races`.
#[derive(Args, Debug)]
pub struct RacesArgs {
    /// Build the suite, or score a search against it.
    #[command(subcommand)]
    pub action: RacesAction,
}

/// What `doushou races` does.
#[derive(Subcommand, Debug)]
pub enum RacesAction {
    /// Walk back from each den entry of the games to the move that lost the
    /// race, and append the position, the mistake and the moves that hold to
    /// the suite file (resumable: finished games are skipped).
    Build(BuildArgs),
    /// Search each suite position and count the answers that hold.
    Score(ScoreArgs),
}

/// How long each search may take: nodes, depth, or time.
#[derive(Args, Debug, Clone, Default)]
pub struct SearchLimitArgs {
    /// Search each position for at most this many nodes (at least 1).
    #[arg(long, value_parser = args::positive::<u64>())]
    pub nodes: Option<u64>,
    /// Search each position to this depth, 1 to 100.
    #[arg(long, value_parser = args::depth())]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds, at least 1 (not
    /// reproducible: the result depends on the machine and its load).
    #[arg(long, value_name = "MS", value_parser = args::positive::<u64>())]
    pub movetime: Option<u64>,
}

impl SearchLimitArgs {
    /// The limits, or `None` when none was given.
    fn limits(&self) -> Option<GoLimits> {
        if self.nodes.is_none() && self.depth.is_none() && self.movetime.is_none() {
            return None;
        }
        Some(GoLimits {
            nodes: self.nodes,
            depth: self.depth,
            time: TimeLimits {
                movetime: self.movetime,
                ..TimeLimits::default()
            },
            ..GoLimits::default()
        })
    }
}

/// What every search of both actions is run with.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineArgs {
    /// Searches at once, 1 to 256, each by its own engine (default: one per core).
    #[arg(long, value_name = "N", value_parser = args::threads())]
    pub jobs: Option<usize>,
    /// Transposition table of each job, MB, 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = args::hash_mb())]
    pub hash: usize,
    /// An engine option by its protocol name, for every search:
    /// --option Contempt=0 (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The evaluation (`--eval`, `--eval-file`).
    #[command(flatten)]
    pub eval: EvalArgs,
}

impl EngineArgs {
    /// The engine setup for searches at `limits`.
    fn setup(&self, limits: GoLimits) -> Result<Setup, Failure> {
        let mut engine_options = self.eval.settings()?;
        for option in &self.options {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| Failure::usage(RacesArgError::OptionShape(option.clone())))?;
            engine_options.push((name.trim().to_string(), value.trim().to_string()));
        }
        // The engine checks the options when each worker makes its engine
        // (`build` once more before it touches the suite file).
        Ok(Setup {
            hash_mb: self.hash,
            multipv: 1,
            limits,
            engine_options,
        })
    }

    /// Jobs to run at once.
    fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(crate::util::pool::every_core)
    }
}

/// What is wrong with a command line of `doushou races` that clap lets by.
#[derive(Debug, thiserror::Error)]
pub enum RacesArgError {
    /// `--option` without `=`.
    #[error("--option {0}: expected NAME=VALUE")]
    OptionShape(String),
    /// `score` with no limit on its searches.
    #[error("give a limit: --nodes, --depth or --movetime")]
    NoLimit,
}

/// An engine that refuses an option is a bad command line; one that refuses a
/// position is bad input.
fn engine_failure(e: TaskError) -> Failure {
    match e {
        TaskError::Option(_) => Failure::usage(e),
        _ => Failure::input(e),
    }
}

/// Arguments of `doushou races build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Game records: `doushou match` PGN files, or one game per line.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The suite file to write; an existing one is resumed.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The long search that judges each position (default: --nodes 4000000).
    #[command(flatten)]
    pub limits: SearchLimitArgs,
    /// A score of at least this many centipawns counts as a win (default:
    /// only a mate or a table win does).
    #[arg(long, value_name = "CP", value_parser = args::positive::<u64>())]
    pub won_cp: Option<u64>,
    /// Walk back over at most this many of the loser's moves.
    #[arg(long, value_name = "N", default_value_t = 24, value_parser = args::positive::<u64>())]
    pub max_walk: u64,
    /// Only games lost by this player (the records' Red/Blue name).
    #[arg(long, value_name = "NAME")]
    pub loser: Option<String>,
    /// This run's part of the games: I/N (from 0/N), or env/N to read the
    /// index from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job).
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// The rules of records that do not name theirs (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The engines that search.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Arguments of `doushou races score`.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// The suite file (`bench-positions/den-races.txt`).
    pub suite: PathBuf,
    /// Each search's limit (at least one of them).
    #[command(flatten)]
    pub limits: SearchLimitArgs,
    /// Print one line per position (its number, the move, held/mistake/lost).
    #[arg(long)]
    pub verbose: bool,
    /// Ask an engine program instead of the engine built in, as KEY=VALUE
    /// words of `doushou match --engine`: cmd="PROGRAM ARGS" [name=NAME]
    /// [option.NAME=VALUE]... (one process per job; --option, --eval and
    /// --hash are then the program's own options).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., conflicts_with_all = ["options", "hash", "eval", "eval_file"])]
    pub program: Option<Vec<String>>,
    /// The engines that search.
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Runs `doushou races`.
pub fn run(args: &RacesArgs) -> Result<(), Failure> {
    match &args.action {
        RacesAction::Build(a) => run_build(a),
        RacesAction::Score(a) => run_score(a),
    }
}

fn run_build(args: &BuildArgs) -> Result<(), Failure> {
    let limits = args.limits.limits().unwrap_or_else(build::default_limits);
    let run = BuildRun {
        config: BuildConfig {
            setup: args.engine.setup(limits)?,
            judge: Judge {
                won_cp: args.won_cp.map(|cp| cp.min(i32::MAX as u64) as i32),
            },
            max_walk: args.max_walk as usize,
            loser: args.loser.clone(),
        },
        inputs: args.games.clone(),
        rules: args.rules.rules()?,
        out: args.out.clone(),
        shard: parse_shard(&args.shard)?,
        jobs: args.engine.jobs(),
    };
    let summary = build::build(&run).map_err(|e| match e {
        BuildError::Search(e) => engine_failure(e),
        e @ (BuildError::File(TextFileError::Open { .. }) | BuildError::Create { .. }) => {
            Failure::usage(e)
        }
        e => Failure::input(e),
    })?;
    write_out(&format!(
        "{} games in this shard, {} done before, {} entries found this run: {}\n",
        summary.games,
        summary.resumed,
        summary.entries,
        args.out.display()
    ))
}

fn run_score(args: &ScoreArgs) -> Result<(), Failure> {
    let limits = args
        .limits
        .limits()
        .ok_or_else(|| Failure::usage(RacesArgError::NoLimit))?;
    let entries = read_suite_file(&args.suite).map_err(|e| match e {
        e @ SuiteFileError::File(TextFileError::Open { .. }) => Failure::usage(e),
        e => Failure::input(e),
    })?;
    let mut written = Ok(());
    let on_answer = |i: usize, answer: Answer| {
        if args.verbose && written.is_ok() {
            written = write_out(&format!(
                "{} {} {}\n",
                i + 1,
                answer.best,
                answer.verdict.name()
            ));
        }
    };
    let score = match &args.program {
        Some(words) => {
            let spec = EngineSpec::parse(&[] as &[String], words).map_err(Failure::usage)?;
            score_suite_with_program(&entries, &spec, &limits, args.engine.jobs(), on_answer)
                .map_err(Failure::input)?
        }
        None => {
            let setup = args.engine.setup(limits)?;
            score_suite(&entries, &setup, args.engine.jobs(), on_answer).map_err(engine_failure)?
        }
    };
    written?;
    write_out(&format!(
        "held {} of {} ({:.1} %), the game's mistake {}, another losing move {}\n",
        score.held,
        score.total,
        score.held_percent(),
        score.mistakes,
        score.total - score.held - score.mistakes
    ))
}
