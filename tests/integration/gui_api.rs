//! The JSON API of `doushou gui` over plain HTTP: every class of bad request
//! gets a 4xx with a JSON error and the server goes on; an engine that crashes
//! mid-game is reported on the game's state; engines play each other; game
//! records load and can be stepped through; endgame tables judge the
//! position shown and rank its moves.

use crate::common;

use common::fake_engine;
use common::gui::{GuiServer, tb_probe, wait_for};
use doushou::rules::Position;
use doushou::tools::pgn;
use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The engine's moves must come in a few seconds; this is only the give-up point.
const ENGINE_WAIT: Duration = Duration::from_secs(60);

/// A refused request: its status, and a JSON body with an error in words.
fn refused(answer: (u16, Value), status: u16, words: &str) {
    let (got, body) = answer;
    assert_eq!(got, status, "{body}");
    let error = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    assert!(error.contains(words), "'{error}' does not say '{words}'");
}

/// Each `(action, body, status, words)` posted to game `id` is refused.
fn refuses(server: &GuiServer, id: &str, cases: &[(&str, Value, u16, &str)]) {
    for (action, body, status, words) in cases {
        let answer = server.post(&format!("/api/game/{id}/{action}"), body);
        refused(answer, *status, words);
    }
}

#[test]
fn bad_requests_get_a_4xx_with_a_json_error() {
    let server = GuiServer::start(&[]);
    let id = server.new_game();
    let game = |action: &str| format!("/api/game/{id}/{action}");
    // The engine's weakest rating is its level 0's.
    let (elo_min, elo_max) = (
        doushou::engine::skill::ELO_MIN,
        doushou::engine::skill::ELO_MAX,
    );
    let elo_refused = format!("UCI_Elo {}: expected {elo_min} to {elo_max}", elo_min - 1);

    refuses(
        &server,
        &id,
        &[
            ("move", json!({"move": "a1a5"}), 422, "illegal move a1a5"),
            ("move", json!({"move": "zz"}), 422, "zz"),
            (
                "position",
                json!({"fen": "7/7/7/7/7/7/7/7/6 w 0 1"}),
                400,
                "rank 1",
            ),
            (
                "position",
                json!({"fen": "startpos moves g3g4 g4g9"}),
                400,
                "move 2",
            ),
            (
                "pgn",
                json!({"pgn": "[Event \"x\"]\n\n1. g3g4 a7a6 2. d1d9 1-0\n"}),
                400,
                "ply 3",
            ),
            ("pgn", json!({"pgn": ""}), 400, "no game"),
            ("move", json!({"mov": "g3g4"}), 400, "unknown field"),
            (
                "options",
                json!({"rules": {"DogOverWolf": "maybe"}}),
                422,
                "DogOverWolf",
            ),
            (
                "options",
                json!({"players": {"red": "stockfish"}}),
                422,
                "stockfish",
            ),
            ("navigate", json!({"ply": 3}), 422, "ply 3"),
            ("review", json!({"depth": 3}), 409, "no move to review"),
            ("review", json!({"depth": 0}), 422, "review depth 0"),
            ("takeback", json!({}), 409, "no move to take back"),
            ("draw", json!({"action": "claim"}), 409, "no draw to claim"),
            (
                "draw",
                json!({"action": "maybe"}),
                422,
                "expected offer or claim",
            ),
            (
                "resign",
                json!({"side": "green"}),
                422,
                "expected red or blue",
            ),
            (
                "options",
                json!({"levels": {"blue": {"skill": 21}}}),
                422,
                "Skill Level 21",
            ),
            (
                "options",
                json!({"levels": {"blue": {"elo": elo_min - 1}}}),
                422,
                &elo_refused,
            ),
            (
                "options",
                json!({"clocks": {"red": {"base_ms": 10, "increment_ms": 0}}}),
                422,
                "clock base 10 ms",
            ),
            (
                "line",
                json!({"moves": ["g3g4", "g4g9"]}),
                422,
                "move 2 of the line",
            ),
            (
                "analysis",
                json!({"on": true, "engine": "nobody"}),
                422,
                "no engine 'nobody'",
            ),
        ],
    );
    refused(
        server.request("POST", &game("move"), Some("{\"move\": "), None),
        400,
        "bad JSON",
    );
    refused(
        server.post("/api/game/0123/move", &json!({"move": "g3g4"})),
        404,
        "no game '0123'",
    );
    refused(
        server.request("GET", "/api/game/0123", None, None),
        404,
        "no game",
    );
    refused(
        server.request("GET", "/api/nothing", None, None),
        404,
        "no API call",
    );
    let host = format!(
        "evil.example:{}",
        server.authority.rsplit(':').next().unwrap()
    );
    refused(
        server.request("GET", &format!("/api/game/{id}"), None, Some(&host)),
        403,
        "Host",
    );
    refused(
        server.request("GET", "/", None, Some("evil.example")),
        403,
        "Host",
    );

    // Nothing above changed the game, and the server still plays.
    let state = server.get(&format!("/api/game/{id}"));
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["fen"], doushou::rules::START_FEN);
    let (status, state) = server.post(&game("move"), &json!({"move": "g3g4"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"], json!(["g3g4"]));
    let (status, _) = server.request(
        "GET",
        "/",
        None,
        Some(&format!(
            "localhost:{}",
            server.authority.rsplit(':').next().unwrap()
        )),
    );
    assert_eq!(status, 200);
}

/// A game against the fake engine in `mode` after White's first move: the
/// server, the game and the error its state shows once the engine failed,
/// its turn over and the move kept.
fn an_engine_fails_after_a_move(mode: &str) -> (GuiServer, String, String) {
    let fake = format!("fake={} {mode}", fake_engine());
    let server = GuiServer::start(&["--engine", &fake]);
    let id = server.new_game();
    let (status, state) = server.post(&format!("/api/game/{id}/move"), &json!({"move": "g3g4"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["thinking"]["engine"], "fake");
    let error = wait_for("the engine's failure on the state", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{id}"));
        state["error"].as_str().map(str::to_string)
    });
    let state = server.get(&format!("/api/game/{id}"));
    assert_eq!(state["thinking"], Value::Null);
    assert_eq!(state["moves"], json!(["g3g4"]));
    (server, id, error)
}

/// A `bestmove` line that does not read (indented, as `garbage` says it)
/// ends the engine's turn with an error naming it, not a wait for a move.
#[test]
fn an_engine_that_answers_an_unreadable_move_is_reported() {
    let (_server, _id, error) = an_engine_fails_after_a_move("garbage");
    assert!(
        error.contains("fake") && error.contains("unreadable move"),
        "{error}"
    );
}

#[test]
fn an_engine_that_crashes_is_reported_and_the_server_goes_on() {
    let (server, id, error) = an_engine_fails_after_a_move("crash");
    assert!(
        error.contains("fake") && error.contains("exited"),
        "{error}"
    );

    // The server goes on: pages, new games and moves still work.
    let (status, _) = server.request("GET", "/", None, None);
    assert_eq!(status, 200);
    let other = server.new_game();
    assert_ne!(other, id);
    let (status, state) = server.post(&format!("/api/game/{id}/navigate"), &json!({"ply": 0}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["error"], Value::Null);
}

/// A level is checked against the range the seat's own engine announces in
/// its `option` lines, not against doushou's: the fake engine in `rated`
/// mode takes `UCI_Elo` 1000 to 2000 and has no `Skill Level`.
#[test]
fn a_level_is_checked_against_the_range_its_seats_engine_announces() {
    let rated = format!("rated={} rated", fake_engine());
    let own = format!("doushou={}", common::BIN);
    let server = GuiServer::start(&["--engine", &rated, "--engine", &own]);
    let id = server.new_game();
    let options = format!("/api/game/{id}/options");
    // Blue is the first engine's: the fake's range, under doushou's.
    let (status, state) = server.post(&options, &json!({"levels": {"blue": {"elo": 1200}}}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["levels"]["blue"]["elo"], 1200, "{state}");
    let (elo_min, elo_max) = (
        doushou::engine::skill::ELO_MIN,
        doushou::engine::skill::ELO_MAX,
    );
    refuses(
        &server,
        &id,
        &[
            (
                "options",
                json!({"levels": {"blue": {"elo": elo_max}}}),
                422,
                "expected 1000 to 2000",
            ),
            (
                "options",
                json!({"levels": {"blue": {"skill": 5}}}),
                422,
                "Skill Level",
            ),
            // doushou's seat, doushou's range; a seat's level goes with it
            // to the engine that takes the seat.
            (
                "options",
                json!({"players": {"red": "doushou"}, "levels": {"red": {"elo": 1200}}}),
                422,
                &format!("expected {elo_min} to {elo_max}"),
            ),
            (
                "options",
                json!({"players": {"blue": "doushou"}}),
                422,
                "UCI_Elo 1200",
            ),
        ],
    );
    // The level taken reaches the fake when it plays.
    let (status, state) = server.post(&format!("/api/game/{id}/move"), &json!({"move": "g3g4"}));
    assert_eq!(status, 200, "{state}");
    wait_for("the fake's UCI_Elo on the state", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{id}"));
        (state["engine_options"]["rated"]["UCI_Elo"] == "1200").then_some(())
    });
}

#[test]
fn two_engines_play_each_other_and_records_load() {
    let me = common::BIN;
    let (a, b) = (format!("one={me}"), format!("two={me}"));
    let server = GuiServer::start(&["--engine", &a, "--engine", &b]);
    let id = server.new_game();
    // The level menu offers doushou's calibrated UCI_Elo range, and the
    // weakest choice is one the engine takes.
    let choices: Vec<i32> =
        serde_json::from_value(server.get(&format!("/api/game/{id}"))["elo_choices"].clone())
            .unwrap();
    let range = doushou::engine::skill::ELO_MIN..doushou::engine::skill::ELO_MAX;
    assert!(
        !choices.is_empty() && choices.iter().all(|e| range.contains(e)),
        "{choices:?}"
    );
    let (status, state) = server.post(
        &format!("/api/game/{id}/options"),
        &json!({"players": {"red": "one", "blue": "two"}, "limits": {"depth": 2},
                "levels": {"blue": {"elo": choices[0]}}}),
    );
    assert_eq!(status, 200, "{state}");
    let moves = wait_for("four moves of an engine game", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{id}"));
        let moves: Vec<String> = serde_json::from_value(state["moves"].clone()).ok()?;
        (moves.len() >= 4 || !state["outcome"].is_null()).then_some(moves)
    });
    let state = server.get(&format!("/api/game/{id}"));
    assert_eq!(state["error"], Value::Null, "{state}");
    assert_eq!(
        state["engine_options"]["two"]["UCI_Elo"],
        json!(choices[0].to_string()),
        "{state}"
    );
    let mut game =
        doushou::rules::Game::new(Default::default(), doushou::rules::Position::startpos());
    for m in &moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    server.post(
        &format!("/api/game/{id}/options"),
        &json!({"players": {"red": "human", "blue": "human"}}),
    );

    // A record as `doushou match` writes it, under other rules, stepped through.
    let record = pgn::Record {
        tags: vec![
            ("Event".into(), "doushou match".into()),
            ("Red".into(), "one".into()),
            ("Blue".into(), "two".into()),
            ("Variant".into(), "xoudouqi".into()),
            ("FEN".into(), doushou::rules::START_FEN.into()),
        ],
        moves: vec!["g3g4".into(), "a7a6".into(), "g4g5".into()],
        comments: Vec::new(),
        result: "*".into(),
    };
    let text = format!("{record}{record}");
    let (status, state) = server.post(
        &format!("/api/game/{id}/pgn"),
        &json!({"pgn": text, "index": 1}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"], json!(["g3g4", "a7a6", "g4g5"]));
    assert_eq!(state["ply"], 0);
    assert_eq!(state["variant"], "xoudouqi");
    assert_eq!(state["players"], json!({"red": "human", "blue": "human"}));
    let (_, state) = server.post(&format!("/api/game/{id}/navigate"), &json!({"ply": 2}));
    assert_eq!(state["last_move"], "a7a6");
    assert!(
        state["legal"]["g4"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("g5"))),
        "{state}"
    );
    assert!(
        state["pgn"]
            .as_str()
            .unwrap()
            .contains("1. g3g4 a7a6 2. g4g5"),
        "{state}"
    );
}

#[test]
fn a_game_resigns_once_and_a_third_repetition_may_be_claimed() {
    let server = GuiServer::start(&[]);
    let id = server.new_game();
    let game = |action: &str| format!("/api/game/{id}/{action}");
    // Resigned once, the game is over: a second resignation is refused.
    let (status, state) = server.post(&game("resign"), &json!({}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["result"], "0-1", "the person (Red) resigned");
    refused(
        server.post(&game("resign"), &json!({})),
        409,
        "already over",
    );
    // A third repetition under Repetition=none may be claimed.
    let (status, _) = server.post(
        &game("options"),
        &json!({"players": {"blue": "human"}, "rules": {"Repetition": "none"}}),
    );
    assert_eq!(status, 200);
    let shuffle = "startpos moves g3g4 a7a6 g4g3 a6a7 g3g4 a7a6 g4g3 a6a7";
    let (status, state) = server.post(&game("position"), &json!({"fen": shuffle}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["draw_claimable"], true, "{state}");
    let (status, state) = server.post(&game("draw"), &json!({"action": "claim"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["result"], "1/2-1/2");
    assert!(state["pgn"].as_str().unwrap().contains("draw claimed"));
}

/// Red (elephant b2, lion a1) to move wins; Blue's rat to move loses.
const TABLE_WIN: &str = "6r/7/7/7/7/7/7/1E5/L6 w 0 1";
const TABLE_LOSS: &str = "7/7/2r4/7/7/7/7/E6/6L b 0 1";

/// The verdict of the side that moved into a position whose side to move
/// has `after` (`doushou tb probe`'s words): a loss there is a win one ply
/// longer here, and the reverse.
fn negated(after: &str) -> String {
    match after.split_once(' ') {
        Some(("loss", n)) => format!("win {}", n.parse::<u32>().unwrap() + 1),
        Some(("win", n)) => format!("loss {}", n.parse::<u32>().unwrap() + 1),
        _ => after.to_string(),
    }
}

/// Larger is better for the side a verdict is for: fast wins, then draws,
/// then slow losses.
fn goodness(verdict: &Value) -> i64 {
    let plies = verdict["plies"].as_i64().unwrap_or(0);
    match verdict["result"].as_str() {
        Some("win") => 1000 - plies,
        Some("draw") => 0,
        Some("loss") => -1000 + plies,
        other => panic!("no result in {verdict} ({other:?})"),
    }
}

/// The state carries the tables' verdict on the position shown, as
/// `doushou tb probe` gives it, and every legal move ranked by the verdict it
/// leads to; a position outside the tables has none.
#[test]
fn the_tablebase_judges_the_position_shown_and_ranks_its_moves() {
    let dir = common::gui::tablebases();
    let server = GuiServer::start(&["--tablebases", dir.to_str().unwrap()]);
    let id = server.new_game();
    let game = |action: &str| format!("/api/game/{id}/{action}");
    let start = server.get(&format!("/api/game/{id}"));
    assert!(start["tablebase"].is_null(), "{}", start["tablebase"]);
    let (status, _) = server.post(&game("options"), &json!({"players": {"blue": "human"}}));
    assert_eq!(status, 200);

    for fen in [TABLE_WIN, TABLE_LOSS] {
        let (status, state) = server.post(&game("position"), &json!({ "fen": fen }));
        assert_eq!(status, 200, "{state}");
        let tb = &state["tablebase"];
        assert_eq!(tb["verdict"]["text"], tb_probe(dir, &[fen])[0], "{fen}");
        let moves = tb["moves"].as_array().expect("ranked moves");

        // Every legal move, once.
        let mut ranked: Vec<String> = moves
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect();
        ranked.sort();
        let mut legal: Vec<String> = state["legal"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(from, tos)| {
                tos.as_array()
                    .unwrap()
                    .iter()
                    .map(move |to| format!("{from}{}", to.as_str().unwrap()))
            })
            .collect();
        legal.sort();
        assert_eq!(ranked, legal, "{fen}");

        // Each move's verdict is the probe of the position after it, seen
        // from the side that moved.
        let children: Vec<String> = moves
            .iter()
            .map(|m| {
                let mut pos: Position = fen.parse().unwrap();
                pos.make(m["move"].as_str().unwrap().parse().unwrap());
                pos.fen()
            })
            .collect();
        for (m, after) in moves.iter().zip(tb_probe(dir, &children)) {
            assert_eq!(m["verdict"]["text"], negated(&after), "{fen} {m}");
        }

        // Best first, and the best is the position's verdict.
        let order: Vec<i64> = moves.iter().map(|m| goodness(&m["verdict"])).collect();
        assert!(order.windows(2).all(|w| w[0] >= w[1]), "{fen}: {order:?}");
        assert_eq!(moves[0]["verdict"], tb["verdict"], "{fen}");
        assert!(
            moves.len() > 1 && order[0] != order[moves.len() - 1],
            "{fen}: one verdict only"
        );
    }

    // A finished game larger than any table is not in them: no verdict,
    // though `tb probe` answers it `loss 0`.
    let over_big = "l2E2t/1d3c1/r1p1w2/7/7/7/2W1P1R/1C3D1/T5L b 0 1";
    let (status, state) = server.post(&game("position"), &json!({ "fen": over_big }));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["result"], "1-0", "{state}");
    assert!(state["tablebase"].is_null(), "{}", state["tablebase"]);

    // Under rules the tables were not made for, they say nothing.
    let (status, state) = server.post(&game("options"), &json!({"rules": {"DogOverWolf": true}}));
    assert_eq!(status, 200, "{state}");
    assert!(state["tablebase"].is_null(), "{}", state["tablebase"]);
}

/// With `--tablebases` the default engine searches with the tables: it is
/// sent `TablebasePath`, and in a lost position plays the longest loss.
#[test]
fn the_default_engine_gets_the_tables_too() {
    let dir = common::gui::tablebases();
    let server = GuiServer::start(&["--tablebases", dir.to_str().unwrap()]);
    let id = server.new_game();
    let (status, before) = server.post(
        &format!("/api/game/{id}/position"),
        &json!({ "fen": TABLE_LOSS }),
    );
    assert_eq!(status, 200, "{before}");
    let state = wait_for("Blue's move", ENGINE_WAIT, || {
        let s = server.get(&format!("/api/game/{id}"));
        (s["moves"].as_array().unwrap().len() == 1).then_some(s)
    });
    assert_eq!(
        state["engine_options"]["doushou"]["TablebasePath"],
        dir.to_str().unwrap()
    );
    let played = &state["moves"][0];
    let ranked = before["tablebase"]["moves"].as_array().unwrap();
    let verdict = &ranked.iter().find(|m| m["move"] == *played).unwrap()["verdict"];
    assert_eq!(
        *verdict, before["tablebase"]["verdict"],
        "{played}: {ranked:?}"
    );
}

/// Tables made under other rules are refused at the start, as the engine
/// refuses them; and a reader gone before the address line ends `gui`
/// quietly, as every tool ends.
#[test]
fn gui_refuses_other_rules_tables_and_ends_quietly_on_a_closed_pipe() {
    let dir = common::gui::tablebases();
    let out = Command::new(common::BIN)
        .args([
            "gui",
            "--port",
            "0",
            "--set",
            "DogOverWolf=true",
            "--tablebases",
        ])
        .arg(dir)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // Bad input, exit 1, as `analyse` and `tb probe` say it.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("refused") && err.contains("DogOverWolf"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(common::BIN)
        .args(["gui", "--port", "0"])
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}

/// A page of another site, open in the same browser, cannot
/// drive the server: a "simple" cross-site request (sent without asking
/// first: a form's or `text/plain` body) gets 415, a foreign `Origin` 403,
/// and neither makes a game.
#[test]
fn a_page_of_another_site_cannot_drive_the_server() {
    let server = GuiServer::start(&[]);
    let id = server.new_game();
    let moved = format!("POST /api/game/{id}/move HTTP/1.1");
    let g3g4 = r#"{"move": "g3g4"}"#;
    let cases: [(&str, &str, &str, u16, &str); 6] = [
        ("POST /api/game HTTP/1.1", "text/plain", "", 415, "JSON"),
        (&moved, "text/plain;charset=UTF-8", "", 415, "JSON"),
        (&moved, "application/x-www-form-urlencoded", "", 415, "JSON"),
        (&moved, "", "", 415, "Content-Type"),
        (
            &moved,
            "application/json",
            "http://evil.example",
            403,
            "Origin",
        ),
        (&moved, "application/json", "null", 403, "Origin"),
    ];
    for (line, kind, origin, status, words) in cases {
        let mut head = line.to_string();
        if !kind.is_empty() {
            head.push_str(&format!("\r\nContent-Type: {kind}"));
        }
        if !origin.is_empty() {
            head.push_str(&format!("\r\nOrigin: {origin}"));
        }
        refused(server.raw(&head, g3g4), status, words);
    }
    let events = format!(
        "GET /api/game/{id}/events HTTP/1.1\r\nOrigin: http://evil.example:{}",
        server.authority.rsplit(':').next().unwrap()
    );
    refused(server.raw(&events, ""), 403, "Origin");
    assert_eq!(server.get(&format!("/api/game/{id}"))["moves"], json!([]));

    // The page's own origin, and JSON with a charset, are served.
    let own = format!(
        "{moved}\r\nContent-Type: application/json; charset=utf-8\r\nOrigin: http://{}",
        server.authority
    );
    let (status, state) = server.raw(&own, g3g4);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"], json!(["g3g4"]));
}

/// Opens an event stream of game `id` on a connection of its own; answers
/// the connection and the status of its answer.
fn open_stream(server: &GuiServer, id: &str) -> (std::io::BufReader<TcpStream>, u16) {
    let mut socket = TcpStream::connect(&server.authority).unwrap();
    socket.set_read_timeout(Some(common::TIMEOUT)).unwrap();
    write!(
        socket,
        "GET /api/game/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.authority
    )
    .unwrap();
    let mut reader = std::io::BufReader::new(socket);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line.split(' ').nth(1).and_then(|s| s.parse().ok());
    (reader, status.unwrap_or_else(|| panic!("{line:?}")))
}

/// Held-open event streams do not cost a thread each, their number
/// is capped with a 503 that says why, and the server still answers at once;
/// a closed page's place is given back.
#[test]
fn idle_event_streams_cost_no_threads_and_are_capped() {
    let server = GuiServer::start(&[]);
    let id = server.new_game();
    let mut open = Vec::new();
    let mut full = None;
    for _ in 0..300 {
        let (mut stream, status) = open_stream(&server, &id);
        match status {
            200 => open.push(stream),
            503 => {
                let mut rest = String::new();
                stream.read_to_string(&mut rest).unwrap();
                full.get_or_insert(rest);
            }
            other => panic!("an event stream answered {other}"),
        }
    }
    let full = full.expect("300 streams are over the cap");
    assert!(
        full.contains("pages listen to this server already"),
        "{full}"
    );
    assert!(open.len() >= 16, "only {} streams served", open.len());
    // Each served stream gets the state at once.
    let mut first = String::new();
    while !first.starts_with("event: state") {
        first.clear();
        open[0].read_line(&mut first).unwrap();
    }
    let threads = server.threads();
    assert!(threads < 64, "{threads} threads for {} streams", open.len());
    let asked = Instant::now();
    let other = server.new_game();
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(5), "a new game took {took:?}");
    assert_ne!(other, id);

    // Pages that go give their places back: a new stream is served again.
    drop(open);
    wait_for("a stream's place given back", ENGINE_WAIT, || {
        (open_stream(&server, &other).1 == 200).then_some(())
    });
}

/// The server starts at most 8 engine processes over all its
/// games; one more is refused with a message on the game's state, and an
/// analysis stopped gives its process back.
#[test]
fn engine_processes_are_bounded() {
    let fake = format!("fake={} play", fake_engine());
    let server = GuiServer::start(&["--engine", &fake]);
    let analyse = |id: &str, on: bool| {
        let (status, state) =
            server.post(&format!("/api/game/{id}/analysis"), &json!({ "on": on }));
        assert_eq!(status, 200, "{state}");
    };
    let games: Vec<String> = (0..9).map(|_| server.new_game()).collect();
    for id in &games[..8] {
        analyse(id, true);
        wait_for("the analyser's options", ENGINE_WAIT, || {
            let state = server.get(&format!("/api/game/{id}"));
            state["engine_options"]
                .as_object()
                .is_some_and(|o| o.contains_key("fake (analysis)"))
                .then_some(())
        });
    }
    assert_eq!(server.children(), 8);
    let ninth = &games[8];
    analyse(ninth, true);
    let error = wait_for("the ninth engine refused", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{ninth}"));
        state["error"].as_str().map(str::to_string)
    });
    assert!(error.contains("8 engine processes run already"), "{error}");
    assert_eq!(server.children(), 8);

    analyse(&games[0], false);
    wait_for("the first analyser's process to end", ENGINE_WAIT, || {
        (server.children() == 7).then_some(())
    });
    // The place is given back a moment after the process ends: asked again
    // until it is.
    wait_for("the ninth analysis", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{ninth}"));
        if state["analysis"]["on"] == false {
            analyse(ninth, true);
            return None;
        }
        (state["error"].is_null()
            && state["engine_options"]
                .as_object()
                .is_some_and(|o| o.contains_key("fake (analysis)")))
        .then_some(())
    });
}

/// The GUI's half: where the tables hold the position
/// analysed, each line's score is the tables' verdict after its first move,
/// from Red's view: a win or loss in plies as a mate in moves (as the
/// protocol's `score mate` counts them), never a centipawn score such as
/// "+289.78".
#[test]
fn table_positions_are_scored_by_the_tables() {
    let dir = common::gui::tablebases();
    let server = GuiServer::start(&["--tablebases", dir.to_str().unwrap()]);
    let id = server.new_game();
    let game = |action: &str| format!("/api/game/{id}/{action}");
    let (status, _) = server.post(&game("options"), &json!({"players": {"blue": "human"}}));
    assert_eq!(status, 200);
    for (fen, red_wins) in [(TABLE_WIN, true), (TABLE_LOSS, true)] {
        let (status, state) = server.post(&game("position"), &json!({ "fen": fen }));
        assert_eq!(status, 200, "{state}");
        let ranked = state["tablebase"]["moves"].as_array().unwrap().clone();
        let (status, _) = server.post(&game("analysis"), &json!({"on": true, "multipv": 3}));
        assert_eq!(status, 200);
        let lines = wait_for("analysis lines", ENGINE_WAIT, || {
            let s = server.get(&format!("/api/game/{id}"));
            let lines = s["analysis"]["lines"].as_array()?.clone();
            (s["fen"] == fen && !lines.is_empty()).then_some(lines)
        });
        for line in &lines {
            let first = &line["pv"][0];
            let verdict = &ranked.iter().find(|m| m["move"] == *first).unwrap()["verdict"];
            let plies = verdict["plies"].as_i64().unwrap();
            let moves = (plies + 1) / 2;
            let mover_wins = verdict["result"] == "win";
            // The mover is Red in TABLE_WIN, Blue in TABLE_LOSS.
            let red_moves = fen.contains(" w ");
            let red_view = if mover_wins == red_moves {
                moves
            } else {
                -moves
            };
            assert_eq!(line["score"]["mate"], red_view, "{fen}: {line}");
            assert_eq!(line["score"]["cp"], Value::Null, "{fen}: {line}");
            let text = line["score"]["text"].as_str().unwrap();
            assert_eq!(
                text,
                format!("{}#{moves}", if red_view > 0 { "+" } else { "-" })
            );
        }
        assert_eq!(lines[0]["score"]["mate"].as_i64().unwrap() > 0, red_wins);
        server.post(&game("analysis"), &json!({"on": false}));
    }
}
