//! Self-play: the engine plays itself from the start position or from the
//! openings given (game `i` from opening `i` modulo their number), a few
//! random plies first so that games differ, and every quiet position of each
//! game is written with the game's result (the format of [`crate::tuning`]).
//!
//! Each game is a function of the seed and its index alone (its own random
//! plies, a fresh transposition table, one search thread, a depth or node
//! limit), and games are written in index order, so a run is reproducible
//! whatever `jobs` is.

use crate::engine::search::Silent;
use crate::engine::{Engine, GoError, GoLimits, option};
use crate::rules::{DEN, Game, GameError, Move, NEIGHBOURS, Outcome, Position, Rules, Side};
use crate::tools::matches::openings::{Opening, OpeningError};
use crate::util::options::OptionError;
use crate::util::rng::SplitMix64;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a self-play run does.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Games in the whole run, over all shards: `shard` picks this machine's block.
    pub games: usize,
    /// Search depth per move (with or instead of `nodes`).
    pub depth: Option<u32>,
    /// Search nodes per move (with or instead of `depth`).
    pub nodes: Option<u64>,
    /// Where the games start: game `i` from opening `i` modulo their number,
    /// the start position when there is none.
    pub openings: Vec<Opening>,
    /// Random plies at the start of each game, after its opening (not written).
    pub random_plies: usize,
    /// Seed of every game's random plies.
    pub seed: u64,
    /// Games played at once, one thread each.
    pub jobs: usize,
    /// Plies after which an unfinished game is scored a draw.
    pub max_plies: usize,
    /// Transposition table of each engine, MB.
    pub hash_mb: usize,
    /// The rules the games are played under.
    pub rules: Rules,
    /// `(I, N)`: this run plays only the `I`-th of `N` consecutive blocks of
    /// the games, so that `N` machines can each play a part; concatenating the
    /// parts in shard order gives the lines of the unsharded run (each part
    /// keeps its own `#` header and summary lines).
    pub shard: (usize, usize),
    /// Further engine options, `(name, value)`, such as the evaluation.
    pub engine_options: Vec<(String, String)>,
}

impl SelfplayConfig {
    /// Whether a run with this configuration can work: a search limit and a
    /// thread at least. [`run`] checks too; callers may check before they
    /// create the output.
    pub fn check(&self) -> Result<(), SelfplayError> {
        if self.depth.is_none() && self.nodes.is_none() {
            return Err(SelfplayError::NoLimit);
        }
        if self.shard.1 == 0 || self.shard.0 >= self.shard.1 {
            return Err(SelfplayError::Shard {
                index: self.shard.0,
                count: self.shard.1,
            });
        }
        if self.jobs == 0 {
            return Err(SelfplayError::NoJobs);
        }
        Ok(())
    }
}

impl Default for SelfplayConfig {
    fn default() -> SelfplayConfig {
        SelfplayConfig {
            games: 100,
            depth: None,
            nodes: Some(5000),
            openings: Vec::new(),
            random_plies: 8,
            seed: 1,
            jobs: 1,
            max_plies: 400,
            hash_mb: 4,
            rules: Rules::default(),
            shard: (0, 1),
            engine_options: Vec::new(),
        }
    }
}

/// Why self-play could not run or stopped.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// No search limit: the games would never end.
    #[error("selfplay: give a search limit (--depth or --nodes)")]
    NoLimit,
    /// A shard that is not one of the run's blocks.
    #[error("selfplay: shard {index}/{count}: expected I/N with 0 <= I < N")]
    Shard {
        /// The block asked for.
        index: usize,
        /// The number of blocks.
        count: usize,
    },
    /// No thread to play on.
    #[error("selfplay: --jobs must be at least 1")]
    NoJobs,
    /// The engine refused an option (`--eval-file`, a rule switch).
    #[error("selfplay engine: {0}")]
    Option(#[source] OptionError),
    /// The engine refused a game's position.
    #[error("selfplay engine: {0}")]
    Position(#[source] GameError),
    /// An opening is not legal under the run's rules, or its game is over.
    #[error("selfplay opening: {0}")]
    Opening(#[source] OpeningError),
    /// The engine could not search.
    #[error("selfplay engine: {0}")]
    Search(#[source] GoError),
    /// The search answered a move that is not legal: a bug in the engine,
    /// reported rather than written as data.
    #[error("selfplay engine: search answered {best} in {fen}")]
    IllegalAnswer {
        /// The move the search answered.
        best: Move,
        /// The position it was asked about.
        fen: String,
    },
    /// Writing the output failed.
    #[error("selfplay output: {0}")]
    Io(#[from] std::io::Error),
}

/// One finished game: its quiet positions with their scores, and its result.
#[derive(Clone, Debug)]
pub struct SelfplayGame {
    /// The game's index in the run (0-based).
    pub index: usize,
    /// The quiet positions written, as text, each with the search's score in
    /// centipawns from Red's view.
    pub positions: Vec<(String, i32)>,
    /// Red's score: 1, 0.5 or 0.
    pub result: f64,
    /// Plies played, random ones included.
    pub plies: usize,
    /// How it ended; `None` for the `max_plies` draw.
    pub outcome: Option<Outcome>,
}

/// Where a run stands, for progress reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelfplayProgress {
    /// Games finished and written.
    pub games: usize,
    /// Games this shard plays (the run's games divided among the shards).
    pub total: usize,
    /// Position lines written so far (the quiet positions of the games written).
    pub positions: usize,
    /// Red wins, draws, Blue wins so far.
    pub score: [usize; 3],
    /// Seconds since the start.
    pub seconds: f64,
}

/// What a whole run produced.
pub type Summary = SelfplayProgress;

/// Whether `pos` is quiet in the Texel sense: the static evaluation is what a
/// quiescence search would answer. So no capture for the side to move and no
/// piece of either side next to the enemy den (a den threat, which the search
/// resolves and the evaluation does not try to).
pub fn is_quiet(pos: &Position, rules: &Rules) -> bool {
    for side in Side::BOTH {
        let den = DEN[side.index()].trailing_zeros() as usize;
        if NEIGHBOURS[den] & pos.occupied(side.opponent()) != 0 {
            return false;
        }
    }
    !pos.generate(rules).iter().any(|&m| pos.is_capture(m))
}

/// Search scores are written clipped to this (mates and near-mates alike).
pub const SCORE_CLIP: i32 = 3000;

/// Red's score of a finished game.
fn red_score(outcome: Option<Outcome>) -> f64 {
    match outcome {
        Some(Outcome::Win {
            winner: Side::Red, ..
        }) => 1.0,
        Some(Outcome::Win {
            winner: Side::Blue, ..
        }) => 0.0,
        _ => 0.5,
    }
}

/// An engine set up for self-play: one thread, a small table, the run's rules.
/// The error is the engine's refusal, for [`SelfplayError::Option`].
fn new_engine(config: &SelfplayConfig) -> Result<Engine, OptionError> {
    let mut engine = Engine::new();
    let set = |engine: &mut Engine, name: &str, value: &str| engine.set_option(name, Some(value));
    set(&mut engine, option::THREADS, "1")?;
    set(
        &mut engine,
        option::HASH,
        &config.hash_mb.max(1).to_string(),
    )?;
    for (name, value) in config.rules.settings() {
        set(&mut engine, name, &value)?;
    }
    for (name, value) in &config.engine_options {
        set(&mut engine, name, value)?;
    }
    Ok(engine)
}

/// Plays game `index` of the run with `engine` (reset first).
pub fn play_game(
    engine: &mut Engine,
    config: &SelfplayConfig,
    index: usize,
) -> Result<SelfplayGame, SelfplayError> {
    let mut rng = SplitMix64::new(
        config
            .seed
            .wrapping_mul(0x2545_F491_4F6C_DD1D)
            .wrapping_add(index as u64),
    );
    let rules = config.rules;
    let (fen, mut game, mut moves) = match config.openings.get(index % config.openings.len().max(1))
    {
        Some(opening) => (
            opening.fen.as_str(),
            opening.game(rules).map_err(SelfplayError::Opening)?,
            opening.moves.clone(),
        ),
        None => (
            crate::rules::START_FEN,
            Game::new(rules, Position::startpos()),
            Vec::new(),
        ),
    };
    let opening_plies = moves.len();
    let mut positions = Vec::new();
    engine.new_game();
    let limits = GoLimits {
        depth: config.depth,
        nodes: config.nodes,
        ..GoLimits::default()
    };
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break Some(outcome);
        }
        if moves.len() >= config.max_plies {
            break None;
        }
        let legal = game.legal_moves();
        let mv = if moves.len() < opening_plies + config.random_plies {
            legal[rng.below(legal.len())]
        } else {
            engine
                .set_position(fen, &moves)
                .map_err(SelfplayError::Position)?;
            let result = engine
                .search(&limits, &Silent)
                .map_err(SelfplayError::Search)?;
            if !legal.contains(&result.best_move) {
                return Err(SelfplayError::IllegalAnswer {
                    best: result.best_move,
                    fen: game.position().fen(),
                });
            }
            let pos = game.position();
            if is_quiet(pos, &rules) {
                let score = result.score.clamp(-SCORE_CLIP, SCORE_CLIP);
                let red_score = if pos.side_to_move() == Side::Red {
                    score
                } else {
                    -score
                };
                positions.push((pos.fen(), red_score));
            }
            result.best_move
        };
        game.make(mv);
        moves.push(mv.to_string());
    };
    Ok(SelfplayGame {
        index,
        positions,
        result: red_score(outcome),
        plies: moves.len(),
        outcome,
    })
}

/// Why a run into a named file failed, with the file's name.
#[derive(Debug, thiserror::Error)]
pub enum FileRunError {
    /// The file could not be created.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The run failed while writing it.
    #[error("{}: {source}", path.display())]
    Run {
        /// The file.
        path: PathBuf,
        /// Why the run stopped.
        #[source]
        source: SelfplayError,
    },
}

/// [`run`] into the file at `path`, created (emptied) only once `config`
/// has been checked.
pub fn run_to_file(
    config: &SelfplayConfig,
    path: &Path,
    progress: &mut dyn FnMut(&SelfplayProgress),
) -> Result<Summary, FileRunError> {
    let in_file = |source| FileRunError::Run {
        path: path.to_path_buf(),
        source,
    };
    config.check().map_err(in_file)?;
    let file = std::fs::File::create(path).map_err(|source| FileRunError::Create {
        path: path.to_path_buf(),
        source,
    })?;
    run(config, &mut std::io::BufWriter::new(file), progress).map_err(in_file)
}

/// Plays the run on `config.jobs` threads and writes the data to `out`: a header
/// (the settings and the rules), the games in index order, and a `# done` line.
/// `progress` hears of each game as it is written.
pub fn run(
    config: &SelfplayConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&SelfplayProgress),
) -> Result<Summary, SelfplayError> {
    config.check()?;
    let limit = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let settings = format!(
        "depth={} nodes={} openings={} random-plies={} seed={} max-plies={} shard={}/{}",
        limit(config.depth.map(|d| d.to_string())),
        limit(config.nodes.map(|n| n.to_string())),
        config.openings.len(),
        config.random_plies,
        config.seed,
        config.max_plies,
        config.shard.0,
        config.shard.1
    );
    writeln!(out, "# doushou selfplay games={} {settings}", config.games)?;
    writeln!(out, "# rules: {}", config.rules)?;
    if !config.engine_options.is_empty() {
        let options: Vec<String> = config
            .engine_options
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        writeln!(out, "# engine: {}", options.join(" "))?;
    }
    let start = Instant::now();
    let (shard, shards) = config.shard;
    // This shard's block of game indices: first..first + my_games.
    let first = config.games * shard / shards;
    let my_games = config.games * (shard + 1) / shards - first;
    let mut summary = SelfplayProgress {
        total: my_games,
        ..SelfplayProgress::default()
    };
    // Games finish out of order; hold them back so the file is in index order.
    let mut pending = BTreeMap::new();
    crate::util::pool::run_jobs(
        my_games,
        config.jobs,
        || new_engine(config),
        |engine, nth| match engine {
            Ok(engine) => play_game(engine, config, first + nth),
            Err(e) => Err(SelfplayError::Option(e.clone())),
        },
        |_, record| -> Result<(), SelfplayError> {
            let record = record?;
            pending.insert(record.index, record);
            while let Some(record) = pending.remove(&(first + summary.games)) {
                for (fen, score) in &record.positions {
                    writeln!(out, "{fen} ; {} ; {score}", record.result)?;
                }
                summary.games += 1;
                summary.positions += record.positions.len();
                summary.score[match record.result {
                    r if r > 0.75 => 0,
                    r if r < 0.25 => 2,
                    _ => 1,
                }] += 1;
                summary.seconds = start.elapsed().as_secs_f64();
                progress(&summary);
            }
            Ok(())
        },
    )?;
    writeln!(
        out,
        "# done: games={} positions={} red-won={} drawn={} blue-won={} {settings}",
        summary.games, summary.positions, summary.score[0], summary.score[1], summary.score[2]
    )?;
    out.flush()?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_reproducible_and_labelled() {
        let config = SelfplayConfig {
            games: 1,
            depth: Some(2),
            nodes: None,
            max_plies: 60,
            ..SelfplayConfig::default()
        };
        let mut engine = new_engine(&config).unwrap();
        let a = play_game(&mut engine, &config, 3).unwrap();
        let b = play_game(&mut engine, &config, 3).unwrap();
        assert_eq!(a.positions, b.positions);
        assert!(a.plies <= 60);
        assert!([0.0, 0.5, 1.0].contains(&a.result));
        let rules = Rules::default();
        for (fen, _) in &a.positions {
            assert!(is_quiet(&fen.parse().unwrap(), &rules));
        }
    }

    #[test]
    fn a_run_needs_a_limit() {
        let config = SelfplayConfig {
            depth: None,
            nodes: None,
            ..SelfplayConfig::default()
        };
        let mut out = Vec::new();
        assert!(matches!(
            run(&config, &mut out, &mut |_| {}),
            Err(SelfplayError::NoLimit)
        ));
    }

    #[test]
    fn a_refused_option_and_a_failed_write_are_told_apart() {
        let config = SelfplayConfig {
            games: 1,
            depth: Some(1),
            nodes: None,
            engine_options: vec![("NoSuchOption".into(), "1".into())],
            ..SelfplayConfig::default()
        };
        let refused = run(&config, &mut Vec::new(), &mut |_| {}).unwrap_err();
        assert!(
            matches!(&refused, SelfplayError::Option(OptionError::Unknown(n)) if n == "NoSuchOption"),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            "selfplay engine: unknown option 'NoSuchOption'"
        );
        /// A writer whose every write fails, as a full disk does.
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let config = SelfplayConfig {
            engine_options: Vec::new(),
            ..config
        };
        let failed = run(&config, &mut Full, &mut |_| {}).unwrap_err();
        let source = std::error::Error::source(&failed)
            .and_then(|e| e.downcast_ref::<std::io::Error>())
            .map(std::io::Error::kind);
        assert_eq!(source, Some(std::io::ErrorKind::StorageFull), "{failed:?}");
    }

    #[test]
    fn output_does_not_depend_on_jobs() {
        let text = |jobs| {
            let config = SelfplayConfig {
                games: 4,
                depth: Some(1),
                nodes: None,
                max_plies: 40,
                jobs,
                ..SelfplayConfig::default()
            };
            let mut out = Vec::new();
            run(&config, &mut out, &mut |_| {}).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(text(1), text(3));
    }
}

#[cfg(test)]
mod shard_tests {
    use super::*;

    /// The position lines of a run (headers and the summary line left out).
    fn positions(shard: (usize, usize)) -> Vec<String> {
        let config = SelfplayConfig {
            games: 5,
            depth: Some(1),
            nodes: None,
            max_plies: 30,
            jobs: 2,
            shard,
            ..SelfplayConfig::default()
        };
        let mut out = Vec::new();
        run(&config, &mut out, &mut |_| {}).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn shards_partition_the_games() {
        let whole = positions((0, 1));
        assert!(!whole.is_empty());
        let parts: Vec<String> = (0..2).flat_map(|i| positions((i, 2))).collect();
        assert_eq!(parts, whole);
        assert!(whole.iter().all(|l| l.split(';').count() == 3));
    }

    #[test]
    fn a_bad_shard_is_refused() {
        for shard in [(0, 0), (2, 2), (5, 3)] {
            let config = SelfplayConfig {
                shard,
                ..SelfplayConfig::default()
            };
            assert!(matches!(config.check(), Err(SelfplayError::Shard { .. })));
        }
    }
}
