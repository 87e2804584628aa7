//! What the trainer writes: the quantised net (version 1 of the format in
//! `docs/nnue.md`) and its own checkpoints. Both are written atomically (a
//! temporary file beside the target, then a rename), so an interrupted run
//! never leaves half a file where a whole one was.
//!
//! # Checkpoint format
//!
//! Little-endian: magic `DSQCKPT` and a zero byte; u32 version (1); u32 H;
//! u64 seed; u64 epochs done; u64 Adam steps; u64 training positions; f64 the
//! last epoch's training loss and validation loss (NaN when unknown); u64 n,
//! the parameter count; n f32 parameters, n f32 first moments, n f32 second
//! moments (layout of [`Network::params`]); u32 FNV-1a of every byte before it.

use super::TrainError;
use super::net::{Adam, Network, TRAIN_SCALE, parameter_count};
use crate::engine::nnue::features::INPUTS;
use std::path::{Path, PathBuf};

/// `QA` of the format: `W1` and `b1` are stored × `QA`, CReLU clamps to `0..=QA`.
pub const QA: i32 = 255;
/// `QB` of the format: `W2` is stored × `QB`.
pub const QB: i32 = 64;
/// The net file's first 8 bytes.
pub const NET_MAGIC: &[u8; 8] = b"DSQNNUE\0";
/// The net file format this writer produces.
pub const NET_VERSION: u32 = 1;
/// The widest hidden layer the format allows.
pub const MAX_HIDDEN: usize = 1024;

const CHECKPOINT_MAGIC: &[u8; 8] = b"DSQCKPT\0";
const CHECKPOINT_VERSION: u32 = 1;

/// FNV-1a, 32 bits: the checksum of both files.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash, &b| {
        (hash ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

/// `path` with `.tmp` added to its name: where a file is written before it
/// is renamed into place.
fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |error| TrainError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    let temp = temporary(path);
    std::fs::write(&temp, bytes).map_err(io_error(path))?;
    std::fs::rename(&temp, path).map_err(|error| {
        let _ = std::fs::remove_file(&temp);
        io_error(path)(error)
    })
}

/// Checks, before any work, that [`write_atomically`] can write `path`: its
/// temporary file can be created there, and `path` is not a folder.
pub fn check_writable(path: &Path) -> Result<(), TrainError> {
    if path.is_dir() {
        return Err(TrainError::Io {
            path: path.to_path_buf(),
            error: std::io::Error::other("is a folder, not a file"),
        });
    }
    let temp = temporary(path);
    std::fs::write(&temp, b"").map_err(io_error(path))?;
    std::fs::remove_file(&temp).map_err(io_error(path))
}

/// The training state written after every epoch, from which a run resumes.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float weights.
    pub net: Network,
    /// Adam's state.
    pub adam: Adam,
    /// The seed of the run (initial weights, each epoch's shuffle).
    pub seed: u64,
    /// Epochs done.
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
        let net = Network::random(hidden, seed);
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
        out.extend_from_slice(&fnv1a32(&out).to_le_bytes());
        out
    }

    /// Reads a checkpoint, refusing a file whose magic, version, size or
    /// checksum is wrong.
    pub fn read(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes = std::fs::read(path).map_err(io_error(path))?;
        Checkpoint::from_bytes(&bytes).map_err(|message| TrainError::Checkpoint {
            path: path.to_path_buf(),
            message,
        })
    }

    fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(8)? != CHECKPOINT_MAGIC {
            return Err("not a doushou training checkpoint (bad magic)".into());
        }
        let version = reader.u32()?;
        if version != CHECKPOINT_VERSION {
            return Err(format!(
                "checkpoint version {version}, this build reads {CHECKPOINT_VERSION}"
            ));
        }
        let hidden = reader.u32()? as usize;
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(format!("hidden width {hidden} outside 1..={MAX_HIDDEN}"));
        }
        let seed = reader.u64()?;
        let epoch = reader.u64()? as usize;
        let step = reader.u64()?;
        let train_positions = reader.u64()?;
        let known = |x: f64| (!x.is_nan()).then_some(x);
        let train_loss = known(reader.f64()?);
        let validation_loss = known(reader.f64()?);
        let n = reader.u64()? as usize;
        if n != parameter_count(hidden) {
            return Err(format!(
                "{n} parameters, a net of width {hidden} has {}",
                parameter_count(hidden)
            ));
        }
        let expected = reader.at + 12 * n + 4;
        if bytes.len() != expected {
            return Err(format!("{} bytes, expected {expected}", bytes.len()));
        }
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        if fnv1a32(&bytes[..expected - 4]) != stored {
            return Err("checksum mismatch (the file is damaged)".into());
        }
        let mut floats = || -> Result<Vec<f32>, String> {
            (0..n)
                .map(|_| Ok(f32::from_le_bytes(reader.take(4)?.try_into().expect("4"))))
                .collect()
        };
        let params = floats()?;
        let m = floats()?;
        let v = floats()?;
        Ok(Checkpoint {
            net: Network { hidden, params },
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
        write_atomically(path, &self.to_bytes())
    }
}

/// Little-endian fields from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let slice = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or_else(|| format!("truncated at byte {}", self.at))?;
        self.at += n;
        Ok(slice)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
}

/// The network in the integers of the file, with what quantising found.
#[derive(Clone, Debug)]
pub struct Quantised {
    /// Hidden width.
    pub hidden: usize,
    /// The file's `SCALE`.
    pub scale: u32,
    /// `W1 × QA`.
    pub w1: Vec<i16>,
    /// `b1 × QA`.
    pub b1: Vec<i16>,
    /// `W2 × QB`, re-expressed for `scale`.
    pub w2: Vec<i16>,
    /// `b2 × QA·QB`, re-expressed for `scale`.
    pub b2: i32,
    /// The largest |value| of `W1`, `b1`, `W2` and `b2` of the float net.
    pub largest: [f64; 4],
    /// Values that did not fit their integer and were clamped.
    pub clamped: usize,
    /// The largest |score| the net can give, centipawns (all of `W2`'s terms
    /// at their extreme): the engine's i32 output arithmetic holds while this
    /// stays under `i32::MAX / (QA·QB)`.
    pub score_bound: f64,
}

impl Quantised {
    /// Quantises `net`. The float net's score is `TRAIN_SCALE × (b2 + W2·a)`;
    /// the file's is `SCALE × (b2' + W2'·a)`, so `W2' = W2 × TRAIN_SCALE / SCALE`
    /// for any `SCALE`. The smallest `SCALE` whose `W2' × QB` fits an i16
    /// gives `W2` the most precision. `W1` and `b1` have no such freedom
    /// (CReLU fixes their scale): values outside i16 are clamped and counted.
    pub fn new(net: &Network) -> Quantised {
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
        let w2_sum: f64 = net.w2().iter().map(|&x| x.abs() as f64).sum();
        Quantised {
            hidden: net.hidden,
            scale,
            w1,
            b1,
            w2,
            b2,
            largest,
            clamped,
            score_bound: TRAIN_SCALE * (largest[3] + w2_sum),
        }
    }

    /// The net file (version 1 of `docs/nnue.md`) with `description`.
    pub fn to_bytes(&self, description: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(40 + description.len() + 2 * (INPUTS + 3) * self.hidden);
        out.extend_from_slice(NET_MAGIC);
        for v in [
            NET_VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.scale,
            QA as u32,
            QB as u32,
            description.len() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(description.as_bytes());
        for values in [&self.w1, &self.b1, &self.w2] {
            values
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out.extend_from_slice(&fnv1a32(&out).to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_reference_values() {
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a32(b"foobar"), 0xbf9c_f968);
    }

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
        assert!(
            Checkpoint::from_bytes(&damaged)
                .unwrap_err()
                .contains("checksum")
        );
        assert!(
            Checkpoint::from_bytes(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .contains("bytes")
        );
        assert!(
            Checkpoint::from_bytes(b"DSQNNUE\0")
                .unwrap_err()
                .contains("magic")
        );
    }

    #[test]
    fn quantising_keeps_w2_within_i16_with_the_smallest_scale() {
        let mut net = Network::random(4, 1);
        let at = INPUTS * 4 + 4;
        net.params[at] = 3.0;
        let q = Quantised::new(&net);
        assert_eq!(q.clamped, 0);
        assert_eq!(
            q.scale,
            (3.0 * TRAIN_SCALE * 64.0 / 32767.0f64).ceil() as u32
        );
        let w2 = q.w2[0] as f64 * q.scale as f64 / QB as f64;
        assert!((w2 - 3.0 * TRAIN_SCALE).abs() < q.scale as f64);
        net.params[0] = 200.0;
        assert_eq!(Quantised::new(&net).clamped, 1);
    }
}
