//! `doushou match` driven through the real binary: doushou against itself at
//! tiny limits, and against the misbehaving engines of `examples/fake_engine.rs`.
//! Every record is replayed with the rules code: each move must be legal and
//! each result must be the rules' outcome or the stated forfeit.

mod common;

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

/// `doushou match` started in the background on `args`, records in `dir`.
fn spawn_match(dir: &std::path::Path, args: &[&str]) -> Child {
    Command::new(doushou())
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(dir.join("games.pgn"))
        .arg("--json")
        .arg(dir.join("summary.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("doushou runs")
}

/// Waits until the record in `dir` lists `games` finished games; answers it.
fn wait_for_games(dir: &std::path::Path, games: usize, runner: &mut Child) -> Value {
    let deadline = Instant::now() + common::TIMEOUT * 3;
    loop {
        let record = std::fs::read_to_string(dir.join("summary.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        if let Some(record) = record
            && record["played"].as_u64().unwrap_or(0) >= games as u64
        {
            return record;
        }
        if let Ok(Some(status)) = runner.try_wait() {
            panic!("the match ended ({status}) before {games} games");
        }
        assert!(Instant::now() < deadline, "no {games} games recorded");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The summary without what differs from run to run (wall times).
fn comparable(summary: &Value) -> Value {
    let mut s = summary.clone();
    let object = s.as_object_mut().expect("an object");
    object.remove("seconds");
    object.remove("settings");
    let games = object["games"].as_array_mut().expect("games");
    for g in games.iter_mut() {
        g.as_object_mut().unwrap().remove("duration_ms");
    }
    games.sort_by_key(|g| g["round"].as_u64());
    s
}

/// Each round's moves and result in a PGN file, by round.
fn games_by_round(dir: &std::path::Path) -> Vec<(String, Vec<String>, String)> {
    let text = std::fs::read_to_string(dir.join("games.pgn")).expect("records");
    let mut games: Vec<_> = pgn::parse(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
        .into_iter()
        .map(|r| (r.tag("Round").unwrap().to_string(), r.moves, r.result))
        .collect();
    games.sort_by_key(|g| g.0.parse::<u32>().unwrap());
    games
}

#[test]
fn a_match_killed_and_resumed_ends_as_an_uninterrupted_one() {
    let cmd = ds();
    // Depth-limited single-threaded searches make every game the same each run.
    let args = [
        "--engine",
        "name=a",
        &cmd,
        "--engine",
        "name=b",
        &cmd,
        "--depth",
        "2",
        "--games",
        "12",
        "--max-plies",
        "40",
    ];
    let whole = scratch("resume-whole");
    let status = spawn_match(&whole, &args).wait().expect("the match ends");
    assert!(status.success());

    let cut = scratch("resume-cut");
    let mut runner = spawn_match(&cut, &args);
    let seen = wait_for_games(&cut, 3, &mut runner);
    runner.kill().expect("SIGKILL");
    let _ = runner.wait();
    let killed: Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("summary.json")).unwrap()).unwrap();
    let played = killed["played"].as_u64().unwrap();
    assert!(
        (3..12).contains(&played),
        "killed after {played} games: {seen}"
    );

    let record = cut.join("summary.json");
    let resumed = Command::new(doushou())
        .args(["match", "--resume", record.to_str().unwrap()])
        .output()
        .expect("doushou runs");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(stderr.contains("played already"), "{stderr}");
    let read = |dir: &PathBuf| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
    };
    let (whole_summary, cut_summary) = (read(&whole), read(&cut));
    assert_eq!(cut_summary["played"], 12);
    assert_eq!(comparable(&cut_summary), comparable(&whole_summary));
    assert_eq!(games_by_round(&cut), games_by_round(&whole));
    // The table printed at the end covers the whole match.
    let table = String::from_utf8_lossy(&resumed.stdout);
    assert!(table.contains("12 of 12 games"), "{table}");
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&cut);
}

#[test]
fn resume_refuses_a_file_that_is_no_record() {
    let dir = scratch("resume-bad");
    let bad = dir.join("bad.json");
    for text in ["", "{}", "{\"settings\": 3}", "not json"] {
        std::fs::write(&bad, text).unwrap();
        let out = Command::new(doushou())
            .args(["match", "--resume", bad.to_str().unwrap()])
            .output()
            .expect("doushou runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{text}: {stderr}");
        assert!(stderr.contains("--resume"), "{text}: {stderr}");
    }
    let out = Command::new(doushou())
        .args([
            "match",
            "--resume",
            dir.join("missing.json").to_str().unwrap(),
        ])
        .output()
        .expect("doushou runs");
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_the_match_and_keeps_the_finished_games() {
    let name = "sigint";
    let dir = scratch(name);
    let (cmd, fake) = (ds(), fake_cmd(name, "slow 100"));
    let mut runner = spawn_match(
        &dir,
        &[
            "--engine",
            "name=ds",
            &cmd,
            "--engine",
            "name=fake",
            &fake,
            "--depth",
            "1",
            "--games",
            "20",
            "--max-plies",
            "16",
        ],
    );
    wait_for_games(&dir, 1, &mut runner);
    let signalled = Command::new("kill")
        .args(["-INT", &runner.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let output = runner.wait_with_output().expect("the runner ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("doushou match --resume"), "{stderr}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(record["interrupted"], true, "{record}");
    let played = record["played"].as_u64().unwrap();
    assert!((1..20).contains(&played), "{record}");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains(&format!("{played} of 20 games")), "{table}");
    // Only finished games are recorded, none cut short by the interrupt.
    assert_eq!(games_by_round(&dir).len() as u64, played);
    assert!(
        record["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["reason"] == "max-plies" || g["faulty"].is_null()),
        "{record}"
    );
    assert_no_fake_left(name);
    let _ = std::fs::remove_dir_all(&dir);
}
