//! The command line of `doushou analyse` (the work is in
//! [`crate::tools::analyse`]).
//!
//! Exit code: 0 when every input was answered, 1 when some were invalid (they
//! get an error line and the rest goes on) or the tables of `--tablebases`
//! were refused, 2 for a usage error.

use crate::cli::args::{self, EvalArgs, RulesArgs};
use crate::cli::exit::Failure;
use crate::tools::analyse::{AnalyseConfig, AnalyseError, analyse};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `doushou analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The input file; `-` or nothing reads standard input. Each line is a
    /// position: `startpos` or a FEN, optionally followed by `moves ...`.
    /// Blank lines and lines starting with `#` are skipped.
    pub input: Option<PathBuf>,
    /// Search each position to this depth, 1 to 100 (default 10 when no
    /// limit is given).
    #[arg(long, value_parser = args::depth())]
    pub depth: Option<u32>,
    /// Search each position for at most this many nodes (at least 1).
    #[arg(long, value_parser = args::positive::<u64>())]
    pub nodes: Option<u64>,
    /// Search each position for this many milliseconds, at least 1 (not reproducible).
    #[arg(long, value_name = "MS", value_parser = args::positive::<u64>())]
    pub movetime: Option<u64>,
    /// Report the best K lines of each position (positions only; in JSON as a
    /// `multipv` array).
    #[arg(long, value_name = "K", default_value_t = 1, conflicts_with = "game",
          value_parser = args::whole::<u32>(1, 32))]
    pub multipv: u32,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// The input is games: records written by `doushou match` (their Rules and
    /// FEN tags apply), or one game per line (`startpos moves ...`, `<fen>
    /// moves ...`, or a bare move list). Every move is annotated.
    #[arg(long)]
    pub game: bool,
    /// With --game: a move losing more than this many centipawns against the
    /// engine's choice is flagged as a blunder (mates count as 10000).
    #[arg(long, value_name = "CP", requires = "game",
          default_value_t = crate::tools::analyse::annotate::DEFAULT_BLUNDER_CP)]
    pub blunder: u32,
    /// Positions searched at once, 1 to 256, each by its own engine with its
    /// own table (default: one per core). The answers do not depend on it at
    /// a fixed depth or node count.
    #[arg(long, value_name = "N", value_parser = args::threads())]
    pub jobs: Option<usize>,
    /// Endgame tables (made by `doushou tb generate`): each analysed position
    /// they hold is marked `tb win N`, `tb loss N` or `tb draw` for the side to
    /// move (N in plies; in JSON a `tablebase` field), and the searches use
    /// them. Tables made under other rules are refused before any search.
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
    /// Transposition table of each job, MB, 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = args::hash_mb())]
    pub hash: usize,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The evaluation (`--eval`, `--eval-file`).
    #[command(flatten)]
    pub eval: EvalArgs,
}

impl AnalyseArgs {
    /// The analysis these arguments ask for, once the rules and the
    /// evaluation they name are checked.
    /// Either refused is a usage error.
    pub fn config(&self) -> Result<AnalyseConfig, Failure> {
        Ok(AnalyseConfig {
            input: self.input.clone(),
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            multipv: self.multipv,
            json: self.json,
            game: self.game,
            blunder: self.blunder,
            jobs: self.jobs,
            hash: self.hash,
            tablebases: self.tablebases.clone(),
            rules: (self.rules.rules()).map_err(|e| Failure::usage(AnalyseError::Rules(e)))?,
            engine_options: self.eval.settings()?,
        })
    }
}

/// Runs `doushou analyse`; answers the exit code.
pub fn run(args: &AnalyseArgs) -> i32 {
    let failure = match args.config().map(|config| analyse(&config)) {
        Err(failure) => failure,
        Ok(Ok(all_valid)) => return i32::from(!all_valid),
        Ok(Err(AnalyseError::Write(e))) => Failure::Output(e),
        Ok(Err(AnalyseError::Tablebases(e))) => Failure::from(e),
        Ok(Err(e)) => Failure::usage(e),
    };
    failure.report()
}
