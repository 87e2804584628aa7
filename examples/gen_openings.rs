//! Makes `bench-positions/openings.txt`, the match runner's default openings:
//! positions a few random plies from the start (deterministic SplitMix64 seed),
//! kept only if open (no result yet, each one new) and balanced (a fixed-depth
//! search scores them within ±SCORE_LIMIT centipawns). Run once; its output is
//! committed:
//!
//! ```text
//! cargo run --release --example gen_openings > bench-positions/openings.txt
//! ```

use doushou::engine::score::Score;
use doushou::engine::search::Silent;
use doushou::engine::{Engine, GoLimits};
use doushou::rules::{Game, Position, Rules};
use doushou::util::rng::SplitMix64;

/// How many openings.
const COUNT: usize = 50;
/// The seed of the random plies.
const SEED: u64 = 0x0D0E_5140_2025;
/// Depth of the balance check.
const DEPTH: u32 = 8;
/// The largest score (either side) an opening may have.
const SCORE_LIMIT: i32 = 60;

fn main() {
    let rules = Rules::default();
    let mut rng = SplitMix64::new(SEED);
    let mut engine = Engine::new();
    let _ = engine.set_option("Hash", Some("16"));
    let mut kept: Vec<Vec<String>> = Vec::new();
    println!("# Default openings of `doushou match`: moves from the start position, one");
    println!("# opening a line, each played twice with colours swapped. Made by");
    println!("# `cargo run --release --example gen_openings` (seed {SEED:#x}): 6 to 8 random");
    println!("# legal plies, kept when the game is open and a depth-{DEPTH} search scores the");
    println!("# position within +-{SCORE_LIMIT} cp. Regenerate only on purpose: match results");
    println!("# are comparable only over the same openings.");
    while kept.len() < COUNT {
        let plies = 6 + rng.below(3);
        let mut game = Game::new(rules, Position::startpos());
        let mut moves = Vec::new();
        while moves.len() < plies && game.outcome().is_none() {
            let legal = game.legal_moves();
            let m = legal[rng.below(legal.len())];
            game.make(m);
            moves.push(m.to_string());
        }
        if game.outcome().is_some() || kept.contains(&moves) {
            continue;
        }
        engine.new_game();
        if engine.set_position(&game_start(), &moves).is_err() {
            continue;
        }
        let limits = GoLimits {
            depth: Some(DEPTH),
            ..GoLimits::default()
        };
        let Ok(result) = engine.search(&limits, &Silent) else {
            continue;
        };
        match Score::from_internal(result.score) {
            Score::Cp(cp) if cp.abs() <= SCORE_LIMIT => {
                println!("{}", moves.join(" "));
                kept.push(moves);
            }
            _ => {}
        }
    }
}

fn game_start() -> String {
    doushou::rules::START_FEN.to_string()
}
