//! Property tests of every reader of outside text: the FEN and move parsers,
//! a game from a FEN and moves, the match runner's PGN reader, `analyse`'s
//! position and game readers (in process), and `analyse` itself through the
//! binary with random input. None may panic on any input; each bad input is
//! an error; each good one reads back as it was written.

use crate::common;

use common::{random_game, run_tool_with_stdin};
use doushou::rules::{Game, Move, Position, Rules, START_FEN};
use doushou::tools::pgn;
use doushou::tools::pgn::read::{parse_games, parse_position_line};
use proptest::prelude::*;
use serde_json::Value;

/// `text` with the character at `at` (modulo its length) replaced by `c`.
fn mutate(text: &str, at: usize, c: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return c.to_string();
    }
    let i = at % chars.len();
    chars[i] = c;
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fen_reads_back_what_it_writes(plies in 0usize..80, seed in any::<u64>()) {
        let (game, _) = random_game(plies, seed);
        let fen = game.position().fen();
        let back: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        prop_assert_eq!(back.fen(), fen);
    }

    #[test]
    fn fen_never_panics_and_what_it_accepts_reads_back(
        text in prop_oneof![
            "\\PC{0,80}",
            (any::<usize>(), any::<char>()).prop_map(|(at, c)| mutate(START_FEN, at, c)),
            (0usize..START_FEN.len()).prop_map(|n| START_FEN[..n].to_string()),
            "[lLtTdDcCrRpPwWeE1-9/]{0,40} [wb] [0-9]{1,3} [0-9]{1,3}",
        ]
    ) {
        if let Ok(position) = text.parse::<Position>() {
            let again: Position = position.fen().parse().expect("its own FEN");
            prop_assert_eq!(again.fen(), position.fen());
        }
    }

    #[test]
    fn a_fen_missing_a_rank_or_a_field_is_an_error(rank in 0usize..9, field in 0usize..4) {
        let (board, rest) = START_FEN.split_once(' ').unwrap();
        let mut ranks: Vec<&str> = board.split('/').collect();
        ranks.remove(rank);
        let short_board = format!("{} {rest}", ranks.join("/"));
        prop_assert!(short_board.parse::<Position>().is_err(), "{}", short_board);
        let mut fields: Vec<&str> = START_FEN.split(' ').collect();
        fields.remove(field);
        let short = fields.join(" ");
        // Only the board is required to be whole; a dropped counter may have
        // a default, but a dropped board or side never reads as the start.
        if field < 2 {
            prop_assert!(short.parse::<Position>().is_err(), "{}", short);
        } else {
            let _ = short.parse::<Position>();
        }
    }

    #[test]
    fn moves_read_back_and_bad_ones_are_errors(text in "\\PC{0,8}", from in 0usize..63, to in 0usize..63) {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>().ok(), Some(m));
        }
        let square = |i: usize| format!("{}{}", (b'a' + (i % 7) as u8) as char, i / 7 + 1);
        let text = format!("{}{}", square(from), square(to));
        if from == to {
            // A move goes somewhere: `a1a1` is refused, not read as the null move.
            prop_assert!(text.parse::<Move>().is_err(), "{}", text);
        } else {
            let m: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
            prop_assert_eq!(m.to_string(), text);
        }
        for bad in ["", "a1", "a1a2a3", "h1a1", "a0a1", "a1a10", "a1a1", "g9g9"] {
            prop_assert!(bad.parse::<Move>().is_err(), "{}", bad);
        }
    }

    #[test]
    fn a_game_from_moves_takes_only_legal_ones(
        plies in 0usize..40,
        seed in any::<u64>(),
        junk in proptest::collection::vec("\\PC{0,6}", 0..4),
    ) {
        let (game, moves) = random_game(plies, seed);
        let replayed = Game::from_fen_and_moves(Rules::default(), START_FEN, &moves)
            .unwrap_or_else(|e| panic!("{moves:?}: {e}"));
        prop_assert_eq!(replayed.position().fen(), game.position().fen());
        let mut with_junk = moves.clone();
        with_junk.extend(junk.iter().cloned());
        // The junk is legal only if the rules play every word of it.
        let mut expected = game.clone();
        let all_legal = junk.iter().all(|j| expected.play_text(j).is_ok());
        match Game::from_fen_and_moves(Rules::default(), START_FEN, &with_junk) {
            Ok(g) => {
                prop_assert!(all_legal, "{:?} accepted", junk);
                prop_assert_eq!(g.position().fen(), expected.position().fen());
            }
            Err(_) => prop_assert!(!all_legal, "{:?} refused", junk),
        }
    }

    #[test]
    fn pgn_records_read_back_and_broken_ones_are_errors(
        plies in 0usize..60,
        seed in any::<u64>(),
        cut in any::<usize>(),
        at in any::<usize>(),
        c in any::<char>(),
    ) {
        let (_, moves) = random_game(plies, seed);
        let record = pgn::Record {
            tags: vec![
                ("Event".into(), "fuzz \"quoted\" \\ back".into()),
                ("Round".into(), seed.to_string()),
                ("FEN".into(), START_FEN.into()),
            ],
            moves: moves.clone(),
            comments: Vec::new(),
            result: "1/2-1/2".into(),
        };
        let text = record.to_string();
        let back = pgn::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(&back[0].moves, &moves);
        // A record cut before its result is an error, wherever the cut falls
        // after the tags.
        let movetext = text.find("\n\n").unwrap() + 2;
        let result_at = text.rfind("1/2-1/2").unwrap();
        let end = movetext + cut % (result_at - movetext + 1);
        let cut_text = &text[..end];
        prop_assert!(pgn::parse(cut_text).is_err(), "{}", cut_text);
        // Any one character changed: no panic.
        let _ = pgn::parse(&mutate(&text, at, c));
    }

    #[test]
    fn pgn_reader_never_panics(text in "(\\[\\PC{0,20}\\]\n|\\PC{0,30}\n|\n){0,20}") {
        let _ = pgn::parse(&text);
    }

    #[test]
    fn analyse_readers_never_panic_and_report_lines_in_range(
        text in "(\\PC{0,40}\n|startpos moves( [a-g][1-9][a-g][1-9]){0,4}\n|\\[[A-Za-z]{1,6} \"\\PC{0,10}\"\\]\n|\n){0,12}",
    ) {
        for line in text.lines() {
            let _ = parse_position_line(line);
        }
        let lines = text.lines().count();
        for game in parse_games(&text, Rules::default()) {
            match game {
                Ok(g) => prop_assert!(g.line >= 1 && g.line <= lines, "{}", g.line),
                Err(e) => prop_assert!(e.line >= 1 && e.line <= lines.max(1), "{}", e.line),
            }
        }
    }
}

/// The lines `analyse` reads (its own rule, from its documentation: blank
/// lines and `#` comments are skipped).
fn read_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .count()
}

proptest! {
    // Each case starts the binary: few cases, each of several lines.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn analyse_answers_every_line_of_random_input(
        lines in proptest::collection::vec(
            prop_oneof![
                "\\PC{0,40}",
                (0usize..30, any::<u64>()).prop_map(|(p, s)| {
                    let (_, moves) = random_game(p, s);
                    format!("startpos moves {}", moves.join(" "))
                }),
                (0usize..30, any::<u64>(), any::<usize>(), any::<char>()).prop_map(|(p, s, at, c)| {
                    let (game, _) = random_game(p, s);
                    mutate(&game.position().fen(), at, c)
                }),
            ].prop_map(|l: String| l.replace(['\n', '\r'], " ")),
            1..8,
        ),
    ) {
        let input = lines.join("\n") + "\n";
        let run = run_tool_with_stdin(&["analyse", "--json", "--depth", "1", "--jobs", "1", "-"], input.as_bytes());
        prop_assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        let answers: Vec<Value> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        // Every line is answered, unless reading stopped on purpose: a first
        // faulty line that looks like a record or JSON, or the same error
        // five times in a row, ends the answers with one hint line.
        let stopped = |a: &Value| {
            a.get("error").and_then(Value::as_str).is_some_and(|e| {
                e.starts_with("this looks like") || e.contains("times in a row: stopped reading")
            })
        };
        match answers.iter().position(stopped) {
            Some(at) => {
                prop_assert_eq!(at + 1, answers.len(), "the hint is the last answer: {}", run.stdout);
                prop_assert!(answers.len() <= read_lines(&input) + 1, "{}", run.stdout);
            }
            None => prop_assert_eq!(answers.len(), read_lines(&input), "{}", run.stdout),
        }
        let errors = answers.iter().filter(|a| a.get("error").is_some()).count();
        for a in &answers {
            prop_assert!(
                a.get("error").is_some() || a.get("bestmove").is_some(),
                "neither a move nor an error: {}", a
            );
        }
        prop_assert_eq!(run.code, Some(if errors > 0 { 1 } else { 0 }), "{}", run.stderr);
    }

    #[test]
    fn analyse_survives_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let run = run_tool_with_stdin(&["analyse", "--depth", "1", "--jobs", "1", "-"], &bytes);
        prop_assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        prop_assert!(matches!(run.code, Some(0..=2)), "{:?}: {}", run.code, run.stderr);
    }
}
