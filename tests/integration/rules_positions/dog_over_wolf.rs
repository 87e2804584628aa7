//! Dog over wolf.

use super::*;

#[test]
fn dog_over_wolf() {
    let off = Rules::default();
    let on = rules(&["DogOverWolf=true"]);
    // Red dog a5, Blue wolf a6.
    let fen = "7/7/7/w6/D6/7/7/7/7 w";
    board(fen, "Da5 wa6");
    assert_eq!(moves_from(fen, &off, "a5"), set(&["a5a4"]));
    assert_eq!(moves_from(fen, &on, "a5"), set(&["a5a4", "a5a6"]));
    let fen = "7/7/7/w6/D6/7/7/7/7 b";
    assert_eq!(moves_from(fen, &off, "a6"), set(&["a6a7", "a6a5"]));
    assert_eq!(moves_from(fen, &on, "a6"), set(&["a6a7"]));
    // The xoudouqi preset has the dog over the wolf.
    let mut x = Rules::default();
    x.set("UCI_Variant", "xoudouqi").unwrap();
    assert_eq!(moves_from(fen, &x, "a6"), set(&["a6a7"]));
    // The cat and the panther do not care.
    let fen = "7/7/7/c6/D6/7/7/7/7 w";
    board(fen, "Da5 ca6");
    for r in [off, on] {
        assert!(moves_from(fen, &r, "a5").contains("a5a6"));
    }
    let fen = "7/7/7/p6/W6/7/7/7/7 w";
    board(fen, "Wa5 pa6");
    for r in [off, on] {
        assert!(!moves_from(fen, &r, "a5").contains("a5a6"));
    }
}
