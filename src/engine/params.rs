//! The search's numeric parameters in one place, so that a tuner (or a person
//! with a match) can reach them. Each says what it does and what set it. The
//! `Search_*` options turn whole features on and off (their matches are in
//! docs/search-features.md); the values below were set by hand when each
//! feature was written unless a match is named.

use crate::rules::MAX_MOVES;
use std::sync::LazyLock;

/// Late-move reductions: a quiet late move at depth `d`, move number `n`, is
/// searched `LMR_BASE + ln(d) ln(n) / LMR_DIVISOR` plies shallower. Hand-set;
/// the feature measured +29.6 Elo (docs/search-features.md).
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.2;
/// Nodes shallower than this reduce no move.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The first moves in order (the best guesses) are never reduced.
pub const LMR_FIRST_REDUCED_MOVE: usize = 2;
/// History-aware LMR: the reduction shrinks by one ply per this much history
/// score. Commit c054848, with IIR: +34.9 ± 32.4 Elo over 300 games at 20000
/// nodes a move.
pub const LMR_HISTORY_DIVISOR: i32 = 6000;

/// Depths the reduction table holds; deeper nodes reduce as the deepest row.
const LMR_TABLE_DEPTHS: usize = 128;

/// The late-move reductions by depth and move number, worked out once (a
/// reduced move would otherwise cost two logarithms).
pub struct LmrTable([[i32; MAX_MOVES]; LMR_TABLE_DEPTHS]);

impl LmrTable {
    /// The table for a base and a divisor (see [`LMR_BASE`]).
    pub fn new(base: f64, divisor: f64) -> LmrTable {
        let mut table = [[0; MAX_MOVES]; LMR_TABLE_DEPTHS];
        for (depth, row) in table.iter_mut().enumerate() {
            for (moves, r) in row.iter_mut().enumerate() {
                let ln_depth = (depth.max(1) as f64).ln();
                let ln_moves = (moves.max(1) as f64).ln();
                *r = (base + ln_depth * ln_moves / divisor) as i32;
            }
        }
        LmrTable(table)
    }

    /// The reduction, in plies, of move number `moves_searched` (0-based) at
    /// `depth`, before the adjustments of the node.
    #[inline]
    pub fn reduction(&self, depth: i32, moves_searched: usize) -> i32 {
        let depth = (depth.max(0) as usize).min(LMR_TABLE_DEPTHS - 1);
        self.0[depth][moves_searched.min(MAX_MOVES - 1)]
    }
}

/// The reductions of the parameters above.
pub static LMR: LazyLock<LmrTable> = LazyLock::new(|| LmrTable::new(LMR_BASE, LMR_DIVISOR));

/// Reverse futility pruning: a non-PV node at most this deep whose static
/// evaluation beats beta by [`FUTILITY_MARGIN`] per ply returns it. Hand-set;
/// futility with late-move pruning measured +22.6 Elo (docs/search-features.md).
pub const FUTILITY_MAX_DEPTH: i32 = 4;
/// Centipawns per ply of depth that the static evaluation must beat beta by.
pub const FUTILITY_MARGIN: i32 = 110;

/// Late-move pruning: at most this deep, quiet moves after the first
/// `LMP_BASE + LMP_PER_DEPTH_SQUARED * depth²` quiet ones are skipped. Part of
/// the futility feature (Search_Futility).
pub const LMP_MAX_DEPTH: i32 = 3;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: usize = 3;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_PER_DEPTH_SQUARED: usize = 2;

/// Null-move pruning (off by default: no gain, -5.2 Elo in
/// docs/search-features.md, and unsound where having no move loses): tried
/// from this depth.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// The null move's reduction is `NULL_MOVE_BASE_REDUCTION + depth /
/// NULL_MOVE_DEPTH_DIVISOR`.
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
/// See [`NULL_MOVE_BASE_REDUCTION`].
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;

/// Aspiration windows (off by default: no gain, -1.7 Elo in
/// docs/search-features.md): used from this iteration depth.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// The first window's half-width, centipawns; it grows by half on each fail.
pub const ASPIRATION_DELTA: i32 = 30;
/// Once the half-width passes this, the window opens fully.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Internal iterative reduction: a node at least this deep with no table move
/// searches a ply less. Commit c054848 (see [`LMR_HISTORY_DIVISOR`]).
pub const IIR_MIN_DEPTH: i32 = 5;

/// The history bonus of a refuting quiet move is depth², at most this.
pub const HISTORY_BONUS_MAX: i32 = 400;
/// History "gravity": scores stay within ± this.
pub const HISTORY_LIMIT: i32 = 16384;

/// Move ordering tiers, highest first: the table's move, then captures (most
/// valuable victim, then least valuable attacker), then the two killers, then
/// quiet moves by history (which stays below every tier, see
/// [`HISTORY_LIMIT`]).
pub const ORDER_TT_MOVE: i32 = 1 << 30;
/// See [`ORDER_TT_MOVE`].
pub const ORDER_CAPTURE: i32 = 1 << 24;
/// A capture's victim rank counts this many times its attacker's rank.
pub const ORDER_VICTIM_WEIGHT: i32 = 64;
/// The second killer; the first scores one more. See [`ORDER_TT_MOVE`].
pub const ORDER_KILLER: i32 = 1 << 22;
