//! Small helpers below every layer (they know nothing of the game): the
//! worker pool the tools share, the capped line reader of the protocol loop
//! and the engine client, the shape of user-settable options, the seeded
//! generator behind reproducible self-play and openings, the checked byte
//! reader of the binary files and the atomic file writer.

pub mod bytes;
pub mod fs;
pub mod lines;
pub mod options;
pub mod pool;
pub mod rng;
