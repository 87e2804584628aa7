//! `doushou selfplay`: labelled positions from the engine playing itself, for
//! `doushou tune` (the recipe is in `docs/tuning.md`).

use super::RulesArgs;
use crate::tuning::selfplay::{self, SelfplayConfig};
use clap::Args;
use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `doushou selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search nodes per move (the default limit when no depth is given: 5000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Random plies at the start of each game, for variety (not written).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of the random plies: the same seed and settings give the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Plies after which an unfinished game is scored a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Transposition table of each engine, MB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// The data file to write (`<FEN> ; <result from Red's view>` lines).
    #[arg(long)]
    pub out: PathBuf,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs `doushou selfplay`; progress goes to stderr.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    let nodes = match (args.depth, args.nodes) {
        (None, None) => Some(5000),
        (_, n) => n,
    };
    let config = SelfplayConfig {
        games: args.games,
        depth: args.depth,
        nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        jobs: args.jobs,
        max_plies: args.max_plies,
        hash_mb: args.hash,
        rules: args.rules.rules()?,
    };
    // Refuse a bad configuration before creating (and emptying) the output.
    config.check().map_err(|e| e.to_string())?;
    let file = std::fs::File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let mut last = Instant::now();
    let summary = selfplay::run(&config, &mut out, &mut |p| {
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
    .map_err(|e| e.to_string())?;
    eprintln!(
        "selfplay: wrote {} positions from {} games to {} in {:.0} s",
        summary.positions,
        summary.games,
        args.out.display(),
        summary.seconds
    );
    Ok(())
}
