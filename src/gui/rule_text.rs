//! What the page says about each rule option: a name for people and one
//! sentence on what it changes (after docs/rules.md), beside the protocol
//! name that scripts use.

/// The label and the explanation of a rule option, by protocol name; the
/// name itself (and no explanation) for an option not listed here.
pub fn rule_text(name: &'static str) -> (&'static str, &'static str) {
    match name {
        "UCI_Variant" => (
            "Rule set",
            "jungle: the common rules; xoudouqi: the rules of the French and Russian cards. Choosing one sets every switch below.",
        ),
        "DogOverWolf" => (
            "Dog outranks wolf",
            "The dog has rank 4 and the wolf rank 3 (they swap).",
        ),
        "TigerJump" => (
            "Tiger jumps",
            "Which river jumps the tiger may make: both kinds, only the vertical ones, or none.",
        ),
        "LionJump" => (
            "Lion jumps",
            "Which river jumps the lion may make: both kinds, only the vertical or horizontal ones, or none.",
        ),
        "RatBankCapture" => (
            "Rat takes rat across the bank",
            "A rat may take an enemy rat while stepping between water and land.",
        ),
        "RatWaterElephant" => (
            "Rat in water takes elephant",
            "A rat in the water may take an elephant standing on the bank next to it.",
        ),
        "TrappedAttackerPowerless" => (
            "Trapped animals cannot capture",
            "An animal standing on an enemy trap can capture nothing at all.",
        ),
        "UniversalTraps" => (
            "Every trap weakens",
            "All six traps weaken whoever stands on them, the owner's animals included.",
        ),
        "JumpBlockedBy" => (
            "Rats that block jumps",
            "Which swimming rats block a lion's or tiger's jump: any rat, or only an enemy rat.",
        ),
        "Repetition" => (
            "Repetition",
            "forbid: a move repeating a position a third time is illegal; draw: it draws; none: it changes nothing (a draw may then be claimed).",
        ),
        "NoCaptureLimit" => (
            "Plies without capture",
            "The game is drawn after this many plies in a row without a capture; 0 turns the rule off.",
        ),
        other => (other, ""),
    }
}
