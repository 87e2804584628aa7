//! `doushou match`: engine-vs-engine games for any engine that speaks
//! protocol.md, refereed by the project's own rules code.
//!
//! - [`config`]: engines, limits, time controls from the command line.
//! - [`client`]: one engine process and the runner's side of the protocol.
//! - [`game`]: one game, the referee's clocks and checks.
//! - [`openings`]: where games start; the built-in set.
//! - [`record`]: the JSON summary, rewritten whole after every game, that
//!   `--resume` continues a match from.
//! - [`stats`]: Elo, error bars, LOS, SPRT.
//!
//! This module schedules the games (each pair of engines plays every opening
//! twice, colours swapped; round robin with more than two engines) on
//! `--concurrency` worker threads, and gathers results on the calling thread,
//! which writes records, prints progress and stops early when the SPRT decides.
//! A user's interrupt ([`client::interrupt`]) ends the games in play at once;
//! only finished games are counted, so a resumed match plays those again.

mod args;
pub mod client;
pub mod config;
pub mod game;
pub mod openings;
pub mod record;
pub mod stats;

pub use args::{MatchArgs, run};
pub use record::MatchSettings;

use crate::tools::pgn;
use crate::util::pool::run_jobs;
use client::ClientError;
use config::{EngineSpec, SearchLimits};
use game::{GameRecord, Referee, Seat, Termination};
use openings::Opening;
use serde::{Deserialize, Serialize};
use stats::{Sprt, SprtState, Wdl};
use std::collections::HashSet;
use std::fmt::{self, Write as _};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

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
    /// Games at once.
    pub concurrency: usize,
    /// The early-stopping test, for two engines.
    pub sprt: Option<Sprt>,
    /// Where game records go (appended).
    pub pgn: Option<PathBuf>,
    /// Where the JSON summary goes.
    pub json: Option<PathBuf>,
}

/// Why a match could not be played or recorded.
#[derive(Debug)]
pub enum MatchError {
    /// A file could not be opened or written.
    Io {
        /// Which file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// Engines that could not be started, or did not complete the handshake,
    /// before the first game: (name, command line, what went wrong).
    EnginesDidNotStart(Vec<(String, String, ClientError)>),
    /// The record given to `--resume` could not be read back.
    Resume(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            MatchError::Resume(why) => write!(f, "--resume: {why}"),
            MatchError::EnginesDidNotStart(failures) => {
                let each = |(name, command, error): &(String, String, ClientError)| {
                    let hint = match error {
                        ClientError::Timeout { waiting_for, .. } if *waiting_for == "uciok" => {
                            " (--start-timeout allows more)"
                        }
                        ClientError::Timeout { .. } => " (--hang-timeout allows more)",
                        _ => "",
                    };
                    format!("engine '{name}' (command: {command}) did not start: {error}{hint}")
                };
                match &failures[..] {
                    [one] => write!(f, "{}; no game was played", each(one)),
                    all => {
                        write!(f, "{} engines did not start; no game was played", all.len())?;
                        all.iter().try_for_each(|x| write!(f, "\n  {}", each(x)))
                    }
                }
            }
        }
    }
}

/// Starts every engine once, all at once, as a game would: a mistyped command
/// or an engine that does not speak the protocol stops the match before its
/// first game, rather than losing every game and reporting that as a result.
fn check_engines_start(config: &MatchConfig) -> Result<(), MatchError> {
    let failures: Vec<_> = std::thread::scope(|scope| {
        let checks: Vec<_> = config
            .engines
            .iter()
            .map(|spec| scope.spawn(move || game::check_start(spec, &config.referee)))
            .collect();
        config
            .engines
            .iter()
            .zip(checks)
            .filter_map(|(spec, check)| {
                let outcome = check.join().unwrap_or_else(|_| {
                    Err(ClientError::Spawn(std::io::Error::other(
                        "the start check panicked",
                    )))
                });
                outcome
                    .err()
                    .map(|e| (spec.name.clone(), spec.command_line(), e))
            })
            .collect()
    });
    if failures.is_empty() {
        Ok(())
    } else {
        Err(MatchError::EnginesDidNotStart(failures))
    }
}

impl std::error::Error for MatchError {}

/// One game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    round: usize,
    pair: usize,
    red: usize,
    blue: usize,
    opening: usize,
}

/// Every game of the match in playing order: game k of every pair before
/// game k+1 of any, so that a stopped match is still balanced; games 2i and
/// 2i+1 of a pair share opening i with colours swapped.
fn schedule(
    engines: usize,
    games_per_pair: usize,
    openings: usize,
) -> (Vec<(usize, usize)>, Vec<Job>) {
    let mut pairs = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            pairs.push((a, b));
        }
    }
    let mut jobs = Vec::with_capacity(pairs.len() * games_per_pair);
    for k in 0..games_per_pair {
        for (pair, &(a, b)) in pairs.iter().enumerate() {
            let (red, blue) = if k % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job {
                round: jobs.len() + 1,
                pair,
                red,
                blue,
                opening: (k / 2) % openings.max(1),
            });
        }
    }
    (pairs, jobs)
}

/// What happened to one engine over the match.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Its name.
    pub name: String,
    /// Its results over all its games.
    pub wdl: Wdl,
    /// Games lost on time.
    pub time_forfeits: u32,
    /// Games lost by a crash.
    pub crashes: u32,
    /// Games lost by an illegal or unreadable move.
    pub illegal_moves: u32,
    /// Games lost by not answering (no clock running).
    pub no_answers: u32,
    /// Games lost because it did not start.
    pub start_failures: u32,
}

/// One game as the summary lists it, and as a record keeps it for `--resume`:
/// everything the tallies are counted from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's number.
    pub round: usize,
    /// Red's engine.
    pub red: String,
    /// Blue's engine.
    pub blue: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The kind of ending ([`Termination::kind`]).
    pub reason: String,
    /// How it ended, in words.
    pub termination: String,
    /// The engine at fault, for a game lost on a fault.
    pub faulty: Option<String>,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// Plies of the opening.
    pub opening_plies: usize,
    /// Wall time, ms.
    pub duration_ms: u64,
}

impl GameSummary {
    /// The summary of a finished game.
    fn of(record: &GameRecord, job: Job, names: &[&str]) -> GameSummary {
        let t = &record.termination;
        let (red, blue) = (names[job.red], names[job.blue]);
        GameSummary {
            round: record.round,
            red: red.to_string(),
            blue: blue.to_string(),
            result: t.score_text().to_string(),
            reason: t.kind().to_string(),
            termination: t.to_string(),
            faulty: t.faulty().map(|side| match side {
                crate::rules::Side::Red => red.to_string(),
                crate::rules::Side::Blue => blue.to_string(),
            }),
            plies: record.moves.len(),
            opening_plies: record.opening_plies,
            duration_ms: record.duration.as_millis() as u64,
        }
    }
}

/// The results of a match.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Games scheduled.
    pub planned: usize,
    /// Each pair (first, second) by engine name, with results from the first's side.
    pub pairs: Vec<(String, String, Wdl)>,
    /// Per engine.
    pub engines: Vec<EngineTally>,
    /// The SPRT and its last state, if one ran.
    pub sprt: Option<(Sprt, f64, SprtState)>,
    /// Every game played, in the order they ended.
    pub games: Vec<GameSummary>,
    /// The rules, as `Name=Value` words.
    pub rules: String,
    /// The preset name or `custom`.
    pub variant: String,
    /// The limits, in words.
    pub limits: String,
    /// Wall time of the match, seconds.
    pub seconds: f64,
    /// Whether the user stopped the match before it was over.
    pub interrupted: bool,
}

/// The `TimeControl` tag: the limits if both sides share them, else each side's.
fn limits_text(red: &SearchLimits, blue: &SearchLimits) -> String {
    if red == blue {
        red.to_string()
    } else {
        format!("red {red}; blue {blue}")
    }
}

/// The game record of a finished game.
fn pgn_record(
    game: &GameRecord,
    engines: [&EngineSpec; 2],
    config: &MatchConfig,
    limits: &str,
    date: &str,
) -> pgn::Record {
    pgn::GameTags {
        event: "doushou match".to_string(),
        site: "?".to_string(),
        date: date.to_string(),
        round: game.round.to_string(),
        players: engines.map(|e| e.name.clone()),
        levels: engines.map(|e| pgn::level_of(&e.options)),
        result: game.termination.score_text().to_string(),
        termination: Some(game.termination.to_string()),
        rules: config.referee.rules,
        time_control: Some(limits.to_string()),
        start_fen: game.start_fen.clone(),
        extra: Vec::new(),
    }
    .record(game.moves.iter().map(ToString::to_string).collect())
}

/// Plays the match: progress on stderr, records as games end. Answers the
/// summary (also written as JSON if asked).
pub fn run_match(config: &MatchConfig) -> Result<MatchSummary, MatchError> {
    play_match(config, Vec::new(), 0.0)
}

/// Plays the rest of the match whose record (its JSON summary) is at `path`:
/// the same games in the same order as the first run would have played them,
/// the finished ones counted from the record, the summary written back there.
/// The PGN file, if any, keeps only the finished games' records before the
/// new ones are appended.
pub fn resume_match(path: &Path) -> Result<MatchSummary, MatchError> {
    let resumed = record::read(path).map_err(MatchError::Resume)?;
    if let Some(pgn) = &resumed.config.pgn {
        let rounds: HashSet<usize> = resumed.games.iter().map(|g| g.round).collect();
        record::repair_pgn(pgn, &rounds).map_err(|error| MatchError::Io {
            path: pgn.clone(),
            error,
        })?;
    }
    play_match(&resumed.config, resumed.games, resumed.seconds)
}

/// Plays the games of the match not in `done`, after counting those.
fn play_match(
    config: &MatchConfig,
    done: Vec<GameSummary>,
    seconds_before: f64,
) -> Result<MatchSummary, MatchError> {
    let began = Instant::now();
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |error| MatchError::Io { path, error }
    };
    let (pairs, jobs) = schedule(
        config.engines.len(),
        config.games_per_pair,
        config.openings.len(),
    );
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let mut summary = MatchSummary {
        sprt: config.sprt.map(|s| (s, 0.0, SprtState::Continue)),
        rules: config.referee.rules.to_string(),
        variant: config
            .referee
            .rules
            .preset_name()
            .unwrap_or("custom")
            .to_string(),
        limits: if config
            .engines
            .windows(2)
            .all(|w| w[0].limits == w[1].limits)
        {
            config.engines[0].limits.to_string()
        } else {
            config
                .engines
                .iter()
                .map(|e| format!("{}: {}", e.name, e.limits))
                .collect::<Vec<_>>()
                .join("; ")
        },
        seconds: seconds_before,
        ..MatchSummary::new(&names, &pairs, jobs.len())
    };
    for game in done {
        let job = game
            .round
            .checked_sub(1)
            .and_then(|i| jobs.get(i))
            .filter(|job| names[job.red] == game.red && names[job.blue] == game.blue)
            .copied()
            .ok_or_else(|| {
                MatchError::Resume(format!(
                    "game {} ({} vs {}) is not a game of this match",
                    game.round, game.red, game.blue
                ))
            })?;
        summary.count(game, job);
    }
    let finished: HashSet<usize> = summary.games.iter().map(|g| g.round).collect();
    let jobs: Vec<Job> = jobs
        .into_iter()
        .filter(|j| !finished.contains(&j.round))
        .collect();
    let decided = summary
        .sprt
        .is_some_and(|(_, _, state)| state != SprtState::Continue);
    let settings = MatchSettings::of(config);
    let write_summary = |summary: &MatchSummary| match &config.json {
        Some(path) => crate::util::fs::write_atomically(
            path,
            record::summary_json(summary, Some(&settings)).as_bytes(),
        )
        .map_err(io(path)),
        None => Ok(()),
    };
    if jobs.is_empty() || decided {
        summary.seconds = seconds_before + began.elapsed().as_secs_f64();
        write_summary(&summary)?;
        return Ok(summary);
    }
    check_engines_start(config)?;
    let mut pgn_file: Option<File> = match &config.pgn {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(io(p))?,
        ),
        None => None,
    };
    let date = pgn::today();
    eprintln!(
        "match: {} engines, {} games{}, {} at once; {}; {} openings; rules {}",
        names.len(),
        summary.planned,
        if finished.is_empty() {
            String::new()
        } else {
            format!(" ({} played already)", finished.len())
        },
        config.concurrency,
        summary.limits,
        config.openings.len(),
        summary.variant
    );

    let stop = AtomicBool::new(false);
    // Why an engine could not be started: its later games are lost at once
    // rather than each waiting for the same failure.
    let broken: Mutex<Vec<Option<String>>> = Mutex::new(vec![None; names.len()]);
    let mut write_error = None;
    // A job taken once the match is decided or interrupted is not played
    // (`None`); the games in play are finished and counted.
    let play = |(): &mut (), i: usize| {
        let job = jobs[i];
        (!stop.load(Ordering::Relaxed) && !client::interrupted())
            .then(|| (job, play_job(job, config, &broken)))
    };
    let counted = run_jobs(
        jobs.len(),
        config.concurrency,
        || (),
        play,
        |_, played| {
            let Some((job, record)) = played else {
                return Ok(());
            };
            // A game ended by the interrupt is no result: its engines were
            // stopped (or, from a terminal, got the signal too).
            if client::interrupted() {
                return Ok(());
            }
            let red = &config.engines[job.red];
            let blue = &config.engines[job.blue];
            let limits = limits_text(&red.limits, &blue.limits);
            let rec = pgn_record(&record, [red, blue], config, &limits, &date);
            if let (Some(file), Some(path)) = (pgn_file.as_mut(), &config.pgn) {
                let written = file
                    .write_all(rec.to_string().as_bytes())
                    .and_then(|()| file.flush());
                if let Err(e) = written {
                    eprintln!(
                        "error: cannot write game {}: {}: {e}",
                        record.round,
                        path.display()
                    );
                    write_error.get_or_insert(io(path)(e));
                    pgn_file = None;
                }
            }
            report_fault(&record, job, &names);
            summary.count(GameSummary::of(&record, job, &names), job);
            if let Some((_, llr, state)) = summary.sprt.as_ref()
                && *state != SprtState::Continue
                && !stop.swap(true, Ordering::Relaxed)
            {
                eprintln!("SPRT: {state} (LLR {llr:.2}); finishing the games in play");
            }
            summary.seconds = seconds_before + began.elapsed().as_secs_f64();
            if write_error.is_none()
                && let Err(e) = write_summary(&summary)
            {
                eprintln!(
                    "error: cannot write the summary after game {}: {e}",
                    record.round
                );
                write_error = Some(e);
            }
            eprintln!("{}", summary.progress_line(&record, job));
            Ok::<(), std::convert::Infallible>(())
        },
    );
    let Ok(()) = counted;
    summary.seconds = seconds_before + began.elapsed().as_secs_f64();
    summary.interrupted = client::interrupted() && summary.games.len() < summary.planned;
    if write_error.is_none() {
        write_summary(&summary)?;
    }
    match write_error {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// Plays one scheduled game, or loses it at once for an engine known broken.
fn play_job(job: Job, config: &MatchConfig, broken: &Mutex<Vec<Option<String>>>) -> GameRecord {
    let known: [Option<String>; 2] = {
        let b = broken.lock().unwrap_or_else(PoisonError::into_inner);
        [b[job.red].clone(), b[job.blue].clone()]
    };
    let opening = &config.openings[job.opening];
    // The opening's moves, as a game that was played would record them.
    let opening_moves = opening
        .game(config.referee.rules)
        .map(|g| g.moves_played())
        .unwrap_or_default();
    let skipped = |termination| GameRecord {
        round: job.round,
        start_fen: opening.fen.clone(),
        moves: opening_moves.clone(),
        opening_plies: opening_moves.len(),
        termination,
        duration: std::time::Duration::ZERO,
    };
    let again = |why: &str| format!("not restarted after: {why}");
    match known {
        [Some(r), Some(b)] => {
            return skipped(Termination::BothFailedToStart {
                detail: format!("red: {}; blue: {}", again(&r), again(&b)),
            });
        }
        [Some(r), None] => {
            return skipped(Termination::StartFailure {
                side: crate::rules::Side::Red,
                detail: again(&r),
            });
        }
        [None, Some(b)] => {
            return skipped(Termination::StartFailure {
                side: crate::rules::Side::Blue,
                detail: again(&b),
            });
        }
        [None, None] => {}
    }
    let seats = [
        Seat {
            spec: &config.engines[job.red],
            limits: config.engines[job.red].limits,
        },
        Seat {
            spec: &config.engines[job.blue],
            limits: config.engines[job.blue].limits,
        },
    ];
    let record = game::play(
        job.round,
        &config.openings[job.opening],
        seats,
        &config.referee,
    );
    let mut b = broken.lock().unwrap_or_else(PoisonError::into_inner);
    match &record.termination {
        Termination::StartFailure { side, detail } => {
            let engine = [job.red, job.blue][side.index()];
            b[engine].get_or_insert_with(|| detail.clone());
        }
        Termination::BothFailedToStart { detail } => {
            b[job.red].get_or_insert_with(|| detail.clone());
            b[job.blue].get_or_insert_with(|| detail.clone());
        }
        _ => {}
    }
    record
}

/// Tells the user, on stderr, which engine misbehaved in which game.
fn report_fault(record: &GameRecord, job: Job, names: &[&str]) {
    let engine_of = |side: crate::rules::Side| names[[job.red, job.blue][side.index()]];
    let what = match &record.termination {
        Termination::TimeForfeit {
            used_ms,
            allowed_ms,
            reported_ms,
            ..
        } => {
            let own = reported_ms.map_or(String::new(), |r| format!("; its last info said {r} ms"));
            format!("lost on time ({used_ms} ms used of {allowed_ms} ms{own})")
        }
        Termination::IllegalMove { detail, .. } => format!("played an illegal move: {detail}"),
        Termination::Crash { detail, .. } => format!("crashed: {detail}"),
        Termination::NoAnswer { waited_ms, .. } => {
            format!("gave no move in {waited_ms} ms (hung?)")
        }
        Termination::StartFailure { detail, .. } => format!("failed to start: {detail}"),
        Termination::BothFailedToStart { detail } => {
            eprintln!(
                "game {}: neither '{}' nor '{}' started: {detail}",
                record.round, names[job.red], names[job.blue]
            );
            return;
        }
        _ => return,
    };
    if let Some(side) = record.termination.faulty() {
        eprintln!(
            "game {} ({} vs {}): engine '{}' ({side}) {what}; the game is lost, the match goes on",
            record.round,
            names[job.red],
            names[job.blue],
            engine_of(side)
        );
    }
}

/// An Elo value for tables: sign, one decimal, infinities spelled out.
fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{elo:+.1}")
    }
}

impl MatchSummary {
    /// A summary of no game yet of `planned` between `names`, in `pairs` (of
    /// indices into `names`); no SPRT, rules or limits.
    fn new(names: &[&str], pairs: &[(usize, usize)], planned: usize) -> MatchSummary {
        MatchSummary {
            planned,
            pairs: pairs
                .iter()
                .map(|&(a, b)| (names[a].to_string(), names[b].to_string(), Wdl::default()))
                .collect(),
            engines: names
                .iter()
                .map(|n| EngineTally {
                    name: n.to_string(),
                    ..EngineTally::default()
                })
                .collect(),
            sprt: None,
            games: Vec::new(),
            rules: String::new(),
            variant: String::new(),
            limits: String::new(),
            seconds: 0.0,
            interrupted: false,
        }
    }

    /// Counts a finished game, from its summary alone (as a resumed match
    /// counts the games of its record), and lists it; the SPRT looks again.
    fn count(&mut self, game: GameSummary, job: Job) {
        use crate::rules::Side;
        let winner = match game.result.as_str() {
            "1-0" => Some(Side::Red),
            "0-1" => Some(Side::Blue),
            _ => None,
        };
        let seat_engine = [job.red, job.blue];
        for side in [Side::Red, Side::Blue] {
            let t = &mut self.engines[seat_engine[side.index()]];
            match winner {
                Some(w) if w == side => t.wdl.wins += 1,
                Some(_) => t.wdl.losses += 1,
                None => t.wdl.draws += 1,
            }
        }
        let faulty: Vec<usize> = match &game.faulty {
            Some(name) if *name == game.red => vec![job.red],
            Some(_) => vec![job.blue],
            // Neither engine started: both are at fault, neither lost.
            None if game.reason == "start-failure" => vec![job.red, job.blue],
            None => vec![],
        };
        for engine in faulty {
            let t = &mut self.engines[engine];
            match game.reason.as_str() {
                "time-forfeit" => t.time_forfeits += 1,
                "illegal-move" => t.illegal_moves += 1,
                "crash" => t.crashes += 1,
                "no-answer" => t.no_answers += 1,
                _ => t.start_failures += 1,
            }
        }
        // The pair's results from its first engine's side.
        let first_is_red = game.red == self.pairs[job.pair].0;
        let first_side = if first_is_red { Side::Red } else { Side::Blue };
        let wdl = &mut self.pairs[job.pair].2;
        match winner {
            Some(w) if w == first_side => wdl.wins += 1,
            Some(_) => wdl.losses += 1,
            None => wdl.draws += 1,
        }
        if let Some((sprt, llr, state)) = self.sprt.as_mut() {
            let wdl = self.pairs[0].2;
            *llr = sprt.llr(&wdl);
            *state = sprt.state(&wdl);
        }
        self.games.push(game);
    }

    /// The progress line after a game: the game, then its pair's standing.
    fn progress_line(&self, record: &GameRecord, job: Job) -> String {
        let (a, b, wdl) = &self.pairs[job.pair];
        let g = self.games.last().expect("a game was just added");
        let mut line = format!(
            "[{}/{}] game {}: {} - {} {} ({}, {} plies) | {a} vs {b}: +{} ={} -{}",
            self.games.len(),
            self.planned,
            record.round,
            g.red,
            g.blue,
            record.termination.score_text(),
            record.termination.kind(),
            g.plies,
            wdl.wins,
            wdl.draws,
            wdl.losses
        );
        if let (Some(score), Some((elo, err))) = (wdl.score(), wdl.elo()) {
            let _ = write!(
                line,
                " {:.1}% Elo {} ± {}",
                100.0 * score,
                elo_text(elo),
                if err.is_finite() {
                    format!("{err:.1}")
                } else {
                    "inf".into()
                }
            );
        }
        if let Some((sprt, llr, _)) = &self.sprt {
            let (lo, hi) = sprt.bounds();
            let _ = write!(line, " LLR {llr:.2} [{lo:.2}, {hi:.2}]");
        }
        line
    }

    /// The final table: per pair W/D/L, score, Elo ± 95%, LOS; the SPRT; per
    /// engine its faults.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} of {} games played in {:.0} s; limits {}; rules {} ({})",
            self.games.len(),
            self.planned,
            self.seconds,
            self.limits,
            self.variant,
            self.rules
        );
        let _ = writeln!(
            s,
            "\n{:<30} {:>6} {:>5} {:>5} {:>5} {:>7} {:>8} {:>7} {:>7}",
            "Pair", "Games", "W", "D", "L", "Score", "Elo", "±95%", "LOS"
        );
        for (a, b, wdl) in &self.pairs {
            let pair = format!("{a} vs {b}");
            let score = wdl
                .score()
                .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x));
            let (elo, err) = wdl.elo().map_or(("-".into(), "-".into()), |(e, r)| {
                (
                    elo_text(e),
                    if r.is_finite() {
                        format!("{r:.1}")
                    } else {
                        "inf".into()
                    },
                )
            });
            let los = wdl
                .los()
                .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x));
            let _ = writeln!(
                s,
                "{pair:<30} {:>6} {:>5} {:>5} {:>5} {score:>7} {elo:>8} {err:>7} {los:>7}",
                wdl.games(),
                wdl.wins,
                wdl.draws,
                wdl.losses
            );
        }
        if let Some((sprt, llr, state)) = &self.sprt {
            let (lo, hi) = sprt.bounds();
            let _ = writeln!(
                s,
                "\nSPRT ({sprt}): LLR {llr:.2} [{lo:.2}, {hi:.2}]: {state}"
            );
        }
        let _ = writeln!(
            s,
            "\n{:<20} {:>6} {:>7} {:>13} {:>8} {:>8} {:>10} {:>15}",
            "Engine",
            "Games",
            "Points",
            "TimeForfeits",
            "Crashes",
            "Illegal",
            "NoAnswer",
            "StartFailures"
        );
        for e in &self.engines {
            let _ = writeln!(
                s,
                "{:<20} {:>6} {:>7.1} {:>13} {:>8} {:>8} {:>10} {:>15}",
                e.name,
                e.wdl.games(),
                e.wdl.points(),
                e.time_forfeits,
                e.crashes,
                e.illegal_moves,
                e.no_answers,
                e.start_failures
            );
        }
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for g in &self.games {
            let k = g.reason.as_str();
            match kinds.iter_mut().find(|(n, _)| *n == k) {
                Some(entry) => entry.1 += 1,
                None => kinds.push((k, 1)),
            }
        }
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "\nEndings: {}", kinds.join(", "));
        s
    }

    /// The summary as JSON: engines, pairs, SPRT, and every game's ending.
    pub fn json(&self) -> String {
        record::summary_json(self, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_swaps_colours_and_shares_openings() {
        let (pairs, jobs) = schedule(3, 4, 5);
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(jobs.len(), 12);
        let of_pair: Vec<&Job> = jobs.iter().filter(|j| j.pair == 1).collect();
        assert_eq!((of_pair[0].red, of_pair[0].blue), (0, 2));
        assert_eq!((of_pair[1].red, of_pair[1].blue), (2, 0));
        assert_eq!(of_pair[0].opening, of_pair[1].opening);
        assert_ne!(of_pair[1].opening, of_pair[2].opening);
        assert!(jobs.iter().enumerate().all(|(i, j)| j.round == i + 1));
    }

    #[test]
    fn a_game_counts_the_same_from_its_summary_read_back() {
        let (_, jobs) = schedule(2, 2, 1);
        let names = ["a", "b"];
        let record = GameRecord {
            round: 2,
            start_fen: crate::rules::START_FEN.into(),
            moves: vec![],
            opening_plies: 0,
            termination: Termination::Crash {
                side: crate::rules::Side::Red,
                detail: "exited \"badly\"".into(),
            },
            duration: std::time::Duration::from_millis(7),
        };
        let game = GameSummary::of(&record, jobs[1], &names);
        assert_eq!(game.faulty.as_deref(), Some("b"), "b is Red in game 2");
        let text = serde_json::to_string(&game).unwrap();
        let back: GameSummary = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game);
        let mut summary = MatchSummary::new(&names, &[(0, 1)], 2);
        summary.count(back, jobs[1]);
        assert_eq!(summary.engines[1].crashes, 1);
        assert_eq!(summary.engines[1].wdl.losses, 1);
        assert_eq!(summary.engines[0].wdl.wins, 1);
        assert_eq!(summary.pairs[0].2.wins, 1, "a, the pair's first, won");
    }
}
