//! A match interrupted (killed, or stopped by Ctrl-C) keeps its finished
//! games, and `--resume` ends it as an uninterrupted one would have.

use super::*;

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
    // The match page promises the same code (the exit codes': not a bad
    // command line, so not 2).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/match.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        doc.contains("the runner exits with code 1"),
        "{path} does not give Ctrl-C the exit code the runner ends with"
    );
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
