//! The rules of Dou Shou Qi under every switch of `docs/rules.md`: board geometry,
//! positions and their notation, legal moves, game history and results, perft.
//! Nothing here knows about search or the protocol.

mod board;
mod game;
mod movement;
mod perft;
mod position;
mod race;
mod variant;

pub use board::{
    ALL_SQUARES, ALL_TRAPS, Animal, Bitboard, DEN, DEN_APPROACH, FILES, JUMPS, Jump, NEIGHBOURS,
    PIECES, Piece, RANKS, SQUARES, Side, Square, SquareParseError, TRAPS, WATER, squares,
};
pub use game::{DrawReason, Forbidden, Game, GameError, Illegal, MoveError, Outcome, WinReason};
pub use movement::{jump_targets, standable, step_targets};
pub use perft::{PerftReport, perft_divide, perft_divide_until, perft_until};
pub use position::{FenError, MAX_MOVES, Move, MoveList, MoveParseError, Position, START_FEN};
pub use variant::{
    JumpAxes, JumpBlockedBy, RULE_OPTIONS, Repetition, RuleOption, Rules, VARIANTS, rule_option,
    switch,
};
