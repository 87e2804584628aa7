//! `doushou tb generate|probe|info|convert`: endgame tablebases from the
//! command line (the work is in [`crate::tb`]; docs/tablebases.md).
//!
//! Exit code of `probe`: 0 when every position was answered, 1 when some were
//! invalid (each gets an `error:` line in its place) or the tables were
//! refused, 2 for a usage error (a directory that cannot be read or holds no
//! table among them); `generate` and `convert` alike (`impl From<TbError> for
//! Failure`).

use super::args::RulesArgs;
use super::exit::{Failure, write_out};
use crate::rules::{FenError, Game, GameError, Move, Position, Rules};
use crate::tb::{self, Material, ProofMemory, ProofVerdict, TableSet};
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
    /// Describe the tables in DIR from their headers: per material its
    /// positions won, drawn and lost, longest win and size, then totals.
    Info(InfoArgs),
    /// Convert the table files of format version 1 in DIR to version 2, in place.
    Convert(ConvertArgs),
}

/// Arguments of `doushou tb info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The directory of the table files.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
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
        TbAction::Info(a) => info(a),
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

/// Prints `tb info`: a line per table file, a line per class of material
/// (pieces a side) and one for them all; a file refused is named on
/// stderr with why, and the exit code is then 1.
fn info(args: &InfoArgs) -> Result<i32, Failure> {
    let mut code = 0;
    let mut classes: std::collections::BTreeMap<(u32, String), InfoTotal> = Default::default();
    let mut all = InfoTotal::default();
    let files = tb::table_files(&args.dir)?;
    write_out(&format!(
        "{:<10} {:>12} {:>7} {:>7} {:>7} {:>14} {:>12}\n",
        "material", "positions", "won", "drawn", "lost", "longest win", "bytes"
    ))?;
    for path in files {
        let (header, bytes) = match tb::read_header(&path) {
            Ok(read) => read,
            Err(e) => {
                eprintln!("tb info: {e}");
                code = 1;
                continue;
            }
        };
        let total = InfoTotal::of(&header, bytes);
        write_out(&total.row(&header.material.to_string()))?;
        let material = header.material.to_string();
        let (red, blue) = material.split_once('v').unwrap_or((&material, ""));
        let class = format!("{}v{}", red.len(), blue.len());
        let pieces = (red.len() + blue.len()) as u32;
        classes.entry((pieces, class)).or_default().add(&total);
        all.add(&total);
    }
    for ((_, class), total) in &classes {
        write_out(&total.row(&format!("{class} ({})", total.tables)))?;
    }
    write_out(&all.row(&format!("all ({})", all.tables)))?;
    Ok(code)
}

/// What `tb info` adds up over tables.
#[derive(Clone, Debug, Default)]
struct InfoTotal {
    /// Tables counted.
    tables: usize,
    /// Positions won, drawn and lost for the side to move.
    counts: [u64; 3],
    /// The longest win, plies, and the material it is in.
    longest: (u16, String),
    /// Bytes on disk.
    bytes: u64,
}

impl InfoTotal {
    /// One table's figures from its header and size.
    fn of(header: &tb::Header, bytes: u64) -> InfoTotal {
        InfoTotal {
            tables: 1,
            counts: header.counts,
            longest: (header.longest, header.material.to_string()),
            bytes,
        }
    }

    /// Adds `other` in.
    fn add(&mut self, other: &InfoTotal) {
        self.tables += other.tables;
        for (sum, n) in self.counts.iter_mut().zip(other.counts) {
            *sum += n;
        }
        self.longest = self.longest.clone().max(other.longest.clone());
        self.bytes += other.bytes;
    }

    /// The line of `tb info` for these figures under `label`: positions,
    /// won, drawn and lost with their shares, the longest win (and, for a
    /// sum of several tables, its material) and the size.
    fn row(&self, label: &str) -> String {
        let positions: u64 = self.counts.iter().sum();
        let share = |n: u64| format!("{:.1}%", 100.0 * n as f64 / positions.max(1) as f64);
        let longest = if self.tables > 1 {
            format!("{} {}", self.longest.0, self.longest.1)
        } else {
            self.longest.0.to_string()
        };
        format!(
            "{label:<10} {positions:>12} {:>7} {:>7} {:>7} {longest:>14} {:>12}\n",
            share(self.counts[0]),
            share(self.counts[1]),
            share(self.counts[2]),
            self.bytes
        )
    }
}

/// Why `tb probe` answers a line with an error.
#[derive(Debug, thiserror::Error)]
enum LineError {
    /// The line is no position.
    #[error(transparent)]
    Position(#[from] FenError),
    /// The position or a move of its game is refused.
    #[error(transparent)]
    Game(#[from] GameError),
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
) -> Result<String, LineError> {
    let text = text.trim();
    let Some(nodes) = history else {
        let pos = text.parse::<Position>()?;
        return Ok(set
            .probe(&pos)
            .map_or("none".to_string(), |v| v.to_string()));
    };
    let (fen, moves) = text.split_once(" moves ").unwrap_or((text, ""));
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let game = Game::from_fen_and_moves(rules, fen, &moves)?;
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
    let question = tb::Question::Verdict;
    let (found, spent) = tb::prove_under_history(set, &game, question, budget, memory);
    let listed = |moves: &[Move]| {
        let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    };
    let head = format!("{verdict} history {} ({spent} positions)", found.word());
    Ok(match found {
        ProofVerdict::Won(m) => format!("{head}; winning: {}", listed(&m)),
        ProofVerdict::Held {
            losing,
            holding,
            may_win,
        } => format!(
            "{head}; holding: {}; losing: {}{}",
            listed(&holding),
            listed(&losing),
            if may_win { "; a win not refuted" } else { "" }
        ),
        ProofVerdict::Lost | ProofVerdict::NotWon => head,
        ProofVerdict::Unknown { losing } => format!("{head}; losing: {}", listed(&losing)),
    })
}
