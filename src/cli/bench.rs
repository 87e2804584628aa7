//! `doushou bench`: the fixed search whose node count signs every change.

use crate::cli::args::{self, RulesArgs};
use crate::cli::exit::{Failure, write_out};
use crate::engine::{Engine, SearchControl, option};
use clap::Args;

/// Arguments of `doushou bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search, 1 to 100.
    #[arg(long, default_value_t = crate::engine::bench::DEFAULT_DEPTH as u32,
          value_parser = args::depth())]
    pub depth: u32,
    /// Search threads, 1 to 256 (the node count is deterministic only with one).
    #[arg(long, default_value_t = 1, value_parser = args::threads())]
    pub threads: usize,
    /// Transposition table, MB, 1 to 65536 (cleared before each position).
    #[arg(long, default_value_t = 16, value_parser = args::hash_mb())]
    pub hash: usize,
    /// The evaluation (`--eval`, `--eval-file`).
    #[command(flatten)]
    pub eval: crate::cli::args::EvalArgs,
    /// The rules searched under (`--variant`, `--set`): the node count signs
    /// the default rules only.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs the bench; lines go to stdout. A failed write stops it at once.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let mut engine = Engine::new();
    engine.set_rules(args.rules.rules()?);
    engine.set_option(option::THREADS, Some(&args.threads.to_string()))?;
    engine.set_option(option::HASH, Some(&args.hash.to_string()))?;
    args.eval.apply(&mut engine)?;
    let control = SearchControl::default();
    let mut write_error = None;
    let ran = crate::engine::bench::run(
        engine.threads(),
        *engine.rules(),
        Some(args.depth as i32),
        &control,
        |l| {
            if write_error.is_none()
                && let Err(e) = write_out(&format!("{l}\n"))
            {
                write_error = Some(e);
                control.stop();
            }
        },
    );
    match (write_error, ran) {
        (Some(e), _) => Err(e),
        (None, Err(why)) => Err(Failure::input(why)),
        (None, Ok(_)) => Ok(()),
    }
}
