//! Perft with a per-root-move breakdown, parallel over root moves on request.

use super::game::Game;
use super::position::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

impl Game {
    /// Leaf count of the legal move tree `depth` plies deep, the history included.
    /// Perft does not stop at draws; a decided position has no moves.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let never = std::sync::atomic::AtomicBool::new(false);
        perft_until(self, depth, &never).unwrap_or(0)
    }
}

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
    perft_divide_until(game, depth, threads, &AtomicBool::new(false))
        .expect("a flag never set stops nothing")
}

/// [`perft_divide`] that gives up (`None`) soon after `stop` is set: a count
/// the user asked for on the protocol can be interrupted.
pub fn perft_divide_until(
    game: &Game,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<PerftReport> {
    let moves = game.legal_moves();
    let below = |m: &Move| {
        let mut g = game.clone();
        g.make(*m);
        (
            *m,
            perft_until(&mut g, depth.saturating_sub(1), stop).unwrap_or(0),
        )
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
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|&(_, n)| n).sum()
    };
    Some(PerftReport { divide, nodes })
}

/// The leaves `depth` plies below the game's position, or `None` if `stop`
/// was set before the count was done (it is looked at in every inner node, so
/// the count ends soon after).
pub fn perft_until(game: &mut Game, depth: u32, stop: &AtomicBool) -> Option<u64> {
    fn count(game: &mut Game, depth: u32, stop: &AtomicBool) -> u64 {
        match depth {
            0 => 1,
            1 => game.count_legal_moves(),
            _ if stop.load(Ordering::Relaxed) => 0,
            _ => {
                let moves = game.legal_moves();
                let mut total = 0;
                for &m in moves.iter() {
                    game.make(m);
                    total += count(game, depth - 1, stop);
                    game.unmake();
                }
                total
            }
        }
    }
    let total = count(game, depth, stop);
    (!stop.load(Ordering::Relaxed)).then_some(total)
}
