//! Rat and elephant.

use super::*;

#[test]
fn rat_takes_elephant_on_land_but_not_back() {
    // Red rat a4, Blue elephant a5, both on land.
    let fen = "7/7/7/7/e6/R6/7/7/7 w";
    board(fen, "Ra4 ea5");
    assert_eq!(
        moves_from(fen, &Rules::default(), "a4"),
        set(&["a4a3", "a4b4", "a4a5"])
    );
    let fen = "7/7/7/7/e6/R6/7/7/7 b";
    board(fen, "Ra4 ea5");
    assert_eq!(moves_from(fen, &Rules::default(), "a5"), set(&["a5a6"]));
    // DogOverWolf and friends do not change that.
    assert_eq!(
        moves_from(
            fen,
            &rules(&["DogOverWolf=true", "RatBankCapture=true"]),
            "a5"
        ),
        set(&["a5a6"])
    );
}

#[test]
fn elephant_takes_rat_only_on_the_elephants_trap() {
    // Blue rat on Red's trap c1, Red elephant c2.
    let fen = "7/7/7/7/7/7/7/2E4/2r4 w";
    board(fen, "Ec2 rc1");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c2"),
        set(&["c2b2", "c2d2", "c2c3", "c2c1"])
    );
    // Red rat on Blue's trap d8, Blue elephant d7.
    let fen = "7/3R3/3e3/7/7/7/7/7/7 b";
    board(fen, "ed7 Rd8");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d7"),
        set(&["d7c7", "d7e7", "d7d6", "d7d8"])
    );
    // Blue rat on its own trap d8, Red elephant d7: not by default; with
    // UniversalTraps the trap weakens its own side's rat too.
    let fen = "7/3r3/3E3/7/7/7/7/7/7 w";
    board(fen, "Ed7 rd8");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d7"),
        set(&["d7c7", "d7e7", "d7d6"])
    );
    assert_eq!(
        moves_from(fen, &rules(&["UniversalTraps=true"]), "d7"),
        set(&["d7c7", "d7e7", "d7d6", "d7d8"])
    );
}
