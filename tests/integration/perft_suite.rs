//! Perft against reference counts: the suite of built positions under each rule
//! switch (`tests/data/perft-suite.txt`), the start position table of
//! `docs/rules.md`, and the parallel divide agreeing with the serial one.

use crate::common;

use doushou::rules::{Game, Position, Rules, START_FEN, perft_divide};

/// One line of the suite: position, switches (`defaults` or `Name=Value` items),
/// and `(depth, leaves)` pairs.
struct Case {
    line: usize,
    fen: String,
    switches: Vec<String>,
    counts: Vec<(u32, u64)>,
}

fn parse_suite() -> Vec<Case> {
    let text = common::read_perft_suite();
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(
            fields.len() >= 3,
            "line {}: expected 'FEN ; switches ; D1 n ...', got {line:?}",
            i + 1
        );
        let switches = if fields[1].eq_ignore_ascii_case("defaults") {
            Vec::new()
        } else {
            fields[1]
                .split([',', ' '])
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let counts = fields[2..]
            .iter()
            .map(|f| {
                let (d, n) = f
                    .split_once(char::is_whitespace)
                    .unwrap_or_else(|| panic!("line {}: bad count field {f:?}", i + 1));
                let depth = d
                    .strip_prefix('D')
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("line {}: bad depth {d:?}", i + 1));
                let leaves = n
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("line {}: bad count {n:?}", i + 1));
                (depth, leaves)
            })
            .collect();
        cases.push(Case {
            line: i + 1,
            fen: fields[0].to_string(),
            switches,
            counts,
        });
    }
    cases
}

#[test]
fn suite_file_is_complete() {
    let cases = parse_suite();
    // The header promises depths 1-3 for every position; the file has 62 positions
    // across the defaults and the eight other switch groups.
    assert!(cases.len() >= 60, "only {} cases parsed", cases.len());
    for c in &cases {
        let depths: Vec<u32> = c.counts.iter().map(|&(d, _)| d).collect();
        assert_eq!(depths, vec![1, 2, 3], "line {}", c.line);
    }
    let mut names: Vec<&str> = cases
        .iter()
        .flat_map(|c| c.switches.iter().map(|s| s.split('=').next().unwrap()))
        .collect();
    names.sort();
    names.dedup();
    for expected in [
        "DogOverWolf",
        "TigerJump",
        "LionJump",
        "RatBankCapture",
        "RatWaterElephant",
        "TrappedAttackerPowerless",
        "UniversalTraps",
        "JumpBlockedBy",
    ] {
        assert!(names.contains(&expected), "no case for {expected}");
    }
}

#[test]
fn suite_positions_match_reference_counts() {
    let mut mismatches = Vec::new();
    let cases = parse_suite();
    for c in &cases {
        let mut rules = Rules::default();
        if let Err(e) = rules.apply_settings(c.switches.iter().map(String::as_str)) {
            mismatches.push(format!("line {}: switches {:?}: {e}", c.line, c.switches));
            continue;
        }
        // Also set them one by one with `Rules::set`: both ways must agree.
        let mut by_set = Rules::default();
        for s in &c.switches {
            let (n, v) = s.split_once('=').expect("Name=Value");
            by_set
                .set(n, v)
                .expect("set accepts what apply_settings accepts");
        }
        assert_eq!(rules, by_set, "line {}", c.line);
        let position: Position = match c.fen.parse() {
            Ok(p) => p,
            Err(e) => {
                mismatches.push(format!("line {}: {}: FEN error {e:?}", c.line, c.fen));
                continue;
            }
        };
        for &(depth, expected) in &c.counts {
            let mut game = Game::new(rules, position);
            let got = game.perft(depth);
            if got != expected {
                mismatches.push(format!(
                    "line {}: {} [{}] depth {depth}: expected {expected}, got {got}",
                    c.line,
                    c.fen,
                    if c.switches.is_empty() {
                        "defaults".to_string()
                    } else {
                        c.switches.join(" ")
                    }
                ));
            }
            // perft must leave the game as it found it.
            assert_eq!(*game.position(), position, "line {}", c.line);
            assert_eq!(game.plies_played(), 0, "line {}", c.line);
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} perft mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn start_position_matches_rules_md_table() {
    // docs/rules.md, "Checks anyone can make".
    let table: [(u32, u64); 5] = [(1, 24), (2, 576), (3, 12_240), (4, 260_099), (5, 5_111_620)];
    let position: Position = START_FEN.parse().unwrap();
    assert_eq!(position, Position::startpos());
    let mut mismatches = Vec::new();
    for (depth, expected) in table {
        let got = if depth >= 4 {
            // Parallel over root moves to keep the test quick.
            perft_divide(&Game::new(Rules::default(), position), depth, 4).nodes
        } else {
            Game::new(Rules::default(), position).perft(depth)
        };
        if got != expected {
            mismatches.push(format!(
                "startpos depth {depth}: expected {expected}, got {got}"
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn perft_depth_zero_is_one_leaf() {
    let game = Game::new(Rules::default(), Position::startpos());
    assert_eq!(game.clone().perft(0), 1);
    let report = perft_divide(&game, 0, 1);
    assert_eq!(report.nodes, 1);
    assert!(report.divide.is_empty());
}

#[test]
fn divide_is_the_same_on_one_and_two_threads() {
    let mut positions: Vec<(Rules, String)> = vec![(Rules::default(), START_FEN.to_string())];
    for c in parse_suite().into_iter().step_by(7) {
        let mut rules = Rules::default();
        rules
            .apply_settings(c.switches.iter().map(String::as_str))
            .unwrap();
        positions.push((rules, c.fen));
    }
    for (rules, fen) in positions {
        let game = Game::new(rules, fen.parse().unwrap());
        let depth = 3;
        let one = perft_divide(&game, depth, 1);
        let two = perft_divide(&game, depth, 2);
        assert_eq!(one, two, "{fen}");
        // The divide lists each legal root move once, in generation order, and sums
        // to the total, which is the plain perft count.
        let roots: Vec<_> = one.divide.iter().map(|&(m, _)| m).collect();
        assert_eq!(roots, game.legal_moves().to_vec(), "{fen}");
        assert_eq!(
            one.divide.iter().map(|&(_, n)| n).sum::<u64>(),
            one.nodes,
            "{fen}"
        );
        assert_eq!(one.nodes, game.clone().perft(depth), "{fen}");
        for &(m, n) in &one.divide {
            let mut g = game.clone();
            g.make(m);
            assert_eq!(g.perft(depth - 1), n, "{fen} {m}");
        }
    }
}
