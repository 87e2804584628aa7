//! The network's inputs: one per (perspective, piece, square), shared by the
//! engine's inference and the trainer so that both index the same weights.
//!
//! Each side sees the board from its own seat: Blue's view is the board turned
//! half a turn ([`Square::rotated`]), so the start position looks the same to
//! both sides and one set of weights serves both. A piece is "ours" or
//! "theirs" relative to the perspective:
//!
//! ```text
//! index = ((theirs ? 8 : 0) + animal) * 63 + square as seen by the perspective
//! ```
//!
//! giving [`INPUTS`] = 2 × 8 × 63 = 1008 inputs, of which at most 16 are active.
//!
//! Besides the board, a net may have [`RuleInput`]s: one per rule setting that
//! changes who wins (a repetition draw, no no-capture limit, the xoudouqi
//! switches), on for both perspectives alike while that setting is in force.

use crate::rules::{
    JumpBlockedBy, Piece, Position, Repetition, Rules, SQUARES, Side, Square, squares, switch,
};

/// Number of inputs of each perspective.
pub const INPUTS: usize = 2 * 8 * SQUARES;

/// Most active inputs in one position (every animal of both sides).
pub const MAX_ACTIVE: usize = 16;

/// The input that `piece` on `square` lights in `perspective`'s view.
#[inline]
pub fn feature_index(perspective: Side, piece: Piece, square: Square) -> usize {
    let theirs = usize::from(piece.side != perspective);
    let seen = match perspective {
        Side::Red => square,
        Side::Blue => square.rotated(),
    };
    ((theirs * 8) + piece.animal.index()) * SQUARES + seen.index()
}

/// The active inputs of `perspective` in `pos`, in square order.
pub fn active_features(pos: &Position, perspective: Side) -> impl Iterator<Item = usize> + '_ {
    squares(pos.occupied(Side::Red) | pos.occupied(Side::Blue)).map(move |sq| {
        let piece = pos.piece_at(sq).expect("an occupied square holds a piece");
        feature_index(perspective, piece, sq)
    })
}

/// An input of the net that says something about the rules in force rather
/// than the board: on for both perspectives alike, so in the engine it only
/// adds its row of `W1` to the hidden layer's bias (`docs/nnue.md`, "Rule
/// inputs"). Each is off under the default rules, so a net without rule
/// inputs is a net for the default rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleInput {
    /// `Repetition=draw`: a third occurrence draws.
    RepetitionDraw,
    /// `Repetition=none`: repetition changes nothing.
    RepetitionNone,
    /// `NoCaptureLimit=0`: no draw for want of captures.
    NoCaptureLimitOff,
    /// `DogOverWolf=true`: the dog ranks 4 and the wolf 3.
    DogOverWolf,
    /// `RatBankCapture=true`: a rat may take a rat while stepping between water and land.
    RatBankCapture,
    /// `TrappedAttackerPowerless=true`: an animal on an enemy trap captures nothing.
    TrappedAttackerPowerless,
    /// `RatWaterElephant=true`: a rat in the water may take an elephant on the bank.
    RatWaterElephant,
    /// `UniversalTraps=true`: every trap weakens whoever stands on it.
    UniversalTraps,
    /// `JumpBlockedBy=enemy`: only an enemy rat in the water blocks a jump.
    JumpBlockedByEnemy,
}

/// How many rule inputs there are.
pub const RULE_INPUTS: usize = RuleInput::ALL.len();

impl RuleInput {
    /// Every rule input, in the order of their codes (the file stores codes).
    pub const ALL: [RuleInput; 9] = [
        RuleInput::RepetitionDraw,
        RuleInput::RepetitionNone,
        RuleInput::NoCaptureLimitOff,
        RuleInput::DogOverWolf,
        RuleInput::RatBankCapture,
        RuleInput::TrappedAttackerPowerless,
        RuleInput::RatWaterElephant,
        RuleInput::UniversalTraps,
        RuleInput::JumpBlockedByEnemy,
    ];

    /// Its code in the net file.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The rule input with file code `code`, if there is one.
    pub fn from_code(code: u32) -> Option<RuleInput> {
        RuleInput::ALL.get(code as usize).copied()
    }

    /// The setting it stands for: the rule option's name and its value.
    pub fn setting(self) -> (&'static str, &'static str) {
        match self {
            RuleInput::RepetitionDraw => (switch::REPETITION, Repetition::Draw.name()),
            RuleInput::RepetitionNone => (switch::REPETITION, Repetition::None.name()),
            RuleInput::NoCaptureLimitOff => (switch::NO_CAPTURE_LIMIT, "0"),
            RuleInput::DogOverWolf => (switch::DOG_OVER_WOLF, "true"),
            RuleInput::RatBankCapture => (switch::RAT_BANK_CAPTURE, "true"),
            RuleInput::TrappedAttackerPowerless => (switch::TRAPPED_ATTACKER_POWERLESS, "true"),
            RuleInput::RatWaterElephant => (switch::RAT_WATER_ELEPHANT, "true"),
            RuleInput::UniversalTraps => (switch::UNIVERSAL_TRAPS, "true"),
            RuleInput::JumpBlockedByEnemy => (switch::JUMP_BLOCKED_BY, JumpBlockedBy::Enemy.name()),
        }
    }

    /// The setting it stands for as the protocol writes it, e.g. `Repetition=draw`.
    pub fn name(self) -> String {
        let (name, value) = self.setting();
        format!("{name}={value}")
    }

    /// Whether it is on under `rules`.
    pub fn is_on(self, rules: &Rules) -> bool {
        match self {
            RuleInput::RepetitionDraw => rules.repetition == Repetition::Draw,
            RuleInput::RepetitionNone => rules.repetition == Repetition::None,
            RuleInput::NoCaptureLimitOff => rules.no_capture_limit == 0,
            RuleInput::DogOverWolf => rules.dog_over_wolf,
            RuleInput::RatBankCapture => rules.rat_bank_capture,
            RuleInput::TrappedAttackerPowerless => rules.trapped_attacker_powerless,
            RuleInput::RatWaterElephant => rules.rat_water_elephant,
            RuleInput::UniversalTraps => rules.universal_traps,
            RuleInput::JumpBlockedByEnemy => rules.jump_blocked_by == JumpBlockedBy::Enemy,
        }
    }

    /// The rule inputs on under `rules`.
    pub fn active(rules: &Rules) -> impl Iterator<Item = RuleInput> + '_ {
        RuleInput::ALL.into_iter().filter(|r| r.is_on(rules))
    }
}

/// What of `rules` no rule input can say: the settings that differ from the
/// default rules in a way no [`RuleInput`] stands for (the river jumps, a
/// no-capture limit other than 0 and the default's), as `Name=Value`.
pub fn rules_without_input(rules: &Rules) -> Vec<String> {
    let default = Rules::default();
    let mut out = Vec::new();
    let mut say = |name: &str| {
        let value = rules.get(name).unwrap_or_default();
        out.push(format!("{name}={value}"));
    };
    if rules.tiger_jump != default.tiger_jump {
        say(switch::TIGER_JUMP);
    }
    if rules.lion_jump != default.lion_jump {
        say(switch::LION_JUMP);
    }
    if rules.no_capture_limit != 0 && rules.no_capture_limit != default.no_capture_limit {
        say(switch::NO_CAPTURE_LIMIT);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Animal;

    #[test]
    fn indices_cover_the_inputs_once() {
        let mut seen = vec![false; INPUTS];
        for perspective in Side::BOTH {
            seen.iter_mut().for_each(|s| *s = false);
            for side in Side::BOTH {
                for animal in Animal::ALL {
                    for sq in Square::all() {
                        let i = feature_index(perspective, Piece::new(side, animal), sq);
                        assert!(i < INPUTS);
                        assert!(!seen[i], "index {i} used twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn the_start_position_looks_the_same_to_both_sides() {
        let pos = Position::startpos();
        let mut red: Vec<usize> = active_features(&pos, Side::Red).collect();
        let mut blue: Vec<usize> = active_features(&pos, Side::Blue).collect();
        red.sort();
        blue.sort();
        assert_eq!(red.len(), MAX_ACTIVE);
        assert_eq!(red, blue);
    }

    #[test]
    fn rule_inputs_are_off_under_the_default_rules_and_name_their_setting() {
        assert_eq!(RuleInput::active(&Rules::default()).count(), 0);
        let xoudouqi: Vec<RuleInput> = RuleInput::active(&Rules::XOUDOUQI).collect();
        assert_eq!(
            xoudouqi,
            [
                RuleInput::DogOverWolf,
                RuleInput::RatBankCapture,
                RuleInput::TrappedAttackerPowerless
            ]
        );
        for (i, input) in RuleInput::ALL.into_iter().enumerate() {
            assert_eq!(RuleInput::from_code(input.code()), Some(input));
            assert_eq!(input.code() as usize, i);
            // The name is a setting the rules take, and it turns the input on.
            let (name, value) = input.setting();
            let mut rules = Rules::default();
            rules.set(name, value).unwrap();
            assert_eq!(RuleInput::active(&rules).collect::<Vec<_>>(), [input]);
        }
        assert_eq!(RuleInput::from_code(RULE_INPUTS as u32), None);
        let mut rules = Rules::default();
        rules.set("NoCaptureLimit", "50").unwrap();
        rules.set("LionJump", "none").unwrap();
        assert_eq!(
            rules_without_input(&rules),
            ["LionJump=none", "NoCaptureLimit=50"]
        );
    }
}
