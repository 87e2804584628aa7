//! What the tools do, apart from their command lines (those are in `cli`):
//! the match runner (engines driven through the protocol), analysis of
//! positions and games, game records (PGN) read and written, and drawing
//! positions.

pub mod analyse;
pub mod matches;
pub mod pgn;
pub mod show;
