//! Endgame tablebases: every position of a few pieces solved exactly (win,
//! draw or loss for the side to move, and the distance in plies to the end of
//! the game with best play: the winner the shortest, the loser the longest).
//! Generation by retrograde analysis, one file per material, and probing.
//! A layer of its own between the rules and the engine: it knows the rules,
//! nothing of search. docs/tablebases.md describes the format and the figures.
//!
//! The files, bottom up (each uses only those above it): `verdict` (a table's
//! answer and its byte), `index` (materials and the index of their positions),
//! `error`, `file` (the format), `entries` (a table's entries: a mapped file
//! read block by block, or all in memory), `set` (the tables in use: loading,
//! probing), `generate` (retrograde analysis, and making the files) and
//! `history` (what `Repetition=forbid` makes of a table draw in a game).
//!
//! The tables ignore repetition and the no-capture limit (the game's history):
//! they answer for the board and the side to move alone; `history` adds it.

mod entries;
mod error;
mod file;
mod generate;
mod history_proof;
mod index;
mod set;
mod verdict;

pub use error::{Refusal, TbError};
pub use file::{
    Header, TABLE_SWITCHES, VERSION, convert_dir, file_name, read_header, rules_signature,
    table_files,
};
pub use generate::{Generated, generate, generate_on, shard_of, targets, with_dependencies};
pub use history_proof::{
    Progress, ProofBudget, ProofMemory, ProofVerdict, Question, STATE_BYTES, prove_under_history,
    unsettled_by_tables,
};
pub use index::{Indexer, Material, MaterialError, MaterialFault};
pub use set::{TableInfo, TableSet, piece_count, plies_before_limit};
pub use verdict::{MAX_DISTANCE, NO_POSITION, Verdict};
