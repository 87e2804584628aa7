//! Whole games.

use super::*;

/// Plays up to `plies` plies (or to the end) from the start position, the
/// engine choosing both sides with alternating kinds of `go`, the position sent
/// afresh each time. Each `go` has exactly one legal bestmove.
fn play_game(settings: &[(&str, &str)], gos: &[&str], plies: usize) {
    let mut e = EngineProcess::start();
    for (name, value) in settings {
        e.quiet(&format!("setoption name {name} value {value}"));
    }
    e.quiet("ucinewgame");
    let rules = rules_with(
        &settings
            .iter()
            .filter(|(n, _)| Rules::option_kind(n).is_some())
            .copied()
            .collect::<Vec<_>>(),
    );
    let mut game = game_with(rules, "startpos", &[]);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.quiet(&position_cmd("startpos", &refs));
        let lines = e.go(gos[ply % gos.len()]);
        let answer = check_search(&e, &lines, &game);
        // Exactly one bestmove: nothing more comes before readyok.
        let later = e.sync();
        if !later.is_empty() {
            e.fail(&format!("more output after bestmove: {later:?}"));
        }
        game.play_text(&answer.best).unwrap();
        moves.push(answer.best);
    }
    if let Some(outcome) = game.outcome() {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.quiet(&position_cmd("startpos", &refs));
        let lines = e.go("go depth 3");
        expect_game_over(&e, &lines, outcome);
    }
    e.finish();
}

#[test]
fn whole_game_every_bestmove_legal_and_one_per_go() {
    play_game(
        &[("Move Overhead", "0")],
        &[
            "go depth 3",
            "go movetime 20",
            "go wtime 2000 btime 2000 winc 20 binc 20",
        ],
        80,
    );
}

#[test]
fn whole_game_two_threads_xoudouqi() {
    play_game(
        &[
            ("Threads", "2"),
            ("UCI_Variant", "xoudouqi"),
            ("Move Overhead", "0"),
        ],
        &["go movetime 15", "go depth 3"],
        60,
    );
}
