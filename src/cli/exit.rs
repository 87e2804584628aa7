//! How every tool ends: [`Failure`] decides the exit code and the one line
//! on stderr, and [`write_out`] is how a tool writes its output so that a
//! failed write is seen.

use std::error::Error;
use std::fmt;
use std::io::{ErrorKind, Write};

/// Why a tool failed, which decides its exit code.
#[derive(Debug)]
pub enum Failure {
    /// The command line asks for something impossible (an unknown rule, a
    /// value out of range, a file it names that cannot be opened or
    /// created): exit code 2, as clap's own usage errors.
    Usage(Cause),
    /// What the tool was given or met while it ran was wrong (a position, a
    /// file's contents, an engine), or it was stopped before its end (a
    /// match by Ctrl-C): exit code 1.
    Input(Cause),
    /// Writing the tool's output failed: exit code 1, or quietly when the
    /// reader closed the pipe.
    Output(std::io::Error),
}

/// The typed error a tool failed with, kept whole (with its sources) until it
/// is printed. Built only from an error type, never from a bare message, so
/// every cause has its own variant somewhere.
#[derive(Debug)]
pub struct Cause(Box<dyn Error + Send + Sync>);

impl<E: Error + Send + Sync + 'static> From<E> for Cause {
    fn from(e: E) -> Cause {
        Cause(Box::new(e))
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Failure {
    /// A usage error (exit code 2) caused by `e`.
    pub fn usage(e: impl Error + Send + Sync + 'static) -> Failure {
        Failure::Usage(e.into())
    }

    /// An input error (exit code 1) caused by `e`.
    pub fn input(e: impl Error + Send + Sync + 'static) -> Failure {
        Failure::Input(e.into())
    }
}

impl From<crate::util::options::OptionError> for Failure {
    /// A rule or engine option the command line set wrongly.
    fn from(e: crate::util::options::OptionError) -> Failure {
        Failure::usage(e)
    }
}

impl From<crate::cli::args::EvalArgsError> for Failure {
    /// `--eval`/`--eval-file` named an evaluation that cannot be used: a
    /// usage error (2), but for a net file that opened and is not a valid
    /// net, which is bad input (1).
    fn from(e: crate::cli::args::EvalArgsError) -> Failure {
        use crate::cli::args::EvalArgsError;
        use crate::engine::nnue::LoadError;
        match e {
            EvalArgsError::NetFile {
                error: LoadError::Format(_),
                ..
            } => Failure::input(e),
            e => Failure::usage(e),
        }
    }
}

impl From<crate::cli::args::ShardError> for Failure {
    /// A shard the command line cannot have is a usage error.
    fn from(e: crate::cli::args::ShardError) -> Failure {
        Failure::usage(e)
    }
}

impl From<crate::tuning::data::TuneError> for Failure {
    /// A file the command line names that cannot be opened or created is a
    /// usage error (2), as `train` has it; what is wrong inside a file that
    /// opened, or a write that failed, is an input error (1).
    fn from(e: crate::tuning::data::TuneError) -> Failure {
        use crate::tuning::data::TuneError;
        use crate::util::fs::TextFileError;
        match e {
            TuneError::File(TextFileError::Open { .. }) | TuneError::Output { .. } => {
                Failure::usage(e)
            }
            TuneError::File(TextFileError::NotText { .. })
            | TuneError::Io { .. }
            | TuneError::Parse { .. }
            | TuneError::BadWeights { .. }
            | TuneError::NotEnoughData(_) => Failure::input(e),
        }
    }
}

impl From<crate::tb::TbError> for Failure {
    /// The same for every tool that reads or writes tables: a directory
    /// that cannot be read or holds no table is a usage error (2), as any
    /// file named on the command line that cannot be opened; a table that
    /// is there but refused (corrupted, made under other rules) is bad
    /// input (1), and so is a machine that cannot start the threads.
    fn from(e: crate::tb::TbError) -> Failure {
        use crate::tb::TbError;
        let usage = matches!(e, TbError::Io { .. } | TbError::NoTables(_));
        let why = Tablebases(e);
        if usage {
            Failure::usage(why)
        } else {
            Failure::input(why)
        }
    }
}

/// A tablebase error as every tool reports it: said to be the tables'.
#[derive(Debug, thiserror::Error)]
#[error("tablebases: {0}")]
struct Tablebases(#[source] crate::tb::TbError);

/// The exit code of a tool stopped by a closed output pipe: that of a Unix
/// tool ended by SIGPIPE (128 + 13), so that `set -o pipefail` sees it alike.
pub const BROKEN_PIPE_EXIT: i32 = 141;

impl Failure {
    /// The process exit code, after telling the user why on stderr (one line;
    /// nothing for a closed pipe).
    pub fn report(&self) -> i32 {
        match self {
            Failure::Usage(why) => {
                eprintln!("error: {why}");
                2
            }
            Failure::Input(why) => {
                eprintln!("error: {why}");
                1
            }
            Failure::Output(e) if e.kind() == ErrorKind::BrokenPipe => BROKEN_PIPE_EXIT,
            Failure::Output(e) => {
                eprintln!("error: cannot write the output: {e}");
                1
            }
        }
    }
}

/// Writes `text` to standard output and flushes it, so that a write error is
/// seen here and not lost at exit.
pub fn write_out(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}
