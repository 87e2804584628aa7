//! Reading binary files field by field without trusting their length: every
//! read is checked against the bytes there are, so a short or damaged file is
//! an error, never a panic. The net file and the trainer's checkpoints are read
//! with it, and both are summed with the one [`fnv1a`]; the tablebase files
//! too, summed with its 64-bit form [`fnv1a64`].

/// FNV-1a, 32 bits: start at `0x811C9DC5`; for each byte, xor it in, then
/// multiply by `0x01000193` (wrapping). The checksum of the net file and of the
/// trainer's checkpoints.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |hash, &b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// FNV-1a, 64 bits: start at `0xCBF29CE484222325`; for each byte, xor it in,
/// then multiply by `0x100000001B3` (wrapping). The checksum of the tablebase
/// files.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// A read went past the end of the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("truncated: {needed} bytes needed at byte {at}, the file has {len}")]
pub struct Truncated {
    /// Where the read started.
    pub at: usize,
    /// How many bytes it needed.
    pub needed: usize,
    /// How many bytes there are in all.
    pub len: usize,
}

/// Reads little-endian fields from the front of a byte slice, in order.
#[derive(Clone, Debug)]
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the first byte of `bytes`.
    pub fn new(bytes: &'a [u8]) -> ByteReader<'a> {
        ByteReader { bytes, at: 0 }
    }

    /// Bytes read so far: where the next field starts.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The next `n` bytes, or [`Truncated`] if fewer are left (nothing is
    /// consumed then).
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Truncated> {
        let truncated = Truncated {
            at: self.at,
            needed: n,
            len: self.bytes.len(),
        };
        let end = self.at.checked_add(n).ok_or(truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(truncated)?;
        self.at = end;
        Ok(slice)
    }

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Truncated> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// The next byte, as a number.
    pub fn u8(&mut self) -> Result<u8, Truncated> {
        self.array().map(|[b]| b)
    }

    /// The next two bytes as a little-endian u16.
    pub fn u16(&mut self) -> Result<u16, Truncated> {
        self.array().map(u16::from_le_bytes)
    }

    /// The next four bytes as a little-endian u32.
    pub fn u32(&mut self) -> Result<u32, Truncated> {
        self.array().map(u32::from_le_bytes)
    }

    /// The next four bytes as a little-endian i32.
    pub fn i32(&mut self) -> Result<i32, Truncated> {
        self.array().map(i32::from_le_bytes)
    }

    /// The next eight bytes as a little-endian u64.
    pub fn u64(&mut self) -> Result<u64, Truncated> {
        self.array().map(u64::from_le_bytes)
    }

    /// The next eight bytes as a little-endian f64.
    pub fn f64(&mut self) -> Result<f64, Truncated> {
        self.array().map(f64::from_le_bytes)
    }

    /// `n` little-endian i16 values.
    pub fn i16s(&mut self, n: usize) -> Result<Vec<i16>, Truncated> {
        let bytes = self.take(n.saturating_mul(2))?;
        Ok(bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    /// `n` little-endian f32 values.
    pub fn f32s(&mut self, n: usize) -> Result<Vec<f32>, Truncated> {
        let bytes = self.take(n.saturating_mul(4))?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_reference_values() {
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b"foobar"), 0xbf9c_f968);
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn fields_read_in_order_and_a_short_read_is_an_error() {
        let mut bytes = 7u32.to_le_bytes().to_vec();
        bytes.extend_from_slice(&(-2i16).to_le_bytes());
        bytes.extend_from_slice(&1.5f32.to_le_bytes());
        let mut r = ByteReader::new(&bytes);
        assert_eq!(r.u32(), Ok(7));
        assert_eq!(r.i16s(1), Ok(vec![-2]));
        assert_eq!(r.f32s(1), Ok(vec![1.5]));
        assert_eq!(r.position(), 10);
        assert_eq!(
            r.u32(),
            Err(Truncated {
                at: 10,
                needed: 4,
                len: 10
            })
        );
        assert_eq!(r.position(), 10, "a failed read consumes nothing");
        assert!(ByteReader::new(&bytes).i16s(usize::MAX).is_err());
    }
}
