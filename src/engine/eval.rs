//! The static evaluation, in centipawns from the side to move's view.
//!
//! The evaluation is linear: a sum of weights times feature counts, where each
//! feature is a count for the side to move minus the same count for the other
//! side (or, for threats and tempo, a count seen from the side to move only).
//! Every weight lives in one table, [`Weights`] (`weights.rs`, written by
//! `doushou tune`); the same code that scores a position also lists its
//! features, which is what the Texel tuner fits: since the score is linear in
//! the weights, the tuner's gradient is exact.
//!
//! The unit is the centipawn of the weight table's scale: the tuner keeps the
//! scale of the table it starts from (it fits the logistic scale `K` once,
//! before moving any weight), first the hand-set one where an elephant was
//! 1000; the fitted table has the lion and the elephant at about 1000 each.
//!
//! What the terms know (see [`feature`] for the index of each weight, and
//! `docs/tuning.md` for what the fit made of them):
//! - **material** by rank, with the rat–elephant relation (our rat against a
//!   living enemy elephant) and the rat in water;
//! - **advancement**: each animal's distance to the enemy den;
//! - **den safety**: enemy pieces near our den beyond our defenders on or next
//!   to our traps, and those defenders; a piece of ours weakened on a trap;
//! - **trap control**: our traps that one of our pieces stands on or next to;
//! - **threats**: enemy pieces we can take next move (by the victim's rank,
//!   separately for the side to move and the side waiting), and runners: pieces
//!   two to four steps from the enemy den with every enemy piece farther back;
//! - **river**: open jump lanes of our lion and tiger, and enemy lanes our rat
//!   blocks;
//! - **mobility** and **tempo**.
//!
//! Animals are looked up by *rank* (1..8 under the rules in force), not by
//! name, so `DogOverWolf` simply swaps which weights the dog and the wolf use;
//! captures are asked of the rules ([`Position::can_capture`]), and jump lanes
//! follow `TigerJump`, `LionJump` and `JumpBlockedBy`, so every term is right
//! under every switch.

use crate::rules::{
    ALL_TRAPS, Animal, Bitboard, DEN, NEIGHBOURS, Piece, Position, Repetition, Rules, Side, Square,
    TRAPS, WATER, jump_targets, squares, step_targets,
};
use crate::util::options::choices;

/// Distance buckets for advancement: Manhattan distance to the enemy den, 1..=10
/// (farther counts as 10). Every piece stands at exactly one distance, so
/// material and advancement overlap; the tuner pins each animal's material to
/// its average worth over the data and its advancement row to the difference
/// each distance makes (see `tuning::texel::pin_material`).
pub const ADVANCE_BUCKETS: usize = 10;

/// Runners are counted at these distances to the enemy den (2, 3 and 4 steps):
/// one step away is a den threat, which the search sees by itself.
pub const RUNNER_DISTANCES: std::ops::RangeInclusive<usize> = 2..=4;

/// Den pressure buckets: 1, 2, and 3 or more enemy pieces near our den beyond
/// our defenders.
pub const PRESSURE_BUCKETS: usize = 3;

/// How near our den an enemy piece must be (Manhattan steps) to count as an
/// attacker for den safety.
pub const ATTACK_RADIUS: usize = 3;

/// Index of each weight in the table. Ranged features take a block of indices.
pub mod feature {
    use super::{ADVANCE_BUCKETS, PRESSURE_BUCKETS};
    /// Material by rank - 1 (8 weights).
    pub const MATERIAL: usize = 0;
    /// Advancement by rank - 1 and distance bucket (8 x 10 weights).
    pub const ADVANCE: usize = MATERIAL + 8;
    /// A rat in the water.
    pub const RAT_IN_WATER: usize = ADVANCE + 8 * ADVANCE_BUCKETS;
    /// Our rat alive while the enemy elephant is: the one piece it fears.
    pub const RAT_VS_ELEPHANT: usize = RAT_IN_WATER + 1;
    /// A piece standing where it is weakened (an enemy trap; any trap with
    /// `UniversalTraps`).
    pub const WEAKENED: usize = RAT_VS_ELEPHANT + 1;
    /// Enemy pieces within [`super::ATTACK_RADIUS`] of our den beyond the number of
    /// our defenders: one-hot by excess 1, 2, 3+ (3 weights, negative).
    pub const DEN_PRESSURE: usize = WEAKENED + 1;
    /// Our pieces on or next to our own traps (den defenders).
    pub const TRAP_GUARDS: usize = DEN_PRESSURE + PRESSURE_BUCKETS;
    /// Our traps that one of our pieces stands on or next to.
    pub const TRAPS_COVERED: usize = TRAP_GUARDS + 1;
    /// Runners: a piece 2, 3 or 4 steps from the enemy den while every enemy
    /// piece is farther from that den (3 weights).
    pub const RUNNER: usize = TRAPS_COVERED + 1;
    /// Enemy pieces the side to move can take, by the victim's rank - 1.
    pub const THREAT_TO_MOVE: usize = RUNNER + 3;
    /// Pieces of the side to move that the other side can take, by the victim's
    /// rank - 1 (counted positive; the weights are negative).
    pub const THREAT_WAITING: usize = THREAT_TO_MOVE + 8;
    /// Each move the side would have if it were to move.
    pub const MOBILITY: usize = THREAT_WAITING + 8;
    /// Each open river jump lane of our lion and tiger.
    pub const JUMP_LANES: usize = MOBILITY + 1;
    /// Each enemy jump lane our rat sits in (river control).
    pub const RIVER_BLOCK: usize = JUMP_LANES + 1;
    /// Having the move: one count for the side to move.
    pub const TEMPO: usize = RIVER_BLOCK + 1;
    /// Number of weights: the length of [`super::Weights`].
    pub const COUNT: usize = TEMPO + 1;
}

const RANK_NAMES: [&str; 8] = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"];

/// The name of weight `i`, for `eval`'s breakdown and the tuner's output:
/// `group.detail` where a term has several weights (`material.r3`,
/// `advance.r7.d2`), a bare word otherwise.
pub fn feature_name(i: usize) -> String {
    use feature::*;
    match i {
        _ if i < ADVANCE => format!("material.{}", RANK_NAMES[i - MATERIAL]),
        _ if i < RAT_IN_WATER => {
            let k = i - ADVANCE;
            format!(
                "advance.{}.d{}",
                RANK_NAMES[k / ADVANCE_BUCKETS],
                k % ADVANCE_BUCKETS + 1
            )
        }
        RAT_IN_WATER => "rat_in_water".into(),
        RAT_VS_ELEPHANT => "rat_vs_elephant".into(),
        WEAKENED => "weakened_on_trap".into(),
        _ if i < TRAP_GUARDS => format!("den_pressure.x{}", i - DEN_PRESSURE + 1),
        TRAP_GUARDS => "trap_guards".into(),
        TRAPS_COVERED => "traps_covered".into(),
        _ if i < THREAT_TO_MOVE => format!("runner.d{}", i - RUNNER + 2),
        _ if i < THREAT_WAITING => format!("threat_to_move.{}", RANK_NAMES[i - THREAT_TO_MOVE]),
        _ if i < MOBILITY => format!("threat_waiting.{}", RANK_NAMES[i - THREAT_WAITING]),
        MOBILITY => "mobility".into(),
        JUMP_LANES => "jump_lanes".into(),
        RIVER_BLOCK => "river_block".into(),
        TEMPO => "tempo".into(),
        _ => format!("unknown.{i}"),
    }
}

/// The evaluation's terms grouped for people, in the order `eval` prints them.
pub const TERMS: [&str; 12] = [
    "material",
    "advancement",
    "rat",
    "weakened on trap",
    "den safety",
    "trap control",
    "runners",
    "threats",
    "mobility",
    "jump lanes",
    "river control",
    "tempo",
];

/// Which of [`TERMS`] weight `i` belongs to.
pub fn term_of(i: usize) -> &'static str {
    use feature::*;
    match i {
        _ if i < ADVANCE => "material",
        _ if i < RAT_IN_WATER => "advancement",
        RAT_IN_WATER | RAT_VS_ELEPHANT => "rat",
        WEAKENED => "weakened on trap",
        _ if i < TRAPS_COVERED => "den safety",
        TRAPS_COVERED => "trap control",
        _ if i < THREAT_TO_MOVE => "runners",
        _ if i < MOBILITY => "threats",
        MOBILITY => "mobility",
        JUMP_LANES => "jump lanes",
        RIVER_BLOCK => "river control",
        _ => "tempo",
    }
}

choices! {
    /// Which static evaluation the search uses: the `Eval` option.
    pub enum EvalKind {
        /// The learned network (`nnue`, see `docs/nnue.md`).
        Nnue = "nnue",
        /// The linear evaluation of this module.
        Linear = "linear",
    }
}

impl EvalKind {
    /// What the engine uses until told otherwise: the one place to change it
    /// once matches show the net ahead.
    pub const DEFAULT: EvalKind = EvalKind::Nnue;
}

/// Every weight of the evaluation, indexed by [`feature`].
pub type Weights = [i32; feature::COUNT];

include!("weights.rs");

/// Receives feature counts as the evaluation finds them.
pub trait FeatureSink {
    /// `count` more of feature `index` (negative for the other side's).
    fn add(&mut self, index: usize, count: i32);
}

/// Sums weights times counts: the score.
struct Scorer<'a> {
    weights: &'a Weights,
    score: i32,
}

impl FeatureSink for Scorer<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.score += self.weights[index] * count;
    }
}

/// Collects the feature counts (for tuning and the `eval` breakdown).
impl FeatureSink for [i32; feature::COUNT] {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self[index] += count;
    }
}

const fn manhattan(a: usize, b: usize) -> usize {
    let (fa, ra, fb, rb) = (a % 7, a / 7, b % 7, b / 7);
    fa.abs_diff(fb) + ra.abs_diff(rb)
}

/// The den squares' indices, Red's then Blue's.
const DEN_SQUARES: [usize; 2] = [3, 59];

/// Manhattan distance of each square to each side's den.
const DEN_DISTANCE: [[u8; 63]; 2] = {
    let mut t = [[0; 63]; 2];
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < 63 {
            t[s][i] = manhattan(i, DEN_SQUARES[s]) as u8;
            i += 1;
        }
        s += 1;
    }
    t
};

/// The farthest any square is from a den (a corner on the far side).
const MAX_DEN_DISTANCE: usize = 11;

/// The squares at each Manhattan distance from each side's den, so that den
/// safety and runners are a few masks and popcounts, not loops over pieces.
const RINGS: [[Bitboard; MAX_DEN_DISTANCE + 1]; 2] = {
    let mut t = [[0; MAX_DEN_DISTANCE + 1]; 2];
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < 63 {
            t[s][DEN_DISTANCE[s][i] as usize] |= 1 << i;
            i += 1;
        }
        s += 1;
    }
    t
};

/// Squares within [`ATTACK_RADIUS`] of each side's den.
const DEN_ZONE: [Bitboard; 2] = {
    let mut t = [0; 2];
    let mut s = 0;
    while s < 2 {
        let mut d = 1;
        while d <= ATTACK_RADIUS {
            t[s] |= RINGS[s][d];
            d += 1;
        }
        s += 1;
    }
    t
};

/// Each side's traps and the squares next to them: where its den defenders stand.
const GUARD_ZONE: [Bitboard; 2] = {
    let mut t = [0; 2];
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < 63 {
            if TRAPS[s] & (1 << i) != 0 {
                t[s] |= (1 << i) | NEIGHBOURS[i];
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// `side`'s material, by the linear evaluation's tuned values of the animals.
pub fn material(pos: &Position, side: Side) -> i32 {
    (Animal::ALL.iter().enumerate())
        .filter(|&(_, &animal)| pos.square_of(Piece::new(side, animal)).is_some())
        .map(|(i, _)| WEIGHTS[feature::MATERIAL + i])
        .sum()
}

/// `eval` (for the side to move), scaled by `percent` / 100 where it is
/// likely a standoff: under `Repetition=draw` a defender that can shuffle
/// forever holds a besieged den, so an advantage the material does not back
/// (the side `eval` favours has less material) is worth less than the
/// evaluation, trained mostly where repetition is forbidden, says. Other
/// rules, and `percent` 100, leave it whole (`STANDOFF_PERCENT`).
#[inline]
pub fn standoff_scaled(eval: i32, pos: &Position, rules: &Rules, percent: i32) -> i32 {
    if rules.repetition != Repetition::Draw || percent >= 100 || eval == 0 {
        return eval;
    }
    let us = pos.side_to_move();
    let lead = material(pos, us) - material(pos, us.opponent());
    if (eval > 0 && lead < 0) || (eval < 0 && lead > 0) {
        eval * percent / 100
    } else {
        eval
    }
}

/// The evaluation of `pos` under `rules`, in centipawns for the side to move.
#[inline]
pub fn evaluate(pos: &Position, rules: &Rules, weights: &Weights) -> i32 {
    let mut scorer = Scorer { weights, score: 0 };
    features(pos, rules, &mut scorer);
    scorer.score
}

/// The feature counts of `pos`, from the side to move's view.
pub fn feature_counts(pos: &Position, rules: &Rules) -> [i32; feature::COUNT] {
    let mut counts = [0; feature::COUNT];
    features(pos, rules, &mut counts);
    counts
}

/// The score of each of [`TERMS`] for `pos` under `weights`, in the order of
/// [`TERMS`]; they sum to [`evaluate`].
pub fn term_scores(pos: &Position, rules: &Rules, weights: &Weights) -> [(&'static str, i32); 12] {
    let counts = feature_counts(pos, rules);
    let mut out = TERMS.map(|t| (t, 0));
    for (i, &c) in counts.iter().enumerate() {
        let slot = TERMS
            .iter()
            .position(|&t| t == term_of(i))
            .expect("every weight belongs to a listed term");
        out[slot].1 += weights[i] * c;
    }
    out
}

/// Feeds every feature of `pos` to `sink`, the side to move's as positive counts.
pub fn features(pos: &Position, rules: &Rules, sink: &mut impl FeatureSink) {
    use feature::*;
    let us = pos.side_to_move();
    let rat_bit = |side: Side| {
        pos.square_of(Piece::new(side, Animal::Rat))
            .map_or(0, Square::bit)
    };
    let rats = [rat_bit(Side::Red), rat_bit(Side::Blue)];
    // A decided position has no moves (as `Position::count_moves_of` says).
    let decided = pos.is_decided();
    for side in Side::BOTH {
        let sign = if side == us { 1 } else { -1 };
        let (s, e) = (side.index(), side.opponent().index());
        let enemy = side.opponent();
        let (own, theirs) = (pos.occupied(side), pos.occupied(enemy));
        let weakening = if rules.universal_traps {
            ALL_TRAPS
        } else {
            TRAPS[e]
        };
        let blockers = rules.jump_blockers(rats[s], rats[e]);
        // How far the enemy's nearest piece stands from its own den: a runner of
        // ours must be nearer still (no enemy piece is ever in its own den).
        let defender_distance = (1..=MAX_DEN_DISTANCE)
            .find(|&d| theirs & RINGS[e][d] != 0)
            .unwrap_or(MAX_DEN_DISTANCE + 1);
        let mut attacked: Bitboard = 0;
        let mut lanes = 0;
        let mut mobility = 0;
        for animal in Animal::ALL {
            let piece = Piece::new(side, animal);
            let Some(sq) = pos.square_of(piece) else {
                continue;
            };
            let role = rules.rank(animal) as usize - 1;
            sink.add(MATERIAL + role, sign);
            let d = DEN_DISTANCE[e][sq.index()] as usize;
            sink.add(
                ADVANCE + role * ADVANCE_BUCKETS + d.clamp(1, ADVANCE_BUCKETS) - 1,
                sign,
            );
            if RUNNER_DISTANCES.contains(&d) && d < defender_distance {
                sink.add(RUNNER + d - RUNNER_DISTANCES.start(), sign);
            }
            if animal == Animal::Rat && WATER & sq.bit() != 0 {
                sink.add(RAT_IN_WATER, sign);
            }
            if weakening & sq.bit() != 0 {
                sink.add(WEAKENED, sign);
            }
            // The piece's moves, as the move generator finds them (mobility), and
            // the victims among them (threats): one pass serves both.
            let jumps = jump_targets(rules, animal, sq, blockers);
            lanes += jumps.count_ones() as i32;
            let targets = (step_targets(animal, sq) | jumps) & !own & !DEN[s];
            mobility += (targets & !theirs).count_ones() as i32;
            for to in squares(targets & theirs) {
                if let Some(victim) = pos.piece_at(to)
                    && Position::can_capture(rules, piece, sq, victim, to)
                {
                    mobility += 1;
                    attacked |= to.bit();
                }
            }
        }
        sink.add(JUMP_LANES, sign * lanes);
        let threat = if side == us {
            THREAT_TO_MOVE
        } else {
            THREAT_WAITING
        };
        for to in squares(attacked) {
            if let Some(victim) = pos.piece_at(to) {
                sink.add(threat + rules.rank(victim.animal) as usize - 1, 1);
            }
        }
        if rats[s] != 0 && pos.square_of(Piece::new(enemy, Animal::Elephant)).is_some() {
            sink.add(RAT_VS_ELEPHANT, sign);
        }
        // Den safety: attackers near our den that our defenders do not match.
        let defenders = (own & GUARD_ZONE[s]).count_ones() as i32;
        sink.add(TRAP_GUARDS, sign * defenders);
        let excess = (theirs & DEN_ZONE[s]).count_ones() as i32 - defenders;
        if excess > 0 {
            let bucket = (excess as usize).min(PRESSURE_BUCKETS) - 1;
            sink.add(DEN_PRESSURE + bucket, sign);
        }
        let covered = squares(TRAPS[s])
            .filter(|t| own & (t.bit() | NEIGHBOURS[t.index()]) != 0)
            .count() as i32;
        sink.add(TRAPS_COVERED, sign * covered);
        // River control: enemy jump lanes that our rat closes.
        if rats[s] & WATER != 0 {
            let mut blocked = 0;
            for animal in [Animal::Lion, Animal::Tiger] {
                if let Some(sq) = pos.square_of(Piece::new(enemy, animal)) {
                    let open = jump_targets(rules, animal, sq, 0);
                    let past_our_rat = jump_targets(rules, animal, sq, rats[s]);
                    blocked += (open & !past_our_rat).count_ones() as i32;
                }
            }
            sink.add(RIVER_BLOCK, sign * blocked);
        }
        if !decided {
            sink.add(MOBILITY, sign * mobility);
        }
    }
    sink.add(TEMPO, 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let pos = Position::startpos();
        let counts = feature_counts(&pos, &Rules::default());
        for (i, &c) in counts.iter().enumerate() {
            if i != feature::TEMPO {
                assert_eq!(c, 0, "{}", feature_name(i));
            }
        }
    }

    #[test]
    fn evaluation_is_symmetric() {
        let fens = [
            "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34",
            "5e1/l1d4/2p1wc1/1r5/7/3t3/2W4/1C1D2R/ET3L1 b 9 48",
        ];
        for fen in fens {
            let pos: Position = fen.parse().unwrap();
            let rules = Rules::XOUDOUQI;
            assert_eq!(
                evaluate(&pos, &rules, &WEIGHTS),
                evaluate(&pos.mirrored(), &rules, &WEIGHTS)
            );
        }
    }

    #[test]
    fn a_standoff_is_scaled_only_under_repetition_draw_for_the_side_behind() {
        // Blue to move has less material (tiger, wolf, rat, elephant against
        // seven animals) but besieges Red's den.
        let pos: Position = "1L5/2t1w2/7/4R2/C2W3/1r5/7/1e2D2/2T2P1 b 4 66"
            .parse()
            .unwrap();
        assert!(material(&pos, Side::Blue) < material(&pos, Side::Red));
        let draw = Rules {
            repetition: Repetition::Draw,
            ..Rules::JUNGLE
        };
        assert_eq!(standoff_scaled(800, &pos, &draw, 25), 200);
        assert_eq!(standoff_scaled(800, &pos, &draw, 100), 800);
        // An evaluation that favours the side ahead in material is whole.
        assert_eq!(standoff_scaled(-800, &pos, &draw, 25), -800);
        for repetition in [Repetition::Forbid, Repetition::None] {
            let rules = Rules {
                repetition,
                ..Rules::JUNGLE
            };
            assert_eq!(standoff_scaled(800, &pos, &rules, 25), 800);
        }
    }

    #[test]
    fn every_weight_has_a_name_and_a_term() {
        for i in 0..feature::COUNT {
            assert!(!feature_name(i).starts_with("unknown"), "{i}");
            assert!(TERMS.contains(&term_of(i)), "{i}");
        }
    }

    #[test]
    fn rings_cover_the_board_once() {
        for rings in RINGS {
            let all = rings.iter().fold(0u64, |acc, r| {
                assert_eq!(acc & r, 0);
                acc | r
            });
            assert_eq!(all, crate::rules::ALL_SQUARES);
        }
    }

    #[test]
    fn term_scores_sum_to_the_evaluation() {
        let pos: Position = "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34"
            .parse()
            .unwrap();
        let rules = Rules::default();
        let sum: i32 = term_scores(&pos, &rules, &WEIGHTS)
            .iter()
            .map(|t| t.1)
            .sum();
        assert_eq!(sum, evaluate(&pos, &rules, &WEIGHTS));
    }
}
