//! The protocol loop: reads commands, drives the [`Engine`], writes answers.
//! It never waits on a search: searches run on their own thread and print
//! through [`Output`], which writes whole lines, flushed, one at a time.

use super::command::{Command, LenientLine};
use super::error::ParseError;
use super::reply::{IdLine, InfoLine, OptionLine, Reply};
use crate::engine::bench::BenchError;
use crate::engine::score::{Score, ScoreBound, wdl};
use crate::engine::search::{Listener, SearchInfo, SearchResult};
use crate::engine::{Engine, GoError, GoLimits, option};
use crate::rules::{Move, Outcome, perft_divide_until};
use crate::util::lines::{CappedLine, read_line_capped};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// The most characters of a net's description `eval` shows.
const DESCRIPTION_SHOWN: usize = 400;

/// What `help` prints, one `info string` line each: the commands a person
/// at a terminal can type (protocol.md has the rest).
const HELP: [&str; 9] = [
    "commands (protocol.md has them all):",
    "uci: identify and list the options; isready: answer readyok",
    "setoption name <name> value <value>: set an option (see uci)",
    "position startpos|fen <fen> [moves <m1> ...]: set the position",
    "go [depth N|movetime MS|nodes N|infinite|wtime..]: search; stop: end it",
    "d: draw the board; eval: the evaluation; moves: the legal moves",
    "go perft <depth>: count leaves; bench [depth]: the fixed bench search",
    "ucinewgame: clear the table; debug on|off: echo each line read",
    "quit: leave",
];

/// The longest line read; longer lines are skipped with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Protocol output: each line is written whole and flushed, whichever thread
/// writes it.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    /// Output to `sink` (stdout in the program; a buffer in tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
        }
    }

    /// Writes one line. A closed stdout (the GUI went away) is not an error
    /// worth dying for: the loop ends at end of input.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }

    /// `info string error: ...`. Control characters quoted from the input are
    /// escaped, so that no stray byte reaches the GUI.
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {}", printable(text)));
    }
}

/// `text` with its control characters escaped: input quoted on stdout.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The `info ...` line of a search report.
pub fn info_line(info: &SearchInfo, show_wdl: bool) -> InfoLine {
    InfoLine {
        depth: Some(info.depth.max(0) as u32),
        seldepth: Some(info.seldepth.max(0) as u32),
        multipv: Some(info.multipv as u32),
        score: Some(Score::from_internal(info.score)),
        bound: ScoreBound::Exact,
        wdl: show_wdl.then(|| wdl(info.score)),
        nodes: Some(info.nodes),
        nps: Some(info.nodes * 1000 / info.time_ms.max(1)),
        time: Some(info.time_ms),
        hashfull: Some(info.hashfull),
        tbhits: (info.tbhits > 0).then_some(info.tbhits),
        pv: Some(info.pv.clone()),
        ..InfoLine::default()
    }
}

/// Prints a search's progress as `info` lines.
struct UciListener {
    out: Arc<Output>,
    show_wdl: bool,
}

impl Listener for UciListener {
    fn info(&self, info: &SearchInfo) {
        self.out.line(&info_line(info, self.show_wdl).to_string());
    }

    fn message(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }
}

/// Prints the end of a search: a final `info` line, then `bestmove`.
fn report_result(out: &Output, result: &SearchResult, show_wdl: bool) {
    if let Some(outcome) = result.outcome {
        out.line(&format!("info string game over: {outcome}"));
        let score = match outcome {
            Outcome::Draw(_) => "cp 0",
            _ => "mate 0",
        };
        out.line(&format!("info depth 0 score {score}"));
        out.line("bestmove 0000");
        return;
    }
    if result.best_move.is_null() {
        out.line("info string no legal move to search");
        out.line("info depth 0 score mate 0");
        out.line("bestmove 0000");
        return;
    }
    let info = SearchInfo {
        depth: result.depth,
        seldepth: result.seldepth,
        multipv: 1,
        score: result.score,
        nodes: result.nodes,
        time_ms: result.time_ms,
        hashfull: result.hashfull,
        pv: if result.pv.is_empty() {
            vec![result.best_move]
        } else {
            result.pv.clone()
        },
        tbhits: result.tbhits,
    };
    out.line(&info_line(&info, show_wdl).to_string());
    out.line(
        &Reply::BestMove {
            best: result.best_move,
            ponder: result.ponder_move,
        }
        .to_string(),
    );
}

/// The protocol session: the engine and where answers go.
pub struct Session {
    engine: Engine,
    out: Arc<Output>,
    debug: bool,
}

/// Whether the loop goes on after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was read: the loop reads no more lines.
    Quit,
}

impl Session {
    /// A session writing to `out`.
    pub fn new(out: Arc<Output>) -> Session {
        Session {
            engine: Engine::new(),
            out,
            debug: false,
        }
    }

    /// Reads lines from `input` until `quit` or end of input. Lines are split on
    /// `\n` (a trailing `\r` is dropped); bytes that are not UTF-8 make the line
    /// an unknown command; lines over [`MAX_LINE`] bytes are skipped with an error.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut line = Vec::new();
        loop {
            match read_line_capped(&mut input, &mut line, MAX_LINE) {
                Ok(None) => break,
                Ok(Some(CappedLine::Cut)) => {
                    self.out
                        .error(&format!("line longer than {MAX_LINE} bytes skipped"));
                    continue;
                }
                Ok(Some(CappedLine::Whole)) => {}
                Err(e) => {
                    log::error!("reading input: {e}");
                    break;
                }
            }
            let text = String::from_utf8_lossy(&line);
            if self.handle_line(&text) == Flow::Quit {
                break;
            }
        }
        self.engine.stop();
        self.engine.wait();
    }

    /// Handles one line of input. As UCI asks, unknown words before the
    /// command and extra words after a command that takes none are skipped (and
    /// reported); the command still runs.
    pub fn handle_line(&mut self, text: &str) -> Flow {
        let text = text.trim();
        if text.is_empty() {
            return Flow::Continue;
        }
        if self.debug {
            self.out.line(&format!(
                "info string debug: received '{}'",
                printable(text)
            ));
        }
        match text.parse::<LenientLine>() {
            Ok(LenientLine { command, ignored }) => {
                for skipped in ignored {
                    self.out.error(&format!("{skipped}; ignored"));
                }
                self.handle(command)
            }
            Err(e) => {
                self.refuse(&e);
                Flow::Continue
            }
        }
    }

    /// Answers a line that is not a command. A bad `position` leaves no
    /// position (the GUI's was not received: playing from the one before
    /// would answer a question nobody asked); a GUI waits for `bestmove` after
    /// any `go`: it never hangs.
    fn refuse(&mut self, e: &ParseError) {
        match e.head() {
            Some("position") => {
                self.engine.set_game(None);
                self.out
                    .error(&format!("{e}; no position until a valid one"));
            }
            // A running search answers its own `go`: a second `bestmove`
            // would be paired with it by the GUI.
            Some("go") if self.engine.is_searching() => self.out.error(&e.to_string()),
            Some("go") => {
                self.out.error(&e.to_string());
                self.out.line("bestmove 0000");
            }
            _ => self.out.error(&e.to_string()),
        }
    }

    fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.identify(),
            Command::IsReady => self.out.line(&Reply::ReadyOk.to_string()),
            Command::Debug(on) => self.debug = on,
            Command::Register => log::debug!("register: nothing to register, ignored"),
            Command::SetOption { name, value } => {
                let had_position = self.engine.game().is_some();
                let warned = self.engine.eval_warning();
                if let Err(e) = self.engine.set_option(&name, value.as_deref()) {
                    self.out.error(&e.to_string());
                } else if had_position && self.engine.game().is_none() {
                    self.out
                        .error("the game's moves are not legal under the new rules; no position");
                }
                // A net chosen for rules it was not made for is said on the
                // protocol too (`docs/nnue.md`); a rule change is only logged
                // (stderr), as the built-in net cannot know every switch.
                if name.trim().eq_ignore_ascii_case(option::EVAL_FILE)
                    && let Some(warning) = self.engine.eval_warning()
                    && warned.as_ref() != Some(&warning)
                {
                    self.out.line(&format!("info string warning: {warning}"));
                }
            }
            Command::NewGame => self.engine.new_game(),
            Command::Position { fen, moves } => {
                if let Err(e) = self.engine.set_position(&fen, &moves) {
                    self.out
                        .error(&format!("{e}; no position until a valid one"));
                }
            }
            Command::Go(limits) => self.go(limits),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Moves => self.moves(),
            Command::Bench(depth) => self.bench(depth),
            Command::Help => {
                for line in HELP {
                    self.out.line(&format!("info string {line}"));
                }
            }
        }
        Flow::Continue
    }

    /// The bench runs on the search thread like a search: `isready` is answered
    /// meanwhile and `stop` ends it. It leaves the position alone.
    fn bench(&mut self, depth: Option<u32>) {
        let out = Arc::clone(&self.out);
        let rules = *self.engine.rules();
        self.engine
            .run_in_background(false, move |threads, control| {
                let depth = depth.map(|d| d as i32);
                match crate::engine::bench::run(threads, rules, depth, control, |l| out.line(l)) {
                    Ok(_) => {}
                    Err(why @ BenchError::Stopped(_)) => out.line(&format!("info string {why}")),
                    Err(why) => out.error(&why.to_string()),
                }
            });
    }

    fn identify(&self) {
        let name = format!("doushou {}", env!("CARGO_PKG_VERSION"));
        self.out.line(&Reply::Id(IdLine::Name(name)).to_string());
        let author = IdLine::Author("the doushou developers".into());
        self.out.line(&Reply::Id(author).to_string());
        for (name, kind) in Engine::option_list() {
            self.out
                .line(&Reply::Option(OptionLine::of(name, &kind)).to_string());
        }
        self.out.line(&Reply::UciOk.to_string());
    }

    fn go(&mut self, limits: GoLimits) {
        if let Some(game) = self.engine.game() {
            let legal = game.legal_moves();
            if let Some(bad) = limits.searchmoves.iter().find(|m| !legal.contains(m)) {
                self.out
                    .error(&format!("searchmoves: {bad} is not a legal move here"));
                if !self.engine.is_searching() {
                    self.out.line("bestmove 0000");
                }
                return;
            }
        }
        let show_wdl = self.engine.options().show_wdl;
        let listener = Arc::new(UciListener {
            out: Arc::clone(&self.out),
            show_wdl,
        });
        let out = Arc::clone(&self.out);
        let on_done = Box::new(move |result: SearchResult| report_result(&out, &result, show_wdl));
        let held = limits.clone();
        if let Err(GoError::NoPosition) = self.engine.go(limits, listener, on_done) {
            // Said at once; the `bestmove` when the GUI expects it, as a
            // finished game's.
            self.out.error("no valid position");
            let out = Arc::clone(&self.out);
            self.engine
                .answer_unsearched(&held, move || out.line("bestmove 0000"));
        }
    }

    /// Perft runs on the search thread like a search: `isready` is answered
    /// meanwhile and `stop` ends it (without a count).
    fn perft(&mut self, depth: u32) {
        let Some(game) = self.engine.game().cloned() else {
            self.out.error("no valid position");
            return;
        };
        let threads = self.engine.options().threads;
        let out = Arc::clone(&self.out);
        self.engine.run_in_background(false, move |_, control| {
            let Some(report) = perft_divide_until(&game, depth, threads, control.stop_flag())
            else {
                out.line("info string perft stopped");
                return;
            };
            for (m, n) in &report.divide {
                out.line(&format!("{m}: {n}"));
            }
            out.line(&format!("Nodes searched: {}", report.nodes));
        });
    }

    fn display(&self) {
        let Some(game) = self.engine.game() else {
            self.out.error("no valid position");
            return;
        };
        let pos = game.position();
        for row in pos.to_string().lines() {
            self.out.line(row);
        }
        self.out.line(&format!("Fen: {}", pos.fen()));
        self.out.line(&format!("Key: {:016X}", pos.key()));
        self.out
            .line(&format!("Side to move: {}", pos.side_to_move()));
        let state = match game.outcome() {
            Some(o) => format!("over, {o}"),
            None => "in play".to_string(),
        };
        self.out.line(&format!("State: {state}"));
        self.out.line(&format!("Rules: {}", self.engine.rules()));
    }

    fn eval(&self) {
        let Some(eval) = self.engine.eval_terms() else {
            self.out.error("no valid position");
            return;
        };
        let side = eval.side_to_move;
        match &eval.net {
            Some(description) => {
                // The description comes from a file: keep its control bytes off
                // stdout, and its length to a line (older nets list every data file).
                let mut about: String = description.chars().filter(|c| !c.is_control()).collect();
                if let Some((cut, _)) = about.char_indices().nth(DESCRIPTION_SHOWN) {
                    about.truncate(cut);
                    about.push_str(" ...");
                }
                self.out.line(&format!(
                    "Evaluation for {side} to move, in centipawns, by the net ({about}):"
                ));
            }
            None => self
                .out
                .line(&format!("Evaluation for {side} to move, in centipawns:")),
        }
        if let Some(warning) = self.engine.eval_warning() {
            self.out.line(&format!("warning: {warning}"));
        }
        for (term, v) in &eval.terms {
            self.out.line(&format!("{term:>18} {v:>7}"));
        }
        self.out.line(&format!("{:>18} {:>7}", "total", eval.total));
    }

    fn moves(&self) {
        let Some(game) = self.engine.game() else {
            self.out.error("no valid position");
            return;
        };
        // A finished game (drawn ones too) has no moves left to play.
        let moves: Vec<String> = if game.outcome().is_some() {
            Vec::new()
        } else {
            game.legal_moves().iter().map(Move::to_string).collect()
        };
        self.out
            .line(format!("moves {}", moves.join(" ")).trim_end());
    }
}

/// Runs the protocol on stdin and stdout until `quit` or end of input.
pub fn run_stdio() {
    let out = Arc::new(Output::new(Box::new(std::io::stdout())));
    let mut session = Session::new(out);
    session.run(std::io::stdin().lock());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocol_loops_info_lines_round_trip() {
        use crate::engine::score::MATE;
        use crate::engine::search::SearchInfo;
        for (score, wdl) in [
            (35, false),
            (-120, true),
            (MATE - 5, true),
            (-MATE + 2, false),
        ] {
            let info = SearchInfo {
                depth: 9,
                seldepth: 14,
                multipv: 1,
                score,
                nodes: 123_456,
                time_ms: 78,
                hashfull: 12,
                pv: vec!["g3g4".parse().unwrap(), "a7a6".parse().unwrap()],
                tbhits: if wdl { 7 } else { 0 },
            };
            let line = info_line(&info, wdl).to_string();
            let reply: Reply = line
                .parse()
                .unwrap_or_else(|e| panic!("{line:?} did not parse: {e}"));
            assert_eq!(reply.to_string(), line, "display of {reply:?}");
        }
    }
}
