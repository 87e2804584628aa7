//! `doushou selfplay`: labelled positions from the engine playing itself, for
//! `doushou train` and `doushou tune` (the recipes are in `docs/nnue.md` and
//! `docs/tuning.md`).

use crate::cli::args::{self, EvalArgs, RulesArgs};
use crate::cli::exit::Failure;
use crate::rules::Rules;
use crate::tools::matches::openings::{self, Opening, OpeningsFileError};
use crate::tuning::selfplay::{self, FileRunError, SelfplayConfig, SelfplayError};
use crate::util::fs::TextFileError;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `doushou selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games in the whole run (over all shards), at least 1.
    #[arg(long, default_value_t = 100, value_parser = args::positive::<usize>())]
    pub games: usize,
    /// Search depth per move, 1 to 100.
    #[arg(long, value_parser = args::depth())]
    pub depth: Option<u32>,
    /// Search nodes per move, at least 1 (the default limit when no depth is given: 5000).
    #[arg(long, value_parser = args::positive::<u64>())]
    pub nodes: Option<u64>,
    /// Openings to start from, one a line as `match --openings` reads them
    /// (game `i` from opening `i` modulo their number); default: the start
    /// position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random plies at the start of each game, after its opening, for
    /// variety (not written).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of the random plies: the same seed and settings give the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, 1 to 256, one search thread each (default: every core).
    #[arg(long, value_parser = args::threads())]
    pub jobs: Option<usize>,
    /// Plies after which an unfinished game is scored a draw, at least 1.
    #[arg(long, default_value_t = 400, value_parser = args::positive::<usize>())]
    pub max_plies: usize,
    /// Transposition table of each engine, MB, 1 to 65536.
    #[arg(long, default_value_t = 4, value_parser = args::hash_mb())]
    pub hash: usize,
    /// This machine's part of the run, `I/N` (0-based): the I-th of N
    /// consecutive blocks of games. The index may also come from the
    /// environment: `--shard env/N` reads `JOB_COMPLETION_INDEX` (a Kubernetes
    /// Indexed Job). Concatenated in order, the parts equal the unsharded run.
    #[arg(long, default_value = "0/1", value_name = "I/N")]
    pub shard: String,
    /// The data file to write (`<FEN> ; <result> ; <score>` lines, Red's view).
    #[arg(long)]
    pub out: PathBuf,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The evaluation that plays (`--eval`, `--eval-file`).
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// Runs `doushou selfplay`; progress goes to stderr.
pub fn run(args: &SelfplayArgs) -> Result<(), Failure> {
    let nodes = match (args.depth, args.nodes) {
        (None, None) => Some(5000),
        (_, n) => n,
    };
    let rules = args.rules.rules()?;
    let openings = match &args.openings {
        Some(path) => read_openings(path, rules)?,
        None => Vec::new(),
    };
    let config = SelfplayConfig {
        games: args.games,
        depth: args.depth,
        nodes,
        openings,
        random_plies: args.random_plies,
        seed: args.seed,
        jobs: args.jobs.unwrap_or_else(crate::util::pool::every_core),
        max_plies: args.max_plies,
        hash_mb: args.hash,
        rules,
        shard: args::parse_shard(&args.shard)?,
        engine_options: args.eval.settings()?,
    };
    // Refuse a bad configuration before creating (and emptying) the output.
    config.check().map_err(Failure::usage)?;
    let mut last = Instant::now();
    let summary = selfplay::run_to_file(&config, &args.out, &mut |p| {
        // About one line every ten seconds, and the last one always.
        if p.games == p.total || last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            eprintln!(
                "selfplay: {}/{} games, {} positions, +{} ={} -{} (Red's view), {:.1} games/s",
                p.games,
                p.total,
                p.positions,
                p.score[0],
                p.score[1],
                p.score[2],
                p.games as f64 / p.seconds.max(1e-9)
            );
        }
    })
    .map_err(|e| match e {
        // `--out /dev/stdout | head -1`: the reader went away, a quiet end.
        FileRunError::Run {
            source: SelfplayError::Io(e),
            ..
        } if e.kind() == std::io::ErrorKind::BrokenPipe => Failure::Output(e),
        e @ FileRunError::Create { .. } => Failure::usage(e),
        e => Failure::input(e),
    })?;
    eprintln!(
        "selfplay: wrote {} positions from {} games to {} in {:.0} s",
        summary.positions,
        summary.games,
        args.out.display(),
        summary.seconds
    );
    Ok(())
}

/// The openings of `--openings`: a file that cannot be read is a wrong
/// command line (exit code 2), a line the rules refuse bad input (1).
fn read_openings(path: &std::path::Path, rules: Rules) -> Result<Vec<Opening>, Failure> {
    openings::read_openings(path, rules).map_err(|e| match e {
        e @ OpeningsFileError::File(TextFileError::Open { .. }) => Failure::usage(e),
        e => Failure::input(e),
    })
}
