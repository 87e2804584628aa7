//! `doushou tune`: fits the evaluation's weights to self-play data by the Texel
//! method and writes them where the build takes them (`src/engine/weights.rs`).

use crate::engine::eval::WEIGHTS;
use crate::tuning::texel::{self, TuneConfig};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `doushou tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data files written by `doushou selfplay` (several may be given).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Full passes of gradient descent.
    #[arg(long, default_value_t = 2000)]
    pub epochs: usize,
    /// Adam's step in centipawns (about how far a weight moves per epoch at first).
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// Pull of each weight towards its starting value (keeps rare features put).
    #[arg(long, default_value_t = 1e-9)]
    pub l2: f64,
    /// Start from the weights in this file (as `tune` writes them) instead of
    /// those built in.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Where to write the weights: the file the build includes by default.
    #[arg(long, default_value = "src/engine/weights.rs")]
    pub out: PathBuf,
    /// Threads for rayon (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs `doushou tune`; progress goes to stderr.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    if args.epochs == 0 || !args.learning_rate.is_finite() || !args.l2.is_finite() {
        return Err("--epochs must be positive and the rates finite".into());
    }
    let start = match &args.start {
        Some(path) => texel::parse_weights(path).map_err(|e| e.to_string())?,
        None => WEIGHTS,
    };
    let data = texel::load(&args.data).map_err(|e| e.to_string())?;
    eprintln!(
        "tune: {} positions ({} for validation) from {} games",
        data.positions(),
        data.validation.len(),
        data.games
    );
    let config = TuneConfig {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        report_every: (args.epochs / 20).max(1),
        k: None,
    };
    let report = texel::tune(&data, &start, &config, &mut |epoch, train, valid| {
        eprintln!("tune: epoch {epoch:>5}  error {train:.6}  validation {valid:.6}");
    });
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let mut header = vec![
        "The evaluation's weights, written by `doushou tune` (the recipe is in docs/tuning.md)."
            .to_string(),
        format!(
            "Data: {} self-play games, {} quiet positions ({} held out), from {}.",
            data.games,
            data.positions(),
            data.validation.len(),
            files.join(", ")
        ),
    ];
    header.extend(data.runs.iter().map(|r| format!("  run: {r}")));
    header.push(format!(
        "Fit: K = {:.6}/cp, {} epochs, learning rate {}, l2 {}; mean squared error {:.6} -> {:.6}, validation {:.6} -> {:.6}.",
        report.k,
        report.epochs,
        args.learning_rate,
        args.l2,
        report.train_error.0,
        report.train_error.1,
        report.validation_error.0,
        report.validation_error.1
    ));
    texel::write_weights(&args.out, &texel::render_weights(&report.weights, &header))
        .map_err(|e| e.to_string())?;
    eprintln!(
        "tune: K {:.6}, error {:.6} -> {:.6}, validation {:.6} -> {:.6}; wrote {} (rebuild to use them)",
        report.k,
        report.train_error.0,
        report.train_error.1,
        report.validation_error.0,
        report.validation_error.1,
        args.out.display()
    );
    Ok(())
}
