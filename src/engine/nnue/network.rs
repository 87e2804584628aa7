//! The network's weights and the version-1 file format of `docs/nnue.md`:
//! reading (with a typed error for every way a file can be wrong) and writing.

use super::features::INPUTS;
use crate::util::bytes::{ByteReader, Truncated, fnv1a};
use std::fmt;

/// The first eight bytes of every net file.
pub const MAGIC: [u8; 8] = *b"DSQNNUE\0";

/// The only file version this engine reads and writes.
pub const VERSION: u32 = 1;

/// The widest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;

/// Bytes before the description: magic and seven u32 fields.
const HEADER_BYTES: usize = MAGIC.len() + 7 * 4;

/// How the float network the trainer fits is turned into integers
/// (`docs/nnue.md`, "Quantisation").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantisation {
    /// Output scale: centipawns per unit of the float network's output.
    pub scale: u32,
    /// `W1` and `b1` are the float values × `qa`; CReLU clamps to `0..=qa`.
    pub qa: u32,
    /// `W2` is the float value × `qb`.
    pub qb: u32,
}

/// Why bytes are not a usable net file. Each says which check failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The file does not start with `DSQNNUE\0`: not a net file.
    #[error("bad magic: not a DSQNNUE net file")]
    BadMagic,
    /// A version this engine cannot read.
    #[error("unsupported version {0} (this engine reads {VERSION})")]
    UnsupportedVersion(u32),
    /// The input count is not [`INPUTS`]: a net for other features.
    #[error("wrong input count {0} (the engine's features are {INPUTS})")]
    WrongInputCount(u32),
    /// The hidden width is outside `1..=1024`.
    #[error("hidden width {0} out of range 1..={MAX_HIDDEN}")]
    HiddenOutOfRange(u32),
    /// `SCALE`, `QA` or `QB` is zero, which would divide by zero.
    #[error("bad quantisation: SCALE {}, QA {}, QB {} (none may be 0)", .0.scale, .0.qa, .0.qb)]
    BadQuantisation(Quantisation),
    /// The file ends before what its header declares.
    #[error("truncated: {actual} bytes, the header declares {expected}")]
    Truncated {
        /// Bytes the header declares (or the header itself needs).
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The file is longer than its header declares.
    #[error("wrong size: {actual} bytes, the header declares {expected}")]
    WrongSize {
        /// Bytes the header declares.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The checksum does not match the bytes: the file was damaged.
    #[error("checksum mismatch: the file says {stored:08x}, its bytes give {computed:08x}")]
    ChecksumMismatch {
        /// The checksum stored in the file.
        stored: u32,
        /// The checksum of the bytes before it.
        computed: u32,
    },
    /// The description is not UTF-8.
    #[error("the description is not UTF-8")]
    BadDescription,
    /// Weights so large that the output sum could leave the i32 range.
    #[error("the output weights are so large the score could overflow i32")]
    OutputOverflow,
}

impl From<Truncated> for NetError {
    /// A field read past the end: the file is shorter than its header needs.
    fn from(t: Truncated) -> NetError {
        NetError::Truncated {
            expected: (t.at + t.needed) as u64,
            actual: t.len as u64,
        }
    }
}

/// A network: its quantised weights exactly as the file holds them.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    quantisation: Quantisation,
    description: String,
    /// `INPUTS × H`, input-major: the row of input `i` is `w1[i·H .. i·H + H]`.
    w1: Box<[i16]>,
    b1: Box<[i16]>,
    /// `2H`: the side to move's H, then the other side's.
    w2: Box<[i16]>,
    b2: i32,
    /// `min(QA, i16::MAX)`: CReLU's ceiling in the accumulator's type.
    ceiling: i16,
}

impl fmt::Debug for Network {
    /// The header only: the weights are thousands of numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden())
            .field("quantisation", &self.quantisation)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// A network from its parts (the trainer's quantised weights, or tests').
    /// H is `b1.len()`; the other lengths must agree with it.
    pub fn new(
        quantisation: Quantisation,
        description: &str,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: i32,
    ) -> Result<Network, NetError> {
        let hidden = b1.len();
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetError::HiddenOutOfRange(hidden as u32));
        }
        if quantisation.scale == 0 || quantisation.qa == 0 || quantisation.qb == 0 {
            return Err(NetError::BadQuantisation(quantisation));
        }
        // Parts of the wrong length are a programming error of the caller, but a
        // typed error costs nothing and keeps `evaluate` free of checks.
        let expected = (INPUTS * hidden + 3 * hidden) as u64;
        let actual = (w1.len() + b1.len() + w2.len()) as u64;
        if w1.len() != INPUTS * hidden || w2.len() != 2 * hidden {
            return Err(NetError::WrongSize { expected, actual });
        }
        let ceiling = quantisation.qa.min(i16::MAX as u32) as i16;
        // The output sum `b2 + Σ W2·CReLU(acc)` must stay within i32 for every
        // accumulator, so that `evaluate` needs no wider arithmetic.
        let largest = w2
            .iter()
            .map(|&w| i64::from(w).abs() * i64::from(ceiling))
            .sum::<i64>()
            + i64::from(b2).abs();
        if largest > i64::from(i32::MAX) {
            return Err(NetError::OutputOverflow);
        }
        Ok(Network {
            quantisation,
            description: description.to_string(),
            w1: w1.into(),
            b1: b1.into(),
            w2: w2.into(),
            b2,
            ceiling,
        })
    }

    /// Reads a version-1 net file, checking it in the order `docs/nnue.md`
    /// gives.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let actual = bytes.len() as u64;
        if bytes.get(..MAGIC.len()) != Some(&MAGIC[..]) {
            return Err(NetError::BadMagic);
        }
        let mut r = ByteReader::new(bytes);
        r.take(MAGIC.len())?;
        let version = r.u32()?;
        if version != VERSION {
            return Err(NetError::UnsupportedVersion(version));
        }
        let inputs = r.u32()?;
        if inputs as usize != INPUTS {
            return Err(NetError::WrongInputCount(inputs));
        }
        let hidden = r.u32()?;
        if !(1..=MAX_HIDDEN as u32).contains(&hidden) {
            return Err(NetError::HiddenOutOfRange(hidden));
        }
        let quantisation = Quantisation {
            scale: r.u32()?,
            qa: r.u32()?,
            qb: r.u32()?,
        };
        let description_len = r.u32()?;
        let h = u64::from(hidden);
        let expected = HEADER_BYTES as u64
            + u64::from(description_len)
            + 2 * INPUTS as u64 * h
            + 2 * h
            + 4 * h
            + 4
            + 4;
        if actual < expected {
            return Err(NetError::Truncated { expected, actual });
        }
        if actual > expected {
            return Err(NetError::WrongSize { expected, actual });
        }
        let (body, stored) = bytes.split_at(bytes.len() - 4);
        let stored = ByteReader::new(stored).u32()?;
        let computed = fnv1a(body);
        if stored != computed {
            return Err(NetError::ChecksumMismatch { stored, computed });
        }
        let description = std::str::from_utf8(r.take(description_len as usize)?)
            .map_err(|_| NetError::BadDescription)?
            .to_string();
        let hidden = hidden as usize;
        let w1 = r.i16s(INPUTS * hidden)?;
        let b1 = r.i16s(hidden)?;
        let w2 = r.i16s(2 * hidden)?;
        let b2 = r.i32()?;
        Network::new(quantisation, &description, w1, b1, w2, b2)
    }

    /// The net as a version-1 file: `from_bytes(to_bytes())` gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let hidden = self.hidden();
        let mut out = Vec::with_capacity(
            HEADER_BYTES + self.description.len() + 2 * (INPUTS + 3) * hidden + 8,
        );
        out.extend_from_slice(&MAGIC);
        for field in [
            VERSION,
            INPUTS as u32,
            hidden as u32,
            self.quantisation.scale,
            self.quantisation.qa,
            self.quantisation.qb,
            self.description.len() as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(self.description.as_bytes());
        for w in self.w1.iter().chain(&self.b1[..]).chain(&self.w2[..]) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// H, the hidden width.
    #[inline]
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// The quantisation constants.
    pub fn quantisation(&self) -> Quantisation {
        self.quantisation
    }

    /// How the net was made, as its file says.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The row of `W1` for one input: what it adds to each hidden value.
    #[inline]
    pub fn w1_row(&self, input: usize) -> &[i16] {
        let h = self.hidden();
        &self.w1[input * h..input * h + h]
    }

    /// `b1`, the hidden layer's biases.
    #[inline]
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// `W2`: the side to move's H weights, then the other side's.
    #[inline]
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    /// `b2`, the output bias.
    #[inline]
    pub fn b2(&self) -> i32 {
        self.b2
    }

    /// CReLU's ceiling: `QA`, or `i16::MAX` if `QA` is larger.
    #[inline]
    pub fn ceiling(&self) -> i16 {
        self.ceiling
    }
}
