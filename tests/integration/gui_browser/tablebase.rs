//! The tablebase panel: the verdict, the ranked moves, and its picture in docs/.

use super::*;

/// Red (elephant b2, lion a1) to move wins in the tables of
/// `common::gui::tablebases`.
const TABLE_WIN: &str = "6r/7/7/7/7/7/7/1E5/L6 w 0 1";

/// The tablebase panel's ranked moves as (move, verdict).
fn ranked_moves(browser: &Browser) -> Vec<(String, String)> {
    let rows = browser.script(
        "return [...document.querySelectorAll('#tablebase-moves li')]\
         .map(li => [li.dataset.move, li.dataset.verdict]);",
    );
    serde_json::from_value(rows).expect("pairs of strings")
}

/// A page on a server with the test tables (`--tablebases`), both sides
/// human; none without Chromium.
fn table_page() -> Option<Page> {
    let dir = common::gui::tablebases();
    let page = Page::start(&["--tablebases", dir.to_str().unwrap()])?;
    page.post("options", serde_json::json!({"players": {"blue": "human"}}));
    Some(page)
}

/// With `--tablebases` the page shows the tables' verdict on a
/// position they hold and its moves ranked (a click plays one), and hides the
/// panel for a position they do not hold.
#[test]
fn the_tablebase_panel_shows_the_verdict_and_the_ranked_moves() {
    let Some(page) = table_page() else {
        return;
    };
    let (browser, dir) = (&page.browser, common::gui::tablebases());
    assert!(
        hidden(browser, "tablebase"),
        "the start position is in no table"
    );
    page.post("position", serde_json::json!({ "fen": TABLE_WIN }));
    wait_for("the tablebase panel", TIMEOUT, || {
        (!hidden(browser, "tablebase")).then_some(())
    });
    let verdict = tb_probe(dir, &[TABLE_WIN]).remove(0);
    let badge =
        browser.script("return document.getElementById('tablebase-verdict').dataset.verdict;");
    assert_eq!(badge, verdict.as_str());
    let words = text_of(browser, "#tablebase-verdict");
    let plies = verdict.trim_start_matches("win ");
    assert_eq!(words, format!("Red wins in {plies} plies"));
    let state = page.state();
    let expected: Vec<(String, String)> = state["tablebase"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
            (text(&m["move"]), text(&m["verdict"]["text"]))
        })
        .collect();
    assert!(expected.len() > 1, "{state}");
    assert_eq!(ranked_moves(browser), expected);
    assert_eq!(expected[0].1, verdict, "the best move keeps the verdict");

    // The analysis scores the position as the tables do,
    // a mate in moves, not centipawns.
    page.post("analysis", serde_json::json!({"on": true, "multipv": 3}));
    let mate = format!("+#{}", plies.parse::<u32>().unwrap().div_ceil(2));
    wait_for("the tables' mate in the analysis", ENGINE_WAIT, || {
        let shown = browser.script(
            "const s = document.querySelector('#analysis-lines li.line .score'); \
             return s ? s.textContent : null;",
        );
        (shown == mate.as_str()).then_some(())
    });
    picture(browser, "tablebase-analysis");
    page.post("analysis", serde_json::json!({"on": false}));

    // A click on the best move plays it; the panel follows the new position.
    browser.click("#tablebase-moves li:first-child");
    wait_for("the ranked move played", TIMEOUT, || {
        (page.state()["moves"] == serde_json::json!([expected[0].0])).then_some(())
    });
    let after = tb_probe(dir, &[page.state()["fen"].as_str().unwrap()]).remove(0);
    wait_for("Blue's verdict", TIMEOUT, || {
        (text_of(browser, "#tablebase-verdict").starts_with("Blue loses in")
            && browser
                .script("return document.getElementById('tablebase-verdict').dataset.verdict;")
                == after.as_str())
        .then_some(())
    });

    // The record's tags under the moves are words, not raw tags, and a
    // placeholder Round is left out.
    let tags = text_of(browser, "#game-tags");
    assert!(tags.contains("Red") && tags.contains("human"), "{tags}");
    assert!(!tags.contains('[') && !tags.contains("Round"), "{tags}");

    // Outside the tables the panel goes.
    page.post("position", serde_json::json!({"fen": "startpos"}));
    wait_for("the panel to hide", TIMEOUT, || {
        hidden(browser, "tablebase").then_some(())
    });
}

/// The picture of the tablebase panel in docs/ (run by hand with the one
/// above): a position the tables hold, the panel in view at 1366x768.
#[test]
#[ignore]
fn screenshots_of_the_tablebase() {
    let Some(page) = table_page() else {
        return;
    };
    let browser = &page.browser;
    page.post("position", serde_json::json!({ "fen": TABLE_WIN }));
    browser.set_window(1366, 768);
    wait_for("the tablebase panel", TIMEOUT, || {
        (!hidden(browser, "tablebase")).then_some(())
    });
    browser.script(
        "document.getElementById('tablebase').scrollIntoView({block: 'center'}); return true;",
    );
    wait_for("the panel in view", TIMEOUT, || {
        let inside = browser.script(
            "const r = document.getElementById('tablebase').getBoundingClientRect(); \
             return r.top >= 0 && r.bottom <= innerHeight;",
        );
        (inside == true).then_some(())
    });
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    browser.screenshot(&docs.join("gui-tablebase.png"));
}
