//! Matches that must not start: an engine that cannot start or never
//! answers `uciok`, and bad arguments, each refused with a reason before any
//! game is played.

use super::*;

/// Runs a match that must stop before its first game; answers its stderr
/// after checking the exit code, that no table was printed and no record
/// written.
fn match_refused(name: &str, args: &[&str]) -> String {
    let dir = scratch(name);
    let pgn_path = dir.join("games.pgn");
    let output = Command::new(doushou())
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(&pgn_path)
        .output()
        .expect("doushou runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let records = std::fs::read_to_string(&pgn_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty(), "a table was printed: {stderr}");
    assert!(records.is_empty(), "games were recorded: {records}");
    assert!(!stderr.contains("game 1"), "a game was played: {stderr}");
    assert!(stderr.contains("no game was played"), "{stderr}");
    stderr
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_any_game() {
    let cmd = ds();
    let stderr = match_refused(
        "nostart",
        &[
            "--engine",
            "name=ds",
            &cmd,
            "--engine",
            "name=typo",
            "cmd=/nonexistent/engine --flag",
            "--nodes",
            "300",
            "--games",
            "2",
        ],
    );
    assert!(
        stderr.contains("engine 'typo' (command: /nonexistent/engine --flag) did not start"),
        "{stderr}"
    );
    assert!(stderr.contains("cannot start"), "{stderr}");
    assert!(!stderr.contains("engine 'ds'"), "{stderr}");
}

#[test]
fn an_engine_that_never_answers_uciok_stops_the_match_before_any_game() {
    let (cmd, nouci) = (ds(), format!("cmd={} nouci", fake_engine()));
    let stderr = match_refused(
        "nouci",
        &[
            "--engine",
            "name=ds",
            &cmd,
            "--engine",
            "name=fake",
            &nouci,
            "--nodes",
            "300",
            "--games",
            "3",
            "--start-timeout",
            "500",
        ],
    );
    assert!(
        stderr.contains(&format!(
            "engine 'fake' (command: {} nouci) did not start",
            fake_engine()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("no uciok within"), "{stderr}");
    assert!(stderr.contains("--start-timeout"), "{stderr}");
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let cmd = ds();
    let dir = scratch("bad-args");
    let bad_openings = dir.join("bad.txt");
    std::fs::write(&bad_openings, "g3g4\ng3g4 g4g5\n").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--engine", &cmd, "--depth", "1"], "two --engine"),
        (vec!["--engine", &cmd, "--engine", &cmd], "no limit"),
        (
            vec![
                "--engine",
                &cmd,
                "colour=red",
                "--engine",
                &cmd,
                "--depth",
                "1",
            ],
            "unknown key",
        ),
        (
            vec!["--engine", "name=x", "--engine", &cmd, "--depth", "1"],
            "no command",
        ),
        (
            vec![
                "--engine",
                &cmd,
                "--engine",
                &cmd,
                "--depth",
                "1",
                "--openings",
                bad_openings.to_str().unwrap(),
            ],
            "line 2",
        ),
        (
            vec![
                "--engine", &cmd, "--engine", &cmd, "--engine", &cmd, "--depth", "1", "--sprt",
                "elo0=0", "elo1=5",
            ],
            "exactly two",
        ),
        (
            vec!["--engine", &cmd, "--engine", &cmd, "--tc", "fast"],
            "time control",
        ),
        (
            vec![
                "--engine", &cmd, "--engine", &cmd, "--depth", "1", "--set", "Nope=1",
            ],
            "Nope",
        ),
    ];
    for (args, why) in cases {
        let out = Command::new(doushou())
            .arg("match")
            .args(&args)
            .output()
            .expect("doushou runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
