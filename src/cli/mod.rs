//! The command line: with no subcommand the protocol loop, else one of the tools.

pub mod analyse;
pub mod bench;
pub mod gui;
pub mod perft;
pub mod selfplay;
pub mod show;
pub mod train;
pub mod tune;

use crate::engine::Engine;
use crate::engine::eval::EvalKind;
use crate::engine::nnue;
use crate::rules::Rules;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// doushou, an engine for Dou Shou Qi (Jungle chess). With no subcommand it
/// speaks the protocol of protocol.md on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "doushou", version, about)]
pub struct Cli {
    /// The tool to run; none runs the protocol loop.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The tools.
#[derive(Subcommand, Debug)]
pub enum Command {
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
    Match(Box<crate::tools::matches::MatchArgs>),
    /// Serve a browser GUI: play, watch engine games, analyse, load records.
    Gui(gui::GuiArgs),
}

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
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = Rules::default();
        if let Some(v) = &self.variant {
            rules.set("UCI_Variant", v).map_err(|e| e.to_string())?;
        }
        rules
            .apply_settings(self.set.iter().map(String::as_str))
            .map_err(|e| e.to_string())?;
        Ok(rules)
    }

    /// The settings as `Name=Value` strings, the preset first, to pass on to engines.
    pub fn settings(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(v) = &self.variant {
            out.push(("UCI_Variant".to_string(), v.clone()));
        }
        for s in &self.set {
            if let Some((n, v)) = s.split_once('=') {
                out.push((n.trim().to_string(), v.trim().to_string()));
            }
        }
        out
    }
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
    pub fn settings(&self) -> Result<Vec<(String, String)>, String> {
        let mut out = Vec::new();
        if let Some(path) = &self.eval_file {
            nnue::load(path).map_err(|e| format!("--eval-file {}: {e}", path.display()))?;
            out.push(("EvalFile".to_string(), path.display().to_string()));
        }
        if let Some(kind) = &self.eval {
            out.push(("Eval".to_string(), kind.clone()));
        }
        Ok(out)
    }

    /// Sets these options on `engine`.
    pub fn apply(&self, engine: &mut Engine) -> Result<(), String> {
        apply_settings(engine, &self.settings()?)
    }
}

/// Sets engine options given as `(name, value)`.
pub fn apply_settings(engine: &mut Engine, settings: &[(String, String)]) -> Result<(), String> {
    for (name, value) in settings {
        engine
            .set_option(name, Some(value))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs the subcommand; answers the process exit code.
pub fn run(command: Command) -> i32 {
    let result = match &command {
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        // Analyse and show answer their own exit codes: 1 for invalid input.
        Command::Analyse(args) => return analyse::run(args),
        Command::Show(args) => return show::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Train(args) => train::run(args),
        Command::Match(args) => crate::tools::matches::run(args),
        Command::Gui(args) => gui::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
