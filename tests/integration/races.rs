//! `doushou races`, as a user runs it: the suite built from a game file,
//! resumed after an interruption, never cutting a file that is not a suite,
//! and scored; bad command lines and options refused before any search.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_doushou");

/// Blue's elephant guards its den against Red's lion, until it steps aside
/// (`d8e8` at ply 39) and the lion jumps the river and walks in. A game of
/// the engine at depth 7 (Red) against depth 1 (Blue).
const RACE: &str = "7/7/3e3/7/3L3/7/7/C6/7 b 0 1 moves d7d8 d5d4 d8e8 d4d3 e8d8 a2a3 d8e8 \
a3b3 e8d8 b3a3 d8e8 a3a4 e8d8 d3d2 d8e8 d2e2 e8e7 e2d2 e7e8 d2e2 e8e7 e2d2 e7d7 d2e2 d7d8 \
e2d2 d8d7 d2c2 d7d8 c2c3 d8e8 c3d3 e8d8 d3c3 d8e8 a4a5 e8d8 c3c7 d8e8 c7c8 e8d8 c8c9 d8d7 c9d9";

/// A game not won by a den entry (it has not ended).
const UNFINISHED: &str = "startpos moves a3a4 g7g6";

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("RUST_LOG")
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap_or_else(|e| panic!("running {BIN}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that must succeed; answers its stdout.
fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

/// A scratch directory of its own for each test.
fn scratch(name: &str) -> PathBuf {
    common::temp_dir(&format!("races-{name}"))
}

fn build_args<'a>(games: &'a str, suite: &'a str) -> Vec<&'a str> {
    vec![
        "races", "build", games, "--out", suite, "--depth", "7", "--jobs", "2", "--hash", "4",
    ]
}

/// The builder finds the race's mistake, skips the other game, resumes
/// without redoing anything, and drops a block an interruption cut short.
#[test]
fn the_suite_is_built_resumed_and_scored() {
    let dir = scratch("build");
    let games = dir.join("games.txt");
    std::fs::write(&games, format!("{RACE}\n{UNFINISHED}\n")).unwrap();
    let suite = dir.join("suite.txt");
    let (g, s) = (games.to_str().unwrap(), suite.to_str().unwrap());

    let first = ok(&build_args(g, s));
    assert!(
        first.starts_with("2 games in this shard, 0 done before, 1 entries found"),
        "{first}"
    );
    let written = std::fs::read_to_string(&suite).unwrap();
    assert_eq!(
        written.lines().filter(|l| l.starts_with("# game ")).count(),
        2,
        "{written}"
    );
    let entry = written
        .lines()
        .find(|l| l.contains("; mistake "))
        .expect("an entry");
    assert!(
        entry.starts_with("7/7/3e3/7/3L3/7/7/C6/7 b 0 1 moves d7d8"),
        "{entry}"
    );
    assert!(entry.contains("; mistake d8e8 ; hold "), "{entry}");

    // An interrupted run left half a block: it is removed, nothing is redone.
    std::fs::write(
        &suite,
        format!("{written}# rules: Repetition=draw\n7/7/3e3"),
    )
    .unwrap();
    let again = ok(&build_args(g, s));
    assert!(
        again.starts_with("2 games in this shard, 2 done before, 0 entries"),
        "{again}"
    );
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), written);

    let o = run(&[
        "races",
        "score",
        s,
        "--depth",
        "1",
        "--option",
        "NoSuchOption=1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());

    let scored = ok(&[
        "races",
        "score",
        s,
        "--depth",
        "3",
        "--verbose",
        "--jobs",
        "1",
    ]);
    let lines: Vec<&str> = scored.lines().collect();
    assert_eq!(lines.len(), 2, "{scored}");
    let verdict = lines[0].split_whitespace().nth(2).unwrap();
    assert!(["held", "mistake", "lost"].contains(&verdict), "{scored}");
    assert!(
        lines[1].starts_with(&format!("held {} of 1 ", u8::from(verdict == "held"))),
        "{scored}"
    );
}

/// Shards split the games between runs and together cover them all once.
#[test]
fn shards_split_the_games() {
    let dir = scratch("shards");
    let games = dir.join("games.txt");
    std::fs::write(
        &games,
        format!("{UNFINISHED}\n{UNFINISHED}\n{UNFINISHED}\n"),
    )
    .unwrap();
    let g = games.to_str().unwrap();
    let mut total = 0;
    for i in 0..2 {
        let suite = dir.join(format!("suite-{i}.txt"));
        let shard = format!("{i}/2");
        let mut args = build_args(g, suite.to_str().unwrap());
        args.extend(["--shard", &shard]);
        let out = ok(&args);
        let n: usize = out.split_whitespace().next().unwrap().parse().unwrap();
        total += n;
    }
    assert_eq!(total, 3);
}

/// A file that is not a suite is never cut, and bad command lines, options
/// and suite files are refused with the exit code the README gives.
#[test]
fn bad_input_is_refused_and_nothing_is_lost() {
    let dir = scratch("refuse");
    let games = dir.join("games.txt");
    std::fs::write(&games, format!("{RACE}\n")).unwrap();
    let g = games.to_str().unwrap();

    let precious = dir.join("notes.txt");
    std::fs::write(&precious, "my notes\n").unwrap();
    let o = run(&build_args(g, precious.to_str().unwrap()));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("is not a suite"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "my notes\n");

    let suite = dir.join("suite.txt");
    let s = suite.to_str().unwrap();
    let mut args = build_args(g, s);
    args.extend(["--option", "NoSuchOption=1"]);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(!suite.exists(), "nothing written for a refused option");

    let bad_game = dir.join("bad.txt");
    std::fs::write(&bad_game, "startpos moves a3a4 a3a4\n").unwrap();
    let o = run(&build_args(bad_game.to_str().unwrap(), s));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("bad.txt:1"), "{}", text(&o.stderr));

    std::fs::write(&suite, "startpos ; mistake a3a4\n").unwrap();
    let o = run(&["races", "score", s, "--depth", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("line 1"), "{}", text(&o.stderr));
    let o = run(&["races", "score", s]);
    assert_eq!(o.status.code(), Some(2), "no limit is a usage error");
    assert!(o.stdout.is_empty());

    std::fs::write(&suite, "# rules: Repetition=draw\n# nothing else\n").unwrap();
    let o = run(&["races", "score", s, "--depth", "1"]);
    assert_eq!(o.status.code(), Some(1), "an empty suite scores nothing");
    assert!(
        text(&o.stderr).contains("no positions"),
        "{}",
        text(&o.stderr)
    );
}

/// The shipped suite (`bench-positions/den-races.txt`) reads, every entry's
/// moves legal in its position, and each entry is a choice: its mistake is
/// not among its holds, and some move holds. A shallow score runs over all
/// of it.
#[test]
fn the_shipped_suite_reads_and_scores() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-positions/den-races.txt");
    let entries = doushou::tools::races::read_suite_file(&path).expect("the suite reads");
    assert!(entries.len() >= 300, "{} entries", entries.len());
    for entry in &entries {
        assert!(!entry.holds.is_empty(), "{}", entry.line());
        assert!(!entry.holds.contains(&entry.mistake), "{}", entry.line());
    }
    let out = ok(&["races", "score", path.to_str().unwrap(), "--depth", "1"]);
    assert!(out.contains(&format!(" of {} (", entries.len())), "{out}");
}

/// `--program` asks an engine program (here this binary, as a user would
/// name an older one) and scores exactly as the engine built in does at the
/// same fixed depth, line by line; a program that cannot start is an error
/// naming it, and the built-in engine's options are refused beside it.
#[test]
fn an_engine_program_scores_as_the_built_in_engine() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-positions/den-races.txt");
    let suite = path.to_str().unwrap();
    let common = [
        "races",
        "score",
        suite,
        "--depth",
        "3",
        "--jobs",
        "2",
        "--verbose",
    ];
    let built_in = ok(&common);
    let program = format!("cmd={BIN}");
    let mut args = common.to_vec();
    args.extend(["--program", &program, "name=other"]);
    // The built-in engine reports in the order its jobs finish.
    let sorted = |out: String| {
        let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    let asked = sorted(ok(&args));
    assert_eq!(asked, sorted(built_in));
    assert!(asked.len() > 300, "{asked:?}");

    let shallow = |program: &[&str]| {
        let mut args = vec!["races", "score", suite, "--depth", "1", "--program"];
        args.extend(program);
        run(&args)
    };
    let o = shallow(&["cmd=/nonexistent/engine"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("cannot start"), "{err}");
    let o = shallow(&[&program, "--option", "Hash=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    // A program answering a move that cannot be read fails at that answer,
    // naming the entry, not after the minute's wait for a readable one.
    let garbage = format!("cmd={} garbage 1", common::fake_engine());
    let asked = Instant::now();
    let o = shallow(&[&garbage]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("entry 1 with an unreadable move"), "{err}");
    assert!(asked.elapsed() < Duration::from_secs(30), "{err}");
}
