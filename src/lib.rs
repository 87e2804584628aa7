//! doushou: an engine for Dou Shou Qi (Jungle chess). The layers, lowest
//! first: util, rules, tb, engine, protocol, client, the tools (tools, tuning,
//! gui), cli; see the README's Layout section.
//!
//! - [`util`]: the worker pool, the capped line reader, the shape of options
//!   and the seeded generator: below every layer, knowing nothing of the game.
//! - [`rules`]: the game itself under every rule switch; knows nothing of search.
//! - [`engine`]: evaluation, search, transposition table, time; the [`engine::Engine`]
//!   object that the protocol and every tool drive.
//! - [`protocol`]: the text protocol of `protocol.md`.
//! - [`tb`]: endgame tablebases: generation, files and probing (above rules, below engine).
//! - [`client`]: other engines driven through the protocol, as processes.
//! - [`tools`]: what the tools do (match runner, analysis, drawing).
//! - [`tuning`]: self-play data, the Texel tuner and the net trainer.
//! - [`gui`]: the browser GUI that `doushou gui` serves.
//! - [`cli`]: the command line: each tool's arguments and `run`.

#![warn(missing_docs)]

pub mod cli;
pub mod client;
pub mod engine;
pub mod gui;
pub mod protocol;
pub mod rules;
pub mod tb;
pub mod tools;
pub mod tuning;
pub mod util;
