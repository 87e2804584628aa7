//! A match split into shards (`--shard I/N`), each played by its own process,
//! plays the games of the whole match, and `--merge` makes their records the
//! whole match's record; records of another match, or a shard twice, are
//! refused.

use super::*;
use std::path::Path;

/// Two engines that differ (so that the games are not all alike), at fixed
/// depths: single-threaded depth-limited searches play the same game every
/// run. Eight games: four openings, both colours.
fn match_args(cmd: &str, blue_depth: &str) -> Vec<String> {
    [
        "--engine",
        "name=deep",
        cmd,
        "depth=3",
        "--engine",
        "name=shallow",
        cmd,
        blue_depth,
        "--games",
        "8",
        "--max-plies",
        "120",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]
    .map(String::from)
    .to_vec()
}

/// `doushou` with `args`, `JOB_COMPLETION_INDEX` set to `job_index` if given.
fn doushou_run(args: &[String], job_index: Option<&str>) -> Output {
    let mut command = Command::new(doushou());
    command.args(args);
    if let Some(index) = job_index {
        command.env("JOB_COMPLETION_INDEX", index);
    }
    command.output().expect("doushou runs")
}

/// A match (or a shard) whose records go to `dir/name.json` and `.pgn`.
fn play(dir: &Path, name: &str, args: &[String], extra: &[&str], job_index: Option<&str>) {
    let mut all = vec!["match".to_string()];
    all.extend_from_slice(args);
    all.extend(extra.iter().map(|s| s.to_string()));
    for (flag, ext) in [("--json", "json"), ("--pgn", "pgn")] {
        all.push(flag.into());
        all.push(dir.join(format!("{name}.{ext}")).display().to_string());
    }
    let out = doushou_run(&all, job_index);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: {stderr}");
}

/// Each game of a PGN file as (round, red, blue, moves, result), by round.
fn games_of(path: &Path) -> Vec<(u32, String, String, Vec<String>, String)> {
    let text = std::fs::read_to_string(path).expect("a PGN file");
    let mut games: Vec<_> = pgn::parse(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
        .into_iter()
        .map(|r| {
            let tag = |t: &str| r.tag(t).unwrap_or_else(|| panic!("no {t}")).to_string();
            let round = tag("Round").parse().expect("a round number");
            (
                round,
                tag("Red"),
                tag("Blue"),
                r.moves.clone(),
                r.result.clone(),
            )
        })
        .collect();
    games.sort_by_key(|g| g.0);
    games
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a record");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// What the summary says of the results: per engine, per pair, the SPRT,
/// the games planned and played.
fn results(record: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for key in ["planned", "played", "engines", "pairs", "sprt"] {
        out.insert(key.into(), record[key].clone());
    }
    Value::Object(out)
}

/// `doushou match --merge` of `records`: (exit code, stdout, stderr).
fn merge(records: &[&Path], out: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["match".to_string(), "--merge".to_string()];
    args.extend(records.iter().map(|p| p.display().to_string()));
    args.extend(out.iter().map(|s| s.to_string()));
    let output = doushou_run(&args, None);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn two_shards_play_the_whole_match_and_merge_into_its_record() {
    let dir = scratch("shards");
    let cmd = ds();
    let args = match_args(&cmd, "depth=1");
    play(&dir, "whole", &args, &[], None);
    play(&dir, "part0", &args, &["--shard", "0/2"], None);
    // The second shard takes its index from the environment, as a pod does.
    play(&dir, "part1", &args, &["--shard", "env/2"], Some("1"));

    // Each shard plays whole game pairs: both colours of its openings.
    let whole = games_of(&dir.join("whole.pgn"));
    let parts = [
        games_of(&dir.join("part0.pgn")),
        games_of(&dir.join("part1.pgn")),
    ];
    assert_eq!(whole.len(), 8);
    for part in &parts {
        assert_eq!(part.len(), 4, "{part:?}");
        for game in part {
            let mate = part
                .iter()
                .find(|g| g.0 != game.0 && g.3[..6] == game.3[..6]);
            let mate = mate.unwrap_or_else(|| panic!("round {} alone in its shard", game.0));
            assert_eq!((&mate.1, &mate.2), (&game.2, &game.1), "colours swapped");
        }
    }
    // Together, the same games move for move, under the same rounds.
    let mut joined: Vec<_> = parts.concat();
    joined.sort_by_key(|g| g.0);
    assert_eq!(joined, whole);
    let part0 = read_json(&dir.join("part0.json"));
    assert_eq!(part0["planned"], 4);
    assert_eq!(
        part0["settings"]["shard"],
        serde_json::json!({"index": 0, "count": 2})
    );
    let whole_record = read_json(&dir.join("whole.json"));
    assert!(whole_record["settings"].get("shard").is_none());

    // A shard cut short resumes its own games, and only those.
    let part1_json = dir.join("part1.json");
    let mut cut = read_json(&part1_json);
    cut["games"].as_array_mut().unwrap().truncate(1);
    std::fs::write(&part1_json, cut.to_string()).unwrap();
    let resumed = doushou_run(
        &["match", "--resume", part1_json.to_str().unwrap()].map(String::from),
        None,
    );
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(games_of(&dir.join("part1.pgn")), parts[1]);
    assert_eq!(read_json(&part1_json)["played"], 4);

    // Merged, the records are the whole match's: results, SPRT, games.
    let (merged_json, merged_pgn) = (dir.join("merged.json"), dir.join("merged.pgn"));
    let (code, table, stderr) = merge(
        &[&dir.join("part1.json"), &dir.join("part0.json")],
        &[
            "--json",
            merged_json.to_str().unwrap(),
            "--pgn",
            merged_pgn.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        table.contains("8 of 8 games played (merged from 2 of 2 shards)"),
        "{table}"
    );
    let merged = read_json(&merged_json);
    assert_eq!(results(&merged), results(&whole_record));
    let pair = &merged["pairs"][0];
    assert_eq!(
        pair["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum::<u64>(),
        4
    );
    assert_eq!(games_of(&merged_pgn), whole);
    let rounds: Vec<u64> = merged["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, (1..=8).collect::<Vec<_>>());

    // Refused, with one line and exit code 1: a shard twice, one of another
    // match (other limits, other engines), a whole match with a shard.
    let part0_json = dir.join("part0.json");
    let refused = |records: &[&Path], why: &str| {
        let (code, table, stderr) = merge(records, &[]);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(table.is_empty(), "{table}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(why), "{why}: {stderr}");
    };
    refused(
        &[&part0_json, &part0_json],
        "both shard 0/2: give each shard once",
    );
    play(
        &dir,
        "limits",
        &match_args(&cmd, "depth=2"),
        &["--shard", "1/2"],
        None,
    );
    refused(
        &[&part0_json, &dir.join("limits.json")],
        "is not a shard of the match of",
    );
    refused(
        &[&part0_json, &dir.join("limits.json")],
        "engine 'shallow' limits: depth 2, not depth 1",
    );
    let mut others = match_args(&cmd, "depth=1");
    others[1] = "name=other".into();
    play(&dir, "others", &others, &["--shard", "1/2"], None);
    refused(
        &[&part0_json, &dir.join("others.json")],
        "engines: other, shallow, not deep, shallow",
    );
    refused(&[&dir.join("whole.json"), &part0_json], "shards: 2, not 1");
    // A record that is not there is a wrong command line.
    let (code, _, stderr) = merge(&[&dir.join("missing.json")], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
