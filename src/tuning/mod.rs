//! Fitting the evaluation to games: [`selfplay`] plays the engine against itself
//! and writes labelled quiet positions, [`texel`] fits the weights of
//! [`crate::engine::eval`] to them by logistic regression (the Texel method)
//! and writes `src/engine/weights.rs`. `docs/tuning.md` gives the recipe.
//! [`train`] fits the learned evaluation (NNUE) to the same data
//! (`docs/nnue.md`); [`data`] reads the files for both.
//!
//! # Data format
//!
//! A data file is text, one position a line: `<FEN> ; <result> ; <score>`,
//! where the result is the game's final score **from Red's view**: `1` (Red
//! won), `0.5` (drawn) or `0` (Blue won), and the score is the search's score of
//! the position in centipawns, also from Red's view (mates clipped to ±3000).
//! The score field is optional for the tuner (older files have none) and
//! needed by the net trainer. Lines
//! starting with `#` are comments, except two that the tuner reads:
//! - `# rules: Name=Value ...`: the rule switches of the positions that follow
//!   (until the next such line); without one, the default rules;
//! - `# done: games=N positions=M ...`: a finished self-play run, counted in
//!   the summary the tuner writes into `weights.rs`.
//!
//! A run that played with other engine options than the defaults (`--eval`,
//! `--eval-file`) says so in a `# engine: Name=Value ...` comment.

pub mod data;
pub mod selfplay;
pub mod texel;
pub mod train;
