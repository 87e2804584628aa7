//! `doushou match --merge`: the records of a match's shards (each played by
//! `--shard I/N`, maybe on another machine) made one record, with the summary
//! an unsharded run of those games has: the tallies are counted again from
//! the games, in round order, so the pairs' pentanomial counts and the SPRT
//! see the same game pairs. Records of another match, or a shard twice, are
//! refused before anything is written.

use super::record::{self, MatchSettings, RecordError, finished_records, recount};
use super::schedule::Shard;
use super::summary::MatchSummary;
use crate::util::fs::write_atomically;
use std::collections::HashSet;
use std::path::PathBuf;

/// Why records could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No record was given.
    #[error("no record to merge")]
    NoRecords,
    /// A record named on the command line is not there.
    #[error("--merge {}: no such file", .0.display())]
    NoFile(PathBuf),
    /// A record could not be read, or holds a game its shard does not play.
    #[error("{}: {error}", .path.display())]
    Record {
        /// The record, as given.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        error: RecordError,
    },
    /// A record of another match than the first record's.
    #[error("{} is not a shard of the match of {}: {what}", .path.display(), .first.display())]
    OtherMatch {
        /// The record refused.
        path: PathBuf,
        /// The first record given.
        first: PathBuf,
        /// What differs, its value first.
        what: String,
    },
    /// Two records of the same shard (or one record given twice).
    #[error("{} and {} are both {}: give each shard once", .first.display(), .path.display(), describe(*.shard))]
    SameShard {
        /// The part both records play, none for a whole match.
        shard: Option<Shard>,
        /// The record given first.
        first: PathBuf,
        /// The record given again.
        path: PathBuf,
    },
    /// `--pgn` asked for, but a shard wrote no game records.
    #[error("{}: the shard wrote no PGN file (it ran without --pgn), so --pgn cannot merge its games", .0.display())]
    NoPgn(PathBuf),
    /// A shard's PGN file could not be read.
    #[error("{}: {error}", .path.display())]
    ReadPgn {
        /// The PGN file the record names.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
    /// A game of a record is not (whole) in its PGN file.
    #[error("{}: game {round} of {} is not in it", .pgn.display(), .record.display())]
    MissingGame {
        /// The PGN file the record names.
        pgn: PathBuf,
        /// The record.
        record: PathBuf,
        /// The game's round.
        round: usize,
    },
    /// The merged record or PGN could not be written.
    #[error("{}: {error}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
}

/// A part of a match in words: `shard I/N`, or `a whole match`.
fn describe(shard: Option<Shard>) -> String {
    shard.map_or("a whole match".to_string(), |s| format!("shard {s}"))
}

/// Where the merged record goes.
#[derive(Clone, Debug, Default)]
pub struct MergeOutput {
    /// The merged JSON record, which `--resume` plays the missing shards of.
    pub json: Option<PathBuf>,
    /// All shards' game records, by round.
    pub pgn: Option<PathBuf>,
}

/// Merges the records at `paths` (shards of one match) into one: answers its
/// summary, after writing the merged record and PGN if `out` asks.
pub fn merge_records(paths: &[PathBuf], out: &MergeOutput) -> Result<MatchSummary, MergeError> {
    let mut shards: Vec<(PathBuf, record::Resumed, MatchSettings)> = Vec::new();
    for path in paths {
        let failed = |error| MergeError::Record {
            path: path.clone(),
            error,
        };
        let resumed = record::read(path).map_err(failed)?;
        recount(&resumed.config, resumed.games.clone()).map_err(failed)?;
        let settings = MatchSettings::of(&resumed.config);
        if let Some((first, _, first_settings)) = shards.first() {
            if let Some(what) = settings.difference(first_settings) {
                return Err(MergeError::OtherMatch {
                    path: path.clone(),
                    first: first.clone(),
                    what,
                });
            }
            if let Some((earlier, _, _)) = shards
                .iter()
                .find(|(_, r, _)| r.config.shard == resumed.config.shard)
            {
                return Err(MergeError::SameShard {
                    shard: resumed.config.shard,
                    first: earlier.clone(),
                    path: path.clone(),
                });
            }
        }
        shards.push((path.clone(), resumed, settings));
    }
    let Some((_, first, _)) = shards.first() else {
        return Err(MergeError::NoRecords);
    };
    let mut config = first.config.clone();
    config.shard = None;
    config.json = out.json.clone();
    config.pgn = out.pgn.clone();
    let mut games: Vec<_> = shards
        .iter()
        .flat_map(|(_, r, _)| r.games.clone())
        .collect();
    games.sort_by_key(|g| g.round);
    let (mut summary, _) = recount(&config, games).map_err(|error| MergeError::Record {
        path: shards[0].0.clone(),
        error,
    })?;
    summary.seconds = shards.iter().map(|(_, r, _)| r.seconds).sum();
    summary.part = Some(part_text(
        &shards
            .iter()
            .map(|(_, r, _)| r.config.shard)
            .collect::<Vec<_>>(),
    ));
    if let Some(path) = &out.pgn {
        let text = merged_pgn(&shards)?;
        write_atomically(path, text.as_bytes()).map_err(|error| MergeError::Write {
            path: path.clone(),
            error,
        })?;
    }
    if let Some(path) = &out.json {
        let text = record::summary_json(&summary, Some(&MatchSettings::of(&config)));
        write_atomically(path, text.as_bytes()).map_err(|error| MergeError::Write {
            path: path.clone(),
            error,
        })?;
    }
    Ok(summary)
}

/// The table's words for the shards merged, and the missing ones if any.
fn part_text(shards: &[Option<Shard>]) -> String {
    let mut given: Vec<Shard> = shards.iter().flatten().copied().collect();
    given.sort_by_key(|s| s.index);
    let Some(count) = given.first().map(|s| s.count) else {
        return "merged from 1 whole match".to_string();
    };
    let missing: Vec<usize> = (0..count)
        .filter(|i| !given.iter().any(|s| s.index == *i))
        .collect();
    // Runs of missing shards as `a to b`: a partial merge of many batches
    // misses long runs of them.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in missing {
        match runs.last_mut() {
            Some(run) if run.1 + 1 == i => run.1 = i,
            _ => runs.push((i, i)),
        }
    }
    let runs: Vec<String> = runs
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a} to {b}")
            }
        })
        .collect();
    let mut text = format!("merged from {} of {count} shards", given.len());
    if !runs.is_empty() {
        text.push_str(&format!("; missing {}", runs.join(", ")));
    }
    text
}

/// Every shard's game records, by round: those of its record's games only
/// (a record cut short by a kill is not a game).
fn merged_pgn(shards: &[(PathBuf, record::Resumed, MatchSettings)]) -> Result<String, MergeError> {
    let mut all: Vec<(usize, String)> = Vec::new();
    for (path, resumed, settings) in shards {
        let pgn = settings
            .pgn()
            .ok_or_else(|| MergeError::NoPgn(path.clone()))?;
        let text = std::fs::read_to_string(pgn).map_err(|error| MergeError::ReadPgn {
            path: pgn.to_path_buf(),
            error,
        })?;
        let rounds: HashSet<usize> = resumed.games.iter().map(|g| g.round).collect();
        let found = finished_records(&text, &rounds);
        if let Some(round) = rounds
            .iter()
            .copied()
            .filter(|r| !found.iter().any(|(f, _)| f == r))
            .min()
        {
            return Err(MergeError::MissingGame {
                pgn: pgn.to_path_buf(),
                record: path.clone(),
                round,
            });
        }
        all.extend(found.into_iter().map(|(r, chunk)| (r, chunk.to_string())));
    }
    all.sort_by_key(|(round, _)| *round);
    Ok(all.into_iter().map(|(_, chunk)| chunk).collect())
}
