//! `doushou show`: a position drawn for people to look at, in the terminal
//! (in colour when it is one) or as an SVG picture with an optional arrow.
//!
//! Exit code: 0 when the position was drawn, 1 when it is invalid or cannot
//! be written, 2 for a usage error (bad arrow, unknown rules).

use crate::cli::args::RulesArgs;
use crate::cli::exit::Failure;
use crate::rules::Move;
use crate::tools::pgn::read::{self as input, InputError};
use crate::tools::show::{board_svg, board_text};
use crate::util::options::OptionError;
use clap::{Args, ValueEnum};
use std::io::{IsTerminal, Read, Write};
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

/// Why `show` drew nothing.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    /// The position (or a move after it) is invalid: exit code 1.
    #[error(transparent)]
    Position(InputError),
    /// Standard input held no position: exit code 1.
    #[error("no position on standard input")]
    NoInput,
    /// `--arrow` is not a legal move of the position shown: exit code 2.
    #[error("--arrow {0}: not a legal move of the position (a move like g3g4)")]
    Arrow(String),
    /// `--variant`/`--set` named unknown rules: exit code 2.
    #[error("rules: {0}")]
    Rules(#[source] OptionError),
    /// Reading standard input failed: exit code 1.
    #[error("reading standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// The picture's file named by `--svg` cannot be created: exit code 2, like any
    /// file named on the command line that cannot be opened or created.
    #[error("writing {path}: {source}")]
    SvgFile {
        /// The file `--svg` named.
        path: String,
        /// Why it could not be written.
        #[source]
        source: std::io::Error,
    },
    /// Writing standard output failed: exit code 1, quietly for a closed pipe.
    #[error("cannot write the output: {0}")]
    Output(#[source] std::io::Error),
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
    show(args).map_err(Failure::from)
}

fn show(args: &ShowArgs) -> Result<(), ShowError> {
    let rules = args.rules.rules().map_err(ShowError::Rules)?;
    let text = match args.position.as_slice() {
        [] => "startpos".to_string(),
        [dash] if dash == "-" => read_stdin_position()?,
        words => words.join(" "),
    };
    let game = input::parse_position_line(&text)
        .and_then(|spec| spec.game(rules))
        .map_err(ShowError::Position)?;
    // An arrow shows a move that can be played: one that cannot would
    // mislead whoever looks at the picture.
    let arrow = match &args.arrow {
        Some(a) => match a.parse::<Move>() {
            Ok(m) if game.outcome().is_none() && game.legal_moves().contains(&m) => Some(m),
            _ => return Err(ShowError::Arrow(a.clone())),
        },
        None => None,
    };
    match &args.svg {
        Some(path) => {
            let svg = board_svg(&game, arrow);
            if path.as_os_str() == "-" {
                let mut out = std::io::stdout().lock();
                out.write_all(svg.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(ShowError::Output)
            } else {
                std::fs::write(path, svg).map_err(|source| ShowError::SvgFile {
                    path: path.display().to_string(),
                    source,
                })
            }
        }
        None => {
            let color = match args.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => {
                    std::io::stdout().is_terminal()
                        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                }
            };
            let mut out = std::io::stdout().lock();
            out.write_all(board_text(&game, color).as_bytes())
                .and_then(|()| out.flush())
                .map_err(ShowError::Output)
        }
    }
}

/// The first line of standard input that holds something.
fn read_stdin_position() -> Result<String, ShowError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(ShowError::Stdin)?;
    String::from_utf8_lossy(&bytes)
        .lines()
        .find(|l| !input::is_skipped(l))
        .map(str::to_string)
        .ok_or(ShowError::NoInput)
}
