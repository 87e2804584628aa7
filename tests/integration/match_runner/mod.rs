//! `doushou match` driven through the real binary: doushou against itself at
//! tiny limits, and against the misbehaving engines of `dev/test_engine.rs`.
//! Every record is replayed with the rules code: each move must be legal and
//! each result must be the rules' outcome or the stated forfeit.
//!
//! Here: whole matches and the SPRT; `forfeits`: engines that misbehave in a
//! game; `refusals`: matches refused before any game; `resume`: matches
//! interrupted and resumed; `shards`: matches split into shards and merged;
//! `ratings`: rating lists fitted to games.

use crate::common;
mod forfeits;
mod ratings;
mod refusals;
mod resume;
mod shards;

use common::fake_engine;
use doushou::rules::{Game, Rules, Side};
use doushou::tools::matches::stats::{Pentanomial, Sprt};
use doushou::tools::pgn;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn doushou() -> &'static str {
    env!("CARGO_BIN_EXE_doushou")
}

/// A scratch directory of its own for each test.
fn scratch(name: &str) -> PathBuf {
    common::temp_dir(&format!("match-{name}"))
}

/// What one run of `doushou match` left.
struct Run {
    output: Output,
    stderr: String,
    json: Value,
    records: Vec<pgn::Record>,
}

impl Run {
    /// The games of the JSON summary.
    fn games(&self) -> &[Value] {
        self.json["games"].as_array().expect("a list of games")
    }

    /// A field of the engine `name` in the summary.
    fn engine_field(&self, name: &str, field: &str) -> u64 {
        let engine = self.json["engines"]
            .as_array()
            .expect("a list of engines")
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("no engine {name} in {}", self.json));
        engine[field]
            .as_u64()
            .unwrap_or_else(|| panic!("{field} of {name} is no count: {engine}"))
    }
}

/// A field of a JSON object as text: strings without quotes, numbers as
/// written, `null` for an absent field.
fn field_of(object: &Value, field: &str) -> String {
    match &object[field] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A match of doushou (`ds`) against the fake engine in `mode`; `fake_keys` go
/// into the fake's `--engine` words, `args` after both engines.
/// Every fake engine started by the test `name` carries this word on its
/// command line, so that leftovers can be found in /proc.
fn marker(name: &str) -> String {
    format!("marker-{}-{name}", std::process::id())
}

/// The fake engine in `mode` as an `--engine` word, marked for `name`. The
/// mode's number is given (1 if none) so that the marker is not read as one.
fn fake_cmd(name: &str, mode: &str) -> String {
    let mode = if mode.contains(' ') {
        mode.to_string()
    } else {
        format!("{mode} 1")
    };
    format!("cmd={} {mode} {}", fake_engine(), marker(name))
}

/// The processes whose command line holds `word`, as (pid, command line).
fn processes_with(word: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(raw) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
        if cmdline.contains(word) {
            found.push((pid, cmdline));
        }
    }
    found
}

/// No fake engine of the test `name` outlived the runner. A process killed a
/// moment ago may still be on its way out: a short grace, no timing assertion.
fn assert_no_fake_left(name: &str) {
    let word = marker(name);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_with(&word);
        if left.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            panic!("fake engines outlived the runner: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A match of doushou (`ds`) against the fake engine in `mode`; `fake_keys` go
/// into the fake's `--engine` words, `args` after both engines. Checks that no
/// fake engine outlived the runner.
fn against_fake(name: &str, mode: &str, fake_keys: &[&str], args: &[&str]) -> Run {
    let (cmd, fake) = (ds(), fake_cmd(name, mode));
    let mut all = vec!["--engine", "name=ds", &cmd, "--engine", "name=fake", &fake];
    all.extend_from_slice(fake_keys);
    all.extend_from_slice(args);
    let run = run_match(name, &all);
    assert_no_fake_left(name);
    run
}

fn run_match(name: &str, args: &[&str]) -> Run {
    let dir = scratch(name);
    let (pgn_path, json_path) = (dir.join("games.pgn"), dir.join("summary.json"));
    let output = Command::new(doushou())
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(&pgn_path)
        .arg("--json")
        .arg(&json_path)
        .output()
        .expect("doushou runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "match failed: {stderr}");
    let json = std::fs::read_to_string(&json_path).expect("the summary is written");
    let json: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let text = std::fs::read_to_string(&pgn_path).expect("the records are written");
    let records = pgn::parse(&text).unwrap_or_else(|e| panic!("records unreadable: {e}\n{text}"));
    let _ = std::fs::remove_dir_all(&dir);
    Run {
        output,
        stderr,
        json,
        records,
    }
}

/// Replays every record with the rules of its `Rules` tag and checks it
/// against the summary: legal moves, and a result that is the rules' outcome
/// for games ended by the rules, the faulty side's loss for a fault.
fn check_records(run: &Run) {
    let games = run.games();
    assert_eq!(games.len(), run.records.len(), "one record per game");
    for record in &run.records {
        let round = record.tag("Round").expect("Round tag");
        let summary = games
            .iter()
            .find(|g| field_of(g, "round") == round)
            .unwrap_or_else(|| panic!("round {round} not in the summary"));
        // PGN's seven tag roster first and in its order, as generic PGN tools
        // expect; then the record's own tags; SetUp "1" announcing the FEN.
        let names: Vec<&str> = record.tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "round {round}"
        );
        for tag in [
            "Red",
            "Blue",
            "Termination",
            "Variant",
            "Rules",
            "TimeControl",
        ] {
            assert!(record.tag(tag).is_some(), "round {round} lacks {tag}");
        }
        assert_eq!(names[names.len() - 2..], ["SetUp", "FEN"], "round {round}");
        assert_eq!(record.tag("SetUp"), Some("1"));
        assert_eq!(record.tag("White"), record.tag("Red"), "White moves first");
        assert_eq!(record.tag("Black"), record.tag("Blue"));
        assert_eq!(record.tag("Event"), Some("doushou match"));
        assert_eq!(record.tag("Result"), Some(record.result.as_str()));
        assert_eq!(field_of(summary, "result"), record.result);
        assert_eq!(field_of(summary, "red"), record.tag("Red").unwrap());
        let mut rules = Rules::default();
        rules
            .apply_settings(record.tag("Rules").unwrap().split_whitespace())
            .expect("the Rules tag reads back");
        let fen = record.tag("FEN").unwrap();
        let mut game = Game::new(rules, fen.parse().expect("the FEN tag reads back"));
        for (i, m) in record.moves.iter().enumerate() {
            if let Err(e) = game.play_text(m) {
                panic!("round {round}, ply {}: {m}: {e}", i + 1);
            }
        }
        let reason = field_of(summary, "reason");
        let reason = reason.as_str();
        let outcome = game.outcome();
        match reason {
            "den" | "all-captured" | "no-legal-move" | "repetition" | "no-capture-limit" => {
                let outcome = outcome.unwrap_or_else(|| panic!("round {round}: not over"));
                assert_eq!(outcome.score_text(), record.result, "round {round}");
                assert_eq!(
                    record.tag("Termination"),
                    Some(outcome.to_string().as_str())
                );
            }
            "max-plies" => {
                assert_eq!(outcome, None, "round {round}");
                assert_eq!(record.result, "1/2-1/2");
            }
            _ => {
                assert_eq!(outcome, None, "round {round}: a forfeit in a finished game");
                let faulty = field_of(summary, "faulty");
                let expected = if faulty == record.tag("Red").unwrap() {
                    "0-1"
                } else {
                    assert_eq!(faulty, record.tag("Blue").unwrap());
                    "1-0"
                };
                assert_eq!(record.result, expected, "round {round}: {reason}");
            }
        }
    }
}

/// Checks a match of doushou against a fake engine: the fake lost every game,
/// each for `reason`, and doushou nothing.
fn check_fake_lost_all(run: &Run, games: usize, reason: &str) {
    check_records(run);
    assert_eq!(run.games().len(), games, "{}", run.json);
    for g in run.games() {
        assert_eq!(field_of(g, "reason"), reason, "{g}");
        assert_eq!(field_of(g, "faulty"), "fake", "{g}");
    }
    assert_eq!(run.engine_field("fake", "losses"), games as u64);
    assert_eq!(run.engine_field("ds", "wins"), games as u64);
    for field in [
        "time_forfeits",
        "crashes",
        "illegal_moves",
        "no_answers",
        "start_failures",
    ] {
        assert_eq!(run.engine_field("ds", field), 0, "{field}");
    }
    // Each fault is named with the engine and the game.
    assert!(run.stderr.contains("engine 'fake'"), "{}", run.stderr);
    assert!(run.stderr.contains("game 1 (ds vs fake)"), "{}", run.stderr);
    assert!(run.stderr.contains("game 2 (fake vs ds)"), "{}", run.stderr);
}

fn ds() -> String {
    format!("cmd={}", doushou())
}

#[test]
fn doushou_plays_itself_legally_with_colours_swapped() {
    let cmd = ds();
    let run = run_match(
        "self",
        &[
            "--engine",
            "name=a",
            &cmd,
            "--engine",
            "name=b",
            &cmd,
            "--nodes",
            "400",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--max-plies",
            "80",
        ],
    );
    check_records(&run);
    assert_eq!(run.records.len(), 4);
    assert_eq!(run.engine_field("a", "games"), 4);
    assert_eq!(
        run.engine_field("a", "wins"),
        run.engine_field("b", "losses")
    );
    // Games 1 and 2 share an opening with colours swapped.
    let by_round = |r: &str| {
        run.records
            .iter()
            .find(|x| x.tag("Round") == Some(r))
            .unwrap()
    };
    let (g1, g2) = (by_round("1"), by_round("2"));
    assert_eq!((g1.tag("Red"), g1.tag("Blue")), (Some("a"), Some("b")));
    assert_eq!((g2.tag("Red"), g2.tag("Blue")), (Some("b"), Some("a")));
    let opening = |g: &pgn::Record| g.moves[..6].to_vec();
    assert_eq!(opening(g1), opening(g2));
    assert_eq!(g1.tag("TimeControl"), Some("nodes 400"));
    assert_eq!(g1.tag("Variant"), Some("jungle"));
    let table = String::from_utf8_lossy(&run.output.stdout);
    assert!(table.contains("a vs b"), "{table}");
    assert!(table.contains("TimeForfeits"), "{table}");
    assert!(run.stderr.contains("[4/4]"), "{}", run.stderr);
}

#[test]
fn a_round_robin_under_a_variant_with_openings_from_a_file() {
    let dir = scratch("openings-file");
    let file = dir.join("openings.txt");
    // A built position (lions and rats) and a move list from the start.
    std::fs::write(
        &file,
        "# test openings\n7/7/1r5/3l3/7/7/3L3/5R1/7 w 0 1\ng3g4 a7a6 c3d3\n",
    )
    .unwrap();
    let cmd = ds();
    let run = run_match(
        "round-robin",
        &[
            "--engine",
            "name=x",
            &cmd,
            "--engine",
            "name=y",
            &cmd,
            "--engine",
            "name=z",
            &cmd,
            "--depth",
            "1",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--variant",
            "xoudouqi",
            "--set",
            "NoCaptureLimit=30",
            "--openings",
            file.to_str().unwrap(),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    check_records(&run);
    assert_eq!(run.records.len(), 12, "3 pairs of 4 games");
    for name in ["x", "y", "z"] {
        assert_eq!(run.engine_field(name, "games"), 8);
    }
    assert_eq!(run.json["pairs"].as_array().unwrap().len(), 3);
    let fens: Vec<&str> = run.records.iter().map(|r| r.tag("FEN").unwrap()).collect();
    assert_eq!(fens.iter().filter(|f| f.starts_with("7/7/1r5")).count(), 6);
    for r in &run.records {
        assert_eq!(
            r.tag("Variant"),
            Some("custom"),
            "NoCaptureLimit=30 is no preset"
        );
        assert!(r.tag("Rules").unwrap().contains("DogOverWolf=true"));
        assert!(r.tag("Rules").unwrap().contains("NoCaptureLimit=30"));
    }
}

#[test]
fn the_sprt_plays_on_while_the_evidence_is_small() {
    // doushou beats the fake in (nearly) every game: six pairs of 2 points of
    // 2 are an LLR of about 0.34 at these bounds, far from a verdict (the
    // normal approximation with zero counts taken as 10⁻³ said H1 here).
    let run = against_fake(
        "sprt",
        "play",
        &[],
        &[
            "--depth",
            "3",
            "--games",
            "12",
            "--sprt",
            "elo0=0",
            "elo1=20",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    check_records(&run);
    assert_eq!(run.records.len(), 12);
    let sprt = &run.json["sprt"];
    assert_eq!(sprt["state"], "continue", "{}", run.json);
    let counts: Vec<u32> = serde_json::from_value(sprt["pairs"].clone()).expect("pair counts");
    let pairs = Pentanomial {
        counts: counts.try_into().expect("five counts"),
    };
    assert_eq!(pairs.pairs(), 6, "{sprt}");
    let test = Sprt::parse(&["elo0=0", "elo1=20"]).unwrap();
    let llr = sprt["llr"].as_f64().expect("an LLR");
    assert!((llr - test.llr_pairs(&pairs)).abs() < 1e-9, "{llr}");
    assert!(0.2 < llr && llr < 0.5, "{llr}");
    let table = String::from_utf8_lossy(&run.output.stdout);
    assert!(
        table.contains("SPRT") && table.contains("6 game pairs"),
        "{table}"
    );
    assert!(run.stderr.contains("LLR"), "{}", run.stderr);
}
