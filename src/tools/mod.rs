//! What the tools do, apart from their command lines (those are in `cli`):
//! the match runner (engines driven through the protocol), analysis of
//! positions and games, game records (PGN) read and written, drawing
//! positions, the den-race suite (built from games, and scored), and rating
//! lists fitted to games.

pub mod analyse;
pub mod matches;
pub mod pgn;
pub mod races;
pub mod ratings;
pub mod show;
