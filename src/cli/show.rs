//! `doushou show`: a position drawn for people to look at, in the terminal
//! (in colour when it is one) or as an SVG picture with an optional arrow.
//!
//! Exit code: 0 when the position was drawn, 1 when it is invalid or cannot
//! be written, 2 for a usage error (bad arrow, unknown rules, an `--svg` file
//! that cannot be created).

use crate::cli::args::RulesArgs;
use crate::cli::exit::Failure;
use crate::tools::show::{ShowError, ShowRequest, show};
use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;

/// When the terminal board gets colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always (for pagers that understand ANSI colours).
    Always,
    /// Never: no colours, even on a terminal.
    Never,
}

/// Arguments of `doushou show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The position: `startpos` or a FEN (quoted, or its fields as separate
    /// words), optionally followed by `moves ...`; `-` reads it from the first
    /// line of standard input. Default: the start position.
    #[arg(value_name = "POSITION", num_args = 0..)]
    pub position: Vec<String>,
    /// Write an SVG picture of the position to FILE (`-`: standard output)
    /// instead of drawing it in the terminal.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With --svg: draw an arrow for this move, e.g. g3g4.
    #[arg(long, value_name = "MOVE", requires = "svg")]
    pub arrow: Option<String>,
    /// Colours in the terminal (not in an SVG picture).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, conflicts_with = "svg")]
    pub color: ColorChoice,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

impl From<ShowError> for Failure {
    fn from(e: ShowError) -> Failure {
        match e {
            ShowError::Arrow(_) | ShowError::Rules(_) | ShowError::SvgFile { .. } => {
                Failure::usage(e)
            }
            ShowError::Output(error) => Failure::Output(error),
            _ => Failure::input(e),
        }
    }
}

/// Runs `doushou show`: the board on stdout, or the picture to `--svg`.
pub fn run(args: &ShowArgs) -> Result<(), Failure> {
    let request = ShowRequest {
        rules: args.rules.rules().map_err(ShowError::Rules)?,
        position: args.position.clone(),
        svg: args.svg.clone(),
        arrow: args.arrow.clone(),
        color: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        },
    };
    Ok(show(&request)?)
}
