//! The command line of `doushou match`.

use super::args::RulesArgs;
use super::exit::{Failure, write_out};
use crate::client::{self, EngineLimits, TimeControl};
use crate::tools::matches::config::{MatchRequest, OpeningSource};
use crate::tools::matches::openings::OpeningsFileError;
use crate::tools::matches::schedule::Shard;
use crate::tools::matches::{
    ConfigError, MatchConfig, MatchError, MergeError, MergeOutput, merge_records, resume_match,
    run_match,
};
use crate::util::fs::TextFileError;
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches};
use std::path::PathBuf;

/// Arguments of `doushou match`: engine-vs-engine games refereed by the
/// project's rules, with statistics.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  doushou match --engine name=new cmd=./target/release/doushou option.Threads=1 \\\n                --engine name=old cmd=./old-doushou --tc 10+0.1 --games 100 --concurrency 2 \\\n                --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --pgn games.pgn --json summary.json"
)]
pub struct MatchArgs {
    /// The engines, one `--engine` group each (`name=... cmd=...` and options).
    #[command(flatten)]
    pub engines: EngineGroups,
    /// KEY=VALUE words applied to every engine before its own.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Time control, seconds plus increment (sent as wtime/btime/winc/binc).
    #[arg(long, value_name = "S[+INC]")]
    pub tc: Option<TimeControl>,
    /// A fixed time per move, ms, at least 1.
    #[arg(long, value_name = "MS", value_parser = super::args::positive::<u64>())]
    pub movetime: Option<u64>,
    /// A fixed search depth, 1 to 100.
    #[arg(long, value_parser = super::args::depth())]
    pub depth: Option<u32>,
    /// A node budget per move, at least 1.
    #[arg(long, value_parser = super::args::positive::<u64>())]
    pub nodes: Option<u64>,
    /// Openings: one a line, a position (`FEN [moves ...]`) or moves from the
    /// start. Each is played twice, colours swapped. Default: the built-in
    /// suite of bench-positions/openings.txt (3,000 openings balanced under
    /// both presets), used in order.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Instead of an openings file, start each pair of games with this many
    /// random legal plies from the start position (deterministic in --seed).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
    /// Seed of --random-plies, so that a match can be played again.
    #[arg(long, default_value_t = 1, requires = "random_plies")]
    pub seed: u64,
    /// Games per pair of engines (default: every opening of --openings
    /// twice, else 100: the first 50 openings of the built-in suite, or 50
    /// random ones).
    #[arg(long)]
    pub games: Option<usize>,
    /// Games played at once, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = super::args::threads())]
    pub concurrency: usize,
    /// Stop early by a sequential probability ratio test (two engines only),
    /// e.g. `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Append each game's record to this file as soon as the game ends
    /// (with --merge: write all shards' game records here, by round).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write a summary (results, statistics, every game's ending) as JSON,
    /// rewritten after every game; it is also the record `--resume` and
    /// `--merge` read (with --merge: where the merged record goes).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Continue the interrupted match whose `--json` record is FILE: the same
    /// engines, openings, colours and order, the finished games kept. Give no
    /// other option; run it from the same directory as the first run.
    #[arg(long, value_name = "FILE", conflicts_with = "engine")]
    pub resume: Option<PathBuf>,
    /// Play only this machine's part of the match, `I/N` (0-based): the I-th
    /// of N consecutive blocks of game pairs (an opening, both colours), the
    /// games numbered as in the whole match. `env/N` reads I from
    /// `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job). A shard plays all
    /// its games even with --sprt: the test decides over the merged shards.
    #[arg(long, value_name = "I/N", conflicts_with = "resume")]
    pub shard: Option<String>,
    /// Merge the `--json` records of a match's shards into one record
    /// (`--json`) and PGN file (`--pgn`), and print the whole match's table.
    /// Records of another match, or a shard given twice, are refused.
    #[arg(
        long,
        num_args = 1..,
        value_name = "RECORD",
        conflicts_with_all = [
            "engine", "resume", "shard", "each", "tc", "movetime", "depth", "nodes",
            "openings", "random_plies", "games", "sprt", "max_plies", "variant", "set",
        ]
    )]
    pub merge: Vec<PathBuf>,
    /// Grace after a clock or move time runs out before a move is forfeit, ms.
    #[arg(long = "timemargin", value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,
    /// The longest wait for `uciok` after `uci`, ms. Every engine is started
    /// once before the first game: one that does not answer in time (or cannot
    /// be started at all) stops the match with an error. At least 1.
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = super::args::positive::<u64>())]
    pub start_timeout: u64,
    /// The longest wait for any other answer no clock bounds (isready, a move
    /// under depth or node limits), ms; past it the engine loses. At least 1.
    #[arg(long, value_name = "MS", default_value_t = 60_000,
          value_parser = super::args::positive::<u64>())]
    pub hang_timeout: u64,
    /// Draw a game after this many plies (the opening's included), at least 1.
    #[arg(long, value_name = "N", value_parser = super::args::positive::<usize>())]
    pub max_plies: Option<usize>,
    /// The rules: the referee's, and sent to every engine as options.
    #[command(flatten)]
    pub rules: RulesArgs,
}

impl MatchArgs {
    /// The match these arguments describe, every input checked; `shard` is
    /// the part of it to play, if only one.
    pub fn config(&self, shard: Option<Shard>) -> Result<MatchConfig, ConfigError> {
        let openings = match (&self.openings, self.random_plies) {
            (Some(path), _) => OpeningSource::File(path.clone()),
            (None, Some(plies)) => OpeningSource::Random {
                plies,
                seed: self.seed,
            },
            (None, None) => OpeningSource::BuiltIn,
        };
        MatchConfig::new(MatchRequest {
            engines: self.engines.0.clone(),
            each: self.each.clone(),
            limits: EngineLimits {
                tc: self.tc,
                movetime: self.movetime,
                depth: self.depth,
                nodes: self.nodes,
            },
            openings,
            games: self.games,
            concurrency: self.concurrency,
            sprt: self.sprt.clone(),
            pgn: self.pgn.clone(),
            json: self.json.clone(),
            rules: self.rules.rules()?,
            rule_settings: self.rules.settings(),
            time_margin_ms: self.time_margin,
            start_timeout_ms: self.start_timeout,
            hang_timeout_ms: self.hang_timeout,
            max_plies: self.max_plies,
            shard,
        })
    }
}

/// The words of each `--engine`, one group per occurrence. clap's derive
/// cannot yet keep occurrences apart (`Vec<Vec<_>>` is unstable), so this
/// one argument is declared by hand.
#[derive(Clone, Debug, Default)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineGroups::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineGroups {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(ArgAction::Append)
                .required_unless_present_any(["resume", "merge"])
                .value_name("KEY=VALUE")
                .help(
                    "An engine, as KEY=VALUE words: name=NAME cmd=\"PROGRAM ARGS\" [arg=ARG] \
                     [dir=DIR] [option.NAME=VALUE]... [tc=S+INC] [movetime=MS] [depth=N] \
                     [nodes=N]. Give two or more; more than two play a round robin.",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineGroups::augment_args(cmd)
    }
}

/// Runs `doushou match`: progress on stderr, the final table on stdout. An
/// interrupted match prints the table of its finished games, then fails with
/// how to resume it.
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    if !args.merge.is_empty() {
        return merge(args);
    }
    let summary = match &args.resume {
        Some(record) => {
            // A record that is not there is a mistyped command line (exit 2);
            // one that cannot be read back is bad input (exit 1).
            if !record.is_file() {
                return Err(Failure::usage(MatchError::NoRecord(record.clone())));
            }
            stop_on_interrupt();
            resume_match(record)
        }
        None => {
            let shard = match &args.shard {
                Some(text) => {
                    let (index, count) = super::args::parse_shard(text)?;
                    Some(Shard { index, count })
                }
                None => None,
            };
            let config = args.config(shard).map_err(|e| match e {
                // What is wrong inside an openings file is bad input.
                e @ ConfigError::Openings(
                    OpeningsFileError::Refused { .. }
                    | OpeningsFileError::File(TextFileError::NotText { .. }),
                ) => Failure::input(e),
                e => Failure::usage(e),
            })?;
            stop_on_interrupt();
            run_match(&config)
        }
    }
    .map_err(|e| match e {
        e @ MatchError::Unwritable { .. } => Failure::usage(e),
        e => Failure::input(e),
    })?;
    write_out(&summary.table())?;
    if summary.interrupted {
        return Err(Failure::input(MatchError::Interrupted {
            played: summary.games.len(),
            planned: summary.planned,
            record: args.resume.as_ref().or(args.json.as_ref()).cloned(),
        }));
    }
    Ok(())
}

/// Runs `doushou match --merge`: the merged table on stdout, the merged
/// record and PGN where `--json` and `--pgn` say.
fn merge(args: &MatchArgs) -> Result<(), Failure> {
    // A record that is not there is a mistyped command line (exit 2); one
    // that cannot be merged is bad input (exit 1).
    if let Some(missing) = args.merge.iter().find(|p| !p.is_file()) {
        return Err(Failure::usage(MergeError::NoFile(missing.clone())));
    }
    let out = MergeOutput {
        json: args.json.clone(),
        pgn: args.pgn.clone(),
    };
    let summary = merge_records(&args.merge, &out).map_err(Failure::input)?;
    write_out(&summary.table())
}

/// Ctrl-C (or SIGTERM) stops the match cleanly: the games in play end, their
/// engines are told `quit` and killed after a grace, and the finished games'
/// summary is written and printed. A second Ctrl-C exits at once.
fn stop_on_interrupt() {
    let installed = ctrlc::set_handler(|| {
        if client::interrupted() {
            eprintln!("interrupted again: exiting now");
            std::process::exit(130);
        }
        eprintln!("interrupted: stopping the games in play (Ctrl-C again to exit at once)");
        client::interrupt();
    });
    if let Err(e) = installed {
        log::warn!("Ctrl-C will not stop the match cleanly: {e}");
    }
}
