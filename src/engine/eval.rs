//! The static evaluation, in centipawns from the side to move's view.
//!
//! The evaluation is linear: a sum of weights times feature counts, where each
//! feature is a count for the side to move minus the same count for the other
//! side (or, for threats, a count seen from one side only). Every weight lives in
//! one table, [`Weights`]; the same code that scores a position also lists its
//! features, which is what the Texel tuner fits (`doushou tune`).
//!
//! Animals are looked up by *rank* (1..8 under the rules in force), not by
//! name, so `DogOverWolf` simply swaps which weights the dog and the wolf use.

use crate::rules::{
    ALL_TRAPS, Animal, NEIGHBOURS, Piece, Position, Rules, Side, Square, TRAPS, WATER, squares,
};

/// Distance buckets for advancement: Manhattan distance to the enemy den, 1..=10
/// (farther counts as 10).
pub const ADVANCE_BUCKETS: usize = 10;

/// Index of each weight in the table. Ranged features take a block of indices.
pub mod feature {
    use super::ADVANCE_BUCKETS;
    /// Material by rank - 1 (8 weights).
    pub const MATERIAL: usize = 0;
    /// Advancement by rank - 1 and distance bucket (8 x 10 weights).
    pub const ADVANCE: usize = MATERIAL + 8;
    /// A rat in the water.
    pub const RAT_IN_WATER: usize = ADVANCE + 8 * ADVANCE_BUCKETS;
    /// A piece standing where it is weakened (an enemy trap; any trap with
    /// `UniversalTraps`) and not in the den's reach.
    pub const WEAKENED: usize = RAT_IN_WATER + 1;
    /// Enemy pieces at distance 2 and 3 from our den (2 weights).
    pub const DEN_ATTACKERS: usize = WEAKENED + 1;
    /// Our pieces on or next to our own traps.
    pub const TRAP_GUARDS: usize = DEN_ATTACKERS + 2;
    /// Pieces of the side to move that attack an enemy piece, by the victim's rank - 1.
    pub const THREAT_TO_MOVE: usize = TRAP_GUARDS + 1;
    /// Pieces of the side not to move that attack one of the side to move's, by
    /// the victim's rank - 1 (counted positive; the weights are negative).
    pub const THREAT_WAITING: usize = THREAT_TO_MOVE + 8;
    /// Each legal move.
    pub const MOBILITY: usize = THREAT_WAITING + 8;
    /// A lion or tiger with a river jump open from its square.
    pub const JUMP_READY: usize = MOBILITY + 1;
    /// Having the move.
    pub const TEMPO: usize = JUMP_READY + 1;
    /// Number of weights.
    pub const COUNT: usize = TEMPO + 1;
}

/// The names of the weights, for `eval`'s breakdown and the tuner's output.
pub fn feature_name(i: usize) -> String {
    use feature::*;
    const RANKS: [&str; 8] = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"];
    match i {
        _ if i < ADVANCE => format!("material.{}", RANKS[i - MATERIAL]),
        _ if i < RAT_IN_WATER => {
            let k = i - ADVANCE;
            format!(
                "advance.{}.d{}",
                RANKS[k / ADVANCE_BUCKETS],
                k % ADVANCE_BUCKETS + 1
            )
        }
        RAT_IN_WATER => "rat_in_water".into(),
        WEAKENED => "weakened_on_trap".into(),
        _ if i < TRAP_GUARDS => format!("den_attackers.d{}", i - DEN_ATTACKERS + 2),
        TRAP_GUARDS => "trap_guards".into(),
        _ if i < THREAT_WAITING => format!("threat_to_move.{}", RANKS[i - THREAT_TO_MOVE]),
        _ if i < MOBILITY => format!("threat_waiting.{}", RANKS[i - THREAT_WAITING]),
        MOBILITY => "mobility".into(),
        JUMP_READY => "jump_ready".into(),
        TEMPO => "tempo".into(),
        _ => format!("unknown.{i}"),
    }
}

/// The evaluation's terms grouped for people: `eval` prints these.
pub fn term_of(i: usize) -> &'static str {
    use feature::*;
    match i {
        _ if i < ADVANCE => "material",
        _ if i < RAT_IN_WATER => "advancement",
        RAT_IN_WATER => "rat in water",
        WEAKENED => "weakened on trap",
        _ if i < TRAP_GUARDS => "den attackers",
        TRAP_GUARDS => "trap guards",
        _ if i < MOBILITY => "threats",
        MOBILITY => "mobility",
        JUMP_READY => "jump lanes",
        _ => "tempo",
    }
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

/// Manhattan distance of each square to each side's den.
const DEN_DISTANCE: [[u8; 63]; 2] = {
    let mut t = [[0; 63]; 2];
    let dens = [3usize, 59];
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < 63 {
            t[s][i] = manhattan(i, dens[s]) as u8;
            i += 1;
        }
        s += 1;
    }
    t
};

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

/// Feeds every feature of `pos` to `sink`, the side to move's as positive counts.
pub fn features(pos: &Position, rules: &Rules, sink: &mut impl FeatureSink) {
    use feature::*;
    let us = pos.side_to_move();
    for side in Side::BOTH {
        let sign = if side == us { 1 } else { -1 };
        let enemy = side.opponent();
        let own_traps = TRAPS[side.index()];
        let weakening = if rules.universal_traps {
            ALL_TRAPS
        } else {
            TRAPS[enemy.index()]
        };
        let guard_zone = own_traps | squares(own_traps).fold(0, |z, t| z | NEIGHBOURS[t.index()]);
        for sq in squares(pos.occupied(side)) {
            let piece = pos.piece_at(sq).expect("occupied square has a piece");
            let role = rules.rank(piece.animal) as usize - 1;
            sink.add(MATERIAL + role, sign);
            let d = DEN_DISTANCE[enemy.index()][sq.index()] as usize;
            let bucket = d.clamp(1, ADVANCE_BUCKETS) - 1;
            sink.add(ADVANCE + role * ADVANCE_BUCKETS + bucket, sign);
            if piece.animal == Animal::Rat && WATER & sq.bit() != 0 {
                sink.add(RAT_IN_WATER, sign);
            }
            if weakening & sq.bit() != 0 {
                sink.add(WEAKENED, sign);
            }
            if guard_zone & sq.bit() != 0 {
                sink.add(TRAP_GUARDS, sign);
            }
            if matches!(piece.animal, Animal::Lion | Animal::Tiger)
                && jump_open(pos, rules, piece, sq)
            {
                sink.add(JUMP_READY, sign);
            }
            // Threats: enemy pieces this piece could take next move.
            for to in squares(NEIGHBOURS[sq.index()] & pos.occupied(enemy)) {
                let victim = pos.piece_at(to).expect("occupied");
                if Position::can_capture(rules, piece, sq, victim, to) {
                    let v = rules.rank(victim.animal) as usize - 1;
                    if side == us {
                        sink.add(THREAT_TO_MOVE + v, 1);
                    } else {
                        sink.add(THREAT_WAITING + v, 1);
                    }
                }
            }
        }
        // Enemy pieces closing in on this side's den count against it.
        for sq in squares(pos.occupied(enemy)) {
            match DEN_DISTANCE[side.index()][sq.index()] {
                2 => sink.add(DEN_ATTACKERS, -sign),
                3 => sink.add(DEN_ATTACKERS + 1, -sign),
                _ => {}
            }
        }
        sink.add(MOBILITY, sign * pos.count_moves_of(rules, side) as i32);
    }
    sink.add(TEMPO, 1);
}

/// Whether the lion or tiger on `sq` has an open river jump under `rules`.
fn jump_open(pos: &Position, rules: &Rules, piece: Piece, sq: Square) -> bool {
    let axes = if piece.animal == Animal::Lion {
        rules.lion_jump
    } else {
        rules.tiger_jump
    };
    let rats = Side::BOTH
        .into_iter()
        .filter_map(|s| pos.square_of(Piece::new(s, Animal::Rat)))
        .fold(0u64, |b, s| b | s.bit());
    crate::rules::JUMPS[sq.index()]
        .iter()
        .flatten()
        .any(|j| axes.allows(j.horizontal) && j.over & rats == 0)
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
}
