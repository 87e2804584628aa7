//! `doushou ratings`: maximum-likelihood ratings of the players of PGN files
//! and match records, checked against the closed form for two players and
//! against a second fit written here (Zermelo's iteration, as in Hunter's
//! minorisation-maximisation) for more.

use super::*;
use std::collections::BTreeMap;
use std::path::Path;

/// A hand-written PGN of `games` (first player, second player, result): the
/// players' tags and a result, no moves.
fn hand_pgn(games: &[(&str, &str, &str)]) -> String {
    games
        .iter()
        .enumerate()
        .map(|(i, (white, black, result))| {
            format!(
                "[Event \"hand\"]\n[Round \"{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n",
                i + 1
            )
        })
        .collect()
}

/// `doushou ratings` on `args`: (exit code, stdout, stderr).
fn ratings(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(doushou())
        .arg("ratings")
        .args(args)
        .output()
        .expect("doushou runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `--json` list of `files` (and more arguments), by player: (elo, error,
/// games, score, unrated).
fn ratings_json(args: &[&str]) -> BTreeMap<String, Value> {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = ratings(&all);
    assert_eq!(code, Some(0), "{err}");
    let list: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let object = list.as_object().expect("one object");
    assert_eq!(object.keys().collect::<Vec<_>>(), ["ratings"], "{out}");
    list["ratings"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| (r["name"].as_str().expect("a name").to_string(), r.clone()))
        .collect()
}

fn elo(list: &BTreeMap<String, Value>, name: &str) -> f64 {
    list[name]["elo"]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} has no rating: {:?}", list[name]))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The ratings (average 0) of the players of `games` (first, second, first's
/// points) by Zermelo's iteration: γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ), where Wᵢ
/// counts a draw as half a win; the rating is 400·log₁₀ γ.
fn zermelo(games: &[(usize, usize, f64)], players: usize) -> Vec<f64> {
    let mut wins = vec![0.0; players];
    let mut n = vec![vec![0.0; players]; players];
    for &(a, b, points) in games {
        wins[a] += points;
        wins[b] += 1.0 - points;
        n[a][b] += 1.0;
        n[b][a] += 1.0;
    }
    let mut gamma = vec![1.0; players];
    for _ in 0..100_000 {
        let next: Vec<f64> = (0..players)
            .map(|i| {
                let d: f64 = (0..players)
                    .filter(|&j| j != i)
                    .map(|j| n[i][j] / (gamma[i] + gamma[j]))
                    .sum();
                wins[i] / d
            })
            .collect();
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a / b).ln().abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let elo: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let mean = elo.iter().sum::<f64>() / players as f64;
    elo.iter().map(|e| e - mean).collect()
}

#[test]
fn two_players_three_wins_to_one_are_190_8_apart() {
    let dir = scratch("ratings-two");
    let file = write(
        &dir,
        "two.pgn",
        &hand_pgn(&[
            ("a", "b", "1-0"),
            ("b", "a", "0-1"),
            ("a", "b", "1-0"),
            ("b", "a", "1-0"),
        ]),
    );
    let list = ratings_json(&[&file]);
    let (a, b) = (elo(&list, "a"), elo(&list, "b"));
    assert!((a - b - 190.8).abs() < 1.0, "{a} - {b}");
    assert!((a + b).abs() < 0.1, "the average is 0: {a} {b}");
    assert_eq!(list["a"]["games"], 4);
    assert_eq!(list["a"]["score"], 0.75);
    assert!(list["a"]["error"].as_f64().unwrap() > 0.0);
    // Anchored, the same gap from the anchor, whose error is none.
    let list = ratings_json(&[&file, "--anchor", "b=2000"]);
    assert!((elo(&list, "a") - 2190.8).abs() < 1.0, "{:?}", list["a"]);
    assert_eq!(list["b"]["elo"], 2000.0);
    assert_eq!(list["b"]["error"], 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn five_players_get_the_ratings_of_a_second_fit() {
    // Five players of different strengths, six games a pair plus a draw (so
    // that every pair scores both ways), results from a fixed generator.
    let names = ["p0", "p1", "p2", "p3", "p4"];
    let strength = [0.0, 80.0, 150.0, 260.0, 400.0];
    let mut state = 12345u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut games = Vec::new();
    for a in 0..5 {
        for b in a + 1..5 {
            games.push((a, b, 0.5));
            for k in 0..6 {
                let (first, second) = if k % 2 == 0 { (a, b) } else { (b, a) };
                let expected =
                    1.0 / (1.0 + 10f64.powf((strength[second] - strength[first]) / 400.0));
                let roll = next();
                let points = if roll < 0.2 {
                    0.5
                } else if roll < 0.2 + 0.8 * expected {
                    1.0
                } else {
                    0.0
                };
                games.push((first, second, points));
            }
        }
    }
    let text: Vec<(&str, &str, &str)> = games
        .iter()
        .map(|&(a, b, p)| {
            let result = match (p * 2.0) as u8 {
                2 => "1-0",
                1 => "1/2-1/2",
                _ => "0-1",
            };
            (names[a], names[b], result)
        })
        .collect();
    let dir = scratch("ratings-five");
    // Split over two files: the list is fitted to all games at once.
    let (one, two) = text.split_at(text.len() / 2);
    let files = [
        write(&dir, "one.pgn", &hand_pgn(one)),
        write(&dir, "two.pgn", &hand_pgn(two)),
    ];
    let list = ratings_json(&[&files[0], &files[1]]);
    let expected = zermelo(&games, 5);
    for (i, name) in names.iter().enumerate() {
        let got = elo(&list, name);
        assert!(
            (got - expected[i]).abs() < 1.0,
            "{name}: {got} vs {}",
            expected[i]
        );
        let played = games.iter().filter(|g| g.0 == i || g.1 == i).count();
        assert_eq!(list[*name]["games"], played as u64);
    }
    // The spread is real: the strongest is well above the weakest.
    assert!(elo(&list, "p4") - elo(&list, "p0") > 100.0, "{list:?}");
    // The table lists them best first.
    let (code, table, _) = ratings(&[&files[0], &files[1]]);
    assert_eq!(code, Some(0));
    let order: Vec<usize> = names
        .iter()
        .map(|n| table.find(&format!(" {n} ")).unwrap())
        .collect();
    let mut by_rating: Vec<usize> = (0..5).collect();
    by_rating.sort_by(|&a, &b| expected[b].total_cmp(&expected[a]));
    assert!(
        by_rating.windows(2).all(|w| order[w[0]] < order[w[1]]),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_player_who_won_every_game_is_said_so_not_rated_at_infinity() {
    let dir = scratch("ratings-perfect");
    let file = write(
        &dir,
        "games.pgn",
        &hand_pgn(&[
            ("champ", "a", "1-0"),
            ("b", "champ", "0-1"),
            ("a", "b", "1-0"),
            ("b", "a", "1/2-1/2"),
            ("a", "b", "1-0"),
            ("b", "a", "1-0"),
            ("a", "loser", "1-0"),
            ("loser", "b", "0-1"),
        ]),
    );
    let list = ratings_json(&[&file]);
    assert_eq!(list["champ"]["elo"], Value::Null, "{list:?}");
    assert_eq!(list["champ"]["unrated"], "won every game");
    assert_eq!(list["loser"]["unrated"], "lost every game");
    assert_eq!(list["champ"]["score"], 1.0);
    assert!(elo(&list, "a") > elo(&list, "b"), "{list:?}");
    let (code, table, _) = ratings(&[&file]);
    assert_eq!(code, Some(0));
    assert!(
        table.contains("won all") && table.contains("lost all"),
        "{table}"
    );
    // The anchor must be a rated player.
    let (code, _, stderr) = ratings(&[&file, "--anchor", "champ=3000"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("champ won every game"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_record_and_its_pgn_give_the_same_list() {
    let cmd = ds();
    let run = run_match(
        "ratings-record",
        &[
            "--engine",
            "name=d1",
            &cmd,
            "depth=1",
            "--engine",
            "name=d2",
            &cmd,
            "depth=2",
            "--engine",
            "name=d3",
            &cmd,
            "depth=3",
            "--games",
            "4",
            "--max-plies",
            "60",
        ],
    );
    let dir = scratch("ratings-record-files");
    let json = write(&dir, "record.json", &run.json.to_string());
    let pgn: String = run.records.iter().map(ToString::to_string).collect();
    let pgn = write(&dir, "games.pgn", &pgn);
    let from_json = ratings_json(&[&json]);
    assert_eq!(from_json.len(), 3);
    assert!(from_json.values().all(|r| r["games"] == 8), "{from_json:?}");
    assert_eq!(from_json, ratings_json(&[&pgn]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_and_a_wrong_command_line_are_refused() {
    let dir = scratch("ratings-bad");
    let good = write(
        &dir,
        "good.pgn",
        &hand_pgn(&[("a", "b", "1-0"), ("b", "a", "1-0")]),
    );
    let bad_input = [
        (
            "unfinished.pgn",
            hand_pgn(&[("a", "b", "1-0"), ("a", "b", "*")]),
            "has no result",
        ),
        (
            "nameless.pgn",
            "[Result \"1-0\"]\n\n1-0\n".to_string(),
            "names no players",
        ),
        ("notags.pgn", "1. g3g4 a7a6 1-0\n".to_string(), "no tags"),
        ("empty.pgn", String::new(), "no game to rate"),
        (
            "record.json",
            "{\"games\": 3}".to_string(),
            "not a match record",
        ),
    ];
    for (name, text, why) in bad_input {
        let file = write(&dir, name, &text);
        let (code, out, err) = ratings(&[&file]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(out.is_empty(), "{name}: {out}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(why), "{name}: {err}");
    }
    let (code, _, err) = ratings(&[&good, "--anchor", "nobody=100"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--anchor nobody: no player of that name"),
        "{err}"
    );
    let missing = dir.join("missing.pgn").display().to_string();
    for args in [
        vec![good.as_str(), "--anchor", "a"],
        vec![good.as_str(), "--anchor", "a=strong"],
        vec![good.as_str(), "--bogus"],
        vec![missing.as_str()],
        vec![],
    ] {
        let (code, _, err) = ratings(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
