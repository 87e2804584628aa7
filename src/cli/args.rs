//! The clap argument groups that more than one tool's command line takes: the
//! rule switches and the evaluation.

use crate::engine::Engine;
use crate::engine::eval::EvalKind;
use crate::engine::nnue;
use crate::rules::Rules;
use clap::Args;
use std::path::PathBuf;

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
        engine
            .set_options(&self.settings()?)
            .map_err(|e| e.to_string())
    }
}
