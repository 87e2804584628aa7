//! A protocol fuzzer: the real binary, through its pipes, fed random and
//! mutated traffic (commands of protocol.md with corrupted tokens, random
//! bytes, huge and negative numbers, very long lines) between checked steps
//! that interleave `go`, `stop`, `ponderhit`, `position`, `setoption`,
//! `ucinewgame` and `isready`.
//!
//! Invariants: the process never dies (nor panics); every `isready` gets a
//! `readyok`; every line whose command is `go` gets at most one `bestmove`,
//! and each `go` of a checked step exactly one (protocol.md: a refused `go`
//! answers `bestmove 0000` when no search runs, nothing during one, so that
//! the running search's own is the only one); in a checked step the
//! `bestmove` is legal in the position sent (by the library's rules), or
//! `0000` where there is no move; the peak resident memory stays below `Hash` plus
//! [`MEMORY_SLACK_MB`].
//!
//! The fuzz lines are built so that the test knows, without the engine's
//! parser, which of them are `go` commands: a `go` line starts with the word
//! `go`; every other line starts with another command word or holds no
//! command word at all (UCI lets unknown words stand before a command).
//! Options that would make a run slow or change its rules (`Hash`, `Threads`,
//! rule switches) and `quit`, `bench`, `perft` are left out of the noise.
//!
//! `cargo test --test fuzz_protocol` sends about 10^4 lines; the long run,
//! `DOUSHOU_FUZZ_LINES=1000000 cargo test --release --test fuzz_protocol --
//! --ignored --nocapture`, as many as asked (docs/development.md).

use crate::common;

use common::{EngineProcess, TIMEOUT, random_game};
use doushou::rules::{Game, Rules, START_FEN};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The transposition table size the fuzzer sets, MB.
const HASH_MB: u64 = 16;

/// What the process may use beyond the table, MB, at its peak: code, stacks,
/// buffers, the network's weights (about 17 MB under a debug build). Not
/// the default 64 MB table made at start-up: its pages are never written
/// before `Hash` replaces it (when they were, the peak was 71 MB).
const MEMORY_SLACK_MB: u64 = 32;

/// Every word that starts a command (protocol.md), and `perft` (`go perft` is
/// no search): noise that is not meant to be one of them must hold none.
const COMMAND_WORDS: [&str; 16] = [
    "uci",
    "isready",
    "debug",
    "register",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "moves",
    "bench",
    "perft",
];

/// Options the noise may set: none that resizes the table, adds threads or
/// changes the rules under the test's feet.
const SAFE_OPTIONS: [&str; 9] = [
    "MultiPV",
    "Move Overhead",
    "Ponder",
    "UCI_ShowWDL",
    "Contempt",
    "Search_LMR",
    "Search_LateMovePruning",
    "Eval",
    "Clear Hash",
];

/// Words of the grammar that corrupted lines are made of.
const GRAMMAR_WORDS: [&str; 24] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "name",
    "value",
    "fen",
    "startpos",
    "true",
    "false",
    "on",
    "off",
    "nnue",
    "linear",
    "w",
    "b",
];

/// Whether `text` holds a command word anywhere (any case), split as finely
/// as the engine could split it.
fn holds_command_word(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .any(|w| COMMAND_WORDS.iter().any(|c| c.eq_ignore_ascii_case(w)))
}

/// One token of a corrupted line.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(&GRAMMAR_WORDS[..]).prop_map(str::to_string),
        2 => (0u64..20).prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => (1usize..60).prop_map(|n| "9".repeat(n)),
        1 => Just("-0".to_string()),
        1 => Just("1e9".to_string()),
        2 => "[a-i][0-9][a-i][0-9]",
        1 => "\\PC{0,12}",
        1 => Just(START_FEN.to_string()),
        1 => (0usize..START_FEN.len(), any::<char>()).prop_map(|(i, c)| {
            let mut fen: Vec<char> = START_FEN.chars().collect();
            let i = i.min(fen.len() - 1);
            fen[i] = c;
            fen.into_iter().collect()
        }),
    ]
    .prop_map(|t: String| t.replace(['\n', '\r'], " "))
    .prop_filter("a command word", |t| !holds_command_word(t))
}

/// A line of noise: its bytes, and whether it is a `go` command.
#[derive(Clone, Debug)]
struct Noise {
    bytes: Vec<u8>,
    is_go: bool,
    /// Whether it may change the position (the test no longer knows it).
    touches_position: bool,
}

fn noise() -> impl Strategy<Value = Noise> {
    let words = || proptest::collection::vec(token(), 0..8);
    let go = words().prop_map(|w| Noise {
        bytes: format!("go {}", w.join(" ")).into_bytes(),
        is_go: true,
        touches_position: false,
    });
    let command = (
        proptest::sample::select(
            &[
                "position",
                "ucinewgame",
                "debug",
                "register",
                "d",
                "eval",
                "moves",
                "uci",
            ][..],
        ),
        words(),
    )
        .prop_map(|(c, w)| Noise {
            bytes: format!("{c} {}", w.join(" ")).into_bytes(),
            is_go: false,
            touches_position: c == "position",
        });
    let setoption = (
        proptest::sample::select(&SAFE_OPTIONS[..]),
        words(),
        any::<bool>(),
    )
        .prop_map(|(name, w, with_value)| {
            let value = if with_value { " value" } else { "" };
            Noise {
                bytes: format!("setoption name {name}{value} {}", w.join(" ")).into_bytes(),
                is_go: false,
                touches_position: false,
            }
        });
    let bytes = proptest::collection::vec(any::<u8>(), 0..200)
        .prop_map(|mut b| {
            b.retain(|&x| x != b'\n');
            b
        })
        .prop_filter("a command word", |b| {
            !holds_command_word(&String::from_utf8_lossy(b))
        })
        .prop_map(|bytes| Noise {
            bytes,
            is_go: false,
            touches_position: false,
        });
    let long = prop_oneof![
        // Under the engine's line limit: one search, its limit given over and over.
        (1usize..20_000).prop_map(|n| Noise {
            bytes: format!("go{}", " depth 1".repeat(n)).into_bytes(),
            is_go: true,
            touches_position: false,
        }),
        // Over it (1 MiB): skipped with an error.
        Just(Noise {
            bytes: "zz ".repeat(400_000).into_bytes(),
            is_go: false,
            touches_position: false,
        }),
        (1usize..100_000).prop_map(|n| Noise {
            bytes: format!("position startpos moves{}", " g3g4".repeat(n)).into_bytes(),
            is_go: false,
            touches_position: true,
        }),
    ];
    prop_oneof![4 => go, 4 => command, 2 => setoption, 2 => bytes, 1 => long.no_shrink()]
}

/// How a checked step searches.
#[derive(Clone, Debug)]
enum Search {
    Depth(u32),
    Nodes(u64),
    /// `go infinite`, `isready` during it, then `stop`.
    Infinite,
    /// `go ponder depth N`, then `ponderhit`: the search ends at its depth.
    PonderHit(u32),
    /// `go ponder`, then `stop`.
    PonderStop,
    Movetime(u64),
    Clock {
        time: u64,
        inc: u64,
    },
    /// `go depth N` with `isready` sent while it runs.
    DepthWithIsready(u32),
}

fn search() -> impl Strategy<Value = Search> {
    prop_oneof![
        (1u32..=3).prop_map(Search::Depth),
        (1u64..5000).prop_map(Search::Nodes),
        Just(Search::Infinite),
        (1u32..=3).prop_map(Search::PonderHit),
        Just(Search::PonderStop),
        (1u64..30).prop_map(Search::Movetime),
        (0u64..300, 0u64..50).prop_map(|(time, inc)| Search::Clock { time, inc }),
        (1u32..=3).prop_map(Search::DepthWithIsready),
    ]
}

/// One step of a fuzz session.
#[derive(Clone, Debug)]
enum Step {
    /// A position the test knows, a search, and the checks.
    Checked {
        /// Random plies from the start, made with this seed.
        plies: usize,
        seed: u64,
        /// Sent as `fen` of the reached position rather than `startpos moves`.
        as_fen: bool,
        new_game: bool,
        multipv: Option<u32>,
        search: Search,
    },
    /// Lines of noise.
    Noise(Vec<Noise>),
}

fn step() -> impl Strategy<Value = Step> {
    let checked = (
        0usize..60,
        any::<u64>(),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(1u32..4),
        search(),
    )
        .prop_map(
            |(plies, seed, as_fen, new_game, multipv, search)| Step::Checked {
                plies,
                seed,
                as_fen,
                new_game,
                multipv,
                search,
            },
        );
    let noise = proptest::collection::vec(noise(), 1..10).prop_map(Step::Noise);
    prop_oneof![checked, noise]
}

/// What was sent in a session, for the report of the long run.
#[derive(Default)]
struct Counts {
    lines: AtomicU64,
    gos: AtomicU64,
    isready: AtomicU64,
    sessions: AtomicU64,
}

static COUNTS: Counts = Counts {
    lines: AtomicU64::new(0),
    gos: AtomicU64::new(0),
    isready: AtomicU64::new(0),
    sessions: AtomicU64::new(0),
};

/// The engine under fuzz, with what it owes: `readyok`s and `bestmove`s.
struct Session {
    engine: EngineProcess,
    owed_readyok: u64,
    owed_bestmove: u64,
    /// `go` lines of the noise: each gets one `bestmove`, or none when it is
    /// refused during a search (which the test cannot tell).
    may_bestmove: u64,
}

impl Session {
    fn start() -> Session {
        let mut engine = EngineProcess::start();
        // `d`, `eval`, `moves` and `uci` from the noise answer lines for people.
        engine.strict = false;
        let mut session = Session {
            engine,
            owed_readyok: 0,
            owed_bestmove: 0,
            may_bestmove: 0,
        };
        session.send(format!("setoption name Hash value {HASH_MB}").as_bytes());
        session.settle(None);
        session
    }

    fn send(&mut self, line: &[u8]) {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.engine.send_bytes(&bytes);
        COUNTS.lines.fetch_add(1, Ordering::Relaxed);
    }

    fn send_go(&mut self, line: &[u8]) {
        self.owed_bestmove += 1;
        COUNTS.gos.fetch_add(1, Ordering::Relaxed);
        self.send(line);
    }

    fn send_isready(&mut self) {
        self.owed_readyok += 1;
        COUNTS.isready.fetch_add(1, Ordering::Relaxed);
        self.send(b"isready");
    }

    /// Ends any search (`stop`), asks `isready`, and reads until every owed
    /// answer came: each `bestmove` is checked against `game` when the test
    /// knows the position. A `bestmove` or `readyok` not owed fails.
    fn settle(&mut self, game: Option<&Game>) {
        self.send(b"stop");
        if self.may_bestmove > 0 {
            // Ends a search the noise started and waits for its report, so
            // that every `bestmove` comes before the `readyok`.
            self.send(b"ucinewgame");
        }
        self.send_isready();
        let deadline = Instant::now() + TIMEOUT;
        while self.owed_readyok > 0 || self.owed_bestmove > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.engine.next_line_within(left.max(TIMEOUT / 100)) else {
                self.engine.fail("the engine's output ended: it died");
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("readyok") => {
                    if self.owed_readyok == 0 {
                        self.engine.fail("a readyok nobody asked for");
                    }
                    self.owed_readyok -= 1;
                }
                Some("bestmove") => {
                    if self.owed_bestmove > 0 {
                        self.owed_bestmove -= 1;
                    } else if self.may_bestmove > 0 {
                        self.may_bestmove -= 1;
                    } else {
                        self.engine.fail("a bestmove for no go");
                    }
                    let best = words.next().unwrap_or("");
                    let ponder = match (words.next(), words.next()) {
                        (None, _) => None,
                        (Some("ponder"), Some(p)) => Some(p),
                        _ => self.engine.fail("a malformed bestmove line"),
                    };
                    self.check_bestmove(game, best, ponder);
                }
                _ => {}
            }
        }
        // The noise's `go` lines not answered were refused during a search.
        self.may_bestmove = 0;
        self.check_memory();
    }

    fn check_bestmove(&self, game: Option<&Game>, best: &str, ponder: Option<&str>) {
        if !common::is_move_text(best) {
            self.engine.fail(&format!("bestmove '{best}' is no move"));
        }
        let Some(game) = game else { return };
        let legal = game.legal_moves();
        if best == "0000" {
            if !legal.is_empty() && game.outcome().is_none() {
                self.engine.fail("bestmove 0000 where moves are legal");
            }
            return;
        }
        let mut after = game.clone();
        if let Err(e) = after.play_text(best) {
            self.engine
                .fail(&format!("bestmove {best} is illegal: {e}"));
        }
        if let Some(p) = ponder
            && let Err(e) = after.play_text(p)
        {
            self.engine
                .fail(&format!("ponder move {p} is illegal after {best}: {e}"));
        }
    }

    fn check_memory(&self) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.engine.pid()));
        let Ok(status) = status else { return };
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        if peak_kb > (HASH_MB + MEMORY_SLACK_MB) * 1024 {
            self.engine.fail(&format!(
                "peak resident memory {peak_kb} kB is above Hash {HASH_MB} MB + {MEMORY_SLACK_MB} MB"
            ));
        }
    }

    fn checked(&mut self, step: &Step) {
        let Step::Checked {
            plies,
            seed,
            as_fen,
            new_game,
            multipv,
            search,
        } = step
        else {
            return;
        };
        let (mut game, moves) = random_game(*plies, *seed);
        if *new_game {
            self.send(b"ucinewgame");
        }
        if let Some(k) = multipv {
            self.send(format!("setoption name MultiPV value {k}").as_bytes());
        }
        let position = if *as_fen {
            game = Game::new(Rules::default(), *game.position());
            format!("position fen {}", game.position().fen())
        } else if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(position.as_bytes());
        match search {
            Search::Depth(d) => self.send_go(format!("go depth {d}").as_bytes()),
            Search::Nodes(n) => self.send_go(format!("go nodes {n}").as_bytes()),
            Search::Infinite => {
                self.send_go(b"go infinite");
                self.send_isready();
            }
            Search::PonderHit(d) => {
                self.send_go(format!("go ponder depth {d}").as_bytes());
                self.send(b"ponderhit");
            }
            Search::PonderStop => self.send_go(b"go ponder"),
            Search::Movetime(ms) => self.send_go(format!("go movetime {ms}").as_bytes()),
            Search::Clock { time, inc } => self
                .send_go(format!("go wtime {time} btime {time} winc {inc} binc {inc}").as_bytes()),
            Search::DepthWithIsready(d) => {
                self.send_go(format!("go depth {d}").as_bytes());
                self.send_isready();
            }
        }
        self.settle(Some(&game));
    }

    fn noise(&mut self, lines: &[Noise]) {
        for line in lines {
            if line.is_go {
                self.may_bestmove += 1;
                COUNTS.gos.fetch_add(1, Ordering::Relaxed);
                self.send(&line.bytes);
            } else {
                self.send(&line.bytes);
            }
        }
        self.settle(None);
        if lines.iter().any(|l| l.touches_position) {
            // A position the test knows again, so that a `go` in later noise
            // does not search a huge game.
            self.send(b"position startpos");
        }
    }

    /// Ends the session: end of input, exit code 0, no panic, nothing owed.
    fn finish(self) {
        let rest = self.engine.finish();
        if let Some(extra) = rest.iter().find(|l| l.starts_with("bestmove")) {
            panic!("an extra '{extra}' after everything was answered");
        }
    }
}

fn session_strategy(steps: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Step>> {
    proptest::collection::vec(step(), steps)
}

fn run_session(steps: &[Step]) {
    let mut session = Session::start();
    for step in steps {
        match step {
            Step::Noise(lines) => session.noise(lines),
            checked => session.checked(checked),
        }
    }
    session.finish();
    COUNTS.sessions.fetch_add(1, Ordering::Relaxed);
}

proptest! {
    // About 30 sessions of about 300 lines: 10^4 lines.
    #![proptest_config(Config { cases: 32, max_shrink_iters: 200, ..Config::default() })]

    #[test]
    fn random_traffic_never_breaks_the_engine(steps in session_strategy(20..60)) {
        run_session(&steps);
    }
}

/// The long run: `DOUSHOU_FUZZ_LINES` lines (default 10^6), sessions of the
/// same kind one after another; prints what it sent and how long it took.
#[test]
#[ignore = "long: run by hand, see docs/development.md"]
fn long_fuzz_run() {
    let target: u64 = std::env::var("DOUSHOU_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let began = Instant::now();
    let start_lines = COUNTS.lines.load(Ordering::Relaxed);
    let mut runner = TestRunner::new(Config {
        cases: 1,
        ..Config::default()
    });
    let strategy = session_strategy(50..150);
    while COUNTS.lines.load(Ordering::Relaxed) - start_lines < target {
        let steps = strategy.new_tree(&mut runner).expect("a session").current();
        run_session(&steps);
        let sent = COUNTS.lines.load(Ordering::Relaxed) - start_lines;
        if COUNTS.sessions.load(Ordering::Relaxed).is_multiple_of(100) {
            eprintln!("{sent} lines, {:.0} s", began.elapsed().as_secs_f64());
        }
    }
    println!(
        "fuzz: {} lines ({} go, {} isready) in {} sessions, {:.0} s, crashes 0",
        COUNTS.lines.load(Ordering::Relaxed) - start_lines,
        COUNTS.gos.load(Ordering::Relaxed),
        COUNTS.isready.load(Ordering::Relaxed),
        COUNTS.sessions.load(Ordering::Relaxed),
        began.elapsed().as_secs_f64()
    );
}
