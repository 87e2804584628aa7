//! The network's weights and the file format of `docs/nnue.md` (version 2,
//! with rule inputs; version 1 is still read): reading (with a typed error for
//! every way a file can be wrong) and writing, the format's one reader and one
//! writer.

use super::features::{INPUTS, RULE_INPUTS, RuleInput};
use crate::rules::Rules;
use crate::util::bytes::{ByteReader, Truncated, fnv1a};
use std::fmt;
use std::sync::Arc;

/// The first eight bytes of every net file.
pub const MAGIC: [u8; 8] = *b"DSQNNUE\0";

/// The file version this engine writes: 2, whose header lists the net's rule
/// inputs. Version 1 (no rule inputs) is still read.
pub const VERSION: u32 = 2;

/// The version before rule inputs, still read as a net without any.
pub const VERSION_WITHOUT_RULES: u32 = 1;

/// The widest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;

/// Bytes of a version-1 header before the description: magic and seven u32
/// fields.
const HEADER_BYTES_V1: usize = MAGIC.len() + 7 * 4;

/// Bytes of a version-2 header before its rule input codes: magic and eight
/// u32 fields.
const HEADER_BYTES: usize = MAGIC.len() + 8 * 4;

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
    #[error("unsupported version {0} (this engine reads {VERSION_WITHOUT_RULES} and {VERSION})")]
    UnsupportedVersion(u32),
    /// The input count is not [`INPUTS`]: a net for other features.
    #[error("wrong input count {0} (the engine's features are {INPUTS})")]
    WrongInputCount(u32),
    /// The hidden width is outside `1..=1024`.
    #[error("hidden width {0} out of range 1..={MAX_HIDDEN}")]
    HiddenOutOfRange(u32),
    /// More rule inputs than the engine knows.
    #[error("{0} rule inputs, the engine knows {RULE_INPUTS}")]
    RuleInputCount(u32),
    /// A rule input code the engine does not know.
    #[error("unknown rule input code {0}")]
    UnknownRuleInput(u32),
    /// A rule input listed twice.
    #[error("rule input {} listed twice", .0.name())]
    DuplicateRuleInput(RuleInput),
    /// `SCALE`, `QA` or `QB` is zero, which would divide by zero.
    #[error("bad quantisation: SCALE {}, QA {}, QB {} (none may be 0)", .0.scale, .0.qa, .0.qb)]
    BadQuantisation(Quantisation),
    /// The file ends before what its header declares.
    #[error("truncated: {actual} bytes, the header declares {expected}")]
    Truncated {
        /// Bytes the header declares (or the header itself needs).
        expected: u64,
        /// Bytes the file has.
        actual: u64,
    },
    /// The file is longer than its header declares.
    #[error("wrong size: {actual} bytes, the header declares {expected}")]
    WrongSize {
        /// Bytes the header declares.
        expected: u64,
        /// Bytes the file has.
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

/// A network: its quantised weights exactly as the file holds them, and the
/// hidden layer's bias for the rules it was last set to ([`Network::for_rules`];
/// the default rules when read).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    quantisation: Quantisation,
    description: String,
    /// `INPUTS × H`, input-major: the row of input `i` is `w1[i·H .. i·H + H]`.
    /// Shared by the copies made for other rules.
    w1: Arc<[i16]>,
    /// The net's rule inputs, in the file's order.
    rule_inputs: Vec<RuleInput>,
    /// `R × H`: the row of each rule input, in `rule_inputs`' order.
    rule_weights: Arc<[i16]>,
    /// The file's `b1`, the hidden layer's bias with every rule input off.
    b1: Box<[i16]>,
    /// `b1` plus the rows of the rule inputs on under `rules`: the bias both
    /// perspectives' accumulators start from.
    bias: Box<[i16]>,
    /// The rules `bias` is for.
    rules: Rules,
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
            .field("rule_inputs", &self.rule_inputs)
            .field("rules", &self.rules)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// A network without rule inputs from its parts (the trainer's quantised
    /// weights, or tests'). H is `b1.len()`; the other lengths must agree with
    /// it. [`Network::with_rule_inputs`] adds rule inputs.
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
            rule_inputs: Vec::new(),
            rule_weights: Arc::new([]),
            bias: b1.clone().into(),
            b1: b1.into(),
            rules: Rules::default(),
            w2: w2.into(),
            b2,
            ceiling,
        })
    }

    /// The net with rule inputs `inputs`, whose rows (H values each, in the
    /// same order) are `weights`; set for the default rules.
    pub fn with_rule_inputs(
        mut self,
        inputs: Vec<RuleInput>,
        weights: Vec<i16>,
    ) -> Result<Network, NetError> {
        let h = self.hidden();
        for (i, input) in inputs.iter().enumerate() {
            if inputs[..i].contains(input) {
                return Err(NetError::DuplicateRuleInput(*input));
            }
        }
        if weights.len() != inputs.len() * h {
            return Err(NetError::WrongSize {
                expected: (inputs.len() * h) as u64,
                actual: weights.len() as u64,
            });
        }
        self.rule_inputs = inputs;
        self.rule_weights = weights.into();
        Ok(self.for_rules(&Rules::default()))
    }

    /// The same net set for `rules`: its bias is `b1` plus the rows of its
    /// rule inputs that are on under them. Cheap (the weights are shared), so
    /// the engine makes one per search, for the rules of the game it searches.
    pub fn for_rules(&self, rules: &Rules) -> Network {
        let h = self.hidden();
        let mut bias = self.b1.clone();
        for (i, input) in self.rule_inputs.iter().enumerate() {
            if input.is_on(rules) {
                let row = &self.rule_weights[i * h..i * h + h];
                for (b, &w) in bias.iter_mut().zip(row) {
                    *b = b.wrapping_add(w);
                }
            }
        }
        Network {
            bias,
            rules: *rules,
            ..self.clone()
        }
    }

    /// The rules the bias is set for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The net's rule inputs, in the file's order.
    pub fn rule_inputs(&self) -> &[RuleInput] {
        &self.rule_inputs
    }

    /// The settings of `rules` this net cannot tell from the default rules:
    /// rule inputs on under them that it lacks, and settings no rule input
    /// stands for. Empty when the net is made for `rules`.
    pub fn missing_rules(&self, rules: &Rules) -> Vec<String> {
        RuleInput::active(rules)
            .filter(|input| !self.rule_inputs.contains(input))
            .map(RuleInput::name)
            .chain(super::features::rules_without_input(rules))
            .collect()
    }

    /// Reads a net file (version 2, or version 1 as a net without rule
    /// inputs), checking it in the order `docs/nnue.md` gives. The net is set
    /// for the default rules.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let actual = bytes.len() as u64;
        if bytes.get(..MAGIC.len()) != Some(&MAGIC[..]) {
            return Err(NetError::BadMagic);
        }
        let mut r = ByteReader::new(bytes);
        r.take(MAGIC.len())?;
        let version = r.u32()?;
        if version != VERSION && version != VERSION_WITHOUT_RULES {
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
        let rule_count = if version == VERSION { r.u32()? } else { 0 };
        if rule_count as usize > RULE_INPUTS {
            return Err(NetError::RuleInputCount(rule_count));
        }
        let description_len = r.u32()?;
        let h = u64::from(hidden);
        let rules = u64::from(rule_count);
        let header = if version == VERSION {
            HEADER_BYTES as u64 + 4 * rules
        } else {
            HEADER_BYTES_V1 as u64
        };
        let expected = header
            + u64::from(description_len)
            + 2 * (INPUTS as u64 + rules) * h
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
        let mut rule_inputs = Vec::with_capacity(rule_count as usize);
        for _ in 0..rule_count {
            let code = r.u32()?;
            rule_inputs.push(RuleInput::from_code(code).ok_or(NetError::UnknownRuleInput(code))?);
        }
        let description = std::str::from_utf8(r.take(description_len as usize)?)
            .map_err(|_| NetError::BadDescription)?
            .to_string();
        let hidden = hidden as usize;
        let w1 = r.i16s(INPUTS * hidden)?;
        let rule_weights = r.i16s(rule_count as usize * hidden)?;
        let b1 = r.i16s(hidden)?;
        let w2 = r.i16s(2 * hidden)?;
        let b2 = r.i32()?;
        Network::new(quantisation, &description, w1, b1, w2, b2)?
            .with_rule_inputs(rule_inputs, rule_weights)
    }

    /// The net as a version-2 file: `from_bytes(to_bytes())` gives it back
    /// (set for the default rules).
    pub fn to_bytes(&self) -> Vec<u8> {
        let hidden = self.hidden();
        let rules = self.rule_inputs.len();
        let mut out = Vec::with_capacity(
            HEADER_BYTES
                + 4 * rules
                + self.description.len()
                + 2 * (INPUTS + rules + 3) * hidden
                + 8,
        );
        out.extend_from_slice(&MAGIC);
        for field in [
            VERSION,
            INPUTS as u32,
            hidden as u32,
            self.quantisation.scale,
            self.quantisation.qa,
            self.quantisation.qb,
            rules as u32,
            self.description.len() as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        for input in &self.rule_inputs {
            out.extend_from_slice(&input.code().to_le_bytes());
        }
        out.extend_from_slice(self.description.as_bytes());
        for w in self
            .w1
            .iter()
            .chain(&self.rule_weights[..])
            .chain(&self.b1[..])
            .chain(&self.w2[..])
        {
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

    /// The quantisation constants the file was written with: output scale, `qa`, `qb`.
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

    /// `b1`, the hidden layer's biases as the file has them.
    #[inline]
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// The bias the accumulators start from: `b1` plus the rows of the rule
    /// inputs on under [`Network::rules`].
    #[inline]
    pub fn bias(&self) -> &[i16] {
        &self.bias
    }

    /// The row of rule input `input` (H values), if the net has it.
    pub fn rule_row(&self, input: RuleInput) -> Option<&[i16]> {
        let h = self.hidden();
        let i = self.rule_inputs.iter().position(|&r| r == input)?;
        Some(&self.rule_weights[i * h..i * h + h])
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
