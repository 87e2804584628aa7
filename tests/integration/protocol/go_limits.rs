//! go limits and what the info lines say.

use super::*;

#[test]
fn go_depth_ends_by_itself_with_a_full_final_info_line() {
    let mut e = EngineProcess::start();
    let cases: [(&str, &[&str], u32); 3] = [
        ("startpos", &[], 4),
        ("startpos", &["g3g4", "a7a6"], 5),
        ("2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34", &[], 4),
    ];
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        for (fen, moves, depth) in cases {
            e.quiet(&position_cmd(fen, moves));
            let lines = e.go(&format!("go depth {depth}"));
            let answer = check_search(&e, &lines, &game(fen, moves));
            assert_eq!(answer.last.depth, Some(depth), "final depth: {lines:?}");
            let depths: BTreeSet<u32> = answer
                .infos
                .iter()
                .filter(|i| i.is_exact_line())
                .filter_map(|i| i.depth)
                .collect();
            assert_eq!(depths, (1..=depth).collect(), "every iteration reported");
            let nodes: Vec<u64> = answer.infos.iter().filter_map(|i| i.nodes).collect();
            assert!(
                nodes.windows(2).all(|w| w[0] <= w[1]),
                "nodes go down: {nodes:?}"
            );
            assert!(answer.last.nodes.unwrap() > 0);
            nothing_more(&mut e);
        }
    }
    e.finish();
}

#[test]
fn go_mate_finds_the_shortest_forced_win_and_stops() {
    let mut e = EngineProcess::start();
    // (position, mate limit); the wins are proven here by exhaustive search.
    let cases = [
        ("7/7/3L3/7/7/7/7/7/6e w 0 1", 2),
        ("1c3d1/2p4/2L1T2/7/7/7/7/7/6e w 0 1", 3),
        ("1c3d1/2p4/2L1T2/7/7/7/7/7/6e w 0 1", 5),
        ("1c5/7/2L4/7/7/7/7/7/6e w 0 1", 4),
    ];
    for (fen, limit) in cases {
        for fen in [
            fen.to_string(),
            fen.parse::<Position>().unwrap().mirrored().fen(),
        ] {
            let mut g = game(&fen, &[]);
            let shortest = (1..=limit)
                .find(|&n| wins_within(&mut g, n))
                .expect("test data: a win within the limit");
            e.quiet(&position_cmd(&fen, &[]));
            let lines = e.go(&format!("go mate {limit}"));
            let answer = check_search(&e, &lines, &g);
            assert_eq!(
                answer.last.score,
                Some(Score::Mate(shortest as i32)),
                "{fen}: go mate {limit}"
            );
            // The move played keeps the win within that many moves.
            let m: Move = answer.best.parse().unwrap();
            g.make(m);
            let keeps = match g.outcome() {
                Some(Outcome::Win { .. }) => true,
                Some(Outcome::Draw(_)) => false,
                None => shortest > 1 && loses_within(&mut g, shortest - 1),
            };
            assert!(keeps, "{fen}: {} does not win in {shortest}", answer.best);
        }
    }
    e.finish();
}

#[test]
fn go_nodes_stops_near_the_limit() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos moves g3g4 a7a6");
    let game = game("startpos", &["g3g4", "a7a6"]);
    for threads in [1, 2] {
        e.quiet(&format!("setoption name Threads value {threads}"));
        for limit in [5_000u64, 30_000] {
            let lines = e.go(&format!("go nodes {limit}"));
            let answer = check_search(&e, &lines, &game);
            let n = answer.last.nodes.unwrap();
            assert!(n >= limit / 2, "go nodes {limit}: stopped at {n}");
            // One thread checks the limit every 1024 nodes. With more, only
            // the main thread checks the total, so a helper may run on while it
            // is descheduled on a loaded machine: no upper bound there.
            assert!(
                threads > 1 || n <= limit + 1024,
                "go nodes {limit} with {threads} threads searched {n}"
            );
        }
        // Even a tiny limit gives a legal move.
        let lines = e.go("go nodes 1");
        check_search(&e, &lines, &game);
    }
    e.finish();
}

#[test]
fn go_searchmoves_plays_only_among_them() {
    let mut e = EngineProcess::start();
    let moves = ["g3g4", "a7a6"];
    let game = game("startpos", &moves);
    e.quiet(&position_cmd("startpos", &moves));
    let cases: [&[&str]; 3] = [&["a1b1", "g1g2"], &["b2b1"], &["f2f1", "a1b1", "g4g5"]];
    for (i, allowed) in cases.iter().enumerate() {
        for m in *allowed {
            assert!(legal_set(&game).contains(*m), "test data: {m} not legal");
        }
        let go = match i {
            0 => format!("go depth 4 searchmoves {}", allowed.join(" ")),
            1 => format!("go searchmoves {} wtime 1000 btime 1000", allowed.join(" ")),
            _ => format!("go searchmoves {} movetime 50", allowed.join(" ")),
        };
        let lines = e.go(&go);
        let answer = check_search(&e, &lines, &game);
        assert!(
            allowed.contains(&answer.best.as_str()),
            "{go}: {}",
            answer.best
        );
        for info in &answer.infos {
            let first = &info.pv.as_ref().unwrap()[0];
            assert!(allowed.contains(&first.as_str()), "{go}: pv {first}");
        }
    }
    // With MultiPV 3 and two moves allowed: two lines per depth.
    e.quiet("setoption name MultiPV value 3");
    let lines = e.go("go depth 3 searchmoves a1b1 g1g2");
    let answer = check_search(&e, &lines, &game);
    let pvs: BTreeSet<u32> = answer.infos.iter().filter_map(|i| i.multipv).collect();
    assert_eq!(pvs, BTreeSet::from([1, 2]), "{lines:?}");
    e.finish();
}

/// For each depth, the exact lines: multipv 1..=k, each once, distinct first moves.
fn check_multipv(e: &EngineProcess, answer: &Answer, k: u32, depth: u32) {
    for d in 1..=depth {
        let lines: Vec<&Info> = answer
            .infos
            .iter()
            .filter(|i| i.depth == Some(d) && i.is_exact_line())
            .collect();
        // The final line repeats multipv 1 at the last depth.
        let lines = if d == depth {
            &lines[..lines.len().saturating_sub(1)]
        } else {
            &lines[..]
        };
        let numbers: Vec<u32> = lines.iter().map(|i| i.multipv.unwrap_or(0)).collect();
        let firsts: BTreeSet<&String> = lines.iter().map(|i| &i.pv.as_ref().unwrap()[0]).collect();
        if numbers != (1..=k).collect::<Vec<_>>() || firsts.len() != k as usize {
            e.fail(&format!(
                "depth {d}: expected multipv 1..={k} with distinct moves, got {numbers:?} {firsts:?}"
            ));
        }
    }
}

#[test]
fn multipv_reports_that_many_distinct_lines_per_depth() {
    let mut e = EngineProcess::start();
    e.quiet("setoption name MultiPV value 3");
    e.quiet("position startpos");
    let lines = e.go("go depth 4");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    check_multipv(&e, &answer, 3, 4);
    let last_first = answer
        .infos
        .iter()
        .rev()
        .find(|i| i.multipv == Some(1) && i.is_exact_line())
        .unwrap();
    assert_eq!(last_first.pv.as_ref().unwrap()[0], answer.best);

    // Fewer legal moves than lines: one line per move.
    let fen = "6e/7/7/7/7/7/7/7/T6 w 0 1";
    let n = game(fen, &[]).legal_moves().len() as u32;
    assert!(n < 3, "test data");
    e.quiet(&position_cmd(fen, &[]));
    let lines = e.go("go depth 3");
    let answer = check_search(&e, &lines, &game(fen, &[]));
    check_multipv(&e, &answer, n, 3);

    e.quiet("setoption name MultiPV value 1");
    e.quiet("position startpos");
    let lines = e.go("go depth 3");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    check_multipv(&e, &answer, 1, 3);
    e.finish();
}

#[test]
fn uci_show_wdl_adds_wdl_to_scores() {
    let mut e = EngineProcess::start();
    e.quiet("position startpos");
    let lines = e.go("go depth 3");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    assert!(
        answer.infos.iter().all(|i| i.wdl.is_none()),
        "wdl without UCI_ShowWDL"
    );

    e.quiet("setoption name UCI_ShowWDL value true");
    let positions = [
        "startpos",
        "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34",
        // Red wins in 2; Blue loses in 2.
        "7/7/3L3/7/7/7/7/7/6e w 0 1",
        "7/7/3L3/7/7/7/7/7/6e b 0 1",
        // Red is a lion up.
        "6e/7/7/7/7/7/7/7/L5E b 0 1",
    ];
    for fen in positions {
        e.quiet(&position_cmd(fen, &[]));
        let lines = e.go("go depth 4");
        let answer = check_search(&e, &lines, &game(fen, &[]));
        for info in answer.infos.iter().filter(|i| i.score.is_some()) {
            let Some((w, d, l)) = info.wdl else {
                e.fail(&format!("no wdl with UCI_ShowWDL: {info:?}"));
            };
            let fits = match info.score.unwrap() {
                Score::Mate(n) if n > 0 => (w, d, l) == (1000, 0, 0),
                Score::Mate(_) => (w, d, l) == (0, 0, 1000),
                Score::Cp(cp) if cp > 0 => w >= l,
                Score::Cp(cp) if cp < 0 => w <= l,
                Score::Cp(_) => w == l,
            };
            if !fits {
                e.fail(&format!("wdl does not fit the score: {info:?}"));
            }
        }
    }
    e.quiet("setoption name UCI_ShowWDL value false");
    e.quiet("position startpos");
    let lines = e.go("go depth 2");
    let answer = check_search(&e, &lines, &game("startpos", &[]));
    assert!(
        answer.infos.iter().all(|i| i.wdl.is_none()),
        "wdl after turning it off"
    );
    e.finish();
}
