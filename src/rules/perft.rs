//! Perft with a per-root-move breakdown, parallel over root moves on request.

use super::game::Game;
use super::position::Move;
use rayon::prelude::*;

/// The leaf counts below each root move, and their total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftReport {
    /// Each legal root move with the leaves below it, in generation order.
    pub divide: Vec<(Move, u64)>,
    /// The sum of the leaves.
    pub nodes: u64,
}

/// Counts the leaves `depth` plies below the game's position, root move by root
/// move, on `threads` threads (rayon's global pool is not used, so the count of
/// threads is exactly what the caller asked).
pub fn perft_divide(game: &Game, depth: u32, threads: usize) -> PerftReport {
    let moves = game.legal_moves();
    let below = |m: &Move| {
        let mut g = game.clone();
        g.make(*m);
        (*m, g.perft(depth.saturating_sub(1)))
    };
    let divide: Vec<(Move, u64)> = if depth == 0 {
        Vec::new()
    } else if threads <= 1 {
        moves.iter().map(below).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(below).collect()),
            Err(_) => moves.iter().map(below).collect(),
        }
    };
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|&(_, n)| n).sum()
    };
    PerftReport { divide, nodes }
}
