//! The learned evaluation (NNUE-style): a one-hidden-layer network whose first
//! layer is kept up to date incrementally as moves are made and unmade.
//! `docs/nnue.md` describes the architecture, the file format and the recipe
//! that produced the shipped net.

mod accumulator;
pub mod features;
mod network;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, EVAL_LIMIT, MoveDelta};
pub use network::{
    MAGIC, MAX_HIDDEN, NetError, Network, Quantisation, VERSION, VERSION_WITHOUT_RULES,
};

use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The net built into the binary (`nets/default.nnue`).
pub const EMBEDDED: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The embedded net, read once and shared.
pub fn embedded() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    Arc::clone(NET.get_or_init(|| {
        Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded net is a valid file"))
    }))
}

/// Why a net file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read it: {0}")]
    Read(#[source] std::io::Error),
    /// The file is not a valid net.
    #[error(transparent)]
    Format(#[from] NetError),
}

/// Reads a net file.
pub fn load(path: &Path) -> Result<Network, LoadError> {
    let bytes = std::fs::read(path).map_err(LoadError::Read)?;
    Network::from_bytes(&bytes).map_err(LoadError::Format)
}
