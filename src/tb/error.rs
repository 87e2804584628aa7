//! Why tables could not be made or read ([`TbError`]), and why one file was
//! refused ([`Refusal`]).

use super::index::{Material, MaterialError};
use super::verdict::MAX_DISTANCE;
use crate::util::bytes::Truncated;
use crate::util::options::OptionError;
use std::path::PathBuf;

/// Why tables could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A directory named as the tables holds no table file.
    #[error("{}: no table files (*.dstb)", .0.display())]
    NoTables(PathBuf),
    /// A file was refused: other rules, corrupted, or not a table.
    #[error("table {} refused: {why}", path.display())]
    Invalid {
        /// The file refused, as it was named.
        path: PathBuf,
        /// What is wrong with it (boxed: it is large, and rare).
        #[source]
        why: Box<Refusal>,
    },
    /// A material one capture away has no table yet.
    #[error("the table of {0} is needed first")]
    Missing(Material),
    /// The threads to generate on could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What the thread pool said.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// A distance beyond what a table byte holds.
    #[error("a distance of {0} plies is beyond the format's {MAX_DISTANCE}")]
    TooLong(usize),
}

impl TbError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> TbError {
        TbError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// What is wrong with a table file (docs/tablebases.md, "Format").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// It does not start with the magic bytes.
    #[error("not a doushou table (bad magic)")]
    BadMagic,
    /// Its checksum does not match its bytes.
    #[error("checksum mismatch: the file is corrupted")]
    Corrupted,
    /// It ends inside a field.
    #[error(transparent)]
    Truncated(#[from] Truncated),
    /// It is of the format's first version (one byte per entry), which this
    /// build no longer reads.
    #[error(
        "format version 1 (uncompressed), this build reads version 2: convert the \
         directory with `doushou tb convert DIR`, or make the tables again with \
         `doushou tb generate`"
    )]
    FirstVersion,
    /// It is of another version of the format.
    #[error("format version {found}, this build reads {reads}")]
    Version {
        /// The version the file says it is in.
        found: u32,
        /// The version this build reads.
        reads: u32,
    },
    /// Its material's name does not read.
    #[error(transparent)]
    Material(#[from] MaterialError),
    /// It records rule switches this build does not know.
    #[error("unknown rules [{signature}]: {source}")]
    UnknownRules {
        /// The switches the file records.
        signature: String,
        /// Why they do not apply.
        #[source]
        source: OptionError,
    },
    /// It was made under other rule switches than those in force.
    #[error("made under other rules: the file has [{file}], in force are [{ours}]")]
    OtherRules {
        /// The switches the file records.
        file: String,
        /// The switches in force.
        ours: String,
    },
    /// Its length is not that of the blocks its index lists.
    #[error("{found} bytes, its index says {blocks}: truncated or extended")]
    Length {
        /// The file's length.
        found: u64,
        /// The length its header and index add up to.
        blocks: u64,
    },
    /// Its block count does not fit its entries, or its blocks are larger
    /// than this build reads.
    #[error(
        "{blocks} blocks of 2^{shift} entries: they do not fit the table, or are \
         larger than this build reads"
    )]
    Blocks {
        /// The number of blocks it lists.
        blocks: usize,
        /// Log2 of the entries per block.
        shift: u8,
    },
    /// A block's bytes do not match its checksum, or do not decompress.
    #[error("block {block} is corrupted")]
    BadBlock {
        /// The block, from 0.
        block: usize,
    },
    /// It holds another material or entry count than its name says.
    #[error("holds {found} with {entries} entries, expected {expected} with {size}")]
    WrongMaterial {
        /// The material it holds.
        found: Material,
        /// How many entries it holds.
        entries: usize,
        /// The material its name says.
        expected: Material,
        /// The entries that material has.
        size: usize,
    },
    /// Its entry count is not that of its material (or the material is not
    /// in its stored form).
    #[error("{entries} entries do not fit material {material}")]
    DoesNotFit {
        /// The entries it holds.
        entries: usize,
        /// The material its header names.
        material: Material,
    },
}
