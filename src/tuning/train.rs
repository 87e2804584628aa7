//! Fitting the NNUE (`docs/nnue.md`) to self-play data.
//!
//! Each position becomes the active inputs of the side to move's view and of
//! the other side's ([`crate::engine::nnue::features`]), and its labels are
//! turned to the side to move's view. The float network ([`net::FloatNet`])
//! predicts the win probability `sigmoid(score / K)`; the target mixes the
//! game's result and the search score's probability,
//! `λ·result + (1-λ)·sigmoid(score / K)`, and the loss is the mean squared error.
//!
//! Minibatches are drawn from a shuffle of the training positions that
//! depends only on the seed and the epoch, and each batch is cut into chunks
//! of a fixed size whose gradients are computed in parallel (rayon) and summed
//! in chunk order: the same seed and data give the same net, bit for bit,
//! however many threads run, and a run resumed from a checkpoint ends where
//! the uninterrupted run would.

pub mod command;
pub mod files;
pub mod net;

use super::data::TuneError;
use super::data::{self, RunSummary};
use crate::engine::nnue::NetError;
use crate::engine::nnue::features::{INPUTS, RULE_INPUTS, RuleInput, active_features};
use crate::rules::{Position, Rules, Side};
use crate::util::rng::SplitMix64;
use files::Checkpoint;
use net::{FloatNet, Gradient};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Why training could not run.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The data could not be read.
    #[error(transparent)]
    Data(#[from] TuneError),
    /// A file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        error: std::io::Error,
    },
    /// A checkpoint that cannot be resumed from.
    #[error("{}: cannot resume: {error}", path.display())]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        error: files::CheckpointError,
    },
    /// A checkpoint made with other settings than those asked for.
    #[error("{}: cannot resume: --{what} {asked}, but the checkpoint has {has}", path.display())]
    CheckpointDiffers {
        /// The file.
        path: PathBuf,
        /// The flag that differs.
        what: &'static str,
        /// The value asked for.
        asked: u64,
        /// The checkpoint's.
        has: u64,
    },
    /// The quantised net is not one the engine would load (its output could
    /// overflow, for one): refused rather than written.
    #[error("the quantised net is not valid: {0}")]
    Quantise(#[from] NetError),
    /// Settings that cannot work.
    #[error("{0}")]
    Config(String),
}

/// Positions as the net sees them: each one's active inputs (the side to
/// move's view, then the other side's: as many of each) and its labels from
/// the side to move's view.
#[derive(Clone, Debug)]
pub struct Positions {
    inputs: Vec<u16>,
    /// Where each position's inputs start; one more than positions.
    offsets: Vec<u32>,
    /// The game's result for the side to move: 1, 0.5 or 0.
    results: Vec<f32>,
    /// The search score for the side to move, centipawns.
    scores: Vec<f32>,
}

impl Default for Positions {
    fn default() -> Positions {
        Positions {
            inputs: Vec::new(),
            offsets: vec![0],
            results: Vec::new(),
            scores: Vec::new(),
        }
    }
}

impl data::Entries for Positions {
    fn count(&self) -> usize {
        self.len()
    }

    fn push_from(&mut self, other: &Positions, i: usize) {
        let (a, b) = (other.offsets[i] as usize, other.offsets[i + 1] as usize);
        self.inputs.extend_from_slice(&other.inputs[a..b]);
        self.offsets.push(self.inputs.len() as u32);
        self.results.push(other.results[i]);
        self.scores.push(other.scores[i]);
    }
}

impl Positions {
    /// Adds `pos`, played under `rules`, with its labels from Red's view. Each
    /// perspective's inputs are its board inputs and then the rule inputs on
    /// under `rules` (input `INPUTS + code`, the same for both perspectives).
    pub fn push(&mut self, pos: &Position, rules: &Rules, red_result: f64, red_score: i32) {
        let stm = pos.side_to_move();
        for side in [stm, stm.opponent()] {
            self.inputs
                .extend(active_features(pos, side).map(|i| i as u16));
            self.inputs
                .extend(RuleInput::active(rules).map(|r| (INPUTS as u32 + r.code()) as u16));
        }
        self.offsets.push(self.inputs.len() as u32);
        let red = stm == Side::Red;
        self.results
            .push(if red { red_result } else { 1.0 - red_result } as f32);
        self.scores
            .push(if red { red_score } else { -red_score } as f32);
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Position `i`: the side to move's inputs, the other side's, the result
    /// and the score.
    #[inline]
    fn get(&self, i: usize) -> (&[u16], &[u16], f32, f32) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let (stm, other) = self.inputs[a..b].split_at((b - a) / 2);
        (stm, other, self.results[i], self.scores[i])
    }
}

/// The training data: positions split into training and held-out validation.
#[derive(Clone, Debug)]
pub struct TrainingData {
    /// Positions the net is fitted to.
    pub train: Positions,
    /// Positions held out to measure the fit.
    pub validation: Positions,
    /// What the files' `# done` lines say.
    pub runs: RunSummary,
    /// The rule inputs on for some training position, by code: the net's
    /// rule inputs (one never on would learn nothing).
    pub rule_inputs: Vec<RuleInput>,
}

/// Fewer validation positions than this make the validation loss a rough guide.
pub const ENOUGH_VALIDATION: usize = 1000;

/// Reads data files (the format of [`crate::tuning`]; every line needs its
/// score), holding out `validation` of the positions in blocks of
/// [`data::BLOCK`] consecutive lines.
pub fn load(paths: &[PathBuf], validation: f64) -> Result<TrainingData, TrainError> {
    let (train, held, runs, _split) = data::read_split(
        paths,
        validation,
        |positions: &mut Positions, labelled, rules| {
            let score = labelled.score.ok_or(
                "no search score: the trainer needs '<FEN> ; <result> ; <score>' \
                 (doushou selfplay writes it)",
            )?;
            positions.push(&labelled.position, rules, labelled.result, score);
            Ok(())
        },
    )?;
    if train.is_empty() {
        return Err(TrainError::Config(format!(
            "no positions to train on ({} read, all held out for validation)",
            held.len()
        )));
    }
    let mut seen = [false; RULE_INPUTS];
    for &input in &train.inputs {
        if let Some(code) = (input as usize).checked_sub(INPUTS) {
            seen[code] = true;
        }
    }
    let rule_inputs = RuleInput::ALL
        .into_iter()
        .filter(|r| seen[r.code() as usize])
        .collect();
    Ok(TrainingData {
        train,
        validation: held,
        runs,
        rule_inputs,
    })
}

/// How a run trains.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Train until this many epochs are done (counting a resumed run's).
    pub epochs: usize,
    /// Positions per minibatch (one Adam step).
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Weight of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// Where to write the state after every epoch.
    pub checkpoint: Option<PathBuf>,
}

impl TrainConfig {
    /// Whether these settings can work.
    pub fn check(&self) -> Result<(), TrainError> {
        let bad = |m: &str| Err(TrainError::Config(m.to_string()));
        if self.batch == 0 {
            return bad("--batch must be at least 1");
        }
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return bad("--lr must be a positive number");
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad("--lambda must be within 0..=1");
        }
        Ok(())
    }
}

/// Where training stands, for progress reports.
#[derive(Clone, Debug)]
pub enum Progress {
    /// A minibatch is done.
    Batch {
        /// The epoch under way, from 1.
        epoch: usize,
        /// Positions of this epoch done.
        done: usize,
        /// Positions of an epoch.
        total: usize,
        /// Mean loss of this epoch's batches so far.
        loss: f64,
    },
    /// An epoch is done (and checkpointed).
    Epoch {
        /// The epoch, from 1.
        epoch: usize,
        /// Mean loss of its batches.
        train_loss: f64,
        /// Loss on the held-out positions after it, if there are any.
        validation_loss: Option<f64>,
        /// Training positions per second in this epoch.
        positions_per_second: f64,
    },
}

/// Positions per gradient chunk: the unit of parallel work, fixed so that the
/// sums (and so the net) do not depend on the number of threads.
const CHUNK: usize = 512;

/// The mean loss of `net` on `positions`, or `None` for no positions.
pub fn mean_loss(net: &FloatNet, positions: &Positions, lambda: f64) -> Option<f64> {
    if positions.is_empty() {
        return None;
    }
    let n = positions.len();
    let sums: Vec<f64> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            net::loss_sum(
                net,
                positions,
                c * CHUNK..((c + 1) * CHUNK).min(n),
                lambda as f32,
            )
        })
        .collect();
    Some(sums.iter().sum::<f64>() / n as f64)
}

/// Seeds each epoch's shuffle from the run's seed and the epoch alone, so a
/// resumed run shuffles as the uninterrupted one did.
fn shuffle_seed(seed: u64, epoch: usize) -> u64 {
    seed ^ (epoch as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// Trains `state` on `data` until `config.epochs` epochs are done, writing the
/// checkpoint after each. `progress` hears of every batch and epoch.
pub fn train(
    data: &TrainingData,
    config: &TrainConfig,
    mut state: Checkpoint,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Checkpoint, TrainError> {
    config.check()?;
    let hidden = state.net.hidden;
    let n = data.train.len();
    let lambda = config.lambda as f32;
    let mut chunks: Vec<Gradient> = (0..config.batch.div_ceil(CHUNK).min(n.div_ceil(CHUNK)))
        .map(|_| Gradient::new(hidden))
        .collect();
    let mut total = Gradient::new(hidden);
    let mut order: Vec<u32> = (0..n as u32).collect();
    while state.epoch < config.epochs {
        let epoch = state.epoch + 1;
        let started = Instant::now();
        // Fisher-Yates over the identity, so the order depends on nothing but the seed.
        order
            .iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = i as u32);
        let mut rng = SplitMix64::new(shuffle_seed(state.seed, epoch));
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss_sum = 0.0;
        for (b, batch) in order.chunks(config.batch).enumerate() {
            let net = &state.net;
            chunks
                .par_iter_mut()
                .zip(batch.par_chunks(CHUNK))
                .for_each(|(gradient, indices)| {
                    gradient.accumulate(net, &data.train, indices, batch.len(), lambda)
                });
            for chunk in chunks.iter_mut() {
                total.absorb(chunk, hidden);
            }
            loss_sum += total.loss;
            state
                .adam
                .step(&mut state.net, &mut total, config.learning_rate);
            let done = (b * config.batch + batch.len()).min(n);
            progress(&Progress::Batch {
                epoch,
                done,
                total: n,
                loss: loss_sum / done as f64,
            });
        }
        state.epoch = epoch;
        state.train_loss = Some(loss_sum / n as f64);
        state.validation_loss = mean_loss(&state.net, &data.validation, config.lambda);
        if let Some(path) = &config.checkpoint {
            state.write(path)?;
        }
        progress(&Progress::Epoch {
            epoch,
            train_loss: loss_sum / n as f64,
            validation_loss: state.validation_loss,
            positions_per_second: n as f64 / started.elapsed().as_secs_f64().max(1e-9),
        });
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::START_FEN;

    #[test]
    fn labels_turn_to_the_side_to_move() {
        let mut positions = Positions::default();
        let red = Position::startpos();
        let blue: Position = START_FEN.replace(" w ", " b ").parse().unwrap();
        positions.push(&red, &Rules::default(), 1.0, 120);
        positions.push(&blue, &Rules::default(), 1.0, 120);
        let (stm, other, result, score) = positions.get(0);
        assert_eq!(
            (stm.len(), other.len(), result, score),
            (16, 16, 1.0, 120.0)
        );
        let (_, _, result, score) = positions.get(1);
        assert_eq!((result, score), (0.0, -120.0));
        let mut expected: Vec<u16> = active_features(&red, Side::Red).map(|i| i as u16).collect();
        assert_eq!(positions.get(0).0, expected.as_slice());
        expected = active_features(&blue, Side::Red)
            .map(|i| i as u16)
            .collect();
        assert_eq!(positions.get(1).1, expected.as_slice());
    }

    #[test]
    fn the_rule_inputs_follow_both_perspectives_board_inputs() {
        let mut positions = Positions::default();
        let mut rules = Rules::XOUDOUQI;
        rules.repetition = crate::rules::Repetition::Draw;
        positions.push(&Position::startpos(), &rules, 0.5, 0);
        let (stm, other, _, _) = positions.get(0);
        let codes: Vec<u16> = [
            RuleInput::RepetitionDraw,
            RuleInput::DogOverWolf,
            RuleInput::RatBankCapture,
            RuleInput::TrappedAttackerPowerless,
        ]
        .iter()
        .map(|r| (INPUTS as u32 + r.code()) as u16)
        .collect();
        for view in [stm, other] {
            assert_eq!(view.len(), 16 + 4);
            assert_eq!(&view[16..], codes.as_slice());
        }
    }
}
