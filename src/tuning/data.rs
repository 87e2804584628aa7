//! Reading data files (the format of [`crate::tuning`]), shared by the Texel
//! tuner and the net trainer: one parser of a line, one walk over a file that
//! applies its `# rules:` and counts its `# done:` lines, and one rule for which
//! positions are held out for validation.

use crate::rules::{FenError, Position, Rules};
use crate::util::fs::{TextFileError, read_text};
use crate::util::options::OptionError;
use rayon::prelude::*;
use std::path::PathBuf;

/// Why data could not be read or tuned.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A data or weight file could not be read.
    #[error(transparent)]
    File(#[from] TextFileError),
    /// A file could not be written.
    #[error("{}: {error}", .path.display())]
    Io {
        /// The file, as named on the command line.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
    /// A line of a data file is not `<FEN> ; <result>` or a valid comment.
    #[error("{}:{line}: {error}", .path.display())]
    Parse {
        /// The data file, as named on the command line.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        #[source]
        error: DataLineError,
    },
    /// A weight table (`--start`) that is not one this build can use.
    #[error("{}: not a weight table: {fault}", .path.display())]
    BadWeights {
        /// The weight file given to `--start`.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        fault: WeightsFault,
    },
    /// Too few positions to fit anything.
    #[error("only {0} positions: too few to tune (need at least 20)")]
    NotEnoughData(usize),
    /// The weights could not be written where asked (checked before the fit).
    #[error("cannot write {}: {why}", .path.display())]
    Output {
        /// The `--out` file.
        path: PathBuf,
        /// Why it cannot be written there.
        #[source]
        why: Unwritable,
    },
}

/// What is wrong with a weight table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsFault {
    /// No `[ ... ]` list in it.
    #[error("no [ ... ] list of weights")]
    NoList,
    /// An entry of the list is not an integer.
    #[error("'{0}' is not a weight")]
    NotAWeight(String),
    /// The list is not as long as this build's feature table.
    #[error("{found} weights, expected {expected} (the table of this build's features)")]
    Count {
        /// Weights in the list.
        found: usize,
        /// Features of this build.
        expected: usize,
    },
}

/// What is wrong with one line of a data file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataLineError {
    /// Not two or three `;`-separated fields.
    #[error("expected '<FEN> ; <result> [; <score>]'")]
    Fields,
    /// The first field is not a position.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The result field is not 1, 0.5 or 0 (or a PGN result).
    #[error("result '{0}': expected 1, 0.5 or 0 (Red's view)")]
    Result(String),
    /// The score field is not a whole number of centipawns.
    #[error("score '{0}': expected centipawns (Red's view)")]
    Score(String),
    /// A `# rules:` line names rules this build does not know.
    #[error(transparent)]
    Rules(#[from] OptionError),
    /// A `# done:` line that does not say how many games the run played.
    #[error("'# done:' without games=N")]
    DoneWithoutGames,
    /// A line without the search score the trainer needs.
    #[error(
        "no search score: the trainer needs '<FEN> ; <result> ; <score>' (doushou selfplay writes it)"
    )]
    NoScore,
}

/// Why a file cannot be written where the tuner was told to write it.
#[derive(Debug, thiserror::Error)]
pub enum Unwritable {
    /// The path names a directory.
    #[error("it is a directory")]
    IsDirectory,
    /// The directory the file would go in does not exist.
    #[error("no directory {}", .0.display())]
    NoDirectory(PathBuf),
    /// Opening the file for writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// One position of a data file with its labels, both from Red's view.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// The position (its rules are those of the file's last `# rules:` line before it).
    pub position: Position,
    /// The game's result for Red: 1, 0.5 or 0.
    pub result: f64,
    /// The search's score in centipawns for Red, if the line has one.
    pub score: Option<i32>,
}

/// One line of a data file, parsed: `None` for comments and blank lines.
pub fn parse_line(line: &str) -> Result<Option<Labelled>, DataLineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split(';').map(str::trim).collect();
    let (fen, result, score) = match fields[..] {
        [fen, result] => (fen, result, None),
        [fen, result, score] => (fen, result, Some(score)),
        _ => return Err(DataLineError::Fields),
    };
    let position: Position = fen.parse()?;
    let result: f64 = match result {
        "1" | "1.0" | "1-0" => 1.0,
        "0" | "0.0" | "0-1" => 0.0,
        "0.5" | "1/2-1/2" => 0.5,
        other => return Err(DataLineError::Result(other.to_string())),
    };
    let score = score
        .map(|s| {
            s.parse::<i32>()
                .map_err(|_| DataLineError::Score(s.to_string()))
        })
        .transpose()?;
    Ok(Some(Labelled {
        position,
        result,
        score,
    }))
}

/// What the files' `# done:` lines say about the runs that wrote them.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    /// Self-play games, summed over the `# done` lines.
    pub games: usize,
    /// Each `# done` line's text after `# done:`, one per finished run.
    pub runs: Vec<String>,
}

/// Lines parsed at once by one rayon task.
const PARSE_CHUNK: usize = 4096;

/// Reads data files in order. The positions of each file are parsed in
/// parallel, a chunk of lines at a time, `add` turning each into an entry of
/// a `C` (with the rules in force at its line); `sink` then receives the chunks
/// in file order, so the positions arrive in the order they are written.
/// `add`'s error is reported with the file and line.
pub fn read_files<C: Default + Send>(
    paths: &[PathBuf],
    add: impl Fn(&mut C, Labelled, &Rules) -> Result<(), DataLineError> + Sync,
    mut sink: impl FnMut(C),
) -> Result<RunSummary, TuneError> {
    let mut summary = RunSummary::default();
    for path in paths {
        let text = read_text(path)?;
        let parse_error = |line: usize, error: DataLineError| TuneError::Parse {
            path: path.clone(),
            line,
            error,
        };
        // Rules apply from their line on; gather positions with theirs first.
        let mut rules = Rules::default();
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(settings) = line.trim().strip_prefix("# rules:") {
                rules = Rules::default();
                rules
                    .apply_settings(settings.split_whitespace())
                    .map_err(|e| parse_error(i + 1, e.into()))?;
            } else if let Some(done) = line.trim().strip_prefix("# done:") {
                let games = done
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("games="))
                    .and_then(|g| g.parse::<usize>().ok())
                    .ok_or_else(|| parse_error(i + 1, DataLineError::DoneWithoutGames))?;
                summary.games += games;
                summary.runs.push(done.trim().to_string());
            } else {
                lines.push((i + 1, line, rules));
            }
        }
        let chunks = lines
            .par_chunks(PARSE_CHUNK)
            .map(|chunk| {
                let mut entries = C::default();
                for &(n, line, rules) in chunk {
                    if let Some(labelled) = parse_line(line).map_err(|m| parse_error(n, m))? {
                        add(&mut entries, labelled, &rules).map_err(|m| parse_error(n, m))?;
                    }
                }
                Ok(entries)
            })
            .collect::<Result<Vec<C>, TuneError>>()?;
        chunks.into_iter().for_each(&mut sink);
    }
    Ok(summary)
}

/// A store of parsed positions that [`read_split`] fills.
pub trait Entries: Default + Send {
    /// How many positions the store holds (the split counts them).
    fn count(&self) -> usize;
    /// Adds position `i` of `other`.
    fn push_from(&mut self, other: &Self, i: usize);
}

/// How the positions were split between training and validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Blocks of this many consecutive positions are held out.
    HeldOut {
        /// Positions per held-out block: consecutive lines, so mostly whole games.
        block: usize,
    },
    /// Too few positions to hold any out ([`MIN_HELD_OUT`]): a validation
    /// error would say nothing about how the fit generalises.
    None,
}

/// Consecutive positions held out together: 256 lines is a few games, so the
/// held-out positions are mostly whole games, unlike any trained on. Smaller
/// sets get smaller blocks, so that ten of them still fit.
pub const BLOCK: usize = 256;

/// Below this many positions none are held out: a tenth of them would
/// measure nothing but noise, and would be missed by the fit.
pub const MIN_HELD_OUT: usize = 1000;

/// How `positions` positions are split.
pub fn split_for(positions: usize) -> Split {
    if positions < MIN_HELD_OUT {
        Split::None
    } else {
        Split::HeldOut {
            block: BLOCK.min(positions / 10),
        }
    }
}

/// The data lines (positions) of the files, counted without parsing them:
/// the split's block size depends on it.
fn count_positions(paths: &[PathBuf]) -> Result<usize, TuneError> {
    let mut count = 0;
    for path in paths {
        let text = read_text(path)?;
        count += text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .count();
    }
    Ok(count)
}

/// Reads data files as [`read_files`] does, holding out `fraction` of the
/// positions for validation in blocks (see [`split_for`], [`held_out`]):
/// answers the training positions, the held-out ones, the runs' summary and
/// the split used.
pub fn read_split<C: Entries>(
    paths: &[PathBuf],
    fraction: f64,
    add: impl Fn(&mut C, Labelled, &Rules) -> Result<(), DataLineError> + Sync,
) -> Result<(C, C, RunSummary, Split), TuneError> {
    let split = split_for(count_positions(paths)?);
    let (mut train, mut validation) = (C::default(), C::default());
    // Positions so far over all files: the held-out blocks follow this count.
    let mut position_number = 0usize;
    let summary = read_files(paths, add, |chunk: C| {
        for i in 0..chunk.count() {
            let set = match split {
                Split::HeldOut { block } if held_out(position_number, fraction, block) => {
                    &mut validation
                }
                _ => &mut train,
            };
            position_number += 1;
            set.push_from(&chunk, i);
        }
    })?;
    Ok((train, validation, summary, split))
}

/// Whether the `position_number`-th position of the data (counted over all
/// files from 0) is held out for validation, `fraction` of the data being held
/// out in whole blocks of `block` positions. With 0.1, the tenth block of
/// every ten.
pub fn held_out(position_number: usize, fraction: f64, block: usize) -> bool {
    // In thousandths, so that the choice is exact integer arithmetic.
    let per_mille = (fraction.clamp(0.0, 1.0) * 1000.0).round() as usize;
    let block = position_number / block.max(1);
    (block + 1) * per_mille / 1000 > block * per_mille / 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_lines_parse_or_say_why() {
        assert!(parse_line("# comment").unwrap().is_none());
        let fen = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";
        let l = parse_line(&format!("{fen} ; 0.5")).unwrap().unwrap();
        assert_eq!((l.result, l.score), (0.5, None));
        let l = parse_line(&format!("{fen} ; 1 ; -42")).unwrap().unwrap();
        assert_eq!((l.result, l.score), (1.0, Some(-42)));
        assert_eq!(parse_line(fen).unwrap_err(), DataLineError::Fields);
        assert_eq!(
            parse_line(&format!("{fen} ; 2")).unwrap_err(),
            DataLineError::Result("2".into())
        );
        assert_eq!(
            parse_line(&format!("{fen} ; 1 ; 3.5")).unwrap_err(),
            DataLineError::Score("3.5".into())
        );
        assert!(matches!(
            parse_line("7/7 w ; 1").unwrap_err(),
            DataLineError::Fen(FenError::RankCount { found: 2 })
        ));
        assert!(parse_line(&format!("{fen} ; 1 ; 3 ; 4")).is_err());
        assert!(parse_line("nonsense ; 1").is_err());
    }

    #[test]
    fn a_tenth_is_every_tenth_block() {
        let held: Vec<usize> = (0..30 * BLOCK)
            .filter(|&i| held_out(i, 0.1, BLOCK))
            .map(|i| i / BLOCK)
            .collect();
        let blocks: Vec<usize> = held.iter().step_by(BLOCK).copied().collect();
        assert_eq!(blocks, vec![9, 19, 29]);
        assert_eq!(held.len(), 3 * BLOCK);
        assert!(!(0..10 * BLOCK).any(|i| held_out(i, 0.0, BLOCK)));
        let quarter = (0..100 * BLOCK)
            .filter(|&i| held_out(i, 0.25, BLOCK))
            .count();
        assert_eq!(quarter, 25 * BLOCK);
    }

    #[test]
    fn small_sets_hold_nothing_out_and_larger_ones_a_tenth_in_blocks() {
        assert_eq!(split_for(999), Split::None);
        assert_eq!(split_for(1000), Split::HeldOut { block: 100 });
        assert_eq!(split_for(2560), Split::HeldOut { block: BLOCK });
        assert_eq!(split_for(1_000_000), Split::HeldOut { block: BLOCK });
    }

    #[test]
    fn a_file_that_cannot_be_read_keeps_its_io_error_and_a_bad_line_its_place() {
        let dir = std::env::temp_dir().join(format!("doushou-data-errors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let add = |n: &mut usize, _: Labelled, _: &Rules| -> Result<(), DataLineError> {
            *n += 1;
            Ok(())
        };
        let missing = dir.join("missing.txt");
        let error = read_files(std::slice::from_ref(&missing), add, |_: usize| {}).unwrap_err();
        let kind = std::error::Error::source(&error)
            .and_then(|e| e.downcast_ref::<std::io::Error>())
            .map(std::io::Error::kind);
        assert_eq!(kind, Some(std::io::ErrorKind::NotFound), "{error:?}");

        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "# rules: NoSuchRule=1\n").unwrap();
        let error = read_files(std::slice::from_ref(&bad), add, |_: usize| {}).unwrap_err();
        assert!(
            matches!(
                &error,
                TuneError::Parse {
                    line: 1,
                    error: DataLineError::Rules(_),
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            format!("{}:1: unknown option 'NoSuchRule'", bad.display())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
