//! `doushou gui`: a small web server that serves a page to play, watch and
//! analyse games in a browser. The page, its script and its styles are built
//! into the binary; engines (this binary itself by default) run as
//! subprocesses spoken to through the protocol, exactly as any GUI would.
//!
//! - [`api`]: the JSON types of the API (docs/gui.md).
//! - [`game`]: one game per browser tab ([`game::GuiGame`]), with its engines
//!   and its review.
//! - [`engine`]: one engine process per thread, through the match runner's client.
//! - [`clock`]: the clocks of a game; [`rule_text`]: the rule options
//!   explained for people.
//! - [`http`]: just enough HTTP; [`streams`]: every page's event stream,
//!   written by one thread; [`limits`]: what the server spends at most.
//!
//! A bounded pool of workers serves requests, one at a time each, and
//! closes every connection after its answer; event streams go to the one
//! streams thread. So the server's threads do not grow with its pages.

pub mod api;
pub mod clock;
pub mod engine;
pub mod error;
pub mod game;
pub mod http;
pub mod limits;
pub mod rule_text;
pub mod streams;

use crate::client::EngineSpec;
use crate::rules::Rules;
use crate::tb::TableSet;
use crate::util::rng::SplitMix64;
use api::{
    AnalysisRequest, DrawRequest, LineRequest, MoveRequest, NavigateRequest, OptionsRequest,
    PgnRequest, PositionRequest, ResignRequest, ReviewRequest, State,
};
use engine::Announced;
use error::ApiError;
use game::GuiGame;
use http::{HttpRequest, HttpResponse};
use limits::SharedSlots;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{Receiver, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use streams::Streams;

/// The page and what it loads, built in.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const BOARD_JS: &str = include_str!("assets/board.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The largest request body read (a file of game records fits).
const MAX_BODY: usize = 8 << 20;
/// How often the clocks are looked at for a fallen flag.
const CLOCK_TICK: Duration = Duration::from_millis(100);
/// How often idle games are looked for.
const REAP_EVERY: Duration = Duration::from_secs(60);

/// What `doushou gui` serves.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    /// The address to bind: a name or an IP address.
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// The engines, the first also analysing.
    pub engines: Vec<EngineSpec>,
    /// The rules of new games.
    pub rules: Rules,
    /// Endgame tables to judge the positions shown with (`--tablebases`).
    pub tables: Option<Arc<TableSet>>,
    /// Open the page in the default browser once serving.
    pub open: bool,
}

/// The engine played when none is named: this binary itself, searching with
/// the tables of `tablebases` when given (`TablebasePath`).
pub fn this_engine(tablebases: Option<&std::path::Path>) -> std::io::Result<EngineSpec> {
    let exe = std::env::current_exe()?;
    Ok(EngineSpec {
        name: "doushou".into(),
        program: exe.to_string_lossy().into_owned(),
        args: Vec::new(),
        dir: None,
        options: tablebases
            .iter()
            .map(|dir| {
                let dir = dir.to_string_lossy().into_owned();
                (crate::engine::option::TABLEBASE_PATH.to_string(), dir)
            })
            .collect(),
        limits: Default::default(),
    })
}

/// The running server's shared state.
struct App {
    engines: Arc<Vec<EngineSpec>>,
    tables: Option<Arc<TableSet>>,
    rules: Rules,
    /// The `Host` header values accepted (lowercase), see [`allowed_hosts`].
    hosts: Vec<String>,
    /// Whether any IP address is accepted in `Host` (bound to every interface).
    any_ip_host: bool,
    port: u16,
    sessions: Mutex<HashMap<String, Arc<GuiGame>>>,
    ids: Mutex<SplitMix64>,
    /// The engine processes and reviews every game shares.
    shared: SharedSlots,
    /// The options the engines announce, learnt once for every game.
    announced: Announced,
    streams: Streams,
}

/// What a request gets: an answer, or an event stream of a game.
enum Answer {
    Response(HttpResponse),
    Events(Arc<GuiGame>),
}

/// Why `doushou gui` could not serve.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// No engine to play or analyse.
    #[error("no engine")]
    NoEngine,
    /// `--host` names no address.
    #[error("--host {host}: {source}")]
    Host {
        /// The host asked for.
        host: String,
        /// Why it did not resolve.
        #[source]
        source: std::io::Error,
    },
    /// The address could not be bound.
    #[error(
        "cannot listen on {address}: {source}; another program may use the port (try --port 0)"
    )]
    Listen {
        /// The address asked for, `HOST:PORT`.
        address: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The server's threads could not be started.
    #[error("cannot start the server's threads: {0}")]
    Threads(#[source] std::io::Error),
    /// Standard output could not take the address line.
    #[error("writing standard output: {0}")]
    Stdout(#[source] std::io::Error),
}

/// Serves until the process is ended. The first line on standard output is
/// `doushou gui: http://HOST:PORT/`.
pub fn serve(config: GuiConfig) -> Result<(), GuiError> {
    if config.engines.is_empty() {
        return Err(GuiError::NoEngine);
    }
    let addrs: Vec<SocketAddr> = (config.host.as_str(), config.port)
        .to_socket_addrs()
        .map_err(|source| GuiError::Host {
            host: config.host.clone(),
            source,
        })?
        .collect();
    let listener = TcpListener::bind(&addrs[..])
        .and_then(|l| l.local_addr().map(|a| (l, a)))
        .map_err(|source| GuiError::Listen {
            address: format!("{}:{}", config.host, config.port),
            source,
        });
    let (listener, bound) = listener?;
    let host = match config.host.parse::<IpAddr>() {
        Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
        _ => config.host.clone(),
    };
    let authority = format!("{host}:{}", bound.port());
    let url = format!("http://{authority}/");
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id()) << 32;
    let app = Arc::new(App {
        engines: Arc::new(config.engines),
        tables: config.tables,
        rules: config.rules,
        hosts: allowed_hosts(&authority, bound),
        any_ip_host: bound.ip().is_unspecified(),
        port: bound.port(),
        sessions: Mutex::new(HashMap::new()),
        ids: Mutex::new(SplitMix64::new(seed)),
        shared: SharedSlots::default(),
        announced: Announced::default(),
        streams: Streams::start().map_err(GuiError::Threads)?,
    });
    let queue = start_threads(&app).map_err(GuiError::Threads)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "doushou gui: {url}")
        .and_then(|()| out.flush())
        .map_err(GuiError::Stdout)?;
    drop(out);
    if config.open {
        open_browser(&url);
    }
    for connection in listener.incoming() {
        let socket = match connection {
            Ok(socket) => socket,
            Err(e) => {
                // Out of file descriptors, say: a moment for some to close.
                log::warn!("accepting a connection: {e}");
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let _ = socket.set_read_timeout(Some(http::IO_TIMEOUT));
        let _ = socket.set_write_timeout(Some(http::IO_TIMEOUT));
        if let Err(TrySendError::Full(socket)) = queue.try_send(socket) {
            let busy = ApiError::Busy;
            let _ = error_response(&busy).write_to(&mut &socket);
        }
    }
    Ok(())
}

/// Starts the request workers and the ticker (clocks, idle games); answers
/// the queue of connections for the workers.
fn start_threads(app: &Arc<App>) -> std::io::Result<std::sync::mpsc::SyncSender<TcpStream>> {
    let (queue, inbox) = sync_channel::<TcpStream>(limits::QUEUED);
    let inbox = Arc::new(Mutex::new(inbox));
    for i in 0..limits::WORKERS {
        let (app, inbox) = (Arc::clone(app), Arc::clone(&inbox));
        thread::Builder::new()
            .name(format!("gui-worker-{i}"))
            .spawn(move || work(&app, &inbox))?;
    }
    let ticker = Arc::clone(app);
    thread::Builder::new()
        .name("gui-ticker".into())
        .spawn(move || {
            let mut reaped = Instant::now();
            loop {
                thread::sleep(CLOCK_TICK);
                ticker.check_clocks();
                if reaped.elapsed() >= REAP_EVERY {
                    ticker.close_idle_sessions(limits::SESSION_IDLE);
                    reaped = Instant::now();
                }
            }
        })?;
    Ok(queue)
}

/// A request worker: serves one connection at a time, until the server ends.
fn work(app: &App, inbox: &Mutex<Receiver<TcpStream>>) {
    loop {
        let next = inbox.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(socket) = next else { return };
        app.serve_connection(socket);
    }
}

/// The `Host` values a page served from `authority` sends: that one, and the
/// loopback names with the same port when bound to a loopback or every
/// address. Anything else (a name that a DNS rebinding points here) is refused.
fn allowed_hosts(authority: &str, bound: SocketAddr) -> Vec<String> {
    let mut hosts = vec![authority.to_ascii_lowercase()];
    if bound.ip().is_loopback() || bound.ip().is_unspecified() {
        let port = bound.port();
        for name in ["localhost", "127.0.0.1", "[::1]"] {
            hosts.push(format!("{name}:{port}"));
        }
    }
    hosts
}

/// Asks the desktop to open `url`; a failure is only logged.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    match std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        // The opener's answer comes later (xdg-open without a browser fails
        // after looking): waited for aside, so that serving starts at once.
        Ok(mut child) => {
            let url = url.to_string();
            let _ = thread::Builder::new()
                .name("gui-open".into())
                .spawn(move || match child.wait() {
                    Ok(status) if status.success() => {}
                    Ok(status) => {
                        eprintln!("gui: no browser opened ({program} {status}); open {url} by hand")
                    }
                    Err(e) => {
                        eprintln!("gui: no browser opened ({program}: {e}); open {url} by hand")
                    }
                });
        }
        Err(e) => eprintln!("gui: no browser opened ({program}: {e}); open {url} by hand"),
    }
}

fn json_response(status: u16, body: &impl serde::Serialize) -> HttpResponse {
    let text = serde_json::to_string(body)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string());
    HttpResponse::new(status, "application/json; charset=utf-8", text)
        .with_header("Cache-Control", "no-store")
}

fn error_response(error: &ApiError) -> HttpResponse {
    let message = error.to_string();
    json_response(error.status(), &serde_json::json!({ "error": message }))
}

/// Reads a request's JSON body into `T`; an empty body reads as `{}`.
fn read_json<T: DeserializeOwned>(request: &HttpRequest) -> Result<T, ApiError> {
    let body = &request.body;
    if body.iter().all(u8::is_ascii_whitespace) {
        return serde_json::from_slice(b"{}").map_err(ApiError::Json);
    }
    serde_json::from_slice(body).map_err(ApiError::Json)
}

/// Whether a request says its body is JSON (`application/json`, any
/// parameters after it).
fn sends_json(request: &HttpRequest) -> bool {
    request.header("Content-Type").is_some_and(|kind| {
        kind.split(';')
            .next()
            .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
    })
}

impl App {
    /// Reads one request from `socket` and answers it (or hands the socket
    /// to the streams thread); the connection closes with the answer.
    fn serve_connection(&self, socket: TcpStream) {
        let request = match http::read_request(&socket, MAX_BODY) {
            Ok(request) => request,
            Err(e) => {
                match e.status() {
                    Some(status) => {
                        log::info!("gui: refused a request: {status} {e}");
                        let _ = error_response(&ApiError::Request(e)).write_to(&mut &socket);
                    }
                    None => log::debug!("gui: {e}"),
                }
                return;
            }
        };
        match self.handle(&request) {
            Answer::Response(response) => {
                let _ = response.write_to(&mut &socket);
            }
            Answer::Events(session) => match self.streams.reserve() {
                Ok(slot) => self.streams.open(socket, slot, &session),
                Err(e) => {
                    log::warn!("{e}");
                    let _ = error_response(&e).write_to(&mut &socket);
                }
            },
        }
    }

    /// The answer to a request read whole: checked first for where it comes
    /// from (`Host`, `Origin`) and, if it changes anything, that it is JSON.
    fn handle(&self, request: &HttpRequest) -> Answer {
        let (method, path) = (request.method.as_str(), request.path());
        log::debug!("gui: {method} {path}");
        let answer = match self.refusal(request) {
            Some(refused) => Err(refused),
            None => self.route(request),
        };
        match answer {
            Ok(answer) => answer,
            Err(e) => {
                log::info!("gui: {method} {path}: {} {e}", e.status());
                Answer::Response(error_response(&e))
            }
        }
    }

    /// Why a request is refused before it is looked at: a wrong `Host`
    /// (DNS rebinding), another site's `Origin`, or a change that is not
    /// JSON (a cross-site form or "simple" request, which a browser sends
    /// without asking the server first).
    fn refusal(&self, request: &HttpRequest) -> Option<ApiError> {
        if !self.host_allowed(request) {
            return Some(ApiError::ForeignHost);
        }
        if let Some(origin) = request.header("Origin") {
            let own = request.header("Host").map(|host| format!("http://{host}"));
            if own.is_none_or(|own| !origin.eq_ignore_ascii_case(&own)) {
                return Some(ApiError::ForeignOrigin(origin.to_string()));
            }
        }
        if request.method != "GET" && !sends_json(request) {
            return Some(ApiError::NotJson);
        }
        None
    }

    /// Finds what the path asks for and does it.
    fn route(&self, request: &HttpRequest) -> Result<Answer, ApiError> {
        let (method, path) = (request.method.as_str(), request.path());
        let asset = |body: &'static str, kind: &str| {
            HttpResponse::new(200, kind, body)
                .with_header("Cache-Control", "no-cache")
                .with_header("X-Content-Type-Options", "nosniff")
        };
        let file = |response: HttpResponse| Ok(Answer::Response(response));
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let state = |status: u16, state: State| Answer::Response(json_response(status, &state));
        match (method, segments.as_slice()) {
            ("GET", [""]) => file(asset(INDEX_HTML, "text/html; charset=utf-8").with_header(
                "Content-Security-Policy",
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
            )),
            ("GET", ["app.js"]) => file(asset(APP_JS, "text/javascript; charset=utf-8")),
            ("GET", ["board.js"]) => file(asset(BOARD_JS, "text/javascript; charset=utf-8")),
            ("GET", ["style.css"]) => file(asset(STYLE_CSS, "text/css; charset=utf-8")),
            ("GET", ["favicon.svg" | "favicon.ico"]) => file(asset(FAVICON_SVG, "image/svg+xml")),
            ("POST", ["api", "game"]) => read_json::<OptionsRequest>(request)
                .and_then(|options| self.create_session(&options))
                .map(|s| state(201, s)),
            ("GET", ["api", "game", id, "events"]) => self.session(id).map(Answer::Events),
            ("GET", ["api", "game", id]) => self.session(id).map(|s| state(200, s.state())),
            ("POST", ["api", "game", id, action]) => self
                .session(id)
                .and_then(|session| act(&session, action, request))
                .map(|s| state(200, s)),
            (_, ["api", ..]) => Err(ApiError::NoApiCall {
                method: method.to_string(),
                path: path.to_string(),
            }),
            _ => Err(ApiError::NotFound(path.to_string())),
        }
    }

    fn host_allowed(&self, request: &HttpRequest) -> bool {
        let Some(host) = request.header("Host") else {
            return false;
        };
        let host = host.to_ascii_lowercase();
        if self.hosts.contains(&host) {
            return true;
        }
        // Bound to every address: any IP address will do (no name can be
        // rebound to it), on the served port.
        self.any_ip_host
            && host.rsplit_once(':').is_some_and(|(ip, port)| {
                port == self.port.to_string()
                    && ip
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .parse::<IpAddr>()
                        .is_ok()
            })
    }

    fn session(&self, id: &str) -> Result<Arc<GuiGame>, ApiError> {
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NoGame(id.to_string()))
    }

    fn create_session(&self, options: &OptionsRequest) -> Result<State, ApiError> {
        let id = {
            let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
            format!("{:016x}", ids.next_u64())
        };
        let session = GuiGame::new(
            id.clone(),
            Arc::clone(&self.engines),
            self.tables.clone(),
            self.rules,
            self.shared.clone(),
            self.announced.clone(),
        );
        let state = session.set_options(options)?;
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.len() >= limits::SESSIONS {
            let idlest = sessions
                .iter()
                .max_by_key(|(_, s)| s.idle_for())
                .map(|(id, _)| id.clone());
            if let Some(idlest) = idlest {
                log::info!("gui: too many games, closing game {idlest}");
                sessions.remove(&idlest);
            }
        }
        sessions.insert(id, session);
        Ok(state)
    }

    /// Every game, outside the lock of the sessions.
    fn all_sessions(&self) -> Vec<Arc<GuiGame>> {
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.values().cloned().collect()
    }

    /// Ends the game of a side whose flag fell, in every game.
    fn check_clocks(&self) {
        for session in self.all_sessions() {
            session.check_flag();
        }
    }

    /// Closes the games idle for `idle` or longer; their engines stop as the
    /// game goes.
    fn close_idle_sessions(&self, idle: Duration) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.retain(|id, s| {
            let keep = s.idle_for() < idle;
            if !keep {
                log::info!("gui: closing idle game {id}");
            }
            keep
        });
    }
}

/// Answers `POST /api/game/{id}/{action}`: reads the action's body and
/// changes the game; an unknown action is a 404.
fn act(session: &GuiGame, action: &str, request: &HttpRequest) -> Result<State, ApiError> {
    match action {
        "move" => session.play(&read_json::<MoveRequest>(request)?.text),
        "position" => session.set_position(&read_json::<PositionRequest>(request)?.fen),
        "pgn" => {
            let body = read_json::<PgnRequest>(request)?;
            session.load_pgn(&body.pgn, body.index)
        }
        "navigate" => session.navigate(read_json::<NavigateRequest>(request)?.ply),
        "new" => session.new_game(),
        "analysis" => {
            let body = read_json::<AnalysisRequest>(request)?;
            session.set_analysis(body.on, body.multipv, body.engine.as_deref())
        }
        "review" => {
            let body = read_json::<ReviewRequest>(request)?;
            session.set_review(body.on, body.depth)
        }
        "resign" => session.resign(read_json::<ResignRequest>(request)?.side.as_deref()),
        "draw" => session.draw(&read_json::<DrawRequest>(request)?.action),
        "takeback" => session.takeback(),
        "line" => session.play_line(&read_json::<LineRequest>(request)?.moves),
        "options" => session.set_options(&read_json::<OptionsRequest>(request)?),
        other => Err(ApiError::NoAction(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server's state without its socket, with one engine never started.
    fn app() -> App {
        let engine = EngineSpec {
            name: "none".into(),
            program: "/nonexistent/engine".into(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            limits: Default::default(),
        };
        App {
            engines: Arc::new(vec![engine]),
            tables: None,
            rules: Rules::default(),
            hosts: vec!["127.0.0.1:1".into()],
            any_ip_host: false,
            port: 1,
            sessions: Mutex::new(HashMap::new()),
            ids: Mutex::new(SplitMix64::new(1)),
            shared: SharedSlots::default(),
            announced: Announced::default(),
            streams: Streams::start().unwrap(),
        }
    }

    #[test]
    fn idle_games_are_closed_and_listened_ones_kept() {
        let app = app();
        let new = || app.create_session(&OptionsRequest::default()).unwrap().id;
        let (listened, idle) = (new(), new());
        let _listener = app
            .session(&listened)
            .unwrap()
            .subscribe(Box::new(|_: &str| true));
        app.close_idle_sessions(Duration::from_nanos(1));
        assert!(app.session(&listened).is_ok());
        assert_eq!(app.session(&idle).map(|_| ()).unwrap_err().status(), 404);
    }

    #[test]
    fn only_json_counts_as_json() {
        let with = |kind: &str| HttpRequest {
            method: "POST".into(),
            target: "/".into(),
            headers: vec![("content-type".into(), kind.into())],
            body: Vec::new(),
        };
        assert!(sends_json(&with("application/json")));
        assert!(sends_json(&with("Application/JSON; charset=utf-8")));
        assert!(!sends_json(&with("text/plain")));
        assert!(!sends_json(&with("application/jsonx")));
        assert!(!sends_json(&with("")));
    }
}
