//! The command line: with no subcommand the protocol loop, else one of the tools.

pub mod analyse;
pub mod args;
pub mod bench;
pub mod gui;
pub mod matches;
pub mod perft;
pub mod selfplay;
pub mod show;
pub mod tb;
pub mod train;
pub mod tune;

use clap::{Parser, Subcommand};

/// doushou, an engine for Dou Shou Qi (Jungle chess). With no subcommand it
/// speaks the protocol of protocol.md on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "doushou", version, about)]
pub struct Cli {
    /// The tool to run; none runs the protocol loop.
    #[command(subcommand)]
    pub command: Option<Tool>,
}

/// The tools.
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
    /// Play the engine against itself and write labelled positions for `tune`.
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
}

/// Runs the subcommand; answers the process exit code.
pub fn run(command: Tool) -> i32 {
    let result = match &command {
        Tool::Perft(args) => perft::run(args),
        Tool::Bench(args) => bench::run(args),
        // Analyse and show answer their own exit codes: 1 for invalid input.
        Tool::Analyse(args) => return analyse::run(args),
        Tool::Show(args) => return show::run(args),
        Tool::Tb(args) => return tb::run(args),
        Tool::Selfplay(args) => selfplay::run(args),
        Tool::Tune(args) => tune::run(args),
        Tool::Train(args) => train::run(args),
        Tool::Match(args) => matches::run(args),
        Tool::Gui(args) => gui::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
