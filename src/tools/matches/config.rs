//! A whole match, checked and ready to play: the engines, the referee, the
//! openings, how many games and how many at once, the SPRT, and where the
//! records go.

use super::game::Referee;
use super::openings::{
    DEFAULT_OPENINGS, Opening, OpeningsFileError, parse_openings, random_openings, read_openings,
};
use super::schedule::Shard;
use super::stats::{Sprt, SprtParseError};
use crate::client::{EngineLimits, EngineSpec, SpecError, dedupe_names};
use crate::rules::Rules;
use crate::util::options::OptionError;
use std::path::PathBuf;
use std::time::Duration;

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
    /// This machine's part of the match, if it plays only one.
    pub shard: Option<Shard>,
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
    /// The openings file cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningsFileError),
    /// None of the built-in openings is legal under the rules in force.
    #[error("no built-in opening is legal under these rules: give --openings or --random-plies")]
    NoBuiltInOpening,
}

/// The longest wait the referee accepts (a year, in ms): beyond it deadlines
/// could overflow the clock.
const MAX_WAIT_MS: u64 = 365 * 24 * 3600 * 1000;

/// Games per pair when neither `--games` nor an openings file says.
pub const DEFAULT_GAMES: usize = 100;

/// Where a match's openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// A file of openings, one a line.
    File(PathBuf),
    /// Random legal plies from the start, deterministic in the seed.
    Random {
        /// Plies per opening.
        plies: usize,
        /// The seed of the random moves.
        seed: u64,
    },
    /// The built-in set (`bench-positions/openings.txt`), less those the
    /// rules in force make illegal.
    BuiltIn,
}

/// What a match is asked to be, before it is checked: the command line's
/// settings.
#[derive(Clone, Debug)]
pub struct MatchRequest {
    /// The `key=value` words of each engine.
    pub engines: Vec<Vec<String>>,
    /// Words applied to every engine before its own.
    pub each: Vec<String>,
    /// The limits of every engine that sets none of its own.
    pub limits: EngineLimits,
    /// Where the openings come from.
    pub openings: OpeningSource,
    /// Games per pair (default: every opening of a file twice, else
    /// [`DEFAULT_GAMES`]).
    pub games: Option<usize>,
    /// Games at once.
    pub concurrency: usize,
    /// The `--sprt` words, if any.
    pub sprt: Option<Vec<String>>,
    /// Where game records go.
    pub pgn: Option<PathBuf>,
    /// Where the JSON summary goes.
    pub json: Option<PathBuf>,
    /// The rules of the match.
    pub rules: Rules,
    /// The rule settings as sent to engines.
    pub rule_settings: Vec<(String, String)>,
    /// Grace after a clock runs out, ms.
    pub time_margin_ms: u64,
    /// The longest wait for `uciok`, ms.
    pub start_timeout_ms: u64,
    /// The longest wait for any other answer no clock bounds, ms.
    pub hang_timeout_ms: u64,
    /// Plies after which a game is drawn.
    pub max_plies: Option<usize>,
    /// The part of the match to play, if only one.
    pub shard: Option<Shard>,
}

impl MatchConfig {
    /// The match `request` describes, every input checked.
    pub fn new(request: MatchRequest) -> Result<MatchConfig, ConfigError> {
        let mut engines = request
            .engines
            .iter()
            .map(|words| EngineSpec::parse(&request.each, words))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err(ConfigError::TooFewEngines);
        }
        for e in &mut engines {
            e.limits = e.limits.or(request.limits);
            if e.limits.is_empty() {
                return Err(ConfigError::NoLimit(e.name.clone()));
            }
        }
        dedupe_names(&mut engines);
        let openings = openings(&request.openings, request.games, request.rules)?;
        let games = request.games.unwrap_or(match request.openings {
            OpeningSource::File(_) => 2 * openings.len(),
            // The built-in suite holds thousands: its first 50, twice each.
            OpeningSource::Random { .. } | OpeningSource::BuiltIn => DEFAULT_GAMES,
        });
        let sprt = match &request.sprt {
            Some(words) => {
                if engines.len() != 2 {
                    return Err(ConfigError::SprtNeedsTwo);
                }
                Some(Sprt::parse(words)?)
            }
            None => None,
        };
        if !(1..=1_000_000).contains(&games) {
            return Err(ConfigError::Games);
        }
        let wait = |ms: u64| Duration::from_millis(ms.clamp(1, MAX_WAIT_MS));
        Ok(MatchConfig {
            engines,
            referee: Referee {
                rules: request.rules,
                rule_settings: request.rule_settings,
                margin_ms: request.time_margin_ms.min(MAX_WAIT_MS),
                start_timeout: wait(request.start_timeout_ms),
                hang_timeout: wait(request.hang_timeout_ms),
                max_plies: request.max_plies,
            },
            openings,
            games_per_pair: games,
            concurrency: request.concurrency.max(1),
            sprt,
            pgn: request.pgn,
            json: request.json,
            shard: request.shard,
        })
    }
}

/// The openings of `source` under `rules`; `games` bounds how many random
/// ones are made.
fn openings(
    source: &OpeningSource,
    games: Option<usize>,
    rules: Rules,
) -> Result<Vec<Opening>, ConfigError> {
    match source {
        &OpeningSource::Random { plies, seed } => {
            if plies > 1000 {
                return Err(ConfigError::RandomPlies);
            }
            let pairs = games
                .unwrap_or(DEFAULT_GAMES)
                .clamp(1, 1_000_000)
                .div_ceil(2);
            let openings = random_openings(pairs, plies, seed, rules);
            if openings.is_empty() {
                return Err(ConfigError::NoRandomOpening(plies));
            }
            Ok(openings)
        }
        OpeningSource::File(path) => Ok(read_openings(path, rules)?),
        OpeningSource::BuiltIn => {
            // The built-in set was made under the default rules: under other
            // rules drop the few that do not fit rather than refuse to play.
            let mut kept = Vec::new();
            for line in DEFAULT_OPENINGS.lines() {
                if let Ok(mut one) = parse_openings(line, rules) {
                    kept.append(&mut one);
                }
            }
            if kept.is_empty() {
                return Err(ConfigError::NoBuiltInOpening);
            }
            Ok(kept)
        }
    }
}
