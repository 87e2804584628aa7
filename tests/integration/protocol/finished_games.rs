//! Finished games.

use super::*;

#[test]
fn finished_games_answer_without_a_move() {
    let mut e = EngineProcess::start();
    for (settings, fen, moves) in finished_cases() {
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        let g = game_with(rules_with(settings), fen, moves);
        let outcome = g.outcome().expect("test data: the game is over");
        e.quiet(&position_cmd(fen, moves));
        for go in ["go depth 5", "go movetime 50", "go wtime 1000 btime 1000"] {
            let lines = e.go(go);
            expect_game_over(&e, &lines, outcome);
            nothing_more(&mut e);
        }
        // go infinite and go ponder answer only after stop / ponderhit.
        // (A bare `go ponder` would search on after ponderhit as a bare `go`
        // does, until stop; with a clock, ponderhit ends it.)
        for (go, end) in [
            ("go infinite", "stop"),
            ("go ponder wtime 1000 btime 1000", "ponderhit"),
        ] {
            e.send(go);
            let lines = e.sync();
            if !lines.is_empty() {
                e.fail(&format!(
                    "{go} in a finished game answered before {end}: {lines:?}"
                ));
            }
            e.send(end);
            let lines = e.read_until(|l| l.starts_with("bestmove"));
            expect_game_over(&e, &lines, outcome);
        }
        e.quiet("position startpos");
        e.quiet("setoption name UCI_Variant value jungle");
    }
    // With the limit off, the no-capture position is in play again.
    e.quiet("setoption name NoCaptureLimit value 0");
    let fen = "2l4/7/7/7/7/7/7/7/6E w 100 60";
    e.quiet(&position_cmd(fen, &[]));
    let lines = e.go("go depth 2");
    check_search(
        &e,
        &lines,
        &game_with(rules_with(&[("NoCaptureLimit", "0")]), fen, &[]),
    );
    e.finish();
}
