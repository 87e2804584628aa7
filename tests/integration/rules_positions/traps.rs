//! Traps.

use super::*;

#[test]
fn any_enemy_takes_a_piece_on_its_trap() {
    // Blue elephant on Red's trap c1, Red cat c2.
    let fen = "7/7/7/7/7/7/7/2C4/2e4 w";
    board(fen, "Cc2 ec1");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c2"),
        set(&["c2b2", "c2d2", "c2c3", "c2c1"])
    );
    // Blue lion on Red's trap d2, Red cat d3.
    let fen = "7/7/7/7/7/7/3C3/3l3/7 w";
    board(fen, "Cd3 ld2");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d3"),
        set(&["d3c3", "d3e3", "d3d4", "d3d2"])
    );
    // Red elephant on Blue's trap e9, Blue rat e8 (rat from land) and Blue cat
    // on f9 both may take it.
    let fen = "4Ec1/4r2/7/7/7/7/7/7/7 b";
    board(fen, "Ee9 cf9 re8");
    let r = Rules::default();
    assert!(moves_from(fen, &r, "f9").contains("f9e9"));
    assert!(moves_from(fen, &r, "e8").contains("e8e9"));
}

#[test]
fn a_piece_on_its_own_trap_keeps_its_rank() {
    // Blue elephant on its own trap c9, Red cat c8.
    let fen = "2e4/2C4/7/7/7/7/7/7/7 w";
    board(fen, "Cc8 ec9");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c8"),
        set(&["c8b8", "c8d8", "c8c7"])
    );
    assert_eq!(
        moves_from(fen, &rules(&["UniversalTraps=true"]), "c8"),
        set(&["c8b8", "c8d8", "c8c7", "c8c9"])
    );
    // The elephant on its own trap still takes the cat (never its own den).
    let fen = "2e4/2C4/7/7/7/7/7/7/7 b";
    board(fen, "Cc8 ec9");
    for r in [
        Rules::default(),
        rules(&["UniversalTraps=true"]),
        rules(&["TrappedAttackerPowerless=true"]),
    ] {
        assert_eq!(moves_from(fen, &r, "c9"), set(&["c9b9", "c9c8"]));
    }
    // ... but not with both switches: then any trap makes it powerless.
    assert_eq!(
        moves_from(
            fen,
            &rules(&["UniversalTraps=true", "TrappedAttackerPowerless=true"]),
            "c9"
        ),
        set(&["c9b9"])
    );
}

#[test]
fn trapped_attacker_powerless() {
    let off = Rules::default();
    let on = rules(&["TrappedAttackerPowerless=true"]);
    // Red elephant on Blue's trap d8, Blue cat d7.
    let fen = "7/3E3/3c3/7/7/7/7/7/7 w";
    board(fen, "Ed8 cd7");
    assert_eq!(
        moves_from(fen, &off, "d8"),
        set(&["d8c8", "d8e8", "d8d9", "d8d7"])
    );
    assert_eq!(moves_from(fen, &on, "d8"), set(&["d8c8", "d8e8", "d8d9"]));
    // The cat takes the trapped elephant either way.
    let fen_b = "7/3E3/3c3/7/7/7/7/7/7 b";
    for r in [off, on] {
        assert!(moves_from(fen_b, &r, "d7").contains("d7d8"));
    }
    // Red rat on Blue's trap e9, Blue elephant e8: the rat-elephant exception is
    // powerless too.
    let fen = "4R2/4e2/7/7/7/7/7/7/7 w";
    board(fen, "Re9 ee8");
    assert_eq!(moves_from(fen, &off, "e9"), set(&["e9d9", "e9f9", "e9e8"]));
    assert_eq!(moves_from(fen, &on, "e9"), set(&["e9d9", "e9f9"]));
}

#[test]
fn own_trap_powerless_only_with_universal_traps() {
    // Red elephant on its own trap d2, Blue cat d3.
    let fen = "7/7/7/7/7/7/3c3/3E3/7 w";
    board(fen, "Ed2 cd3");
    let all = set(&["d2c2", "d2e2", "d2d3"]);
    assert_eq!(moves_from(fen, &Rules::default(), "d2"), all);
    assert_eq!(
        moves_from(fen, &rules(&["TrappedAttackerPowerless=true"]), "d2"),
        all
    );
    assert_eq!(moves_from(fen, &rules(&["UniversalTraps=true"]), "d2"), all);
    assert_eq!(
        moves_from(
            fen,
            &rules(&["UniversalTraps=true", "TrappedAttackerPowerless=true"]),
            "d2"
        ),
        set(&["d2c2", "d2e2"])
    );
    // And with UniversalTraps the cat may take the elephant on Red's own trap.
    let fen = "7/7/7/7/7/7/3c3/3E3/7 b";
    assert!(!moves_from(fen, &Rules::default(), "d3").contains("d3d2"));
    assert!(moves_from(fen, &rules(&["UniversalTraps=true"]), "d3").contains("d3d2"));
}
