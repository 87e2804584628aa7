//! The match record on disk: the JSON summary (rewritten after every game,
//! through a temporary file and a rename, so that a runner killed at any
//! moment leaves the last complete summary), holding the match's settings so
//! that `--resume` can play the rest and `--merge` can check that shards are
//! of one match; the tallies counted again from a record's games; and the
//! finished games' records of a PGN file, which a resumed match keeps before
//! it appends to it.

use super::config::MatchConfig;
use super::game::Referee;
use super::openings::{Opening, OpeningError};
use super::schedule::{Job, Shard, schedule};
use super::stats::Sprt;
use super::summary::{GameSummary, MatchSummary};
use crate::client::EngineSpec;
use crate::rules::Rules;
use crate::tools::pgn;
use crate::util::options::OptionError;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a match record cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The record could not be read.
    #[error("{}: {error}", .path.display())]
    Read {
        /// The record's file, as given to `--resume`.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
    /// The file is not JSON written by `doushou match --json`, or is cut short.
    #[error(
        "{}: not a match record that can be resumed (written by `doushou match --json`): {error}",
        .path.display()
    )]
    NotARecord {
        /// The record's file, as given to `--resume`.
        path: PathBuf,
        /// Where the JSON reader gave up.
        #[source]
        error: serde_json::Error,
    },
    /// The record's rules are not rules this build knows.
    #[error("the rules of the record: {0}")]
    Rules(#[source] OptionError),
    /// Fewer than two engines, no opening or no games: nothing to resume.
    #[error("the record's settings name no match to play")]
    NoMatch,
    /// An opening of the record is not valid under its rules.
    #[error("opening {number} of the record: {error}")]
    Opening {
        /// The opening's number in the record, from 1.
        number: usize,
        /// What is wrong with it.
        #[source]
        error: OpeningError,
    },
    /// A finished game of the record is not one the settings schedule (its
    /// round or its engines differ, or its round is another shard's): the
    /// record was edited or mixed up.
    #[error("game {round} ({red} vs {blue}) is not a game of this match")]
    ForeignGame {
        /// The game's round, as recorded.
        round: usize,
        /// The engine recorded as Red.
        red: String,
        /// The engine recorded as Blue.
        blue: String,
    },
    /// The record lists a round twice.
    #[error("game {0} is in the record twice")]
    TwiceGame(usize),
}

/// Everything a resumed match needs to play the same games as the first run:
/// [`MatchConfig`] in a form that reads back. The openings are kept as played
/// (not as a file name or seed), so a changed openings file cannot change them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchSettings {
    engines: Vec<EngineSpec>,
    /// The rules as `Name=Value` words.
    rules: String,
    rule_settings: Vec<(String, String)>,
    margin_ms: u64,
    start_timeout_ms: u64,
    hang_timeout_ms: u64,
    max_plies: Option<usize>,
    openings: Vec<Opening>,
    games_per_pair: usize,
    concurrency: usize,
    sprt: Option<Sprt>,
    pgn: Option<PathBuf>,
    /// Absent from the records of whole matches, and of runners before shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
}

impl MatchSettings {
    /// The settings of `config`.
    pub fn of(config: &MatchConfig) -> MatchSettings {
        let referee = &config.referee;
        MatchSettings {
            engines: config.engines.clone(),
            rules: referee.rules.to_string(),
            rule_settings: referee.rule_settings.clone(),
            margin_ms: referee.margin_ms,
            start_timeout_ms: referee.start_timeout.as_millis() as u64,
            hang_timeout_ms: referee.hang_timeout.as_millis() as u64,
            max_plies: referee.max_plies,
            openings: config.openings.clone(),
            games_per_pair: config.games_per_pair,
            concurrency: config.concurrency,
            sprt: config.sprt,
            pgn: config.pgn.clone(),
            shard: config.shard,
        }
    }

    /// How these settings make another match than `other`'s, in words
    /// (`what: mine, not theirs`); none when both are of one match, whatever
    /// their shard, PGN file, concurrency and timeouts.
    pub fn difference(&self, other: &MatchSettings) -> Option<String> {
        let differ = |what: &str, mine: String, theirs: String| {
            (mine != theirs).then(|| format!("{what}: {mine}, not {theirs}"))
        };
        let shards = |s: &MatchSettings| s.shard.map_or(1, |shard| shard.count).to_string();
        let names = |s: &MatchSettings| {
            let names: Vec<&str> = s.engines.iter().map(|e| e.name.as_str()).collect();
            names.join(", ")
        };
        let found = differ("shards", shards(self), shards(other))
            .or_else(|| differ("engines", names(self), names(other)));
        if found.is_some() {
            return found;
        }
        for (mine, theirs) in self.engines.iter().zip(&other.engines) {
            let what = |field: &str| format!("engine '{}' {field}", mine.name);
            let options = |e: &EngineSpec| {
                let words: Vec<String> =
                    e.options.iter().map(|(n, v)| format!("{n}={v}")).collect();
                format!("[{}]", words.join(" "))
            };
            let found = differ(
                &what("limits"),
                mine.limits.to_string(),
                theirs.limits.to_string(),
            )
            .or_else(|| differ(&what("options"), options(mine), options(theirs)))
            .or_else(|| differ(&what("command"), mine.command_line(), theirs.command_line()));
            if found.is_some() {
                return found;
            }
        }
        // The rule words one has and the other has not.
        let own_rules = |a: &MatchSettings, b: &MatchSettings| {
            let theirs: Vec<&str> = b.rules.split_whitespace().collect();
            let words: Vec<&str> = a
                .rules
                .split_whitespace()
                .filter(|w| !theirs.contains(w))
                .collect();
            words.join(" ")
        };
        let opening = |s: &MatchSettings, i: usize| {
            s.openings
                .get(i)
                .map_or("none".to_string(), ToString::to_string)
        };
        let first_other_opening = (0..self.openings.len().max(other.openings.len()))
            .find(|&i| self.openings.get(i) != other.openings.get(i));
        let optional = |n: Option<usize>| n.map_or("none".to_string(), |n| n.to_string());
        let sprt = |s: &MatchSettings| s.sprt.map_or("none".to_string(), |t| t.to_string());
        differ("rules", own_rules(self, other), own_rules(other, self))
            .or_else(|| {
                let i = first_other_opening?;
                differ(
                    &format!("opening {}", i + 1),
                    opening(self, i),
                    opening(other, i),
                )
            })
            .or_else(|| {
                differ(
                    "games a pair",
                    self.games_per_pair.to_string(),
                    other.games_per_pair.to_string(),
                )
            })
            .or_else(|| {
                differ(
                    "max plies",
                    optional(self.max_plies),
                    optional(other.max_plies),
                )
            })
            .or_else(|| {
                differ(
                    "time margin",
                    format!("{} ms", self.margin_ms),
                    format!("{} ms", other.margin_ms),
                )
            })
            .or_else(|| differ("SPRT", sprt(self), sprt(other)))
    }

    /// The part of the match these settings play, if only one.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// The PGN file the games were appended to, if any.
    pub fn pgn(&self) -> Option<&Path> {
        self.pgn.as_deref()
    }

    /// The match again, its summary going to `json`.
    fn config(self, json: &Path) -> Result<MatchConfig, RecordError> {
        let mut rules = Rules::default();
        rules
            .apply_settings(self.rules.split_whitespace())
            .map_err(RecordError::Rules)?;
        if self.engines.len() < 2 || self.openings.is_empty() || self.games_per_pair == 0 {
            return Err(RecordError::NoMatch);
        }
        for (i, opening) in self.openings.iter().enumerate() {
            opening.game(rules).map_err(|error| RecordError::Opening {
                number: i + 1,
                error,
            })?;
        }
        Ok(MatchConfig {
            engines: self.engines,
            referee: Referee {
                rules,
                rule_settings: self.rule_settings,
                margin_ms: self.margin_ms,
                start_timeout: Duration::from_millis(self.start_timeout_ms.max(1)),
                hang_timeout: Duration::from_millis(self.hang_timeout_ms.max(1)),
                max_plies: self.max_plies,
            },
            openings: self.openings,
            games_per_pair: self.games_per_pair,
            concurrency: self.concurrency.max(1),
            sprt: self.sprt,
            pgn: self.pgn,
            json: Some(json.to_path_buf()),
            shard: self.shard,
        })
    }
}

/// One engine's line of the summary.
#[derive(Serialize)]
struct EngineJson<'a> {
    name: &'a str,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    points: f64,
    time_forfeits: u32,
    crashes: u32,
    illegal_moves: u32,
    no_answers: u32,
    start_failures: u32,
}

/// One pair's line of the summary, from the first engine's side.
#[derive(Serialize)]
struct PairJson<'a> {
    first: &'a str,
    second: &'a str,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    elo: Option<f64>,
    elo_error: Option<f64>,
    los: Option<f64>,
    /// Finished game pairs (an opening, both colours) by the first engine's
    /// points: 0, ½, 1, 1½, 2.
    pentanomial: [u32; 5],
}

/// The SPRT's line of the summary.
#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    /// Finished game pairs by the first engine's points: 0, ½, 1, 1½, 2.
    pairs: [u32; 5],
    lower: f64,
    upper: f64,
    state: String,
}

/// The summary as written. Non-finite numbers (an Elo of a match won or lost
/// outright) are written as `null`.
#[derive(Serialize)]
struct SummaryJson<'a> {
    planned: usize,
    played: usize,
    /// Whether the user stopped the match before it was over.
    interrupted: bool,
    seconds: f64,
    variant: &'a str,
    rules: &'a str,
    limits: &'a str,
    engines: Vec<EngineJson<'a>>,
    pairs: Vec<PairJson<'a>>,
    sprt: Option<SprtJson>,
    games: &'a [GameSummary],
    /// Absent when the summary is printed for itself rather than as a record.
    #[serde(skip_serializing_if = "Option::is_none")]
    settings: Option<&'a MatchSettings>,
}

/// The summary's JSON, with the settings that make it a record `--resume` reads.
pub fn summary_json(summary: &MatchSummary, settings: Option<&MatchSettings>) -> String {
    let finite = |x: f64| Some(x).filter(|x| x.is_finite());
    let json = SummaryJson {
        planned: summary.planned,
        played: summary.games.len(),
        interrupted: summary.interrupted,
        seconds: summary.seconds,
        variant: &summary.variant,
        rules: &summary.rules,
        limits: &summary.limits,
        engines: summary
            .engines
            .iter()
            .map(|e| EngineJson {
                name: &e.name,
                games: e.wdl.games(),
                wins: e.wdl.wins,
                draws: e.wdl.draws,
                losses: e.wdl.losses,
                points: e.wdl.points(),
                time_forfeits: e.time_forfeits,
                crashes: e.crashes,
                illegal_moves: e.illegal_moves,
                no_answers: e.no_answers,
                start_failures: e.start_failures,
            })
            .collect(),
        pairs: summary
            .pairs
            .iter()
            .map(|pair| {
                let w = &pair.wdl;
                let (elo, err) = w.elo().map_or((None, None), |(e, r)| (Some(e), Some(r)));
                PairJson {
                    first: &pair.first,
                    second: &pair.second,
                    games: w.games(),
                    wins: w.wins,
                    draws: w.draws,
                    losses: w.losses,
                    score: w.score().and_then(finite),
                    elo: elo.and_then(finite),
                    elo_error: err.and_then(finite),
                    los: w.los().and_then(finite),
                    pentanomial: pair.pentanomial.counts,
                }
            })
            .collect(),
        sprt: summary.sprt.as_ref().map(|run| {
            let (lower, upper) = run.test.bounds();
            SprtJson {
                elo0: run.test.elo0,
                elo1: run.test.elo1,
                alpha: run.test.alpha,
                beta: run.test.beta,
                llr: run.llr,
                pairs: summary.pairs[0].pentanomial.counts,
                lower,
                upper,
                state: run.state.to_string(),
            }
        }),
        games: &summary.games,
        settings,
    };
    let mut text = serde_json::to_string_pretty(&json).expect("the summary serialises");
    text.push('\n');
    text
}

use crate::util::fs::write_atomically;

/// What a record holds for `--resume`: only these fields are read back; the
/// tallies are counted again from the games.
#[derive(Deserialize)]
struct RecordFile {
    settings: MatchSettings,
    games: Vec<GameSummary>,
    #[serde(default)]
    seconds: Option<f64>,
}

/// An interrupted match read back: its settings, its finished games and the
/// wall time it had taken.
pub struct Resumed {
    /// The match, its summary going back to the record.
    pub config: MatchConfig,
    /// The games finished before the interruption.
    pub games: Vec<GameSummary>,
    /// The wall time of the earlier runs, seconds.
    pub seconds: f64,
}

/// Reads the record at `path` for `--resume`.
pub fn read(path: &Path) -> Result<Resumed, RecordError> {
    let text = std::fs::read_to_string(path).map_err(|error| RecordError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let record: RecordFile =
        serde_json::from_str(&text).map_err(|error| RecordError::NotARecord {
            path: path.to_path_buf(),
            error,
        })?;
    let config = record.settings.config(path)?;
    Ok(Resumed {
        config,
        games: record.games,
        seconds: record.seconds.filter(|s| s.is_finite()).unwrap_or(0.0),
    })
}

/// The summary of the match `config` after its finished `games` (each checked
/// to be a game the match schedules, once), and the jobs still to play.
pub fn recount(
    config: &MatchConfig,
    games: Vec<GameSummary>,
) -> Result<(MatchSummary, Vec<Job>), RecordError> {
    let (pairs, jobs) = schedule(
        config.engines.len(),
        config.games_per_pair,
        config.openings.len(),
        config.shard,
    );
    let mut summary = MatchSummary::start(config, &pairs, jobs.len());
    let mut finished = HashSet::new();
    for game in games {
        let name = |i: usize| config.engines[i].name.as_str();
        let job = jobs
            .iter()
            .find(|job| job.round == game.round)
            .filter(|job| name(job.red) == game.red && name(job.blue) == game.blue)
            .copied()
            .ok_or_else(|| RecordError::ForeignGame {
                round: game.round,
                red: game.red.clone(),
                blue: game.blue.clone(),
            })?;
        if !finished.insert(game.round) {
            return Err(RecordError::TwiceGame(game.round));
        }
        summary.count(game, job);
    }
    let left = jobs
        .into_iter()
        .filter(|j| !finished.contains(&j.round))
        .collect();
    Ok((summary, left))
}

/// The records of `rounds` in the PGN text, by round: whole records only (a
/// runner killed in the middle of one leaves it cut), each round's first.
pub fn finished_records<'a>(text: &'a str, rounds: &HashSet<usize>) -> Vec<(usize, &'a str)> {
    let mut found: Vec<(usize, &str)> = Vec::new();
    for chunk in record_chunks(text) {
        let round = pgn::parse(chunk)
            .ok()
            .and_then(|records| match &records[..] {
                [record] => record.tag("Round").and_then(|r| r.parse().ok()),
                _ => None,
            });
        if let Some(round) = round.filter(|r| rounds.contains(r))
            && !found.iter().any(|(r, _)| *r == round)
        {
            found.push((round, chunk));
        }
    }
    found
}

/// Keeps in the PGN file at `path` only the records of `rounds`: a runner
/// killed between writing a game's record and the summary, or in the middle
/// of a record, must not leave that game twice (or half of it) once the
/// resumed match plays it again. A missing file is left missing.
pub fn repair_pgn(path: &Path, rounds: &HashSet<usize>) -> std::io::Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let kept: String = finished_records(&text, rounds)
        .into_iter()
        .map(|(_, chunk)| chunk)
        .collect();
    if kept != text {
        write_atomically(path, kept.as_bytes())?;
    }
    Ok(())
}

/// The text of each record of a PGN file: a record starts at a tag line that
/// follows a line that is not a tag.
fn record_chunks(text: &str) -> Vec<&str> {
    let mut starts = vec![0];
    let mut offset = 0;
    let mut in_tags = false;
    for line in text.split_inclusive('\n') {
        let is_tag = line.trim_start().starts_with('[');
        if is_tag && !in_tags && offset > 0 {
            starts.push(offset);
        }
        if !line.trim().is_empty() {
            in_tags = is_tag;
        }
        offset += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_records_of_finished_rounds_are_kept() {
        let record = |round: usize| {
            pgn::Record {
                tags: vec![("Round".into(), round.to_string())],
                moves: vec!["g3g4".into()],
                comments: Vec::new(),
                result: "1-0".into(),
            }
            .to_string()
        };
        let (one, two, three) = (record(1), record(2), record(3));
        let cut = &three[..three.len() - 8];
        let dir = std::env::temp_dir().join(format!("doushou-repair-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        std::fs::write(&path, format!("{one}{two}{cut}")).unwrap();
        repair_pgn(&path, &HashSet::from([1, 3])).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), one);
        repair_pgn(&dir.join("missing.pgn"), &HashSet::new()).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_that_cannot_be_resumed_says_why() {
        let dir =
            std::env::temp_dir().join(format!("doushou-record-errors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.json");
        match read(&missing) {
            Err(RecordError::Read { path, error }) => {
                assert_eq!(path, missing);
                assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        let cut = dir.join("cut.json");
        std::fs::write(&cut, "{\"settings\": ").unwrap();
        let error = read(&cut).map(|_| ()).unwrap_err();
        assert!(matches!(error, RecordError::NotARecord { .. }), "{error:?}");
        assert!(
            std::error::Error::source(&error).is_some_and(|e| e.is::<serde_json::Error>()),
            "{error:?}"
        );
        assert!(error.to_string().starts_with(&format!(
            "{}: not a match record that can be resumed",
            cut.display()
        )));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
