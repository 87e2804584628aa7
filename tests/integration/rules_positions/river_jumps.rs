//! River jumps.

use super::*;

/// Each land square next to a river: its land steps, and its jumps (landing
/// square, water squares crossed, horizontal?) as docs/rules.md lists them.
/// A jump: landing square, the water squares crossed, and whether it is horizontal.
type JumpSpec = (&'static str, &'static [&'static str], bool);

const JUMP_ORIGINS: &[(&str, &[&str], &[JumpSpec])] = &[
    (
        "b3",
        &["a3", "c3", "b2"],
        &[("b7", &["b4", "b5", "b6"], false)],
    ),
    (
        "c3",
        &["b3", "d3", "c2"],
        &[("c7", &["c4", "c5", "c6"], false)],
    ),
    (
        "e3",
        &["d3", "f3", "e2"],
        &[("e7", &["e4", "e5", "e6"], false)],
    ),
    (
        "f3",
        &["e3", "g3", "f2"],
        &[("f7", &["f4", "f5", "f6"], false)],
    ),
    (
        "b7",
        &["a7", "c7", "b8"],
        &[("b3", &["b4", "b5", "b6"], false)],
    ),
    (
        "c7",
        &["b7", "d7", "c8"],
        &[("c3", &["c4", "c5", "c6"], false)],
    ),
    (
        "e7",
        &["d7", "f7", "e8"],
        &[("e3", &["e4", "e5", "e6"], false)],
    ),
    (
        "f7",
        &["e7", "g7", "f8"],
        &[("f3", &["f4", "f5", "f6"], false)],
    ),
    ("a4", &["a3", "a5"], &[("d4", &["b4", "c4"], true)]),
    (
        "d4",
        &["d3", "d5"],
        &[("a4", &["b4", "c4"], true), ("g4", &["e4", "f4"], true)],
    ),
    ("g4", &["g3", "g5"], &[("d4", &["e4", "f4"], true)]),
    ("a5", &["a4", "a6"], &[("d5", &["b5", "c5"], true)]),
    (
        "d5",
        &["d4", "d6"],
        &[("a5", &["b5", "c5"], true), ("g5", &["e5", "f5"], true)],
    ),
    ("g5", &["g4", "g6"], &[("d5", &["e5", "f5"], true)]),
    ("a6", &["a5", "a7"], &[("d6", &["b6", "c6"], true)]),
    (
        "d6",
        &["d5", "d7"],
        &[("a6", &["b6", "c6"], true), ("g6", &["e6", "f6"], true)],
    ),
    ("g6", &["g5", "g7"], &[("d6", &["e6", "f6"], true)]),
];

/// The switch values for one jumper and which axes each allows (vertical, horizontal).
fn jump_settings(animal: char) -> Vec<(String, bool, bool)> {
    let (name, values): (&str, &[(&str, bool, bool)]) = match animal {
        'L' => (
            "LionJump",
            &[
                ("both", true, true),
                ("vertical", true, false),
                ("horizontal", false, true),
                ("none", false, false),
            ],
        ),
        'T' => (
            "TigerJump",
            &[
                ("both", true, true),
                ("vertical", true, false),
                ("none", false, false),
            ],
        ),
        _ => unreachable!(),
    };
    values
        .iter()
        .map(|&(v, vert, hor)| (format!("{name}={v}"), vert, hor))
        .collect()
}

/// The letter of `animal` for `side` ('w' Red, 'b' Blue).
fn letter(animal: char, side: char) -> char {
    if side == 'w' {
        animal.to_ascii_uppercase()
    } else {
        animal.to_ascii_lowercase()
    }
}

/// A far-away enemy piece, so that the other side still has pieces.
fn far_enemy(side: char) -> &'static str {
    if side == 'w' { "ea9" } else { "Eg1" }
}

#[test]
fn every_jump_under_every_jump_switch() {
    let mut failures = Vec::new();
    for &(from, steps, jumps) in JUMP_ORIGINS {
        for side in ['w', 'b'] {
            for animal in ['L', 'T'] {
                // The other jumper's switch must not matter: set it to none.
                let other = if animal == 'L' {
                    "TigerJump=none"
                } else {
                    "LionJump=none"
                };
                for (setting, vert, hor) in jump_settings(animal) {
                    let fen = fen_of(
                        &format!("{}{from} {}", letter(animal, side), far_enemy(side)),
                        side,
                    );
                    let r = rules(&[&setting, other]);
                    let mut want: BTreeSet<String> =
                        steps.iter().map(|s| format!("{from}{s}")).collect();
                    for &(to, _, horizontal) in jumps {
                        if (horizontal && hor) || (!horizontal && vert) {
                            want.insert(format!("{from}{to}"));
                        }
                    }
                    let got = moves_from(&fen, &r, from);
                    if got != want {
                        failures.push(format!("{fen} [{setting}]: want {want:?}, got {got:?}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_other_animals_never_jump() {
    // A panther, elephant, wolf and dog next to a river only step.
    let fen = "6c/7/7/7/P6/7/1E1W1D1/7/7 w";
    board(fen, "Pa5 Eb3 Wd3 Df3 cg9");
    let r = Rules::default();
    assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &r, "b3"), set(&["b3a3", "b3c3", "b3b2"]));
    assert_eq!(
        moves_from(fen, &r, "d3"),
        set(&["d3c3", "d3e3", "d3d2", "d3d4"])
    );
    assert_eq!(moves_from(fen, &r, "f3"), set(&["f3e3", "f3g3", "f3f2"]));
}

#[test]
fn a_rat_on_the_path_blocks_a_jump() {
    let mut failures = Vec::new();
    for &(from, steps, jumps) in JUMP_ORIGINS {
        for side in ['w', 'b'] {
            for animal in ['L', 'T'] {
                for &(to, over, _) in jumps {
                    for &water in over {
                        for own_rat in [true, false] {
                            let rat = if own_rat == (side == 'w') { 'R' } else { 'r' };
                            for blocked_by in ["any", "enemy"] {
                                let fen = fen_of(
                                    &format!(
                                        "{}{from} {rat}{water} {}",
                                        letter(animal, side),
                                        far_enemy(side)
                                    ),
                                    side,
                                );
                                let r = rules(&[&format!("JumpBlockedBy={blocked_by}")]);
                                let blocks = !own_rat || blocked_by == "any";
                                let got = moves_from(&fen, &r, from);
                                let jump = format!("{from}{to}");
                                if got.contains(&jump) == blocks {
                                    failures.push(format!(
                                        "{fen} [JumpBlockedBy={blocked_by}]: {jump} {}",
                                        if blocks {
                                            "should be blocked"
                                        } else {
                                            "should be open"
                                        }
                                    ));
                                }
                                // The steps stay whatever the rat does.
                                for s in steps {
                                    if !got.contains(&format!("{from}{s}")) {
                                        failures.push(format!("{fen}: step {from}{s} lost"));
                                    }
                                }
                                // A jump over the other river is unaffected.
                                for &(to2, over2, _) in jumps {
                                    if !over2.contains(&water)
                                        && !got.contains(&format!("{from}{to2}"))
                                    {
                                        failures.push(format!("{fen}: {from}{to2} lost"));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn two_rats_in_a_river_block_as_their_sides_say() {
    // Red lion b3; Red rat b4 and Blue rat b6 on the path: blocked under both values.
    let fen = "6c/7/7/1r5/7/1R5/1L5/7/7 w";
    board(fen, "Lb3 Rb4 rb6 cg9");
    for v in ["any", "enemy"] {
        let r = rules(&[&format!("JumpBlockedBy={v}")]);
        assert_eq!(
            moves_from(fen, &r, "b3"),
            set(&["b3a3", "b3c3", "b3b2"]),
            "{v}"
        );
    }
    // A rat on the landing square is not on the path: the lion takes it.
    let fen = "6c/7/1r5/7/7/7/1L5/7/7 w";
    board(fen, "Lb3 rb7 cg9");
    for v in ["any", "enemy"] {
        let r = rules(&[&format!("JumpBlockedBy={v}")]);
        assert_eq!(
            moves_from(fen, &r, "b3"),
            set(&["b3a3", "b3c3", "b3b2", "b3b7"]),
            "{v}"
        );
    }
    // A rat in the other river does not block.
    let fen = "6c/7/7/7/4r2/7/1L5/7/7 w";
    board(fen, "Lb3 re5 cg9");
    assert!(moves_from(fen, &Rules::default(), "b3").contains("b3b7"));
}

#[test]
fn a_jump_may_not_land_on_its_own_side() {
    let mut failures = Vec::new();
    for &(from, _, jumps) in JUMP_ORIGINS {
        for &(to, _, _) in jumps {
            for animal in ['L', 'T'] {
                let fen = fen_of(&format!("{animal}{from} D{to} ea9"), 'w');
                let got = moves_from(&fen, &Rules::default(), from);
                if got.contains(&format!("{from}{to}")) {
                    failures.push(format!("{fen}: jump onto own dog on {to}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_jump_captures_by_rank() {
    // (jumper, defender, allowed) for every pair among the jumpers and a few others.
    let cases = [
        ('L', 'e', false),
        ('L', 'l', true),
        ('L', 't', true),
        ('L', 'p', true),
        ('L', 'r', true),
        ('T', 'e', false),
        ('T', 'l', false),
        ('T', 't', true),
        ('T', 'w', true),
        ('T', 'c', true),
    ];
    let mut failures = Vec::new();
    for &(from, _, jumps) in JUMP_ORIGINS {
        for &(to, _, _) in jumps {
            for (attacker, defender, allowed) in cases {
                let fen = fen_of(&format!("{attacker}{from} {defender}{to}"), 'w');
                let got = moves_from(&fen, &Rules::default(), from);
                if got.contains(&format!("{from}{to}")) != allowed {
                    failures.push(format!(
                        "{fen}: {attacker} jumping onto {defender}: want allowed={allowed}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The same by hand, Blue jumping: tiger b7 over the river onto a Red lion, a
    // Red tiger and a Red panther.
    let fen = "7/7/1t5/7/7/7/1L5/7/7 b";
    board(fen, "tb7 Lb3");
    assert_eq!(
        moves_from(fen, &Rules::default(), "b7"),
        set(&["b7a7", "b7c7", "b7b8"])
    );
    let fen = "7/7/1t5/7/7/7/1T5/7/7 b";
    board(fen, "tb7 Tb3");
    assert_eq!(
        moves_from(fen, &Rules::default(), "b7"),
        set(&["b7a7", "b7c7", "b7b8", "b7b3"])
    );
    let fen = "7/7/7/7/3l2P/7/7/7/7 b";
    board(fen, "ld5 Pg5");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d5"),
        set(&["d5d4", "d5d6", "d5a5", "d5g5"])
    );
}
