//! Small helpers below every layer (they know nothing of the game): the
//! worker pool the tools share, the capped line reader of the protocol loop
//! and the engine client, the shape of user-settable options, and the seeded
//! generator behind reproducible self-play and openings.

pub mod lines;
pub mod options;
pub mod pool;
pub mod rng;
