//! One engine process, started with `std::process`, spoken to through its
//! pipes. A reader thread per pipe turns the engine's output into lines on a
//! channel, so that every wait has a deadline (`recv_timeout`) and a hung
//! engine never hangs the match runner or the GUI.

use crate::protocol::reply::{IdLine, OptionLine, Reply};
use crate::util::lines::{CappedLine, read_line_capped};
use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::spec::EngineSpec;

/// The longest line kept from an engine; the rest of a longer line is dropped
/// (a garbage-spewing engine must not eat the runner's memory).
pub const MAX_LINE: usize = 64 * 1024;

/// How many of the engine's last standard-error lines are kept for messages.
const STDERR_TAIL: usize = 8;

/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How long the stderr reader of an engine that has gone gets to read its last
/// words. Its pipe closes when the process ends, so this is waited out only
/// when the engine left children holding the pipe open.
const STDERR_DRAIN: Duration = Duration::from_millis(500);

/// Lines read ahead of the game thread at most: an engine flooding its output
/// then waits on its pipe instead of filling the runner's memory.
const LINES_AHEAD: usize = 1024;

/// How often a wait for an engine looks whether the user interrupted the runner.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// Set when the user interrupts the runner (Ctrl-C): every wait for an engine
/// then ends at once with [`ClientError::Interrupted`]. Process-wide, as the
/// signal is.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ends every wait for an engine, now and later, in this process.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// One line from the engine, with the moment the reader thread read it (the
/// referee's clock stops then, however late the game thread looks at it).
#[derive(Clone, Debug)]
pub struct Line {
    /// The text, without the line end; bytes that are not UTF-8 are replaced.
    pub text: String,
    /// When it was read.
    pub at: Instant,
}

/// Lines an engine wrote, in order, as text.
pub type Replies = Vec<String>;

enum PipeEvent {
    Line(Line),
    /// Standard output closed: the process ended or closed it.
    Eof,
}

/// What went wrong with an engine process.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("cannot start: {0}")]
    Spawn(#[source] std::io::Error),
    /// The engine stopped (its output closed or its input broke).
    #[error("{}{}", exit_text(status), stderr_text(stderr))]
    Exited {
        /// How it ended, if it has (a crash shows a signal or an error code).
        status: Option<ExitStatus>,
        /// Its last lines on standard error.
        stderr: Vec<String>,
    },
    /// No expected answer before the deadline.
    #[error("no {waiting_for} within {waited_ms} ms")]
    Timeout {
        /// What the runner waited for.
        waiting_for: &'static str,
        /// How long it waited, ms.
        waited_ms: u64,
    },
    /// The user interrupted the runner while it waited.
    #[error("interrupted by the user")]
    Interrupted,
    /// An option to set is not among those the engine announced.
    #[error("it has no option '{0}' (its `uci` does not list it)")]
    UnknownOption(String),
    /// The engine answered the setting of an option with an error.
    #[error("option '{name}' refused: {reply}")]
    OptionRefused {
        /// The option's name, as the engine's `option` line spells it.
        name: String,
        /// The engine's error line.
        reply: String,
    },
}

/// How an engine that has gone ended, for [`ClientError::Exited`].
fn exit_text(status: &Option<ExitStatus>) -> String {
    match status {
        Some(s) => format!("exited ({s})"),
        None => "closed its output".to_string(),
    }
}

/// An engine's last words on stderr, for [`ClientError::Exited`].
fn stderr_text(stderr: &[String]) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; its last words on stderr: {}", stderr.join(" | "))
    }
}

/// The `position` command of the game from `fen` after `moves`.
pub fn position_command<S: AsRef<str>>(fen: &str, moves: &[S]) -> String {
    let mut line = format!("position fen {fen}");
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in moves {
            line.push(' ');
            line.push_str(m.as_ref());
        }
    }
    line
}

/// `start + wait`, or a far future if that would overflow the clock.
pub fn later(start: Instant, wait: Duration) -> Instant {
    start
        .checked_add(wait)
        .or_else(|| start.checked_add(Duration::from_secs(365 * 24 * 3600)))
        .unwrap_or(start)
}

/// A running engine: its process, and reader threads that turn its output into lines to wait for with deadlines.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<PipeEvent>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Hangs up when the stderr reader has read everything and ended.
    stderr_done: Receiver<()>,
    /// The stderr reader, joined once it has ended.
    stderr_reader: Option<thread::JoinHandle<()>>,
    /// Set once the output has closed: every later read fails at once.
    closed: bool,
    /// `id name` from the handshake.
    pub id_name: Option<String>,
    /// The options the engine announced.
    pub options: Vec<OptionLine>,
}

/// Reads `input` line by line into `sink` until end of input or until `sink`
/// answers false. Long lines are cut at [`MAX_LINE`] bytes; a trailing `\r` is
/// dropped, even from the kept part of a cut line. A read error ends the input,
/// after the part of a line read before it.
fn pump_lines(input: impl Read, mut sink: impl FnMut(Line) -> bool) {
    let mut input = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        let read = read_line_capped(&mut input, &mut buf, MAX_LINE);
        let ended = match read {
            Ok(Some(_)) => false,
            Ok(None) => return,
            // What an error broke off is still a line if anything was read:
            // the reader leaves it in the buffer.
            Err(_) if buf.is_empty() => return,
            Err(_) => true,
        };
        // The shared reader keeps the `\r` of a cut line and of a line broken
        // off by an error; the engine's lines never kept it.
        if !matches!(read, Ok(Some(CappedLine::Whole))) && buf.last() == Some(&b'\r') {
            buf.pop();
        }
        let line = Line {
            text: String::from_utf8_lossy(&buf).into_owned(),
            at: Instant::now(),
        };
        if !sink(line) || ended {
            return;
        }
    }
}

impl EngineProcess {
    /// Starts the engine of `spec` with piped input and output. Nothing is said
    /// to it yet.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, ClientError> {
        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(ClientError::Spawn)?;
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr)) = (stdin, stdout, stderr) else {
            // Cannot happen with piped stdio; still, never leave the child behind.
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Spawn(std::io::Error::other("no pipes")));
        };
        let (tx, lines) = sync_channel(LINES_AHEAD);
        // The reader threads end when the pipes close, which killing the process
        // guarantees, unless it left children holding them: so they are never
        // joined without a deadline, which could hang the runner.
        let spawned = thread::Builder::new()
            .name(format!("{}-stdout", spec.name))
            .spawn(move || {
                pump_lines(stdout, |line| tx.send(PipeEvent::Line(line)).is_ok());
                let _ = tx.send(PipeEvent::Eof);
            });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let (stderr_hangup, stderr_done) = channel::<()>();
        let spawned_err = thread::Builder::new()
            .name(format!("{}-stderr", spec.name))
            .spawn(move || {
                // Dropped when the reader ends: its receiver then sees a hang-up.
                let _hangup = stderr_hangup;
                pump_lines(stderr, |line| {
                    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                    if tail.len() == STDERR_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(line.text.chars().take(200).collect());
                    true
                })
            });
        let mut process = EngineProcess {
            child,
            stdin: Some(stdin),
            lines,
            stderr_tail,
            stderr_done,
            stderr_reader: None,
            closed: false,
            id_name: None,
            options: Vec::new(),
        };
        match spawned.and(spawned_err) {
            Ok(reader) => process.stderr_reader = Some(reader),
            Err(e) => {
                process.shutdown();
                return Err(ClientError::Spawn(e));
            }
        }
        Ok(process)
    }

    /// The engine's last lines on standard error.
    pub fn stderr_tail(&self) -> Vec<String> {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect()
    }

    /// The error for an engine that has gone: its exit status (waiting a moment
    /// for it, as the output closes just before the process is reaped) and stderr.
    fn exited(&mut self) -> ClientError {
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => break None,
            }
        };
        self.drain_stderr();
        ClientError::Exited {
            status,
            stderr: self.stderr_tail(),
        }
    }

    /// Waits, until [`STDERR_DRAIN`] at most, for the stderr reader to read the
    /// last words of an engine that has gone, and joins it if it has ended.
    fn drain_stderr(&mut self) {
        if self.stderr_reader.is_none() {
            return;
        }
        match self.stderr_done.recv_timeout(STDERR_DRAIN) {
            // Nothing is ever sent: a hang-up is the reader's end.
            Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                if let Some(reader) = self.stderr_reader.take() {
                    let _ = reader.join();
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                log::debug!("the stderr reader is still reading: a child holds the pipe?");
            }
        }
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        log::debug!("> {line}");
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited());
        };
        let ok = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        if ok.is_err() {
            self.stdin = None;
            return Err(self.exited());
        }
        Ok(())
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        since: Instant,
    ) -> Result<Line, ClientError> {
        if self.closed {
            return Err(self.exited());
        }
        let received = loop {
            if interrupted() {
                return Err(ClientError::Interrupted);
            }
            let timeout = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(timeout.min(INTERRUPT_POLL)) {
                Err(RecvTimeoutError::Timeout)
                    if !timeout.is_zero() && Instant::now() < deadline => {}
                other => break other,
            }
        };
        match received {
            Ok(PipeEvent::Line(line)) => {
                log::debug!("< {}", line.text);
                Ok(line)
            }
            Ok(PipeEvent::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.exited())
            }
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                waiting_for,
                waited_ms: since.elapsed().as_millis() as u64,
            }),
        }
    }

    /// `uci` … `uciok`: records the name and the options announced. Lines that
    /// are not replies are skipped, as UCI asks of GUIs.
    pub fn handshake(&mut self, timeout: Duration) -> Result<(), ClientError> {
        let start = Instant::now();
        self.send("uci")?;
        loop {
            let line = self.recv(later(start, timeout), "uciok", start)?;
            match line.text.parse::<Reply>() {
                Ok(Reply::UciOk) => return Ok(()),
                Ok(Reply::Id(IdLine::Name(name))) => self.id_name = Some(name),
                Ok(Reply::Option(option)) => self.options.push(option),
                _ => {}
            }
        }
    }

    /// Whether the engine announced an option of this name (any case).
    pub fn has_option(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` … `readyok`, skipping anything else.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.sync_lines(timeout).map(drop)
    }

    /// `isready` … `readyok`: answers the lines the engine wrote before
    /// `readyok` (the replies to what was sent before `isready`).
    pub fn sync_lines(&mut self, timeout: Duration) -> Result<Replies, ClientError> {
        let start = Instant::now();
        self.send("isready")?;
        let mut before = Vec::new();
        loop {
            let line = self.recv(later(start, timeout), "readyok", start)?;
            if line.text.parse::<Reply>() == Ok(Reply::ReadyOk) {
                return Ok(before);
            }
            before.push(line.text);
        }
    }

    /// Sets an option the engine announced, and reads its answer: an
    /// `info string error` line (protocol.md) is a refusal. For checks before
    /// play: each costs a round trip.
    pub fn set_option_checked(
        &mut self,
        name: &str,
        value: &str,
        timeout: Duration,
    ) -> Result<(), ClientError> {
        if !self.has_option(name) {
            return Err(ClientError::UnknownOption(name.to_string()));
        }
        self.set_option(name, value)?;
        match self.sync_refusal(timeout)? {
            Some(reply) => Err(ClientError::OptionRefused {
                name: name.to_string(),
                reply,
            }),
            None => Ok(()),
        }
    }

    /// `isready` … `readyok`: the first `info string error` line (protocol.md)
    /// the engine wrote before `readyok`, a refusal of something sent before.
    pub fn sync_refusal(&mut self, timeout: Duration) -> Result<Option<String>, ClientError> {
        Ok(self
            .sync_lines(timeout)?
            .into_iter()
            .find(|l| l.trim_start().starts_with("info string error")))
    }

    /// Ends the process: `quit`, a moment's grace, then a kill; always reaped,
    /// so no zombie is left. Safe to call twice.
    pub fn shutdown(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            self.stdin = None;
            return;
        }
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
            // Dropping stdin closes it: end of input is `quit` too.
        }
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pumped(input: impl Read) -> Vec<String> {
        let mut lines = Vec::new();
        pump_lines(input, |line| {
            lines.push(line.text);
            true
        });
        lines
    }

    #[test]
    fn a_long_line_is_cut_and_loses_a_return_at_the_cut() {
        let mut input = vec![b'x'; MAX_LINE - 1];
        input.extend_from_slice(b"\rmore\r\nok\r\nlast");
        let lines = pumped(&input[..]);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "x".repeat(MAX_LINE - 1));
        assert_eq!(lines[1..], ["ok", "last"]);
    }

    /// Gives `abc\r`, then fails.
    struct BrokenPipe(bool);

    impl Read for BrokenPipe {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                return Err(std::io::Error::other("broken"));
            }
            buf[..4].copy_from_slice(b"abc\r");
            Ok(4)
        }
    }

    #[test]
    fn a_read_error_ends_the_input_after_the_part_line_before_it() {
        assert_eq!(pumped(BrokenPipe(false)), ["abc"]);
    }
}
