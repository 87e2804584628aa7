//! Helpers of the GUI tests (`tests/gui_*.rs`): a `doushou gui` server on a
//! free port, plain HTTP to its API, and a headless Chromium driven through
//! chromedriver's W3C WebDriver API (JSON over HTTP). Every wait polls with a
//! generous deadline; processes are killed when their helper is dropped.

use super::{BIN, TIMEOUT};
use serde_json::{Value, json};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A running `doushou gui`.
pub struct GuiServer {
    child: Child,
    /// The page's address, `http://127.0.0.1:PORT/`.
    pub url: String,
    /// `127.0.0.1:PORT`, the Host the server accepts.
    pub authority: String,
}

impl GuiServer {
    /// Starts `doushou gui --port 0 <args>` and reads its address from the
    /// first line of its output.
    pub fn start(args: &[&str]) -> GuiServer {
        let mut child = Command::new(BIN)
            .args(["gui", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .env_remove("RUST_LOG")
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN} gui: {e}"));
        let mut first = String::new();
        let stdout = child.stdout.take().expect("piped stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("the server prints its address");
        let url = first
            .trim()
            .strip_prefix("doushou gui: ")
            .unwrap_or_else(|| panic!("first line {first:?} is not 'doushou gui: URL'"))
            .to_string();
        let authority = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        GuiServer {
            child,
            url,
            authority,
        }
    }

    /// An HTTP request to the server: the status and the body as JSON
    /// (`Value::Null` when the body is not JSON). `host` replaces the Host header.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        host: Option<&str>,
    ) -> (u16, Value) {
        let url = format!("{}{}", self.url, path.trim_start_matches('/'));
        let mut request = ureq::request(method, &url).timeout(TIMEOUT);
        if let Some(h) = host {
            request = request.set("Host", h);
        }
        let result = match body {
            Some(b) => request
                .set("Content-Type", "application/json")
                .send_string(b),
            None => request.call(),
        };
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        let status = response.status();
        let text = response.into_string().expect("a readable body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `GET` a path; answers the JSON, which must come with status 200.
    pub fn get(&self, path: &str) -> Value {
        let (status, body) = self.request("GET", path, None, None);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// `POST` JSON to a path; answers the status and the JSON answer.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.request("POST", path, Some(&body.to_string()), None)
    }

    /// Sends `head` (a request line and headers, without the blank line
    /// that ends them) and `body` on a connection of its own; answers the
    /// status and the body as JSON (`Value::Null` when it is not JSON).
    pub fn raw(&self, head: &str, body: &str) -> (u16, Value) {
        let mut socket = TcpStream::connect(&self.authority).expect("the server is there");
        socket.set_read_timeout(Some(TIMEOUT)).unwrap();
        let request = format!(
            "{head}\r\nHost: {}\r\nContent-Length: {}\r\n\r\n{body}",
            self.authority,
            body.len()
        );
        socket.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        socket.read_to_string(&mut answer).expect("a whole answer");
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"));
        let json = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, serde_json::from_str(json).unwrap_or(Value::Null))
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// How many threads the server runs now.
    pub fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.pid()))
            .expect("Linux's /proc")
            .count()
    }

    /// How many processes the server started that still run.
    pub fn children(&self) -> usize {
        let parent = self.pid().to_string();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return 0;
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                // "pid (name) state ppid ...": the name may hold blanks.
                let after = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
                let mut fields = after.split(' ');
                let (state, ppid) = (fields.next(), fields.next());
                state != Some("Z") && ppid == Some(parent.as_str())
            })
            .count()
    }

    /// A new game; answers its id.
    pub fn new_game(&self) -> String {
        let (status, state) = self.post("/api/game", &json!({}));
        assert_eq!(status, 201, "{state}");
        state["id"].as_str().expect("an id").to_string()
    }
}

impl Drop for GuiServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `probe` until it answers something or `timeout` passes (then panics
/// with `what`).
pub fn wait_for<T>(what: &str, timeout: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `doushou tb <args>`, which must succeed; answers its output.
fn tb(args: &[&OsStr]) -> String {
    let out = Command::new(BIN)
        .arg("tb")
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN} tb: {e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tb {args:?} failed: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A directory of endgame tables for the GUI tests, made once by `doushou tb
/// generate --material ELvr` (Red elephant and lion against Blue rat, and the
/// two-piece tables it needs: a second's work). It lives under Cargo's
/// per-build scratch directory; a later run reads the files, not remakes them.
pub fn tablebases() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-tablebases");
        let words = ["generate", "--material", "ELvr", "--threads", "1", "--out"];
        let mut args: Vec<&OsStr> = words.iter().map(OsStr::new).collect();
        args.push(dir.as_os_str());
        tb(&args);
        dir
    })
}

/// What `doushou tb probe --path DIR` prints for each of `fens`, in order.
pub fn tb_probe<S: AsRef<str>>(dir: &Path, fens: &[S]) -> Vec<String> {
    let mut args: Vec<&OsStr> = vec![OsStr::new("probe"), OsStr::new("--path"), dir.as_os_str()];
    args.extend(fens.iter().map(|f| OsStr::new(f.as_ref())));
    let lines: Vec<String> = tb(&args).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), fens.len(), "one line per position: {lines:?}");
    lines
}

/// The first program of this name on the `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A headless Chromium under chromedriver, with one WebDriver session.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    profile: PathBuf,
}

/// The element reference key of the W3C WebDriver protocol.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// Starts chromedriver and a headless Chromium. Without them: under
    /// `CI=true` the test fails; otherwise one line says how to install them
    /// and `None` is answered (the test returns).
    pub fn start() -> Option<Browser> {
        let (Some(chromium), Some(chromedriver)) = (
            on_path("chromium").or_else(|| on_path("chromium-browser")),
            on_path("chromedriver"),
        ) else {
            let advice =
                "chromium or chromedriver missing: apt-get install chromium chromium-driver";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{advice}");
            println!("skipping the browser test: {advice}");
            return None;
        };
        let mut driver = Command::new(&chromedriver)
            .arg("--port=0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
        let mut out = BufReader::new(driver.stdout.take().expect("piped stdout"));
        let mut port = None;
        let mut line = String::new();
        while port.is_none() {
            line.clear();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                let _ = driver.kill();
                panic!("chromedriver ended without saying its port");
            }
            // "ChromeDriver was started successfully on port 41393."
            port = line
                .split("successfully on port ")
                .nth(1)
                .and_then(|rest| rest.trim().trim_end_matches('.').parse::<u16>().ok());
        }
        // Keep draining its output so that it never blocks on a full pipe.
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut out, &mut std::io::sink());
        });
        let base = format!("http://127.0.0.1:{}", port.expect("read above"));
        let profile = std::env::temp_dir().join(format!(
            "doushou-gui-chromium-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            profile,
        };
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--disable-extensions",
            "--disable-features=Translate,OptimizationHints,MediaRouter,BackForwardCache",
            "--renderer-process-limit=1",
            "--window-size=1280,1000",
            &format!("--user-data-dir={}", browser.profile.display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium.to_string_lossy(), "args": args},
        }}});
        let deadline = Instant::now() + TIMEOUT;
        let answer = loop {
            match browser.call("POST", "/session", Some(&capabilities)) {
                Ok(answer) => break answer,
                Err(e) if Instant::now() > deadline => panic!("no browser session: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        browser.session = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session in {answer}"))
            .to_string();
        Some(browser)
    }

    /// One WebDriver command: its `value`, or the error it answered.
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let request = ureq::request(method, &format!("{}{path}", self.base)).timeout(TIMEOUT);
        let result = match body {
            Some(b) => request.send_json(b),
            None => request.call(),
        };
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return Err(format!("{method} {path}: {e}")),
        };
        let status = response.status();
        let value: Value = response
            .into_json()
            .map_err(|e| format!("{method} {path}: {e}"))?;
        if status == 200 {
            Ok(value["value"].clone())
        } else {
            Err(format!("{method} {path}: {status} {}", value["value"]))
        }
    }

    /// A command of this session that must succeed.
    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, body)
            .unwrap_or_else(|e| panic!("WebDriver: {e}"))
    }

    /// Loads `url` in the browser (WebDriver waits until it has loaded).
    pub fn goto(&self, url: &str) {
        self.command("POST", "/url", Some(&json!({ "url": url })));
    }

    /// The elements matching a CSS selector, as WebDriver references.
    pub fn find_all(&self, css: &str) -> Vec<String> {
        let found = self.command(
            "POST",
            "/elements",
            Some(&json!({"using": "css selector", "value": css})),
        );
        found
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Clicks the one element matching `css`, waiting for it to be there.
    /// The page redraws as it goes, so the element is found just before.
    pub fn click(&self, css: &str) {
        wait_for(&format!("a click on {css}"), TIMEOUT, || {
            let element = self.find_all(css).into_iter().next()?;
            let path = format!("/session/{}/element/{element}/click", self.session);
            self.call("POST", &path, Some(&json!({}))).ok()
        });
    }

    /// Sets the size of the browser's window (the view is the window in
    /// headless mode).
    pub fn set_window(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            Some(&json!({"width": width, "height": height})),
        );
    }

    /// A PNG picture of the view, written to `path`.
    pub fn screenshot(&self, path: &std::path::Path) {
        let data = self.command("GET", "/screenshot", None);
        let png = base64_decode(data.as_str().expect("base64 text"));
        std::fs::write(path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Puts `text` in the input matching `css` as if typed (focused, value
    /// set, `input` fired).
    pub fn type_into(&self, css: &str, text: &str) {
        let script = format!(
            "const i = document.querySelector({css:?}); i.focus(); i.value = {text:?}; \
             i.dispatchEvent(new Event('input')); return true;",
            css = css,
            text = text
        );
        self.script(&script);
    }

    /// Chooses `value` in the select matching `css` as a person does (it
    /// has the focus, its `change` fires).
    pub fn select(&self, css: &str, value: &str) {
        let script = format!(
            "const s = document.querySelector({css:?}); s.focus(); s.value = {value:?}; \
             s.dispatchEvent(new Event('change')); return s.value;"
        );
        let chosen = self.script(&script);
        assert_eq!(chosen, value, "{css} has no choice {value}");
    }

    /// Presses a key on the page (`Home`, `End`, `ArrowLeft`...).
    pub fn key(&self, key: &str) {
        self.script(&format!(
            "document.body.dispatchEvent(new KeyboardEvent('keydown', {{key: {key:?}, bubbles: true}})); return true;"
        ));
    }

    /// Runs a script in the page; answers what it returns.
    pub fn script(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(&json!({"script": script, "args": []})),
        )
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (as WebDriver sends screenshots) to bytes.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | u32::from(*d) << (18 - 6 * i));
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}
