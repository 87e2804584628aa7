//! The JSON API of `doushou gui` over plain HTTP: every class of bad request
//! gets a 4xx with a JSON error and the server goes on; an engine that crashes
//! mid-game is reported on the game's state; engines play each other; game
//! records load and can be stepped through.

mod common;

use common::fake_engine;
use common::gui::{GuiServer, wait_for};
use doushou::tools::pgn;
use serde_json::{Value, json};
use std::time::Duration;

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

#[test]
fn bad_requests_get_a_4xx_with_a_json_error() {
    let server = GuiServer::start(&[]);
    let id = server.new_game();
    let game = |action: &str| format!("/api/game/{id}/{action}");

    refused(
        server.post(&game("move"), &json!({"move": "a1a5"})),
        422,
        "illegal move a1a5",
    );
    refused(
        server.post(&game("move"), &json!({"move": "zz"})),
        422,
        "zz",
    );
    refused(
        server.post(
            &game("position"),
            &json!({"fen": "7/7/7/7/7/7/7/7/6 w 0 1"}),
        ),
        400,
        "rank 1",
    );
    refused(
        server.post(
            &game("position"),
            &json!({"fen": "startpos moves g3g4 g4g9"}),
        ),
        400,
        "move 2",
    );
    refused(
        server.post(
            &game("pgn"),
            &json!({"pgn": "[Event \"x\"]\n\n1. g3g4 a7a6 2. d1d9 1-0\n"}),
        ),
        400,
        "ply 3",
    );
    refused(
        server.post(&game("pgn"), &json!({"pgn": ""})),
        400,
        "no game",
    );
    refused(
        server.request("POST", &game("move"), Some("{\"move\": "), None),
        400,
        "bad JSON",
    );
    refused(
        server.post(&game("move"), &json!({"mov": "g3g4"})),
        400,
        "unknown field",
    );
    refused(
        server.post(
            &game("options"),
            &json!({"rules": {"DogOverWolf": "maybe"}}),
        ),
        422,
        "DogOverWolf",
    );
    refused(
        server.post(&game("options"), &json!({"players": {"red": "stockfish"}})),
        422,
        "stockfish",
    );
    refused(
        server.post(&game("navigate"), &json!({"ply": 3})),
        422,
        "ply 3",
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

#[test]
fn an_engine_that_crashes_is_reported_and_the_server_goes_on() {
    let fake = format!("fake={} crash", fake_engine());
    let server = GuiServer::start(&["--engine", &fake]);
    let id = server.new_game();
    let (status, state) = server.post(&format!("/api/game/{id}/move"), &json!({"move": "g3g4"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["thinking"]["engine"], "fake");
    let error = wait_for("the crash on the state", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{id}"));
        state["error"].as_str().map(str::to_string)
    });
    assert!(
        error.contains("fake") && error.contains("exited"),
        "{error}"
    );
    let state = server.get(&format!("/api/game/{id}"));
    assert_eq!(state["thinking"], Value::Null);
    assert_eq!(state["moves"], json!(["g3g4"]));

    // The server goes on: pages, new games and moves still work.
    let (status, _) = server.request("GET", "/", None, None);
    assert_eq!(status, 200);
    let other = server.new_game();
    assert_ne!(other, id);
    let (status, state) = server.post(&format!("/api/game/{id}/navigate"), &json!({"ply": 0}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["error"], Value::Null);
}

#[test]
fn two_engines_play_each_other_and_records_load() {
    let me = common::BIN;
    let (a, b) = (format!("one={me}"), format!("two={me}"));
    let server = GuiServer::start(&["--engine", &a, "--engine", &b]);
    let id = server.new_game();
    let (status, state) = server.post(
        &format!("/api/game/{id}/options"),
        &json!({"players": {"red": "one", "blue": "two"}, "limits": {"depth": 2}}),
    );
    assert_eq!(status, 200, "{state}");
    let moves = wait_for("four moves of an engine game", ENGINE_WAIT, || {
        let state = server.get(&format!("/api/game/{id}"));
        let moves: Vec<String> = serde_json::from_value(state["moves"].clone()).ok()?;
        (moves.len() >= 4 || !state["outcome"].is_null()).then_some(moves)
    });
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
fn the_new_calls_refuse_what_they_cannot_do() {
    let server = GuiServer::start(&[]);
    let id = server.new_game();
    let game = |action: &str| format!("/api/game/{id}/{action}");
    refused(
        server.post(&game("review"), &json!({"depth": 3})),
        409,
        "no move to review",
    );
    refused(
        server.post(&game("review"), &json!({"depth": 0})),
        422,
        "review depth 0",
    );
    refused(
        server.post(&game("takeback"), &json!({})),
        409,
        "no move to take back",
    );
    refused(
        server.post(&game("draw"), &json!({"action": "claim"})),
        409,
        "no draw to claim",
    );
    refused(
        server.post(&game("draw"), &json!({"action": "maybe"})),
        422,
        "expected offer or claim",
    );
    refused(
        server.post(&game("resign"), &json!({"side": "green"})),
        422,
        "expected red or blue",
    );
    refused(
        server.post(
            &game("options"),
            &json!({"levels": {"blue": {"skill": 21}}}),
        ),
        422,
        "Skill Level 21",
    );
    refused(
        server.post(
            &game("options"),
            &json!({"clocks": {"red": {"base_ms": 10, "inc_ms": 0}}}),
        ),
        422,
        "clock base 10 ms",
    );
    refused(
        server.post(&game("line"), &json!({"moves": ["g3g4", "g4g9"]})),
        422,
        "move 2 of the line",
    );
    refused(
        server.post(&game("analysis"), &json!({"on": true, "engine": "nobody"})),
        422,
        "no engine 'nobody'",
    );
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
