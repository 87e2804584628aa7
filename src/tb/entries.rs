//! A table's entries: a file mapped into memory and read block by block
//! through a small cache of decompressed blocks per thread, or (during
//! generation) every entry in memory.

use super::file::{BLOCK_ENTRIES, Header};
use miniz_oxide::inflate::core::DecompressorOxide;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Blocks each thread keeps decompressed: 1024 of 8 KiB, 8 MiB a thread.
/// Positions a search meets one after another differ in a piece or two, but
/// a search among 4-piece draws, which probes every child of a drawn
/// position under `Repetition=forbid`, touches some hundreds of blocks: with
/// 64 it ran 20 times slower, decompressing (docs/tablebases.md, "Format").
const CACHED_BLOCKS: usize = 1024;

/// A table's entries.
pub(super) enum Entries {
    /// Every entry in memory, one byte each.
    Whole(Vec<u8>),
    /// A file mapped: every process that opens it shares the pages.
    Mapped(Mapped),
}

/// A table file mapped into memory.
pub(super) struct Mapped {
    header: Header,
    map: memmap2::Mmap,
    path: PathBuf,
    /// Tells this table's blocks apart in the caches of every thread; never
    /// used twice in a process, so a block cached from a table since dropped
    /// is never taken for one of another.
    id: u64,
    /// Set when a block was found corrupted: the table answers no more.
    broken: AtomicBool,
}

impl Mapped {
    /// A mapped file whose header is `header`.
    pub(super) fn new(header: Header, map: memmap2::Mmap, path: PathBuf) -> Mapped {
        static IDS: AtomicU64 = AtomicU64::new(0);
        Mapped {
            header,
            map,
            path,
            id: IDS.fetch_add(1, Ordering::Relaxed),
            broken: AtomicBool::new(false),
        }
    }
}

impl Entries {
    /// Entry `i` (below the table's size); `None` when its block is
    /// corrupted (the first time, a warning names the file).
    #[inline]
    pub(super) fn get(&self, i: usize) -> Option<u8> {
        match self {
            Entries::Whole(data) => data.get(i).copied(),
            Entries::Mapped(m) => m.get(i),
        }
    }
}

impl Mapped {
    fn get(&self, i: usize) -> Option<u8> {
        if self.broken.load(Ordering::Relaxed) {
            return None;
        }
        let shift = self.header.shift;
        let (block, within) = (i >> shift, i & ((1 << shift) - 1));
        let entry = CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            let slot = slot_of(self.id, block);
            let key = (self.id, block);
            if cache.keys[slot] != Some(key) {
                cache.keys[slot] = None;
                let BlockCache {
                    blocks, inflater, ..
                } = &mut *cache;
                let out = &mut blocks[slot * BLOCK_ENTRIES..(slot + 1) * BLOCK_ENTRIES];
                self.header.inflate(&self.map, block, out, inflater)?;
                cache.keys[slot] = Some(key);
            }
            Some(cache.blocks[slot * BLOCK_ENTRIES + within])
        });
        if entry.is_none() && !self.broken.swap(true, Ordering::Relaxed) {
            log::warn!(
                "table {} refused: block {block} is corrupted; it answers no more",
                self.path.display()
            );
        }
        entry
    }
}

/// The cache slot of a table's block: a multiplicative hash, so that the
/// blocks of neighbouring positions, and of a few tables, spread out.
#[inline]
fn slot_of(id: u64, block: usize) -> usize {
    let h =
        (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ block as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    (h >> 32) as usize % CACHED_BLOCKS
}

/// One thread's decompressed blocks: allocated once, on the thread's first
/// probe of a mapped table, so that a probe itself never allocates.
struct BlockCache {
    /// Which table and block each slot holds.
    keys: [Option<(u64, usize)>; CACHED_BLOCKS],
    /// The slots' entries, `BLOCK_ENTRIES` each.
    blocks: Box<[u8]>,
    /// Deflate's state (about 11 KB: kept, not built per block).
    inflater: Box<DecompressorOxide>,
}

thread_local! {
    static CACHE: RefCell<BlockCache> = RefCell::new(BlockCache {
        keys: [None; CACHED_BLOCKS],
        blocks: vec![0u8; CACHED_BLOCKS * BLOCK_ENTRIES].into_boxed_slice(),
        inflater: Box::default(),
    });
}
