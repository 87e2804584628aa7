//! Games played, set up, ended, taken back, reviewed and analysed in the page,
//! on screens of every size; and the pictures of the page in docs/.

use super::*;

#[test]
fn a_game_is_played_set_up_and_analysed_in_a_browser() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, state, _) = page.parts();
    assert_eq!(count(browser, "[data-piece]"), 16);
    assert_eq!(count(browser, "[data-piece=\"E\"]"), 1);
    assert_eq!(count(browser, "[data-piece=\"e\"]"), 1);

    // Click the rat on g3, then the square g4; the engine (Blue) answers.
    browser.click(".piece[data-square=\"g3\"]");
    wait_for("g3's legal targets", TIMEOUT, || {
        (count(browser, ".target[data-target=\"g4\"]") == 1).then_some(())
    });
    browser.click(".square[data-square=\"g4\"]");
    let reply = wait_for("the engine's reply on the board", ENGINE_WAIT, || {
        let moves = browser.script(
            "return [...document.querySelectorAll('#moves .mv')].map(m => m.dataset.move);",
        );
        let moves: Vec<String> = serde_json::from_value(moves).ok()?;
        (moves.len() >= 2).then_some(moves)
    });
    assert_eq!(reply[0], "g3g4");
    let blue_move = &reply[1];
    let on_board = pieces(browser);
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
        (pieces(browser).len() == 5).then_some(())
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
    assert_eq!(pieces(browser), expected);
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
        (count(browser, "#analysis-lines li.line") >= 1 && count(browser, ".arrow") == 1)
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

/// The board fits the view (1366x768, 1280x900),
/// and at a phone's width running analysis never widens the page.
#[test]
fn the_board_fits_every_screen() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, server, id) = (&page.browser, &page.server, &page.id);
    for (w, h) in [(1366, 768), (1280, 900), (1920, 1080)] {
        browser.set_window(w, h);
        let fits = browser.script(
            "const r = document.getElementById('board-svg').getBoundingClientRect(); \
             return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight];",
        );
        let v: Vec<f64> = serde_json::from_value(fits).unwrap();
        assert!(
            v[0] >= 0.0 && v[2] <= v[4] + 0.5 && v[3] <= v[5] + 0.5,
            "at {w}x{h} the board {v:?} is not inside the view"
        );
        assert!(v[3] - v[1] > 300.0, "at {w}x{h} the board is tiny: {v:?}");
    }
    // A phone: long analysis lines stay inside the page.
    browser.set_window(420, 800);
    let (status, _) = server.post(
        &format!("/api/game/{id}/analysis"),
        &serde_json::json!({"on": true, "multipv": 3}),
    );
    assert_eq!(status, 200);
    // Long lines: the deeper the analysis, the longer its lines.
    long_lines(browser, 2);
    let wide = browser.script(
        "const r = document.getElementById('board-svg').getBoundingClientRect(); \
         return [document.documentElement.scrollWidth, innerWidth, r.left, r.right];",
    );
    let v: Vec<f64> = serde_json::from_value(wide).unwrap();
    assert!(v[0] <= v[1], "the page scrolls sideways: {v:?}");
    assert!(
        v[2] >= 0.0 && v[3] <= v[1],
        "the board leaves the view: {v:?}"
    );
}

/// What the page shows and keeps.
#[test]
fn the_page_keeps_what_was_typed_and_says_things_right() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, server, id) = (&page.browser, &page.server, &page.id);
    let state = || page.state();

    // 3: a new kind of limit starts from its own default.
    browser.select("#limit-kind", "depth");
    wait_for("a depth limit", TIMEOUT, || {
        (state()["limits"]["depth"] == 8).then_some(())
    });
    browser.select("#limit-kind", "nodes");
    wait_for("a node limit", TIMEOUT, || {
        (state()["limits"]["nodes"] == 100_000).then_some(())
    });
    let (status, _) = server.post(
        &format!("/api/game/{id}/options"),
        &serde_json::json!({"limits": {"depth": 1000}}),
    );
    assert_eq!(status, 422, "depth 1000 is refused");

    // 6 and 7: a bad FEN keeps what was typed; the error does not move the
    // board, and goes with the next thing that works.
    let board_top = "return document.getElementById('board-svg').getBoundingClientRect().top;";
    let top = number(browser, board_top);
    browser.type_into("#fen-input", "l5t/7/7/7/3r3/7/7/7/T5 w 0 1");
    browser.click("#fen-set");
    wait_for("the FEN's error", TIMEOUT, || page_error(browser));
    assert_eq!(
        browser.script("return document.getElementById('fen-input').value;"),
        "l5t/7/7/7/3r3/7/7/7/T5 w 0 1"
    );
    assert_eq!(number(browser, board_top), top, "the error moved the board");
    browser.click("#new-game");
    wait_for("the error to go", TIMEOUT, || {
        page_error(browser).is_none().then_some(())
    });

    // 8: games are counted from 1, as typed.
    let four: String = (1..=4)
        .map(|r| format!("[Round \"{r}\"]\n\n1. g3g4 1-0\n\n"))
        .collect();
    browser.click("details summary");
    browser.type_into("#pgn-input", &four);
    browser.type_into("#pgn-index", "9");
    browser.click("#pgn-load");
    let error = wait_for("the record's error", TIMEOUT, || page_error(browser));
    assert!(
        error.contains("game 9") && !error.contains("game 8"),
        "{error}"
    );

    // 10: the status numbers moves as the move list does.
    let moves = "startpos moves g3g4 a7a6 g4g5 a6a5 g5g6 a5a4 a3a2 b8b9 c3d3 a4a3";
    server.post(
        &format!("/api/game/{id}/options"),
        &serde_json::json!({"players": {"blue": "human"}}),
    );
    server.post(
        &format!("/api/game/{id}/position"),
        &serde_json::json!({ "fen": moves }),
    );
    server.post(
        &format!("/api/game/{id}/navigate"),
        &serde_json::json!({"ply": 9}),
    );
    let status = wait_for("the status at ply 9", TIMEOUT, || {
        let s = text_of(browser, "#status");
        s.contains("after").then_some(s)
    });
    assert!(status.contains("5. c3d3"), "{status}");
    assert!(!status.contains("move 9"), "{status}");
    let current = text_of(browser, "#moves .mv.current");
    assert!(
        current.contains("c3") && current.contains("d3"),
        "{current}"
    );

    // 11: rules are explained; "custom" is no error.
    browser.click("#rules-card summary");
    let label = text_of(browser, "label[for='rule-TrappedAttackerPowerless']");
    assert_ne!(label, "TrappedAttackerPowerless");
    assert!(!label.is_empty());
    browser.select("[data-rule='UCI_Variant']", "custom");
    settled(browser);
    assert_eq!(page_error(browser), None, "custom gave an error");

    // 14: the header names the rules in force.
    browser.select("[data-rule='UCI_Variant']", "xoudouqi");
    wait_for("the xoudouqi header", TIMEOUT, || {
        let title = text_of(browser, "#variant-title");
        (title.contains("Xou Dou Qi") && !title.contains("Jungle")).then_some(())
    });

    // 12: a lion in Blue's trap has rank 0 there.
    server.post(
        &format!("/api/game/{id}/options"),
        &serde_json::json!({"rules": {"UCI_Variant": "jungle"}}),
    );
    server.post(
        &format!("/api/game/{id}/position"),
        &serde_json::json!({"fen": "2L4/7/7/7/7/7/7/7/l6 w 0 1"}),
    );
    let rank = wait_for("the trapped lion", TIMEOUT, || {
        let r = browser.script(
            "const p = document.querySelector('.piece[data-square=\"c9\"]'); \
             return p ? [...p.querySelectorAll('text')].pop().textContent : null;",
        );
        r.as_str().map(str::to_string)
    });
    assert_eq!(rank, "0");
}

/// What players expect of a game: the end shown beside the board and dismissed, records naming who played,
/// clocks whose flag falls, resign, takeback, a declined draw, the board
/// turned for Blue, Home/End, the .pgn download, animals in the move list.
#[test]
fn games_end_are_recorded_and_can_be_taken_back() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, state, post) = page.parts();

    // 9: a den entry ends the game; the banner is beside the board and goes.
    post(
        "position",
        serde_json::json!({"fen": "l6/3L3/7/7/7/7/7/7/6r w 0 1"}),
    );
    browser.click(".piece[data-square=\"d8\"]");
    browser.click(".square[data-square=\"d9\"]");
    wait_for("the game-over banner", TIMEOUT, || {
        (browser.script("return document.getElementById('outcome').hidden;") == false).then_some(())
    });
    let overlap = browser.script(
        "const a = document.getElementById('outcome').getBoundingClientRect(); \
         const b = document.getElementById('board-svg').getBoundingClientRect(); \
         return a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;",
    );
    assert_eq!(overlap, false, "the banner covers the board");
    browser.click("#outcome-close");
    assert_eq!(
        browser.script("return document.getElementById('outcome').hidden;"),
        true
    );
    let record = state()["pgn"].as_str().unwrap().to_string();
    assert!(record.contains("[Termination \"red wins"), "{record}");
    assert!(record.contains("[Date \"20"), "{record}");

    // 5: an engine game exported after both sides went human names the engines.
    post(
        "options",
        serde_json::json!({"players": {"red": "doushou", "blue": "doushou"}, "limits": {"depth": 1}}),
    );
    post("new", serde_json::json!({}));
    wait_for("engine moves", ENGINE_WAIT, || {
        (state()["moves"].as_array().unwrap().len() >= 4).then_some(())
    });
    post(
        "options",
        serde_json::json!({"players": {"red": "human", "blue": "human"}}),
    );
    let record = state()["pgn"].as_str().unwrap().to_string();
    assert!(record.contains("[Red \"doushou\"]"), "{record}");
    assert!(record.contains("[Blue \"doushou\"]"), "{record}");
    // A record loaded, then branched: its Termination goes with its moves.
    let loaded = "[Event \"doushou match\"]\n[Result \"1-0\"]\n[Termination \"blue lost on time\"]\n\n1. g3g4 a7a6 2. g4g5 1-0\n";
    post("pgn", serde_json::json!({"pgn": loaded}));
    assert!(state()["pgn"].as_str().unwrap().contains("lost on time"));
    post("navigate", serde_json::json!({"ply": 2}));
    post("move", serde_json::json!({"move": "c3d3"}));
    let record = state()["pgn"].as_str().unwrap().to_string();
    assert!(!record.contains("Termination"), "{record}");
    assert!(record.contains("[Result \"*\"]"), "{record}");
    // Animals and × in the list; the plain moves stay in data-move.
    let shown = text_of(browser, "#moves .mv[data-ply=\"3\"]");
    assert_eq!(shown, "W c3d3");
    assert_eq!(
        browser.script("return document.querySelector('#moves .mv[data-ply=\"3\"]').dataset.move;"),
        "c3d3"
    );
    post(
        "position",
        serde_json::json!({"fen": "7/7/7/7/3r3/3E3/7/7/7 b 0 1"}),
    );
    post("move", serde_json::json!({"move": "d5d4"}));
    wait_for("a capture in the list", TIMEOUT, || {
        (text_of(browser, "#moves .mv[data-ply=\"1\"]") == "r d5×d4").then_some(())
    });

    // Home and End.
    post(
        "position",
        serde_json::json!({"fen": "startpos moves g3g4 a7a6 g4g5"}),
    );
    // A key acts on the page's own copy of the state: each waits until the
    // page has drawn the last one, or End could be pressed at the old ply.
    let page_at = |ply: u64| {
        browser.script(&format!(
            "return state !== null && state.moves.length === 3 && state.ply === {ply};"
        )) == true
    };
    wait_for("the record on the page", TIMEOUT, || {
        page_at(3).then_some(())
    });
    browser.key("Home");
    wait_for("Home", TIMEOUT, || {
        (state()["ply"] == 0 && page_at(0)).then_some(())
    });
    browser.key("End");
    wait_for("End", TIMEOUT, || {
        (state()["ply"] == 3 && page_at(3)).then_some(())
    });

    // The .pgn file downloads the record.
    let downloaded = browser.script(
        "const a = document.getElementById('download-pgn'); \
         return [a.getAttribute('download'), decodeURIComponent(a.href.split(',')[1])];",
    );
    assert_eq!(downloaded[0], "doushou-game.pgn");
    assert_eq!(downloaded[1], state()["pgn"]);

    // Clocks: Red's runs out while nobody moves; the game is lost on time.
    post("new", serde_json::json!({}));
    browser.type_into("#clock-min", "0.02");
    browser.type_into("#clock-inc", "0");
    browser.select("#clock-kind", "clock");
    browser.click("#clock-set");
    wait_for("the clocks", TIMEOUT, || {
        let text = text_of(browser, "[data-clock=\"red\"]");
        text.contains(':').then_some(())
    });
    let lost = wait_for("Red's flag", ENGINE_WAIT, || {
        let s = state();
        (s["result"] == "0-1").then_some(s)
    });
    assert_eq!(lost["outcome"]["reason"], "time");
    assert!(lost["pgn"].as_str().unwrap().contains("on time"));
    assert!(
        lost["pgn"]
            .as_str()
            .unwrap()
            .contains("[TimeControl \"1.2+0\"]")
    );

    // An engine on the clock: it plays on its time, its clock goes down.
    post(
        "options",
        serde_json::json!({"players": {"blue": "doushou"}, "clocks": {"red": {"base_ms": 60000, "increment_ms": 1000}, "blue": {"base_ms": 60000, "increment_ms": 1000}}}),
    );
    post("new", serde_json::json!({}));
    post("move", serde_json::json!({"move": "g3g4"}));
    let answered = wait_for("the engine's move on its clock", ENGINE_WAIT, || {
        let s = state();
        (s["moves"].as_array().unwrap().len() == 2).then_some(s)
    });
    let blue_left = answered["clocks"]["blue"]["remaining_ms"].as_i64().unwrap();
    assert!(blue_left < 61_000 && blue_left > 0, "{blue_left}");

    // Takeback: the engine's reply and the person's move go.
    browser.click("#takeback");
    wait_for("the takeback", TIMEOUT, || {
        (state()["moves"].as_array().unwrap().is_empty()).then_some(())
    });
    // A draw offered at the start: the engine declines.
    post(
        "options",
        serde_json::json!({"clocks": {"red": null, "blue": null}}),
    );
    post("move", serde_json::json!({"move": "g3g4"}));
    wait_for("the engine's reply", ENGINE_WAIT, || {
        (state()["moves"].as_array().unwrap().len() == 2).then_some(())
    });
    let (status, body) = post("draw", serde_json::json!({"action": "offer"}));
    assert_eq!(status, 409, "{body}");
    // Resign: the person (Red) loses.
    browser.click("#resign");
    let resigned = wait_for("the resignation", TIMEOUT, || {
        let s = state();
        (s["result"] == "0-1").then_some(s)
    });
    assert_eq!(resigned["outcome"]["reason"], "resignation");

    // Playing Blue against an engine turns the board: Red's den at the top.
    post(
        "options",
        serde_json::json!({"players": {"red": "doushou", "blue": "human"}}),
    );
    wait_for("the board turned", TIMEOUT, || {
        let y = browser.script(
            "const d1 = document.querySelector('.square[data-square=\"d1\"] rect').getAttribute('y'); \
             const d9 = document.querySelector('.square[data-square=\"d9\"] rect').getAttribute('y'); \
             return Number(d1) < Number(d9);",
        );
        (y == true).then_some(())
    });
}

/// The review with its graph, clickable and chosen analysis engines, and levels.
#[test]
fn a_game_is_reviewed_and_analysed() {
    let bin = env!("CARGO_BIN_EXE_doushou");
    let first = format!("a={bin}");
    let second = format!("b={bin}");
    let Some(page) = Page::start(&["--engine", &first, "--engine", &second]) else {
        return;
    };
    let (browser, state, post) = page.parts();
    let server = &page.server;
    post("options", serde_json::json!({"players": {"blue": "human"}}));

    // A missed win (d8e8 instead of the den entry d8d9) among quiet moves.
    post(
        "position",
        serde_json::json!({"fen": "l6/3L3/7/7/7/7/7/7/6r w 0 1 moves d8e8 a9a8 e8e7 a8a7"}),
    );
    browser.type_into("#review-depth", "3");
    browser.click("#review");
    wait_for("the graph", ENGINE_WAIT, || {
        (count(browser, "[data-eval-graph] [data-ply]") == 4).then_some(())
    });
    let cps = browser.script(
        "return [...document.querySelectorAll('[data-eval-graph] [data-ply]')].map(p => Number(p.getAttribute('data-cp')));",
    );
    assert_eq!(cps.as_array().unwrap().len(), 4);
    // The judgements are the state's (those of analyse --game), each marked
    // in the move list with the better move.
    let review = state()["review"].clone();
    let judged: Vec<&serde_json::Value> = review["plies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["judgement"].is_null())
        .collect();
    assert!(
        !judged.is_empty(),
        "walking away from the den is judged: {review}"
    );
    for p in judged {
        let marked = browser.script(&format!(
            "const m = document.querySelector('#moves .mv[data-ply=\"{}\"]'); return [m.dataset.judgement, m.title];",
            p["ply"]
        ));
        assert_eq!(marked[0], p["judgement"]);
        assert!(
            marked[1]
                .as_str()
                .unwrap()
                .contains(p["best"].as_str().unwrap()),
            "{marked}"
        );
    }
    browser.click("[data-eval-graph] [data-ply=\"2\"]");
    wait_for("the graph's move", TIMEOUT, || {
        (state()["ply"] == 2).then_some(())
    });

    // 13: a mate line shows the mate to its end (the den entry). The first
    // iteration's line (depth 1) already scores the mate but stops at its
    // horizon, after Red's first move: the line to wait for is the one
    // whose moves reach Blue's reply.
    post(
        "position",
        serde_json::json!({"fen": "l6/7/3L3/7/7/7/7/7/6r w 0 1"}),
    );
    browser.select("#analysis-engine", "b");
    browser.click("#analysis-toggle");
    let line = wait_for("the mate line", ENGINE_WAIT, || {
        let s = state();
        let l = s["analysis"]["lines"][0].clone();
        let moves = l["pv"].as_array().map_or(0, Vec::len);
        (l["score"]["mate"] == 2 && moves >= 2).then_some(l)
    });
    assert_eq!(state()["analysis"]["engine"], "b");
    let pv: Vec<String> = serde_json::from_value(line["pv"].clone()).unwrap();
    assert_eq!(pv.len(), 3, "{pv:?}");
    assert_eq!(pv[2], "d8d9", "{pv:?}");
    // A line clicked is played on the board, its first move shown.
    wait_for("a line on the page", ENGINE_WAIT, || {
        (count(browser, "#analysis-lines li.line") >= 1).then_some(())
    });
    browser.click("#analysis-lines li.line");
    wait_for("the line on the board", TIMEOUT, || {
        let s = state();
        (s["ply"] == 1 && s["moves"].as_array().unwrap().len() >= 3).then_some(())
    });

    // 4: the page goes; so does the analysis.
    assert_eq!(state()["analysis"]["on"], true);
    browser.goto("about:blank");
    wait_for("the analysis to stop with no page", ENGINE_WAIT, || {
        (state()["analysis"]["on"] == false).then_some(())
    });

    // Levels: the engine gets Skill Level 5 and the record says so.
    open(browser, server);
    browser.select("#player-blue", "a");
    wait_for("the level box", TIMEOUT, || {
        (browser.script("return document.getElementById('level-blue-box').hidden;") == false)
            .then_some(())
    });
    browser.select("#level-blue", "skill:5");
    wait_for("the level", TIMEOUT, || {
        (state()["levels"]["blue"]["skill"] == 5).then_some(())
    });
    post("new", serde_json::json!({}));
    post("move", serde_json::json!({"move": "g3g4"}));
    let played = wait_for("the weakened engine's move", ENGINE_WAIT, || {
        let s = state();
        (s["moves"].as_array().unwrap().len() == 2).then_some(s)
    });
    assert_eq!(played["engine_options"]["a"]["Skill Level"], "5");
    assert!(
        played["pgn"]
            .as_str()
            .unwrap()
            .contains("[BlueLevel \"Skill Level 5\"]"),
        "{}",
        played["pgn"]
    );
}

/// The pictures in docs/ (run by hand: `cargo test --test gui_browser --
/// --ignored screenshots`): a reviewed game, shown in its middle with its
/// graph and the analysis running, at three screen sizes.
#[test]
#[ignore]
fn screenshots() {
    let Some(page) = Page::start(&[]) else {
        return;
    };
    let (browser, state, post) = page.parts();
    // Eighteen plies of doushou against itself, quickly.
    post(
        "options",
        serde_json::json!({"players": {"red": "doushou", "blue": "doushou"}, "limits": {"depth": 5}}),
    );
    post("new", serde_json::json!({}));
    wait_for("eighteen plies", ENGINE_WAIT * 3, || {
        (state()["moves"].as_array().unwrap().len() >= 18).then_some(())
    });
    post(
        "options",
        serde_json::json!({"players": {"red": "human", "blue": "doushou"}, "limits": {"movetime": 1000},
            "clocks": {"red": {"base_ms": 300000, "increment_ms": 2000}, "blue": {"base_ms": 300000, "increment_ms": 2000}}}),
    );
    post("navigate", serde_json::json!({"ply": 11}));
    post("review", serde_json::json!({"depth": 6}));
    wait_for("the review", ENGINE_WAIT * 3, || {
        (state()["review"]["running"] == false).then_some(())
    });
    post("analysis", serde_json::json!({"on": true, "multipv": 3}));
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for (w, h) in [(1366, 768), (1920, 1080), (420, 800)] {
        browser.set_window(w, h);
        // The graph in view: in the panel beside the board, or on a phone
        // below the board.
        browser.script(
            "document.getElementById('eval-graph').scrollIntoView({block: 'end'}); return true;",
        );
        long_lines(browser, 3);
        browser.screenshot(&docs.join(format!("gui-{w}x{h}.png")));
    }
}
