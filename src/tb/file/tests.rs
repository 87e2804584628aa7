use super::*;
use crate::tb::NO_POSITION;
use proptest::prelude::*;

fn jungle() -> String {
    rules_signature(&Rules::JUNGLE)
}

/// Every entry of `bytes`, decoded block by block as a probe reads them.
fn entries_of(bytes: &[u8]) -> Result<Vec<u8>, Refusal> {
    parse(bytes, None, None)?.inflate_all(bytes)
}

/// Whether `back` holds every entry of `data` that is a position, and a
/// verdict byte (never `NO_POSITION` but at the first two) where it is none.
fn same_positions(data: &[u8], back: &[u8]) -> bool {
    data.len() == back.len()
        && data
            .iter()
            .zip(back)
            .all(|(&d, &b)| d == b || d == NO_POSITION)
}

/// A file of format version 1 (one byte per entry, summed whole), as the
/// builds before version 2 wrote it.
fn first_version(material: Material, signature: &str, data: &[u8], longest: u16) -> Vec<u8> {
    let mut out = header_start(1, material, signature, data.len(), longest);
    out.extend_from_slice(data);
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn a_file_reads_back_and_any_flipped_byte_is_refused() {
    let m: Material = "Lvr".parse().unwrap();
    let data: Vec<u8> = (0..100u32)
        .map(|i| [0u8, 2, 5, 255, 0][i as usize % 5])
        .collect();
    let bytes = encode_in_blocks(m, &jungle(), &data, 4, 5);
    let h = parse(&bytes, Some(&jungle()), Some((m, 100))).unwrap();
    assert_eq!(
        (h.material, h.longest, h.entries, h.blocks()),
        (m, 4, 100, 4)
    );
    assert_eq!(h.counts, [20, 40, 20], "wins, draws, losses");
    assert!(same_positions(&data, &entries_of(&bytes).unwrap()));
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        // The header and index are refused on opening, a block when it is read.
        assert!(entries_of(&bad).is_err(), "byte {i}");
    }
    let truncated = parse(&bytes[..bytes.len() - 1], None, None).unwrap_err();
    assert!(matches!(truncated, Refusal::Length { .. }), "{truncated}");
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(parse(&longer, None, None).is_err());
    let err = parse(&bytes, Some(&rules_signature(&Rules::XOUDOUQI)), None).unwrap_err();
    assert!(matches!(err, Refusal::OtherRules { .. }), "{err}");
    assert!(err.to_string().contains("made under other rules"), "{err}");
    // The repetition rule and the no-capture limit do not matter.
    let mut r = Rules::JUNGLE;
    r.set("NoCaptureLimit", "0").unwrap();
    r.set("Repetition", "draw").unwrap();
    assert!(parse(&bytes, Some(&rules_signature(&r)), None).is_ok());
}

#[test]
fn a_first_version_file_is_refused_with_the_way_out_and_converts() {
    let m: Material = "Lvr".parse().unwrap();
    let data = vec![0u8, 2, 5, 255, 0, 1, 4];
    let old = first_version(m, &jungle(), &data, 4);
    let err = parse(&old, None, None).unwrap_err();
    assert_eq!(err, Refusal::FirstVersion);
    assert!(err.to_string().contains("doushou tb convert"), "{err}");
    let new = convert_first_version(&old).unwrap();
    let h = parse(&new, Some(&jungle()), Some((m, data.len()))).unwrap();
    assert_eq!(h.longest, 4);
    assert!(same_positions(&data, &entries_of(&new).unwrap()));
    // A damaged old file is not converted.
    let mut bad = old.clone();
    bad[20] ^= 1;
    assert_eq!(convert_first_version(&bad), None);
    assert_eq!(convert_first_version(&new), None);
}

#[test]
fn a_directory_converts_its_first_version_files_and_keeps_the_others() {
    let dir = std::env::temp_dir().join(format!("doushou-tb-convert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (lvr, evr): (Material, Material) = ("Lvr".parse().unwrap(), "Evr".parse().unwrap());
    let data = vec![0u8, 2, 5, 255, 0, 1, 4];
    let current = encode(evr, &jungle(), &data, 4);
    std::fs::write(
        dir.join(file_name(lvr)),
        first_version(lvr, &jungle(), &data, 4),
    )
    .unwrap();
    std::fs::write(dir.join(file_name(evr)), &current).unwrap();
    assert_eq!(convert_dir(&dir).unwrap(), [dir.join(file_name(lvr))]);
    let (h, back) = read_whole(&dir.join(file_name(lvr)), Some(&jungle()), None).unwrap();
    assert_eq!(h.material, lvr);
    assert!(same_positions(&data, &back));
    assert_eq!(std::fs::read(dir.join(file_name(evr))).unwrap(), current);
    // Nothing left to convert; a file that is neither version is an error.
    assert!(convert_dir(&dir).unwrap().is_empty());
    std::fs::write(dir.join("bad.dstb"), b"not a table").unwrap();
    let err = convert_dir(&dir).unwrap_err().to_string();
    assert!(
        err.contains("bad.dstb") && err.contains("bad magic"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    /// Any entries, any length (block edges, a last block short or full,
    /// none at all), come back as they went in, block by block.
    #[test]
    fn entries_round_trip(
        shift in 0u8..7,
        blocks in 0usize..6,
        extra in prop_oneof![Just(0usize), 1usize..64],
        values in proptest::collection::vec(
            prop_oneof![Just(0u8), Just(NO_POSITION), 1u8..NO_POSITION], 0..1024),
        runs in proptest::bool::ANY,
    ) {
        let len = (blocks << shift) + extra;
        let data: Vec<u8> = (0..len)
            .map(|i| match values.len() {
                0 => 0,
                n if runs => values[(i / 7) % n],
                n => values[i % n],
            })
            .collect();
        let m: Material = "ELvr".parse().unwrap();
        let bytes = encode_in_blocks(m, &jungle(), &data, 9, shift);
        let h = parse(&bytes, Some(&jungle()), Some((m, len))).unwrap();
        prop_assert_eq!(h.blocks(), len.div_ceil(1 << shift));
        let back = h.inflate_all(&bytes).unwrap();
        prop_assert!(same_positions(&data, &back));
        // One block at a time, as a probe reads it.
        let mut out = vec![0u8; BLOCK_ENTRIES];
        let mut inflater = DecompressorOxide::default();
        for k in 0..h.blocks() {
            let n = h.inflate(&bytes, k, &mut out, &mut inflater).unwrap();
            prop_assert_eq!(&out[..n], &back[k << shift..(k << shift) + n]);
        }
    }
}

/// `map` checks the header and index from a read of the file's first bytes,
/// growing it when the index reaches past the first read (here 400 blocks of
/// 32 entries, an index of 6,400 bytes), and refuses a cut file by its length.
#[test]
fn map_reads_an_index_longer_than_its_first_read() {
    let m: Material = "Lvr".parse().unwrap();
    let data: Vec<u8> = (0..400 * 32u32).map(|i| (i % 7) as u8).collect();
    let bytes = encode_in_blocks(m, &jungle(), &data, 6, 5);
    let dir = std::env::temp_dir().join(format!("doushou-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Lvr.dstb");
    std::fs::write(&path, &bytes).unwrap();
    let (header, mapped) = map(&path, Some(&jungle()), Some((m, data.len()))).unwrap();
    assert!(header.data_at > 4096, "{}", header.data_at);
    assert_eq!(header.blocks(), 400);
    assert_eq!(header.counts, parse(&bytes, None, None).unwrap().counts);
    assert!(same_positions(&data, &header.inflate_all(&mapped).unwrap()));
    drop(mapped);
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let err = map(&path, None, None).unwrap_err().to_string();
    assert!(err.contains("Lvr.dstb"), "{err}");
    std::fs::write(&path, &bytes[..100]).unwrap();
    assert!(map(&path, None, None).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
