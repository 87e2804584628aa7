//! doushou: an engine for Dou Shou Qi (Jungle chess). The layers, lowest
//! first: util, rules, engine, protocol, tools (with tuning, gui and args),
//! cli; see the README's Layout section.
//!
//! - [`rules`]: the game itself under every rule switch; knows nothing of search.
//! - [`engine`]: evaluation, search, transposition table, time; the [`engine::Engine`]
//!   object that the protocol and every tool drive.
//! - [`protocol`]: the text protocol of `protocol.md`.
//! - [`args`]: the command-line argument groups shared by the tools and the front ends.
//! - [`tb`]: endgame tablebases: generation, files and probing (above rules, below engine).
//! - [`tools`]: what the tools do (match runner, analysis, drawing).
//! - [`cli`]: the command line: each tool's arguments and `run`.
//! - [`gui`]: the browser GUI that `doushou gui` serves.
//! - [`options`]: the shape of user-settable options, shared by rules and engine.
//! - [`rng`]: the seeded generator behind reproducible self-play and openings.
//! - [`tuning`]: self-play data and the Texel tuner of the evaluation's weights.
//! - [`util`]: the worker pool and the capped line reader, below every layer.

#![warn(missing_docs)]

pub mod args;
pub mod cli;
pub mod engine;
pub mod gui;
pub mod options;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod tb;
pub mod tools;
pub mod tuning;
pub mod util;
