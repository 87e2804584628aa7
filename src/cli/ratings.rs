//! `doushou ratings`: a rating list fitted to games from PGN files and match
//! records (the fit is `tools::ratings`).

use crate::cli::exit::{Failure, write_out};
use crate::tools::ratings::{self, RatingsError};
use crate::util::fs::TextFileError;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `doushou ratings`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  doushou ratings gauntlet.pgn round-robin.json --anchor full=2800"
)]
pub struct RatingsArgs {
    /// Game records: PGN (of `doushou match`, the GUI, or by hand: the players'
    /// tags and a result are enough) or `doushou match --json` records.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Fix one player's rating (the others follow); without it the ratings
    /// average 0.
    #[arg(long, value_name = "NAME=ELO", value_parser = anchor)]
    pub anchor: Option<(String, f64)>,
    /// Print `{"ratings": [{"name", "elo", "error", "games", "score"}, ...]}`
    /// instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Why an `--anchor` argument is refused.
#[derive(Debug, thiserror::Error)]
#[error("expected NAME=ELO with a finite number, e.g. full=2800")]
pub struct AnchorForm;

/// `NAME=ELO`: the name as written, the rating a finite number.
fn anchor(text: &str) -> Result<(String, f64), AnchorForm> {
    let (name, elo) = text.rsplit_once('=').ok_or(AnchorForm)?;
    let elo = super::args::finite(elo).map_err(|_| AnchorForm)?;
    if name.trim().is_empty() {
        return Err(AnchorForm);
    }
    Ok((name.trim().to_string(), elo))
}

/// Runs `doushou ratings`: the list on stdout.
pub fn run(args: &RatingsArgs) -> Result<(), Failure> {
    let mut games = Vec::new();
    for path in &args.files {
        // A file that cannot be opened is a mistyped command line (exit 2);
        // one whose games cannot be read is bad input (exit 1).
        match ratings::read_games(path) {
            Ok(mut more) => games.append(&mut more),
            Err(e @ RatingsError::File(TextFileError::Open { .. })) => {
                return Err(Failure::usage(e));
            }
            Err(e) => return Err(Failure::input(e)),
        }
    }
    if games.is_empty() {
        let names = args.files.iter().map(|p| p.display().to_string()).collect();
        return Err(Failure::input(RatingsError::NoGames(names)));
    }
    let anchor = args
        .anchor
        .as_ref()
        .map(|(name, elo)| (name.as_str(), *elo));
    let list = ratings::rate(&games, anchor).map_err(Failure::input)?;
    write_out(&if args.json { list.json() } else { list.table() })
}
