//! What the trainer writes: the quantised net (the engine's [`Network`],
//! written by the format's one writer, [`Network::to_bytes`]) and its own
//! checkpoints. Both are written atomically ([`write_atomically`]), so an
//! interrupted run never leaves half a file where a whole one was.
//!
//! # Checkpoint format
//!
//! Little-endian: magic `DSQCKPT` and a zero byte; u32 version (2); u32 H;
//! u64 seed; u64 epochs done; u64 Adam steps; u64 training positions; f64 the
//! last epoch's training loss and validation loss (NaN when unknown); u64 n,
//! the parameter count; n f32 parameters, n f32 first moments, n f32 second
//! moments (layout of [`FloatNet::params`]); u32 FNV-1a of every byte before it.

use super::error::{CheckpointError, TrainError};
use super::net::{Adam, FloatNet, TRAIN_SCALE, parameter_count};
use crate::engine::nnue::features::RuleInput;
use crate::engine::nnue::{MAX_HIDDEN, Network, Quantisation};
use crate::util::bytes::{ByteReader, fnv1a};
use crate::util::fs::write_atomically;
use std::path::Path;

/// `QA` of the format: `W1` and `b1` are stored × `QA`, CReLU clamps to `0..=QA`.
pub const QA: i32 = 255;
/// `QB` of the format: `W2` is stored × `QB`.
pub const QB: i32 = 64;

const CHECKPOINT_MAGIC: &[u8; 8] = b"DSQCKPT\0";
/// 2 since the float net has rule inputs (more parameters than version 1's).
const CHECKPOINT_VERSION: u32 = 2;

/// Writes `bytes` to `path` atomically, naming the file in the error.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    write_atomically(path, bytes).map_err(|error| TrainError::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// The training state written after every epoch, from which a run resumes.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float network being fitted; the quantised net is made from it.
    pub net: FloatNet,
    /// Adam's moments and step count: with them a resumed run steps as the
    /// uninterrupted run would have.
    pub adam: Adam,
    /// The seed of the run (initial weights, each epoch's shuffle).
    pub seed: u64,
    /// Epochs done: a resumed run starts with the next one.
    pub epoch: usize,
    /// Training positions of the run, to warn when resuming on other data.
    pub train_positions: u64,
    /// The last epoch's mean training loss, if an epoch has run.
    pub train_loss: Option<f64>,
    /// The last epoch's validation loss, if measured.
    pub validation_loss: Option<f64>,
}

impl Checkpoint {
    /// The state before training: random weights, fresh Adam.
    pub fn start(hidden: usize, seed: u64, train_positions: usize) -> Checkpoint {
        let net = FloatNet::random(hidden, seed);
        Checkpoint {
            adam: Adam::new(net.params.len()),
            net,
            seed,
            epoch: 0,
            train_positions: train_positions as u64,
            train_loss: None,
            validation_loss: None,
        }
    }

    /// The checkpoint as bytes (the format in the module's documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.net.params.len();
        let mut out = Vec::with_capacity(80 + 12 * n);
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.net.hidden as u32).to_le_bytes());
        for v in [
            self.seed,
            self.epoch as u64,
            self.adam.step,
            self.train_positions,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for loss in [self.train_loss, self.validation_loss] {
            out.extend_from_slice(&loss.unwrap_or(f64::NAN).to_le_bytes());
        }
        out.extend_from_slice(&(n as u64).to_le_bytes());
        for values in [&self.net.params, &self.adam.m, &self.adam.v] {
            values
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        out.extend_from_slice(&fnv1a(&out).to_le_bytes());
        out
    }

    /// Reads a checkpoint, refusing a file whose magic, version, size or checksum
    /// is wrong (a damaged file is never half used).
    pub fn read(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes = std::fs::read(path).map_err(|error| TrainError::Unusable {
            path: path.to_path_buf(),
            error,
        })?;
        Checkpoint::from_bytes(&bytes).map_err(|error| TrainError::Checkpoint {
            path: path.to_path_buf(),
            error,
        })
    }

    fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let mut reader = ByteReader::new(bytes);
        if reader.take(8).ok() != Some(&CHECKPOINT_MAGIC[..]) {
            return Err(CheckpointError::BadMagic);
        }
        let version = reader.u32()?;
        if version != CHECKPOINT_VERSION {
            return Err(CheckpointError::UnsupportedVersion {
                found: version,
                reads: CHECKPOINT_VERSION,
            });
        }
        let hidden = reader.u32()? as usize;
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(CheckpointError::HiddenOutOfRange(hidden));
        }
        let seed = reader.u64()?;
        let epoch = reader.u64()? as usize;
        let step = reader.u64()?;
        let train_positions = reader.u64()?;
        let known = |x: f64| (!x.is_nan()).then_some(x);
        let train_loss = known(reader.f64()?);
        let validation_loss = known(reader.f64()?);
        let count = reader.u64()?;
        let n = parameter_count(hidden);
        if count != n as u64 {
            return Err(CheckpointError::ParameterCount {
                count,
                hidden,
                expected: n,
            });
        }
        let expected = (reader.position() + 12 * n + 4) as u64;
        if bytes.len() as u64 != expected {
            return Err(CheckpointError::WrongSize {
                expected,
                actual: bytes.len() as u64,
            });
        }
        let (body, stored) = bytes.split_at(bytes.len() - 4);
        if fnv1a(body) != ByteReader::new(stored).u32()? {
            return Err(CheckpointError::ChecksumMismatch);
        }
        let params = reader.f32s(n)?;
        let m = reader.f32s(n)?;
        let v = reader.f32s(n)?;
        Ok(Checkpoint {
            net: FloatNet { hidden, params },
            adam: Adam { m, v, step },
            seed,
            epoch,
            train_positions,
            train_loss,
            validation_loss,
        })
    }

    /// Writes the checkpoint atomically.
    pub fn write(&self, path: &Path) -> Result<(), TrainError> {
        write_file(path, &self.to_bytes())
    }
}

/// The float network in the integers of the engine's net, with what quantising
/// found (for the trainer's report on stderr).
#[derive(Clone, Debug)]
pub struct Quantised {
    /// The engine's net, to be written with [`Network::to_bytes`]: the format
    /// has one writer, the engine's.
    pub net: Network,
    /// The largest |value| of `W1`, `b1`, `W2` and `b2` of the float net.
    pub largest: [f64; 4],
    /// Values that did not fit their integer and were clamped.
    pub clamped: usize,
}

impl Quantised {
    /// Quantises `net`. The float net's score is `TRAIN_SCALE × (b2 + W2·a)`;
    /// the file's is `SCALE × (b2' + W2'·a)`, so `W2' = W2 × TRAIN_SCALE / SCALE`
    /// for any `SCALE`. The smallest `SCALE` whose `W2' × QB` fits an i16
    /// gives `W2` the most precision. `W1` and `b1` have no such freedom
    /// (CReLU fixes their scale): values outside i16 are clamped and counted.
    /// The net gets the rule inputs `rule_inputs` (the others' rows are
    /// dropped). A net whose integer output could overflow is refused
    /// ([`crate::engine::nnue::NetError::OutputOverflow`]): the engine would
    /// refuse to load it.
    pub fn new(
        net: &FloatNet,
        description: &str,
        rule_inputs: &[RuleInput],
    ) -> Result<Quantised, TrainError> {
        let largest_of = |values: &[f32]| values.iter().fold(0.0f64, |m, &x| m.max(x.abs() as f64));
        let largest = [
            largest_of(net.w1()),
            largest_of(net.b1()),
            largest_of(net.w2()),
            (net.b2() as f64).abs(),
        ];
        let limit = i16::MAX as f64;
        let scale = (largest[2] * TRAIN_SCALE * QB as f64 / limit)
            .ceil()
            .clamp(1.0, u32::MAX as f64) as u32;
        let output_factor = TRAIN_SCALE / scale as f64;
        let mut clamped = 0;
        let mut to_i16 = |x: f64| {
            let r = x.round();
            if r.abs() > limit {
                clamped += 1;
            }
            r.clamp(-limit, limit) as i16
        };
        let w1 = net
            .w1()
            .iter()
            .map(|&x| to_i16(x as f64 * QA as f64))
            .collect();
        let rule_weights = rule_inputs
            .iter()
            .flat_map(|&r| net.rule_row(r))
            .map(|&x| to_i16(x as f64 * QA as f64))
            .collect();
        let b1 = net
            .b1()
            .iter()
            .map(|&x| to_i16(x as f64 * QA as f64))
            .collect();
        let w2 = net
            .w2()
            .iter()
            .map(|&x| to_i16(x as f64 * output_factor * QB as f64))
            .collect();
        let b2_float = net.b2() as f64 * output_factor * (QA * QB) as f64;
        if b2_float.round().abs() > i32::MAX as f64 {
            clamped += 1;
        }
        let b2 = b2_float.round().clamp(-(i32::MAX as f64), i32::MAX as f64) as i32;
        let quantisation = Quantisation {
            scale,
            qa: QA as u32,
            qb: QB as u32,
        };
        let net = Network::new(quantisation, description, w1, b1, w2, b2)?
            .with_rule_inputs(rule_inputs.to_vec(), rule_weights)?;
        Ok(Quantised {
            net,
            largest,
            clamped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::train::net::TRAIN_INPUTS;

    #[test]
    fn a_checkpoint_reads_back_and_damage_is_refused() {
        let mut state = Checkpoint::start(4, 7, 100);
        state.epoch = 3;
        state.train_loss = Some(0.25);
        state.adam.m[5] = 0.5;
        let bytes = state.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), state);
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert_eq!(
            Checkpoint::from_bytes(&damaged),
            Err(CheckpointError::ChecksumMismatch)
        );
        assert!(matches!(
            Checkpoint::from_bytes(&bytes[..bytes.len() - 1]),
            Err(CheckpointError::WrongSize { .. })
        ));
        assert!(matches!(
            Checkpoint::from_bytes(&bytes[..30]),
            Err(CheckpointError::Truncated(_))
        ));
        assert_eq!(
            Checkpoint::from_bytes(b"DSQNNUE\0"),
            Err(CheckpointError::BadMagic)
        );
    }

    #[test]
    fn quantising_keeps_w2_within_i16_with_the_smallest_scale() {
        let mut net = FloatNet::random(4, 1);
        let at = TRAIN_INPUTS * 4 + 4;
        net.params[at] = 3.0;
        let q = Quantised::new(&net, "test", &[]).unwrap();
        assert_eq!(q.clamped, 0);
        let scale = q.net.quantisation().scale;
        assert_eq!(scale, (3.0 * TRAIN_SCALE * 64.0 / 32767.0f64).ceil() as u32);
        let w2 = q.net.w2()[0] as f64 * scale as f64 / QB as f64;
        assert!((w2 - 3.0 * TRAIN_SCALE).abs() < scale as f64);
        net.params[0] = 200.0;
        assert_eq!(Quantised::new(&net, "test", &[]).unwrap().clamped, 1);
    }

    #[test]
    fn a_net_whose_integer_output_could_overflow_is_refused() {
        let mut net = FloatNet::random(4, 1);
        // An output bias past what the i32 sum holds, whatever SCALE is chosen.
        let last = net.params.len() - 1;
        net.params[last] = 1e9;
        assert!(matches!(
            Quantised::new(&net, "test", &[]),
            Err(TrainError::Quantise(
                crate::engine::nnue::NetError::OutputOverflow
            ))
        ));
    }
}
