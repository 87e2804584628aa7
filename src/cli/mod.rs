//! The command line: with no subcommand the protocol loop, else one of the
//! tools. Every tool ends the same way ([`exit::Failure`]): exit code 2 for a bad
//! command line, 1 for bad input or a failed write (one line on stderr), and
//! quietly when the reader of its output has gone (`doushou bench | head -1`).

pub mod analyse;
pub mod args;
pub mod bench;
pub mod exit;
pub mod gui;
pub mod matches;
pub mod perft;
pub mod races;
pub mod ratings;
pub mod selfplay;
pub mod show;
pub mod tb;
pub mod train;
pub mod tune;

use clap::{Parser, Subcommand};

/// What `doushou` says when started with no arguments on a terminal, and in
/// its `--help`: a person waiting for a prompt needs to know what to type.
pub const PROTOCOL_HINT: &str = "doushou speaks the engine protocol of protocol.md (UCI-style) on \
stdin/stdout: type uci, help or quit (doushou --help lists the tools)";

/// doushou, an engine for Dou Shou Qi (Jungle chess).
#[derive(Parser, Debug)]
#[command(
    name = "doushou",
    version,
    about,
    long_about = None,
    before_help = "With no tool, doushou speaks the engine protocol of protocol.md (UCI-style) \
on stdin/stdout: type uci, help or quit.",
    after_help = "Exit codes: 0 success; 1 bad input (a position, a file's contents, an engine), \
a failed write or a match stopped by Ctrl-C; 2 a bad command line, a file it names that cannot \
be opened or created included. A closed output pipe ends a tool quietly."
)]
pub struct Cli {
    /// The tool to run; none runs the protocol loop.
    #[command(subcommand)]
    pub command: Option<Tool>,
}

/// The tools, one subcommand each; none runs the protocol loop.
#[derive(Subcommand, Debug)]
pub enum Tool {
    /// Count the leaves of the legal move tree (move generator check and speed).
    Perft(perft::PerftArgs),
    /// Search the bench positions to a fixed depth: node count and speed.
    Bench(bench::BenchArgs),
    /// Search positions (or annotate games) from a file or stdin: text or JSON lines.
    Analyse(analyse::AnalyseArgs),
    /// Draw a position in the terminal, or as an SVG picture with an optional arrow.
    Show(show::ShowArgs),
    /// Play the engine against itself and write labelled positions for `train` and `tune`.
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the evaluation's weights to self-play data (Texel) and write weights.rs.
    Tune(tune::TuneArgs),
    /// Fit the learned evaluation (NNUE) to self-play data and write the net file.
    Train(train::TrainArgs),
    /// Play engines against each other (any engine speaking protocol.md), refereed by the rules.
    Match(Box<matches::MatchArgs>),
    /// Serve a browser GUI: play, watch engine games, analyse, load records.
    Gui(gui::GuiArgs),
    /// Endgame tablebases: generate them, or probe positions (docs/tablebases.md).
    Tb(tb::TbArgs),
    /// The den-race suite: build it from games, or score a search against it.
    Races(races::RacesArgs),
    /// A rating list (maximum likelihood, with error bars) fitted to games: PGN or match records.
    Ratings(ratings::RatingsArgs),
}

/// Sends log records to stderr, at `warn` and above unless `RUST_LOG` says
/// otherwise. Under a tool (`tool`, its name) a warning or an error reads as
/// the tool's own line, `tune: warning: ...`, whichever module said it; finer
/// records, and every record of the protocol loop, keep the log's form.
pub fn init_logging(tool: Option<&str>) {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    builder.target(env_logger::Target::Stderr);
    if let Some(tool) = tool.map(str::to_string) {
        builder.format(move |buf, record| {
            use std::io::Write;
            let args = record.args();
            match record.level() {
                log::Level::Warn => writeln!(buf, "{tool}: warning: {args}"),
                log::Level::Error => writeln!(buf, "{tool}: error: {args}"),
                level => {
                    let (time, target) = (buf.timestamp(), record.target());
                    writeln!(buf, "[{time} {level:<5} {target}] {args}")
                }
            }
        });
    }
    builder.init();
}

/// Runs the subcommand; answers the process exit code.
pub fn run(command: Tool) -> i32 {
    let result = match &command {
        Tool::Perft(args) => perft::run(args),
        Tool::Bench(args) => bench::run(args),
        // Analyse answers its own exit code: 1 if any input was invalid.
        Tool::Analyse(args) => return analyse::run(args),
        Tool::Show(args) => show::run(args),
        // tb answers its own exit code: 1 if any probed position was invalid.
        Tool::Tb(args) => match tb::run(args) {
            Ok(code) => return code,
            Err(failure) => Err(failure),
        },
        Tool::Selfplay(args) => selfplay::run(args),
        Tool::Tune(args) => tune::run(args),
        Tool::Train(args) => train::run(args).map_err(exit::Failure::from),
        Tool::Match(args) => matches::run(args),
        Tool::Gui(args) => gui::run(args),
        Tool::Races(args) => races::run(args),
        Tool::Ratings(args) => ratings::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(failure) => failure.report(),
    }
}
