//! `doushou tb generate|probe|convert`: endgame tablebases from the command line (the
//! work is in [`crate::tb`]; docs/tablebases.md).
//!
//! Exit code of `probe`: 0 when every position was answered, 1 when some were
//! invalid (each gets an `error:` line in its place) or the tables were
//! refused, 2 for a usage error (a directory that cannot be read or holds no
//! table among them); `generate` and `convert` alike (`impl From<TbError> for
//! Failure`).

use super::args::RulesArgs;
use super::exit::{Failure, write_out};
use crate::rules::{Game, Move, Position, Rules};
use crate::tb::{self, HistoryVerdict, Material, ProofMemory, TableSet};
use clap::{Args, Subcommand};
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `doushou tb`.
#[derive(Args, Debug)]
pub struct TbArgs {
    /// What to do: generate tables or probe them.
    #[command(subcommand)]
    pub action: TbAction,
}

/// The two actions of `doushou tb`.
#[derive(Subcommand, Debug)]
pub enum TbAction {
    /// Solve every ending of up to N pieces (or the materials named), one file
    /// per material in DIR; files already there and valid are kept.
    Generate(GenerateArgs),
    /// Print the tables' verdict for each position: win N, loss N, draw or none.
    Probe(ProbeArgs),
    /// Convert the table files of format version 1 in DIR to version 2, in place.
    Convert(ConvertArgs),
}

/// Arguments of `doushou tb convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The directory of the table files.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Arguments of `doushou tb generate`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["max_pieces", "material"])))]
pub struct GenerateArgs {
    /// Every material with this many pieces or fewer, each side having one.
    #[arg(long, value_parser = super::args::whole::<u32>(2, 4))]
    pub max_pieces: Option<u32>,
    /// A material to solve (with what it needs): Red's animals, v, Blue's,
    /// e.g. `ELvr`. May be repeated, or a comma-separated list (as a
    /// Kubernetes Job passes one from its environment).
    #[arg(long, value_name = "SPEC", value_delimiter = ',')]
    pub material: Vec<String>,
    /// The directory of the table files.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Threads, 1 to 256 (default: every core).
    #[arg(long, value_parser = super::args::threads())]
    pub threads: Option<usize>,
    /// This machine's part, `I/N` (0-based): the I-th of N blocks of the
    /// materials asked for (their smaller dependencies are made or read as
    /// needed). `env/N` reads I from `JOB_COMPLETION_INDEX`.
    #[arg(long, default_value = "0/1", value_name = "I/N")]
    pub shard: String,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Arguments of `doushou tb probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The directory of the table files.
    #[arg(long, value_name = "DIR")]
    pub path: PathBuf,
    /// Positions (each a quoted FEN); `-` reads one per line from standard input.
    #[arg(value_name = "FEN", required = true)]
    pub positions: Vec<String>,
    /// For each table draw under `Repetition=forbid`, also prove what the
    /// game's history makes of it, in at most NODES positions: `draw
    /// history won (N positions); winning: MOVES`, `held ...; holding:
    /// MOVES; losing: MOVES` (the moves proven to hold and to lose the
    /// draw; `; a win not refuted` where the budget left the side to
    /// move's win open), `lost ...` or
    /// `unknown ...; losing: MOVES`. A position may then be followed by `moves ...`,
    /// the game that led to it (its history). What one line's proof
    /// settled serves the next, as far as `--proof-memory` keeps it.
    #[arg(long, value_name = "NODES", value_parser = super::args::positive::<u64>())]
    pub history: Option<u64>,
    /// The memory of the `--history` proof, in MiB, at most (17 bytes a
    /// position, a power of two of them): by default room for twice NODES
    /// positions, at most 4096 MiB. The proof takes it as it grows, and
    /// goes on past what it holds, searching again what it gave up.
    #[arg(long, value_name = "MIB", requires = "history",
          value_parser = super::args::whole::<u64>(1, 1 << 24))]
    pub proof_memory: Option<u64>,
    /// The rules in force (`--variant`, `--set`).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs `doushou tb`; answers the exit code when it ran to the end (1 when a
/// probed position was invalid), or why it stopped.
pub fn run(args: &TbArgs) -> Result<i32, Failure> {
    match &args.action {
        TbAction::Generate(a) => generate(a).map(|()| 0),
        TbAction::Probe(a) => probe(a),
        TbAction::Convert(a) => {
            let converted = tb::convert_dir(&a.dir)?;
            eprintln!(
                "tb: {} files converted to format version {}",
                converted.len(),
                tb::VERSION
            );
            Ok(0)
        }
    }
}

fn generate(args: &GenerateArgs) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    let shard = super::args::parse_shard(&args.shard)?;
    let named = (args.material.iter())
        .map(|spec| spec.parse::<Material>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::usage)?;
    let mine = tb::shard_of(tb::targets(args.max_pieces, &named), shard);
    let threads = args.threads.unwrap_or_else(crate::util::pool::every_core);
    let start = Instant::now();
    let (mut made, mut total_bytes) = (0, 0u64);
    tb::generate_on(threads, &args.out, rules, &mine, |g| {
        total_bytes += g.bytes;
        if !g.skipped {
            made += 1;
        }
        eprintln!(
            "tb: {:<8} {:>10} bytes, longest win {:>3}, {}",
            g.material.to_string(),
            g.bytes,
            g.longest,
            if g.skipped {
                "kept (valid file found)".to_string()
            } else {
                format!("made in {:.2} s", g.seconds)
            }
        );
    })?;
    eprintln!(
        "tb: {made} tables made, {total_bytes} bytes in all, {:.1} s on {threads} threads",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Why `tb probe` stopped before its last position.
#[derive(Debug, thiserror::Error)]
enum ProbeError {
    /// Standard input could not be read.
    #[error("reading standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// The system refused the memory `--proof-memory` asked for.
    #[error("the proof's memory (--proof-memory): {0}")]
    ProofMemory(#[source] std::collections::TryReserveError),
}

fn probe(args: &ProbeArgs) -> Result<i32, Failure> {
    let rules = args.rules.rules()?;
    let set = TableSet::load(&args.path, rules)?;
    let mut code = 0;
    // States are exact: what one line's proof settled serves the next.
    let mut memory = ProofMemory::checked(proof_states(args))
        .map_err(|source| Failure::input(ProbeError::ProofMemory(source)))?;
    let mut answer = |text: &str| match probe_line(&set, rules, text, args.history, &mut memory) {
        Ok(verdict) => write_out(&format!("{verdict}\n")),
        Err(e) => {
            code = 1;
            write_out(&format!("error: {e}\n"))
        }
    };
    for p in &args.positions {
        if p == "-" {
            for line in std::io::stdin().lock().lines() {
                let line = line.map_err(|source| Failure::input(ProbeError::Stdin(source)))?;
                if !line.trim().is_empty() {
                    answer(&line)?;
                }
            }
        } else {
            answer(p)?;
        }
    }
    Ok(code)
}

/// The states the `--history` proof's memory holds (see
/// [`ProbeArgs::proof_memory`]).
fn proof_states(args: &ProbeArgs) -> usize {
    const MIB: u64 = 1 << 20;
    let bytes = match (args.proof_memory, args.history) {
        (Some(mib), _) => mib.saturating_mul(MIB),
        // Twice the positions: a memory half full begins to give some up.
        (None, nodes) => (nodes
            .unwrap_or(0)
            .saturating_mul(2 * tb::STATE_BYTES as u64))
        .min(4096 * MIB),
    };
    usize::try_from(bytes / tb::STATE_BYTES as u64).unwrap_or(usize::MAX)
}

/// A line on standard error every 4 M positions of a `--history` proof
/// (some 5 to 10 seconds), so that a long one shows it is working.
const PROOF_PROGRESS: tb::Progress = tb::Progress {
    every: 1 << 22,
    report: |positions| eprintln!("tb probe: the history proof has searched {positions} positions"),
};

/// The answer of `tb probe` for one line: a FEN, or with `history` (a node
/// budget) a FEN and the moves of the game that led to it, proven with
/// what `memory` kept of the lines before.
fn probe_line(
    set: &TableSet,
    rules: Rules,
    text: &str,
    history: Option<u64>,
    memory: &mut ProofMemory,
) -> Result<String, String> {
    let text = text.trim();
    let Some(nodes) = history else {
        let pos = text.parse::<Position>().map_err(|e| e.to_string())?;
        return Ok(set
            .probe(&pos)
            .map_or("none".to_string(), |v| v.to_string()));
    };
    let (fen, moves) = text.split_once(" moves ").unwrap_or((text, ""));
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let game = Game::from_fen_and_moves(rules, fen, &moves).map_err(|e| e.to_string())?;
    let Some(verdict) = set.probe(game.position()) else {
        return Ok("none".to_string());
    };
    if !tb::unsettled_by_tables(set, &game, game.position()) {
        return Ok(verdict.to_string());
    }
    let budget = tb::ProofBudget {
        positions: nodes,
        deadline: None,
        progress: Some(PROOF_PROGRESS),
    };
    let (found, spent) = tb::under_history(set, &game, budget, memory);
    let listed = |moves: &[Move]| {
        let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    };
    let head = format!("{verdict} history {} ({spent} positions)", found.word());
    Ok(match found {
        HistoryVerdict::Won(m) => format!("{head}; winning: {}", listed(&m)),
        HistoryVerdict::Held {
            losing,
            holding,
            may_win,
        } => format!(
            "{head}; holding: {}; losing: {}{}",
            listed(&holding),
            listed(&losing),
            if may_win { "; a win not refuted" } else { "" }
        ),
        HistoryVerdict::Lost => head,
        HistoryVerdict::Unknown { losing } => format!("{head}; losing: {}", listed(&losing)),
    })
}
