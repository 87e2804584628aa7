//! `doushou match`: engine-vs-engine games for any engine that speaks
//! protocol.md, refereed by the project's own rules code. The engines are
//! driven through [`crate::client`]; the command line is `cli::matches`.
//!
//! - [`config`]: the match, checked and ready to play.
//! - [`schedule`](mod@schedule): which games, in which order, with which
//!   colours; which of them a shard plays.
//! - [`game`]: one game, the referee's clocks and checks.
//! - [`openings`]: where games start; the built-in set.
//! - [`summary`]: the results, counted as games end; the final table.
//! - [`record`]: the JSON summary, rewritten whole after every game, that
//!   `--resume` continues a match from.
//! - [`merge`]: the records of a match's shards made one.
//! - [`stats`]: Elo, error bars, LOS, SPRT.
//!
//! This module plays the scheduled games on `--concurrency` worker threads,
//! and gathers results on the calling thread, which writes records, prints
//! progress and stops early when the SPRT decides (a whole match does; a
//! shard plays all its games, and the test decides over the merged shards).
//! A user's interrupt ([`crate::client::interrupt`]) ends the games in play
//! at once; only finished games are counted, so a resumed match plays those
//! again.

pub mod config;
pub mod game;
pub mod merge;
pub mod openings;
pub mod record;
pub mod schedule;
pub mod stats;
pub mod summary;

pub use config::{ConfigError, MatchConfig};
pub use merge::{MergeError, MergeOutput, merge_records};
pub use record::{MatchSettings, RecordError};
pub use summary::{EngineTally, GameSummary, MatchSummary, SprtRun};

use crate::client::{self, ClientError, EngineLimits, EngineSpec};
use crate::tools::pgn;
use crate::util::pool::run_jobs;
use game::{GameRecord, Seat, Termination};
use schedule::Job;
use stats::SprtState;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Why a match could not be played or recorded.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A record file could not be written, or repaired for `--resume`.
    #[error("{}: {error}", .path.display())]
    Io {
        /// Which file: the PGN, the JSON record or the one being resumed.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
    /// A record file named (`--pgn`, `--json`) cannot be created: found
    /// before any engine starts.
    #[error("cannot write {}: {error}", .path.display())]
    Unwritable {
        /// The file as named.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
    /// Engines that could not be started, or did not complete the handshake,
    /// before the first game: (name, command line, what went wrong).
    #[error("{}", not_started_text(.0))]
    EnginesDidNotStart(Vec<(String, String, ClientError)>),
    /// The record given to `--resume` could not be read back.
    #[error("--resume: {0}")]
    Resume(#[from] RecordError),
    /// The record given to `--resume` is not there.
    #[error("--resume {}: no such file", .0.display())]
    NoRecord(PathBuf),
    /// The match was interrupted (Ctrl-C) before its last game.
    #[error("interrupted after {played} of {planned} games{}", resume_hint(.record.as_deref()))]
    Interrupted {
        /// Games finished.
        played: usize,
        /// Games planned.
        planned: usize,
        /// The JSON record to resume from, if one was written.
        record: Option<PathBuf>,
    },
}

/// How to play the rest of an interrupted match.
fn resume_hint(record: Option<&Path>) -> String {
    match record {
        Some(path) => format!(
            "; to play the rest: doushou match --resume {}",
            path.display()
        ),
        None => " (give --json to be able to resume)".to_string(),
    }
}

/// The message of [`MatchError::EnginesDidNotStart`]: each engine with its
/// command and the timeout option that allows more, when it timed out.
fn not_started_text(failures: &[(String, String, ClientError)]) -> String {
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
    match failures {
        [one] => format!("{}; no game was played", each(one)),
        all => {
            let mut text = format!("{} engines did not start; no game was played", all.len());
            for x in all {
                text.push_str("\n  ");
                text.push_str(&each(x));
            }
            text
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

/// The `TimeControl` tag: the limits if both sides share them, else each side's.
fn limits_text(red: &EngineLimits, blue: &EngineLimits) -> String {
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
    let resumed = record::read(path)?;
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
    let (mut summary, jobs) = record::recount(config, done)?;
    summary.seconds = seconds_before;
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let played_before = summary.games.len();
    // A shard plays all its games: the SPRT decides over the merged shards.
    let decides = |run: &SprtRun| config.shard.is_none() && run.state != SprtState::Continue;
    let decided = summary.sprt.as_ref().is_some_and(decides);
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
    let unwritable = |path: &PathBuf| {
        let path = path.clone();
        move |error| MatchError::Unwritable { path, error }
    };
    // A record that cannot be written stops the match before its engines start.
    for path in config.pgn.iter().chain(&config.json) {
        crate::util::fs::check_writable(path).map_err(unwritable(path))?;
    }
    check_engines_start(config)?;
    let mut pgn_file: Option<File> = match &config.pgn {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(unwritable(p))?,
        ),
        None => None,
    };
    let date = pgn::today();
    eprintln!(
        "match: {} engines, {} games{}, {} at once; {}; {} openings; rules {}",
        names.len(),
        summary.planned,
        if played_before == 0 {
            String::new()
        } else {
            format!(" ({played_before} played already)")
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
            if let Some(run) = summary.sprt.as_ref()
                && decides(run)
                && !stop.swap(true, Ordering::Relaxed)
            {
                eprintln!(
                    "SPRT: {} (LLR {:.2}); finishing the games in play",
                    run.state, run.llr
                );
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
