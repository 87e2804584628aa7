//! `doushou train` as a whole: the settings checked, the output checked
//! writable, the data read, the fit run (or resumed) with progress on stderr,
//! and the quantised net written with the format's one writer. The command
//! line (`src/cli/train.rs`) only turns its flags into [`TrainOptions`].

use super::error::TrainError;
use super::files::{self, Checkpoint, QA, Quantised};
use super::fit::{self, Progress, TrainConfig};
use super::net::K;
use super::positions::{self, ENOUGH_VALIDATION};
use crate::engine::nnue::MAX_HIDDEN;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What one `doushou train` run is asked to do (its flags, `docs/nnue.md`).
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Data files written by `doushou selfplay`, read in order.
    pub data: Vec<PathBuf>,
    /// Where to write the quantised net.
    pub out: PathBuf,
    /// Hidden width H (default 128; a resumed run keeps its checkpoint's).
    pub hidden: Option<usize>,
    /// Train until this many epochs are done (a resumed run's included).
    pub epochs: usize,
    /// Positions per minibatch (one Adam step).
    pub batch: usize,
    /// Adam's step size: about how far a weight moves in one step at first.
    pub lr: f64,
    /// Weight of the game result in the target; the rest goes to the search score.
    pub lambda: f64,
    /// Seed of the initial weights and the shuffles (default 1; a resumed
    /// run keeps the seed of its checkpoint).
    pub seed: Option<u64>,
    /// Threads (default: every core). The net does not depend on it.
    pub threads: Option<usize>,
    /// Continue from this checkpoint.
    pub resume: Option<PathBuf>,
    /// Where to write the checkpoint after every epoch (default `<out>.ckpt`).
    pub checkpoint: Option<PathBuf>,
    /// Fraction of the positions held out for validation, in blocks.
    pub validation: f64,
}

/// A progress line within an epoch at most this often.
const REPORT_EVERY: Duration = Duration::from_secs(5);

/// Runs `doushou train` on its own thread pool of `options.threads`.
pub fn run(options: &TrainOptions) -> Result<(), TrainError> {
    let threads = options
        .threads
        .unwrap_or_else(crate::util::pool::every_core);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|error| TrainError::Threads { threads, error })?;
    pool.install(|| train(options))
}

fn train(args: &TrainOptions) -> Result<(), TrainError> {
    let checkpoint_path = args.checkpoint.clone().unwrap_or_else(|| {
        let mut name = args.out.clone().into_os_string();
        name.push(".ckpt");
        PathBuf::from(name)
    });
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.lr,
        lambda: args.lambda,
        checkpoint: Some(checkpoint_path.clone()),
    };
    config.check()?;
    if !(0.0..1.0).contains(&args.validation) {
        return Err(TrainError::Flag {
            flag: "validation",
            must: "at least 0 and below 1",
        });
    }
    if let Some(h) = args.hidden
        && !(1..=MAX_HIDDEN).contains(&h)
    {
        return Err(TrainError::Hidden(h));
    }
    let resumed = args.resume.as_deref().map(Checkpoint::read).transpose()?;
    if let Some(state) = &resumed {
        let path = args.resume.clone().unwrap_or_default();
        let differs = |what, asked: u64, has: u64| TrainError::CheckpointDiffers {
            path: path.clone(),
            what,
            asked,
            has,
        };
        if let Some(h) = args.hidden.filter(|&h| h != state.net.hidden) {
            return Err(differs("hidden", h as u64, state.net.hidden as u64));
        }
        if let Some(s) = args.seed.filter(|&s| s != state.seed) {
            return Err(differs("seed", s, state.seed));
        }
    }
    // Before the long part: an output that cannot be written fails now.
    for path in [&args.out, &checkpoint_path] {
        crate::util::fs::check_writable(path).map_err(|error| TrainError::Unusable {
            path: path.clone(),
            error,
        })?;
    }

    let started = Instant::now();
    let data = positions::load(&args.data, args.validation)?;
    eprintln!(
        "train: {} positions ({} held out for validation) from {} games in {} file(s), read in {:.1}s",
        data.train.len() + data.validation.len(),
        data.validation.len(),
        data.runs.games,
        args.data.len(),
        started.elapsed().as_secs_f64()
    );
    if data.validation.len() < ENOUGH_VALIDATION {
        log::warn!(
            "only {} positions held out: too few for the validation loss to mean much \
             (held out in blocks of 256 lines; give more data or a larger --validation)",
            data.validation.len()
        );
    }
    let state = match resumed {
        Some(state) => {
            if state.train_positions != data.train.len() as u64 {
                log::warn!(
                    "the checkpoint was trained on {} positions, this data has {}",
                    state.train_positions,
                    data.train.len()
                );
            }
            eprintln!(
                "train: resuming after epoch {} from {}",
                state.epoch,
                args.resume
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            );
            state
        }
        None => Checkpoint::start(
            args.hidden.unwrap_or(128),
            args.seed.unwrap_or(1),
            data.train.len(),
        ),
    };
    let hidden = state.net.hidden;
    let seed = state.seed;
    eprintln!(
        "train: rule inputs (on for some training position): {}",
        if data.rule_inputs.is_empty() {
            "none (every position under the default rules)".to_string()
        } else {
            data.rule_inputs
                .iter()
                .map(|r| r.name())
                .collect::<Vec<_>>()
                .join(" ")
        }
    );
    let validation_text = |loss: Option<f64>| loss.map_or("-".to_string(), |l| format!("{l:.6}"));
    eprintln!(
        "train: hidden {hidden}, seed {seed}, batch {}, lr {}, lambda {}, K {K}, epochs {}..={}",
        args.batch,
        args.lr,
        args.lambda,
        state.epoch + 1,
        args.epochs
    );
    let mut last_report = Instant::now();
    let state = fit::train(&data, &config, state, &mut |p| match p {
        Progress::Batch {
            epoch,
            done,
            total,
            loss,
        } => {
            if last_report.elapsed() >= REPORT_EVERY && done < total {
                last_report = Instant::now();
                eprintln!(
                    "train: epoch {epoch} {:.0}%  loss {loss:.6}  elapsed {:.0}s",
                    100.0 * *done as f64 / *total as f64,
                    started.elapsed().as_secs_f64()
                );
            }
        }
        Progress::Epoch {
            epoch,
            train_loss,
            validation_loss,
            positions_per_second,
        } => {
            last_report = Instant::now();
            eprintln!(
                "train: epoch {epoch}/{}  loss {train_loss:.6}  validation {}  {:.0} positions/s  elapsed {:.0}s",
                args.epochs,
                validation_text(*validation_loss),
                positions_per_second,
                started.elapsed().as_secs_f64()
            );
        }
    })?;

    let rule_names: Vec<String> = data.rule_inputs.iter().map(|r| r.name()).collect();
    let description = format!(
        "doushou train: {} positions ({} held out) from {}; rule inputs [{}]; {} epochs, hidden {hidden}, batch {}, lr {}, lambda {}, K {K}, seed {seed}; loss {}, validation {}",
        data.train.len() + data.validation.len(),
        data.validation.len(),
        data_files_text(&args.data),
        rule_names.join(" "),
        state.epoch,
        args.batch,
        args.lr,
        args.lambda,
        validation_text(state.train_loss),
        validation_text(state.validation_loss),
    );
    let quantised = Quantised::new(&state.net, &description, &data.rule_inputs)?;
    let [w1, b1, w2, b2] = quantised.largest;
    eprintln!(
        "train: largest |weight| before quantising: W1 {w1:.4}, b1 {b1:.4} (i16 holds {:.1}), W2 {w2:.4}, b2 {b2:.4}; SCALE {}",
        i16::MAX as f64 / QA as f64,
        quantised.net.quantisation().scale
    );
    if quantised.clamped > 0 {
        log::warn!(
            "{} weights did not fit their integers and were clamped",
            quantised.clamped
        );
    }
    files::write_file(&args.out, &quantised.net.to_bytes())?;
    eprintln!(
        "train: wrote {} ({description}); checkpoint {}",
        args.out.display(),
        checkpoint_path.display()
    );
    Ok(())
}

/// The data files for a net's description, short enough for one line of
/// `eval`: their names without directories, and only the first and the last
/// of a long list (a net trained on 40 shards would otherwise carry 2,000
/// characters of paths that mean nothing on another machine).
fn data_files_text(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths
        .iter()
        .map(|p| match p.file_name() {
            Some(name) => name.to_string_lossy().into_owned(),
            None => p.display().to_string(),
        })
        .collect();
    match names.as_slice() {
        [first, .., last] if names.len() > 3 => {
            format!("{} files ({first} ... {last})", names.len())
        }
        _ => names.join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_data_files_is_shortened_to_its_ends() {
        let paths: Vec<PathBuf> = (0..40)
            .map(|i| PathBuf::from(format!("/data/sp5/s-{i}.txt")))
            .collect();
        assert_eq!(data_files_text(&paths), "40 files (s-0.txt ... s-39.txt)");
        assert_eq!(data_files_text(&paths[..2]), "s-0.txt s-1.txt");
        assert_eq!(data_files_text(&paths[..3]), "s-0.txt s-1.txt s-2.txt");
    }
}
