//! Why tables could not be made or read.

use super::index::Material;
use super::verdict::MAX_DISTANCE;
use std::fmt;

/// Why tables could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// A file or directory could not be read or written.
    Io(String),
    /// A file was refused: other rules, corrupted, or not a table.
    Invalid {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// A material one capture away has no table yet.
    Missing(Material),
    /// A distance beyond what a table byte holds.
    TooLong(usize),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io(e) => write!(f, "{e}"),
            TbError::Invalid { path, why } => write!(f, "table {path} refused: {why}"),
            TbError::Missing(m) => write!(f, "the table of {m} is needed first"),
            TbError::TooLong(d) => write!(
                f,
                "a distance of {d} plies is beyond the format's {MAX_DISTANCE}"
            ),
        }
    }
}

impl std::error::Error for TbError {}
