//! The clap argument groups that more than one tool's command line takes: the
//! rule switches and the evaluation; `--shard`; and the ranges of the numbers several
//! tools take, one value parser each, so that every tool refuses the same
//! values the same way (a usage error, exit code 2).

use crate::engine::eval::EvalKind;
use crate::engine::nnue::{self, LoadError};
use crate::engine::{Engine, option};
use crate::rules::{Rules, switch};
use crate::util::options::OptionError;
use clap::Args;
use std::path::PathBuf;

/// Threads, or searches or games at once: 1 to 256, the `Threads` option's range.
pub fn threads() -> impl WholeParser<usize> {
    whole(1, 256)
}

/// A search depth in plies: 1 to [`crate::engine::MAX_DEPTH`].
pub fn depth() -> impl WholeParser<u32> {
    whole(1, u64::from(crate::engine::MAX_DEPTH))
}

/// A transposition table in MB: 1 to 65536, the `Hash` option's range.
pub fn hash_mb() -> impl WholeParser<usize> {
    whole(1, 65536)
}

/// A count that must be positive: nodes, milliseconds, games, plies, epochs.
pub fn positive<T: TryFrom<u64>>() -> impl WholeParser<T> {
    whole(1, u64::MAX)
}

/// A value parser of a whole number, as clap takes one.
pub trait WholeParser<T>:
    Fn(&str) -> Result<T, OutOfRange> + Clone + Send + Sync + 'static
{
}

impl<T, F> WholeParser<T> for F where
    F: Fn(&str) -> Result<T, OutOfRange> + Clone + Send + Sync + 'static
{
}

/// A whole number from `least` to `most` (`u64::MAX`: no most), refused
/// with its range in words, as every tool says it.
pub fn whole<T: TryFrom<u64>>(least: u64, most: u64) -> impl WholeParser<T> {
    move |text: &str| {
        let refused = OutOfRange { least, most };
        let n: u64 = text.trim().parse().map_err(|_| refused)?;
        if !(least..=most).contains(&n) {
            return Err(refused);
        }
        T::try_from(n).map_err(|_| refused)
    }
}

/// A whole number [`whole`] refused: its range, said in words.
#[derive(Clone, Copy, Debug, thiserror::Error)]
#[error("expected a whole number, {}", crate::util::words::range(*.least, *.most))]
pub struct OutOfRange {
    least: u64,
    most: u64,
}

/// A real number that is finite: a rate, a weight.
pub fn finite(text: &str) -> Result<f64, NotFinite> {
    text.trim()
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| NotFinite(text.to_string()))
}

/// A number [`finite`] refused; holds the text given.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not a finite number")]
pub struct NotFinite(String);

/// The rule switches as every tool takes them.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// A preset: jungle (default) or xoudouqi.
    #[arg(long)]
    pub variant: Option<String>,
    /// A rule switch by its protocol name, after the preset: --set DogOverWolf=true.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

impl RulesArgs {
    /// The rules these arguments ask for.
    pub fn rules(&self) -> Result<Rules, OptionError> {
        let mut rules = Rules::default();
        if let Some(v) = &self.variant {
            rules.set(switch::VARIANT, v)?;
        }
        rules.apply_settings(self.set.iter().map(String::as_str))?;
        Ok(rules)
    }

    /// The settings as `Name=Value` strings, the preset first, to pass on to engines.
    pub fn settings(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(v) = &self.variant {
            out.push((switch::VARIANT.to_string(), v.clone()));
        }
        for s in &self.set {
            if let Some((n, v)) = s.split_once('=') {
                out.push((n.trim().to_string(), v.trim().to_string()));
            }
        }
        out
    }
}

/// Why `--eval`/`--eval-file` cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EvalArgsError {
    /// The net file does not load (missing, unreadable, or not a net this
    /// build can use): found before any engine starts.
    #[error("--eval-file {}: {error}", .path.display())]
    NetFile {
        /// The file named by `--eval-file`.
        path: PathBuf,
        /// Why it does not load.
        #[source]
        error: LoadError,
    },
    /// The engine refused the setting.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// `--eval-file` with `--eval linear`: the net would not be used.
    #[error("--eval-file names a net, which --eval linear does not use")]
    NetUnused,
}

/// The evaluation as every tool that searches takes it.
#[derive(Args, Debug, Clone, Default)]
pub struct EvalArgs {
    /// The static evaluation: nnue or linear (default: the engine's, the `Eval` option's).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(EvalKind::NAMES))]
    pub eval: Option<String>,
    /// The net file for `--eval nnue` (default: the net built into the binary).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
}

impl EvalArgs {
    /// The engine options these arguments set, as `(name, value)`, after
    /// checking that the net file loads (so that a tool fails before it starts,
    /// not in each of its engines).
    pub fn settings(&self) -> Result<Vec<(String, String)>, EvalArgsError> {
        let mut out = Vec::new();
        if self.eval_file.is_some() && self.eval.as_deref() == Some(EvalKind::Linear.name()) {
            return Err(EvalArgsError::NetUnused);
        }
        if let Some(path) = &self.eval_file {
            nnue::load(path).map_err(|error| EvalArgsError::NetFile {
                path: path.clone(),
                error,
            })?;
            out.push((option::EVAL_FILE.to_string(), path.display().to_string()));
        }
        if let Some(kind) = &self.eval {
            out.push((option::EVAL.to_string(), kind.clone()));
        }
        Ok(out)
    }

    /// Sets these options on `engine`.
    pub fn apply(&self, engine: &mut Engine) -> Result<(), EvalArgsError> {
        Ok(engine.set_options(&self.settings()?)?)
    }
}

/// Why a `--shard` argument cannot be used; each message names the argument.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Not of the form `I/N` or `env/N` with numbers.
    #[error("--shard {0}: expected I/N (e.g. 0/4) or env/N")]
    Form(String),
    /// `env/N` given, but the job runner set no index.
    #[error("--shard {0}: JOB_COMPLETION_INDEX is not set")]
    NoJobIndex(String),
    /// The index is not below the count (or the count is 0).
    #[error("--shard {0}: the index must be below the count")]
    OutOfRange(String),
}

/// `--shard I/N`, or `env/N` for the index in `JOB_COMPLETION_INDEX` (`selfplay`'s and `tb generate`'s).
pub fn parse_shard(text: &str) -> Result<(usize, usize), ShardError> {
    let bad = || ShardError::Form(text.to_string());
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let index = if index == "env" {
        std::env::var("JOB_COMPLETION_INDEX")
            .map_err(|_| ShardError::NoJobIndex(text.to_string()))?
    } else {
        index.to_string()
    };
    let index: usize = index.trim().parse().map_err(|_| bad())?;
    let count: usize = count.trim().parse().map_err(|_| bad())?;
    if count == 0 || index >= count {
        return Err(ShardError::OutOfRange(text.to_string()));
    }
    Ok((index, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_net_file_that_does_not_load_is_named_and_keeps_its_cause() {
        let args = EvalArgs {
            eval: None,
            eval_file: Some(PathBuf::from("/nonexistent/doushou.nnue")),
        };
        let error = args.settings().unwrap_err();
        assert!(
            matches!(&error, EvalArgsError::NetFile { path, .. } if path == args.eval_file.as_ref().unwrap()),
            "{error:?}"
        );
        assert!(
            error
                .to_string()
                .starts_with("--eval-file /nonexistent/doushou.nnue: "),
            "{error}"
        );
        assert!(std::error::Error::source(&error).is_some_and(|e| e.is::<LoadError>()));
    }
}
