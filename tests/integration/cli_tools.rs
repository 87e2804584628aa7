//! The real binary's command-line tools that read no standard input: `perft`
//! (counts, the divide, positions with moves, rule switches and presets),
//! `bench` (its signature and rule switches) and `tune` (where it writes, how
//! it validates), with clean failures (exit code 2 for a bad command line, 1
//! for a bad position or move; a message on stderr, nothing on stdout, no
//! panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_doushou");
const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

fn run(args: &[&str]) -> Output {
    run_in(Path::new("."), args)
}

/// Runs `doushou <args>` in the directory `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap_or_else(|e| panic!("running {BIN}: {e}"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a command that must succeed; answers its stdout.
fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        stdout(&o),
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The count of the `Nodes searched: N` line, which must be the last line.
fn nodes(out: &str) -> u64 {
    let last = out.lines().last().unwrap_or_else(|| panic!("no output"));
    last.strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line is {last:?}"))
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("bad count in {last:?}"))
}

/// Runs a command whose command line is wrong: it must fail cleanly with
/// exit code 2; answers its stderr.
fn fails(args: &[&str]) -> String {
    fails_with(2, args)
}

/// Runs a command whose input (a position, moves) is wrong: it must fail
/// cleanly with exit code 1; answers its stderr.
fn bad_input(args: &[&str]) -> String {
    fails_with(1, args)
}

fn fails_with(code: i32, args: &[&str]) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "{args:?}: stdout {:?} stderr {err:?}",
        stdout(&o)
    );
    assert!(stdout(&o).is_empty(), "{args:?}: stdout {:?}", stdout(&o));
    assert!(!err.trim().is_empty(), "{args:?}: no error message");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

fn tokens(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn perft_3_from_the_start() {
    let out = ok(&["perft", "3"]);
    assert!(out.lines().any(|l| l == "Nodes searched: 12240"), "{out}");
    assert_eq!(nodes(&out), 12_240);
    // Depth 1 and 2 of docs/rules.md's table as well, and on more threads.
    assert_eq!(nodes(&ok(&["perft", "1"])), 24);
    assert_eq!(nodes(&ok(&["perft", "2"])), 576);
    assert_eq!(nodes(&ok(&["perft", "4", "--threads", "3"])), 260_099);
}

#[test]
fn divide_lists_every_root_move() {
    let out = ok(&["perft", "3", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 12240"), "{out}");
    let divide = &lines[..lines.len() - 1];
    assert_eq!(divide.len(), 24, "{out}");
    let mut sum = 0;
    let mut seen = std::collections::BTreeSet::new();
    for line in divide {
        let (m, n) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("bad divide line {line:?}"));
        let b = m.as_bytes();
        assert!(
            b.len() == 4
                && (b'a'..=b'g').contains(&b[0])
                && (b'1'..=b'9').contains(&b[1])
                && (b'a'..=b'g').contains(&b[2])
                && (b'1'..=b'9').contains(&b[3]),
            "bad move {m:?}"
        );
        assert!(seen.insert(m.to_string()), "{m} listed twice");
        let n: u64 = n.parse().unwrap_or_else(|_| panic!("bad count {line:?}"));
        // Each root move's count is the depth-2 perft of the position after it.
        let below = nodes(&ok(&["perft", "2", "--fen", START, "--moves", m]));
        assert_eq!(n, below, "{m}");
        sum += n;
    }
    assert_eq!(sum, 12_240);
    // The 24 moves of the start position: every Red piece's steps onto free land.
    let expected = [
        "a1b1", "a1a2", "g1f1", "g1g2", "b2b1", "b2a2", "b2c2", "b2b3", "f2f1", "f2e2", "f2g2",
        "f2f3", "a3a2", "a3b3", "a3a4", "c3c2", "c3b3", "c3d3", "e3e2", "e3d3", "e3f3", "g3g2",
        "g3f3", "g3g4",
    ];
    let expected: std::collections::BTreeSet<String> =
        expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, expected);
    // The same divide on two threads.
    assert_eq!(ok(&["perft", "3", "--divide", "--threads", "2"]), out);
}

#[test]
fn fen_and_moves() {
    // A suite position under the defaults (tests/data/perft-suite.txt, the second).
    let fen = "7/7/l2wc2/7/6t/7/7/4RP1/7 w 14 61";
    assert_eq!(nodes(&ok(&["perft", "3", "--fen", fen])), 462);
    // Moves after the position become the game history: Red cat a1 and Blue cat
    // g9 shuffle until Blue's g8g9 would repeat the start a third time, which
    // Repetition=forbid takes away (left: g8f8, g8g7).
    let rep = "6c/7/7/7/7/7/7/7/C6 w 0 1";
    let moves = ["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"];
    let mut args = vec!["perft", "1", "--fen", rep, "--moves"];
    args.extend(moves);
    assert_eq!(nodes(&ok(&args)), 2);
    let mut args = vec![
        "perft",
        "1",
        "--set",
        "Repetition=none",
        "--fen",
        rep,
        "--moves",
    ];
    args.extend(moves);
    assert_eq!(nodes(&ok(&args)), 3);
    // Moves from the start position.
    let out = ok(&["perft", "1", "--moves", "g3g4", "a7a6", "g4g5"]);
    // Blue to move after three plies: rat a6 (a5, b6, a7), lion a9 (a8, b9),
    // tiger g9 (f9, g8), dog b8 (a8, c8, b9, b7), cat f8 (e8, g8, f9, f7),
    // panther c7 (b7, d7, c8; c6 is water), wolf e7 (d7, f7, e8; e6 is water),
    // elephant g7 (f7, g6, g8).
    assert_eq!(nodes(&out), 3 + 2 + 2 + 4 + 4 + 3 + 3 + 3);
}

#[test]
fn switches_and_presets_are_accepted() {
    // tests/data/perft-suite.txt: a position whose counts DogOverWolf changes.
    let fen = "4c2/2lp3/1t1wL2/7/3d2D/7/1T1W3/7/4P2 w 10 56";
    assert_eq!(
        nodes(&ok(&[
            "perft",
            "3",
            "--fen",
            fen,
            "--set",
            "DogOverWolf=true"
        ])),
        3286
    );
    assert_ne!(nodes(&ok(&["perft", "3", "--fen", fen])), 3286);
    // Several --set, case-insensitive names.
    let fen = "1l5/p4ec/3d1w1/3PR1t/4r2/E6/2W4/2C3D/1T3L1 w 100 51";
    assert_eq!(
        nodes(&ok(&[
            "perft",
            "3",
            "--fen",
            fen,
            "--set",
            "tigerjump=none",
            "--set",
            "DogOverWolf=false"
        ])),
        8885
    );
    // The xoudouqi preset: dog over wolf among others.
    let fen = "4c2/2lp3/1t1wL2/7/3d2D/7/1T1W3/7/4P2 w 10 56";
    let x = nodes(&ok(&["perft", "3", "--fen", fen, "--variant", "xoudouqi"]));
    let by_hand = nodes(&ok(&[
        "perft",
        "3",
        "--fen",
        fen,
        "--set",
        "DogOverWolf=true",
        "--set",
        "RatBankCapture=true",
        "--set",
        "TrappedAttackerPowerless=true",
    ]));
    assert_eq!(x, by_hand);
    assert_eq!(nodes(&ok(&["perft", "3", "--variant", "xoudouqi"])), 12_240);
    // --set after --variant overrides the preset.
    let undo = nodes(&ok(&[
        "perft",
        "3",
        "--fen",
        fen,
        "--variant",
        "xoudouqi",
        "--set",
        "DogOverWolf=false",
        "--set",
        "RatBankCapture=false",
        "--set",
        "TrappedAttackerPowerless=false",
    ]));
    assert_eq!(undo, nodes(&ok(&["perft", "3", "--fen", fen])));
}

#[test]
fn bad_fen_fails_cleanly() {
    for fen in [
        "bad",
        "7/7/7 w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x",
        "l5t/1d3c1/r1p1w1e/7/1L5/7/E1W1P1R/1C3D1/T6 w",
        "",
    ] {
        bad_input(&["perft", "2", "--fen", fen]);
    }
}

#[test]
fn bad_move_fails_cleanly_naming_the_move() {
    // The fifth move (index 4) is two squares long.
    let err = bad_input(&[
        "perft", "2", "--moves", "g3g4", "a7a6", "g4g5", "a6a5", "g5g7",
    ]);
    assert!(err.contains("g5g7"), "{err}");
    let t = tokens(&err);
    assert!(
        t.contains(&"5") || t.contains(&"4"),
        "the message should say which move of the list: {err}"
    );
    // A malformed move, second of the list.
    let err = bad_input(&["perft", "2", "--moves", "g3g4", "zz9"]);
    assert!(err.contains("zz9"), "{err}");
    let t = tokens(&err);
    assert!(t.contains(&"2") || t.contains(&"1"), "{err}");
    // A move of the wrong side, and a move after a finished game.
    bad_input(&["perft", "1", "--moves", "a7a6"]);
    bad_input(&[
        "perft",
        "1",
        "--fen",
        "l3C2/7/7/7/7/7/7/7/7 w",
        "--moves",
        "e9d9",
        "a9a8",
    ]);
    // The repeating move under Repetition=forbid.
    bad_input(&[
        "perft",
        "1",
        "--fen",
        "6c/7/7/7/7/7/7/7/C6 w 0 1",
        "--moves",
        "a1a2",
        "g9g8",
        "a2a1",
        "g8g9",
        "a1a2",
        "g9g8",
        "a2a1",
        "g8g9",
    ]);
}

#[test]
fn bad_settings_fail_cleanly() {
    for set in [
        "Nope=1",
        "DogOverWolf=maybe",
        "DogOverWolf",
        "TigerJump=horizontal",
        "LionJump=diagonal",
        "NoCaptureLimit=-1",
        "NoCaptureLimit=abc",
        "Repetition=sometimes",
        "JumpBlockedBy=friend",
    ] {
        let err = fails(&["perft", "2", "--set", set]);
        let name = set.split('=').next().unwrap();
        assert!(err.contains(name), "--set {set}: {err}");
    }
    fails(&["perft", "2", "--variant", "chess"]);
}

#[test]
fn bad_arguments_fail_without_panic() {
    fails(&["perft"]);
    fails(&["perft", "x"]);
    fails(&["perft", "-1"]);
    fails(&["perft", "2", "--nonsense"]);
}

/// The node count of bench's last line, `<nodes> nodes <nps> nps`, after
/// checking that there is one line per bench position before it.
fn bench_nodes(out: &str) -> u64 {
    let lines: Vec<&str> = out.lines().collect();
    let (last, per_position) = lines.split_last().expect("bench printed nothing");
    assert_eq!(
        per_position.len(),
        doushou::engine::bench::positions().count(),
        "{out}"
    );
    let words: Vec<&str> = last.split_whitespace().collect();
    match words[..] {
        [nodes, "nodes", nps, "nps"] => {
            nps.parse::<u64>()
                .unwrap_or_else(|_| panic!("bad nps in {last:?}"));
            nodes
                .parse()
                .unwrap_or_else(|_| panic!("bad count in {last:?}"))
        }
        _ => panic!("last line is {last:?}"),
    }
}

#[test]
fn bench_signs_the_default_rules_with_a_repeatable_node_count() {
    // The count is the `Bench:` signature of commits: the same on every run,
    // and the sum of the positions' counts.
    let out = ok(&["bench"]);
    let nodes = bench_nodes(&out);
    let sum: u64 = out
        .lines()
        .filter(|l| l.starts_with("position"))
        .filter_map(|l| l.split_whitespace().skip_while(|w| *w != "nodes").nth(1))
        .filter_map(|n| n.parse::<u64>().ok())
        .sum();
    assert_eq!(nodes, sum, "{out}");
    assert_eq!(bench_nodes(&ok(&["bench"])), nodes);
}

#[test]
fn bench_takes_the_rule_switches() {
    let default = bench_nodes(&ok(&["bench", "--depth", "5"]));
    let xoudouqi = bench_nodes(&ok(&["bench", "--depth", "5", "--variant", "xoudouqi"]));
    let switched = bench_nodes(&ok(&["bench", "--depth", "5", "--set", "DogOverWolf=true"]));
    // The bench positions hold dogs and wolves, so both searches see other trees.
    assert_ne!(xoudouqi, default);
    assert_ne!(switched, default);
    assert!(fails(&["bench", "--set", "Nope=1"]).contains("Nope"));
    assert!(fails(&["bench", "--variant", "chess"]).contains("chess"));
}

/// A scratch directory of its own for each test, holding a data file for
/// `tune` of `copies` times the bench positions (with made-up results).
fn tune_dir(name: &str, copies: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doushou-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut data = String::from("# made up for the tests\n");
    let fens: Vec<&str> = doushou::engine::bench::positions().collect();
    for i in 0..copies * fens.len() {
        let result = ["1", "0.5", "0"][i % 3];
        data.push_str(&format!("{} ; {result}\n", fens[i % fens.len()]));
    }
    std::fs::write(dir.join("data.txt"), data).unwrap();
    dir
}

/// A short fit in `dir` on its data that must succeed; answers its stderr.
fn tune_ok(dir: &Path, more_args: &[&str]) -> String {
    let mut args = vec!["tune", "--data", "data.txt", "--epochs", "2"];
    args.extend_from_slice(more_args);
    let o = run_in(dir, &args);
    let err = stderr(&o);
    assert!(o.status.success(), "{args:?}: {err}");
    err
}

#[test]
fn tune_writes_a_new_file_here_by_default_and_warns_when_it_cannot_validate() {
    let dir = tune_dir("default-out", 1);
    let err = tune_ok(&dir, &[]);
    let written = std::fs::read_to_string(dir.join("weights-tuned.rs"))
        .unwrap_or_else(|e| panic!("no weights-tuned.rs: {e}\n{err}"));
    assert!(
        written.contains("pub const WEIGHTS: Weights = ["),
        "{written}"
    );
    assert!(written.contains("none held out"), "{written}");
    assert!(
        !dir.join("src").exists(),
        "the tracked weights' path was made"
    );
    // Too few positions to hold any out: said, not hidden.
    assert!(err.contains("tune: warning: "), "{err}");
    assert!(
        err.contains("the validation error is the training error"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_holds_out_a_tenth_in_blocks_when_the_set_is_large_enough() {
    let dir = tune_dir("held-out", 30);
    let err = tune_ok(&dir, &["--out", "w.rs"]);
    // 1050 positions: ten blocks of 105, the tenth held out.
    assert!(
        err.contains("1050 positions (105 held out for validation, in blocks of 105)"),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
    assert!(dir.join("w.rs").exists());
    assert!(!dir.join("weights-tuned.rs").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_checks_where_it_writes_before_fitting() {
    let dir = tune_dir("bad-out", 1);
    let o = run_in(
        &dir,
        &["tune", "--data", "data.txt", "--out", "missing/weights.rs"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("cannot write missing/weights.rs: no directory missing"),
        "{err}"
    );
    assert!(!err.contains("epoch"), "it fitted first: {err}");
    let err = fails(&["tune", "--data", "data.txt", "--out", dir.to_str().unwrap()]);
    assert!(err.contains("it is a directory"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// README's exit codes hold for `tune` as for `train`: a data file the
/// command line names that cannot be opened is a usage error (2); a bad line
/// inside one that opened is an input error (1).
#[test]
fn tune_exits_2_for_a_missing_data_file_and_1_for_a_bad_line() {
    let dir = tune_dir("exit-codes", 1);
    let o = run_in(
        &dir,
        &["tune", "--data", "no-such-data.txt", "--epochs", "2"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-data.txt"), "{}", stderr(&o));
    std::fs::write(dir.join("bad.txt"), "not a position ; 1\n").unwrap();
    let o = run_in(&dir, &["tune", "--data", "bad.txt", "--epochs", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.txt:1"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `selfplay --shard`: two parts, the second taking its index from
/// `JOB_COMPLETION_INDEX` and playing on another thread count, concatenated,
/// hold the same positions in the same order as one unsharded run.
#[test]
fn two_selfplay_shards_merged_equal_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("doushou-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let common = [
        "selfplay",
        "--games",
        "7",
        "--depth",
        "2",
        "--max-plies",
        "80",
        "--seed",
        "5",
    ];
    let play = |extra: &[&str], env_index: Option<&str>| -> Vec<String> {
        let out = dir.join(format!("part{}.txt", extra.join("_").replace('/', "-")));
        let mut cmd = Command::new(BIN);
        cmd.args(common).args(extra).arg("--out").arg(&out);
        if let Some(i) = env_index {
            cmd.env("JOB_COMPLETION_INDEX", i);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let whole = play(&["--jobs", "2"], None);
    let mut merged = play(&["--jobs", "2", "--shard", "0/2"], None);
    merged.extend(play(&["--jobs", "1", "--shard", "env/2"], Some("1")));
    assert!(whole.len() > 100, "{} positions", whole.len());
    assert_eq!(merged, whole);
    // A shard index from an unset variable, or beyond the count, is refused.
    let o = Command::new(BIN)
        .args(common)
        .args(["--shard", "env/2", "--out"])
        .arg(dir.join("x.txt"))
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("JOB_COMPLETION_INDEX"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "selfplay",
        "--games",
        "2",
        "--shard",
        "2/2",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `selfplay --openings`: game `i` starts from opening `i` modulo their
/// number, so with no random plies the first position written of games 0
/// and 2 is searched after the first opening, of game 1 after the second;
/// an opening the rules refuse is bad input (1), a file that cannot be
/// read a wrong command line (2).
#[test]
fn selfplay_starts_each_game_from_its_opening() {
    let dir = std::env::temp_dir().join(format!("doushou-sp-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\ng1g2 g7g6\ne3f3 e7d7 c3b3\n").unwrap();
    let out = dir.join("data.txt");
    let o = run(&[
        "selfplay",
        "--games",
        "3",
        "--depth",
        "1",
        "--random-plies",
        "0",
        "--max-plies",
        "8",
        "--jobs",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# doushou selfplay games=3"), "{text}");
    assert!(text.contains("openings=2"), "{text}");
    // Each game writes at most 8 - its opening's plies positions; the
    // positions themselves must follow from the opening's moves.
    let after = |moves: &[&str]| {
        let rules = doushou::rules::Rules::default();
        doushou::rules::Game::from_fen_and_moves(rules, START, moves)
            .unwrap()
            .position()
            .fen()
    };
    let first = after(&["g1g2", "g7g6"]);
    let second = after(&["e3f3", "e7d7", "c3b3"]);
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(" ; ").next().unwrap())
        .collect();
    assert_eq!(fens.iter().filter(|f| **f == first).count(), 2, "{text}");
    assert_eq!(fens.iter().filter(|f| **f == second).count(), 1, "{text}");
    std::fs::write(&openings, "g1g2 g1g2\n").unwrap();
    let refused = |path: &str| {
        run(&[
            "selfplay",
            "--games",
            "1",
            "--depth",
            "1",
            "--openings",
            path,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = refused(openings.to_str().unwrap());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));
    let o = refused(dir.join("none.txt").to_str().unwrap());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("none.txt"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
