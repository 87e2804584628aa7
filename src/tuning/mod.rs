//! Fitting the evaluation to games: [`selfplay`] plays the engine against itself
//! and writes labelled quiet positions, [`texel`] fits the weights of
//! [`crate::engine::eval`] to them by logistic regression (the Texel method)
//! and writes `src/engine/weights.rs`. `docs/tuning.md` gives the recipe.
//!
//! # Data format
//!
//! A data file is text, one position a line: `<FEN> ; <result>`, where the
//! result is the game's final score **from Red's view**: `1` (Red won), `0.5`
//! (drawn) or `0` (Blue won). Lines starting with `#` are comments, except two
//! that the tuner reads:
//! - `# rules: Name=Value ...`: the rule switches of the positions that follow
//!   (until the next such line); without one, the default rules;
//! - `# done: games=N positions=M ...`: a finished self-play run, counted in
//!   the summary the tuner writes into `weights.rs`.

pub mod selfplay;
pub mod texel;

/// A small deterministic random number generator (splitmix64): self-play must
/// be reproducible from its seed, and the project takes no dependency for this.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`; `n` must not be zero.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
