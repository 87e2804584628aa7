//! The integration tests, in one binary so that they link once: the real
//! `doushou` binary driven through its pipes and command line, the library's
//! rules, search and tools against references written apart, the GUI through
//! its API and in a headless browser, and the Python package's own suite.
//! `cargo test --test integration <module>::` runs one module.

mod analyse;
mod cli_exit;
mod cli_tools;
mod common;
mod deploy;
mod eval;
mod fuzz_parsers;
mod fuzz_protocol;
mod gui_api;
mod gui_browser;
mod history_proof;
mod house_rules;
mod layout;
mod match_runner;
mod nnue;
mod perft_suite;
mod protocol;
mod protocol_surfaces;
mod python;
mod races;
mod rules_positions;
mod rules_properties;
mod search;
mod show;
mod skill;
mod tablebase;
mod tb_move_check;
