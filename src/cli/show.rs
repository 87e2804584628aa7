//! `doushou show`: a position drawn for people to look at, in the terminal
//! (in colour when it is one) or as an SVG picture with an optional arrow.
//!
//! Exit code: 0 when the position was drawn, 1 when it is invalid, 2 for a
//! usage error (bad arrow, unknown rules, a file that cannot be written).

use crate::cli::args::RulesArgs;
use crate::rules::Move;
use crate::tools::pgn::read::{self as input, InputError};
use crate::tools::show::{board_svg, board_text};
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
    /// Never.
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
    /// Colours in the terminal.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Why `show` drew nothing.
#[derive(Debug)]
pub enum ShowError {
    /// The position (or a move after it) is invalid: exit code 1.
    Position(InputError),
    /// Standard input held no position: exit code 1.
    NoInput,
    /// `--arrow` is not a move: exit code 2.
    Arrow(String),
    /// `--variant`/`--set` named unknown rules: exit code 2.
    Rules(String),
    /// Reading the input or writing the picture failed: exit code 2.
    Io {
        /// What was being read or written.
        what: String,
        /// What went wrong.
        error: std::io::Error,
    },
}

impl ShowError {
    /// The exit code this error ends the run with.
    pub fn exit_code(&self) -> i32 {
        match self {
            ShowError::Position(_) | ShowError::NoInput => 1,
            _ => 2,
        }
    }
}

impl std::fmt::Display for ShowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShowError::Position(e) => e.fmt(f),
            ShowError::NoInput => f.write_str("no position on standard input"),
            ShowError::Arrow(a) => write!(f, "--arrow {a}: not a move like g3g4"),
            ShowError::Rules(e) => write!(f, "rules: {e}"),
            ShowError::Io { what, error } => write!(f, "{what}: {error}"),
        }
    }
}

impl std::error::Error for ShowError {}

/// Runs `doushou show`; answers the exit code.
pub fn run(args: &ShowArgs) -> i32 {
    match show(args) {
        Ok(()) => 0,
        Err(ShowError::Io { error, .. }) if error.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn show(args: &ShowArgs) -> Result<(), ShowError> {
    let rules = args.rules.rules().map_err(ShowError::Rules)?;
    let arrow = match &args.arrow {
        Some(a) => match a.parse::<Move>() {
            Ok(m) if !m.is_null() => Some(m),
            _ => return Err(ShowError::Arrow(a.clone())),
        },
        None => None,
    };
    let text = match args.position.as_slice() {
        [] => "startpos".to_string(),
        [dash] if dash == "-" => read_stdin_position()?,
        words => words.join(" "),
    };
    let game = input::parse_position_line(&text)
        .and_then(|spec| spec.game(rules))
        .map_err(ShowError::Position)?;
    let io = |what: String| move |error| ShowError::Io { what, error };
    match &args.svg {
        Some(path) => {
            let svg = board_svg(&game, arrow);
            if path.as_os_str() == "-" {
                let mut out = std::io::stdout().lock();
                out.write_all(svg.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(io("writing standard output".into()))
            } else {
                std::fs::write(path, svg).map_err(io(format!("writing {}", path.display())))
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
                .map_err(io("writing standard output".into()))
        }
    }
}

/// The first line of standard input that holds something.
fn read_stdin_position() -> Result<String, ShowError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|error| ShowError::Io {
            what: "reading standard input".into(),
            error,
        })?;
    String::from_utf8_lossy(&bytes)
        .lines()
        .find(|l| !input::is_skipped(l))
        .map(str::to_string)
        .ok_or(ShowError::NoInput)
}
