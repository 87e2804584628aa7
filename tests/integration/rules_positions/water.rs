//! Water.

use super::*;

#[test]
fn the_rat_enters_and_swims() {
    let r = Rules::default();
    let fen = "6c/7/7/7/7/7/1R5/7/7 w";
    board(fen, "Rb3 cg9");
    assert_eq!(
        moves_from(fen, &r, "b3"),
        set(&["b3a3", "b3c3", "b3b2", "b3b4"])
    );
    let fen = "6c/7/7/7/2R4/7/7/7/7 w";
    board(fen, "Rc5 cg9");
    assert_eq!(
        moves_from(fen, &r, "c5"),
        set(&["c5b5", "c5d5", "c5c4", "c5c6"])
    );
    // Blue's rat in the right-hand river, at its corner.
    let fen = "7/7/7/5r1/7/7/7/7/C6 b";
    board(fen, "rf6 Ca1");
    assert_eq!(
        moves_from(fen, &r, "f6"),
        set(&["f6e6", "f6g6", "f6f5", "f6f7"])
    );
}

#[test]
fn other_animals_stay_out_of_water() {
    // Cat a5, dog d5, elephant b7, wolf c3, panther f7 (and lion/tiger with
    // jumps off, so only their steps are left).
    let fen = "6c/7/1E3P1/7/C2D3/7/2W4/7/7 w";
    board(fen, "Ca5 Dd5 Eb7 Wc3 Pf7 cg9");
    let r = Rules::default();
    assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &r, "d5"), set(&["d5d4", "d5d6"]));
    assert_eq!(moves_from(fen, &r, "b7"), set(&["b7a7", "b7c7", "b7b8"]));
    assert_eq!(moves_from(fen, &r, "c3"), set(&["c3b3", "c3d3", "c3c2"]));
    assert_eq!(moves_from(fen, &r, "f7"), set(&["f7e7", "f7g7", "f7f8"]));
    let fen = "6c/7/7/7/3T3/7/7/7/7 w";
    board(fen, "Td5 cg9");
    assert_eq!(
        moves_from(fen, &rules(&["TigerJump=none"]), "d5"),
        set(&["d5d4", "d5d6"])
    );
}

#[test]
fn rat_bank_capture() {
    let off = Rules::default();
    let on = rules(&["RatBankCapture=true"]);
    let ele = rules(&["RatWaterElephant=true"]);
    // Red rat in water b5, Blue rat on land a5.
    let fen = "7/7/7/7/rR5/7/7/7/7 w";
    board(fen, "Rb5 ra5");
    assert_eq!(moves_from(fen, &off, "b5"), set(&["b5b4", "b5b6", "b5c5"]));
    assert_eq!(moves_from(fen, &ele, "b5"), moves_from(fen, &off, "b5"));
    assert_eq!(
        moves_from(fen, &on, "b5"),
        set(&["b5b4", "b5b6", "b5c5", "b5a5"])
    );
    // The same board, Blue to move: land to water.
    let fen = "7/7/7/7/rR5/7/7/7/7 b";
    board(fen, "Rb5 ra5");
    assert_eq!(moves_from(fen, &off, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &on, "a5"), set(&["a5a4", "a5a6", "a5b5"]));
    // Red rat on land a5, Blue rat in water b5: land to water for Red.
    let fen = "7/7/7/7/Rr5/7/7/7/7 w";
    board(fen, "Ra5 rb5");
    assert_eq!(moves_from(fen, &off, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &on, "a5"), set(&["a5a4", "a5a6", "a5b5"]));
    // A rat crossing the bank onto a piece other than a rat never takes it.
    let fen = "7/7/7/7/cR5/7/7/7/7 w";
    board(fen, "Rb5 ca5");
    for r in [off, on, ele] {
        assert_eq!(moves_from(fen, &r, "b5"), set(&["b5b4", "b5b6", "b5c5"]));
    }
}

#[test]
fn two_rats_in_water_take_each_other() {
    let fen = "7/7/7/7/1Rr4/7/7/7/7 w";
    board(fen, "Rb5 rc5");
    for r in [Rules::default(), rules(&["RatBankCapture=true"])] {
        assert_eq!(
            moves_from(fen, &r, "b5"),
            set(&["b5b4", "b5b6", "b5a5", "b5c5"])
        );
    }
    let fen = "7/7/7/7/1Rr4/7/7/7/7 b";
    board(fen, "Rb5 rc5");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c5"),
        set(&["c5c4", "c5c6", "c5d5", "c5b5"])
    );
    // Two rats on land too, of course.
    let fen = "7/7/7/r6/R6/7/7/7/7 w";
    board(fen, "Ra5 ra6");
    assert!(moves_from(fen, &Rules::default(), "a5").contains("a5a6"));
}

#[test]
fn rat_in_water_and_the_elephant() {
    let off = Rules::default();
    let on = rules(&["RatWaterElephant=true"]);
    let bank = rules(&["RatBankCapture=true"]);
    // Red rat in water b5, Blue elephant on land a5.
    let fen = "7/7/7/7/eR5/7/7/7/7 w";
    board(fen, "Rb5 ea5");
    assert_eq!(moves_from(fen, &off, "b5"), set(&["b5b4", "b5b6", "b5c5"]));
    assert_eq!(moves_from(fen, &bank, "b5"), moves_from(fen, &off, "b5"));
    assert_eq!(
        moves_from(fen, &on, "b5"),
        set(&["b5b4", "b5b6", "b5c5", "b5a5"])
    );
    // The elephant on land never reaches the rat in water.
    let fen = "7/7/7/7/eR5/7/7/7/7 b";
    board(fen, "Rb5 ea5");
    for r in [off, on, bank] {
        assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    }
    // Nor does any land piece: a lion beside a Blue rat in water (the rat also
    // blocks the lion's jump along rank 5).
    let fen = "7/7/7/7/Lr5/7/7/7/7 w";
    board(fen, "La5 rb5");
    for r in [off, on, bank, rules(&["JumpBlockedBy=enemy"])] {
        assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    }
}
