//! `doushou match`: engine-vs-engine games for any engine that speaks
//! protocol.md, refereed by the project's own rules code.
//!
//! - [`config`]: engines, limits, time controls from the command line.
//! - [`client`]: one engine process and the runner's side of the protocol.
//! - [`game`]: one game, the referee's clocks and checks.
//! - [`openings`]: where games start; the built-in set.
//! - [`pgn`]: game records, written as each game ends and read back.
//! - [`stats`]: Elo, error bars, LOS, SPRT.
//!
//! This module schedules the games (each pair of engines plays every opening
//! twice, colours swapped; round robin with more than two engines) on
//! `--concurrency` worker threads, and gathers results on the calling thread,
//! which writes records, prints progress and stops early when the SPRT decides.

mod args;
pub mod client;
pub mod config;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod stats;

pub use args::{MatchArgs, run};

use client::ClientError;
use config::{EngineSpec, SearchLimits};
use game::{GameRecord, Referee, Seat, Termination};
use openings::Opening;
use stats::{Sprt, SprtState, Wdl};
use std::fmt::{self, Write as _};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

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
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Io { path, error } => write!(f, "{}: {error}", path.display()),
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

/// One game as the summary lists it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The game's number.
    pub round: usize,
    /// Red's engine.
    pub red: String,
    /// Blue's engine.
    pub blue: String,
    /// How it ended.
    pub termination: Termination,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// Plies of the opening.
    pub opening_plies: usize,
    /// Wall time, ms.
    pub duration_ms: u64,
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
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock alone: days
/// since 1970 to a civil date (H. Hinnant's `civil_from_days`).
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
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
    names: [&str; 2],
    config: &MatchConfig,
    limits: &str,
    date: &str,
) -> pgn::Record {
    let rules = config.referee.rules;
    // The seven tags every PGN reader expects first, in their order (White is
    // Red, who moves first), then this game's own; `SetUp` tells readers that
    // the game starts at the `FEN` tag's position.
    let tags = [
        ("Event", "doushou match".to_string()),
        ("Site", "?".to_string()),
        ("Date", date.to_string()),
        ("Round", game.round.to_string()),
        ("White", names[0].to_string()),
        ("Black", names[1].to_string()),
        ("Result", game.termination.score_text().to_string()),
        ("Red", names[0].to_string()),
        ("Blue", names[1].to_string()),
        ("Termination", game.termination.to_string()),
        (
            "Variant",
            rules.preset_name().unwrap_or("custom").to_string(),
        ),
        ("Rules", rules.to_string()),
        ("TimeControl", limits.to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", game.start_fen.clone()),
    ];
    pgn::Record {
        tags: tags.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        moves: game.moves.iter().map(ToString::to_string).collect(),
        result: game.termination.score_text().to_string(),
    }
}

/// Plays the match: progress on stderr, records as games end. Answers the
/// summary (also written as JSON if asked).
pub fn run_match(config: &MatchConfig) -> Result<MatchSummary, MatchError> {
    let began = Instant::now();
    check_engines_start(config)?;
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |error| MatchError::Io { path, error }
    };
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
    let (pairs, jobs) = schedule(
        config.engines.len(),
        config.games_per_pair,
        config.openings.len(),
    );
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let mut summary = MatchSummary {
        planned: jobs.len(),
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
        sprt: config.sprt.map(|s| (s, 0.0, SprtState::Continue)),
        games: Vec::new(),
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
        seconds: 0.0,
    };
    let date = today();
    eprintln!(
        "match: {} engines, {} games, {} at once; {}; {} openings; rules {}",
        names.len(),
        jobs.len(),
        config.concurrency,
        summary.limits,
        config.openings.len(),
        summary.variant
    );

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Why an engine could not be started: its later games are lost at once
    // rather than each waiting for the same failure.
    let broken: Mutex<Vec<Option<String>>> = Mutex::new(vec![None; names.len()]);
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<(Job, GameRecord)>();
        for _ in 0..config.concurrency.min(jobs.len()) {
            let tx = tx.clone();
            let (jobs, next, stop, broken) = (&jobs, &next, &stop, &broken);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let record = play_job(job, config, broken);
                    if tx.send((job, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (job, record) in rx {
            let red = &config.engines[job.red];
            let blue = &config.engines[job.blue];
            let limits = limits_text(&red.limits, &blue.limits);
            let rec = pgn_record(&record, [&red.name, &blue.name], config, &limits, &date);
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
            summary.add(&record, job, &names);
            if let Some((sprt, llr, state)) = summary.sprt.as_mut() {
                let wdl = summary.pairs[0].2;
                *llr = sprt.llr(&wdl);
                *state = sprt.state(&wdl);
                if *state != SprtState::Continue && !stop.swap(true, Ordering::Relaxed) {
                    eprintln!("SPRT: {state} (LLR {llr:.2}); finishing the games in play");
                }
            }
            eprintln!("{}", summary.progress_line(&record, job));
        }
    });
    summary.seconds = began.elapsed().as_secs_f64();
    if let Some(path) = &config.json {
        std::fs::write(path, summary.json()).map_err(io(path))?;
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
    /// Counts a finished game.
    fn add(&mut self, record: &GameRecord, job: Job, names: &[&str]) {
        use crate::rules::Side;
        let winner = record.termination.winner();
        let seat_engine = [job.red, job.blue];
        for side in [Side::Red, Side::Blue] {
            let t = &mut self.engines[seat_engine[side.index()]];
            match winner {
                Some(w) if w == side => t.wdl.wins += 1,
                Some(_) => t.wdl.losses += 1,
                None => t.wdl.draws += 1,
            }
        }
        let faulty = match &record.termination {
            Termination::BothFailedToStart { .. } => vec![Side::Red, Side::Blue],
            t => t.faulty().into_iter().collect(),
        };
        for side in faulty {
            let t = &mut self.engines[seat_engine[side.index()]];
            match &record.termination {
                Termination::TimeForfeit { .. } => t.time_forfeits += 1,
                Termination::IllegalMove { .. } => t.illegal_moves += 1,
                Termination::Crash { .. } => t.crashes += 1,
                Termination::NoAnswer { .. } => t.no_answers += 1,
                _ => t.start_failures += 1,
            }
        }
        // The pair's results from its first engine's side.
        let first_is_red = names[job.red] == self.pairs[job.pair].0;
        let first_side = if first_is_red { Side::Red } else { Side::Blue };
        let wdl = &mut self.pairs[job.pair].2;
        match winner {
            Some(w) if w == first_side => wdl.wins += 1,
            Some(_) => wdl.losses += 1,
            None => wdl.draws += 1,
        }
        self.games.push(GameSummary {
            round: record.round,
            red: names[job.red].to_string(),
            blue: names[job.blue].to_string(),
            termination: record.termination.clone(),
            plies: record.moves.len(),
            opening_plies: record.opening_plies,
            duration_ms: record.duration.as_millis() as u64,
        });
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
            let k = g.termination.kind();
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
        let num = |x: f64| {
            if x.is_finite() {
                format!("{x}")
            } else {
                "null".to_string()
            }
        };
        let opt = |x: Option<f64>| x.map_or("null".to_string(), num);
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"planned\": {},", self.planned);
        let _ = writeln!(s, "  \"played\": {},", self.games.len());
        let _ = writeln!(s, "  \"seconds\": {},", num(self.seconds));
        let _ = writeln!(s, "  \"variant\": {},", crate::json::string(&self.variant));
        let _ = writeln!(s, "  \"rules\": {},", crate::json::string(&self.rules));
        let _ = writeln!(s, "  \"limits\": {},", crate::json::string(&self.limits));
        s.push_str("  \"engines\": [\n");
        let engines: Vec<String> = self
            .engines
            .iter()
            .map(|e| {
                format!(
                    "    {{\"name\": {}, \"games\": {}, \"wins\": {}, \"draws\": {}, \"losses\": {}, \"points\": {}, \"time_forfeits\": {}, \"crashes\": {}, \"illegal_moves\": {}, \"no_answers\": {}, \"start_failures\": {}}}",
                    crate::json::string(&e.name),
                    e.wdl.games(),
                    e.wdl.wins,
                    e.wdl.draws,
                    e.wdl.losses,
                    num(e.wdl.points()),
                    e.time_forfeits,
                    e.crashes,
                    e.illegal_moves,
                    e.no_answers,
                    e.start_failures
                )
            })
            .collect();
        s.push_str(&engines.join(",\n"));
        s.push_str("\n  ],\n  \"pairs\": [\n");
        let pairs: Vec<String> = self
            .pairs
            .iter()
            .map(|(a, b, w)| {
                let (elo, err) = w.elo().map_or((None, None), |(e, r)| (Some(e), Some(r)));
                format!(
                    "    {{\"first\": {}, \"second\": {}, \"games\": {}, \"wins\": {}, \"draws\": {}, \"losses\": {}, \"score\": {}, \"elo\": {}, \"elo_error\": {}, \"los\": {}}}",
                    crate::json::string(a),
                    crate::json::string(b),
                    w.games(),
                    w.wins,
                    w.draws,
                    w.losses,
                    opt(w.score()),
                    opt(elo),
                    opt(err),
                    opt(w.los())
                )
            })
            .collect();
        s.push_str(&pairs.join(",\n"));
        s.push_str("\n  ],\n");
        match &self.sprt {
            Some((sprt, llr, state)) => {
                let (lo, hi) = sprt.bounds();
                let _ = writeln!(
                    s,
                    "  \"sprt\": {{\"elo0\": {}, \"elo1\": {}, \"alpha\": {}, \"beta\": {}, \"llr\": {}, \"lower\": {}, \"upper\": {}, \"state\": {}}},",
                    num(sprt.elo0),
                    num(sprt.elo1),
                    num(sprt.alpha),
                    num(sprt.beta),
                    num(*llr),
                    num(lo),
                    num(hi),
                    crate::json::string(&state.to_string())
                );
            }
            None => s.push_str("  \"sprt\": null,\n"),
        }
        s.push_str("  \"games\": [\n");
        let games: Vec<String> = self
            .games
            .iter()
            .map(|g| {
                let t = &g.termination;
                let faulty = t.faulty().map_or("null".to_string(), |side| {
                    crate::json::string(match side {
                        crate::rules::Side::Red => &g.red,
                        crate::rules::Side::Blue => &g.blue,
                    })
                });
                format!(
                    "    {{\"round\": {}, \"red\": {}, \"blue\": {}, \"result\": {}, \"reason\": {}, \"termination\": {}, \"faulty\": {faulty}, \"plies\": {}, \"opening_plies\": {}, \"duration_ms\": {}}}",
                    g.round,
                    crate::json::string(&g.red),
                    crate::json::string(&g.blue),
                    crate::json::string(t.score_text()),
                    crate::json::string(t.kind()),
                    crate::json::string(&t.to_string()),
                    g.plies,
                    g.opening_plies,
                    g.duration_ms
                )
            })
            .collect();
        s.push_str(&games.join(",\n"));
        s.push_str("\n  ]\n}\n");
        s
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
    fn json_strings_are_escaped() {
        assert_eq!(
            crate::json::string("a\"b\\c\n\u{1}é"),
            "\"a\\\"b\\\\c\\n\\u0001é\""
        );
    }

    #[test]
    fn the_date_looks_like_a_date() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.starts_with("20"), "{d}");
        assert_eq!(&d[4..5], ".");
    }
}
