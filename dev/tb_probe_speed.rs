//! Probes per second on random positions of the tables in a directory: the
//! figure docs/tablebases.md gives for the format.
//!
//! `cargo run --release --example tb_probe_speed -- DIR [MATERIAL...] [--probes N] [--walk]`
//!
//! `N` positions (default 1,000,000) of the materials named (default: every
//! table of the directory), drawn with a fixed seed, are probed once each.
//! Without `--walk` each is drawn at random from a material's index: no two
//! probes are likely to share a block, the worst case for a compressed table.
//! With `--walk` each is a random quiet move from the one before (a random
//! position when the game is over), as a search meets them.

use doushou::rules::Rules;
use doushou::tb::{Indexer, Material, TableSet};
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut probes = 1_000_000usize;
    if let Some(k) = args.iter().position(|a| a == "--probes") {
        probes = args[k + 1].parse().expect("--probes N");
        args.drain(k..k + 2);
    }
    let walk = args.iter().any(|a| a == "--walk");
    args.retain(|a| a != "--walk");
    let dir = std::path::PathBuf::from(args.remove(0));
    let set = TableSet::load(&dir, Rules::JUNGLE).expect("the tables");
    let materials: Vec<Material> = if args.is_empty() {
        set.infos().iter().map(|t| t.material).collect()
    } else {
        args.iter()
            .map(|a| a.parse().expect("a material"))
            .collect()
    };
    // xorshift64: a fixed sequence, no dependency for it.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut positions = Vec::with_capacity(probes);
    let mut sq = [0u8; 16];
    while positions.len() < probes {
        let m = materials[next() as usize % materials.len()];
        let ix = Indexer::new(m);
        let i = next() as usize % ix.size();
        let Some(side) = ix.decode(i, &mut sq) else {
            continue;
        };
        let mut pos = ix.position(&sq[..ix.pieces().len()], side);
        positions.push(pos);
        while walk && positions.len() < probes && !pos.is_decided() {
            let quiet: Vec<_> = pos
                .generate(&Rules::JUNGLE)
                .iter()
                .copied()
                .filter(|&m| !pos.is_capture(m))
                .collect();
            if quiet.is_empty() {
                break;
            }
            pos.make(quiet[next() as usize % quiet.len()]);
            positions.push(pos);
        }
    }
    let start = Instant::now();
    let mut found = 0usize;
    for pos in &positions {
        found += set.probe(pos).is_some() as usize;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} probes ({} answered) in {:.3} s: {:.0} probes/s",
        positions.len(),
        found,
        seconds,
        positions.len() as f64 / seconds
    );
}
