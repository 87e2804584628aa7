//! `doushou bench`: the fixed search whose node count signs every change.

use crate::cli::args::RulesArgs;
use crate::engine::{Engine, SearchControl};
use clap::Args;

/// Arguments of `doushou bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(long, default_value_t = crate::engine::bench::DEFAULT_DEPTH)]
    pub depth: i32,
    /// Search threads (the node count is deterministic only with one).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// The evaluation (`--eval`, `--eval-file`).
    #[command(flatten)]
    pub eval: crate::cli::args::EvalArgs,
    /// The rules searched under (`--variant`, `--set`): the node count signs
    /// the default rules only.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs the bench; lines go to stdout.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let mut engine = Engine::new();
    engine.set_rules(args.rules.rules()?);
    engine
        .set_option("Threads", Some(&args.threads.to_string()))
        .map_err(|e| e.to_string())?;
    engine
        .set_option("Hash", Some(&args.hash.to_string()))
        .map_err(|e| e.to_string())?;
    args.eval.apply(&mut engine)?;
    crate::engine::bench::run(
        engine.searcher(),
        *engine.rules(),
        Some(args.depth),
        &SearchControl::default(),
        |l| println!("{l}"),
    )?;
    Ok(())
}
