//! Why training, or reading a checkpoint, failed: the one error type of the
//! trainer's files, below all of them so that each can answer it.

use crate::engine::nnue::{MAX_HIDDEN, NetError};
use crate::tuning::data::TuneError;
use crate::util::bytes::Truncated;
use std::path::PathBuf;

/// Why training could not run. The command line sorts these into usage
/// errors (a flag, or a file it names, that cannot work: exit code 2) and
/// the rest (bad data, a failed write: exit code 1).
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The data could not be read: a file that cannot be opened, or a line
    /// that is not a labelled position.
    #[error(transparent)]
    Data(#[from] TuneError),
    /// A flag's value that cannot work (`--lambda 2`).
    #[error("--{flag} must be {must}")]
    Flag {
        /// The flag, without its dashes.
        flag: &'static str,
        /// What its value must be.
        must: &'static str,
    },
    /// A hidden width the net file cannot hold.
    #[error("--hidden {0}: the width must be from 1 to {MAX_HIDDEN}")]
    Hidden(usize),
    /// Every position read was held out for validation.
    #[error("no positions to train on ({read} read, all held out for validation)")]
    NoTrainingPositions {
        /// Positions read, all of them held out.
        read: usize,
    },
    /// The thread pool could not be started.
    #[error("cannot start {threads} threads: {error}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// Why rayon could not start them.
        #[source]
        error: rayon::ThreadPoolBuildError,
    },
    /// A file named on the command line that cannot be opened (`--resume`)
    /// or created (`--out`, `--checkpoint`, checked before the data is read).
    #[error("{}: {error}", path.display())]
    Unusable {
        /// The file as named.
        path: PathBuf,
        /// Why it cannot be opened or created.
        #[source]
        error: std::io::Error,
    },
    /// Writing the net or a checkpoint failed.
    #[error("{}: {error}", path.display())]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        error: std::io::Error,
    },
    /// A checkpoint that cannot be resumed from.
    #[error("{}: cannot resume: {error}", path.display())]
    Checkpoint {
        /// The checkpoint file (`--resume`).
        path: PathBuf,
        /// What is wrong with its bytes.
        #[source]
        error: CheckpointError,
    },
    /// A checkpoint made with other settings than those asked for.
    #[error("{}: cannot resume: --{what} {asked}, but the checkpoint has {has}", path.display())]
    CheckpointDiffers {
        /// The checkpoint file (`--resume`).
        path: PathBuf,
        /// The flag that differs.
        what: &'static str,
        /// The value asked for.
        asked: u64,
        /// The value the checkpoint was trained with.
        has: u64,
    },
    /// The quantised net is not one the engine would load (its output could
    /// overflow, for one): refused rather than written.
    #[error("the quantised net is not valid: {0}")]
    Quantise(#[from] NetError),
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
        /// The file's length in bytes.
        actual: u64,
    },
    /// A field read past the end.
    #[error(transparent)]
    Truncated(#[from] Truncated),
    /// The checksum does not match: the file is damaged.
    #[error("checksum mismatch (the file is damaged)")]
    ChecksumMismatch,
}
