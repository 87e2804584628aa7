//! How the binary's tools end, driven through real pipes and files: a closed
//! output pipe ends a tool quietly (exit 141, as SIGPIPE would), a failed
//! write says so in one line and exits 1, bad input exits 1 and a bad command
//! line 2, with the same convention in every tool.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_doushou");

/// Each tool that writes to standard output, with arguments that make it
/// write quickly, and its standard input.
fn writers() -> Vec<(Vec<&'static str>, &'static str)> {
    vec![
        (vec!["perft", "3", "--divide"], ""),
        (vec!["bench", "--depth", "1"], ""),
        (vec!["show"], ""),
        (vec!["show", "--svg", "-"], ""),
        // A file named on the command line that is the output pipe.
        (
            vec![
                "selfplay",
                "--games",
                "1",
                "--depth",
                "1",
                "--jobs",
                "1",
                "--out",
                "/dev/stdout",
            ],
            "",
        ),
        (
            vec!["analyse", "--depth", "1"],
            "startpos\nstartpos moves g3g4\n",
        ),
        (
            vec![
                "match",
                "--engine",
                "name=a",
                concat!("cmd=", env!("CARGO_BIN_EXE_doushou")),
                "--engine",
                "name=b",
                concat!("cmd=", env!("CARGO_BIN_EXE_doushou")),
                "--depth",
                "1",
                "--games",
                "2",
            ],
            "",
        ),
        (
            vec!["ratings", "/dev/stdin"],
            "[White \"a\"]\n[Black \"b\"]\n\n1-0\n\n[White \"b\"]\n[Black \"a\"]\n\n1/2-1/2\n",
        ),
    ]
}

/// Runs `doushou <args>` with `input` on stdin and `stdout` as its output.
fn run_into(args: &[&str], input: &str, stdout: Stdio) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("RUST_LOG")
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {BIN}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    // The tool may stop before reading it all: a failed write here is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn run(args: &[&str], input: &str) -> Output {
    run_into(args, input, Stdio::piped())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_closed_pipe_ends_every_tool_quietly() {
    for (args, input) in writers() {
        let (reader, writer) = std::io::pipe().unwrap();
        // The reader is gone before the tool writes a byte: `| head -c0`.
        drop(reader);
        let o = run_into(&args, input, Stdio::from(writer));
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
        assert_eq!(o.status.code(), Some(141), "{args:?}: {err}");
    }
}

#[test]
fn a_full_disk_is_one_line_and_exit_1_for_every_tool() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("no /dev/full here: nothing to test");
        return;
    }
    for (args, input) in writers() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = run_into(&args, input, Stdio::from(full));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {err}");
        assert!(errors[0].contains("No space left"), "{args:?}: {err}");
    }
    // A tool writing a file says which one.
    let o = run(
        &[
            "selfplay",
            "--games",
            "1",
            "--depth",
            "1",
            "--out",
            "/dev/full",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("/dev/full"), "{}", stderr(&o));
}

#[test]
fn bad_input_exits_1_and_a_bad_command_line_2_in_every_tool() {
    let bad_fen = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R w 0 1";
    for (args, input, code) in [
        (&["perft", "1", "--fen", bad_fen][..], "", 1),
        (&["show", bad_fen], "", 1),
        (&["show", "-"], "nonsense\n", 1),
        (&["analyse", "--depth", "1"], "nonsense\n", 1),
        (&["perft", "1", "--set", "Nope=1"], "", 2),
        (&["show", "--set", "Nope=1"], "", 2),
        (&["bench", "--variant", "chess"], "", 2),
        (&["analyse", "--set", "Nope=1"], "", 2),
        (
            &["selfplay", "--set", "Nope=1", "--out", "/dev/null"],
            "",
            2,
        ),
        (&["match", "--engine", "cmd=x", "--set", "Nope=1"], "", 2),
        (&["gui", "--set", "Nope=1"], "", 2),
        (&["perft"], "", 2),
        (
            &["ratings", "/dev/stdin"],
            "[White \"a\"]\n[Black \"b\"]\n\n*\n",
            1,
        ),
        (&["ratings", "--anchor", "a", "/dev/stdin"], "", 2),
    ] {
        let o = run(args, input);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // analyse answers a bad line with an error line in its output.
        let out = String::from_utf8_lossy(&o.stdout);
        let said = format!("{err}{}", if args[0] == "analyse" { &out } else { "" });
        assert!(said.contains("error"), "{args:?}: no message");
    }
}

#[test]
fn messages_say_what_was_expected_and_count_in_words() {
    let o = run(&["perft", "1", "--set", "DogOverWolf"], "");
    let err = stderr(&o);
    assert!(err.contains("expected Name=Value"), "{err}");
    assert!(!err.contains("''"), "{err}");
    let o = run(&["show", "l5t w 0 1"], "");
    let err = stderr(&o);
    assert!(err.contains("has 1 rank,"), "{err}");
    let o = run(&["show"], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("0 plies since a capture"), "{out}");
}

#[test]
fn a_busy_port_is_named_with_the_way_out() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let o = run(&["gui", "--host", "127.0.0.1", "--port", &port], "");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
    assert!(err.contains("--port 0"), "{err}");
}

#[test]
fn the_help_says_how_to_talk_to_the_engine_and_help_answers() {
    let o = run(&["--help"], "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("type uci, help or quit"), "{out}");
    assert!(out.contains("Exit codes"), "{out}");
    // On a pipe (not a terminal) nothing but the protocol is said.
    let o = run(&[], "help\nquit\n");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.lines().count() > 3, "{out}");
    assert!(out.lines().all(|l| l.starts_with("info string ")), "{out}");
    assert!(out.contains("quit"), "{out}");
}

#[test]
fn a_match_stops_before_its_first_game_on_an_option_the_engine_refuses() {
    let doushou = concat!("cmd=", env!("CARGO_BIN_EXE_doushou"));
    for (option, named) in [
        ("option.EvalFile=/nonexistent.nnue", "EvalFile"),
        ("option.NoSuchOption=1", "NoSuchOption"),
        ("option.Hash=0", "Hash"),
    ] {
        let o = run(
            &[
                "match", "--engine", "name=a", doushou, option, "--engine", "name=b", doushou,
                "--depth", "1", "--games", "2",
            ],
            "",
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{option}: {err}");
        assert!(o.stdout.is_empty(), "{option}: a table was printed: {err}");
        assert!(
            !err.contains("game 1"),
            "{option}: a game was played: {err}"
        );
        assert!(
            err.contains(named) && err.contains("'a'"),
            "{option}: {err}"
        );
    }
}

#[test]
fn analyse_says_to_use_game_for_records_and_stops_repeating_itself() {
    let pgn = "[Event \"x\"]\n[Red \"a\"]\n[Blue \"b\"]\n\n1. g3g4 a7a6 2. g4g5 *\n".repeat(30);
    for (input, hint) in [
        (pgn.as_str(), "--game"),
        ("{\"fen\": \"startpos\"}\n{\"fen\": \"startpos\"}\n", "JSON"),
    ] {
        let o = run(&["analyse", "--depth", "1"], input);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert_eq!(out.lines().count(), 2, "{out}");
        assert!(out.lines().all(|l| l.contains("error")), "{out}");
        assert!(out.contains(hint), "{out}");
    }
    // Twenty identical faults: five, then why it stopped; the valid line
    // before them is answered.
    let input = format!("startpos\n{}", "not a position\n".repeat(20));
    let o = run(&["analyse", "--depth", "1"], &input);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert!(!lines[0].contains("error"), "{out}");
    assert!(lines[6].contains("stopped reading"), "{out}");
}

#[test]
fn every_tool_refuses_the_same_numbers_out_of_range_with_exit_2() {
    let out = "/dev/null";
    let engines = [
        "--engine",
        "name=a",
        "cmd=/nonexistent",
        "--engine",
        "name=b",
        "cmd=/nonexistent",
    ];
    let mut refused: Vec<Vec<&str>> = Vec::new();
    for threads in ["0", "257"] {
        refused.extend([
            vec!["perft", "1", "--threads", threads],
            vec!["bench", "--threads", threads],
            vec!["analyse", "--jobs", threads],
            vec!["selfplay", "--jobs", threads, "--out", out],
            vec![
                "tb",
                "generate",
                "--max-pieces",
                "2",
                "--out",
                out,
                "--threads",
                threads,
            ],
            vec!["tune", "--data", out, "--threads", threads],
            vec!["train", "--data", out, "--out", out, "--threads", threads],
            [&engines[..], &["--depth", "1", "--concurrency", threads]].concat(),
        ]);
    }
    for depth in ["0", "101", "300"] {
        refused.extend([
            vec!["bench", "--depth", depth],
            vec!["analyse", "--depth", depth],
            vec!["selfplay", "--depth", depth, "--out", out],
            [&engines[..], &["--depth", depth]].concat(),
        ]);
    }
    for hash in ["0", "65537"] {
        refused.extend([
            vec!["bench", "--hash", hash],
            vec!["analyse", "--hash", hash],
            vec!["selfplay", "--hash", hash, "--out", out],
        ]);
    }
    refused.extend([
        vec!["analyse", "--nodes", "0"],
        vec!["selfplay", "--nodes", "0", "--out", out],
        vec!["train", "--data", out, "--out", out, "--epochs", "0"],
        [&engines[..], &["--nodes", "0"]].concat(),
        vec!["analyse", "--movetime", "0"],
        [&engines[..], &["--movetime", "0"]].concat(),
        vec!["analyse", "--depth", "1", "--movetime", "-5"],
        // A flag that does nothing in the mode given is an error too.
        vec!["analyse", "--blunder", "50"],
        vec!["bench", "--eval", "linear", "--eval-file", out],
        vec!["show", "--svg", "-", "--color", "never"],
        [&engines[..], &["--depth", "1", "--seed", "5"]].concat(),
    ]);
    for mut args in refused {
        if args[0] == "--engine" {
            args.insert(0, "match");
        }
        let o = run(&args, "startpos\n");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn the_nets_rules_warning_is_one_short_line_said_once() {
    // A switch the shipped net has no input for (it has Repetition=draw).
    let o = run(
        &["bench", "--depth", "1", "--set", "RatWaterElephant=true"],
        "",
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("no input for")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("RatWaterElephant=true"), "{err}");
    // What the net lacks, not the net's whole training summary.
    assert!(
        warnings[0].len() < 160,
        "{} characters: {err}",
        warnings[0].len()
    );
}

/// Every subcommand `doushou --help` lists, with those of the tools that
/// have their own (`tb generate`, `races build`, ...), `help` aside.
fn subcommands(prefix: &[&str]) -> Vec<Vec<String>> {
    let help = run(&[prefix, &["--help"]].concat(), "");
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    let Some((_, listed)) = text.split_once("Commands:\n") else {
        return vec![prefix.iter().map(|w| w.to_string()).collect()];
    };
    let names: Vec<&str> = listed
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .collect();
    assert!(!names.is_empty(), "no commands in {text}");
    names
        .into_iter()
        .flat_map(|name| subcommands(&[prefix, &[name]].concat()))
        .collect()
}

/// A command line walked for its faults: the words, and what must end it.
struct Fault {
    args: Vec<String>,
    /// Standard input.
    input: &'static str,
    /// Whether standard output is a full disk (`/dev/full`).
    full_output: bool,
    /// The exit code README's paragraph gives this fault.
    code: i32,
    /// What the one line on stderr must name.
    names: String,
}

#[test]
fn every_tool_ends_a_missing_file_a_bad_one_or_an_unwritable_output_as_readme_says() {
    let dir = std::env::temp_dir().join(format!("doushou-cli-faults-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| dir.join(name).to_string_lossy().into_owned();
    // Positions `tune` and `train` read (these never get that far).
    let data = at("data.txt");
    let start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 ; 0.5 ; 0\n";
    std::fs::write(&data, start.repeat(30)).unwrap();
    let games = at("games.txt");
    std::fs::write(&games, "startpos moves g3g4 a7a6\n").unwrap();
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/bench-positions/den-races.txt");
    let tables = at("tables");
    let made = run(
        &["tb", "generate", "--max-pieces", "2", "--out", &tables],
        "",
    );
    assert!(made.status.success(), "{}", stderr(&made));
    // A path under a file can be neither read nor created, even by root.
    let missing = format!("{data}/x");
    let folder = dir.to_string_lossy().into_owned();
    let engine = format!("cmd={BIN}");
    let engines = [
        "match", "--engine", "name=a", &engine, "--engine", "name=b", &engine,
    ];
    let mut faults = Vec::new();
    let mut named = |code: i32, args: &[&str], names: &str| {
        faults.push(Fault {
            args: args.iter().map(|w| w.to_string()).collect(),
            input: "",
            full_output: false,
            code,
            names: names.to_string(),
        })
    };
    let binary = at("binary.dat");
    std::fs::write(&binary, b"\xff\xfe\x00 not text\n").unwrap();
    let (weights, net, suite_out) = (at("w.rs"), at("n.nnue"), at("suite.txt"));
    // A file named that cannot be opened: exit 2; one that opens but holds
    // what the tool cannot use: bad input, exit 1.
    for (code, f) in [(2, missing.as_str()), (1, binary.as_str())] {
        named(code, &["bench", "--depth", "1", "--eval-file", f], f);
        named(code, &["tune", "--data", f, "--out", &weights], f);
        let start = ["tune", "--data", &data, "--start", f, "--out", &weights];
        named(code, &start, f);
        named(code, &["train", "--data", f, "--out", &net], f);
        named(
            code,
            &["train", "--data", &data, "--out", &net, "--resume", f],
            f,
        );
        named(
            code,
            &[&engines[..], &["--depth", "1", "--openings", f]].concat(),
            f,
        );
        named(code, &["match", "--resume", f], f);
        named(code, &["races", "build", f, "--out", &suite_out], f);
        named(code, &["races", "score", f, "--depth", "1"], f);
        named(code, &["ratings", f], f);
        named(code, &["match", "--merge", f], f);
    }
    let m = missing.as_str();
    named(2, &["analyse", "--depth", "1", m], m);
    named(2, &["analyse", "--depth", "1", "--tablebases", m], m);
    let sp = at("sp.txt");
    named(
        2,
        &["selfplay", "--games", "1", "--out", &sp, "--eval-file", m],
        m,
    );
    named(2, &["gui", "--port", "0", "--tablebases", m], m);
    named(
        2,
        &["tb", "probe", "--path", m, "7/7/7/7/7/7/7/7/L5r w 0 1"],
        m,
    );
    named(2, &["tb", "convert", m], m);
    named(2, &["tb", "info", m], m);
    named(
        2,
        &["selfplay", "--games", "1", "--openings", m, "--out", &sp],
        m,
    );
    let openings = at("openings.txt");
    std::fs::write(&openings, "startpos moves g3g4 g4g9\n").unwrap();
    let bad_line = [&engines[..], &["--depth", "1", "--openings", &openings]].concat();
    named(1, &bad_line, &openings);
    // An output that cannot be created: under a file, or a folder: exit 2.
    for out in [missing.as_str(), folder.as_str()] {
        named(2, &["show", "--svg", out], out);
        named(2, &["selfplay", "--games", "1", "--out", out], out);
        named(2, &["tune", "--data", &data, "--out", out], out);
        named(2, &["train", "--data", &data, "--out", out], out);
        named(
            2,
            &["train", "--data", &data, "--out", &net, "--checkpoint", out],
            out,
        );
        named(
            2,
            &[&engines[..], &["--depth", "1", "--pgn", out]].concat(),
            out,
        );
        named(
            2,
            &[&engines[..], &["--depth", "1", "--json", out]].concat(),
            out,
        );
        named(2, &["races", "build", &games, "--out", out], out);
    }
    named(2, &["tb", "generate", "--max-pieces", "2", "--out", m], m);
    named(
        2,
        &["tb", "generate", "--max-pieces", "2", "--out", &data],
        &data,
    );
    // A file named that opens but cannot be written: exit 1, as for stdout.
    if std::path::Path::new("/dev/full").exists() {
        named(1, &["show", "--svg", "/dev/full"], "/dev/full");
    }
    // A standard output that cannot be written: exit 1.
    let mut full = |args: &[&str], input: &'static str| {
        faults.push(Fault {
            args: args.iter().map(|w| w.to_string()).collect(),
            input,
            full_output: true,
            code: 1,
            names: "No space left".to_string(),
        })
    };
    full(&["perft", "2"], "");
    full(&["bench", "--depth", "1"], "");
    full(&["analyse", "--depth", "1"], "startpos\n");
    full(
        &[
            "tb",
            "probe",
            "--path",
            &tables,
            "7/7/7/7/7/7/7/7/L5r w 0 1",
        ],
        "",
    );
    full(
        &["races", "score", suite, "--nodes", "1", "--jobs", "1"],
        "",
    );
    full(&["gui", "--port", "0"], "");
    full(&["tb", "info", &tables], "");

    for fault in &faults {
        let args: Vec<&str> = fault.args.iter().map(String::as_str).collect();
        let o = if fault.full_output {
            let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
            run_into(&args, fault.input, Stdio::from(full.unwrap()))
        } else {
            run(&args, fault.input)
        };
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(fault.code), "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert!(
            lines.len() == 1 && lines[0].starts_with("error: ") && lines[0].contains(&fault.names),
            "{args:?}: expected one error line naming {}, got {err}",
            fault.names
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // No tool left out: each subcommand has a fault of its own above.
    for command in subcommands(&[]) {
        let walked = faults.iter().any(|f| f.args.starts_with(&command));
        assert!(walked, "doushou {} is not walked", command.join(" "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_number_out_of_range_is_refused_with_its_range_in_words() {
    let engines = ["match", "--engine", "cmd=a", "--engine", "cmd=b"];
    let limited = |more: &[&'static str]| [&engines[..], &["--depth", "1"], more].concat();
    let mut cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["selfplay", "--games", "0", "--out", "x"], "at least 1"),
        (vec!["selfplay", "--nodes", "0", "--out", "x"], "at least 1"),
        (
            vec!["selfplay", "--max-plies", "0", "--out", "x"],
            "at least 1",
        ),
        (vec!["analyse", "--nodes", "0"], "at least 1"),
        (vec!["analyse", "--movetime", "0"], "at least 1"),
        (vec!["analyse", "--multipv", "33"], "1 to 32"),
        (vec!["perft", "1", "--threads", "0"], "1 to 256"),
        (vec!["bench", "--depth", "101"], "1 to 100"),
        (vec!["bench", "--hash", "0"], "1 to 65536"),
        (vec!["tune", "--data", "x", "--epochs", "0"], "at least 1"),
        (vec!["gui", "--port", "70000"], "0 to 65535"),
        (
            vec!["tb", "generate", "--max-pieces", "5", "--out", "x"],
            "2 to 4",
        ),
        (
            vec!["tb", "probe", "--path", "x", "--history", "0", "-"],
            "at least 1",
        ),
        (
            vec![
                "tb",
                "probe",
                "--path",
                "x",
                "--history",
                "9",
                "--proof-memory",
                "0",
                "-",
            ],
            "1 to 16777216",
        ),
        (
            vec!["races", "build", "x", "--out", "y", "--max-walk", "0"],
            "at least 1",
        ),
        (
            vec!["races", "build", "x", "--out", "y", "--won-cp", "0"],
            "at least 1",
        ),
        (vec!["races", "score", "x", "--movetime", "0"], "at least 1"),
        (
            vec!["train", "--data", "x", "--out", "y", "--batch", "0"],
            "at least 1",
        ),
        (
            vec!["train", "--data", "x", "--out", "y", "--hidden", "0"],
            "1 to 1024",
        ),
        (
            vec!["train", "--data", "x", "--out", "y", "--lambda", "2"],
            "0 to 1",
        ),
        (
            vec!["train", "--data", "x", "--out", "y", "--validation", "1"],
            "below 1",
        ),
        (limited(&["--games", "0"]), "1 to 1000000"),
        (limited(&["--max-plies", "0"]), "at least 1"),
        (limited(&["--start-timeout", "0"]), "at least 1"),
        (limited(&["--hang-timeout", "0"]), "at least 1"),
    ];
    cases.push(([&engines[..], &["--nodes", "0"]].concat(), "at least 1"));
    cases.push(([&engines[..], &["--movetime", "0"]].concat(), "at least 1"));
    cases.push(([&engines[..], &["nodes=0"]].concat(), "at least 1"));
    for (args, words) in cases {
        let o = run(&args, "");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.contains(words),
            "{args:?}: '{first}' does not say '{words}'"
        );
        assert!(
            !first.contains("..") && !first.contains(&u64::MAX.to_string()),
            "{args:?}: '{first}' says its range as code"
        );
    }
}

#[test]
fn a_tools_warning_is_one_line_in_the_tools_own_words() {
    let dir = std::env::temp_dir().join(format!("doushou-cli-warn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 ; 0.5 ; 0\n";
    std::fs::write(&data, start.repeat(30)).unwrap();
    let out = dir.join("w.rs");
    let rule = ["--set", "RatWaterElephant=true"];
    let sp = dir.join("sp.txt").to_string_lossy().into_owned();
    for (args, input) in [
        (
            vec![
                "tune",
                "--data",
                data.to_str().unwrap(),
                "--epochs",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
            "",
        ),
        ([&["bench", "--depth", "1"][..], &rule].concat(), ""),
        (
            [&["analyse", "--depth", "1"][..], &rule].concat(),
            "startpos\n",
        ),
        (
            [
                &["selfplay", "--games", "1", "--depth", "1", "--out", &sp][..],
                &rule,
            ]
            .concat(),
            "",
        ),
    ] {
        let o = run(&args, input);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
        let own = format!("{}: warning: ", args[0]);
        assert!(
            warnings.len() == 1 && warnings[0].starts_with(&own),
            "{args:?}: expected one '{own}...' line, got {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
