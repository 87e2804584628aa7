//! One game between two engine processes, refereed by the project's own rules
//! ([`Game`]): the referee keeps the clocks (with [`Instant`]), checks every
//! move, and ends the game by the rules or on a fault (a crash, an illegal or
//! unreadable move, a time forfeit, no answer).

use super::openings::Opening;
use crate::client::{
    ClientError, EngineLimits, EngineProcess, EngineSpec, later, position_command,
};
use crate::protocol::reply::Reply;
use crate::rules::{Game, Move, Outcome, Rules, Side};
use crate::util::options::choices;
use crate::util::words::count;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::{Duration, Instant};

/// What the referee enforces, the same for every game of a match.
#[derive(Clone, Debug)]
pub struct Referee {
    /// The rules of the match.
    pub rules: Rules,
    /// The rule settings as sent to engines (`UCI_Variant` first, then switches).
    pub rule_settings: Vec<(String, String)>,
    /// Grace after a clock or move time runs out before the move is forfeit (ms).
    pub margin_ms: u64,
    /// The longest wait for `uciok` after `uci`.
    pub start_timeout: Duration,
    /// The longest wait for any other answer that no clock bounds: `isready`,
    /// and moves searched to a depth or node count.
    pub hang_timeout: Duration,
    /// Plies after which the game is drawn (the opening's included).
    pub max_plies: Option<usize>,
}

/// One side of a game: which engine, under which limits.
#[derive(Clone, Copy, Debug)]
pub struct Seat<'a> {
    /// The engine to start for this side.
    pub spec: &'a EngineSpec,
    /// Its limits, the match's defaults filled in.
    pub limits: EngineLimits,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: den, all captured, no legal move, repetition, no-capture limit.
    Rules(Outcome),
    /// The `--max-plies` limit was reached: a draw.
    MaxPlies(usize),
    /// The side let its clock (or move time) run out by more than the margin.
    TimeForfeit {
        /// The side that lost on time.
        side: Side,
        /// How long it thought, ms (at least the wait, if it never answered).
        used_ms: u64,
        /// The time it had, ms, before the margin.
        allowed_ms: u64,
        /// The `time` of the engine's last `info` line for this move, if any:
        /// the engine's own count, which tells a slow engine from a slow pipe
        /// or a starved machine.
        reported_ms: Option<u64>,
    },
    /// The side answered a move the rules do not allow here, or no readable move.
    IllegalMove {
        /// The side at fault.
        side: Side,
        /// What it answered and why that is wrong.
        detail: String,
    },
    /// The side's process ended during the game.
    Crash {
        /// The side at fault.
        side: Side,
        /// How it ended, in the client's words (its last words on stderr, if any).
        detail: String,
    },
    /// The side gave no move within the hang timeout (no clock was running).
    NoAnswer {
        /// The side at fault.
        side: Side,
        /// How long the referee waited, ms.
        waited_ms: u64,
    },
    /// The side's engine did not start or did not complete the handshake.
    StartFailure {
        /// The side at fault.
        side: Side,
        /// Why, as the client reported it.
        detail: String,
    },
    /// Neither engine started: nobody played, nobody won.
    BothFailedToStart {
        /// Why, for each side.
        detail: String,
    },
}

choices! {
    /// How a game ended, by kind: what the summary counts and its record
    /// keeps (by these names, so that `--resume` reads older records).
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum TerminationKind {
        /// A piece entered the enemy den.
        Den = "den",
        /// Every enemy piece was captured.
        AllCaptured = "all-captured",
        /// The side to move had no legal move.
        NoLegalMove = "no-legal-move",
        /// Drawn by repetition (`Repetition=draw`).
        Repetition = "repetition",
        /// Drawn by the no-capture limit.
        NoCaptureLimit = "no-capture-limit",
        /// Drawn by the runner's `--max-plies`.
        MaxPlies = "max-plies",
        /// An engine lost on time.
        TimeForfeit = "time-forfeit",
        /// An engine played an illegal or unreadable move.
        IllegalMove = "illegal-move",
        /// An engine crashed: its process ended during the game.
        Crash = "crash",
        /// An engine gave no move with no clock running.
        NoAnswer = "no-answer",
        /// An engine (or both) did not start.
        StartFailure = "start-failure",
    }
}

impl fmt::Display for TerminationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Termination {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Side> {
        match self {
            Termination::Rules(Outcome::Win { winner, .. }) => Some(*winner),
            Termination::Rules(Outcome::Draw(_))
            | Termination::MaxPlies(_)
            | Termination::BothFailedToStart { .. } => None,
            _ => self.faulty().map(Side::opponent),
        }
    }

    /// The side whose engine misbehaved, if the game ended on a fault.
    pub fn faulty(&self) -> Option<Side> {
        match self {
            Termination::TimeForfeit { side, .. }
            | Termination::IllegalMove { side, .. }
            | Termination::Crash { side, .. }
            | Termination::NoAnswer { side, .. }
            | Termination::StartFailure { side, .. } => Some(*side),
            _ => None,
        }
    }

    /// The result as records write it: `1-0` (Red won), `0-1`, `1/2-1/2`.
    pub fn score_text(&self) -> &'static str {
        match self {
            Termination::Rules(outcome) => outcome.score_text(),
            _ => match self.winner() {
                Some(Side::Red) => "1-0",
                Some(Side::Blue) => "0-1",
                None => "1/2-1/2",
            },
        }
    }

    /// The kind of ending, as the summary counts it.
    pub fn kind(&self) -> TerminationKind {
        use crate::rules::{DrawReason, WinReason};
        match self {
            Termination::Rules(Outcome::Win { reason, .. }) => match reason {
                WinReason::Den => TerminationKind::Den,
                WinReason::AllCaptured => TerminationKind::AllCaptured,
                WinReason::NoLegalMove => TerminationKind::NoLegalMove,
            },
            Termination::Rules(Outcome::Draw(DrawReason::Repetition)) => {
                TerminationKind::Repetition
            }
            Termination::Rules(Outcome::Draw(DrawReason::NoCaptureLimit)) => {
                TerminationKind::NoCaptureLimit
            }
            Termination::MaxPlies(_) => TerminationKind::MaxPlies,
            Termination::TimeForfeit { .. } => TerminationKind::TimeForfeit,
            Termination::IllegalMove { .. } => TerminationKind::IllegalMove,
            Termination::Crash { .. } => TerminationKind::Crash,
            Termination::NoAnswer { .. } => TerminationKind::NoAnswer,
            Termination::StartFailure { .. } | Termination::BothFailedToStart { .. } => {
                TerminationKind::StartFailure
            }
        }
    }
}

impl fmt::Display for Termination {
    /// The ending in words, as the record's `Termination` tag says it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(outcome) => outcome.fmt(f),
            Termination::MaxPlies(n) => {
                write!(
                    f,
                    "draw: {} played (--max-plies)",
                    count(*n as u64, "ply", "plies")
                )
            }
            Termination::TimeForfeit {
                side,
                used_ms,
                allowed_ms,
                reported_ms,
            } => {
                write!(
                    f,
                    "{} wins: {side} lost on time ({used_ms} ms used of {allowed_ms} ms",
                    side.opponent()
                )?;
                if let Some(r) = reported_ms {
                    write!(f, "; its last info said {r} ms")?;
                }
                f.write_str(")")
            }
            Termination::IllegalMove { side, detail } => write!(
                f,
                "{} wins: {side} played an illegal move ({detail})",
                side.opponent()
            ),
            Termination::Crash { side, detail } => write!(
                f,
                "{} wins: {side}'s engine crashed ({detail})",
                side.opponent()
            ),
            Termination::NoAnswer { side, waited_ms } => write!(
                f,
                "{} wins: {side}'s engine gave no move in {waited_ms} ms",
                side.opponent()
            ),
            Termination::StartFailure { side, detail } => write!(
                f,
                "{} wins: {side}'s engine failed to start ({detail})",
                side.opponent()
            ),
            Termination::BothFailedToStart { detail } => {
                write!(f, "draw: neither engine started ({detail})")
            }
        }
    }
}

/// A finished game: what the PGN record and the summary are made from.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number in the match, from 1.
    pub round: usize,
    /// The first position, as FEN: the opening's, before its moves.
    pub start_fen: String,
    /// Every move from it, the opening's first.
    pub moves: Vec<Move>,
    /// How many of the moves came from the opening.
    pub opening_plies: usize,
    /// How it ended, with the side at fault if any.
    pub termination: Termination,
    /// Wall time of the game.
    pub duration: Duration,
}

/// The wait for one move: the deadline, and what missing it means.
struct Deadline {
    at: Instant,
    /// The clock or move time the side had (ms), if one bounds the move.
    allowed_ms: Option<u64>,
}

/// Starts one engine: process, handshake, options, rules, new game. When
/// `checked`, each engine option must be one the engine announced and must
/// not be answered with an error (the check before the first game); in a game
/// an option is sent as it is, with a warning.
fn start_engine(
    spec: &EngineSpec,
    referee: &Referee,
    checked: bool,
) -> Result<EngineProcess, ClientError> {
    let mut engine = EngineProcess::spawn(spec)?;
    engine.handshake(referee.start_timeout)?;
    for (name, value) in &spec.options {
        if checked {
            engine.set_option_checked(name, value, referee.hang_timeout)?;
            continue;
        }
        if !engine.has_option(name) {
            log::warn!(
                "engine '{}' does not announce option '{name}'; sent anyway",
                spec.name
            );
        }
        engine.set_option(name, value)?;
    }
    // The referee's rules last, so that no engine option can override them.
    for (name, value) in &referee.rule_settings {
        if !engine.has_option(name) {
            log::warn!(
                "engine '{}' does not announce rule option '{name}': it may not play these rules",
                spec.name
            );
        }
        engine.set_option(name, value)?;
    }
    engine.send("ucinewgame")?;
    engine.sync(referee.hang_timeout)?;
    Ok(engine)
}

/// Starts the engine of `spec` as a game would, then shuts it down: whether it
/// can play at all, with every option it is given announced and accepted.
pub fn check_start(spec: &EngineSpec, referee: &Referee) -> Result<(), ClientError> {
    start_engine(spec, referee, true).map(drop)
}

/// The `go` line for `side` to move: every clock that runs, then the mover's
/// own move time, depth and node limits.
fn go_command(seats: &[Seat; 2], clocks: &[Option<u64>; 2], side: Side) -> String {
    let mut go = String::from("go");
    for (s, word) in [(Side::Red, "wtime"), (Side::Blue, "btime")] {
        if let Some(ms) = clocks[s.index()] {
            go.push_str(&format!(" {word} {ms}"));
        }
    }
    for (s, word) in [(Side::Red, "winc"), (Side::Blue, "binc")] {
        if let (Some(_), Some(tc)) = (clocks[s.index()], seats[s.index()].limits.tc) {
            go.push_str(&format!(" {word} {}", tc.increment_ms));
        }
    }
    go.push_str(&seats[side.index()].limits.fixed_go_words());
    go
}

/// Plays one game from `opening`, Red's engine in `seats[0]`, Blue's in
/// `seats[1]`. Never fails: whatever goes wrong ends the game with a reason.
pub fn play(round: usize, opening: &Opening, seats: [Seat; 2], referee: &Referee) -> GameRecord {
    let began = Instant::now();
    let mut record = GameRecord {
        round,
        start_fen: opening.fen.clone(),
        moves: Vec::new(),
        opening_plies: 0,
        termination: Termination::MaxPlies(0),
        duration: Duration::ZERO,
    };
    let mut game = match opening.game(referee.rules) {
        Ok(g) => g,
        Err(e) => {
            // Openings are checked when loaded; this is only a safety net.
            record.termination = Termination::BothFailedToStart {
                detail: format!("bad opening: {e}"),
            };
            return record;
        }
    };
    record.moves = game.moves_played();
    record.opening_plies = record.moves.len();
    let red = start_engine(seats[0].spec, referee, false);
    let blue = start_engine(seats[1].spec, referee, false);
    let failed = |side, e: ClientError| Termination::StartFailure {
        side,
        detail: e.to_string(),
    };
    let mut engines = match (red, blue) {
        (Ok(red), Ok(blue)) => [red, blue],
        (Err(red), Err(blue)) => {
            record.termination = Termination::BothFailedToStart {
                detail: format!("red: {red}; blue: {blue}"),
            };
            record.duration = began.elapsed();
            return record;
        }
        // The engine that did start is shut down as it is dropped.
        (Err(e), Ok(_)) => {
            record.termination = failed(Side::Red, e);
            record.duration = began.elapsed();
            return record;
        }
        (Ok(_), Err(e)) => {
            record.termination = failed(Side::Blue, e);
            record.duration = began.elapsed();
            return record;
        }
    };
    record.termination = run_game(
        &mut game,
        &mut engines,
        &seats,
        referee,
        &opening.fen,
        &mut record.moves,
    );
    for e in &mut engines {
        e.shutdown();
    }
    record.duration = began.elapsed();
    record
}

/// The moves of a game until it ends; answers how it ended.
fn run_game(
    game: &mut Game,
    engines: &mut [EngineProcess; 2],
    seats: &[Seat; 2],
    referee: &Referee,
    start_fen: &str,
    moves: &mut Vec<Move>,
) -> Termination {
    let mut clocks: [Option<u64>; 2] = [
        seats[0].limits.tc.map(|tc| tc.base_ms),
        seats[1].limits.tc.map(|tc| tc.base_ms),
    ];
    let mut moves_text: Vec<String> = moves.iter().map(Move::to_string).collect();
    loop {
        if let Some(outcome) = game.outcome() {
            return Termination::Rules(outcome);
        }
        if let Some(max) = referee.max_plies
            && moves.len() >= max
        {
            return Termination::MaxPlies(moves.len());
        }
        let side = game.position().side_to_move();
        let engine = &mut engines[side.index()];
        let position = position_command(start_fen, &moves_text);
        let go = go_command(seats, &clocks, side);
        let crash = |e: ClientError| Termination::Crash {
            side,
            detail: e.to_string(),
        };
        if let Err(e) = engine.send(&position) {
            return crash(e);
        }
        if let Err(e) = engine.send(&go) {
            return crash(e);
        }
        let sent = Instant::now();
        let deadline = deadline(
            seats[side.index()].limits,
            clocks[side.index()],
            sent,
            referee,
        );
        let mut reported_ms = None;
        let answer = loop {
            match engine.recv(deadline.at, "bestmove", sent) {
                Ok(line) => match line.text.parse::<Reply>() {
                    Ok(Reply::BestMove { best, .. }) => break (best, line.at),
                    Ok(Reply::Info(info)) => reported_ms = info.time.or(reported_ms),
                    Err(e) if Reply::is_bestmove_line(&line.text) => {
                        return Termination::IllegalMove {
                            side,
                            detail: format!("unreadable answer '{}': {e}", shorten(&line.text)),
                        };
                    }
                    // Info lines and anything else an engine says are not moves.
                    _ => {}
                },
                Err(ClientError::Timeout { waited_ms, .. }) => {
                    return match deadline.allowed_ms {
                        Some(allowed_ms) => Termination::TimeForfeit {
                            side,
                            used_ms: waited_ms,
                            allowed_ms,
                            reported_ms,
                        },
                        None => Termination::NoAnswer { side, waited_ms },
                    };
                }
                Err(e) => return crash(e),
            }
        };
        let (best, at) = answer;
        let used_ms = at.saturating_duration_since(sent).as_millis() as u64;
        if let Some(allowed_ms) = deadline.allowed_ms
            && used_ms > allowed_ms.saturating_add(referee.margin_ms)
        {
            return Termination::TimeForfeit {
                side,
                used_ms,
                allowed_ms,
                reported_ms,
            };
        }
        if let (Some(left), Some(tc)) = (clocks[side.index()], seats[side.index()].limits.tc) {
            clocks[side.index()] =
                Some(left.saturating_sub(used_ms).saturating_add(tc.increment_ms));
        }
        if best.is_null() {
            return Termination::IllegalMove {
                side,
                detail: "bestmove 0000 where legal moves exist".into(),
            };
        }
        match game.play_text(&best.to_string()) {
            Ok(m) => {
                moves.push(m);
                moves_text.push(m.to_string());
            }
            Err(e) => {
                return Termination::IllegalMove {
                    side,
                    detail: e.to_string(),
                };
            }
        }
    }
}

/// When the referee stops waiting for `side`'s move, and why.
fn deadline(
    limits: EngineLimits,
    clock: Option<u64>,
    sent: Instant,
    referee: &Referee,
) -> Deadline {
    let allowed_ms = match (clock, limits.movetime) {
        (Some(c), Some(m)) => Some(c.min(m)),
        (c, m) => c.or(m),
    };
    let at = match allowed_ms {
        Some(ms) => later(
            sent,
            Duration::from_millis(ms.saturating_add(referee.margin_ms)),
        ),
        None => later(sent, referee.hang_timeout),
    };
    Deadline { at, allowed_ms }
}

/// A line cut to a readable length for messages.
fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::TimeControl;
    use crate::protocol::Command;

    fn spec(limits: EngineLimits) -> EngineSpec {
        EngineSpec {
            name: "e".into(),
            program: "e".into(),
            args: vec![],
            dir: None,
            options: vec![],
            limits,
        }
    }

    #[test]
    fn go_lines_are_commands_the_engine_reads() {
        let tc = TimeControl {
            base_ms: 1000,
            increment_ms: 10,
        };
        let red = spec(EngineLimits {
            tc: Some(tc),
            depth: Some(7),
            ..EngineLimits::default()
        });
        let blue = spec(EngineLimits {
            nodes: Some(500),
            movetime: Some(80),
            ..EngineLimits::default()
        });
        let seats = [
            Seat {
                spec: &red,
                limits: red.limits,
            },
            Seat {
                spec: &blue,
                limits: blue.limits,
            },
        ];
        let clocks = [Some(950), None];
        let go = go_command(&seats, &clocks, Side::Red);
        assert_eq!(go, "go wtime 950 winc 10 depth 7");
        let Ok(Command::Go(limits)) = go.parse() else {
            panic!("{go} does not parse");
        };
        assert_eq!(limits.time.red_time, Some(950));
        assert_eq!(limits.time.red_increment, Some(10));
        assert_eq!(limits.depth, Some(7));
        let go = go_command(&seats, &clocks, Side::Blue);
        let Ok(Command::Go(limits)) = go.parse() else {
            panic!("{go} does not parse");
        };
        assert_eq!(limits.time.movetime, Some(80));
        assert_eq!(limits.nodes, Some(500));
    }

    #[test]
    fn deadlines_follow_the_clock_then_the_move_time_then_the_hang_timeout() {
        let referee = Referee {
            rules: Rules::default(),
            rule_settings: vec![],
            margin_ms: 100,
            start_timeout: Duration::from_secs(5),
            hang_timeout: Duration::from_secs(5),
            max_plies: None,
        };
        let now = Instant::now();
        let limits = EngineLimits {
            movetime: Some(300),
            ..EngineLimits::default()
        };
        let d = deadline(limits, Some(200), now, &referee);
        assert_eq!(
            (d.allowed_ms, d.at - now),
            (Some(200), Duration::from_millis(300))
        );
        let d = deadline(limits, None, now, &referee);
        assert_eq!(
            (d.allowed_ms, d.at - now),
            (Some(300), Duration::from_millis(400))
        );
        let d = deadline(EngineLimits::default(), None, now, &referee);
        assert_eq!((d.allowed_ms, d.at - now), (None, Duration::from_secs(5)));
        let far = later(now, Duration::from_millis(u64::MAX));
        assert!(far > now);
    }

    #[test]
    fn faults_lose_for_the_faulty_side() {
        let t = Termination::Crash {
            side: Side::Blue,
            detail: "exited".into(),
        };
        assert_eq!(
            (t.winner(), t.score_text(), t.kind()),
            (Some(Side::Red), "1-0", TerminationKind::Crash)
        );
        let t = Termination::TimeForfeit {
            side: Side::Red,
            used_ms: 5,
            allowed_ms: 4,
            reported_ms: Some(3),
        };
        assert_eq!((t.winner(), t.score_text()), (Some(Side::Blue), "0-1"));
        assert!(t.to_string().contains("its last info said 3 ms"), "{t}");
        let t = Termination::BothFailedToStart { detail: "x".into() };
        assert_eq!(
            (t.winner(), t.faulty(), t.score_text()),
            (None, None, "1/2-1/2")
        );
        assert_eq!(Termination::MaxPlies(9).score_text(), "1/2-1/2");
    }
}
