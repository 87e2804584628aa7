//! A whole match, checked and ready to play: the engines, the referee, the
//! openings, how many games and how many at once, the SPRT, and where the
//! records go.

use super::game::Referee;
use super::openings::Opening;
use super::openings::OpeningError;
use super::stats::{Sprt, SprtParseError};
use crate::client::{EngineSpec, SpecError};
use crate::util::options::OptionError;
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
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The rule switches do not apply.
    #[error(transparent)]
    Rules(#[from] OptionError),
    /// An `--engine` (or `--each`) is refused.
    #[error(transparent)]
    Engine(#[from] SpecError),
    /// Fewer than two engines.
    #[error("a match needs two --engine or more")]
    TooFewEngines,
    /// An engine with nothing that ends its searches.
    #[error(
        "engine '{0}' has no limit: give --tc, --movetime, --depth or --nodes (or tc=, movetime=, depth=, nodes=)"
    )]
    NoLimit(String),
    /// `--sprt` with other than two engines.
    #[error("--sprt needs exactly two engines")]
    SprtNeedsTwo,
    /// `--sprt` refused.
    #[error(transparent)]
    Sprt(#[from] SprtParseError),
    /// A game count outside what a match plays.
    #[error("--games must be from 1 to 1000000")]
    Games,
    /// Too many random plies asked for.
    #[error("--random-plies must be at most 1000")]
    RandomPlies,
    /// No game of that many random plies could be started.
    #[error("no opening of {0} random plies could be made")]
    NoRandomOpening(usize),
    /// The openings file cannot be read.
    #[error("--openings {}: {source}", path.display())]
    OpeningsFile {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The openings file holds a line that is refused.
    #[error("--openings {}: {source}", path.display())]
    Openings {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        #[source]
        source: OpeningError,
    },
    /// None of the built-in openings is legal under the rules in force.
    #[error("no built-in opening is legal under these rules: give --openings or --random-plies")]
    NoBuiltInOpening,
}
