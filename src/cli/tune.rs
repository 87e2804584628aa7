//! `doushou tune`: fits the evaluation's weights to self-play data by the Texel
//! method and writes them as a `weights.rs` file: a new file by default; the
//! build takes them from `src/engine/weights.rs` when the user puts them there.

use crate::cli::exit::Failure;
use crate::engine::eval::WEIGHTS;
use crate::tuning::texel::{self, Split, TuneConfig};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `doushou tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data files written by `doushou selfplay` (several may be given).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Full passes of gradient descent, at least 1.
    #[arg(long, default_value_t = 2000, value_parser = crate::cli::args::positive::<usize>())]
    pub epochs: usize,
    /// Adam's step in centipawns (about how far a weight moves per epoch at first).
    #[arg(long, default_value_t = 2.0, value_parser = crate::cli::args::finite)]
    pub learning_rate: f64,
    /// Pull of each weight towards its starting value (keeps rare features put).
    #[arg(long, default_value_t = 1e-9, value_parser = crate::cli::args::finite)]
    pub l2: f64,
    /// Start from the weights in this file (as `tune` writes them) instead of
    /// those built in.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Where to write the weights (checked before the fit). The build plays
    /// with `src/engine/weights.rs`: name it to replace the weights in use.
    #[arg(long, value_name = "FILE", default_value = "weights-tuned.rs")]
    pub out: PathBuf,
    /// Threads, 1 to 256 (default: all cores).
    #[arg(long, value_parser = crate::cli::args::threads())]
    pub threads: Option<usize>,
}

/// Runs `doushou tune`; progress goes to stderr.
pub fn run(args: &TuneArgs) -> Result<(), Failure> {
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(Failure::input)?;
    }
    texel::check_writable(&args.out).map_err(Failure::usage)?;
    let start = match &args.start {
        Some(path) => texel::parse_weights(path)?,
        None => WEIGHTS,
    };
    let data = texel::load(&args.data)?;
    if data.split == Split::None {
        log::warn!(
            "only {} positions (fewer than {}): none held out, so the validation error is the training error and says nothing about overfitting",
            data.positions(),
            texel::MIN_HELD_OUT
        );
    }
    let held_out = data.held_out_text();
    eprintln!(
        "tune: {} positions ({held_out}) from {} games",
        data.positions(),
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
    let header = texel::weights_header(&data, &args.data, &config, &report);
    texel::write_weights(&args.out, &texel::render_weights(&report.weights, &header))?;
    let in_use = args.out.ends_with("src/engine/weights.rs");
    eprintln!(
        "tune: K {:.6}, error {:.6} -> {:.6}, validation {:.6} -> {:.6}; wrote {} ({})",
        report.k,
        report.train_error.0,
        report.train_error.1,
        report.validation_error.0,
        report.validation_error.1,
        args.out.display(),
        if in_use {
            "rebuild to use them"
        } else {
            "to play with them, copy it to src/engine/weights.rs and rebuild"
        }
    );
    Ok(())
}
