//! A misbehaving engine for the match runner's tests. It speaks enough of the
//! protocol to get into a game, plays the first legal move (tracking the game
//! with the project's rules), then misbehaves on its Nth move as told:
//!
//! ```text
//! doushou-test-engine <mode> [N]
//!   play      never misbehave
//!   illegal   answer a move the rules never allow (bestmove d1d5)
//!   crash     exit with code 3 without answering
//!   hang      stop answering (ignores quit too: only a kill ends it)
//!   garbage   print junk, invalid UTF-8 included, then an unreadable bestmove
//!   nouci     never finish the handshake (no uciok)
//!   slow MS   wait MS milliseconds before every move (N unused)
//!   close     close its standard output, then go on reading (quit ends it)
//!   flood     print info lines without end instead of a move
//!   rated     never misbehave, and announce UCI_LimitStrength and a
//!             UCI_Elo of 1000 to 2000 (no Skill Level)
//! ```
//!
//! Words after N are ignored: tests add a marker to find leftover processes.

use doushou::protocol::Command;
use doushou::rules::{Game, Rules};
use std::io::{BufRead, Write};
use std::time::Duration;

fn say(out: &mut impl Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("play", String::as_str).to_string();
    let number: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let (misbehave_at, slow_ms) = if mode == "slow" {
        (u64::MAX, number)
    } else {
        (number, 0)
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut game: Option<Game> = None;
    let mut rules = Rules::default();
    let mut goes = 0u64;
    let mut closed = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(command) = line.parse::<Command>() else {
            continue;
        };
        match command {
            Command::Uci if mode == "nouci" => say(&mut out, "hello? what is uci?"),
            Command::Uci => {
                say(&mut out, &format!("id name fake-{mode}"));
                say(&mut out, "id author the doushou tests");
                if mode == "rated" {
                    say(
                        &mut out,
                        "option name UCI_LimitStrength type check default false",
                    );
                    say(
                        &mut out,
                        "option name UCI_Elo type spin default 1500 min 1000 max 2000",
                    );
                }
                say(&mut out, "uciok");
            }
            Command::IsReady => say(&mut out, "readyok"),
            Command::Quit => return,
            Command::SetOption { name, value } => {
                let _ = rules.set(&name, value.as_deref().unwrap_or(""));
            }
            Command::Position { fen, moves } => {
                game = Game::from_fen_and_moves(rules, &fen, &moves).ok();
            }
            _ if closed => {}
            Command::Go(_) => {
                goes += 1;
                if goes >= misbehave_at {
                    match mode.as_str() {
                        "illegal" => {
                            say(&mut out, "info depth 1 score cp 0");
                            say(&mut out, "bestmove d1d5");
                            continue;
                        }
                        "crash" => {
                            eprintln!("fake engine: crashing on purpose");
                            std::process::exit(3);
                        }
                        "hang" => loop {
                            std::thread::sleep(Duration::from_secs(3600));
                        },
                        "close" => {
                            eprintln!("fake engine: closing stdout on purpose");
                            // Dropping the file closes descriptor 1 itself, not
                            // just Rust's handle on it.
                            // SAFETY: nothing else owns descriptor 1 in this
                            // example, and it is never written to afterwards.
                            drop(unsafe {
                                <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(1)
                            });
                            closed = true;
                            continue;
                        }
                        "flood" => {
                            // Ends when the runner stops reading and kills it, or
                            // its pipe breaks.
                            let junk = format!("info string {}", "flood ".repeat(100));
                            while writeln!(out, "{junk}").is_ok() {}
                            return;
                        }
                        "garbage" => {
                            say(&mut out, "Lorem ipsum dolor sit amet");
                            let _ = out.write_all(b"\xff\xfe\x00 binary\n");
                            say(&mut out, "info depth banana");
                            // Indented: a reader must know it by its first word.
                            say(&mut out, "  bestmove ??? !!!");
                            continue;
                        }
                        _ => {}
                    }
                }
                std::thread::sleep(Duration::from_millis(slow_ms));
                let best = game
                    .as_ref()
                    .and_then(|g| g.legal_moves().first().copied())
                    .map_or("0000".to_string(), |m| m.to_string());
                say(&mut out, &format!("bestmove {best}"));
            }
            _ => {}
        }
    }
}
