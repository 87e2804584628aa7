//! The engine's options: every one declared once, in [`ENGINE_OPTIONS`], with
//! its name, kind, default and range, and how a value applies; the rule
//! options live in [`crate::rules::RULE_OPTIONS`].

use super::eval::EvalKind;
use super::nnue::{self, Network};
use super::params::SearchParams;
use super::search::Features;
use super::skill;
use crate::tb::TableSet;
use crate::util::options::{OptionError, OptionKind, Reason};
use std::sync::Arc;

/// The engine's own options (the rule options live in [`Rules`]).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads in all (lazy SMP); one is deterministic.
    pub threads: usize,
    /// Transposition table size, MB.
    pub hash_mb: usize,
    /// Lines to report (MultiPV), best first.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for transmission delays.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ponder (informational: `go ponder` works regardless).
    pub ponder: bool,
    /// Whether `info` carries `wdl`.
    pub show_wdl: bool,
    /// Search feature switches (the hidden `Search_*` options), for measuring
    /// each feature.
    pub features: Features,
    /// The static evaluation the search uses.
    pub eval: EvalKind,
    /// The network `EvalKind::Nnue` uses, shared with the search threads.
    pub net: Arc<Network>,
    /// Centipawns a draw costs the root side (see [`super::search::Shared::contempt`]).
    pub contempt: i32,
    /// The tunable search parameters (hidden options, [`super::params::PARAMS`]).
    pub params: SearchParams,
    /// `Skill Level`: 0 (weakest) to 20 (full strength), see [`super::skill`].
    pub skill_level: i32,
    /// `UCI_LimitStrength`: play at the level of `uci_elo` instead.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for under `limit_strength`.
    pub uci_elo: i32,
    /// The endgame tables (`TablebasePath`), if any.
    pub tablebases: Option<Arc<TableSet>>,
    /// Positions with more pieces are not looked up (`TablebaseMaxPieces`).
    pub tb_max_pieces: u32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            move_overhead_ms: 30,
            ponder: false,
            show_wdl: false,
            features: Features::default(),
            eval: EvalKind::DEFAULT,
            net: nnue::embedded(),
            contempt: DEFAULT_CONTEMPT,
            params: SearchParams::default(),
            skill_level: skill::FULL_STRENGTH,
            limit_strength: false,
            uci_elo: skill::ELO_MAX,
            tablebases: None,
            tb_max_pieces: 4,
        }
    }
}

/// The draw score's default offset: a draw is worth this much less than
/// equality to the side that searches (set by match, docs/strength.md).
pub const DEFAULT_CONTEMPT: i32 = 30;

/// One engine option: its name, its kind (with the default and range, from
/// the default options) and how a checked value applies to the options. The
/// one place an engine option is declared; `uci` lists them in this order,
/// before the rule options.
pub(super) struct EngineOption {
    /// The option's name, as `uci` lists it.
    pub(super) name: &'static str,
    /// Its kind, default and range, from the default options.
    pub(super) kind: fn(&EngineOptions) -> OptionKind,
    /// Stores a value, checked against `kind`, in the options.
    pub(super) apply: fn(&mut EngineOptions, &OptionKind, &str, &str) -> Result<(), OptionError>,
}

fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

/// A `spin` kind: an integer in `min..=max`.
pub(super) fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

/// The names of the engine options that other code sets or reads, each
/// written once: the table below and every tool use these.
pub mod name {
    /// Search threads.
    pub const THREADS: &str = "Threads";
    /// The transposition table's size, MB.
    pub const HASH: &str = "Hash";
    /// The button that empties the transposition table.
    pub const CLEAR_HASH: &str = "Clear Hash";
    /// Lines reported.
    pub const MULTIPV: &str = "MultiPV";
    /// The kind of evaluation.
    pub const EVAL: &str = "Eval";
    /// The net file.
    pub const EVAL_FILE: &str = "EvalFile";
    /// The playing strength by level.
    pub const SKILL_LEVEL: &str = "Skill Level";
    /// Whether `UCI_Elo` limits the strength.
    pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
    /// The playing strength by Elo.
    pub const ELO: &str = "UCI_Elo";
    /// The tablebases' directory.
    pub const TABLEBASE_PATH: &str = "TablebasePath";
    /// Time kept in reserve per move.
    pub const MOVE_OVERHEAD: &str = "Move Overhead";
}

/// A `check` option stored in a field of [`EngineOptions`].
macro_rules! check_option {
    ($name:expr, $($field:ident).+) => {
        EngineOption {
            name: $name,
            kind: |d| check(d.$($field).+),
            apply: |o, kind, name, value| {
                o.$($field).+ = kind.parse_bool(name, value)?;
                Ok(())
            },
        }
    };
}

/// A `spin` option in `min..=max` stored in a field of [`EngineOptions`].
macro_rules! spin_option {
    ($name:expr, $field:ident as $ty:ty, $min:expr, $max:expr) => {
        EngineOption {
            name: $name,
            kind: |d| spin(d.$field as i64, $min, $max),
            apply: |o, kind, name, value| {
                o.$field = kind.parse_int(name, value)? as $ty;
                Ok(())
            },
        }
    };
}

/// A `string` option naming a file that `$load` reads at once into a field of
/// [`EngineOptions`] (so a bad file is refused when set, not at the next
/// search); `$default` is the value `uci` shows, one that means "none".
macro_rules! string_option {
    ($name:expr, $field:ident, $load:path, $default:expr) => {
        EngineOption {
            name: $name,
            kind: |_| OptionKind::String { default: $default },
            apply: |o, _, _, value| {
                o.$field = $load(value)?;
                Ok(())
            },
        }
    };
}

/// Every engine option, in the order `uci` lists them.
pub(super) const ENGINE_OPTIONS: [EngineOption; 15] = [
    spin_option!(name::THREADS, threads as usize, 1, 256),
    spin_option!(name::HASH, hash_mb as usize, 1, 65536),
    EngineOption {
        name: name::CLEAR_HASH,
        kind: |_| OptionKind::Button,
        // Clearing is done by set_option, which knows the table.
        apply: |_, _, _, _| Ok(()),
    },
    spin_option!(name::MULTIPV, multipv as usize, 1, 32),
    spin_option!(name::MOVE_OVERHEAD, move_overhead_ms as u64, 0, 5000),
    check_option!("Ponder", ponder),
    check_option!("UCI_ShowWDL", show_wdl),
    spin_option!("Contempt", contempt as i32, -1000, 1000),
    EngineOption {
        name: name::EVAL,
        kind: |d| OptionKind::Combo {
            default: d.eval.name(),
            choices: &EvalKind::NAMES,
        },
        apply: |o, kind, name, value| {
            o.eval = EvalKind::ALL[kind.parse_choice(name, value)?];
            Ok(())
        },
    },
    string_option!(name::EVAL_FILE, net, load_net, EMBEDDED_NET[1]),
    spin_option!(
        name::SKILL_LEVEL,
        skill_level as i32,
        0,
        skill::FULL_STRENGTH as i64
    ),
    check_option!(name::LIMIT_STRENGTH, limit_strength),
    spin_option!(
        name::ELO,
        uci_elo as i32,
        skill::ELO_MIN as i64,
        skill::ELO_MAX as i64
    ),
    string_option!(name::TABLEBASE_PATH, tablebases, load_tables, NO_TABLES[1]),
    spin_option!("TablebaseMaxPieces", tb_max_pieces as u32, 0, 8),
];

/// The search's feature switches: hidden options, set like any other but
/// listed by `uci` only in a build with the `tune` feature (with the
/// search parameters), for matches that measure a feature by turning it off.
pub(super) const SEARCH_SWITCHES: [EngineOption; 7] = [
    check_option!("Search_TT", features.tt_cutoffs),
    check_option!("Search_LMR", features.lmr),
    check_option!("Search_Futility", features.futility),
    check_option!("Search_LateMovePruning", features.late_move_pruning),
    check_option!("Search_IIR", features.iir),
    check_option!("Search_HistoryLMR", features.history_lmr),
    check_option!("Search_Breadcrumbs", features.breadcrumbs),
];

/// The `TablebasePath` values that mean no tables.
const NO_TABLES: [&str; 2] = ["", "<empty>"];

/// The tables a `TablebasePath` value names: none, or every table in the
/// directory, read now (made under one set of rules, which the search checks).
fn load_tables(value: &str) -> Result<Option<Arc<TableSet>>, OptionError> {
    let path = value.trim();
    if NO_TABLES.contains(&path) {
        return Ok(None);
    }
    let set =
        TableSet::shared(std::path::Path::new(path), None).map_err(|e| OptionError::Refused {
            name: name::TABLEBASE_PATH.to_string(),
            value: path.to_string(),
            reason: Reason::new(e),
        })?;
    log::info!("{}: {path}: {set:?}", name::TABLEBASE_PATH);
    Ok(Some(set))
}

/// The `EvalFile` values that mean the net built into the binary.
const EMBEDDED_NET: [&str; 2] = ["", "<default>"];

/// The engine option called `name` (any case, surrounding blanks ignored),
/// a search switch included.
pub(super) fn engine_option(name: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS
        .iter()
        .chain(&SEARCH_SWITCHES)
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

/// The net an `EvalFile` value names: the embedded one, or a file read now.
fn load_net(value: &str) -> Result<Arc<Network>, OptionError> {
    let path = value.trim();
    if EMBEDDED_NET.contains(&path) {
        return Ok(nnue::embedded());
    }
    let net = nnue::load(std::path::Path::new(path)).map_err(|e| OptionError::Refused {
        name: name::EVAL_FILE.to_string(),
        value: path.to_string(),
        reason: Reason::new(e),
    })?;
    log::info!(
        "{}: {path} (H {}): {}",
        name::EVAL_FILE,
        net.hidden(),
        net.description()
    );
    Ok(Arc::new(net))
}

#[cfg(test)]
mod tests {
    use crate::engine::Engine;
    use crate::util::options::OptionKind;

    #[test]
    fn the_hidden_options_are_listed_only_by_a_tune_build_and_set_by_any() {
        let listed: Vec<&str> = Engine::option_list().iter().map(|(n, _)| *n).collect();
        let hidden = Engine::hidden_options();
        assert!(hidden.iter().any(|(n, _)| n.starts_with("Search_")));
        let mut engine = Engine::new();
        for (name, kind) in hidden {
            assert_eq!(listed.contains(&name), cfg!(feature = "tune"), "{name}");
            let value = match kind {
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Spin { default, .. } => default.to_string(),
                other => panic!("{name}: {other:?}"),
            };
            engine.set_option(name, Some(&value)).unwrap();
        }
    }
}
