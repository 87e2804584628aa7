//! `doushou gui`: the command line of the browser GUI (src/gui).

use crate::cli::args::RulesArgs;
use crate::cli::exit::Failure;
use crate::client::{EngineSpec, dedupe_names};
use crate::gui::{self, GuiConfig, GuiError};
use crate::tb::TableSet;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `doushou gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080, value_parser = super::args::whole::<u16>(0, 65535))]
    pub port: u16,
    /// The address to listen on. The default takes requests from this machine
    /// only; 0.0.0.0 takes them from anywhere (anyone who can reach it can
    /// start engines on this machine).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// An engine: NAME=COMMAND (the command split on blanks, e.g.
    /// `--engine old="/opt/doushou-1.0 --flag"`); repeat for more. The first
    /// also analyses. Default: this binary itself.
    #[arg(long = "engine", value_name = "NAME=CMD")]
    pub engines: Vec<String>,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// A directory of endgame tables (`doushou tb generate`): the page shows
    /// their verdict on the position shown and ranks its moves, and the
    /// default engine (this binary) searches with them (`TablebasePath`).
    /// Tables made under rules other than `--variant`/`--set` are refused.
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
    /// The rules of new games (`--variant`, `--set`); the page can change them.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Why the engines of `--engine` cannot be had.
#[derive(Debug, thiserror::Error)]
enum EnginesError {
    /// A word that is not `NAME=CMD`.
    #[error("--engine {0}: expected NAME=CMD")]
    NotNameCmd(String),
    /// This binary, the default engine, cannot be found.
    #[error("cannot find this binary: {0}")]
    NoExe(#[source] std::io::Error),
}

/// The engines of `--engine NAME=CMD` words, or this binary when none is given.
/// A word that is not `NAME=CMD` is a usage error; not finding this binary
/// is not the command line's fault. `--tablebases` is given to this
/// binary's engine as `TablebasePath`.
fn engines(args: &GuiArgs) -> Result<Vec<EngineSpec>, Failure> {
    let mut specs = Vec::new();
    for word in &args.engines {
        let (name, command) = word
            .split_once('=')
            .ok_or_else(|| Failure::usage(EnginesError::NotNameCmd(word.clone())))?;
        let spec = EngineSpec::parse(&[], &[format!("name={name}"), format!("cmd={command}")])
            .map_err(Failure::usage)?;
        specs.push(spec);
    }
    if specs.is_empty() {
        let this = gui::this_engine(args.tablebases.as_deref());
        specs.push(this.map_err(|e| Failure::input(EnginesError::NoExe(e)))?);
    }
    dedupe_names(&mut specs);
    Ok(specs)
}

/// Runs `doushou gui` until the process is ended.
pub fn run(args: &GuiArgs) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    // Loaded (and checked against the rules) before serving: a wrong
    // directory is said at once, as `doushou tb probe` says it.
    let tables = match &args.tablebases {
        Some(dir) => Some(TableSet::shared(dir, Some(rules))?),
        None => None,
    };
    let config = GuiConfig {
        host: args.host.clone(),
        port: args.port,
        engines: engines(args)?,
        rules,
        tables,
        open: args.open,
    };
    gui::serve(config).map_err(|e| match e {
        // A reader that went away before the address line ends it quietly.
        GuiError::Stdout(e) => Failure::Output(e),
        e => Failure::input(e),
    })
}
