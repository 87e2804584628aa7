//! The page of `doushou gui` in a real headless Chromium, driven through
//! chromedriver: the board is drawn, a move is played by clicking, the engine
//! answers, a FEN is loaded, a rule switch reaches the engine, analysis runs.

use crate::common;
mod play;
mod small_things;
mod tablebase;

use common::TIMEOUT;
use common::gui::{Browser, GuiServer, tb_probe, wait_for};

/// The engine's moves must come in a few seconds; this is only the give-up point.
const ENGINE_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

fn count(browser: &Browser, css: &str) -> usize {
    browser.find_all(css).len()
}

/// The pieces on the page as (square, letter), sorted.
fn pieces(browser: &Browser) -> Vec<(String, String)> {
    let found = browser.script(
        "return [...document.querySelectorAll('[data-piece]')]\
         .map(p => [p.getAttribute('data-square'), p.getAttribute('data-piece')]);",
    );
    let mut out: Vec<(String, String)> = found
        .as_array()
        .expect("an array")
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect();
    out.sort();
    out
}

/// The page's game id, once it has one.
fn game_id(browser: &Browser) -> String {
    wait_for("the game id", TIMEOUT, || {
        browser
            .script("return sessionStorage.getItem('doushou-game');")
            .as_str()
            .map(str::to_string)
    })
}

/// Opens the page on a server and waits for the board; answers the game id.
fn open(browser: &Browser, server: &GuiServer) -> String {
    browser.goto(&server.url);
    wait_for("the board", TIMEOUT, || {
        (count(browser, ".square[data-square]") == 63).then_some(())
    });
    game_id(browser)
}

/// A browser on the page of a server of its own, and the page's game.
struct Page {
    browser: Browser,
    server: GuiServer,
    id: String,
}

impl Page {
    /// A server with `args` and a browser on its page; none without Chromium.
    fn start(args: &[&str]) -> Option<Page> {
        let browser = Browser::start()?;
        let server = GuiServer::start(args);
        let id = open(&browser, &server);
        Some(Page {
            browser,
            server,
            id,
        })
    }

    /// The game's state from the API.
    fn state(&self) -> serde_json::Value {
        self.server.get(&format!("/api/game/{}", self.id))
    }

    /// The browser, and the game's state and API calls as functions, for
    /// tests that use them all the time.
    fn parts(
        &self,
    ) -> (
        &Browser,
        impl Fn() -> serde_json::Value + '_,
        impl Fn(&str, serde_json::Value) -> (u16, serde_json::Value) + '_,
    ) {
        (&self.browser, || self.state(), |a, b| self.post(a, b))
    }

    /// A call of the game's API: its status and answer.
    fn post(&self, action: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
        self.server
            .post(&format!("/api/game/{}/{action}", self.id), &body)
    }
}

/// A number the page's script answers.
fn number(browser: &Browser, script: &str) -> f64 {
    browser
        .script(script)
        .as_f64()
        .unwrap_or_else(|| panic!("{script} answered no number"))
}

/// Waits until the page shows `count` analysis lines of 8 moves or more
/// (the deeper the analysis, the longer its lines).
fn long_lines(browser: &Browser, count: usize) {
    wait_for("long analysis lines", ENGINE_WAIT, || {
        let moves = browser.script(
            "return [...document.querySelectorAll('#analysis-lines li.line .pv')]\
             .map(p => p.textContent.split(' ').length);",
        );
        let moves: Vec<usize> = serde_json::from_value(moves).ok()?;
        (moves.len() >= count && moves.iter().all(|&n| n >= 8)).then_some(())
    });
}

/// Waits until every change the page sent has its answer (and the error it
/// may show is shown).
fn settled(browser: &Browser) {
    wait_for("the page's changes answered", TIMEOUT, || {
        (browser.script("return document.body.dataset.pending || '0';") == "0").then_some(())
    });
}

/// The error the page shows, if any.
fn page_error(browser: &Browser) -> Option<String> {
    let shown = browser.script(
        "const e = document.getElementById('error'); return e.hidden ? null : document.getElementById('error-text').textContent;",
    );
    shown.as_str().map(str::to_string)
}

/// The text of the element `css` selects, empty where there is none (the
/// page may be drawing it again: a wait reads it again, an assertion shows
/// the empty text).
fn text_of(browser: &Browser, css: &str) -> String {
    browser
        .script(&format!(
            "const e = document.querySelector({css:?}); return e ? e.textContent : '';"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Whether the element with this id is hidden.
fn hidden(browser: &Browser, id: &str) -> bool {
    browser.script(&format!("return document.getElementById('{id}').hidden;")) == true
}

/// Where the picture of each thing checked goes, to be looked at.
fn picture(browser: &Browser, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-pictures");
    std::fs::create_dir_all(&dir).unwrap();
    browser.screenshot(&dir.join(format!("{name}.png")));
}
