//! `doushou train`'s flags: fits the NNUE to self-play data and writes the
//! quantised net (`docs/nnue.md` gives the format and the recipe); the work is
//! [`crate::tuning::train::command`].
//!
//! Exit code: 0 when the net was written; 2 for a flag that cannot work or a
//! file named that cannot be opened or created; 1 for bad data, a checkpoint
//! that cannot be resumed or a failed write.

use crate::cli::exit::Failure;
use crate::tuning::data::TuneError;
use crate::tuning::train::command::{self, TrainOptions};
use crate::tuning::train::error::TrainError;
use crate::util::fs::TextFileError;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `doushou train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files written by `doushou selfplay` (`<FEN> ; <result> ; <score>`).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the quantised net.
    #[arg(long)]
    pub out: PathBuf,
    /// Hidden width H (default 128; a resumed run keeps its checkpoint's).
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Train until this many epochs are done (a resumed run's included).
    #[arg(long, default_value_t = 10, value_parser = crate::cli::args::positive::<usize>())]
    pub epochs: usize,
    /// Positions per minibatch (one Adam step).
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's step size: about how far a weight moves in one step at first.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Weight of the game result in the target; the rest goes to the search score.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Seed of the initial weights and of the shuffles (default 1; a resumed
    /// run keeps its checkpoint's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads, 1 to 256 (default: every core). The net does not depend on it.
    #[arg(long, value_parser = crate::cli::args::threads())]
    pub threads: Option<usize>,
    /// Continue from this checkpoint.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Where to write the checkpoint after every epoch (default: `<out>.ckpt`).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Fraction of the positions held out for validation, in blocks of 256 lines.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
}

/// Runs `doushou train`; progress goes to stderr.
pub fn run(args: &TrainArgs) -> Result<(), TrainError> {
    let options = TrainOptions {
        data: args.data.clone(),
        out: args.out.clone(),
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda,
        seed: args.seed,
        threads: args.threads,
        resume: args.resume.clone(),
        checkpoint: args.checkpoint.clone(),
        validation: args.validation,
    };
    command::run(&options)
}

impl From<TrainError> for Failure {
    fn from(e: TrainError) -> Failure {
        match e {
            TrainError::Flag { .. }
            | TrainError::Hidden(_)
            | TrainError::CheckpointDiffers { .. }
            | TrainError::Unusable { .. }
            | TrainError::Data(TuneError::File(TextFileError::Open { .. })) => Failure::usage(e),
            _ => Failure::input(e),
        }
    }
}
