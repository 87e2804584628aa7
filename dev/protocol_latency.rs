//! How fast the engine answers the protocol's control commands, measured
//! through its pipes as a GUI sees it:
//!
//! - `isready` → `readyok` while idle, and while `go infinite` runs (1 and 2
//!   threads);
//! - `stop` → `bestmove` during `go infinite`, after searching for various
//!   times (0 ms, i.e. `stop` right after `go`, up to 100 ms), 1 and 2 threads.
//!
//! Each latency runs from just before the command is written to the moment the
//! answer's line is read (the reading thread timestamps it). Prints min,
//! median, p99 and max in milliseconds.
//!
//! With `movetime` first, it measures instead how much of `go movetime M` the
//! engine uses, for several M: the time from `go` to `bestmove` over M (the
//! ratio used/granted), and over M less `Move Overhead` (the engine's own
//! deadline, which it should reach: at least 0.9).
//!
//! ```text
//! cargo build --release
//! cargo run --release --example protocol_latency -- [binary] [repetitions]
//! cargo run --release --example protocol_latency -- movetime [binary] [repetitions]
//! ```
//!
//! The binary defaults to `target/release/doushou`, repetitions to 200 (5 for
//! `movetime`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Longest wait for any answer before giving up.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Search times before `stop`, cycled through the repetitions.
const SEARCH_MS: [u64; 8] = [0, 1, 2, 5, 10, 20, 50, 100];

/// The `movetime`s of the movetime mode, ms.
const MOVETIMES_MS: [u64; 5] = [100, 300, 1000, 2000, 5000];

/// The engine's default `Move Overhead`, ms, left as it is by this example.
const MOVE_OVERHEAD_MS: u64 = 30;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn start(path: &str) -> Engine {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {path}: {e} (cargo build --release first?)"));
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().expect("piped");
        let mut e = Engine {
            child,
            stdin,
            lines: rx,
        };
        e.send("uci");
        e.wait_for(|l| l == "uciok");
        e
    }

    fn send_quit(&mut self) -> std::io::Result<()> {
        writeln!(self.stdin, "quit")?;
        self.stdin.flush()
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine's stdin");
        self.stdin.flush().expect("the engine's stdin");
    }

    /// Reads lines until one satisfies `done`; answers the time it was read.
    fn wait_for(&mut self, done: impl Fn(&str) -> bool) -> Instant {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((t, line)) if done(&line) => return t,
                Ok(_) => {}
                Err(e) => panic!("no answer from the engine within {TIMEOUT:?}: {e}"),
            }
        }
    }

    /// `isready` until `readyok`: all earlier output is read.
    fn sync(&mut self) -> Duration {
        let t0 = Instant::now();
        self.send("isready");
        self.wait_for(|l| l == "readyok") - t0
    }

    fn setup(&mut self, threads: usize) {
        self.send(&format!("setoption name Threads value {threads}"));
        self.send("ucinewgame");
        self.send("position startpos moves g3g4 a7a6");
        self.sync();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send_quit();
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `min median p99 max` of the samples, in ms.
fn summary(label: &str, samples: &mut [Duration]) {
    samples.sort();
    let n = samples.len();
    let at = |q: f64| samples[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
    println!(
        "{label:<44} n={n:<4} min {:>7.3}  median {:>7.3}  p99 {:>7.3}  max {:>7.3}",
        ms(samples[0]),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(samples[n - 1]),
    );
}

fn isready_idle(path: &str, reps: usize) -> Vec<Duration> {
    let mut e = Engine::start(path);
    e.setup(1);
    (0..reps).map(|_| e.sync()).collect()
}

fn isready_searching(path: &str, threads: usize, reps: usize) -> Vec<Duration> {
    let mut e = Engine::start(path);
    e.setup(threads);
    e.send("go infinite");
    e.wait_for(|l| l.starts_with("info depth"));
    let samples = (0..reps)
        .map(|i| {
            // Let the search run a little between requests, at various phases.
            std::thread::sleep(Duration::from_micros(500 + 700 * (i as u64 % 7)));
            e.sync()
        })
        .collect();
    e.send("stop");
    e.wait_for(|l| l.starts_with("bestmove"));
    samples
}

/// stop→bestmove samples, grouped by search time before stop.
fn stop_latency(path: &str, threads: usize, reps: usize) -> Vec<(u64, Duration)> {
    let mut e = Engine::start(path);
    e.setup(threads);
    (0..reps)
        .map(|i| {
            let search_ms = SEARCH_MS[i % SEARCH_MS.len()];
            e.send("go infinite");
            if search_ms > 0 {
                std::thread::sleep(Duration::from_millis(search_ms));
            }
            let t0 = Instant::now();
            e.send("stop");
            let latency = e.wait_for(|l| l.starts_with("bestmove")) - t0;
            e.sync();
            (search_ms, latency)
        })
        .collect()
}

/// `go movetime M` → `bestmove`, for each M of [`MOVETIMES_MS`]: the time
/// used over M, and over M less the move overhead.
fn movetime_ratios(path: &str, reps: usize) {
    let mut e = Engine::start(path);
    e.setup(1);
    println!(
        "{:>8} {:>4} {:>10} {:>10} {:>10} {:>16}",
        "movetime", "n", "min ms", "median ms", "max ms", "used/granted"
    );
    for movetime in MOVETIMES_MS {
        let mut used: Vec<Duration> = (0..reps)
            .map(|_| {
                let t0 = Instant::now();
                e.send(&format!("go movetime {movetime}"));
                let used = e.wait_for(|l| l.starts_with("bestmove")) - t0;
                e.sync();
                used
            })
            .collect();
        used.sort();
        let median = used[used.len() / 2];
        let deadline = movetime.saturating_sub(MOVE_OVERHEAD_MS).max(1) as f64;
        println!(
            "{movetime:>8} {:>4} {:>10.1} {:>10.1} {:>10.1} {:>7.3} ({:.3} of M - overhead, min {:.3})",
            used.len(),
            ms(used[0]),
            ms(median),
            ms(used[used.len() - 1]),
            ms(median) / movetime as f64,
            ms(median) / deadline,
            ms(used[0]) / deadline,
        );
    }
}

/// Says how loaded the machine is (Linux): other processes' load shows in
/// the measures.
fn print_load(when: &str) {
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let load: Vec<&str> = load.split_whitespace().take(3).collect();
        println!("load average {when} the run: {}", load.join(" "));
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let movetime_mode = args.first().is_some_and(|a| a == "movetime");
    if movetime_mode {
        args.remove(0);
    }
    let mut args = args.into_iter();
    let path = args
        .next()
        .unwrap_or_else(|| "target/release/doushou".to_string());
    let reps: usize = args
        .next()
        .map(|r| r.parse().expect("repetitions: a number"))
        .unwrap_or(if movetime_mode { 5 } else { 200 });
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    if movetime_mode {
        println!("movetime used by {path}: {reps} repetitions each, {cpus} CPUs");
        print_load("before");
        println!();
        movetime_ratios(&path, reps);
        println!();
        print_load("after");
        return;
    }
    println!("protocol latency of {path}: {reps} repetitions each, {cpus} CPUs, times in ms");
    print_load("before");
    println!();
    summary("isready -> readyok, idle", &mut isready_idle(&path, reps));
    for threads in [1, 2] {
        summary(
            &format!("isready -> readyok, go infinite, Threads {threads}"),
            &mut isready_searching(&path, threads, reps),
        );
    }
    for threads in [1, 2] {
        let samples = stop_latency(&path, threads, reps);
        println!();
        summary(
            &format!("stop -> bestmove, go infinite, Threads {threads}"),
            &mut samples.iter().map(|s| s.1).collect::<Vec<_>>(),
        );
        for search_ms in SEARCH_MS {
            let mut group: Vec<Duration> = samples
                .iter()
                .filter(|s| s.0 == search_ms)
                .map(|s| s.1)
                .collect();
            summary(&format!("  after {search_ms} ms of search"), &mut group);
        }
    }
    println!();
    print_load("after");
}
