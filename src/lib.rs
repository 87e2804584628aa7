//! doushou: an engine for Dou Shou Qi (Jungle chess).
//!
//! - [`rules`]: the game itself under every rule switch; knows nothing of search.
//! - [`options`]: the shape of user-settable options, shared by rules and engine.

pub mod cli;
pub mod options;
pub mod rules;
