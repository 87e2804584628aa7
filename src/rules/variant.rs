//! The rule switches on which the rule documents disagree, with the presets that
//! bundle them. See `docs/rules.md`, section "Switches".

use crate::options::{OptionError, OptionKind};
use std::fmt;

/// Which river jumps an animal has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpAxes {
    /// Along files and along ranks.
    Both,
    /// Along files only (over three water squares).
    Vertical,
    /// Along ranks only (over two water squares).
    Horizontal,
    /// No jumps.
    None,
}

impl JumpAxes {
    const NAMES: [&'static str; 4] = ["both", "vertical", "horizontal", "none"];
    const ALL: [JumpAxes; 4] = [
        JumpAxes::Both,
        JumpAxes::Vertical,
        JumpAxes::Horizontal,
        JumpAxes::None,
    ];

    /// Whether a jump along this axis is allowed.
    #[inline]
    pub fn allows(self, horizontal: bool) -> bool {
        match self {
            JumpAxes::Both => true,
            JumpAxes::Vertical => !horizontal,
            JumpAxes::Horizontal => horizontal,
            JumpAxes::None => false,
        }
    }

    fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Which rats in a river stop a jump over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpBlockedBy {
    /// A rat of either side.
    Any,
    /// Only the jumper's enemy rat; its own rat does not block.
    Enemy,
}

/// What the third occurrence of a position means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// A move that would make a position occur a third time is illegal.
    Forbid,
    /// The third occurrence draws the game.
    Draw,
    /// Repetition changes nothing.
    None,
}

/// Every rule switch of `docs/rules.md`. `Rules::default()` is the `jungle` preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Dog rank 4 and wolf rank 3 instead of the other way round.
    pub dog_over_wolf: bool,
    /// The tiger's river jumps (never horizontal-only: no rule document has that).
    pub tiger_jump: JumpAxes,
    /// The lion's river jumps.
    pub lion_jump: JumpAxes,
    /// A rat may take an enemy rat while moving between water and land.
    pub rat_bank_capture: bool,
    /// A rat in water may take an elephant on land.
    pub rat_water_elephant: bool,
    /// A piece on an enemy trap can capture nothing.
    pub trapped_attacker_powerless: bool,
    /// Every trap weakens any piece on it, its own side's traps too.
    pub universal_traps: bool,
    /// Which rats block jumps.
    pub jump_blocked_by: JumpBlockedBy,
    /// What a third occurrence of a position means.
    pub repetition: Repetition,
    /// Plies without capture after which the game is drawn; 0 turns the rule off.
    pub no_capture_limit: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::JUNGLE
    }
}

/// The protocol names of the rule options, in the order `uci` lists them.
pub const RULE_OPTION_NAMES: [&str; 11] = [
    "UCI_Variant",
    "DogOverWolf",
    "TigerJump",
    "LionJump",
    "RatBankCapture",
    "RatWaterElephant",
    "TrappedAttackerPowerless",
    "UniversalTraps",
    "JumpBlockedBy",
    "Repetition",
    "NoCaptureLimit",
];

/// The names of the presets, as `UCI_Variant` and `--variant` take them.
pub const VARIANTS: [&str; 2] = ["jungle", "xoudouqi"];

impl Rules {
    /// The defaults: the rules most widely played today.
    pub const JUNGLE: Rules = Rules {
        dog_over_wolf: false,
        tiger_jump: JumpAxes::Both,
        lion_jump: JumpAxes::Both,
        rat_bank_capture: false,
        rat_water_elephant: false,
        trapped_attacker_powerless: false,
        universal_traps: false,
        jump_blocked_by: JumpBlockedBy::Any,
        repetition: Repetition::Forbid,
        no_capture_limit: 100,
    };

    /// The French and Russian rule cards.
    pub const XOUDOUQI: Rules = Rules {
        dog_over_wolf: true,
        rat_bank_capture: true,
        trapped_attacker_powerless: true,
        repetition: Repetition::Forbid,
        ..Rules::JUNGLE
    };

    /// The preset with the given name (`jungle` or `xoudouqi`, any case).
    pub fn preset(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "jungle" => Some(Rules::JUNGLE),
            "xoudouqi" => Some(Rules::XOUDOUQI),
            _ => None,
        }
    }

    /// The name of the preset these rules equal, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        VARIANTS
            .into_iter()
            .find(|v| Rules::preset(v).as_ref() == Some(self))
    }

    /// The rank of an animal under these rules (1..8), before traps.
    #[inline]
    pub fn rank(&self, animal: crate::rules::Animal) -> u8 {
        use crate::rules::Animal;
        match animal {
            Animal::Dog if self.dog_over_wolf => 4,
            Animal::Wolf if self.dog_over_wolf => 3,
            a => a.index() as u8 + 1,
        }
    }

    /// The option's kind, default and range, for the protocol's `option` lines.
    pub fn option_kind(name: &str) -> Option<OptionKind> {
        let check = |default| OptionKind::Check { default };
        let d = Rules::JUNGLE;
        Some(match canonical(name)? {
            "UCI_Variant" => OptionKind::Combo {
                default: "jungle",
                choices: &VARIANTS,
            },
            "DogOverWolf" => check(d.dog_over_wolf),
            "TigerJump" => OptionKind::Combo {
                default: "both",
                choices: &["both", "vertical", "none"],
            },
            "LionJump" => OptionKind::Combo {
                default: "both",
                choices: &JumpAxes::NAMES,
            },
            "RatBankCapture" => check(d.rat_bank_capture),
            "RatWaterElephant" => check(d.rat_water_elephant),
            "TrappedAttackerPowerless" => check(d.trapped_attacker_powerless),
            "UniversalTraps" => check(d.universal_traps),
            "JumpBlockedBy" => OptionKind::Combo {
                default: "any",
                choices: &["any", "enemy"],
            },
            "Repetition" => OptionKind::Combo {
                default: "forbid",
                choices: &["forbid", "draw", "none"],
            },
            "NoCaptureLimit" => OptionKind::Spin {
                default: d.no_capture_limit as i64,
                min: 0,
                max: 10000,
            },
            _ => unreachable!("canonical() only answers listed names"),
        })
    }

    /// Sets one switch by its protocol name (case-insensitive, as UCI option names
    /// are). `UCI_Variant` replaces every switch by the preset's.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let key = canonical(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let kind = Rules::option_kind(key).expect("every canonical name has a kind");
        let value = value.trim();
        match key {
            "UCI_Variant" => {
                *self = Rules::preset(VARIANTS[kind.parse_choice(key, value)?])
                    .expect("every listed variant is a preset");
            }
            "DogOverWolf" => self.dog_over_wolf = kind.parse_bool(key, value)?,
            "TigerJump" => {
                self.tiger_jump = [JumpAxes::Both, JumpAxes::Vertical, JumpAxes::None]
                    [kind.parse_choice(key, value)?]
            }
            "LionJump" => self.lion_jump = JumpAxes::ALL[kind.parse_choice(key, value)?],
            "RatBankCapture" => self.rat_bank_capture = kind.parse_bool(key, value)?,
            "RatWaterElephant" => self.rat_water_elephant = kind.parse_bool(key, value)?,
            "TrappedAttackerPowerless" => {
                self.trapped_attacker_powerless = kind.parse_bool(key, value)?
            }
            "UniversalTraps" => self.universal_traps = kind.parse_bool(key, value)?,
            "JumpBlockedBy" => {
                self.jump_blocked_by =
                    [JumpBlockedBy::Any, JumpBlockedBy::Enemy][kind.parse_choice(key, value)?]
            }
            "Repetition" => {
                self.repetition = [Repetition::Forbid, Repetition::Draw, Repetition::None]
                    [kind.parse_choice(key, value)?]
            }
            "NoCaptureLimit" => self.no_capture_limit = kind.parse_int(key, value)? as u32,
            _ => unreachable!("canonical() only answers listed names"),
        }
        Ok(())
    }

    /// The current value of a switch, spelled as `set` takes it.
    pub fn get(&self, name: &str) -> Option<String> {
        let b = |v: bool| v.to_string();
        Some(match canonical(name)? {
            "UCI_Variant" => self.preset_name().unwrap_or("custom").to_string(),
            "DogOverWolf" => b(self.dog_over_wolf),
            "TigerJump" => self.tiger_jump.name().to_string(),
            "LionJump" => self.lion_jump.name().to_string(),
            "RatBankCapture" => b(self.rat_bank_capture),
            "RatWaterElephant" => b(self.rat_water_elephant),
            "TrappedAttackerPowerless" => b(self.trapped_attacker_powerless),
            "UniversalTraps" => b(self.universal_traps),
            "JumpBlockedBy" => match self.jump_blocked_by {
                JumpBlockedBy::Any => "any",
                JumpBlockedBy::Enemy => "enemy",
            }
            .to_string(),
            "Repetition" => match self.repetition {
                Repetition::Forbid => "forbid",
                Repetition::Draw => "draw",
                Repetition::None => "none",
            }
            .to_string(),
            "NoCaptureLimit" => self.no_capture_limit.to_string(),
            _ => unreachable!("canonical() only answers listed names"),
        })
    }

    /// Applies `Name=Value` settings in order, as the command line's `--set` gives them.
    pub fn apply_settings<'a>(
        &mut self,
        settings: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), OptionError> {
        for s in settings {
            let (name, value) = s.split_once('=').ok_or_else(|| OptionError::BadValue {
                name: s.to_string(),
                value: String::new(),
                expected: "Name=Value".to_string(),
            })?;
            self.set(name.trim(), value)?;
        }
        Ok(())
    }
}

/// The listed spelling of a rule option name given in any case.
fn canonical(name: &str) -> Option<&'static str> {
    RULE_OPTION_NAMES
        .into_iter()
        .find(|n| n.eq_ignore_ascii_case(name.trim()))
}

impl fmt::Display for Rules {
    /// Every switch as `Name=Value`, space-separated, without `UCI_Variant`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = RULE_OPTION_NAMES[1..]
            .iter()
            .map(|n| format!("{n}={}", self.get(n).expect("listed")))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_sets_to_each_value_and_reads_back() {
        for name in RULE_OPTION_NAMES {
            let values: Vec<String> = match Rules::option_kind(name).unwrap() {
                OptionKind::Check { .. } => vec!["true".into(), "false".into()],
                OptionKind::Combo { choices, .. } => {
                    choices.iter().map(|c| c.to_string()).collect()
                }
                OptionKind::Spin { min, max, .. } => vec![min.to_string(), max.to_string()],
                OptionKind::Button | OptionKind::String { .. } => vec![],
            };
            for v in values {
                let mut r = Rules::default();
                r.set(name, &v).unwrap();
                assert_eq!(r.get(name).unwrap(), v, "{name}");
            }
        }
    }

    #[test]
    fn bad_settings_are_refused_and_change_nothing() {
        let mut r = Rules::default();
        assert!(matches!(r.set("Nope", "1"), Err(OptionError::Unknown(_))));
        assert!(r.set("DogOverWolf", "yes").is_err());
        assert!(r.set("NoCaptureLimit", "10001").is_err());
        assert!(r.set("NoCaptureLimit", "-1").is_err());
        assert!(r.set("TigerJump", "horizontal").is_err());
        assert!(r.apply_settings(["DogOverWolf"]).is_err());
        assert_eq!(r, Rules::default());
    }

    #[test]
    fn presets_bundle_their_switches() {
        let mut r = Rules::default();
        r.set("uci_variant", "XouDouQi").unwrap();
        assert_eq!(r, Rules::XOUDOUQI);
        assert!(r.dog_over_wolf && r.rat_bank_capture && r.trapped_attacker_powerless);
        assert_eq!(r.get("UCI_Variant").unwrap(), "xoudouqi");
        r.set("UniversalTraps", "true").unwrap();
        assert_eq!(r.get("UCI_Variant").unwrap(), "custom");
    }
}
