//! An engine as a client starts it: its name, command line, working directory,
//! options, and how long it may think per move (a clock, a move time, a depth,
//! a node budget), read from `key=value` words as `match` and `gui` take them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// A clock: a base time and an increment per move, in milliseconds; the
/// match runner's (`--tc`, its record) and the GUI's (its API) alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Time on the clock at the start of the game.
    pub base_ms: u64,
    /// Time added after each move (none when left out).
    #[serde(default)]
    pub increment_ms: u64,
}

/// Why an engine's description or a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A time (`what`: the time control or its increment) is not seconds.
    #[error("{what}: '{text}' is not a number of seconds")]
    NotSeconds {
        /// Which time.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// A time is negative or absurdly long.
    #[error("{what}: '{text}' is out of range")]
    SecondsOutOfRange {
        /// Which time.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// A time control whose base and increment are both zero.
    #[error("time control '{0}' gives no time")]
    NoTime(String),
    /// A word of `--engine` without `=`.
    #[error("--engine: '{0}' is not key=value")]
    NotKeyValue(String),
    /// A limit that is not a whole number.
    #[error("--engine: {key}: '{value}' is not a count")]
    NotCount {
        /// The limit's key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// A limit outside what the command line's own flag takes.
    #[error("--engine: {key}: '{value}' is out of range ({})", crate::util::words::range(*.least, *.most))]
    CountOutOfRange {
        /// The limit's key.
        key: &'static str,
        /// The value given.
        value: String,
        /// The smallest value taken.
        least: u64,
        /// The largest value taken.
        most: u64,
    },
    /// A key `--engine` does not know.
    #[error(
        "--engine: unknown key '{0}' (name, cmd, arg, dir, option.<Name>, tc, movetime, depth, nodes)"
    )]
    UnknownKey(String),
    /// An `--engine` without `cmd=`; holds its words.
    #[error("--engine {0}: no command (cmd=<program>)")]
    NoCommand(String),
}

/// Seconds as text (`10`, `0.5`) to milliseconds.
fn seconds_to_ms(text: &str, what: &'static str) -> Result<u64, SpecError> {
    let s: f64 = text.trim().parse().map_err(|_| SpecError::NotSeconds {
        what,
        text: text.to_string(),
    })?;
    if !(0.0..=1e8).contains(&s) {
        return Err(SpecError::SecondsOutOfRange {
            what,
            text: text.to_string(),
        });
    }
    Ok((s * 1000.0).round() as u64)
}

impl std::str::FromStr for TimeControl {
    type Err = SpecError;

    /// Reads `seconds[+increment]`, e.g. `10+0.1` or `60`.
    fn from_str(text: &str) -> Result<TimeControl, SpecError> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let tc = TimeControl {
            base_ms: seconds_to_ms(base, "time control")?,
            increment_ms: seconds_to_ms(inc, "time control increment")?,
        };
        if tc.base_ms == 0 && tc.increment_ms == 0 {
            return Err(SpecError::NoTime(text.to_string()));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    /// `seconds+increment`, as `--tc` takes it (`10+0.1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.base_ms), secs(self.increment_ms))
    }
}

/// How long an engine may think: any combination; `go` carries all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineLimits {
    /// A game clock, sent as wtime/btime/winc/binc and enforced by the referee.
    pub tc: Option<TimeControl>,
    /// A fixed time per move (ms), enforced by the referee.
    pub movetime: Option<u64>,
    /// A fixed depth per move (`go depth`), in plies.
    pub depth: Option<u32>,
    /// A node budget per move (`go nodes`).
    pub nodes: Option<u64>,
}

impl EngineLimits {
    /// Whether anything limits the search at all.
    pub fn is_empty(&self) -> bool {
        *self == EngineLimits::default()
    }

    /// The words `go` gets for the fixed limits (` movetime N depth N nodes N`,
    /// each given one with its leading blank). A clock's words are the
    /// caller's, who knows the time left.
    pub fn fixed_go_words(&self) -> String {
        let mut words = String::new();
        if let Some(mt) = self.movetime {
            words.push_str(&format!(" movetime {mt}"));
        }
        if let Some(d) = self.depth {
            words.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.nodes {
            words.push_str(&format!(" nodes {n}"));
        }
        words
    }

    /// Each field of `self`, else that of `defaults`.
    pub fn or(self, defaults: EngineLimits) -> EngineLimits {
        EngineLimits {
            tc: self.tc.or(defaults.tc),
            movetime: self.movetime.or(defaults.movetime),
            depth: self.depth.or(defaults.depth),
            nodes: self.nodes.or(defaults.nodes),
        }
    }
}

impl fmt::Display for EngineLimits {
    /// The limits in words, `10+0.1`, `movetime 100ms`, `depth 4`, `nodes 500`,
    /// joined by `, `: the game record's `TimeControl` tag.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(tc.to_string());
        }
        if let Some(mt) = self.movetime {
            parts.push(format!("movetime {mt}ms"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if parts.is_empty() {
            parts.push("none".into());
        }
        f.write_str(&parts.join(", "))
    }
}

/// One engine to start: what `--engine` describes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// The name in records and tables (unique among the engines of a match).
    pub name: String,
    /// The program to start.
    pub program: String,
    /// Its arguments, after the program.
    pub args: Vec<String>,
    /// The working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// This engine's own limits (each unset field falls back to the match's).
    pub limits: EngineLimits,
}

impl EngineSpec {
    /// Reads the `key=value` words of one `--engine`: `name=`, `cmd=` (program
    /// and arguments split on blanks), `arg=` (one more argument, blanks kept),
    /// `dir=`, `option.<Name>=<value>`, and the limits `tc=`, `movetime=` (ms),
    /// `depth=`, `nodes=`. Words of `each` (the `--each` list) come first, so
    /// the engine's own override them.
    pub fn parse<S: AsRef<str>>(each: &[S], words: &[S]) -> Result<EngineSpec, SpecError> {
        let mut name = None;
        let mut command: Vec<String> = Vec::new();
        let mut extra_args = Vec::new();
        let mut dir = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut limits = EngineLimits::default();
        for word in each.iter().chain(words) {
            let word = word.as_ref();
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(word.to_string()))?;
            let within = |key: &'static str, least: u64, most: u64| -> Result<u64, SpecError> {
                let n: u64 = value.trim().parse().map_err(|_| SpecError::NotCount {
                    key,
                    value: value.to_string(),
                })?;
                if (least..=most).contains(&n) {
                    Ok(n)
                } else {
                    Err(SpecError::CountOutOfRange {
                        key,
                        value: value.to_string(),
                        least,
                        most,
                    })
                }
            };
            match key.trim() {
                "name" => name = Some(value.trim().to_string()),
                "cmd" => command = value.split_whitespace().map(str::to_string).collect(),
                "arg" => extra_args.push(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                "tc" => limits.tc = Some(value.parse()?),
                // The ranges of the command line's `--movetime`, `--depth`, `--nodes`.
                "movetime" => limits.movetime = Some(within("movetime", 1, 1 << 40)?),
                "depth" => {
                    let most = u64::from(crate::engine::MAX_DEPTH);
                    limits.depth = Some(within("depth", 1, most)? as u32);
                }
                "nodes" => limits.nodes = Some(within("nodes", 1, u64::MAX)?),
                k if k.starts_with("option.") && k.len() > "option.".len() => {
                    let opt = k["option.".len()..].to_string();
                    // A later setting of the same option replaces the earlier one.
                    options.retain(|(n, _)| !n.eq_ignore_ascii_case(&opt));
                    options.push((opt, value.to_string()));
                }
                other => {
                    return Err(SpecError::UnknownKey(other.to_string()));
                }
            }
        }
        let Some((program, args)) = command.split_first() else {
            let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
            return Err(SpecError::NoCommand(words.join(" ")));
        };
        let name = name.filter(|n| !n.is_empty()).unwrap_or_else(|| {
            std::path::Path::new(program)
                .file_name()
                .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned())
        });
        let mut all_args = args.to_vec();
        all_args.extend(extra_args);
        Ok(EngineSpec {
            name,
            program: program.clone(),
            args: all_args,
            dir,
            options,
            limits,
        })
    }

    /// How the engine is started, for messages: the program and its
    /// arguments, and the working directory if one is given.
    pub fn command_line(&self) -> String {
        let mut words = vec![self.program.clone()];
        words.extend(self.args.iter().map(|a| {
            if a.contains(char::is_whitespace) {
                format!("'{a}'")
            } else {
                a.clone()
            }
        }));
        let mut text = words.join(" ");
        if let Some(dir) = &self.dir {
            text.push_str(&format!(" (in {})", dir.display()));
        }
        text
    }
}

/// Makes engine names unique by numbering repeats (`doushou`, `doushou-2`), so
/// that records and tables can tell them apart.
pub fn dedupe_names(specs: &mut [EngineSpec]) {
    for i in 1..specs.len() {
        let base = specs[i].name.clone();
        let mut n = 2;
        while specs[..i].iter().any(|s| s.name == specs[i].name) {
            specs[i].name = format!("{base}-{n}");
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (10_000, 100));
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(
            "1+0.01".parse::<TimeControl>().unwrap().to_string(),
            "1+0.01"
        );
        assert_eq!("60".parse::<TimeControl>().unwrap().increment_ms, 0);
        for bad in ["", "x", "-1+0", "1+y", "0+0", "inf"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn engines_read_their_keys() {
        let spec = EngineSpec::parse(
            &["option.Hash=16", "depth=3"],
            &[
                "name=new",
                "cmd=./target/release/doushou --flag",
                "arg=with space",
                "option.Threads=1",
                "option.hash=8",
                "tc=1+0.01",
            ],
        )
        .unwrap();
        assert_eq!(spec.name, "new");
        assert_eq!(spec.program, "./target/release/doushou");
        assert_eq!(spec.args, vec!["--flag", "with space"]);
        assert_eq!(
            spec.options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("hash".to_string(), "8".to_string())
            ]
        );
        assert_eq!(spec.limits.depth, Some(3));
        assert_eq!(spec.limits.tc.unwrap().base_ms, 1000);
        let unnamed = EngineSpec::parse::<&str>(&[], &["cmd=/usr/bin/eng"]).unwrap();
        assert_eq!(unnamed.name, "eng");
        for bad in [
            &["name=x"][..],
            &["cmd=x", "colour=red"],
            &["cmd=x", "depth=deep"],
            &["cmd=x", "nokey"],
            &["cmd=x", "tc=fast"],
        ] {
            assert!(EngineSpec::parse::<&str>(&[], bad).is_err(), "{bad:?}");
        }
        let mut specs = vec![unnamed.clone(), unnamed.clone(), unnamed];
        dedupe_names(&mut specs);
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["eng", "eng-2", "eng-3"]);
    }
}
