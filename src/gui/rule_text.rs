//! What the page says about each rule option: a name for people and one
//! sentence on what it changes (after docs/rules.md), beside the protocol
//! name that scripts use.

use crate::rules::switch;

/// The label and the explanation of a rule option, by protocol name; the
/// name itself (and no explanation) for an option not listed here.
pub fn rule_text(name: &'static str) -> (&'static str, &'static str) {
    match name {
        switch::VARIANT => (
            "Rule set",
            "jungle: the common rules; xoudouqi: the rules of the French and Russian cards. Choosing one sets every switch below.",
        ),
        switch::DOG_OVER_WOLF => (
            "Dog outranks wolf",
            "The dog has rank 4 and the wolf rank 3 (they swap).",
        ),
        switch::TIGER_JUMP => (
            "Tiger jumps",
            "Which river jumps the tiger may make: both kinds, only the vertical ones, or none.",
        ),
        switch::LION_JUMP => (
            "Lion jumps",
            "Which river jumps the lion may make: both kinds, only the vertical or horizontal ones, or none.",
        ),
        switch::RAT_BANK_CAPTURE => (
            "Rat takes rat across the bank",
            "A rat may take an enemy rat while stepping between water and land.",
        ),
        switch::RAT_WATER_ELEPHANT => (
            "Rat in water takes elephant",
            "A rat in the water may take an elephant standing on the bank next to it.",
        ),
        switch::TRAPPED_ATTACKER_POWERLESS => (
            "Trapped animals cannot capture",
            "An animal standing on an enemy trap can capture nothing at all.",
        ),
        switch::UNIVERSAL_TRAPS => (
            "Every trap weakens",
            "All six traps weaken whoever stands on them, the owner's animals included.",
        ),
        switch::JUMP_BLOCKED_BY => (
            "Rats that block jumps",
            "Which swimming rats block a lion's or tiger's jump: any rat, or only an enemy rat.",
        ),
        switch::REPETITION => (
            "Repetition",
            "forbid: a move repeating a position a third time is illegal; draw: it draws; none: it changes nothing (a draw may then be claimed).",
        ),
        switch::NO_CAPTURE_LIMIT => (
            "Plies without capture",
            "The game is drawn after this many plies in a row without a capture; 0 turns the rule off.",
        ),
        other => (other, ""),
    }
}
