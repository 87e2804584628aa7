//! Small helpers below every layer (they know nothing of the game): the
//! worker pool the tools share, and the capped line reader of the protocol
//! loop and the match client.

pub mod lines;
pub mod pool;
