//! `doushou analyse` driven through its pipes: positions and games in, text or
//! JSON lines out, with malformed lines among them, empty input, game records,
//! and `--jobs 2` against `--jobs 1`. JSON is read back with serde_json.

use crate::common;

use common::two_piece_tables;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_doushou");
const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

/// Runs `doushou <args>` with `input` on stdin; answers (exit code, stdout, stderr).
fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written from a thread so a large input cannot deadlock against stdout.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("the binary runs");
    writer.join().unwrap();
    (
        status.code().expect("exited, not killed"),
        String::from_utf8(stdout).expect("stdout is UTF-8"),
        String::from_utf8(stderr).expect("stderr is UTF-8"),
    )
}

// ---- reading the JSON lines ----------------------------------------------

type Json = serde_json::Value;

/// Field access that fails the test, with the value, when the shape is wrong.
trait Reader {
    fn field(&self, key: &str) -> &Json;
    fn has(&self, key: &str) -> bool;
    fn num(&self) -> f64;
    fn str(&self) -> &str;
    fn arr(&self) -> &[Json];
}

impl Reader for Json {
    fn field(&self, key: &str) -> &Json {
        self.as_object()
            .and_then(|m| m.get(key))
            .unwrap_or_else(|| panic!("no key {key} in {self}"))
    }
    fn has(&self, key: &str) -> bool {
        self.as_object().is_some_and(|m| m.contains_key(key))
    }
    fn num(&self) -> f64 {
        self.as_f64()
            .unwrap_or_else(|| panic!("not a number: {self}"))
    }
    fn str(&self) -> &str {
        self.as_str()
            .unwrap_or_else(|| panic!("not a string: {self}"))
    }
    fn arr(&self) -> &[Json] {
        self.as_array()
            .unwrap_or_else(|| panic!("not an array: {self}"))
    }
}

/// Parses one complete JSON text; panics with the text on any fault.
fn parse_json(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("bad JSON ({e}): {text}"))
}

fn json_lines(stdout: &str) -> Vec<Json> {
    stdout.lines().map(parse_json).collect()
}

// ---- positions -----------------------------------------------------------

/// Several positions with malformed lines among them (and blank and comment
/// lines, which are skipped).
fn mixed_input() -> String {
    [
        "startpos",
        "",
        "# a comment",
        &format!("{START} moves g3g4"),
        "startpos moves g3g4 a7a6 g4g5",
        "not a position at all",
        "startpos moves g3g9",
        "startpos moves g3\"\\4",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1",
        "6l/3D3/7/7/7/7/7/7/T6 w 0 1",
        "3R3/7/7/7/7/7/7/7/l6 b 0 1",
    ]
    .join("\n")
}

#[test]
fn positions_as_json_with_malformed_lines_among_them() {
    let (code, out, err) = run(
        &["analyse", "--json", "--depth", "3", "--jobs", "1"],
        &mixed_input(),
    );
    assert_eq!(code, 1, "some lines are invalid: {err}");
    let lines = json_lines(&out);
    let numbers: Vec<f64> = lines.iter().map(|l| l.field("line").num()).collect();
    assert_eq!(numbers, [1.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]);

    for good in [0, 1, 2, 6] {
        let l = &lines[good];
        assert!(!l.has("error"), "{l:?}");
        assert_eq!(l.field("bestmove").str().len(), 4);
        assert!(l.field("score").has("cp") || l.field("score").has("mate"));
        assert_eq!(l.field("depth").num(), 3.0);
        assert!(l.field("nodes").num() > 0.0);
        assert_eq!(l.field("pv").arr()[0].str(), l.field("bestmove").str());
        let wdl: f64 = l.field("wdl").arr().iter().map(Json::num).sum();
        assert_eq!(wdl, 1000.0);
    }
    assert_eq!(lines[0].field("fen").str(), START);
    assert!(lines[1].field("fen").str().ends_with(" b 1 1"));
    for bad in [3, 4, 5] {
        assert!(!lines[bad].field("error").str().is_empty());
        assert!(!lines[bad].has("bestmove"));
    }
    // The move text with a quote and a backslash comes back intact.
    assert!(
        lines[5].field("error").str().contains("g3\"\\4"),
        "{:?}",
        lines[5]
    );
    assert!(lines[4].field("error").str().contains("g3g9"));

    // Red enters the den at once: mate in 1.
    assert_eq!(lines[7].field("bestmove").str(), "d8d9");
    assert_eq!(lines[7].field("score").field("mate").num(), 1.0);
    // Red already stands in the Blue den: the game is over, Blue lost.
    let over = &lines[8];
    assert_eq!(*over.field("bestmove"), Json::Null);
    assert_eq!(over.field("result").str(), "1-0");
    let wdl: Vec<f64> = over.field("wdl").arr().iter().map(Json::num).collect();
    assert_eq!(wdl, [0.0, 0.0, 1000.0]);
}

#[test]
fn positions_as_text_one_line_each() {
    let (code, out, _) = run(&["analyse", "--depth", "3", "--jobs", "2"], &mixed_input());
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    assert!(lines[0].starts_with("line 1: bestmove "), "{}", lines[0]);
    assert!(lines[0].contains(" score cp ") && lines[0].contains(" depth 3 "));
    assert!(lines[3].starts_with("line 6: error: "), "{}", lines[3]);
    assert!(lines[7].contains("score mate 1"), "{}", lines[7]);
    assert!(
        lines[8].starts_with("line 11: game over: 1-0"),
        "{}",
        lines[8]
    );
}

#[test]
fn multipv_reports_each_line() {
    let (code, out, _) = run(
        &["analyse", "--json", "--depth", "3", "--multipv", "3"],
        "startpos\n",
    );
    assert_eq!(code, 0);
    let l = parse_json(out.trim());
    let lines = l.field("multipv").arr();
    assert_eq!(lines.len(), 3);
    let firsts: Vec<&str> = lines.iter().map(|x| x.field("pv").arr()[0].str()).collect();
    assert_eq!(firsts[0], l.field("bestmove").str());
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
}

#[test]
fn empty_input_gives_empty_output() {
    for input in ["", "\n\n", "# only a comment\n   \n"] {
        let (code, out, err) = run(&["analyse", "--json", "--depth", "3"], input);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""), "{input:?}");
        let (code, out, _) = run(&["analyse", "--game", "--depth", "3"], input);
        assert_eq!((code, out.as_str()), (0, ""), "{input:?}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["analyse", "--set", "Nope=1"][..],
        &["analyse", "--variant", "chess"],
        &["analyse", "--jobs", "0"],
        &["analyse", "--depth", "x"],
        &["analyse", "/no/such/file"],
        &["analyse", "--game", "--multipv", "2"],
    ] {
        let (code, out, err) = run(args, "startpos\n");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert!(!err.is_empty());
    }
}

#[test]
fn jobs_do_not_change_the_answers() {
    let mut input = String::new();
    for moves in [
        "",
        "g3g4",
        "g3g4 a7a6",
        "e3d3 c7d7",
        "a3a4 g7g6 a4a5",
        "g1g2 a9a8",
        "b2b3 f8f7 b3b4",
        "c3d3",
    ] {
        input.push_str(&format!("startpos moves {moves}\n"));
    }
    input.push_str("garbage\n");
    let one = run(
        &["analyse", "--json", "--depth", "4", "--jobs", "1"],
        &input,
    );
    let two = run(
        &["analyse", "--json", "--depth", "4", "--jobs", "2"],
        &input,
    );
    assert_eq!(one.0, 1);
    assert_eq!(one, two);
    assert_eq!(one.1.lines().count(), 9);
    let game = "startpos moves g3g4 a7a6 g4g5 a6a5 e3d3 c7d7\n";
    let one = run(&["analyse", "--game", "--depth", "3", "--jobs", "1"], game);
    let two = run(&["analyse", "--game", "--depth", "3", "--jobs", "2"], game);
    assert_eq!(one.0, 0);
    assert_eq!(one, two);
}

#[test]
fn rules_switches_apply() {
    // The dog takes the wolf only when DogOverWolf ranks the dog above it.
    let line = "l5t/7/7/7/7/3w3/3D3/7/T5L w 0 1 moves d3d4";
    let (code, out, _) = run(&["analyse", "--json", "--depth", "2"], line);
    assert_eq!(code, 1);
    assert!(parse_json(out.trim()).has("error"));
    let (code, out, _) = run(
        &[
            "analyse",
            "--json",
            "--depth",
            "2",
            "--set",
            "DogOverWolf=true",
        ],
        line,
    );
    assert_eq!(code, 0, "{out}");
    assert!(parse_json(out.trim()).has("bestmove"));
}

// ---- games ---------------------------------------------------------------

/// Records as `doushou match` writes them, written by hand. In the first the
/// Rules tag ranks the dog above the wolf, which its fifth move needs; the
/// second repeats its start a third time; the third has a bad Rules tag.
const RECORD: &str = r#"[Event "doushou match"]
[Date "2026.11.29"]
[Round "1"]
[Red "alpha"]
[Blue "be\"ta"]
[Result "1-0"]
[Termination "red wins: a piece entered the blue den"]
[Variant "custom"]
[Rules "DogOverWolf=true TigerJump=both LionJump=both RatBankCapture=false RatWaterElephant=false TrappedAttackerPowerless=false UniversalTraps=false JumpBlockedBy=any Repetition=forbid NoCaptureLimit=100"]
[TimeControl "depth=3"]
[FEN "l5t/7/7/7/3w3/7/3D3/7/T5L w 0 1"]

1. d3d4 a9a8 2. a1a2 a8a7 3.
d4d5 a7a6 1-0

[Event "doushou match"]
[Round "2"]
[Red "beta"]
[Blue "alpha"]
[Result "0-1"]
[FEN "l5t/7/7/7/7/7/7/7/T5L w 0 1"]

1. a1a2 a9a8 2. a2a1 a8a9 3. a1a2 a9a8 4. a2a1 a8a9 0-1

[Event "doushou match"]
[Round "3"]
[Rules "DogOverWolf=maybe"]

1. g3g4 *
"#;

#[test]
fn game_records_are_annotated_move_by_move() {
    let input = format!("{RECORD}\n6l/3Dr2/7/7/7/7/7/7/T6 w 0 1 moves a1a2 e8d8\ng3g4 a7a6\n");
    let (code, out, err) = run(&["analyse", "--game", "--json", "--depth", "3"], &input);
    assert_eq!(code, 1, "the third record is invalid: {err}");
    let games = json_lines(&out);
    assert_eq!(games.len(), 5, "{out}");

    let g = &games[0];
    assert_eq!(g.field("game").num(), 1.0);
    assert_eq!(g.field("line").num(), 1.0);
    assert_eq!(g.field("tags").field("Blue").str(), "be\"ta");
    assert!(g.field("rules").str().contains("DogOverWolf=true"));
    assert_eq!(g.field("fen").str(), "l5t/7/7/7/3w3/7/3D3/7/T5L w 0 1");
    assert_eq!(g.field("result").str(), "1-0");
    let moves = g.field("moves").arr();
    let played: Vec<&str> = moves.iter().map(|m| m.field("move").str()).collect();
    assert_eq!(played, ["d3d4", "a9a8", "a1a2", "a8a7", "d4d5", "a7a6"]);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.field("ply").num(), (i + 1) as f64);
        assert_eq!(
            m.field("side").str(),
            if i % 2 == 0 { "red" } else { "blue" }
        );
        assert_eq!(m.field("move_number").num(), (i / 2 + 1) as f64);
        assert_eq!(m.field("best").str().len(), 4);
        assert!(m.field("score_before").has("cp") || m.field("score_before").has("mate"));
        assert!(m.field("score_after").has("cp") || m.field("score_after").has("mate"));
        assert!(m.field("drop").num() >= 0.0);
        assert!(matches!(m.field("blunder"), Json::Bool(_)));
    }
    // The dog takes the wolf: a free piece, so not a blunder.
    assert_eq!(moves[4].field("blunder"), &Json::Bool(false));

    // The second record repeats the start position a third time: illegal
    // under Repetition=forbid (the default, no Rules tag).
    assert!(
        games[1].field("error").str().contains("ply 8"),
        "{:?}",
        games[1]
    );
    assert_eq!(games[1].field("line").num(), 23.0);
    // The third has a Rules tag this engine cannot apply.
    assert!(games[2].field("error").str().contains("DogOverWolf"));
    assert_eq!(games[2].field("line").num(), 27.0);

    // Red could enter the den at once and moves the tiger instead: the rat
    // then takes the dog on the trap. A blunder, flagged, with the den entry
    // as the better move.
    let blunder = &games[3].field("moves").arr()[0];
    assert_eq!(blunder.field("move").str(), "a1a2");
    assert_eq!(blunder.field("best").str(), "d8d9");
    assert_eq!(blunder.field("score_before").field("mate").num(), 1.0);
    assert_eq!(blunder.field("blunder"), &Json::Bool(true));
    assert!(blunder.field("drop").num() > 150.0);
    assert_eq!(games[3].field("blunders").field("red").num(), 1.0);
    assert_eq!(games[3].field("line").num(), 31.0);

    // A bare move list from the start position.
    let bare = &games[4];
    assert_eq!(bare.field("fen").str(), START);
    assert_eq!(bare.field("moves").arr().len(), 2);
}

#[test]
fn game_text_flags_blunders_and_threshold_applies() {
    let line = "6l/3Dr2/7/7/7/7/7/7/T6 w 0 1 moves a1a2 e8d8\n";
    let (code, out, _) = run(&["analyse", "--game", "--depth", "3"], line);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("game 1 (line 1):"), "{out}");
    assert!(
        lines[1].contains("a1a2") && lines[1].contains("?? blunder"),
        "{out}"
    );
    assert!(!lines[2].contains("blunder"), "{out}");
    // No drop passes an absurd threshold.
    let (_, out, _) = run(
        &["analyse", "--game", "--depth", "3", "--blunder", "100000"],
        line,
    );
    assert!(!out.contains("??"), "{out}");
}

#[test]
fn a_den_entry_ends_the_game_and_scores_as_mate() {
    let (code, out, _) = run(
        &["analyse", "--game", "--json", "--depth", "3"],
        "6l/3D3/7/7/7/7/7/7/T6 w 0 1 moves d8d9\n",
    );
    assert_eq!(code, 0);
    let g = parse_json(out.trim());
    let m = &g.field("moves").arr()[0];
    assert_eq!(m.field("score_before").field("mate").num(), 1.0);
    assert_eq!(m.field("score_after").field("mate").num(), 1.0);
    assert_eq!(m.field("drop").num(), 0.0);
    assert!(g.field("outcome").str().contains("den"), "{g:?}");
}

/// Each move is judged in the position before it at one depth: the engine's
/// choice against the move played, so the engine's own choice drops nothing.
/// Under the linear evaluation quiet opening moves are no blunders; the net
/// has opinions of its own about them, so with it only the arithmetic is held.
#[test]
fn moves_are_judged_against_the_best_move_at_equal_depth() {
    for eval in ["linear", "nnue"] {
        let (code, out, err) = run(
            &[
                "analyse", "--game", "--json", "--depth", "8", "--eval", eval,
            ],
            "g3g4 a7a6 f2e2 b8c8\n",
        );
        assert_eq!(code, 0, "{err}");
        let g = parse_json(out.trim());
        let moves = g.field("moves").arr();
        assert_eq!(moves.len(), 4);
        let cp = |score: &Json| score.field("cp").num();
        let mut best_played = 0;
        for m in moves {
            assert_eq!(m.field("depth").num(), 8.0, "{m:?}");
            let (before, after) = (cp(m.field("score_before")), cp(m.field("score_after")));
            if m.field("move").str() == m.field("best").str() {
                best_played += 1;
                assert_eq!(m.field("drop").num(), 0.0, "{m:?}");
                assert_eq!(
                    after, before,
                    "the best move scores as the best line: {m:?}"
                );
            } else {
                assert_eq!(m.field("drop").num(), (before - after).max(0.0), "{m:?}");
            }
        }
        if eval == "linear" {
            assert_eq!(g.field("blunders").field("red").num(), 0.0, "{out}");
            assert_eq!(g.field("blunders").field("blue").num(), 0.0, "{out}");
            assert!(
                best_played > 0,
                "no move of the game was the engine's choice: {out}"
            );
        }
    }
}

/// A record written by the real match runner, read back by `analyse --game`.
#[test]
fn a_record_written_by_doushou_match() {
    let (help, _, _) = run(&["match", "--help"], "");
    if help != 0 {
        eprintln!("doushou match is not available: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("doushou-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let engine = format!("cmd={BIN}");
    let (code, _, err) = run(
        &[
            "match",
            "--engine",
            "name=a",
            &engine,
            "--engine",
            "name=b",
            &engine,
            "--depth",
            "2",
            "--games",
            "2",
            "--max-plies",
            "30",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "match failed: {err}");
    let (code, out, err) = run(
        &[
            "analyse",
            "--game",
            "--json",
            "--depth",
            "2",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}\n{out}");
    let games = json_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(!g.has("error"), "{g:?}");
        let tags = g.field("tags");
        assert!(tags.field("Event").str().contains("doushou"));
        // The standard tags beside the game's own, read without complaint.
        assert_eq!(tags.field("White").str(), tags.field("Red").str());
        assert_eq!(tags.field("SetUp").str(), "1");
        assert!(!g.field("moves").arr().is_empty());
    }
    // Game 1 has a as Red (White), game 2 b, both read back as such.
    let white: Vec<&str> = games
        .iter()
        .map(|g| g.field("tags").field("White").str())
        .collect();
    assert_eq!(white, ["a", "b"]);
}

// ---- endgame tables ------------------------------------------------------

/// Positions of two pieces (in the tables) and three (outside them).
const TWO_PIECES: [&str; 5] = [
    "7/7/7/3w3/7/7/7/3W3/7 w 0 1",
    "7/7/7/3w3/7/7/7/3W3/7 b 0 1",
    "7/7/7/3e3/7/7/7/3R3/7 w 0 1",
    "7/7/7/1r5/7/7/7/3L3/7 w 0 1",
    "7/7/7/7/1R5/7/7/7/1r5 w 0 1",
];
const THREE_PIECES: &str = "7/7/7/3e3/7/7/7/3R3/2C4 w 0 1";

/// `doushou tb probe`'s answer for each position.
fn probe(dir: &str, fens: &[&str]) -> Vec<String> {
    let mut args = vec!["tb", "probe", "--path", dir];
    args.extend_from_slice(fens);
    let (code, out, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    out.lines().map(String::from).collect()
}

/// `doushou analyse --tablebases <the 2-piece tables> --depth 2 --jobs 1`
/// with `extra` arguments on `input`.
fn analyse_with_tables(extra: &[&str], input: &str) -> (i32, String, String) {
    let dir = two_piece_tables().to_str().unwrap();
    let mut args = vec![
        "analyse",
        "--tablebases",
        dir,
        "--depth",
        "2",
        "--jobs",
        "1",
    ];
    args.extend_from_slice(extra);
    run(&args, input)
}

/// A JSON `tablebase` mark as `tb probe` prints the verdict: `win 17`, `draw`.
fn mark_text(tb: &Json) -> String {
    let verdict = tb.field("verdict").str();
    match tb.field("plies").as_u64() {
        Some(n) => format!("{verdict} {n}"),
        None => {
            assert!(tb.field("plies").is_null(), "{tb}");
            verdict.to_string()
        }
    }
}

#[test]
fn positions_in_the_tables_are_marked_as_tb_probe_answers() {
    let dir = two_piece_tables().to_str().unwrap();
    let probed = probe(dir, &TWO_PIECES);
    assert!(probed.iter().any(|p| p.starts_with("win ")), "{probed:?}");
    assert!(probed.iter().any(|p| p.starts_with("loss ")), "{probed:?}");
    assert_eq!(probe(dir, &[THREE_PIECES, START]), ["none", "none"]);
    let mut input = TWO_PIECES.join("\n");
    input.push_str(&format!("\n{THREE_PIECES}\nstartpos\n"));
    let (code, text, err) = analyse_with_tables(&[], &input);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), TWO_PIECES.len() + 2, "{text}");
    for (line, verdict) in lines.iter().zip(&probed) {
        assert!(
            line.contains(&format!(" tb {verdict} pv ")),
            "{line} / {verdict}"
        );
    }
    for line in &lines[TWO_PIECES.len()..] {
        assert!(!line.contains(" tb "), "{line}");
    }

    let (code, out, err) = analyse_with_tables(&["--json"], &input);
    assert_eq!(code, 0, "{err}");
    let records = json_lines(&out);
    for (record, verdict) in records.iter().zip(&probed) {
        assert_eq!(&mark_text(record.field("tablebase")), verdict, "{record}");
    }
    for record in &records[TWO_PIECES.len()..] {
        assert!(record.field("tablebase").is_null(), "{record}");
    }
}

#[test]
fn each_move_of_a_game_in_the_tables_is_marked_before_it_is_played() {
    let dir = two_piece_tables().to_str().unwrap();
    let game = format!("{} moves d2c2 d6d5 c2c1", TWO_PIECES[0]);
    let (code, out, err) = analyse_with_tables(&["--game", "--json"], &game);
    assert_eq!(code, 0, "{err}");
    let record = &json_lines(&out)[0];
    let moves = record.field("moves").arr();
    let mut fens: Vec<String> = moves
        .iter()
        .map(|m| m.field("fen").str().to_string())
        .collect();
    // The last position: `analyse` of the game's line answers its FEN.
    let (_, last, _) = run(&["analyse", "--json", "--depth", "1"], &game);
    fens.push(json_lines(&last)[0].field("fen").str().to_string());
    let fen_refs: Vec<&str> = fens.iter().map(String::as_str).collect();
    let probed = probe(dir, &fen_refs);
    let marks = moves
        .iter()
        .map(|m| m.field("tablebase"))
        .chain([record.field("final_tablebase")]);
    for (tb, verdict) in marks.zip(&probed) {
        assert_eq!(&mark_text(tb), verdict);
    }
    assert_eq!(probed.len(), 4);

    let (code, text, err) = analyse_with_tables(&["--game"], &game);
    assert_eq!(code, 0, "{err}");
    let marked = text.lines().filter(|l| l.contains(" tb ")).count();
    assert_eq!(marked, 4, "{text}");
}

#[test]
fn tables_made_under_other_rules_are_refused_before_any_search() {
    let dir = two_piece_tables().to_str().unwrap();
    let (code, out, err) = analyse_with_tables(&["--variant", "xoudouqi"], "startpos\n");
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("made under other rules"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let missing = format!("{dir}-none");
    let (code, out, err) = run(
        &["analyse", "--tablebases", &missing, "--depth", "1"],
        "startpos\n",
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
}

#[test]
fn a_table_win_or_loss_is_a_mate_score() {
    let dir = two_piece_tables().to_str().unwrap();
    let probed = probe(dir, &TWO_PIECES);
    let input = TWO_PIECES.join("\n");
    for extra in [&[][..], &["--multipv", "2"]] {
        let (code, text, err) = analyse_with_tables(extra, &input);
        assert_eq!(code, 0, "{err}");
        for (line, verdict) in text.lines().zip(&probed) {
            // Plies to moves as protocol.md counts them: the winner's moves.
            let mate = match verdict.split_once(' ') {
                Some(("win", n)) => (n.parse::<i32>().unwrap() + 1) / 2,
                Some(("loss", n)) => -(n.parse::<i32>().unwrap() / 2),
                _ => continue,
            };
            assert!(
                line.contains(&format!("score mate {mate} ")),
                "{extra:?}: {line} / {verdict}"
            );
            assert!(!line.contains("score cp"), "{extra:?}: {line}");
        }
    }
}

#[test]
fn a_table_draw_is_shown_as_a_draw() {
    // Two rats that cannot catch each other: the tables' draw, not the
    // search's contempt for it (it was `score cp -30 ... tb draw`).
    let drawn = "7/1R1r3/7/7/7/7/7/7/7 w 0 1";
    let (code, text, err) = analyse_with_tables(&[], drawn);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("score cp 0 wdl 0 1000 0 ") && text.contains(" tb draw "),
        "{text}"
    );
}

#[test]
fn each_answer_comes_as_soon_as_its_line_is_read() {
    use std::io::BufRead;
    let mut child = Command::new(BIN)
        .args(["analyse", "--depth", "2", "--jobs", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env_remove("RUST_LOG")
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, answers) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // The pipe stays open: each answer must come before the next line is written.
    for (n, position) in ["startpos", "startpos moves g3g4", "bad"]
        .iter()
        .enumerate()
    {
        writeln!(stdin, "{position}").unwrap();
        stdin.flush().unwrap();
        let answer = answers
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no answer to line {} while the input is open", n + 1));
        assert!(answer.starts_with(&format!("line {}: ", n + 1)), "{answer}");
    }
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(1), "the bad line");
    assert!(answers.recv().is_err(), "nothing after the answers");
}

#[test]
fn a_table_directory_is_checked_alike_by_every_tool() {
    let empty = std::env::temp_dir().join(format!("doushou-analyse-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let empty = empty.to_str().unwrap();
    let tables = two_piece_tables().to_str().unwrap();
    let fen = TWO_PIECES[0];
    for (args, code, said) in [
        // A directory with no table: mistyped or not made; as a file that cannot be opened.
        (
            vec!["analyse", "--tablebases", empty, "--depth", "1"],
            2,
            "no table files",
        ),
        (
            vec!["tb", "probe", "--path", empty, fen],
            2,
            "no table files",
        ),
        (
            vec!["gui", "--tablebases", empty, "--port", "0"],
            2,
            "no table files",
        ),
        // Tables there but made under other rules: bad input.
        (
            vec!["analyse", "--tablebases", tables, "--variant", "xoudouqi"],
            1,
            "made under other rules",
        ),
        (
            vec![
                "tb",
                "probe",
                "--path",
                tables,
                "--variant",
                "xoudouqi",
                fen,
            ],
            1,
            "made under other rules",
        ),
        (
            vec![
                "gui",
                "--tablebases",
                tables,
                "--variant",
                "xoudouqi",
                "--port",
                "0",
            ],
            1,
            "made under other rules",
        ),
    ] {
        let (got, out, err) = run(&args, "startpos\n");
        assert_eq!((got, out.as_str()), (code, ""), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: tablebases: "), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    // The engine refuses such a directory too, and keeps no tables.
    let (code, out, _) = run(
        &[],
        &format!("setoption name TablebasePath value {empty}\nquit\n"),
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("info string error:") && out.contains("no table files"),
        "{out}"
    );
}
