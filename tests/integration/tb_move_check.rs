//! `dev/tb-move-check.py`, the move-by-move check of the tablebase
//! issue's done-when match, run the way `docs/tablebases.md` runs it: over
//! `doushou analyse --game --json --tablebases` of a PGN, here
//! `tests/data/tb-move-check.pgn` with every 2-piece table. Its five games,
//! "tables" and "plain" each playing Red in turn:
//! - 1 and 2: a lion guarding its den against a dog
//!   (`7/7/7/7/7/7/4d2/5L1/7 w 0 1`), a table draw that `Repetition=forbid`
//!   loses from the start: Red's lion runs out of fresh positions and its
//!   ninth ply (`d2c2`) leaves the den to the dog, every other move being
//!   forbidden;
//! - 3 and 4: a rat against a cat (`7/7/R2c3/7/7/7/7/7/7 w 0 1`), a table
//!   draw Red even wins under the history, thrown away by `a7a6` at once
//!   (`a7b7` and `a7a8` keep the draw) into the cat's win of 11 plies;
//! - 5: game 3's moves under `NoCaptureLimit=10`, where that win is longer
//!   than the limit leaves: a draw, and no move of the game loses one.
//!
//! Without a `python3` the test says so and passes, like `tests/python.rs`.

use crate::common;

use common::{BIN, two_piece_tables};
use std::path::Path;
use std::process::{Command, Output};

/// The script under test, in the repository.
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/dev/tb-move-check.py");

/// The match of the module's doc.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tb-move-check.pgn");

/// `python3`, if this machine has one.
fn python() -> Option<&'static str> {
    let works = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        eprintln!("no python3: dev/tb-move-check.py not tested");
    }
    works.then_some("python3")
}

/// The fixture's marks (`analyse --game --json --depth 1 --tablebases`),
/// written to a file of this test process named `name`.
fn marks(name: &str) -> std::path::PathBuf {
    let output = Command::new(BIN)
        .args([
            "analyse",
            "--game",
            "--json",
            "--depth",
            "1",
            "--tablebases",
        ])
        .arg(two_piece_tables())
        .arg(FIXTURE)
        .output()
        .unwrap();
    assert!(output.status.success(), "analyse failed: {output:?}");
    let path = std::env::temp_dir().join(format!(
        "doushou-{}-tb-move-check-{name}.jsonl",
        std::process::id()
    ));
    std::fs::write(&path, &output.stdout).unwrap();
    path
}

/// The script run with `args` after the marks file.
fn check(python: &str, marks: &Path, args: &[&str]) -> Output {
    Command::new(python)
        .arg(SCRIPT)
        .arg(marks)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "the check failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn every_move_is_counted_and_a_verdict_longer_than_the_no_capture_limit_is_a_draw() {
    let Some(python) = python() else { return };
    let out = stdout(&check(python, &marks("counts"), &[]));
    // Each engine, over its five games: wins kept 3 (game 1 or 2, the
    // dog's last three moves) + 6 (game 3 or 4, the cat's), every one by the
    // fastest win; draws kept 4 (the squeeze before the lion gives way) + 4
    // (the squeeze's other side) + 5 (game 5, where every verdict is longer
    // than the limit: "plain"'s five moves from the cat's win as well);
    // draws lost 2 (ply 9 of the squeeze, ply 1 of the rat).
    for mover in ["plain", "tables"] {
        assert!(
            out.contains(&format!("| {mover} | 9 | 9 | 0 | 13 | 2 |")),
            "{mover}'s counts:\n{out}"
        );
    }
    // The squeeze's opening was lost by Red with either engine; the rat's
    // was drawn by Red in game 5.
    assert!(
        out.contains(
            "tables: draws lost in an opening its colour lost with either engine 1, in another 1"
        ),
        "{out}"
    );
}

#[test]
fn a_draw_lost_from_the_start_is_told_apart_from_a_mistake() {
    let Some(python) = python() else { return };
    let tables = two_piece_tables().to_str().unwrap();
    let args = [
        "--engine", BIN, "--tables", tables, "--prove", "10000", "--list", "--mover", "tables",
    ];
    let output = check(python, &marks("prove"), &args);
    let out = stdout(&output);
    // Each answer of the proof is shown as it comes: before its move (ply
    // 1) the rat even wins, by `a7b7`.
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(
        progress.contains("tb-move-check: game 3, the draw lost at ply 1, ply 1: draw history won"),
        "{progress}"
    );
    assert!(
        out.contains(
            "tables: draws lost already lost at the start of their stretch 1, \
             by a move from a position proven held 1, unknown within 10000 positions 0"
        ),
        "{out}"
    );
    assert!(
        out.contains("draw lost, mistake at ply 1: tables, game 3, ply 1"),
        "{out}"
    );
    // At the move, the lion had no other move; the rat had two.
    assert!(
        out.contains("draw lost with a drawing move (a7b7 a7a8 of 3): tables, game 3, ply 1"),
        "{out}"
    );
    assert!(
        out.contains("tables: draws lost 2, forced by the history 1, with a drawing move left 1"),
        "{out}"
    );
    // `--mover` lists and proves that engine's draws only.
    assert!(!out.contains(": plain, game"), "{out}");
    // Two proofs at once answer the same, in the same order.
    let jobs = [&args[..], &["--jobs", "2"]].concat();
    assert_eq!(stdout(&check(python, &marks("prove"), &jobs)), out);
}

#[test]
fn a_bad_command_line_gets_the_usage_not_a_traceback() {
    let Some(python) = python() else { return };
    let marks = marks("usage");
    for (args, says) in [
        (&["--prove"][..], "--prove wants a value"),
        (&["--prove", "many"][..], "--prove wants a value"),
        (&["--engine", BIN][..], "Check every move of a match"),
        (&["--jobs", "0"][..], "Check every move of a match"),
        (&["--mover", "nobody"][..], "no engine named nobody"),
    ] {
        let output = check(python, &marks, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("Traceback"), "{args:?}: {stderr}");
    }
    let help = check(python, &marks, &["--help"]);
    assert!(stdout(&help).contains("--prove NODES"));
}
