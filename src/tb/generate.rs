//! Retrograde analysis of one material (`doushou tb generate`, docs/tablebases.md).
//!
//! Every position's moves are sorted into three kinds: den entries (a win in
//! one), captures (whose value the smaller material's table already holds) and
//! quiet moves within the material (unknown at first). Then, by distance
//! `d = 0, 1, 2, ...`, the positions decided at `d` are settled, and their
//! predecessors found by taking a quiet move back:
//!
//! - a loss at `d` makes each predecessor a win at `d + 1`, unless it has won
//!   sooner;
//! - a win at `d` counts down its predecessors' unknown children; one left with
//!   none, and no drawing or winning capture, is a loss at the longest distance
//!   of its children plus one.
//!
//! What remains at the end is drawn. Distances therefore are exact: the winner
//! the shortest, the loser the longest. A position and its mirror image (files
//! a<->g) share one entry, so children and predecessors are counted as
//! distinct entries, never as moves.

use super::error::TbError;
use super::file::{self, file_name, rules_signature};
use super::index::{Indexer, Material, mirror_file};
use super::set::TableSet;
use super::verdict::{MAX_DISTANCE, NO_POSITION, Verdict};
use crate::rules::{Animal, DEN, Piece, Rules, Side, Square, jump_targets, squares, step_targets};
use rayon::prelude::*;
use std::path::Path;

/// Marks, in `ext_max`, a position that has a drawing or winning capture.
const CANNOT_LOSE: u8 = 255;

/// Every material that `targets` need, smallest first: each target and,
/// recursively, every material one capture away with pieces on both sides.
pub fn with_dependencies(targets: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if all.contains(&m) {
            continue;
        }
        all.push(m);
        stack.extend(one_capture_away(m));
    }
    all.sort_by_key(|m| (m.count(), std::cmp::Reverse(m.key())));
    all
}

/// What [`generate`] did with one material.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The material (stored form) this report is about.
    pub material: Material,
    /// Whether a valid file was there already (and was read, not made).
    pub skipped: bool,
    /// Seconds spent making it (0 when skipped).
    pub seconds: f64,
    /// Its file's size in bytes.
    pub bytes: u64,
    /// Its longest win, plies.
    pub longest: u16,
}

/// The materials asked for, in their stored form, each once: every one of
/// `max_pieces` pieces or fewer (each side having one), then those `named`.
pub fn targets(max_pieces: Option<u32>, named: &[Material]) -> Vec<Material> {
    let mut targets: Vec<Material> = Vec::new();
    for k in 2..=max_pieces.unwrap_or(0) {
        targets.extend(Material::all_canonical(k));
    }
    for m in named {
        if !targets.contains(&m.canonical()) {
            targets.push(m.canonical());
        }
    }
    targets
}

/// The materials shard `index` of `count` makes: the largest materials
/// asked for are split in `count` consecutive blocks; the smaller ones are
/// the dependencies every shard makes or reads, so shard 0 makes them first.
pub fn shard_of(targets: Vec<Material>, (index, count): (usize, usize)) -> Vec<Material> {
    let top = targets.iter().map(|m| m.count()).max().unwrap_or(0);
    let (small, large): (Vec<Material>, Vec<Material>) =
        targets.into_iter().partition(|m| m.count() < top);
    let first = large.len() * index / count;
    let last = large.len() * (index + 1) / count;
    let mut mine = if index == 0 { small } else { Vec::new() };
    mine.extend_from_slice(&large[first..last]);
    mine
}

/// [`generate`] on a pool of its own of `threads` threads.
pub fn generate_on(
    threads: usize,
    dir: &Path,
    rules: Rules,
    targets: &[Material],
    report: impl FnMut(&Generated) + Send,
) -> Result<TableSet, TbError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| TbError::Threads { threads, source })?;
    pool.install(|| generate(dir, rules, targets, report))
}

/// Makes the tables of `targets` and of every material they need in `dir`,
/// smallest first, skipping each whose file is there and valid (so an
/// interrupted run resumes where it stopped). Each file is written whole
/// under a temporary name, then renamed. `report` hears of each material.
/// Memory stays bounded: only the material being solved and the tables one
/// capture away from it are held, read back from their files; the answer
/// maps the files made or kept.
pub fn generate(
    dir: &Path,
    rules: Rules,
    targets: &[Material],
    mut report: impl FnMut(&Generated),
) -> Result<TableSet, TbError> {
    std::fs::create_dir_all(dir).map_err(|e| TbError::io(dir, e))?;
    let signature = rules_signature(&rules);
    let all = with_dependencies(targets);
    for &m in &all {
        let path = dir.join(file_name(m));
        let start = std::time::Instant::now();
        let expected = Some((m, Indexer::new(m).size()));
        // A file there is kept if every block of it checks.
        let kept = match path.exists() {
            true => file::read_whole(&path, Some(&signature), expected)
                .ok()
                .map(|(header, _)| header.longest),
            false => None,
        };
        let longest = match kept {
            Some(longest) => longest,
            None => {
                let mut below = TableSet::empty(rules);
                for sub in one_capture_away(m) {
                    below.load_whole(&dir.join(file_name(sub)), sub)?;
                }
                let solved = solve(m, &rules, &below)?;
                let bytes = file::encode(m, &signature, &solved.data, solved.longest);
                crate::util::fs::write_atomically(&path, &bytes)
                    .map_err(|e| TbError::io(&path, e))?;
                solved.longest
            }
        };
        report(&Generated {
            material: m,
            skipped: kept.is_some(),
            seconds: match kept {
                Some(_) => 0.0,
                None => start.elapsed().as_secs_f64(),
            },
            bytes: std::fs::metadata(&path).map_or(0, |md| md.len()),
            longest,
        });
    }
    let mut set = TableSet::empty(rules);
    for m in all {
        set.load_file(&dir.join(file_name(m)))?;
    }
    Ok(set)
}

/// The materials (stored form) one capture away from `material` that still
/// have pieces on both sides: those its table is made from.
fn one_capture_away(material: Material) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    for p in material.pieces() {
        let sub = material.without(p);
        if sub.mask(Side::Red) != 0 && sub.mask(Side::Blue) != 0 && !out.contains(&sub.canonical())
        {
            out.push(sub.canonical());
        }
    }
    out
}

/// A solved material: its entries and longest win.
pub struct Solved {
    /// One byte per entry (see `verdict.rs`).
    pub data: Vec<u8>,
    /// The longest win, plies.
    pub longest: u16,
}

/// What the first pass finds out about one entry.
#[derive(Clone, Copy)]
struct Start {
    /// Distinct entries reached by quiet moves (unknown children).
    count: u8,
    /// The longest capture that loses plus one (or `CANNOT_LOSE`).
    ext_max: u8,
    /// The distance this entry is known to be decided at already, if any.
    schedule: Option<u8>,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Position,
    /// Two pieces on one square.
    Nothing,
    /// The mirror image of a smaller entry: copied from it at the end.
    Alias,
}

/// Solves `material` (its stored form) under `rules`; `below` must hold every
/// material one capture away with pieces on both sides.
pub fn solve(material: Material, rules: &Rules, below: &TableSet) -> Result<Solved, TbError> {
    debug_assert!(material.is_canonical());
    if let Some(m) = one_capture_away(material)
        .into_iter()
        .find(|&m| !below.has(m))
    {
        return Err(TbError::Missing(m));
    }
    let ix = Indexer::new(material);
    let size = ix.size();
    let starts: Vec<Start> = (0..size)
        .into_par_iter()
        .map(|i| start(&ix, rules, below, i))
        .collect::<Result<_, _>>()?;

    let mut values = vec![0u8; size];
    let mut counts = Vec::with_capacity(size);
    let mut ext_max = Vec::with_capacity(size);
    let mut aliases = Vec::new();
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        counts.push(s.count);
        ext_max.push(s.ext_max);
        match s.kind {
            Kind::Nothing => values[i] = NO_POSITION,
            Kind::Alias => {
                values[i] = NO_POSITION;
                aliases.push(i);
            }
            Kind::Position => {
                if let Some(d) = s.schedule {
                    push(&mut buckets, d as usize, i);
                }
            }
        }
    }
    drop(starts);

    let mut d = 0;
    while d < buckets.len() {
        let list = std::mem::take(&mut buckets[d]);
        let mut settled = Vec::with_capacity(list.len());
        for i in list {
            let i = i as usize;
            if values[i] == 0 {
                values[i] = d as u8 + 1;
                settled.push(i);
            }
        }
        let preds: Vec<u32> = settled
            .par_iter()
            .flat_map_iter(|&i| predecessors(&ix, rules, i))
            .collect();
        for p in preds {
            let p = p as usize;
            if values[p] != 0 {
                continue;
            }
            if d % 2 == 0 {
                // A child lost: a win, at the first distance found.
                push_checked(&mut buckets, d + 1, p)?;
            } else {
                debug_assert!(counts[p] > 0, "more predecessors than children");
                counts[p] = counts[p].saturating_sub(1);
                if counts[p] == 0 && ext_max[p] != CANNOT_LOSE {
                    push_checked(&mut buckets, (d + 1).max(ext_max[p] as usize), p)?;
                }
            }
        }
        d += 1;
    }

    let mut sq = [0u8; 16];
    let n = ix.pieces().len();
    for i in aliases {
        let side = ix.decode(i, &mut sq).expect("an alias is a position");
        for s in sq[..n].iter_mut() {
            *s = mirror_file(*s);
        }
        let j = ix.index(&sq[..n], side).expect("the mirror is indexed");
        values[i] = values[j];
    }
    let longest = values
        .iter()
        .filter(|&&v| v != NO_POSITION && v != 0 && (v - 1) % 2 == 1)
        .map(|&v| v as u16 - 1)
        .max()
        .unwrap_or(0);
    Ok(Solved {
        data: values,
        longest,
    })
}

fn push(buckets: &mut Vec<Vec<u32>>, d: usize, i: usize) {
    if buckets.len() <= d {
        buckets.resize_with(d + 1, Vec::new);
    }
    buckets[d].push(i as u32);
}

fn push_checked(buckets: &mut Vec<Vec<u32>>, d: usize, i: usize) -> Result<(), TbError> {
    if d > MAX_DISTANCE as usize {
        return Err(TbError::TooLong(d));
    }
    push(buckets, d, i);
    Ok(())
}

/// The first look at entry `i`: its moves sorted into known and unknown.
fn start(ix: &Indexer, rules: &Rules, below: &TableSet, i: usize) -> Result<Start, TbError> {
    let mut sq = [0u8; 16];
    let n = ix.pieces().len();
    let mut out = Start {
        count: 0,
        ext_max: 0,
        schedule: None,
        kind: Kind::Nothing,
    };
    let Some(side) = ix.decode(i, &mut sq) else {
        return Ok(out);
    };
    if ix.canonical_index(&sq[..n], side) != Some(i) {
        out.kind = Kind::Alias;
        return Ok(out);
    }
    out.kind = Kind::Position;
    let pos = ix.position(&sq[..n], side);
    let moves = pos.generate(rules);
    if moves.is_empty() {
        out.schedule = Some(0);
        return Ok(out);
    }
    let enemy_den = DEN[side.opponent().index()];
    let mut win: Option<u32> = None;
    let mut children = [0u32; 32];
    let mut nchildren = 0;
    for &m in moves.iter() {
        if m.to().bit() & enemy_den != 0 {
            win = Some(1);
            continue;
        }
        if pos.is_capture(m) {
            let mut child = pos;
            child.make(m);
            match below.probe(&child) {
                Some(Verdict::Loss(d)) => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
                Some(Verdict::Win(d)) => {
                    if out.ext_max != CANNOT_LOSE {
                        let d = d + 1;
                        if d > MAX_DISTANCE {
                            return Err(TbError::TooLong(d as usize));
                        }
                        out.ext_max = out.ext_max.max(d as u8);
                    }
                }
                Some(Verdict::Draw) => out.ext_max = CANNOT_LOSE,
                None => return Err(TbError::Missing(Material::of(&child).canonical())),
            }
            continue;
        }
        let (from, to) = (m.from().index() as u8, m.to().index() as u8);
        let k = sq[..n].iter().position(|&s| s == from).expect("a mover");
        let mut csq = sq;
        csq[k] = to;
        let c = ix
            .canonical_index(&csq[..n], side.opponent())
            .expect("a quiet move stays in the index") as u32;
        if !children[..nchildren].contains(&c) {
            children[nchildren] = c;
            nchildren += 1;
        }
    }
    out.count = nchildren as u8;
    if let Some(w) = win {
        out.ext_max = CANNOT_LOSE;
        out.schedule = Some(w as u8);
    } else if nchildren == 0 && out.ext_max != CANNOT_LOSE {
        out.schedule = Some(out.ext_max);
    }
    Ok(out)
}

/// The distinct entries one quiet move before entry `i` (a position in play):
/// the side not to move takes back a step or a river jump.
fn predecessors(ix: &Indexer, rules: &Rules, i: usize) -> Vec<u32> {
    let mut sq = [0u8; 16];
    let n = ix.pieces().len();
    let side = ix
        .decode(i, &mut sq)
        .expect("a settled entry is a position");
    let mover = side.opponent();
    let occupied = sq[..n].iter().fold(0u64, |b, &s| b | 1 << s);
    let rat_square = |s: Side| {
        ix.pieces()
            .iter()
            .position(|&p| p == Piece::new(s, Animal::Rat))
            .map_or(0, |k| 1u64 << sq[k])
    };
    let blockers = rules.jump_blockers(rat_square(mover), rat_square(mover.opponent()));
    let mut out = Vec::new();
    for (k, &piece) in ix.pieces().iter().enumerate() {
        if piece.side != mover {
            continue;
        }
        let t = sq[k] as usize;
        // A step or a jump is its own reverse: the squares it can have come
        // from are those it could go to.
        let to = Square::from_index(t as u8);
        let reach =
            step_targets(piece.animal, to) | jump_targets(rules, piece.animal, to, blockers);
        let from = reach & !occupied & !(DEN[0] | DEN[1]);
        for s in squares(from) {
            let mut psq = sq;
            psq[k] = s.index() as u8;
            if let Some(p) = ix.canonical_index(&psq[..n], mover) {
                let p = p as u32;
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry of the 2- and 3-piece tables `LRvt` needs (and its own)
    /// reads back from its file as it was solved, each solved again against
    /// the mapped files of the smaller ones.
    #[test]
    fn the_files_hold_every_value_solved() {
        let dir = std::env::temp_dir().join(format!("doushou-tb-solved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let target: Material = "LRvt".parse().unwrap();
        let set = generate(&dir, Rules::JUNGLE, &[target], |_| {}).unwrap();
        let signature = rules_signature(&Rules::JUNGLE);
        let all = with_dependencies(&[target]);
        assert!(all.iter().any(|m| m.count() == 2) && all.contains(&target));
        for m in all {
            let solved = solve(m, &Rules::JUNGLE, &set).unwrap();
            let path = dir.join(file_name(m));
            let (header, back) = file::read_whole(&path, Some(&signature), None).unwrap();
            assert_eq!(header.longest, solved.longest, "{m}");
            assert_eq!(back.len(), solved.data.len(), "{m}");
            for (i, (&a, &b)) in solved.data.iter().zip(&back).enumerate() {
                assert!(a == b || a == NO_POSITION, "{m} entry {i}: {a} then {b}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
