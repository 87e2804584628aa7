//! Why training, or reading a checkpoint, failed: the one error type of the
//! trainer's files, below all of them so that each can answer it.

use crate::engine::nnue::{MAX_HIDDEN, NetError};
use crate::tuning::data::TuneError;
use crate::util::bytes::Truncated;
use std::path::PathBuf;

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
        error: CheckpointError,
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

/// Why bytes are not a checkpoint this build can resume from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Not a checkpoint at all.
    #[error("not a doushou training checkpoint (bad magic)")]
    BadMagic,
    /// Another version of the format.
    #[error("checkpoint version {found}, this build reads {reads}")]
    UnsupportedVersion {
        /// The version the file declares.
        found: u32,
        /// The one version this build reads.
        reads: u32,
    },
    /// A hidden width the net file could not hold.
    #[error("hidden width {0} outside 1..={MAX_HIDDEN}")]
    HiddenOutOfRange(usize),
    /// A parameter count that does not belong to the hidden width.
    #[error("{count} parameters, a net of width {hidden} has {expected}")]
    ParameterCount {
        /// The count the file declares.
        count: u64,
        /// The file's hidden width.
        hidden: usize,
        /// The count that width has.
        expected: usize,
    },
    /// The file is shorter or longer than its header declares.
    #[error("{actual} bytes, expected {expected}")]
    WrongSize {
        /// Bytes the header declares.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// A field read past the end.
    #[error(transparent)]
    Truncated(#[from] Truncated),
    /// The checksum does not match: the file is damaged.
    #[error("checksum mismatch (the file is damaged)")]
    ChecksumMismatch,
}
