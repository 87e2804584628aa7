//! Building the den-race suite from game records, with hindsight: from each
//! game won by a den entry, walk back over the loser's moves, searching the
//! position after each, to the first one after which a long search sees the
//! loss; keep the position before it, the move, and the moves that hold.
//!
//! The work is one game per job on `jobs` threads, each with its own engine.
//! Each game answers one line of the output (`# game N: ...`, and the entry
//! itself when one was found), appended as soon as the game is done, so an
//! interrupted run resumes where it stopped and `--shard I/N` splits the games
//! over machines.

use super::{Judge, SuiteEntry};
use crate::engine::{Engine, GoError, GoLimits};
use crate::rules::{Game, Move, Outcome, Rules, Side, WinReason};
use crate::tools::analyse::pool::{self, AnalysisTask, Setup, TaskError};
use crate::tools::pgn::read::{GameSpec, LineError, PositionSpec, entry_game, read_entries};
use crate::util::fs::{TextFileError, read_text};
use std::collections::HashSet;
use std::fmt;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How the suite is built.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Each worker's engine and the limits of every search (the long search).
    pub setup: Setup,
    /// When a score means the side to move wins.
    pub judge: Judge,
    /// At most this many of the loser's moves are walked back over: a game
    /// lost from further back was not lost by a race.
    pub max_walk: usize,
    /// Only games lost by this player (the record's `Red`/`Blue` tag).
    pub loser: Option<String>,
}

/// What the walk back found in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A mistake with at least one move that held: a suite entry, with the
    /// ply (from 1) of the mistake in the game.
    Entry(Box<SuiteEntry>, usize),
    /// The game gives no entry, for this reason.
    Skipped(Skip),
}

/// Why a game gives no entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The game did not end with a piece in a den.
    NotDenEntry,
    /// The loser is not the player asked for.
    OtherLoser,
    /// Even the loser's last move is not seen as losing (the search missed
    /// the den entry; it cannot be judged).
    LastMoveNotLost,
    /// Every move walked back over was already lost: no race decided it.
    LostThroughout,
    /// No move of the position before the mistake holds by the long search:
    /// the position was lost after all.
    NothingHeld,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Entry(_, ply) => write!(f, "mistake at ply {ply}"),
            Finding::Skipped(skip) => f.write_str(match skip {
                Skip::NotDenEntry => "skipped: not won by a den entry",
                Skip::OtherLoser => "skipped: lost by another player",
                Skip::LastMoveNotLost => "skipped: the search does not see the den entry",
                Skip::LostThroughout => "skipped: lost before the walk back's reach",
                Skip::NothingHeld => "skipped: no move held the position before the mistake",
            }),
        }
    }
}

/// Walks back through one game (see the module's comment).
pub fn find_mistake(
    engine: &mut Engine,
    spec: &GameSpec,
    config: &BuildConfig,
) -> Result<Finding, TaskError> {
    let game = Game::from_fen_and_moves(spec.rules, &spec.start.fen, &spec.start.moves)?;
    let winner = match game.outcome() {
        Some(Outcome::Win {
            winner,
            reason: WinReason::Den,
        }) => winner,
        _ => return Ok(Finding::Skipped(Skip::NotDenEntry)),
    };
    let loser = winner.opponent();
    if let Some(name) = &config.loser {
        let tag = if loser == Side::Red { "Red" } else { "Blue" };
        if spec.tag(tag) != Some(name.as_str()) {
            return Ok(Finding::Skipped(Skip::OtherLoser));
        }
    }
    let moves: Vec<String> = game.moves_played().iter().map(Move::to_string).collect();
    let first_side = game.start_position().side_to_move();
    let loser_plies: Vec<usize> = (0..moves.len())
        .filter(|&i| (i % 2 == 0) == (first_side == loser))
        .collect();
    let mut walker = Walker {
        engine,
        rules: spec.rules,
        fen: &spec.start.fen,
        moves: &moves,
        config,
    };
    // `lost_from`: the index in `loser_plies` of the earliest move so far
    // after which the loser is seen to lose.
    let mut lost_from = loser_plies.len();
    let mut held_before = false;
    while lost_from > 0 && loser_plies.len() - lost_from < config.max_walk {
        if !walker.lost_after(loser_plies[lost_from - 1] + 1)? {
            held_before = true;
            break;
        }
        lost_from -= 1;
    }
    if !held_before {
        return Ok(Finding::Skipped(Skip::LostThroughout));
    }
    if lost_from == loser_plies.len() {
        return Ok(Finding::Skipped(Skip::LastMoveNotLost));
    }
    let ply = loser_plies[lost_from];
    let before = Game::from_fen_and_moves(spec.rules, &spec.start.fen, &moves[..ply])?;
    let mistake = game.moves_played()[ply];
    let mut holds = Vec::new();
    for m in before.legal_moves().iter().copied() {
        if m != mistake && !walker.lost_after_move(ply, m)? {
            holds.push(m);
        }
    }
    if holds.is_empty() {
        return Ok(Finding::Skipped(Skip::NothingHeld));
    }
    let entry = SuiteEntry {
        rules: spec.rules,
        position: PositionSpec {
            fen: spec.start.fen.clone(),
            moves: moves[..ply].to_vec(),
        },
        mistake,
        holds,
    };
    Ok(Finding::Entry(Box::new(entry), ply + 1))
}

/// The long searches of one game's walk back.
struct Walker<'a> {
    engine: &'a mut Engine,
    rules: Rules,
    fen: &'a str,
    moves: &'a [String],
    config: &'a BuildConfig,
}

impl Walker<'_> {
    /// Whether the side that played `moves[plies - 1]` is seen to lose after it.
    fn lost_after(&mut self, plies: usize) -> Result<bool, TaskError> {
        self.lost(&self.moves[..plies])
    }

    /// Whether the side to move after `moves[..plies]` is seen to lose after
    /// playing `m` there instead.
    fn lost_after_move(&mut self, plies: usize, m: Move) -> Result<bool, TaskError> {
        let mut text = self.moves[..plies].to_vec();
        text.push(m.to_string());
        self.lost(&text)
    }

    /// Whether the side that made the last of `moves` loses: the game is won
    /// by the side now to move, or a search sees it win.
    fn lost(&mut self, moves: &[String]) -> Result<bool, TaskError> {
        let task = AnalysisTask {
            rules: self.rules,
            position: PositionSpec {
                fen: self.fen.to_string(),
                moves: moves.to_vec(),
            },
            played: None,
        };
        let result = pool::search(self.engine, &task, &self.config.setup.limits)?.search;
        let to_move = self
            .engine
            .game()
            .map(|g| g.position().side_to_move())
            .ok_or(GoError::NoPosition)?;
        Ok(match result.outcome {
            Some(Outcome::Win { winner, .. }) => winner == to_move,
            Some(Outcome::Draw(_)) => false,
            None => self.config.judge.is_won(result.score),
        })
    }
}

/// The limits of a long search when none is given: a fixed node count, so the
/// suite does not depend on the machine's speed or load.
pub const DEFAULT_NODES: u64 = 4_000_000;

/// The default long search's limits.
pub fn default_limits() -> GoLimits {
    GoLimits {
        nodes: Some(DEFAULT_NODES),
        ..GoLimits::default()
    }
}

/// One run of the builder: games in, suite lines appended to `out`.
#[derive(Clone, Debug)]
pub struct BuildRun {
    /// How each game is walked back.
    pub config: BuildConfig,
    /// The game records (`doushou match` PGN, or one game per line).
    pub inputs: Vec<PathBuf>,
    /// The rules of records that do not name theirs.
    pub rules: Rules,
    /// The suite file: created, or resumed when it exists.
    pub out: PathBuf,
    /// This run's part of the games: `(index, count)`, game `g` when
    /// `g % count == index`.
    pub shard: (usize, usize),
    /// Games walked back at once, each by its own engine.
    pub jobs: usize,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildSummary {
    /// Games of this shard.
    pub games: usize,
    /// Of those, games an earlier run had done already.
    pub resumed: usize,
    /// Entries this run found.
    pub entries: usize,
}

/// Why the builder stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A game file, or the suite file resumed, could not be read.
    #[error(transparent)]
    File(#[from] TextFileError),
    /// The suite file could not be created.
    #[error("cannot open {}: {source}", .path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A record of a game file is not a valid game (nothing was searched).
    #[error("{}:{}: {}", .path.display(), .error.line, .error.error)]
    Record {
        /// The file.
        path: PathBuf,
        /// The line and the fault.
        error: Box<LineError>,
    },
    /// The suite file could not be cut back to its finished games or written.
    #[error("{}: {source}", .path.display())]
    Write {
        /// The suite file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An engine refused its options or a position.
    #[error(transparent)]
    Search(#[from] TaskError),
    /// `--out` names a file that holds something other than a suite this
    /// builder began (it is left as it is).
    #[error("{}: exists and is not a suite being built (no '# game' lines); choose another file", .0.display())]
    NotASuite(PathBuf),
}

/// The prefix of the line each finished game leaves in the suite file.
const GAME_MARK: &str = "# game ";

/// Runs the builder: reads every game, skips those an earlier run finished,
/// walks back the rest on `jobs` threads, appending each game's lines as soon
/// as it is done. Progress goes to stderr.
pub fn build(run: &BuildRun) -> Result<BuildSummary, BuildError> {
    let mut games = Vec::new();
    for path in &run.inputs {
        let text = read_text(path)?;
        for entry in read_entries(&text) {
            let spec = entry.and_then(|e| entry_game(e, run.rules));
            let spec = spec.map_err(|error| BuildError::Record {
                path: path.clone(),
                error: Box::new(error),
            })?;
            games.push((path.display().to_string(), spec));
        }
    }
    let (index, count) = run.shard;
    let mine: Vec<usize> = (0..games.len()).filter(|g| g % count == index).collect();
    let done = finished_games(&run.out)?;
    let todo: Vec<usize> = mine.iter().copied().filter(|g| !done.contains(g)).collect();
    let mut summary = BuildSummary {
        games: mine.len(),
        resumed: mine.len() - todo.len(),
        entries: 0,
    };
    // Refuse bad engine options before the file is touched.
    pool::new_engine(&run.config.setup)?;
    let write_error = |source| BuildError::Write {
        path: run.out.clone(),
        source,
    };
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&run.out)
        .map_err(|source| BuildError::Create {
            path: run.out.clone(),
            source,
        })?;
    let mut finished = summary.resumed;
    crate::util::pool::run_jobs(
        todo.len(),
        run.jobs,
        || pool::new_engine(&run.config.setup),
        |engine, i| {
            let engine = engine.as_mut().map_err(|e| e.clone())?;
            find_mistake(engine, &games[todo[i]].1, &run.config)
        },
        |i, finding: Result<Finding, TaskError>| {
            let finding = finding?;
            let g = todo[i];
            let (file, spec) = &games[g];
            // The game's mark comes last: a block cut short by a crash has
            // none, and is removed and redone when the run resumes.
            let mut text = String::new();
            if let Finding::Entry(entry, _) = &finding {
                text.push_str(&format!("# rules: {}\n{}\n", entry.rules, entry.line()));
                summary.entries += 1;
            }
            text.push_str(&format!(
                "{GAME_MARK}{g} ({file}:{}): {finding}\n",
                spec.line
            ));
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(write_error)?;
            finished += 1;
            eprintln!(
                "races: {finished}/{} games, {} entries this run",
                summary.games, summary.entries
            );
            Ok::<(), BuildError>(())
        },
    )?;
    Ok(summary)
}

/// The games an earlier run finished, by their `# game N` lines. Whatever
/// follows the last of them is a game cut short by a crash: it is removed, so
/// the file holds whole games only.
fn finished_games(path: &Path) -> Result<HashSet<usize>, BuildError> {
    let error = |source| BuildError::Write {
        path: path.to_path_buf(),
        source,
    };
    let text = match read_text(path) {
        Ok(text) => text,
        Err(TextFileError::Open { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(HashSet::new());
        }
        // Not text: no suite this builder began.
        Err(TextFileError::NotText { .. }) => {
            return Err(BuildError::NotASuite(path.to_path_buf()));
        }
        Err(e) => return Err(e.into()),
    };
    let whole = text
        .match_indices(GAME_MARK)
        .filter(|&(i, _)| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .last()
        .and_then(|(i, _)| text[i..].find('\n').map(|end| i + end + 1))
        .unwrap_or(0);
    if whole == 0 && !text.trim().is_empty() {
        // Not a suite this builder began: never cut someone's file.
        return Err(BuildError::NotASuite(path.to_path_buf()));
    }
    if whole < text.len() {
        let file = OpenOptions::new().write(true).open(path).map_err(error)?;
        file.set_len(whole as u64).map_err(error)?;
    }
    Ok(text[..whole]
        .lines()
        .filter_map(|l| l.strip_prefix(GAME_MARK))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::Silent;
    use crate::tools::pgn::read::parse_position_line;

    /// A few pieces each: Red (searching deep) hunts Blue (searching one ply),
    /// so Blue blunders a race it could have held.
    const START: &str = "7/7/3e3/7/3L3/7/7/C6/7 b 0 1";

    fn setup(depth: u32) -> Setup {
        Setup {
            hash_mb: 1,
            multipv: 1,
            limits: GoLimits {
                depth: Some(depth),
                ..GoLimits::default()
            },
            engine_options: Vec::new(),
        }
    }

    fn config(depth: u32) -> BuildConfig {
        BuildConfig {
            setup: setup(depth),
            judge: Judge { won_cp: None },
            max_walk: 24,
            loser: None,
        }
    }

    /// The game of [`START`]: Red at depth 7, Blue at depth 1, to its end.
    fn played_game() -> GameSpec {
        let mut engine = pool::new_engine(&setup(1)).unwrap();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..120 {
            engine.new_game();
            engine.set_position(START, &moves).unwrap();
            let game = engine.game().unwrap();
            if game.outcome().is_some() {
                break;
            }
            let depth = if game.position().side_to_move() == Side::Red {
                7
            } else {
                1
            };
            let limits = GoLimits {
                depth: Some(depth),
                ..GoLimits::default()
            };
            moves.push(
                engine
                    .search(&limits, &Silent)
                    .unwrap()
                    .best_move
                    .to_string(),
            );
        }
        let line = format!("{START} moves {}", moves.join(" "));
        GameSpec {
            line: 1,
            tags: vec![("Blue".into(), "shallow".into())],
            rules: Rules::default(),
            start: parse_position_line(&line).unwrap(),
            result: None,
        }
    }

    /// The entry found is what the walk back promises: the game's own move,
    /// after which the long search sees the loss, played from a position where
    /// each listed hold is not seen lost.
    #[test]
    fn the_mistake_loses_and_the_holds_hold() {
        let spec = played_game();
        assert_eq!(
            spec.start.moves.len() % 2,
            0,
            "Blue moved first and Red, last, entered the den"
        );
        let config = config(7);
        let mut engine = pool::new_engine(&config.setup).unwrap();
        let found = find_mistake(&mut engine, &spec, &config).unwrap();
        eprintln!("{} => {found}", spec.start.moves.join(" "));
        let Finding::Entry(entry, ply) = found else {
            panic!("no entry in {}", spec.start.moves.join(" "));
        };
        assert_eq!(entry.position.moves, spec.start.moves[..ply - 1]);
        assert_eq!(entry.mistake.to_string(), spec.start.moves[ply - 1]);
        let moves: Vec<String> = spec.start.moves.clone();
        let mut walker = Walker {
            engine: &mut engine,
            rules: spec.rules,
            fen: START,
            moves: &moves,
            config: &config,
        };
        assert!(walker.lost_after(ply).unwrap(), "the mistake is seen lost");
        assert!(
            !walker.lost_after(ply - 2).unwrap(),
            "the loser's move before it was not"
        );
        for hold in &entry.holds {
            assert!(
                !walker.lost_after_move(ply - 1, *hold).unwrap(),
                "{hold} holds"
            );
        }
    }

    /// Games not won by a den entry, and games lost by someone else, give
    /// nothing and cost no search.
    #[test]
    fn other_games_are_skipped() {
        let config = config(1);
        let mut engine = pool::new_engine(&config.setup).unwrap();
        let mut unfinished = played_game();
        unfinished.start.moves.truncate(1);
        assert_eq!(
            find_mistake(&mut engine, &unfinished, &config).unwrap(),
            Finding::Skipped(Skip::NotDenEntry)
        );
        let someone_else = BuildConfig {
            loser: Some("another".into()),
            ..config.clone()
        };
        assert_eq!(
            find_mistake(&mut engine, &played_game(), &someone_else).unwrap(),
            Finding::Skipped(Skip::OtherLoser)
        );
    }
}
