//! `doushou gui`: a small web server that serves a page to play, watch and
//! analyse games in a browser. The page, its script and its styles are built
//! into the binary; engines (this binary itself by default) run as
//! subprocesses spoken to through the protocol, exactly as any GUI would.
//!
//! - [`api`]: the JSON types of the API (docs/gui.md).
//! - [`game`]: one game per browser tab ([`game::GuiGame`]), with its engines.
//! - [`engine`]: one engine process per thread, through the match runner's client.
//! - [`clock`]: the clocks of a game; [`review`]: a game's review in the
//!   background; [`rule_text`]: the rule options explained for people.
//!
//! One thread per request: requests are short, except the server-sent event
//! streams, each of which keeps its own thread while the page is open.

pub mod api;
pub mod clock;
pub mod engine;
pub mod game;
pub mod review;
pub mod rule_text;

use crate::client::EngineSpec;
use crate::rules::Rules;
use crate::tb::TableSet;
use crate::util::rng::SplitMix64;
use api::{
    AnalysisRequest, ApiError, DrawRequest, LineRequest, MoveRequest, NavigateRequest,
    OptionsRequest, PgnRequest, PositionRequest, ResignRequest, ReviewRequest, State,
};
use game::GuiGame;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tiny_http::{Header, Method, Request, Response, Server};

/// The page and what it loads, built in.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The largest request body read (a file of game records fits).
const MAX_BODY: usize = 8 << 20;
/// How many games may be open at once; the idlest beyond that are closed.
const MAX_SESSIONS: usize = 64;
/// A game that no page has listened to for this long is closed.
const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);
/// A comment sent on quiet event streams, so that a closed page is noticed
/// within seconds (its analysis then stops).
const KEEPALIVE: Duration = Duration::from_secs(2);

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
    #[error("cannot listen on {address}: {why}; another program may use the port (try --port 0)")]
    Listen {
        /// The address asked for, `HOST:PORT`.
        address: String,
        /// What the server library said.
        why: String,
    },
    /// The server was bound to something other than an IP address.
    #[error("the server is not on an IP address")]
    NotIp,
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
    let server = Server::http(&addrs[..]).map_err(|e| GuiError::Listen {
        address: format!("{}:{}", config.host, config.port),
        why: e.to_string(),
    })?;
    let bound = server.server_addr().to_ip().ok_or(GuiError::NotIp)?;
    let host = match config.host.parse::<IpAddr>() {
        Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
        _ => config.host.clone(),
    };
    let authority = format!("{host}:{}", bound.port());
    let url = format!("http://{authority}/");
    let mut out = std::io::stdout().lock();
    writeln!(out, "doushou gui: {url}")
        .and_then(|()| out.flush())
        .map_err(GuiError::Stdout)?;
    drop(out);
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
    });
    if config.open {
        open_browser(&url);
    }
    let reaper = Arc::clone(&app);
    let _ = thread::Builder::new()
        .name("gui-reaper".into())
        .spawn(move || {
            loop {
                thread::sleep(Duration::from_secs(60));
                reaper.close_idle_sessions();
            }
        });
    for request in server.incoming_requests() {
        let app = Arc::clone(&app);
        let spawned = thread::Builder::new()
            .name("gui-request".into())
            .spawn(move || app.handle(request));
        if let Err(e) = spawned {
            log::error!("gui: cannot start a request thread: {e}");
        }
    }
    Ok(())
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

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

fn json_response(status: u16, body: &impl serde::Serialize) -> Response<std::io::Cursor<Vec<u8>>> {
    let text = serde_json::to_string(body)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string());
    Response::from_string(text)
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"))
}

fn error_response(error: &ApiError) -> Response<std::io::Cursor<Vec<u8>>> {
    json_response(error.status, &serde_json::json!({ "error": error.message }))
}

fn bad(status: u16, message: impl Into<String>) -> ApiError {
    ApiError {
        status,
        message: message.into(),
    }
}

/// Reads a request's JSON body into `T`; an empty body reads as `{}`.
fn read_json<T: DeserializeOwned>(request: &mut Request) -> Result<T, ApiError> {
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| bad(400, format!("reading the body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(bad(413, format!("the body is over {MAX_BODY} bytes")));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        body = b"{}".to_vec();
    }
    serde_json::from_slice(&body).map_err(|e| bad(400, format!("bad JSON: {e}")))
}

impl App {
    fn handle(&self, mut request: Request) {
        if !self.host_allowed(&request) {
            let host = request
                .headers()
                .iter()
                .find(|h| h.field.equiv("Host"))
                .map(|h| h.value.as_str().to_string());
            log::warn!("gui: refused a request for host {host:?}");
            let _ = request.respond(error_response(&bad(
                403,
                "this server answers only requests addressed to it (Host header)",
            )));
            return;
        }
        let url = request.url().to_string();
        let path = url.split(['?', '#']).next().unwrap_or("").to_string();
        let method = request.method().clone();
        log::debug!("gui: {method} {path}");
        let asset = |body: &'static str, kind: &str| {
            Response::from_string(body)
                .with_header(header("Content-Type", kind))
                .with_header(header("Cache-Control", "no-cache"))
                .with_header(header("X-Content-Type-Options", "nosniff"))
        };
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let answer: Result<(u16, State), ApiError> = match (&method, segments.as_slice()) {
            (Method::Get, [""]) => {
                let _ = request.respond(
                    asset(INDEX_HTML, "text/html; charset=utf-8").with_header(header(
                        "Content-Security-Policy",
                        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
                    )),
                );
                return;
            }
            (Method::Get, ["app.js"]) => {
                let _ = request.respond(asset(APP_JS, "text/javascript; charset=utf-8"));
                return;
            }
            (Method::Get, ["style.css"]) => {
                let _ = request.respond(asset(STYLE_CSS, "text/css; charset=utf-8"));
                return;
            }
            (Method::Get, ["favicon.svg" | "favicon.ico"]) => {
                let _ = request.respond(asset(FAVICON_SVG, "image/svg+xml"));
                return;
            }
            (Method::Post, ["api", "game"]) => read_json::<OptionsRequest>(&mut request)
                .and_then(|options| self.create_session(&options))
                .map(|state| (201, state)),
            (Method::Get, ["api", "game", id, "events"]) => match self.session(id) {
                Ok(session) => {
                    stream_events(request, &session);
                    return;
                }
                Err(e) => Err(e),
            },
            (Method::Get, ["api", "game", id]) => self.session(id).map(|s| (200, s.state())),
            (Method::Post, ["api", "game", id, action]) => self
                .session(id)
                .and_then(|session| act(&session, action, &mut request))
                .map(|state| (200, state)),
            (_, ["api", ..]) => Err(bad(404, format!("no API call {method} {path}"))),
            _ => Err(bad(404, format!("nothing at {path}"))),
        };
        let response = match answer {
            Ok((status, state)) => json_response(status, &state),
            Err(e) => {
                log::info!("gui: {method} {path}: {} {}", e.status, e.message);
                error_response(&e)
            }
        };
        let _ = request.respond(response);
    }

    fn host_allowed(&self, request: &Request) -> bool {
        let Some(host) = request.headers().iter().find(|h| h.field.equiv("Host")) else {
            return false;
        };
        let host = host.value.as_str().trim().to_ascii_lowercase();
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
        sessions.get(id).cloned().ok_or_else(|| {
            bad(
                404,
                format!("no game '{id}' (it may have ended with the server)"),
            )
        })
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
        );
        let state = session.set_options(options)?;
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.len() >= MAX_SESSIONS {
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

    fn close_idle_sessions(&self) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.retain(|id, s| {
            let keep = s.idle_for() < SESSION_IDLE;
            if !keep {
                log::info!("gui: closing idle game {id}");
            }
            keep
        });
    }
}

/// Answers `POST /api/game/{id}/{action}`: reads the action's body and
/// changes the game; an unknown action is a 404.
fn act(session: &GuiGame, action: &str, request: &mut Request) -> Result<State, ApiError> {
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
        other => Err(bad(404, format!("no action '{other}'"))),
    }
}

/// Serves a page's event stream on the request's own connection until the
/// page goes away. Written by hand: tiny_http buffers a streamed body.
fn stream_events(request: Request, session: &GuiGame) {
    let listener = session.subscribe();
    let events = &listener.events;
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\nX-Accel-Buffering: no\r\n\r\nretry: 2000\n\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    loop {
        let chunk = match events.recv_timeout(KEEPALIVE) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => ": keepalive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if out
            .write_all(chunk.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}
