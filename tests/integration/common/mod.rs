//! Helpers of the tests: the real `doushou` binary driven through its pipes, a
//! parser of its output lines written from `protocol.md` alone (not the engine's
//! own `Reply`), so that a line the engine prints wrongly cannot be read back
//! "right" by the same code, and the reference perft suite the rules tests share.
//!
//! Every wait has a timeout: stdout is read on its own thread into a channel, so
//! a hung engine fails the test instead of hanging it. The child is killed when
//! the helper is dropped (a failed test leaves no process behind).
//!
//! Also the rule switches' values and random moves, for the tests that play
//! random games under each switch.

#![allow(dead_code)] // not every test binary uses every helper

pub mod gui;

use doushou::rules::{Game, Move, RULE_OPTIONS, Rules};
use doushou::util::options::OptionKind;
use doushou::util::rng::SplitMix64;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A fresh, empty directory for this test process's files called `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doushou-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every 2-piece table under the default rules, made once per test binary
/// by `doushou tb generate` (a fraction of a second) into a temporary directory.
pub fn two_piece_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("doushou-tb2-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let status = Command::new(BIN)
            .args([
                "tb",
                "generate",
                "--max-pieces",
                "2",
                "--threads",
                "1",
                "--out",
            ])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("running {BIN}: {e}"));
        assert!(status.success(), "tb generate failed");
        dir
    })
}

/// How long any single answer may take. Generous: CI is a loaded 2-core machine
/// and the tests run in parallel. Nothing here measures latency.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The engine binary built by Cargo for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_doushou");

/// The reference perft suite: positions with leaf counts computed apart from
/// this engine, one `FEN ; switches ; D1 n ; D2 n ; D3 n` a line, `#` comments.
pub const PERFT_SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-suite.txt");

/// The text of the perft suite. The file belongs to the repository, so a missing
/// or unreadable one is a broken checkout: say which path, not just "not found".
pub fn read_perft_suite() -> String {
    std::fs::read_to_string(PERFT_SUITE)
        .unwrap_or_else(|e| panic!("cannot read the perft suite {PERFT_SUITE}: {e}"))
}

/// The positions of the perft suite (the FEN field of each line), in file order.
pub fn perft_suite_fens() -> Vec<String> {
    read_perft_suite()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split(';').next().unwrap_or(line).trim().to_string())
        .collect()
}

/// A running engine with piped stdin, stdout and stderr.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
    /// What was sent (`> `) and read (`< `), for failure messages.
    transcript: Vec<String>,
    /// Whether each stdout line must be a protocol line (see
    /// [`check_protocol_line`]). Turned off around `d`, `eval`, `moves`,
    /// `go perft` and `bench`, whose answers are for people.
    pub strict: bool,
    eof: bool,
    status: Option<ExitStatus>,
}

impl EngineProcess {
    /// Starts the engine with no arguments (protocol mode).
    pub fn spawn() -> EngineProcess {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = if buf.last() == Some(&b'\n') {
                    &buf[..buf.len() - 1]
                } else {
                    // A last line without its newline: keep it, marked.
                    &buf[..]
                };
                let text = match String::from_utf8(line.to_vec()) {
                    Ok(t) if buf.last() == Some(&b'\n') => t,
                    Ok(t) => format!("<line without newline at end of output: {t:?}>"),
                    Err(e) => format!("<stdout line not UTF-8: {:?}>", e.as_bytes()),
                };
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_thread = std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                match stderr_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => sink.lock().unwrap().extend_from_slice(&chunk[..n]),
                }
            }
        });
        EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            stderr_thread: Some(stderr_thread),
            transcript: Vec::new(),
            strict: true,
            eof: false,
            status: None,
        }
    }

    /// Starts the engine and checks its answer to `uci`.
    pub fn start() -> EngineProcess {
        let mut e = EngineProcess::spawn();
        e.send("uci");
        e.read_until(|l| l == "uciok");
        e
    }

    /// The process id, to read its state in `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a `\n` is added).
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes);
    }

    /// Sends raw bytes, newlines included by the caller.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        let more = if bytes.len() > 200 {
            format!(" ... ({} bytes)", bytes.len())
        } else {
            String::new()
        };
        self.transcript
            .push(format!("> {}{more}", shown.trim_end()));
        let stdin = self
            .stdin
            .as_mut()
            .unwrap_or_else(|| panic!("stdin already closed"));
        if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
            let t = self.transcript();
            panic!("writing to the engine failed ({e}); it probably died\n{t}");
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// The last lines of the exchange and stderr, for failure messages.
    pub fn transcript(&self) -> String {
        let from = self.transcript.len().saturating_sub(60);
        let stderr = self.stderr_text();
        format!(
            "--- last lines exchanged (> sent, < read) ---\n{}\n--- stderr ---\n{}",
            self.transcript[from..].join("\n"),
            &stderr[..stderr.len().min(4000)]
        )
    }

    /// Everything the engine wrote on stderr so far.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Fails the test with `msg` and the transcript.
    #[track_caller]
    pub fn fail(&self, msg: &str) -> ! {
        panic!("{msg}\n{}", self.transcript())
    }

    /// The next stdout line within `timeout`; `None` at end of output. Fails
    /// on timeout, and, when strict, on a line that is not protocol.
    #[track_caller]
    pub fn next_line_within(&mut self, timeout: Duration) -> Option<String> {
        match self.receive(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                self.fail(&format!("no answer from the engine within {timeout:?}"))
            }
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// A line within `wait`: `Ok(None)` at end of output, `Err(Timeout)` if none
    /// came. Every line read is logged and, when strict, checked.
    #[track_caller]
    fn receive(&mut self, wait: Duration) -> Result<Option<String>, RecvTimeoutError> {
        if self.eof {
            return Ok(None);
        }
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                if self.strict
                    && let Err(e) = check_protocol_line(&line)
                {
                    self.fail(&format!("not a protocol line: {e}: {line:?}"));
                }
                Ok(Some(line))
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Ok(None)
            }
            Err(RecvTimeoutError::Timeout) => Err(RecvTimeoutError::Timeout),
        }
    }

    /// The next line; fails on timeout or end of output.
    #[track_caller]
    pub fn next_line(&mut self) -> String {
        match self.next_line_within(TIMEOUT) {
            Some(l) => l,
            None => self.fail("the engine's output ended"),
        }
    }

    /// A line if one arrives within `wait`, else `None` (no failure).
    #[track_caller]
    pub fn poll_line(&mut self, wait: Duration) -> Option<String> {
        self.receive(wait).unwrap_or(None)
    }

    /// Lines up to and including the first for which `done` holds.
    #[track_caller]
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.next_line_within(left.max(Duration::from_millis(1))) {
                Some(l) => l,
                None => self.fail("the engine's output ended while waiting"),
            };
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    /// Sends `isready` and answers the lines printed before `readyok`.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `cmd` and expects no output at all before the next `readyok`.
    #[track_caller]
    pub fn quiet(&mut self, cmd: &str) {
        self.send(cmd);
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("{cmd:?} should print nothing, printed {lines:?}"));
        }
    }

    /// Sends a `go` command and answers its lines up to and including `bestmove`.
    #[track_caller]
    pub fn go(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.read_until(|l| l.starts_with("bestmove"))
    }

    /// Closes stdin and waits for the process to exit; answers the rest of its
    /// output. Fails unless it exits with code 0 within the timeout and its
    /// stderr has no panic.
    #[track_caller]
    pub fn finish(mut self) -> Vec<String> {
        self.close_stdin();
        let status = self.wait_exit(TIMEOUT);
        let rest = self.rest_of_output();
        if status.code() != Some(0) {
            self.fail(&format!("the engine exited with {status}, expected code 0"));
        }
        self.check_stderr();
        rest
    }

    /// Waits for the process to exit (without closing stdin).
    #[track_caller]
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        if let Some(s) = self.status {
            return s;
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    if let Some(t) = self.stderr_thread.take() {
                        let _ = t.join();
                    }
                    return status;
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(e) => self.fail(&format!("waiting for the engine: {e}")),
            }
        }
    }

    /// Every line still to come, once the process has ended.
    #[track_caller]
    pub fn rest_of_output(&mut self) -> Vec<String> {
        let mut rest = Vec::new();
        while let Some(l) = self.next_line_within(TIMEOUT) {
            rest.push(l);
        }
        rest
    }

    /// Fails if stderr shows a panic.
    #[track_caller]
    pub fn check_stderr(&self) {
        if self.stderr_text().contains("panicked") {
            self.fail("the engine panicked");
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What a run of one of the binary's tools left.
#[derive(Debug)]
pub struct ToolRun {
    /// The exit code (`None` if killed by a signal).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl ToolRun {
    /// Fails unless the tool exited with code 0 and did not panic.
    #[track_caller]
    pub fn assert_ok(&self, what: &str) -> &ToolRun {
        assert!(
            self.code == Some(0) && !self.stderr.contains("panicked"),
            "{what}: exit {:?}\nstderr:\n{}",
            self.code,
            self.stderr
        );
        self
    }

    /// Fails unless the tool failed cleanly: a non-zero exit code and no panic.
    #[track_caller]
    pub fn assert_failed_cleanly(&self, what: &str) -> &ToolRun {
        assert!(
            matches!(self.code, Some(c) if c != 0) && !self.stderr.contains("panicked"),
            "{what}: expected a clean failure, got exit {:?}\nstderr:\n{}",
            self.code,
            self.stderr
        );
        self
    }
}

/// Runs `doushou <args>` (a tool, not the protocol loop) with no input and
/// waits for it.
pub fn run_tool(args: &[&str]) -> ToolRun {
    tool(args, None)
}

/// Runs `doushou <args>` with `input` on its standard input and waits for it.
pub fn run_tool_with_stdin(args: &[&str], input: &[u8]) -> ToolRun {
    tool(args, Some(input))
}

fn tool(args: &[&str], input: Option<&[u8]>) -> ToolRun {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .env("RUST_BACKTRACE", "0")
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    // Written from a thread so that a large input cannot deadlock against
    // the tool's output; a tool that stops reading early breaks the pipe,
    // which is its right.
    let writer = child.stdin.take().zip(input).map(|(mut stdin, input)| {
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        })
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    ToolRun {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

// ---------------------------------------------------------------------------
// Output lines, as protocol.md describes them
// ---------------------------------------------------------------------------

/// A score as printed after `score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `cp <n>`.
    Cp(i32),
    /// `mate <n>`.
    Mate(i32),
}

/// An `info` line, every field optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound` after the score.
    pub bound: Option<String>,
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u32>,
    pub pv: Option<Vec<String>>,
    /// The text after `string`.
    pub string: Option<String>,
}

impl Info {
    /// Whether this line reports a search result (has a score and a pv) that
    /// is exact (not an aspiration bound).
    pub fn is_exact_line(&self) -> bool {
        self.score.is_some() && self.pv.is_some() && self.bound.is_none()
    }
}

/// Whether `text` is a move in protocol notation (`g3g4`) or `0000`.
pub fn is_move_text(text: &str) -> bool {
    let b = text.as_bytes();
    text == "0000"
        || (b.len() == 4
            && (b'a'..=b'g').contains(&b[0])
            && (b'1'..=b'9').contains(&b[1])
            && (b'a'..=b'g').contains(&b[2])
            && (b'1'..=b'9').contains(&b[3]))
}

fn num<T: std::str::FromStr>(words: &[&str], i: usize, what: &str) -> Result<T, String> {
    let w = words
        .get(i)
        .ok_or_else(|| format!("{what} without a value"))?;
    w.parse()
        .map_err(|_| format!("{what} has a bad value {w:?}"))
}

/// Parses an `info` line strictly: known keys only, each at most once, numbers
/// where numbers belong, moves in move notation.
pub fn parse_info(line: &str) -> Result<Info, String> {
    let words: Vec<&str> = line.split(' ').collect();
    if words.first() != Some(&"info") || words.len() < 2 {
        return Err("not an info line".into());
    }
    if words.iter().skip(1).any(|w| w.is_empty()) && !line.starts_with("info string ") {
        return Err("doubled or trailing space".into());
    }
    let mut info = Info::default();
    let mut i = 1;
    fn once<T>(slot: &mut Option<T>, v: T, key: &str) -> Result<(), String> {
        if slot.is_some() {
            return Err(format!("{key} twice"));
        }
        *slot = Some(v);
        Ok(())
    }
    while i < words.len() {
        let key = words[i];
        match key {
            "depth" => once(&mut info.depth, num(&words, i + 1, key)?, key)?,
            "seldepth" => once(&mut info.seldepth, num(&words, i + 1, key)?, key)?,
            "multipv" => once(&mut info.multipv, num(&words, i + 1, key)?, key)?,
            "nodes" => once(&mut info.nodes, num(&words, i + 1, key)?, key)?,
            "nps" => once(&mut info.nps, num(&words, i + 1, key)?, key)?,
            "time" => once(&mut info.time, num(&words, i + 1, key)?, key)?,
            "hashfull" => {
                let h: u32 = num(&words, i + 1, key)?;
                if h > 1000 {
                    return Err(format!("hashfull {h} over 1000"));
                }
                once(&mut info.hashfull, h, key)?
            }
            "tbhits" => once(&mut info.tbhits, num(&words, i + 1, key)?, key)?,
            "currmovenumber" => once(&mut info.currmovenumber, num(&words, i + 1, key)?, key)?,
            "currmove" => {
                let m = words.get(i + 1).copied().unwrap_or("");
                if !is_move_text(m) {
                    return Err(format!("currmove {m:?} is not a move"));
                }
                once(&mut info.currmove, m.to_string(), key)?
            }
            "score" => {
                let v: i32 = num(&words, i + 2, "score")?;
                let s = match words.get(i + 1).copied() {
                    Some("cp") => Score::Cp(v),
                    Some("mate") => Score::Mate(v),
                    other => return Err(format!("score of kind {other:?}")),
                };
                once(&mut info.score, s, key)?;
                i += 1;
                if let Some(&b @ ("lowerbound" | "upperbound")) = words.get(i + 2) {
                    info.bound = Some(b.to_string());
                    i += 1;
                }
            }
            "wdl" => {
                let w = (
                    num(&words, i + 1, key)?,
                    num(&words, i + 2, key)?,
                    num(&words, i + 3, key)?,
                );
                if w.0 + w.1 + w.2 != 1000 {
                    return Err(format!("wdl {w:?} does not sum to 1000"));
                }
                once(&mut info.wdl, w, key)?;
                i += 2;
            }
            "pv" => {
                let moves: Vec<String> = words[i + 1..].iter().map(|m| m.to_string()).collect();
                if let Some(bad) = moves.iter().find(|m| !is_move_text(m) || *m == "0000") {
                    return Err(format!("pv holds {bad:?}, not a move"));
                }
                if moves.is_empty() {
                    return Err("empty pv".into());
                }
                info.pv = Some(moves);
                return Ok(info);
            }
            "string" => {
                let text = line.split_once(" string ").map(|(_, t)| t).unwrap_or("");
                if text.trim().is_empty() {
                    return Err("empty info string".into());
                }
                info.string = Some(text.to_string());
                return Ok(info);
            }
            other => return Err(format!("unknown info key {other:?}")),
        }
        i += 2;
    }
    Ok(info)
}

/// Parses `bestmove <m> [ponder <m>]` into the two moves' text.
pub fn parse_bestmove(line: &str) -> Result<(String, Option<String>), String> {
    match line.split(' ').collect::<Vec<_>>()[..] {
        ["bestmove", m] if is_move_text(m) => Ok((m.to_string(), None)),
        ["bestmove", m, "ponder", p] if is_move_text(m) && is_move_text(p) && p != "0000" => {
            Ok((m.to_string(), Some(p.to_string())))
        }
        _ => Err("not a bestmove line".into()),
    }
}

/// An `option` line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLine {
    pub name: String,
    pub kind: String,
    pub default: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub vars: Vec<String>,
}

/// Parses `option name <name> type <t> [default <v>] [min <a> max <b>] [var <v>]...`
/// and checks that it is consistent (a spin's default in its range, a combo's
/// default among its choices, a check's default `true` or `false`).
pub fn parse_option(line: &str) -> Result<OptionLine, String> {
    let rest = line
        .strip_prefix("option name ")
        .ok_or("not an option line")?;
    let (name, tail) = rest.split_once(" type ").ok_or("option without type")?;
    if name.trim().is_empty() || name != name.trim() {
        return Err(format!("bad option name {name:?}"));
    }
    let words: Vec<&str> = tail.split(' ').collect();
    let mut o = OptionLine {
        name: name.to_string(),
        kind: words[0].to_string(),
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut i = 1;
    while i < words.len() {
        let v = words.get(i + 1).ok_or("key without value")?;
        match words[i] {
            "default" => o.default = Some(v.to_string()),
            "min" => o.min = Some(v.parse().map_err(|_| "bad min")?),
            "max" => o.max = Some(v.parse().map_err(|_| "bad max")?),
            "var" => o.vars.push(v.to_string()),
            k => return Err(format!("unknown option key {k:?}")),
        }
        i += 2;
    }
    match o.kind.as_str() {
        "check" => {
            if !matches!(o.default.as_deref(), Some("true" | "false")) {
                return Err("check option without a true/false default".into());
            }
        }
        "spin" => {
            let (Some(d), Some(min), Some(max)) = (&o.default, o.min, o.max) else {
                return Err("spin option without default, min and max".into());
            };
            let d: i64 = d.parse().map_err(|_| "spin default not a number")?;
            if !(min <= d && d <= max) {
                return Err(format!("spin default {d} outside {min}..={max}"));
            }
        }
        "combo" => {
            let Some(d) = &o.default else {
                return Err("combo without default".into());
            };
            if !o.vars.contains(d) {
                return Err(format!("combo default {d} not among its vars"));
            }
        }
        "button" => {
            if o.default.is_some() {
                return Err("button with a default".into());
            }
        }
        "string" => {}
        k => return Err(format!("unknown option type {k:?}")),
    }
    Ok(o)
}

/// Checks that `line` is one of the engine → GUI lines of protocol.md: `id`,
/// `option`, `uciok`, `readyok`, `info`, `bestmove`; printable text only.
pub fn check_protocol_line(line: &str) -> Result<(), String> {
    if let Some(c) = line.chars().find(|c| c.is_control()) {
        return Err(format!("control character {c:?} in output"));
    }
    if line != line.trim() {
        return Err("leading or trailing blank".into());
    }
    match line.split(' ').next().unwrap_or("") {
        "uciok" | "readyok" if !line.contains(' ') => Ok(()),
        "id" if line.starts_with("id name ") || line.starts_with("id author ") => Ok(()),
        "option" => parse_option(line).map(|_| ()),
        "info" => parse_info(line).map(|_| ()),
        "bestmove" => parse_bestmove(line).map(|_| ()),
        _ => Err("unknown kind of line".into()),
    }
}

/// Every value of every rule switch, as `(name, value)` (the preset included),
/// for tests that must hold under each.
pub fn every_switch() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for option in &RULE_OPTIONS {
        let name = option.name;
        let values: Vec<String> = match option.kind.clone() {
            OptionKind::Check { .. } => vec!["true".into(), "false".into()],
            OptionKind::Combo { choices, .. } => choices.iter().map(|c| c.to_string()).collect(),
            OptionKind::Spin { .. } => vec!["0".into(), "100".into()],
            OptionKind::Button | OptionKind::String { .. } => vec![],
        };
        for v in values {
            out.push((name.to_string(), v));
        }
    }
    out
}

/// A random legal move of `game`, a capture half the time when there is one
/// (so that random games reach endgames too); `None` when there is no move.
pub fn random_move(game: &Game, rng: &mut SplitMix64) -> Option<Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| game.position().is_capture(m))
        .collect();
    Some(if !captures.is_empty() && rng.below(2) == 0 {
        captures[rng.below(captures.len())]
    } else {
        moves[rng.below(moves.len())]
    })
}

/// The game reached by up to `plies` random moves ([`random_move`]) from the
/// start under the default rules, and those moves as text.
pub fn random_game(plies: usize, seed: u64) -> (Game, Vec<String>) {
    let mut game = Game::new(
        Rules::default(),
        doushou::rules::START_FEN.parse().expect("start"),
    );
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let Some(m) = random_move(&game, &mut rng) else {
            break;
        };
        game.make(m);
        moves.push(m.to_string());
    }
    (game, moves)
}

/// The misbehaving engine of `dev/test_engine.rs` (a binary Cargo builds
/// for the tests).
pub fn fake_engine() -> String {
    env!("CARGO_BIN_EXE_doushou-test-engine").to_string()
}
