//! A whole match, checked and ready to play: the engines, the referee, the
//! openings, how many games and how many at once, the SPRT, and where the
//! records go.

use super::game::Referee;
use super::openings::Opening;
use super::stats::Sprt;
use crate::client::{EngineSpec, SpecError};
use std::path::PathBuf;

/// A whole match, checked and ready to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines, each with its limits resolved.
    pub engines: Vec<EngineSpec>,
    /// What the referee enforces.
    pub referee: Referee,
    /// The openings, used in order, each twice.
    pub openings: Vec<Opening>,
    /// Games each pair of engines plays (fewer if the SPRT stops the match).
    pub games_per_pair: usize,
    /// Games at once, each with its own two engine processes.
    pub concurrency: usize,
    /// The early-stopping test, for two engines.
    pub sprt: Option<Sprt>,
    /// Where game records go (appended).
    pub pgn: Option<PathBuf>,
    /// Where the JSON summary goes.
    pub json: Option<PathBuf>,
}

/// Why a setting of the match was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl From<SpecError> for ConfigError {
    fn from(e: SpecError) -> ConfigError {
        ConfigError(e.0)
    }
}
