//! Engines that misbehave in a game (`dev/test_engine.rs`): each fault
//! loses that game, by the forfeit it earned, and the match goes on.

use super::*;

#[test]
fn an_illegal_move_loses() {
    let run = against_fake(
        "illegal",
        "illegal 2",
        &[],
        &["--nodes", "300", "--games", "2"],
    );
    check_fake_lost_all(&run, 2, "illegal-move");
    assert_eq!(run.engine_field("fake", "illegal_moves"), 2);
    assert!(run.records[0].tag("Termination").unwrap().contains("d1d5"));
}

#[test]
fn a_crash_loses_and_the_match_goes_on() {
    let run = against_fake("crash", "crash 2", &[], &["--nodes", "300", "--games", "2"]);
    check_fake_lost_all(&run, 2, "crash");
    assert_eq!(run.engine_field("fake", "crashes"), 2);
    assert!(run.stderr.contains("crashing on purpose"), "{}", run.stderr);
    assert!(
        run.records.iter().all(|r| r.moves.len() > 6),
        "it crashed mid-game"
    );
}

#[test]
fn a_hung_engine_loses_by_no_answer_without_a_clock() {
    let run = against_fake(
        "hang",
        "hang 2",
        &[],
        &["--nodes", "300", "--games", "2", "--hang-timeout", "800"],
    );
    check_fake_lost_all(&run, 2, "no-answer");
    assert_eq!(run.engine_field("fake", "no_answers"), 2);
}

#[test]
fn a_hung_engine_on_the_clock_loses_on_time() {
    // The fake's own limits override the match's: a clock for it alone.
    let run = against_fake(
        "hang-clock",
        "hang 2",
        &["tc=0.4+0.1"],
        &["--nodes", "300", "--games", "2", "--timemargin", "50"],
    );
    check_fake_lost_all(&run, 2, "time-forfeit");
    assert_eq!(run.engine_field("fake", "time_forfeits"), 2);
    let tc = run.records[0].tag("TimeControl").unwrap();
    assert!(tc.contains("0.4+0.1") && tc.contains("nodes 300"), "{tc}");
}

#[test]
fn garbage_output_loses_by_an_unreadable_move() {
    let run = against_fake(
        "garbage",
        "garbage 1",
        &[],
        &["--nodes", "300", "--games", "2"],
    );
    check_fake_lost_all(&run, 2, "illegal-move");
    assert!(
        run.records[0]
            .tag("Termination")
            .unwrap()
            .contains("unreadable")
    );
}

#[test]
fn the_side_that_loses_a_forfeit_is_the_faulty_one() {
    // Guard for check_records: the fake plays Red in game 2; a forfeit there is 0-1.
    let run = against_fake(
        "sides",
        "illegal 1",
        &[],
        &["--nodes", "300", "--games", "2"],
    );
    let game2 = run
        .records
        .iter()
        .find(|r| r.tag("Round") == Some("2"))
        .unwrap();
    assert_eq!(game2.tag("Red"), Some("fake"));
    assert_eq!(game2.result, "0-1");
    let fen: doushou::rules::Position = game2.tag("FEN").unwrap().parse().unwrap();
    let side_to_move_after_opening = if game2.moves.len() % 2 == 0 {
        fen.side_to_move()
    } else {
        fen.side_to_move().opponent()
    };
    assert_eq!(
        side_to_move_after_opening,
        Side::Red,
        "the record stops where the faulty side was to move"
    );
}

#[test]
fn a_move_past_the_clock_loses_on_time() {
    // The fake answers every move, but 300 ms late on a 0.2 s clock.
    let run = against_fake(
        "slow",
        "slow 300",
        &["tc=0.2+0"],
        &["--nodes", "300", "--games", "2", "--timemargin", "50"],
    );
    check_fake_lost_all(&run, 2, "time-forfeit");
    assert_eq!(run.engine_field("fake", "time_forfeits"), 2);
}

#[test]
fn an_engine_that_closes_its_output_loses_by_a_crash() {
    let run = against_fake("close", "close 2", &[], &["--nodes", "300", "--games", "2"]);
    check_fake_lost_all(&run, 2, "crash");
    assert_eq!(run.engine_field("fake", "crashes"), 2);
    assert!(
        run.records[0]
            .tag("Termination")
            .unwrap()
            .contains("closed its output"),
        "{:?}",
        run.records[0].tag("Termination")
    );
}

#[test]
fn a_flooding_engine_loses_by_no_answer_and_is_stopped() {
    let run = against_fake(
        "flood",
        "flood 2",
        &[],
        &["--nodes", "300", "--games", "2", "--hang-timeout", "800"],
    );
    check_fake_lost_all(&run, 2, "no-answer");
    assert_eq!(run.engine_field("fake", "no_answers"), 2);
}
