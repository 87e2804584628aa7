//! One engine process per thread, driven through the match runner's client
//! ([`EngineProcess`]): the game sends requests on a channel and gets the
//! engine's answers back through a callback, so that no HTTP request ever
//! waits on an engine and a crashed or hung engine only costs an error message.

use super::limits::{Slot, Slots};
use crate::client::EngineSpec;
use crate::client::{ClientError, EngineProcess};
use crate::protocol::ParseError;
use crate::protocol::reply::{InfoLine, OptionLine, Reply};
use crate::rules::Move;
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine gets for the handshake and for `isready`.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a stopped search may take to answer its `bestmove`.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a searching engine's thread looks for new requests.
const POLL: Duration = Duration::from_millis(40);

/// What the game asks of an engine.
#[derive(Debug)]
pub enum Request {
    /// Set options (those that changed since last sent), then search.
    Search {
        /// Tags the answers, so that the game can drop stale ones.
        generation: u64,
        /// Options to be in force, `(name, value)`.
        options: Vec<(String, String)>,
        /// The `position ...` line.
        position: String,
        /// The `go ...` line.
        go: String,
        /// How long the search may take before the engine counts as hung
        /// (`None`: until stopped).
        hang_after: Option<Duration>,
    },
    /// Set options now (those that changed), confirmed by `isready`.
    Configure(Vec<(String, String)>),
    /// End the running search, if any; its `bestmove` is still reported.
    Stop,
}

/// What an engine said or did.
#[derive(Debug)]
pub enum EngineEvent {
    /// An `info` line of the search of this generation.
    Info(u64, InfoLine),
    /// The `bestmove` of the search of this generation.
    BestMove(u64, Move),
    /// The engine acknowledged (`readyok`) every option it was sent so far.
    Configured(Vec<(String, String)>),
    /// The engine failed (would not start, crashed, hung); the process is gone
    /// and the next request starts a new one.
    Failed(EngineFailure),
}

/// Why an engine failed, as the game shows it: named.
#[derive(Debug, thiserror::Error)]
pub enum EngineFailure {
    /// It has no process to speak to, or lost it.
    #[error("engine {name}: {error}")]
    Seat {
        /// The engine's name.
        name: String,
        /// What happened.
        #[source]
        error: SeatError,
    },
    /// Its `bestmove` did not read.
    #[error("engine {name} answered an unreadable move ({error})")]
    UnreadableMove {
        /// The engine's name.
        name: String,
        /// Why the line did not read.
        #[source]
        error: ParseError,
    },
}

/// Why an engine thread has no engine to speak to.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// The engine failed: would not start, crashed, hung, said nonsense.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The server runs as many engine processes as it starts at most.
    #[error(
        "{0} engine processes run already, the most this server starts; close another game or stop its analysis"
    )]
    TooMany(usize),
}

/// The options each engine announces in its answer to `uci`, by engine
/// name, learnt once for every game: from the first of its processes that
/// starts, or by a start of its own when a level must be checked before.
#[derive(Clone, Debug, Default)]
pub struct Announced(Arc<Mutex<HashMap<String, Learnt>>>);

/// What was learnt of one engine's options: `None` when it would not start.
type Learnt = Option<Arc<Vec<OptionLine>>>;

impl Announced {
    /// What the engine `name` announced; `None` until it is learnt, or
    /// when it could not be.
    pub fn of(&self, name: &str) -> Option<Arc<Vec<OptionLine>>> {
        self.lock().get(name).cloned().flatten()
    }

    /// Starts the engine of `spec`, if one of `slots` is free, to learn its
    /// options, unless they were learnt (or could not be) before. An engine
    /// that does not start leaves them unknown: it says why when it is to
    /// move.
    pub fn learn(&self, spec: &EngineSpec, slots: &Slots) {
        if self.lock().contains_key(&spec.name) {
            return;
        }
        let Some(_slot) = slots.take() else {
            return;
        };
        let started = EngineProcess::spawn(spec).and_then(|mut process| {
            process.handshake(ANSWER_TIMEOUT)?;
            Ok(process)
        });
        match started {
            Ok(mut process) => {
                self.record(&spec.name, &process.options);
                process.shutdown();
            }
            Err(e) => {
                log::warn!("engine {}: {e}; its levels are not checked", spec.name);
                self.lock().insert(spec.name.clone(), None);
            }
        }
    }

    /// Keeps what the engine `name` announced.
    fn record(&self, name: &str, options: &[OptionLine]) {
        let options = Some(Arc::new(options.to_vec()));
        self.lock().insert(name.to_string(), options);
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Learnt>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The game's end of one engine thread. Dropping it ends the thread and
/// the process.
pub struct EngineHandle {
    requests: Sender<Request>,
}

impl EngineHandle {
    /// Starts the thread of the engine `spec`; the process itself starts with
    /// the first request, if one of `slots` is free, and its options go to
    /// `announced`. Every answer goes to `sink`.
    pub fn start(
        spec: EngineSpec,
        slots: Slots,
        announced: Announced,
        sink: impl Fn(EngineEvent) + Send + 'static,
    ) -> EngineHandle {
        let (requests, inbox) = channel();
        let name = format!("gui-{}", spec.name);
        let worker = EngineThread {
            spec,
            process: None,
            slots,
            slot: None,
            announced,
            sent: HashMap::new(),
            searching: None,
            sink: Box::new(sink),
        };
        if let Err(e) = thread::Builder::new()
            .name(name)
            .spawn(move || worker.run(inbox))
        {
            log::error!("cannot start an engine thread: {e}");
        }
        EngineHandle { requests }
    }

    /// Queues a request (a thread that has ended ignores it).
    pub fn send(&self, request: Request) {
        let _ = self.requests.send(request);
    }
}

/// A search in progress.
struct Searching {
    generation: u64,
    /// When the engine counts as hung, if ever.
    deadline: Option<Instant>,
    started: Instant,
}

struct EngineThread {
    spec: EngineSpec,
    process: Option<EngineProcess>,
    /// The engine processes the server may run.
    slots: Slots,
    /// The slot of `process`, held while it runs.
    slot: Option<Slot>,
    /// Where the options it announces go.
    announced: Announced,
    /// Options sent to the running process, by lowercase name.
    sent: HashMap<String, (String, String)>,
    searching: Option<Searching>,
    sink: Box<dyn Fn(EngineEvent) + Send>,
}

impl EngineThread {
    fn run(mut self, inbox: Receiver<Request>) {
        loop {
            let request = if self.searching.is_some() {
                match inbox.try_recv() {
                    Ok(r) => Some(r),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => break,
                }
            } else {
                match inbox.recv() {
                    Ok(r) => Some(r),
                    Err(_) => break,
                }
            };
            match request {
                Some(request) => self.handle(request),
                None => self.read_search_output(),
            }
        }
        if let Some(mut process) = self.process.take() {
            process.shutdown();
        }
        self.slot = None;
    }

    fn handle(&mut self, request: Request) {
        let result = match request {
            Request::Stop => self.stop(false),
            Request::Configure(options) => self.stop(true).and_then(|()| self.configure(&options)),
            Request::Search {
                generation,
                options,
                position,
                go,
                hang_after,
            } => self
                .stop(true)
                .and_then(|()| self.configure(&options))
                .and_then(|()| self.search(generation, &position, &go, hang_after)),
        };
        if let Err(e) = result {
            self.fail(e);
        }
    }

    /// The process, started (and through its handshake) if need be.
    fn process(&mut self) -> Result<&mut EngineProcess, SeatError> {
        if self.process.is_none() {
            let slot = self
                .slots
                .take()
                .ok_or(SeatError::TooMany(self.slots.max()))?;
            let mut process = EngineProcess::spawn(&self.spec)?;
            process.handshake(ANSWER_TIMEOUT)?;
            self.announced.record(&self.spec.name, &process.options);
            log::info!(
                "gui: engine {} started ({})",
                self.spec.name,
                process.id_name.as_deref().unwrap_or("no name")
            );
            self.sent.clear();
            self.process = Some(process);
            self.slot = Some(slot);
        }
        Ok(self.process.as_mut().expect("just started"))
    }

    /// Sends `stop` to a running search; with `wait`, reads up to its
    /// `bestmove` (reporting it) so that the engine is idle afterwards.
    fn stop(&mut self, wait: bool) -> Result<(), SeatError> {
        if self.searching.is_none() {
            return Ok(());
        }
        if let Some(process) = self.process.as_mut() {
            process.send("stop")?;
        }
        if !wait {
            // The search ends when its bestmove arrives; a hang still counts.
            if let Some(s) = self.searching.as_mut() {
                let soon = Instant::now() + STOP_TIMEOUT;
                s.deadline = Some(s.deadline.map_or(soon, |d| d.min(soon)));
            }
            return Ok(());
        }
        let start = Instant::now();
        while self.searching.is_some() {
            let process = self.process.as_mut().expect("searching with a process");
            let line = process.recv(start + STOP_TIMEOUT, "bestmove after stop", start)?;
            self.take_line(&line.text);
        }
        Ok(())
    }

    fn configure(&mut self, options: &[(String, String)]) -> Result<(), SeatError> {
        self.process()?;
        let mut changed = Vec::new();
        for (name, value) in options {
            let key = name.to_ascii_lowercase();
            if self.sent.get(&key).map(|(_, v)| v) != Some(value) {
                changed.push((key, name.clone(), value.clone()));
            }
        }
        if changed.is_empty() {
            return Ok(());
        }
        let process = self.process.as_mut().expect("started above");
        for (_, name, value) in &changed {
            process.set_option(name, value)?;
        }
        process.sync(ANSWER_TIMEOUT)?;
        for (key, name, value) in changed {
            self.sent.insert(key, (name, value));
        }
        let mut confirmed: Vec<(String, String)> = self.sent.values().cloned().collect();
        confirmed.sort();
        (self.sink)(EngineEvent::Configured(confirmed));
        Ok(())
    }

    fn search(
        &mut self,
        generation: u64,
        position: &str,
        go: &str,
        hang_after: Option<Duration>,
    ) -> Result<(), SeatError> {
        let process = self.process()?;
        process.send(position)?;
        process.send(go)?;
        let started = Instant::now();
        self.searching = Some(Searching {
            generation,
            deadline: hang_after.map(|d| started + d),
            started,
        });
        Ok(())
    }

    /// Waits a moment for the searching engine's next line.
    fn read_search_output(&mut self) {
        let Some((deadline, started)) = self.searching.as_ref().map(|s| (s.deadline, s.started))
        else {
            return;
        };
        let Some(process) = self.process.as_mut() else {
            self.searching = None;
            return;
        };
        let wait_until = deadline.map_or(Instant::now() + POLL, |d| d.min(Instant::now() + POLL));
        match process.recv(wait_until, "bestmove", started) {
            Ok(line) => self.take_line(&line.text),
            Err(ClientError::Timeout { .. }) if deadline.is_none_or(|d| Instant::now() < d) => {}
            Err(e) => self.fail(e.into()),
        }
    }

    /// Reports one line of a search's output.
    fn take_line(&mut self, text: &str) {
        let Some(generation) = self.searching.as_ref().map(|s| s.generation) else {
            return;
        };
        match text.parse::<Reply>() {
            Ok(Reply::Info(info)) => (self.sink)(EngineEvent::Info(generation, info)),
            Ok(Reply::BestMove { best, .. }) => {
                self.searching = None;
                (self.sink)(EngineEvent::BestMove(generation, best));
            }
            Ok(_) => {}
            Err(e) if Reply::is_bestmove_line(text) => {
                self.searching = None;
                (self.sink)(EngineEvent::Failed(EngineFailure::UnreadableMove {
                    name: self.spec.name.clone(),
                    error: e,
                }));
            }
            Err(_) => log::debug!("gui: {} said {text:?}", self.spec.name),
        }
    }

    /// Reports a failure and drops the process (killed if still running).
    fn fail(&mut self, error: SeatError) {
        self.searching = None;
        if let Some(mut process) = self.process.take() {
            process.shutdown();
        }
        self.slot = None;
        self.sent.clear();
        let failure = EngineFailure::Seat {
            name: self.spec.name.clone(),
            error,
        };
        log::warn!("{failure}");
        (self.sink)(EngineEvent::Failed(failure));
    }
}
