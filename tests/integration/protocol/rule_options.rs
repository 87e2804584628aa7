//! Rule options.

use super::*;

#[test]
fn rule_options_change_the_legal_moves() {
    let mut e = EngineProcess::start();
    // (settings, position, a move the settings allow that the defaults do not,
    // or the other way round when prefixed by '-')
    let cases: [(Settings, &str, &str); 6] = [
        // A red dog below a blue wolf: the dog takes it only when it outranks it.
        (
            &[("DogOverWolf", "true")],
            "6e/7/7/3w3/3D3/7/7/7/T6 w 0 1",
            "d5d6",
        ),
        // xoudouqi: a rat may take a rat from the water onto the bank.
        (
            &[("UCI_Variant", "xoudouqi")],
            "6e/7/7/7/rR5/7/7/7/T6 w 0 1",
            "b5a5",
        ),
        (
            &[("RatBankCapture", "true")],
            "6e/7/7/7/rR5/7/7/7/T6 w 0 1",
            "b5a5",
        ),
        // A lion beside the river: no horizontal jump with LionJump vertical.
        (
            &[("LionJump", "vertical")],
            "6e/7/7/7/L6/7/7/7/T6 w 0 1",
            "-a5d5",
        ),
        // A tiger below the river: no jump at all with TigerJump none.
        (
            &[("TigerJump", "none")],
            "6e/7/7/7/7/7/1T5/7/6L w 0 1",
            "-b3b7",
        ),
        // A rat in the water beside an elephant.
        (
            &[("RatWaterElephant", "true")],
            "6e/7/7/7/Er5/7/7/7/T6 b 0 1",
            "b5a5",
        ),
    ];
    for (settings, fen, shows) in cases {
        let (removed, m) = match shows.strip_prefix('-') {
            Some(m) => (true, m),
            None => (false, shows),
        };
        let default_moves = legal_set(&game(fen, &[]));
        let set_moves = legal_set(&game_with(rules_with(settings), fen, &[]));
        // The test data shows the difference.
        assert_eq!(default_moves.contains(m), removed, "test data {fen} {m}");
        assert_eq!(set_moves.contains(m), !removed, "test data {fen} {m}");

        e.quiet(&position_cmd(fen, &[]));
        assert_eq!(engine_moves(&mut e), default_moves, "{fen} default rules");
        // Setting the option replays the position under the new rules.
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        assert_eq!(engine_moves(&mut e), set_moves, "{fen} with {settings:?}");
        // And a search plays by them.
        let lines = e.go("go depth 2");
        check_search(&e, &lines, &game_with(rules_with(settings), fen, &[]));
        e.quiet("setoption name UCI_Variant value jungle");
        assert_eq!(engine_moves(&mut e), default_moves, "{fen} back to jungle");
    }

    // A game whose moves become illegal under new rules: the engine says so
    // and holds no position.
    e.quiet("setoption name DogOverWolf value true");
    e.quiet("position fen 6e/7/7/3w3/3D3/7/7/7/T6 w 0 1 moves d5d6");
    expect_error(&mut e, "setoption name DogOverWolf value false");
    expect_no_position(&mut e);
    e.finish();
}
