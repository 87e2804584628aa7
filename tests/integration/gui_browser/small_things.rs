//! The small things of the page: the error banner clear of every control, no
//! needless scrolling, the arrow, the move list, the clocks, Takeback.

use super::*;

/// The controls (buttons, fields, pieces and squares) that the error banner
/// covers, by id or tag: the part of each that shows (inside the boxes that
/// scroll it) under the banner.
fn covered_by_the_error(browser: &Browser) -> Vec<String> {
    let found = browser.script(
        "const e = document.getElementById('error').getBoundingClientRect(); \
         const shown = (c) => { let r = c.getBoundingClientRect(); \
           let [top, bottom, left, right] = [r.top, r.bottom, r.left, r.right]; \
           for (let p = c.parentElement; p; p = p.parentElement) { \
             if (getComputedStyle(p).overflowY === 'visible') continue; \
             const q = p.getBoundingClientRect(); \
             top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom); \
             left = Math.max(left, q.left); right = Math.min(right, q.right); } \
           return {top, bottom, left, right}; }; \
         return [...document.querySelectorAll('button, select, input, textarea, label, .piece, .square')] \
           .filter(c => !c.closest('#error') && c.getClientRects().length > 0) \
           .filter(c => { const r = shown(c); \
             return r.top < r.bottom && r.left < r.right && \
               r.top < e.bottom && e.top < r.bottom && r.left < e.right && e.left < r.right; }) \
           .map(c => c.id || c.dataset.square || c.tagName);",
    );
    serde_json::from_value(found).expect("names")
}

/// Sizes the window so that the page's view is `width` x `height` (a
/// screen of that size with the browser's bars hidden, or a little larger).
fn set_view(browser: &Browser, width: u32, height: u32) {
    browser.set_window(width, height);
    let bars = browser.script("return [outerWidth - innerWidth, outerHeight - innerHeight];");
    let bars: Vec<u32> = serde_json::from_value(bars).expect("two numbers");
    browser.set_window(width + bars[0], height + bars[1]);
}

/// The error banner sits clear of every control; at
/// 1366x768 the page does not scroll (one scrollbar at most, the panel's);
/// the best-move arrow starts at the edge of the piece; the move list
/// writes Blue's animals in lowercase; the clock's boxes show only with a
/// clock; Takeback is off on a finished game with no move.
#[test]
fn the_small_things_are_right() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, state, post) = page.parts();
    post("options", serde_json::json!({"players": {"blue": "human"}}));
    let page_height = "return [document.documentElement.scrollHeight, innerHeight];";
    for (w, h) in [(1366, 768), (1280, 720), (420, 800)] {
        set_view(browser, w, h);
        // An error, shown over the page: no control under it.
        browser.type_into("#fen-input", "not a position");
        browser.click("#fen-set");
        wait_for("the FEN's error", TIMEOUT, || page_error(browser));
        picture(browser, &format!("error-{w}x{h}"));
        if w < 900 {
            // On a phone it goes by itself: a_phone_error_goes_by_itself.
            browser.click("#error-close");
            continue;
        }
        let covered = covered_by_the_error(browser);
        assert!(
            covered.is_empty(),
            "at {w}x{h} the error covers {covered:?}"
        );
        browser.click("#error-close");
        // No scrolling page, with or without clocks.
        for clocks in [
            serde_json::Value::Null,
            serde_json::json!({"base_ms": 300000, "increment_ms": 2000}),
        ] {
            post(
                "options",
                serde_json::json!({"clocks": {"red": clocks, "blue": clocks}}),
            );
            let shown = !clocks.is_null();
            wait_for("the clocks", TIMEOUT, || {
                (hidden(browser, "clockbar") != shown).then_some(())
            });
            let v: Vec<f64> = serde_json::from_value(browser.script(page_height)).unwrap();
            picture(browser, &format!("page-{w}x{h}-clocks-{shown}"));
            assert!(
                v[0] <= v[1],
                "at {w}x{h} (clocks {shown}) the page is {v:?} tall"
            );
        }
    }
    set_view(browser, 1366, 768);

    // Blue's animals in lowercase, Red's in capitals.
    post(
        "position",
        serde_json::json!({"fen": "startpos moves g3g4 a7a6"}),
    );
    // Read in one script: the list may be drawn again between two reads.
    wait_for("both moves in the list", TIMEOUT, || {
        let texts = browser.script(
            "return [1, 2].map(p => document.querySelector(`#moves .mv[data-ply=\"${p}\"]`)?.textContent);",
        );
        (texts == serde_json::json!(["R g3g4", "r a7a6"])).then_some(())
    });

    // The clock's boxes only with a clock.
    let boxes_shown = || {
        browser.script(
            "return ['clock-min', 'clock-inc'].map(id => document.getElementById(id).getClientRects().length > 0);",
        )
    };
    browser.select("#clock-kind", "none");
    assert_eq!(boxes_shown(), serde_json::json!([false, false]));
    browser.select("#clock-kind", "clock");
    assert_eq!(boxes_shown(), serde_json::json!([true, true]));
    browser.select("#clock-kind", "none");
    browser.click("#clock-set");
    settled(browser);
    assert_eq!(boxes_shown(), serde_json::json!([false, false]));

    // Takeback: off on a game over with no move, on for a resignation.
    let takeback_off = || browser.script("return document.getElementById('takeback').disabled;");
    let over = "l2E2t/1d3c1/r1p1w2/7/7/7/2W1P1R/1C3D1/T5L b 0 1";
    post("position", serde_json::json!({ "fen": over }));
    wait_for("the finished game", TIMEOUT, || {
        (takeback_off() == true).then_some(())
    });
    assert_eq!(state()["can_take_back"], false);
    post("new", serde_json::json!({}));
    post("resign", serde_json::json!({}));
    wait_for("Takeback of the resignation", TIMEOUT, || {
        (takeback_off() == false).then_some(())
    });
    browser.click("#takeback");
    wait_for("the resignation taken back", TIMEOUT, || {
        state()["outcome"].is_null().then_some(())
    });

    // The arrow starts at the edge of the piece, clear of its letter.
    post("analysis", serde_json::json!({"on": true, "multipv": 1}));
    let gap = wait_for("the arrow", ENGINE_WAIT, || {
        let gap = browser.script(
            "const a = document.querySelector('.arrow'); if (!a) return null; \
             const from = a.dataset.move.slice(0, 2); \
             const p = document.querySelector(`.piece[data-square=\"${from}\"] circle:nth-of-type(2)`); \
             const t = p.parentNode.transform.baseVal.consolidate().matrix; \
             const dx = a.x1.baseVal.value - t.e, dy = a.y1.baseVal.value - t.f; \
             return [Math.hypot(dx, dy), p.r.baseVal.value];",
        );
        serde_json::from_value::<Vec<f64>>(gap).ok()
    });
    picture(browser, "arrow");
    assert!(
        gap[0] >= gap[1] - 0.5,
        "the arrow starts inside the piece: {gap:?}"
    );
}

/// On a phone, where the page scrolls under it, the error banner goes by
/// itself (a test of its own: the wait runs beside the others).
#[test]
fn a_phone_error_goes_by_itself() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, _, _) = page.parts();
    set_view(browser, 420, 800);
    browser.type_into("#fen-input", "not a position");
    browser.click("#fen-set");
    wait_for("the FEN's error", TIMEOUT, || page_error(browser));
    wait_for("the error to go by itself", TIMEOUT, || {
        page_error(browser).is_none().then_some(())
    });
}
