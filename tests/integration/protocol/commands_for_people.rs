//! Commands for people: d, eval, moves, go perft, bench.

use super::*;

/// Sends a diagnostic command and answers its lines (not checked as protocol).
fn diagnostic(e: &mut EngineProcess, cmd: &str) -> Vec<String> {
    e.strict = false;
    e.send(cmd);
    let lines = e.sync();
    e.strict = true;
    lines
}

#[test]
fn d_draws_the_board_and_states_fen_side_state_and_rules() {
    let mut e = EngineProcess::start();
    let cases: [(Settings, &str, &[&str]); 4] = [
        (&[], "startpos", &[]),
        (&[], "startpos", &["g3g4", "a7a6", "g4f4"]),
        (
            &[("DogOverWolf", "true")],
            "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34",
            &[],
        ),
        (&[], "3L3/7/7/7/7/7/7/7/6e b 0 1", &[]),
    ];
    for (settings, fen, moves) in cases {
        e.quiet("setoption name UCI_Variant value jungle");
        for (name, value) in settings {
            e.quiet(&format!("setoption name {name} value {value}"));
        }
        let rules = rules_with(settings);
        let g = game_with(rules, fen, moves);
        let pos = g.position();
        e.quiet(&position_cmd(fen, moves));
        let lines = diagnostic(&mut e, "d");
        let field = |key: &str| -> String {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("d has no '{key}' line: {lines:?}"))
                .to_string()
        };
        assert_eq!(field("Fen: "), pos.fen());
        assert_eq!(field("Side to move: "), pos.side_to_move().to_string());
        let state = field("State: ");
        match g.outcome() {
            None => assert_eq!(state, "in play"),
            Some(o) => assert!(state.starts_with("over"), "{state} for {o}"),
        }
        let rules_line = field("Rules: ");
        for (name, value) in rules.settings() {
            let want = format!("{name}={value}");
            assert!(rules_line.contains(&want), "{rules_line} lacks {want}");
        }
        // The board: ranks 9..1, each square's letter or an empty mark.
        for sq in doushou::rules::Square::all() {
            let name = sq.to_string();
            let (file, rank) = (name.as_bytes()[0] - b'a', &name[1..]);
            let row = lines
                .iter()
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .find(|w| w.len() == 8 && w[0] == rank)
                .unwrap_or_else(|| panic!("d draws no rank {rank}: {lines:?}"));
            let drawn = row[1 + file as usize];
            match pos.piece_at(sq) {
                Some(p) => assert_eq!(drawn, p.letter().to_string(), "{sq}"),
                None => assert!(
                    [".", "~", "#", "*"].contains(&drawn),
                    "{sq}: empty drawn as {drawn}"
                ),
            }
        }
    }
    e.finish();
}

#[test]
fn eval_total_is_the_sum_of_its_terms() {
    let mut e = EngineProcess::start();
    for (fen, moves) in [
        ("startpos", &[][..]),
        ("startpos", &["g3g4", "a7a6"][..]),
        ("2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34", &[][..]),
    ] {
        e.quiet(&position_cmd(fen, moves));
        let lines = diagnostic(&mut e, "eval");
        assert!(lines.len() >= 3, "eval: {lines:?}");
        let value = |l: &str| -> i64 {
            l.split_whitespace()
                .last()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("eval line without a value: {l:?}"))
        };
        let total_line = lines.last().unwrap();
        assert_eq!(total_line.split_whitespace().next(), Some("total"));
        let sum: i64 = lines[1..lines.len() - 1].iter().map(|l| value(l)).sum();
        assert_eq!(value(total_line), sum, "{lines:?}");
    }
    e.finish();
}

#[test]
fn moves_lists_the_legal_moves_of_the_library() {
    let mut e = EngineProcess::start();
    let cases: [(&str, &[&str]); 6] = [
        ("startpos", &[]),
        ("startpos", &["g3g4", "a7a6", "g4g5", "a6a5"]),
        // Jumps of lion and tiger, blocked and not.
        ("l5t/1d3c1/r1p1w1e/7/3L3/7/E1T1P1R/1C3D1/6W w 4 8", &[]),
        ("l5t/1d3c1/2p1w2/1r4e/4R2/7/E1W1P2/1C3D1/T5L w 0 10", &[]),
        // Blue may not repeat the start position a third time.
        (
            "startpos",
            &["a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1"],
        ),
        ("5e1/l1d4/2p1wc1/1r5/7/3t3/2W4/1C1D2R/ET3L1 b 9 48", &[]),
    ];
    for (fen, moves) in cases {
        e.quiet(&position_cmd(fen, moves));
        assert_eq!(
            engine_moves(&mut e),
            legal_set(&game(fen, moves)),
            "{fen} moves {moves:?}"
        );
    }
    e.finish();
}

/// `go perft <depth>`: the divide lines and the total.
fn perft(e: &mut EngineProcess, depth: u32) -> (Vec<(String, u64)>, u64) {
    let lines = background_diagnostic(e, &format!("go perft {depth}"), |l| {
        l.starts_with("Nodes searched: ")
    });
    let (last, divide) = lines.split_last().expect("perft answered nothing");
    let total: u64 = last
        .strip_prefix("Nodes searched: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("perft's last line: {last:?}"));
    let divide = divide
        .iter()
        .map(|l| {
            let (m, n) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("divide line {l:?}"));
            (m.to_string(), n.parse().unwrap_or_else(|_| panic!("{l:?}")))
        })
        .collect();
    (divide, total)
}

#[test]
fn go_perft_divides_and_counts() {
    let mut e = EngineProcess::start();
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        // docs/rules.md: perft 3 of the start position is 12,240 over 24 moves.
        e.quiet("position startpos");
        let (divide, total) = perft(&mut e, 3);
        assert_eq!(total, 12_240);
        assert_eq!(divide.len(), 24);
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), total);
        let moves: BTreeSet<String> = divide.iter().map(|(m, _)| m.clone()).collect();
        assert_eq!(moves, legal_set(&game("startpos", &[])));

        // Elsewhere, against the library's perft, move by move.
        let (fen, moves) = (
            "l5t/1d3c1/r1p1w1e/7/3L3/7/E1T1P1R/1C3D1/6W w 4 8",
            ["d5d4", "a7a6"],
        );
        e.quiet(&position_cmd(fen, &moves));
        let (divide, total) = perft(&mut e, 2);
        let mut g = game(fen, &moves);
        assert_eq!(total, g.perft(2));
        assert_eq!(divide.len(), g.legal_moves().len());
        for (m, n) in divide {
            let mut h = g.clone();
            h.play_text(&m).unwrap();
            assert_eq!(n, h.perft(1), "divide {m}");
        }
    }
    e.finish();
}

#[test]
fn bench_reports_each_position_and_a_deterministic_total() {
    let mut e = EngineProcess::start();
    let (total, per_position) = bench(&mut e, 3);
    let fens: Vec<&str> = doushou::engine::bench::positions().collect();
    assert_eq!(
        per_position.len(),
        fens.len(),
        "one line per bench position"
    );
    assert_eq!(per_position.iter().map(|(n, _)| n).sum::<u64>(), total);
    for ((_, best), fen) in per_position.iter().zip(&fens) {
        let mut g = game(fen, &[]);
        match g.outcome() {
            Some(_) => assert_eq!(best, "0000", "{fen} is over"),
            None => assert!(g.play_text(best).is_ok(), "{fen}: {best}"),
        }
    }
    let (again, _) = bench(&mut e, 3);
    assert_eq!(total, again, "bench with one thread is deterministic");
    e.finish();
}

/// The search parameters are hidden options: `uci` does not list them, but
/// `setoption` changes the search (the bench's node count) and setting the
/// default back restores it; out-of-range values are refused.
#[test]
fn search_parameters_are_hidden_options_that_change_the_search() {
    let mut e = EngineProcess::start();
    e.send("uci");
    let listing = e.read_until(|l| l == "uciok");
    assert!(
        cfg!(feature = "tune") || !listing.iter().any(|l| l.contains("LMR_BASE_X100")),
        "hidden unless built for tuning: {listing:?}"
    );
    let (default_nodes, _) = bench(&mut e, 5);
    e.quiet("setoption name LMR_BASE_X100 value 150");
    e.quiet("setoption name futility_margin value 60");
    let (tuned_nodes, _) = bench(&mut e, 5);
    assert_ne!(
        default_nodes, tuned_nodes,
        "the parameters reach the search"
    );
    e.quiet("setoption name LMR_BASE_X100 value 50");
    e.quiet("setoption name FUTILITY_MARGIN value 110");
    let (reset_nodes, _) = bench(&mut e, 5);
    assert_eq!(
        default_nodes, reset_nodes,
        "the defaults give the same search"
    );
    for bad in ["-1000", "301", "x"] {
        e.send(&format!("setoption name LMR_BASE_X100 value {bad}"));
        let lines = e.sync();
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string error:")
                && lines[0].contains("LMR_BASE_X100"),
            "{bad:?}: {lines:?}"
        );
    }
    let (after_errors, _) = bench(&mut e, 5);
    assert_eq!(
        default_nodes, after_errors,
        "a refused value changes nothing"
    );
    e.finish();
}
