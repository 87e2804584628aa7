//! Den races decided two moves ahead: a step next to the enemy den that
//! nothing can answer wins on the move after, whatever the enemy plays.

use super::board::{DEN_APPROACH, squares};
use super::position::{Move, Position};
use super::variant::Rules;

impl Position {
    /// A step onto a square next to the enemy den that the enemy cannot
    /// answer: no enemy piece can take the runner there and the enemy cannot
    /// enter our den first, so our next move enters the den. `None` where
    /// there is none, or where the den can be entered at once (that wins
    /// sooner). Repetition and the no-capture limit are the game's to weigh.
    #[inline]
    pub fn unstoppable_den_step(&self, rules: &Rules) -> Option<Move> {
        let us = self.side_to_move();
        let them = us.opponent();
        let target = DEN_APPROACH[them.index()];
        let doors = target[1] & !target[0];
        let runners = self.occupied(us) & target[2] & !target[1];
        if runners == 0 || self.is_decided() {
            return None;
        }
        let our_doors = DEN_APPROACH[us.index()][1];
        if our_doors & self.occupied(them) != 0 {
            // Next to our den, the enemy enters it first.
            return None;
        }
        let blockers = self.jump_blockers(rules, us);
        for from in squares(runners) {
            let Some(runner) = self.piece_at(from) else {
                continue;
            };
            for to in squares(self.targets(rules, runner, from, blockers) & doors) {
                if let Some(defender) = self.piece_at(to)
                    && !Position::can_capture(rules, runner, from, defender, to)
                {
                    continue;
                }
                let step = Move::new(from, to);
                let mut after = *self;
                after.make(step);
                if !after.generate_captures(rules).iter().any(|m| m.to() == to) {
                    return Some(step);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{DEN, NEIGHBOURS};
    use super::super::variant::Rules;
    use super::*;

    fn step(fen: &str) -> Option<String> {
        let p: Position = fen.parse().unwrap();
        p.unstoppable_den_step(&Rules::default())
            .map(|m| m.to_string())
    }

    #[test]
    fn a_free_runner_steps_next_to_the_den() {
        // Red's rat on d7, two steps from Blue's den (d9); Blue's lion far.
        assert_eq!(step("7/7/3R3/7/7/l6/7/7/7 w 0 1").as_deref(), Some("d7d8"));
    }

    #[test]
    fn a_guard_next_to_the_door_stops_it() {
        // Blue's cat on c8 takes a runner on d8; the runner's other doors
        // are two steps away.
        assert_eq!(step("7/2c4/3R3/7/7/l6/7/7/7 w 0 1"), None);
    }

    #[test]
    fn an_enemy_at_our_den_wins_first() {
        assert_eq!(step("7/7/3R3/7/7/7/7/7/2l4 w 0 1"), None);
    }

    #[test]
    fn the_neighbouring_squares_are_the_den_plus_its_ring() {
        assert_eq!(DEN_APPROACH[0][1], DEN[0] | NEIGHBOURS[3]);
    }
}
