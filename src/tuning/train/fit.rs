//! The fit itself ([`train`]): epochs of minibatches over a seeded shuffle,
//! each batch's gradient summed from fixed-size chunks computed in parallel,
//! one Adam step per batch and a checkpoint after each epoch.

use super::error::TrainError;
use super::files::Checkpoint;
use super::net::{self, FloatNet, Gradient};
use super::positions::{Positions, TrainingData};
use crate::util::rng::SplitMix64;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// How a run trains.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Train until this many epochs are done (counting a resumed run's).
    pub epochs: usize,
    /// Positions per minibatch (one Adam step).
    pub batch: usize,
    /// Adam's step size: about how far a weight moves in one step at first.
    pub learning_rate: f64,
    /// Weight of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// Where to write the state after every epoch.
    pub checkpoint: Option<PathBuf>,
}

impl TrainConfig {
    /// Whether these settings can work.
    pub fn check(&self) -> Result<(), TrainError> {
        let bad = |flag, must| Err(TrainError::Flag { flag, must });
        if self.batch == 0 {
            return bad("batch", "at least 1");
        }
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return bad("lr", "a positive number");
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad("lambda", "from 0 to 1");
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
