//! Makes `bench-positions/openings.txt`, the match runner's default openings:
//! positions a few random plies from the start, each new (no transposition of
//! another kept one) and balanced under both presets (a fixed-node search
//! scores it within the band under `jungle` and under `xoudouqi`). The
//! candidates are a function of the seed alone and are scored on every core,
//! so a run gives the same file whatever the machine. Its output is committed:
//!
//! ```text
//! cargo run --release --example gen_openings -- --count 3000 > bench-positions/openings.txt
//! ```

use clap::Parser;
use doushou::engine::score::Score;
use doushou::engine::search::Silent;
use doushou::engine::{Engine, GoLimits, option};
use doushou::rules::{Game, Position, Rules, START_FEN};
use doushou::util::rng::SplitMix64;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::cell::RefCell;

/// The command line.
#[derive(Parser, Debug)]
struct Args {
    /// Openings to keep.
    #[arg(long, default_value_t = 3000)]
    count: usize,
    /// Fewest random plies from the start.
    #[arg(long, default_value_t = 4)]
    min_plies: usize,
    /// Most random plies from the start.
    #[arg(long, default_value_t = 12)]
    max_plies: usize,
    /// Nodes of the search that scores a candidate, under each preset.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// The largest score, centipawns for either side, an opening may have.
    #[arg(long, default_value_t = 50)]
    band: i32,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 14_355_143_860_262)]
    seed: u64,
}

/// Candidates scored at once: enough to keep both cores busy, few enough
/// that little is scored past the count.
const BATCH: usize = 256;

/// The presets an opening must be balanced under.
const PRESETS: [Rules; 2] = [Rules::JUNGLE, Rules::XOUDOUQI];

thread_local! {
    /// One engine per scoring thread, made on first use.
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

fn main() {
    let args = Args::parse();
    if args.min_plies == 0 || args.min_plies > args.max_plies || args.count == 0 {
        eprintln!("gen_openings: need 1 <= --min-plies <= --max-plies and --count >= 1");
        std::process::exit(2);
    }
    let mut rng = SplitMix64::new(args.seed);
    let mut seen = FxHashSet::default();
    let mut kept: Vec<String> = Vec::new();
    let mut tried = 0usize;
    while kept.len() < args.count {
        let batch: Vec<Vec<String>> =
            std::iter::repeat_with(|| candidate(&args, &mut rng, &mut seen))
                .take(BATCH)
                .flatten()
                .collect();
        let balanced: Vec<bool> = batch
            .par_iter()
            .map(|moves| is_balanced(moves, &args))
            .collect();
        tried += batch.len();
        for (moves, ok) in batch.into_iter().zip(balanced) {
            if ok && kept.len() < args.count {
                kept.push(moves.join(" "));
            }
        }
        eprintln!("gen_openings: {} kept of {tried} tried", kept.len());
    }
    println!("# Default openings of `doushou match`: moves from the start position, one");
    println!("# opening a line, each played twice with colours swapped. Made by");
    println!(
        "# `cargo run --release --example gen_openings -- --count {} --min-plies {} --max-plies {} --nodes {} --band {} --seed {}`:",
        args.count, args.min_plies, args.max_plies, args.nodes, args.band, args.seed
    );
    println!(
        "# {} to {} random legal plies, kept when the game is open, the position is",
        args.min_plies, args.max_plies
    );
    println!(
        "# no transposition of one kept before, and a {}-node search scores it within",
        args.nodes
    );
    println!(
        "# +-{} cp under both presets (jungle, xoudouqi); {} kept of {tried} tried.",
        args.band,
        kept.len()
    );
    println!(
        "# Regenerate only on purpose: match results are comparable only over the same openings."
    );
    for line in kept {
        println!("{line}");
    }
}

/// The next candidate: random legal plies from the start, or `None` where the
/// game ended or the position was met before (by any move order).
fn candidate(args: &Args, rng: &mut SplitMix64, seen: &mut FxHashSet<u64>) -> Option<Vec<String>> {
    let plies = args.min_plies + rng.below(args.max_plies - args.min_plies + 1);
    let mut game = Game::new(Rules::default(), Position::startpos());
    let mut moves = Vec::new();
    while moves.len() < plies && game.outcome().is_none() {
        let legal = game.legal_moves();
        let m = legal[rng.below(legal.len())];
        game.make(m);
        moves.push(m.to_string());
    }
    let open = game.outcome().is_none() && moves.len() == plies;
    (open && seen.insert(game.position().key())).then_some(moves)
}

/// Whether the search scores the position after `moves` within the band
/// under every preset (a move not legal under one counts as unbalanced).
fn is_balanced(moves: &[String], args: &Args) -> bool {
    ENGINE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let engine = cell.get_or_insert_with(new_engine);
        PRESETS.iter().all(|rules| {
            score(engine, rules, moves, args.nodes).is_some_and(|cp| cp.abs() <= args.band)
        })
    })
}

/// An engine with one thread and a small table.
fn new_engine() -> Engine {
    let mut engine = Engine::new();
    for (name, value) in [(option::THREADS, "1"), (option::HASH, "16")] {
        if let Err(e) = engine.set_option(name, Some(value)) {
            eprintln!("gen_openings: {name}: {e}");
            std::process::exit(1);
        }
    }
    engine
}

/// The search's score in centipawns for the side to move, `None` for a mate
/// score or a position the rules refuse.
fn score(engine: &mut Engine, rules: &Rules, moves: &[String], nodes: u64) -> Option<i32> {
    for (name, value) in rules.settings() {
        engine.set_option(name, Some(&value)).ok()?;
    }
    engine.new_game();
    engine.set_position(START_FEN, moves).ok()?;
    let limits = GoLimits {
        nodes: Some(nodes),
        ..GoLimits::default()
    };
    match Score::from_internal(engine.search(&limits, &Silent).ok()?.score) {
        Score::Cp(cp) => Some(cp),
        _ => None,
    }
}
