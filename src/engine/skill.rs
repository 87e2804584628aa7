//! Levels for people: `Skill Level` 0–20 and `UCI_LimitStrength` with
//! `UCI_Elo`. A weaker level searches less (a depth and a node cap) and then
//! plays one of the best few root moves, not always the best: the search
//! reports at least [`SKILL_LINES`] lines, and the move played is the one
//! whose score plus a random push is highest, the push at most a margin that
//! shrinks as the level rises. A move more than that margin worse than the
//! best is never played, so a weak level misjudges, it does not blunder at
//! random. The randomness is seeded by the position and the level: the same
//! position at the same level gets the same move.

use crate::util::rng::SplitMix64;

/// The level of full strength: nothing is limited.
pub const FULL_STRENGTH: i32 = 20;

/// The fewest lines the root search keeps at a limited level, to choose
/// among; the levels under [`LOOSE_BELOW`] keep more (see [`Skill::lines`]).
pub const SKILL_LINES: usize = 4;

/// The level under which the choice loosens faster than the straight line:
/// more lines and a margin growing with the square of the distance. With the
/// straight line alone the levels spanned only about 600 Elo (docs/strength.md).
pub const LOOSE_BELOW: f64 = 10.0;

/// The rating of every even level, 0 to 20 (full strength): `UCI_Elo` picks
/// the level by this table, in proportion between two entries. It is the
/// levels' rating list, docs/records/level-ratings.json (`doushou ratings`
/// of one round robin of the even levels and full strength, full strength
/// fixed at 2800 at 100,000 nodes a move), rounded to 10; tests/skill.rs
/// checks that they agree. The scale is this engine's own.
pub const LEVEL_ELO: [(f64, i32); 11] = [
    (0.0, 1970),
    (2.0, 2020),
    (4.0, 2060),
    (6.0, 2190),
    (8.0, 2260),
    (10.0, 2380),
    (12.0, 2440),
    (14.0, 2520),
    (16.0, 2580),
    (18.0, 2660),
    (20.0, 2800),
];

/// The weakest `UCI_Elo` accepted: level 0's rating.
pub const ELO_MIN: i32 = LEVEL_ELO[0].1;
/// The strongest `UCI_Elo` accepted: full strength's rating.
pub const ELO_MAX: i32 = LEVEL_ELO[LEVEL_ELO.len() - 1].1;

/// Round ratings from [`ELO_MIN`] up to under [`ELO_MAX`], every 100: the
/// weakened strengths a front end offers (the GUI's level menu).
pub fn elo_choices() -> Vec<i32> {
    let first = (ELO_MIN + 99) / 100 * 100;
    (first..ELO_MAX).step_by(100).collect()
}

/// The level that plays at `elo` (clamped to the table's range): in
/// proportion between the two levels whose ratings enclose it.
fn level_for_elo(elo: i32) -> f64 {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    for pair in LEVEL_ELO.windows(2) {
        let ((low_level, low_elo), (high_level, high_elo)) = (pair[0], pair[1]);
        if elo <= high_elo {
            let part = f64::from(elo - low_elo) / f64::from(high_elo - low_elo);
            return low_level + part * (high_level - low_level);
        }
    }
    f64::from(FULL_STRENGTH)
}

/// How strongly to play: a level from 0 (weakest) to 20 (full strength),
/// fractional when it comes from `UCI_Elo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill(f64);

impl Skill {
    /// The level the options ask for: `UCI_Elo` when `limit_strength` is on,
    /// else `Skill Level`. `None` for full strength.
    pub fn from_options(skill_level: i32, limit_strength: bool, elo: i32) -> Option<Skill> {
        let level = if limit_strength {
            level_for_elo(elo)
        } else {
            f64::from(skill_level.clamp(0, FULL_STRENGTH))
        };
        (level < f64::from(FULL_STRENGTH)).then_some(Skill(level))
    }

    /// The level, 0 to under 20.
    pub fn level(self) -> f64 {
        self.0
    }

    /// The deepest iteration: one ply at level 0, one more per level.
    pub fn depth_cap(self) -> i32 {
        1 + self.0 as i32
    }

    /// The most nodes: 100 at level 0, doubling every two levels (about 100
    /// thousand at level 19, a fraction of a second).
    pub fn node_cap(self) -> u64 {
        (100.0 * 2f64.powf(self.0 / 2.0)) as u64
    }

    /// How far under [`LOOSE_BELOW`] the level is, 0 at and above it.
    fn looseness(self) -> f64 {
        (LOOSE_BELOW - self.0).max(0.0)
    }

    /// The lines to choose among: [`SKILL_LINES`], one more per level under
    /// [`LOOSE_BELOW`] (14 at level 0), so that a weak level sees, and may
    /// play, the worse moves too.
    pub fn lines(self) -> usize {
        SKILL_LINES + self.looseness().ceil() as usize
    }

    /// The most centipawns the move played may be worse than the best, as
    /// the search scored them: 12 per level under full strength, plus 6 times
    /// the square of the levels under [`LOOSE_BELOW`]: 0.12 pawns at level 19,
    /// 1.2 at level 10, 8.4 at level 0 (a tiger is worth about 6.6 and a
    /// cat 0.7 to the net), so the weakest levels give pieces away.
    pub fn margin(self) -> i32 {
        let straight = (f64::from(FULL_STRENGTH) - self.0) * 12.0;
        (straight + 6.0 * self.looseness().powi(2)) as i32
    }

    /// Which of `scores` (the root lines, best first, in centipawns or mate
    /// scores) to play in the position whose key is `key`: the best score
    /// plus a push in `0..=margin` among the lines within the margin of the
    /// first. A mate found is kept: no line within the margin of a mate is
    /// anything but a mate.
    pub fn choose(self, scores: &[i32], key: u64) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        let margin = self.margin();
        let seed = key ^ (self.0 * 1000.0) as u64 ^ 0x5EED_5EED_5EED_5EED;
        let mut rng = SplitMix64::new(seed);
        let mut chosen = 0;
        let mut chosen_value = i64::MIN;
        for (i, &score) in scores.iter().enumerate() {
            if best.saturating_sub(score) > margin {
                break;
            }
            let push = rng.below(margin as usize + 1) as i64;
            let value = i64::from(score) + push;
            if value > chosen_value {
                chosen = i;
                chosen_value = value;
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_come_from_skill_level_or_from_the_elo() {
        assert_eq!(Skill::from_options(20, false, ELO_MIN), None);
        assert_eq!(Skill::from_options(7, false, ELO_MIN), Some(Skill(7.0)));
        assert_eq!(Skill::from_options(20, true, ELO_MIN), Some(Skill(0.0)));
        assert_eq!(Skill::from_options(0, true, ELO_MAX), None);
        // Each level's rating plays as that level, and between two ratings the
        // level is in proportion; the table rises with the level.
        for &(level, elo) in &LEVEL_ELO[..LEVEL_ELO.len() - 1] {
            let skill = Skill::from_options(20, true, elo).unwrap();
            assert!(
                (skill.level() - level).abs() < 1e-9,
                "{elo}: {}",
                skill.level()
            );
        }
        let ((l0, e0), (l1, e1)) = (LEVEL_ELO[4], LEVEL_ELO[5]);
        let mid = Skill::from_options(20, true, (e0 + e1) / 2).unwrap();
        assert!(
            (mid.level() - (l0 + l1) / 2.0).abs() < 0.01,
            "{}",
            mid.level()
        );
        assert!(
            LEVEL_ELO
                .windows(2)
                .all(|p| p[0].0 < p[1].0 && p[0].1 < p[1].1)
        );
        assert_eq!(
            Skill::from_options(20, true, ELO_MIN - 100),
            Some(Skill(0.0))
        );
        // Lower levels search less and choose more loosely.
        let (low, high) = (Skill(0.0), Skill(19.0));
        assert!(low.depth_cap() < high.depth_cap());
        assert!(low.node_cap() < high.node_cap());
        assert!(low.margin() > high.margin() && high.margin() > 0);
        assert!(low.lines() > high.lines() && high.lines() == SKILL_LINES);
        // Margin and lines never grow with the level, fractional levels too.
        for tenth in 0..200 {
            let (a, b) = (Skill(tenth as f64 / 10.0), Skill((tenth + 1) as f64 / 10.0));
            assert!(
                a.margin() >= b.margin() && a.lines() >= b.lines(),
                "{tenth}"
            );
        }
        assert_eq!((Skill(0.0).margin(), Skill(0.0).lines()), (840, 14));
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_depends_on_the_position() {
        let skill = Skill(0.0);
        let scores = [100, 90, 95 - skill.margin(), -500];
        let mut seen = [false; 4];
        for key in 0..200u64 {
            let i = skill.choose(&scores, key);
            assert!(i < 2, "{i}: a move beyond the margin");
            assert_eq!(i, skill.choose(&scores, key), "deterministic");
            seen[i] = true;
        }
        assert!(seen[0] && seen[1], "both near-best moves get played");
        // A mate is never given up for a quiet move.
        let mate = crate::engine::score::MATE - 3;
        for key in 0..50u64 {
            assert_eq!(skill.choose(&[mate, 200, 190], key), 0);
        }
        assert_eq!(skill.choose(&[], 1), 0);
    }
}
