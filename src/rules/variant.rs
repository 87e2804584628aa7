//! The rule switches on which the rule documents disagree, with the presets that
//! bundle them. See `docs/rules.md`, section "Switches".

use super::board::Animal;
use crate::util::options::{OptionError, OptionKind, choices};
use std::fmt;

choices! {
    /// Which river jumps an animal has.
    pub enum JumpAxes {
        /// Along files and along ranks.
        Both = "both",
        /// Along files only (over three water squares).
        Vertical = "vertical",
        /// Along ranks only (over two water squares).
        Horizontal = "horizontal",
        /// No jumps: lion and tiger stop at the water like the other land animals.
        None = "none",
    }
}

impl JumpAxes {
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
}

/// The tiger's jumps: never horizontal-only, as no rule document has that.
const TIGER_JUMPS: [JumpAxes; 3] = [JumpAxes::Both, JumpAxes::Vertical, JumpAxes::None];

/// The `TigerJump` option's values, in the order of [`TIGER_JUMPS`].
const TIGER_JUMP_NAMES: [&str; 3] = [
    TIGER_JUMPS[0].name(),
    TIGER_JUMPS[1].name(),
    TIGER_JUMPS[2].name(),
];

choices! {
    /// Which rats in a river stop a jump over it.
    pub enum JumpBlockedBy {
        /// A rat of either side.
        Any = "any",
        /// Only the jumper's enemy rat; its own rat does not block.
        Enemy = "enemy",
    }
}

choices! {
    /// What the third occurrence of a position means.
    pub enum Repetition {
        /// A move that would make a position occur a third time is illegal.
        Forbid = "forbid",
        /// The third occurrence draws the game.
        Draw = "draw",
        /// Repetition changes nothing: only the no-capture limit ends an endless game.
        None = "none",
    }
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

/// The names of the presets, as `UCI_Variant` and `--variant` take them.
pub const VARIANTS: [&str; 2] = ["jungle", "xoudouqi"];

/// The presets, in the order of [`VARIANTS`].
const PRESETS: [Rules; 2] = [Rules::JUNGLE, Rules::XOUDOUQI];

/// The protocol names of the rule options, each written once: the table
/// below and every other place that names one (the GUI's labels, the
/// tables' header, the net's rule inputs) use these.
pub mod switch {
    /// The preset, which sets every switch.
    pub const VARIANT: &str = "UCI_Variant";
    /// [`super::Rules::dog_over_wolf`].
    pub const DOG_OVER_WOLF: &str = "DogOverWolf";
    /// [`super::Rules::tiger_jump`].
    pub const TIGER_JUMP: &str = "TigerJump";
    /// [`super::Rules::lion_jump`].
    pub const LION_JUMP: &str = "LionJump";
    /// [`super::Rules::rat_bank_capture`].
    pub const RAT_BANK_CAPTURE: &str = "RatBankCapture";
    /// [`super::Rules::rat_water_elephant`].
    pub const RAT_WATER_ELEPHANT: &str = "RatWaterElephant";
    /// [`super::Rules::trapped_attacker_powerless`].
    pub const TRAPPED_ATTACKER_POWERLESS: &str = "TrappedAttackerPowerless";
    /// [`super::Rules::universal_traps`].
    pub const UNIVERSAL_TRAPS: &str = "UniversalTraps";
    /// [`super::Rules::jump_blocked_by`].
    pub const JUMP_BLOCKED_BY: &str = "JumpBlockedBy";
    /// [`super::Rules::repetition`].
    pub const REPETITION: &str = "Repetition";
    /// [`super::Rules::no_capture_limit`].
    pub const NO_CAPTURE_LIMIT: &str = "NoCaptureLimit";
}

/// One rule option: its protocol name, its kind (with the default of the
/// `jungle` preset and its range), how it reads from the rules and how a
/// checked value sets it. The one place a rule option is declared: `uci` lists
/// them in this order, after the engine's own options.
pub struct RuleOption {
    /// The protocol name, as `setoption` and `--set` take it (any case).
    pub name: &'static str,
    /// What values it takes, and its default.
    pub kind: OptionKind,
    get: fn(&Rules) -> String,
    set: fn(&mut Rules, &OptionKind, &str, &str) -> Result<(), OptionError>,
}

/// A `check` rule option stored in a field of [`Rules`].
macro_rules! check_rule {
    ($name:expr, $field:ident) => {
        RuleOption {
            name: $name,
            kind: OptionKind::Check {
                default: Rules::JUNGLE.$field,
            },
            get: |r| r.$field.to_string(),
            set: |r, kind, name, value| {
                r.$field = kind.parse_bool(name, value)?;
                Ok(())
            },
        }
    };
}

/// A `combo` rule option stored in a field of [`Rules`], its values `names`
/// standing for the choices `all`.
macro_rules! combo_rule {
    ($name:expr, $field:ident, $all:expr, $names:expr) => {
        RuleOption {
            name: $name,
            kind: OptionKind::Combo {
                default: Rules::JUNGLE.$field.name(),
                choices: &$names,
            },
            get: |r| r.$field.name().to_string(),
            set: |r, kind, name, value| {
                r.$field = $all[kind.parse_choice(name, value)?];
                Ok(())
            },
        }
    };
}

/// Every rule option, in the order `uci` lists them: the preset first (it
/// replaces every switch), then one per field of [`Rules`].
pub const RULE_OPTIONS: [RuleOption; 11] = [
    RuleOption {
        name: switch::VARIANT,
        kind: OptionKind::Combo {
            default: VARIANTS[0],
            choices: &VARIANTS,
        },
        get: |r| r.preset_name().unwrap_or("custom").to_string(),
        set: |r, kind, name, value| {
            *r = PRESETS[kind.parse_choice(name, value)?];
            Ok(())
        },
    },
    check_rule!(switch::DOG_OVER_WOLF, dog_over_wolf),
    combo_rule!(
        switch::TIGER_JUMP,
        tiger_jump,
        TIGER_JUMPS,
        TIGER_JUMP_NAMES
    ),
    combo_rule!(switch::LION_JUMP, lion_jump, JumpAxes::ALL, JumpAxes::NAMES),
    check_rule!(switch::RAT_BANK_CAPTURE, rat_bank_capture),
    check_rule!(switch::RAT_WATER_ELEPHANT, rat_water_elephant),
    check_rule!(
        switch::TRAPPED_ATTACKER_POWERLESS,
        trapped_attacker_powerless
    ),
    check_rule!(switch::UNIVERSAL_TRAPS, universal_traps),
    combo_rule!(
        switch::JUMP_BLOCKED_BY,
        jump_blocked_by,
        JumpBlockedBy::ALL,
        JumpBlockedBy::NAMES
    ),
    combo_rule!(
        switch::REPETITION,
        repetition,
        Repetition::ALL,
        Repetition::NAMES
    ),
    RuleOption {
        name: switch::NO_CAPTURE_LIMIT,
        kind: OptionKind::Spin {
            default: Rules::JUNGLE.no_capture_limit as i64,
            min: 0,
            max: 10000,
        },
        get: |r| r.no_capture_limit.to_string(),
        set: |r, kind, name, value| {
            r.no_capture_limit = kind.parse_int(name, value)? as u32;
            Ok(())
        },
    },
];

/// The rule option called `name` (any case, surrounding blanks ignored).
pub fn rule_option(name: &str) -> Option<&'static RuleOption> {
    RULE_OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

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
        let i = VARIANTS.iter().position(|v| v.eq_ignore_ascii_case(name))?;
        Some(PRESETS[i])
    }

    /// The name of the preset these rules equal, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        let i = PRESETS.iter().position(|p| p == self)?;
        Some(VARIANTS[i])
    }

    /// The rank of an animal under these rules (1..8), before traps.
    #[inline]
    pub fn rank(&self, animal: Animal) -> u8 {
        match animal {
            Animal::Dog if self.dog_over_wolf => 4,
            Animal::Wolf if self.dog_over_wolf => 3,
            a => a.index() as u8 + 1,
        }
    }

    /// The option's kind, default and range, for the protocol's `option` lines.
    pub fn option_kind(name: &str) -> Option<OptionKind> {
        rule_option(name).map(|o| o.kind.clone())
    }

    /// Sets one switch by its protocol name (case-insensitive, as UCI option names
    /// are). `UCI_Variant` replaces every switch by the preset's.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let option = rule_option(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        (option.set)(self, &option.kind, option.name, value.trim())
    }

    /// The current value of a switch, spelled as `set` takes it.
    pub fn get(&self, name: &str) -> Option<String> {
        rule_option(name).map(|o| (o.get)(self))
    }

    /// Every switch as `(name, value)`, in the order `uci` lists them, without
    /// `UCI_Variant` (which the switches imply): what to send another engine.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        RULE_OPTIONS[1..]
            .iter()
            .map(|o| (o.name, (o.get)(self)))
            .collect()
    }

    /// Applies `Name=Value` settings in order, as the command line's `--set` gives them.
    pub fn apply_settings<'a>(
        &mut self,
        settings: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), OptionError> {
        for s in settings {
            let (name, value) = s
                .split_once('=')
                .ok_or_else(|| OptionError::NotASetting(s.to_string()))?;
            self.set(name.trim(), value)?;
        }
        Ok(())
    }
}

impl fmt::Display for Rules {
    /// Every switch as `Name=Value`, space-separated, without `UCI_Variant`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .settings()
            .into_iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_sets_to_each_value_and_reads_back() {
        for RuleOption { name, kind, .. } in &RULE_OPTIONS {
            let values: Vec<String> = match kind.clone() {
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
    fn each_option_reads_its_default_and_sets_its_own_switch_alone() {
        let d = Rules::default();
        for option in &RULE_OPTIONS {
            let default = match option.kind.clone() {
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Combo { default, .. } => default.to_string(),
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Button | OptionKind::String { .. } => unreachable!("no such rule"),
            };
            assert_eq!(d.get(option.name).unwrap(), default, "{}", option.name);
        }
        // Each switch set away from its default changes its own value and no
        // other switch's: no two options share a field.
        for (i, option) in RULE_OPTIONS.iter().enumerate().skip(1) {
            let other = match option.kind.clone() {
                OptionKind::Check { default } => (!default).to_string(),
                OptionKind::Combo { choices, default } => {
                    choices.iter().find(|c| **c != default).unwrap().to_string()
                }
                OptionKind::Spin { default, .. } => (default + 1).to_string(),
                OptionKind::Button | OptionKind::String { .. } => unreachable!("no such rule"),
            };
            let mut r = Rules::default();
            r.set(&option.name.to_lowercase(), &other).unwrap();
            for (j, o) in RULE_OPTIONS.iter().enumerate().skip(1) {
                assert_eq!(
                    i == j,
                    r.get(o.name) != d.get(o.name),
                    "{} vs {}",
                    option.name,
                    o.name
                );
            }
        }
        assert_eq!(TIGER_JUMP_NAMES, ["both", "vertical", "none"]);
        assert_eq!(
            Rules::XOUDOUQI.to_string().split(' ').count(),
            RULE_OPTIONS.len() - 1
        );
    }

    #[test]
    fn bad_settings_are_refused_and_change_nothing() {
        let mut r = Rules::default();
        assert!(matches!(r.set("Nope", "1"), Err(OptionError::Unknown(_))));
        assert!(r.set("DogOverWolf", "yes").is_err());
        assert!(r.set("NoCaptureLimit", "10001").is_err());
        assert!(r.set("NoCaptureLimit", "-1").is_err());
        assert!(r.set("TigerJump", "horizontal").is_err());
        let one_word = r.apply_settings(["DogOverWolf"]).unwrap_err();
        assert_eq!(one_word, OptionError::NotASetting("DogOverWolf".into()));
        assert!(
            one_word.to_string().contains("expected Name=Value"),
            "{one_word}"
        );
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
