//! The page of `doushou gui` in a real headless Chromium, driven through
//! chromedriver: the board is drawn, a move is played by clicking, the engine
//! answers, a FEN is loaded, a rule switch reaches the engine, analysis runs.

mod common;

use common::TIMEOUT;
use common::gui::{Browser, GuiServer, wait_for};

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

#[test]
fn a_game_is_played_set_up_and_analysed_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = GuiServer::start(&[]);
    browser.goto(&server.url);

    wait_for("the board", TIMEOUT, || {
        (count(&browser, ".square[data-square]") == 63).then_some(())
    });
    assert_eq!(count(&browser, "[data-piece]"), 16);
    assert_eq!(count(&browser, "[data-piece=\"E\"]"), 1);
    assert_eq!(count(&browser, "[data-piece=\"e\"]"), 1);
    let id = wait_for("the game id", TIMEOUT, || {
        browser
            .script("return sessionStorage.getItem('doushou-game');")
            .as_str()
            .map(str::to_string)
    });
    let state = || server.get(&format!("/api/game/{id}"));

    // Click the rat on g3, then the square g4; the engine (Blue) answers.
    browser.click(".piece[data-square=\"g3\"]");
    wait_for("g3's legal targets", TIMEOUT, || {
        (count(&browser, ".target[data-target=\"g4\"]") == 1).then_some(())
    });
    browser.click(".square[data-square=\"g4\"]");
    let reply = wait_for("the engine's reply on the board", ENGINE_WAIT, || {
        let moves = browser
            .script("return [...document.querySelectorAll('#moves .mv')].map(m => m.textContent);");
        let moves: Vec<String> = serde_json::from_value(moves).ok()?;
        (moves.len() >= 2).then_some(moves)
    });
    assert_eq!(reply[0], "g3g4");
    let blue_move = &reply[1];
    let on_board = pieces(&browser);
    assert!(
        on_board.contains(&("g4".into(), "R".into())),
        "{on_board:?}"
    );
    assert!(
        on_board
            .iter()
            .any(|(sq, p)| *sq == blue_move[2..4] && p.chars().all(char::is_lowercase)),
        "Blue's {blue_move} is not on the board: {on_board:?}"
    );
    assert_eq!(state()["moves"], serde_json::json!(reply[..2]));

    // A position typed in: exactly its pieces appear.
    let fen = "l5t/7/7/7/3r3/7/7/7/T5L w 0 1";
    browser.script(&format!(
        "const i = document.getElementById('fen-input'); i.focus(); i.value = '{fen}'; return true;"
    ));
    browser.click("#fen-set");
    wait_for("the position's pieces", TIMEOUT, || {
        (pieces(&browser).len() == 5).then_some(())
    });
    let expected: Vec<(String, String)> = [
        ("a1", "T"),
        ("a9", "l"),
        ("d5", "r"),
        ("g1", "L"),
        ("g9", "t"),
    ]
    .iter()
    .map(|(s, p)| (s.to_string(), p.to_string()))
    .collect();
    assert_eq!(pieces(&browser), expected);
    assert_eq!(state()["fen"], fen);

    // A rule switch: the engine process acknowledges it.
    browser.click("#rules-card summary");
    browser.click("[data-rule=\"DogOverWolf\"]");
    wait_for("the engine to get DogOverWolf=true", TIMEOUT, || {
        let s = state();
        (s["engine_options"]["doushou"]["DogOverWolf"] == "true").then_some(())
    });
    let rule = state()["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "DogOverWolf")
        .cloned()
        .unwrap();
    assert_eq!(rule["value"], "true");

    // Analysis: lines appear with an arrow for the best move, then it stops.
    browser.click("#analysis-toggle");
    wait_for("an analysis line", ENGINE_WAIT, || {
        (count(&browser, "#analysis-lines li.line") >= 1 && count(&browser, ".arrow") == 1)
            .then_some(())
    });
    let line =
        browser.script("return document.querySelector('#analysis-lines li.line').textContent;");
    assert!(line.as_str().is_some_and(|t| t.contains('d')), "{line}");
    browser.click("#analysis-toggle");
    wait_for("the analysis to stop", TIMEOUT, || {
        let stopped =
            browser.script("return document.getElementById('analysis-toggle').textContent;");
        (stopped == "Start" && state()["analysis"]["on"] == false).then_some(())
    });
}
