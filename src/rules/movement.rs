//! How each piece moves, written once: the move generator, the evaluation's
//! mobility and threats, and the tablebases' un-move generator all read it
//! from here. A piece steps to a neighbouring square (into the water only as
//! a rat); the lion and the tiger also jump the river along the axes the
//! rules allow, unless a rat swims in the way. Whose pieces stand on the
//! target and which den is closed to whom is the caller's business.

use super::board::{Animal, Bitboard, JUMPS, NEIGHBOURS, Square, WATER};
use super::variant::{JumpAxes, JumpBlockedBy, Rules};

impl Rules {
    /// The river jumps `animal` may take under these rules (none but for the
    /// lion and the tiger).
    #[inline(always)]
    pub fn jump_axes(&self, animal: Animal) -> JumpAxes {
        match animal {
            Animal::Lion => self.lion_jump,
            Animal::Tiger => self.tiger_jump,
            _ => JumpAxes::None,
        }
    }

    /// The squares of the rats that stop a side's jumps, given its own rat's
    /// square and the enemy rat's (each a bitboard, empty when the rat is gone).
    #[inline(always)]
    pub fn jump_blockers(&self, own_rat: Bitboard, enemy_rat: Bitboard) -> Bitboard {
        match self.jump_blocked_by {
            JumpBlockedBy::Any => own_rat | enemy_rat,
            JumpBlockedBy::Enemy => enemy_rat,
        }
    }
}

/// The squares `animal` may ever stand on, dens aside: the land, and the
/// water too for a rat.
#[inline(always)]
pub fn standable(animal: Animal) -> Bitboard {
    if animal == Animal::Rat { !0 } else { !WATER }
}

/// The squares next to `from` that `animal` may step to.
#[inline(always)]
pub fn step_targets(animal: Animal, from: Square) -> Bitboard {
    NEIGHBOURS[from.index()] & standable(animal)
}

/// The squares `animal` on `from` lands on by jumping the river under `rules`,
/// when no rat on `blockers` is in the way. A jump is its own reverse, so the
/// same squares are where a jump to `from` can come from.
#[inline(always)]
pub fn jump_targets(rules: &Rules, animal: Animal, from: Square, blockers: Bitboard) -> Bitboard {
    let axes = rules.jump_axes(animal);
    let mut targets = 0;
    if axes != JumpAxes::None {
        for jump in JUMPS[from.index()].iter().flatten() {
            if axes.allows(jump.horizontal) && jump.over & blockers == 0 {
                targets |= jump.to.bit();
            }
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// Steps: land for all, water for the rat; jumps: the lion and tiger only,
    /// along the axes allowed, and never over a blocking rat.
    #[test]
    fn steps_and_jumps_follow_the_rules() {
        let bank = sq("a4");
        assert_eq!(step_targets(Animal::Rat, bank) & WATER, sq("b4").bit());
        assert_eq!(step_targets(Animal::Lion, bank) & WATER, 0);
        let rules = Rules::default();
        assert_eq!(jump_targets(&rules, Animal::Lion, bank, 0), sq("d4").bit());
        assert_eq!(jump_targets(&rules, Animal::Elephant, bank, 0), 0);
        assert_eq!(jump_targets(&rules, Animal::Lion, bank, sq("c4").bit()), 0);
        let below = sq("b3");
        assert_eq!(
            jump_targets(&rules, Animal::Tiger, below, 0),
            sq("b7").bit()
        );
        let vertical_only = Rules {
            lion_jump: JumpAxes::Vertical,
            ..rules
        };
        assert_eq!(jump_targets(&vertical_only, Animal::Lion, bank, 0), 0);
        assert_eq!(
            jump_targets(&vertical_only, Animal::Lion, below, 0),
            sq("b7").bit()
        );
    }

    /// `JumpBlockedBy=enemy` lets a side jump over its own rat.
    #[test]
    fn own_rats_block_only_under_any() {
        let (own, enemy) = (sq("b5").bit(), sq("e5").bit());
        assert_eq!(Rules::default().jump_blockers(own, enemy), own | enemy);
        let enemy_only = Rules {
            jump_blocked_by: JumpBlockedBy::Enemy,
            ..Rules::default()
        };
        assert_eq!(enemy_only.jump_blockers(own, enemy), enemy);
    }
}
