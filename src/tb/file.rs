//! The file of one material's table (docs/tablebases.md, "Format").
//!
//! ```text
//! magic     8 bytes  "DSQTB\r\n\x1a"
//! version   u32 LE   1
//! material  u8 length, then the name (ASCII, e.g. "ELvr")
//! rules     u16 LE length, then the switches that move generation depends on,
//!           as `Name=Value` words separated by spaces
//! entries   u64 LE   the number of entries, one byte each
//! longest   u16 LE   the longest win in plies
//! data      `entries` bytes: 0 draw, n + 1 a win (n odd) or loss (n even) in
//!           n plies, 255 no position
//! checksum  u64 LE   FNV-1a of every byte before it
//! ```

use super::error::{Refusal, TbError};
use super::index::Material;
use crate::rules::{Rules, switch};
use crate::util::bytes::{ByteReader, fnv1a64};
use std::path::Path;

const MAGIC: &[u8; 8] = b"DSQTB\r\n\x1a";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

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

/// The bytes of a table file.
pub fn encode(material: Material, rules: &Rules, data: &[u8], longest: u16) -> Vec<u8> {
    let name = material.to_string();
    let sig = rules_signature(rules);
    let mut out = Vec::with_capacity(data.len() + 128);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(sig.len() as u16).to_le_bytes());
    out.extend_from_slice(sig.as_bytes());
    out.extend_from_slice(&(data.len() as u64).to_le_bytes());
    out.extend_from_slice(&longest.to_le_bytes());
    out.extend_from_slice(data);
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A table file read and checked.
#[derive(Debug)]
pub struct Decoded {
    /// The switches it was made under (see [`rules_signature`]).
    pub signature: String,
    /// The material its header names.
    pub material: Material,
    /// The longest win, plies.
    pub longest: u16,
    /// The entries, one byte each (see [`super::Verdict::from_byte`]).
    pub data: Vec<u8>,
}

/// Reads the file at `path`, checks its checksum, version and rules (against
/// the signature `rules`, when given) and that it holds `expected` (material
/// and entry count).
pub fn read(
    path: &Path,
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<Decoded, TbError> {
    let bytes = std::fs::read(path).map_err(|e| TbError::io(path, e))?;
    decode(&bytes, rules, expected).map_err(|why| TbError::Invalid {
        path: path.to_path_buf(),
        why: Box::new(why),
    })
}

/// Checks and splits the bytes of a table file (see [`read`]).
pub fn decode(
    bytes: &[u8],
    rules: Option<&str>,
    expected: Option<(Material, usize)>,
) -> Result<Decoded, Refusal> {
    if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
        return Err(Refusal::BadMagic);
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    if fnv1a64(body) != stored {
        return Err(Refusal::Corrupted);
    }
    let mut r = ByteReader::new(&body[MAGIC.len()..]);
    let version = r.u32()?;
    if version != VERSION {
        return Err(Refusal::Version {
            found: version,
            reads: VERSION,
        });
    }
    let n = r.u8()? as usize;
    let name = String::from_utf8_lossy(r.take(n)?).to_string();
    let material: Material = name.parse()?;
    let n = r.u16()? as usize;
    let sig = String::from_utf8_lossy(r.take(n)?).to_string();
    if let Some(ours) = rules
        && sig != ours
    {
        return Err(Refusal::OtherRules {
            file: sig,
            ours: ours.to_string(),
        });
    }
    let entries = r.u64()? as usize;
    let longest = r.u16()?;
    let data = r.take(entries)?.to_vec();
    if r.position() != body.len() - MAGIC.len() {
        return Err(Refusal::TrailingBytes);
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
    Ok(Decoded {
        signature: sig,
        material,
        longest,
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_and_any_flipped_byte_is_refused() {
        let m: Material = "Lvr".parse().unwrap();
        let data = vec![0u8, 2, 5, 255, 0];
        let bytes = encode(m, &Rules::JUNGLE, &data, 4);
        let jungle = rules_signature(&Rules::JUNGLE);
        let d = decode(&bytes, Some(&jungle), Some((m, 5))).unwrap();
        assert_eq!((d.material, d.longest, d.data), (m, 4, data));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(decode(&bad, None, None).is_err(), "byte {i}");
        }
        assert!(decode(&bytes[..bytes.len() - 1], None, None).is_err());
        let err = decode(&bytes, Some(&rules_signature(&Rules::XOUDOUQI)), None).unwrap_err();
        assert!(matches!(err, Refusal::OtherRules { .. }), "{err}");
        assert!(err.to_string().contains("made under other rules"), "{err}");
        // The repetition rule and the no-capture limit do not matter.
        let mut r = Rules::JUNGLE;
        r.set("NoCaptureLimit", "0").unwrap();
        r.set("Repetition", "draw").unwrap();
        assert!(decode(&bytes, Some(&rules_signature(&r)), None).is_ok());
    }
}
