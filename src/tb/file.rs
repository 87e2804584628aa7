//! The file of one material's table, version 2 (docs/tablebases.md, "Format").
//!
//! ```text
//! magic     8 bytes  "DSQTB\r\n\x1a"
//! version   u32 LE   2
//! material  u8 length, then the name (ASCII, e.g. "ELvr")
//! rules     u16 LE length, then the switches that move generation depends on,
//!           as `Name=Value` words separated by spaces
//! entries   u64 LE   the number of entries
//! longest   u16 LE   the longest win in plies
//! counts    3 x u64 LE  positions won, drawn, lost for the side to move
//! block     u8       log2 of the entries per block (the last may hold fewer)
//! blocks    u32 LE   the number of blocks
//! index     per block: u64 LE where its bytes end (from the data's start),
//!           u64 LE the FNV-1a of its bytes
//! checksum  u64 LE   FNV-1a of every byte before it (header and index)
//! data      the blocks, each its entries (one byte each: 0 draw, n + 1 a win
//!           (n odd) or loss (n even) in n plies) as a raw deflate stream
//! ```
//!
//! Opening checks the header and the index only, so that it costs no read of
//! the data; each block's checksum is checked whenever the block is
//! decompressed. An entry that is no position (two pieces on one square) is
//! stored as the entry two before it (the same side to move), which deflate
//! packs better than a byte of its own; no probe asks for one.

use super::error::{Refusal, TbError};
use super::index::Material;
use super::verdict::Verdict;
use crate::rules::{Rules, switch};
use crate::util::bytes::{ByteReader, fnv1a64};
use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DSQTB\r\n\x1a";
/// The format version this build reads and writes.
pub const VERSION: u32 = 2;
/// Log2 of the entries per block this build writes, and the most it reads: a
/// probe that misses the cache decompresses one block of 8 KiB, and deflate
/// still finds most of the repeats that shrink the table (blocks of 16 KiB
/// pack 8 % better and cost twice as much to decompress; docs/tablebases.md).
pub const BLOCK_SHIFT: u8 = 13;
/// The most entries in one block.
pub const BLOCK_ENTRIES: usize = 1 << BLOCK_SHIFT;
/// Deflate's level: its best (the tables are written once, read often).
const LEVEL: u8 = 9;

/// The rule switches that change move generation, and so the tables; the
/// repetition rule and the no-capture limit are outside the tables.
pub const TABLE_SWITCHES: [&str; 8] = [
    switch::DOG_OVER_WOLF,
    switch::TIGER_JUMP,
    switch::LION_JUMP,
    switch::RAT_BANK_CAPTURE,
    switch::RAT_WATER_ELEPHANT,
    switch::TRAPPED_ATTACKER_POWERLESS,
    switch::UNIVERSAL_TRAPS,
    switch::JUMP_BLOCKED_BY,
];

/// The switches a table depends on, as its header records them.
pub fn rules_signature(rules: &Rules) -> String {
    TABLE_SWITCHES
        .iter()
        .map(|n| format!("{n}={}", rules.get(n).expect("a rule option")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The file name of a material's table.
pub fn file_name(material: Material) -> String {
    format!("{material}.dstb")
}

/// The bytes of a table file of `data` (one byte per entry,
/// [`super::NO_POSITION`] where there is none) made under the rules of `signature`.
pub fn encode(material: Material, signature: &str, data: &[u8], longest: u16) -> Vec<u8> {
    encode_in_blocks(material, signature, data, longest, BLOCK_SHIFT)
}

/// [`encode`] with `1 << shift` entries per block (small blocks test the
/// edges between them).
pub(super) fn encode_in_blocks(
    material: Material,
    signature: &str,
    data: &[u8],
    longest: u16,
    shift: u8,
) -> Vec<u8> {
    let mut counts = [0u64; 3];
    let mut filled = data.to_vec();
    for i in 0..filled.len() {
        match Verdict::from_byte(filled[i]) {
            Some(Verdict::Win(_)) => counts[0] += 1,
            Some(Verdict::Draw) => counts[1] += 1,
            Some(Verdict::Loss(_)) => counts[2] += 1,
            None if i >= 2 => filled[i] = filled[i - 2],
            None => {}
        }
    }
    let blocks: Vec<Vec<u8>> = filled
        .chunks(1 << shift)
        .map(|b| miniz_oxide::deflate::compress_to_vec(b, LEVEL))
        .collect();
    let mut out = header_start(VERSION, material, signature, data.len(), longest);
    for c in counts {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.push(shift);
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut end = 0u64;
    for b in &blocks {
        end += b.len() as u64;
        out.extend_from_slice(&end.to_le_bytes());
        out.extend_from_slice(&fnv1a64(b).to_le_bytes());
    }
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out
}

/// The fields every version's header starts with, magic to longest win.
fn header_start(
    version: u32,
    material: Material,
    signature: &str,
    entries: usize,
    longest: u16,
) -> Vec<u8> {
    let name = material.to_string();
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(signature.len() as u16).to_le_bytes());
    out.extend_from_slice(signature.as_bytes());
    out.extend_from_slice(&(entries as u64).to_le_bytes());
    out.extend_from_slice(&longest.to_le_bytes());
    out
}

/// A table file's header and index, read and checked: where each block is.
#[derive(Clone, Debug)]
pub struct Header {
    /// The switches it was made under (see [`rules_signature`]).
    pub signature: String,
    /// The material its header names.
    pub material: Material,
    /// The number of entries.
    pub entries: usize,
    /// The longest win, plies.
    pub longest: u16,
    /// Positions won, drawn and lost for the side to move.
    pub counts: [u64; 3],
    /// Log2 of the entries per block.
    pub shift: u8,
    /// Where the index starts in the file.
    index_at: usize,
    /// Where the data starts in the file (the first block).
    data_at: usize,
}

/// Reads and checks the header and index of a table file's `bytes` (the
/// blocks are checked as they are decompressed): its magic, version and
/// checksum, its rules (against the signature `rules`, when given), that it
/// holds `expected` (material and entry count) and that its length is that of
/// its blocks.
pub fn parse(
    bytes: &[u8],
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<Header, Refusal> {
    parse_prefix(bytes, bytes.len() as u64, rules, expected)
}

/// The fields of a version-2 header before its index.
struct Fields<'a> {
    name: &'a [u8],
    sig: &'a [u8],
    entries: usize,
    longest: u16,
    counts: [u64; 3],
    shift: u8,
    blocks: usize,
}

/// The header's fields and a reader of `bytes` at the index that follows
/// them: the one place that reads the header's layout, for [`parse_prefix`]
/// and for how much of a file [`read_prefix`] must read.
fn header_fields(bytes: &[u8]) -> Result<(Fields<'_>, ByteReader<'_>), Refusal> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(Refusal::BadMagic);
    }
    let mut r = ByteReader::new(&bytes[MAGIC.len()..]);
    match r.u32()? {
        VERSION => {}
        1 => return Err(Refusal::FirstVersion),
        found => {
            return Err(Refusal::Version {
                found,
                reads: VERSION,
            });
        }
    }
    let n = r.u8()? as usize;
    let name = r.take(n)?;
    let n = r.u16()? as usize;
    let sig = r.take(n)?;
    let fields = Fields {
        name,
        sig,
        entries: r.u64()? as usize,
        longest: r.u16()?,
        counts: [r.u64()?, r.u64()?, r.u64()?],
        shift: r.u8()?,
        blocks: r.u32()? as usize,
    };
    Ok((fields, r))
}

/// [`parse`] from the file's first bytes, `prefix` (at least its header and
/// index, or the whole file), and its length `file_len`.
fn parse_prefix(
    bytes: &[u8],
    file_len: u64,
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<Header, Refusal> {
    let (
        Fields {
            name,
            sig,
            entries,
            longest,
            counts,
            shift,
            blocks,
        },
        mut r,
    ) = header_fields(bytes)?;
    let index_at = MAGIC.len() + r.position();
    r.take(blocks.saturating_mul(16))?;
    let sum_at = MAGIC.len() + r.position();
    if fnv1a64(&bytes[..sum_at]) != r.u64()? {
        return Err(Refusal::Corrupted);
    }
    let data_at = MAGIC.len() + r.position();
    let material: Material = String::from_utf8_lossy(name).parse()?;
    let signature = String::from_utf8_lossy(sig).to_string();
    if let Some(ours) = rules
        && signature != ours
    {
        return Err(Refusal::OtherRules {
            file: signature,
            ours: ours.to_string(),
        });
    }
    if shift > BLOCK_SHIFT || entries.div_ceil(1 << shift) != blocks {
        return Err(Refusal::Blocks { blocks, shift });
    }
    if let Some((m, size)) = expected
        && (m != material || size != entries)
    {
        return Err(Refusal::WrongMaterial {
            found: material,
            entries,
            expected: m,
            size,
        });
    }
    let header = Header {
        signature,
        material,
        entries,
        longest,
        counts,
        shift,
        index_at,
        data_at,
    };
    let data_len = match header.blocks() {
        0 => 0,
        n => header.block_end(bytes, n - 1),
    };
    if file_len != data_at as u64 + data_len {
        return Err(Refusal::Length {
            found: file_len,
            blocks: data_at as u64 + data_len,
        });
    }
    Ok(header)
}

impl Header {
    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.entries.div_ceil(1 << self.shift)
    }

    /// Where block `k`'s bytes end, from the data's start (the header is checked).
    fn block_end(&self, bytes: &[u8], k: usize) -> u64 {
        let at = self.index_at + 16 * k;
        u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
    }

    /// The entries of block `k` of the file's `bytes`, decompressed into
    /// `out` (at least [`BLOCK_ENTRIES`] long) with `inflater`; answers their
    /// number, or `None` when the block's checksum or stream is wrong.
    pub fn inflate(
        &self,
        bytes: &[u8],
        k: usize,
        out: &mut [u8],
        inflater: &mut DecompressorOxide,
    ) -> Option<usize> {
        let start = if k == 0 {
            0
        } else {
            self.block_end(bytes, k - 1)
        };
        let end = self.block_end(bytes, k);
        let at = self.index_at + 16 * k + 8;
        let sum = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let block = bytes.get(
            self.data_at + usize::try_from(start).ok()?
                ..self.data_at + usize::try_from(end).ok()?,
        )?;
        if fnv1a64(block) != sum {
            return None;
        }
        let len = (self.entries - (k << self.shift)).min(1 << self.shift);
        inflater.init();
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        match decompress(inflater, block, &mut out[..len], 0, flags) {
            (TINFLStatus::Done, _, written) if written == len => Some(len),
            _ => None,
        }
    }

    /// Every entry of the file's `bytes`, each block checked.
    pub fn inflate_all(&self, bytes: &[u8]) -> Result<Vec<u8>, Refusal> {
        let mut out = vec![0u8; self.entries];
        let mut inflater = Box::<DecompressorOxide>::default();
        for (k, chunk) in out.chunks_mut(1 << self.shift).enumerate() {
            self.inflate(bytes, k, chunk, &mut inflater)
                .ok_or(Refusal::BadBlock { block: k })?;
        }
        Ok(out)
    }
}

/// The bytes of a version 1 file (one byte per entry, docs/tablebases.md)
/// turned into the current version; `None` when `bytes` are not a whole,
/// valid version 1 file.
pub fn convert_first_version(bytes: &[u8]) -> Option<Vec<u8>> {
    let body = bytes.get(MAGIC.len()..bytes.len().checked_sub(8)?)?;
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().ok()?);
    if &bytes[..MAGIC.len()] != MAGIC || fnv1a64(&bytes[..bytes.len() - 8]) != stored {
        return None;
    }
    let mut r = ByteReader::new(body);
    (r.u32().ok()? == 1).then_some(())?;
    let n = r.u8().ok()? as usize;
    let material: Material = String::from_utf8_lossy(r.take(n).ok()?).parse().ok()?;
    let n = r.u16().ok()? as usize;
    let signature = String::from_utf8_lossy(r.take(n).ok()?).to_string();
    let entries = r.u64().ok()? as usize;
    let longest = r.u16().ok()?;
    let data = r.take(entries).ok()?;
    (r.position() == body.len()).then_some(())?;
    Some(encode(material, &signature, data, longest))
}

/// The header of the table file at `path` and the file mapped (see
/// [`parse`]).
pub fn map(
    path: &Path,
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<(Header, memmap2::Mmap), TbError> {
    let mut file = std::fs::File::open(path).map_err(|e| TbError::io(path, e))?;
    let header = read_checked_header(path, &mut file, rules, expected)?;
    // SAFETY: the map is read only, and table files are never written in
    // place: each is written whole under another name and renamed over
    // (`write_atomically`), which leaves this mapping on the old file. A file
    // cut short by someone else while mapped would fault; no tool of ours
    // does that.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| TbError::io(path, e))?;
    // A probe reads one block, far from the last: without this advice each
    // page fault reads ahead around it. Advice only.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Random);
    Ok((header, map))
}

/// The header of the table file at `path`, checked, and the file's length
/// in bytes; its blocks are neither mapped nor read.
pub fn read_header(path: &Path) -> Result<(Header, u64), TbError> {
    let mut file = std::fs::File::open(path).map_err(|e| TbError::io(path, e))?;
    let header = read_checked_header(path, &mut file, None, None)?;
    let len = file.metadata().map_err(|e| TbError::io(path, e))?.len();
    Ok((header, len))
}

/// The header and index of the open table file at `path`, read and checked
/// (see [`parse`]). They are read the ordinary way, not through a map: a
/// fault maps a whole folio of the page cache (up to a megabyte), and a
/// process that opened the 1,114 tables of up to 4 pieces that way held
/// 270 MB of pages it had not probed.
fn read_checked_header(
    path: &Path,
    file: &mut std::fs::File,
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<Header, TbError> {
    let (prefix, file_len) = read_prefix(file).map_err(|e| TbError::io(path, e))?;
    parse_prefix(&prefix, file_len, rules, expected).map_err(|why| TbError::Invalid {
        path: path.to_path_buf(),
        why: Box::new(why),
    })
}

/// The first bytes of `file` that hold its header and index (or the whole
/// file, if shorter or not a table: [`parse_prefix`] then says what is
/// wrong), and the file's length.
fn read_prefix(file: &mut std::fs::File) -> std::io::Result<(Vec<u8>, u64)> {
    use std::io::Read;
    let file_len = file.metadata()?.len();
    let mut prefix = Vec::new();
    let mut want = 4096u64;
    loop {
        let target = want.min(file_len);
        let have = prefix.len() as u64;
        if target > have {
            file.by_ref().take(target - have).read_to_end(&mut prefix)?;
        }
        // The header, then its index and checksum: 16 bytes a block, and 8.
        let needed = match header_fields(&prefix) {
            Ok((fields, r)) => (MAGIC.len() + r.position() + 8) as u64 + 16 * fields.blocks as u64,
            Err(Refusal::Truncated(_)) => u64::MAX,
            // Not a table of this version: more bytes would not change that.
            Err(_) => return Ok((prefix, file_len)),
        };
        if needed <= prefix.len() as u64 || prefix.len() as u64 >= file_len {
            return Ok((prefix, file_len));
        }
        want = if needed == u64::MAX { want * 4 } else { needed };
    }
}

/// Every entry of the table file at `path`, each block checked (see [`map`]).
pub fn read_whole(
    path: &Path,
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<(Header, Vec<u8>), TbError> {
    let (header, map) = map(path, rules, expected)?;
    let data = header.inflate_all(&map).map_err(|why| TbError::Invalid {
        path: path.to_path_buf(),
        why: Box::new(why),
    })?;
    Ok((header, data))
}

/// The table files (`*.dstb`) in `dir`, by name; none is an error.
pub fn table_files(dir: &Path) -> Result<Vec<PathBuf>, TbError> {
    let entries = std::fs::read_dir(dir).map_err(|e| TbError::io(dir, e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dstb"))
        .collect();
    if paths.is_empty() {
        return Err(TbError::NoTables(dir.to_path_buf()));
    }
    paths.sort();
    Ok(paths)
}

/// Converts every table file of version 1 in `dir` to the current version,
/// each written whole under another name and renamed over the old one;
/// answers the files converted. Files of the current version are left as
/// they are; any other file is an error that names it, after the files
/// before it (by name) were converted.
pub fn convert_dir(dir: &Path) -> Result<Vec<PathBuf>, TbError> {
    let mut converted = Vec::new();
    for path in table_files(dir)? {
        let bytes = std::fs::read(&path).map_err(|e| TbError::io(&path, e))?;
        match parse(&bytes, None, None) {
            Ok(_) => continue,
            Err(Refusal::FirstVersion) => {}
            Err(why) => {
                return Err(TbError::Invalid {
                    path,
                    why: Box::new(why),
                });
            }
        }
        let new = convert_first_version(&bytes).ok_or_else(|| TbError::Invalid {
            path: path.clone(),
            why: Box::new(Refusal::Corrupted),
        })?;
        crate::util::fs::write_atomically(&path, &new).map_err(|e| TbError::io(&path, e))?;
        converted.push(path);
    }
    Ok(converted)
}

#[cfg(test)]
mod tests;
