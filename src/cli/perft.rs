//! `doushou perft`: leaf counts from the command line.

use crate::cli::args::{self, RulesArgs};
use crate::cli::exit::{Failure, write_out};
use crate::rules::{Game, START_FEN, perft_divide};
use clap::Args;
use std::time::Instant;

/// Arguments of `doushou perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count down to.
    pub depth: u32,
    /// The root position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the root position first (they become the game history).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Print the leaves under each root move.
    #[arg(long)]
    pub divide: bool,
    /// Threads to count on, 1 to 256 (root moves are shared out).
    #[arg(long, default_value_t = 1, value_parser = args::threads())]
    pub threads: usize,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs `doushou perft`: the count (or each move's with --divide) on stdout.
pub fn run(args: &PerftArgs) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let game = Game::from_fen_and_moves(rules, fen, &args.moves).map_err(Failure::input)?;
    let start = Instant::now();
    let report = perft_divide(&game, args.depth, args.threads);
    let seconds = start.elapsed().as_secs_f64();
    let mut text = String::new();
    if args.divide {
        for (m, n) in &report.divide {
            text.push_str(&format!("{m}: {n}\n"));
        }
    }
    text.push_str(&format!("Nodes searched: {}\n", report.nodes));
    write_out(&text)?;
    eprintln!(
        "perft {} in {:.3} s: {:.0} leaves/s on {} thread(s)",
        args.depth,
        seconds,
        report.nodes as f64 / seconds.max(1e-9),
        args.threads
    );
    Ok(())
}
