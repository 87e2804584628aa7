//! The search's numeric parameters in one place, so that a tuner (or a person
//! with a match) can reach them. Each says what it does; the matches that
//! set them, and those of the `Search_*` switches that turn whole features
//! on and off, are in docs/records/search-features.md and
//! docs/records/strength.md.
//!
//! The tunable ones form a table, [`PARAMS`]: each is an integer option that
//! `setoption` changes at run time (hidden: `uci` lists them only in a build
//! with the `tune` feature), so that an SPSA tuner plays its matches with one
//! binary, as Viridithas and Stockfish do. Their values travel in
//! [`SearchParams`]. The move-ordering tiers stay constants: they are a
//! structure, not a quantity.

use crate::rules::MAX_MOVES;

/// One tunable parameter: its option name, default, range and a step for an
/// SPSA tuner (about the change one match can tell apart).
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The option's name, the constant's name in capitals.
    pub name: &'static str,
    /// The value the engine plays with.
    pub default: i32,
    /// The least value `setoption` takes.
    pub min: i32,
    /// The greatest value `setoption` takes.
    pub max: i32,
    /// SPSA's final perturbation (`c_end` in OpenBench's terms).
    pub step: i32,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

impl Param {
    /// This parameter's value in `params`.
    pub fn get(&self, params: &SearchParams) -> i32 {
        (self.get)(params)
    }
}

/// Declares the tunable parameters: the fields and getters of
/// [`SearchParams`], its default, and the table [`PARAMS`], from one list.
macro_rules! search_params {
    ($(
        $(#[doc = $doc:expr])*
        $field:ident = $name:literal: $default:literal in $min:literal..=$max:literal step $step:literal;
    )*) => {
        /// The values of the tunable search parameters (see [`PARAMS`]). Set
        /// them with [`SearchParams::set`], which keeps them in range.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($field: i32,)*
        }

        impl Default for SearchParams {
            /// The values the engine plays with.
            fn default() -> SearchParams {
                SearchParams { $($field: $default,)* }
            }
        }

        impl SearchParams {
            $(
                $(#[doc = $doc])*
                #[inline]
                pub fn $field(&self) -> i32 {
                    self.$field
                }
            )*
        }

        /// Every tunable parameter, in the order docs/development.md lists them.
        pub const PARAMS: &[Param] = &[$(
            Param {
                name: $name,
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                get: |p| p.$field,
                set: |p, v| p.$field = v,
            },
        )*];
    };
}

search_params! {
    /// Late-move reductions: a quiet late move at depth `d`, move number `n`,
    /// is searched `LMR_BASE_X100 / 100 + ln(d) ln(n) / (LMR_DIVISOR_X100 /
    /// 100)` plies shallower. Hundredths of a ply.
    lmr_base_x100 = "LMR_BASE_X100": 50 in -200..=300 step 10;
    /// Divisor of the `ln(d) ln(n)` term, hundredths; see [`SearchParams::lmr_base_x100`].
    lmr_divisor_x100 = "LMR_DIVISOR_X100": 220 in 100..=600 step 15;
    /// Nodes shallower than this reduce no move.
    lmr_min_depth = "LMR_MIN_DEPTH": 3 in 1..=10 step 1;
    /// The first moves in order (the best guesses) are never reduced.
    lmr_first_reduced_move = "LMR_FIRST_REDUCED_MOVE": 2 in 1..=16 step 1;
    /// History-aware LMR: the reduction shrinks by one ply per this much
    /// history score.
    lmr_history_divisor = "LMR_HISTORY_DIVISOR": 6000 in 500..=20000 step 500;
    /// Reverse futility pruning: a non-PV node at most this deep whose static
    /// evaluation beats beta by [`SearchParams::futility_margin`] per ply
    /// returns it.
    futility_max_depth = "FUTILITY_MAX_DEPTH": 4 in 0..=12 step 1;
    /// Centipawns per ply of depth that the static evaluation must beat beta by.
    futility_margin = "FUTILITY_MARGIN": 110 in 10..=500 step 10;
    /// Reverse futility pruning is off where an enemy piece stands at most
    /// this many steps from our den (`DEN_APPROACH`).
    futility_race_steps = "FUTILITY_RACE_STEPS": 3 in 1..=4 step 1;
    /// Late-move pruning: at most this deep, quiet moves after the first
    /// `LMP_BASE + LMP_PER_DEPTH_SQUARED * depth²` quiet ones are skipped
    /// (`Search_LateMovePruning`).
    lmp_max_depth = "LMP_MAX_DEPTH": 3 in 0..=10 step 1;
    /// Quiet moves always tried; see [`SearchParams::lmp_max_depth`].
    lmp_base = "LMP_BASE": 3 in 0..=32 step 1;
    /// More quiet moves tried per depth²; see [`SearchParams::lmp_max_depth`].
    lmp_per_depth_squared = "LMP_PER_DEPTH_SQUARED": 2 in 0..=16 step 1;
    /// Internal iterative reduction: a node at least this deep with no table
    /// move searches a ply less.
    iir_min_depth = "IIR_MIN_DEPTH": 5 in 2..=20 step 1;
    /// The history bonus of a refuting quiet move is depth², at most this.
    history_bonus_max = "HISTORY_BONUS_MAX": 400 in 16..=4000 step 40;
    /// History "gravity": scores stay within ± this (below the killers'
    /// ordering tier, [`ORDER_KILLER`]).
    history_limit = "HISTORY_LIMIT": 16384 in 1024..=262144 step 1024;
    /// Under `Repetition=draw`, the evaluation of a side with less material
    /// keeps this percentage of an advantage (`eval::standoff_scaled`): a
    /// defender that can shuffle to a draw is worth more than its material
    /// says. 100: whole, as under the other rules.
    standoff_percent = "STANDOFF_PERCENT": 40 in 0..=100 step 5;
    /// With a no-capture limit, the evaluation fades towards the draw score
    /// as the plies since the last capture grow, linearly, keeping this
    /// percentage of its distance from the draw at the limit: a side that is
    /// better but shuffles sees its advantage fade, so it prefers the capture
    /// that resets the count.
    no_capture_fade_percent = "NO_CAPTURE_FADE_PERCENT": 50 in 0..=100 step 5;
    /// Under `Repetition=forbid`, what each drawing move a side lacks below
    /// [`SearchParams::drawing_room_enough`] costs it in a table draw,
    /// centipawns (`Worker::drawing_room`); 0 scores every table draw alike.
    /// Set on the positions of bench-positions/tb-draws-lost.txt
    /// (docs/records/tablebases-forbid.md).
    drawing_room_weight = "DRAWING_ROOM_WEIGHT": 8 in 0..=200 step 4;
    /// The number of drawing moves from which a side's room no longer counts.
    drawing_room_enough = "DRAWING_ROOM_ENOUGH": 4 in 1..=16 step 1;
    /// The share of the clock a move plans, percent of the usual, where the
    /// root is one capture from the tables (the capture chooses the table
    /// position), and under `Repetition=forbid` where it is a table draw
    /// (the history can squeeze a defender out of it 20 or more plies on,
    /// which only depth sees); table wins and losses cost no time at all.
    table_draw_time_percent = "TABLE_DRAW_TIME_PERCENT": 300 in 50..=800 step 25;
    /// Under `Repetition=forbid`, the share of the move's planned time,
    /// percent, the proof with the history may take before the search, to
    /// find the root's captures into a table draw that the opponent then
    /// wins (`tablebases::captures_lost_by_history`); 0: never asked.
    history_proof_percent = "HISTORY_PROOF_PERCENT": 50 in 0..=200 step 10;
}

impl SearchParams {
    /// The parameter called `name` (any case, surrounding blanks ignored).
    pub fn find(name: &str) -> Option<&'static Param> {
        PARAMS
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Sets `param` to `value`, which must be in its range: a value out of
    /// range is refused (as `setoption` refuses it) and changes nothing.
    pub fn set(&mut self, param: &Param, value: i32) -> Result<(), std::ops::RangeInclusive<i32>> {
        if !(param.min..=param.max).contains(&value) {
            return Err(param.min..=param.max);
        }
        (param.set)(self, value);
        Ok(())
    }

    /// The late-move reductions these parameters make.
    pub fn lmr_table(&self) -> LmrTable {
        LmrTable::new(
            f64::from(self.lmr_base_x100) / 100.0,
            f64::from(self.lmr_divisor_x100) / 100.0,
        )
    }
}

/// Depths the reduction table holds; deeper nodes reduce as the deepest row.
const LMR_TABLE_DEPTHS: usize = 128;

/// The late-move reductions by depth and move number, worked out once (a
/// reduced move would otherwise cost two logarithms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LmrTable(Box<[[i32; MAX_MOVES]; LMR_TABLE_DEPTHS]>);

impl LmrTable {
    /// The table for a base and a divisor, in plies (see
    /// [`SearchParams::lmr_base_x100`]).
    pub fn new(base: f64, divisor: f64) -> LmrTable {
        let mut table = Box::new([[0; MAX_MOVES]; LMR_TABLE_DEPTHS]);
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

impl Default for LmrTable {
    /// The table of the default parameters.
    fn default() -> LmrTable {
        SearchParams::default().lmr_table()
    }
}

/// Move ordering tiers, highest first: the table's move, then captures (most
/// valuable victim, then least valuable attacker), then the two killers, then
/// quiet moves by history (which stays below every tier, see
/// [`SearchParams::history_limit`]).
pub const ORDER_TT_MOVE: i32 = 1 << 30;
/// The capture tier, below the table's move; see [`ORDER_TT_MOVE`].
pub const ORDER_CAPTURE: i32 = 1 << 24;
/// A capture's victim rank counts this many times its attacker's rank.
pub const ORDER_VICTIM_WEIGHT: i32 = 64;
/// The second killer; the first scores one more. See [`ORDER_TT_MOVE`].
pub const ORDER_KILLER: i32 = 1 << 22;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_default_in_its_range_and_sets_only_in_range() {
        let mut params = SearchParams::default();
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0 && p.step <= p.max - p.min, "{}", p.name);
            assert_eq!(p.get(&params), p.default, "{}", p.name);
            assert_eq!(
                SearchParams::find(&p.name.to_lowercase()).unwrap().name,
                p.name
            );
            assert!(params.set(p, p.max + 1).is_err());
            assert_eq!(p.get(&params), p.default);
            params.set(p, p.min).unwrap();
            assert_eq!(p.get(&params), p.min, "{}", p.name);
        }
        assert!(SearchParams::find("NO_SUCH_PARAM").is_none());
    }

    #[test]
    fn the_reduction_table_is_the_formula() {
        let table = LmrTable::default();
        for (depth, moves) in [(3, 2), (9, 5), (20, 31), (127, 31)] {
            let formula = 0.5 + (depth as f64).ln() * (moves as f64).ln() / 2.2;
            assert_eq!(table.reduction(depth, moves), formula as i32);
        }
        // Depths beyond the table reduce as its last row; shallow ones not at all.
        assert_eq!(table.reduction(500, 20), table.reduction(127, 20));
        assert_eq!(table.reduction(1, 20), 0);
        let mut params = SearchParams::default();
        params
            .set(SearchParams::find("LMR_BASE_X100").unwrap(), 250)
            .unwrap();
        assert_eq!(params.lmr_table().reduction(1, 20), 2);
    }
}
