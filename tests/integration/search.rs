//! Search tests: forced wins found with the right distance (checked against an
//! exhaustive prover written here), legal moves always, repetition draws used by
//! the losing side and avoided by the winning one.

use doushou::engine::score::{MATE, Score};
use doushou::engine::search::Silent;
use doushou::engine::{Engine, GoLimits};
use doushou::rules::{
    Animal, DEN, Game, Outcome, Piece, Position, Rules, START_FEN, Side, Square, WATER,
};
use doushou::util::rng::SplitMix64;

/// The project's seeded generator, so every run tests the same positions. The
/// remainder keeps the draws these tests were written against.
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n
    }
}

/// Whether the side that just moved has won on that move.
fn mover_won(game: &Game) -> Option<bool> {
    let mover = game.position().side_to_move().opponent();
    match game.outcome() {
        Some(Outcome::Win { winner, .. }) => Some(winner == mover),
        Some(Outcome::Draw(_)) => Some(false),
        None => None,
    }
}

/// Whether the side to move can force a win within `plies` plies (odd).
fn can_win(game: &mut Game, plies: u32) -> bool {
    for m in game.legal_moves().iter().copied() {
        game.make(m);
        let won = match mover_won(game) {
            Some(w) => w,
            None => plies >= 3 && must_lose(game, plies - 1),
        };
        game.unmake();
        if won {
            return true;
        }
    }
    false
}

/// Whether the side to move loses within `plies` plies whatever it does.
fn must_lose(game: &mut Game, plies: u32) -> bool {
    match game.outcome() {
        Some(Outcome::Win { winner, .. }) => return winner != game.position().side_to_move(),
        Some(Outcome::Draw(_)) => return false,
        None => {}
    }
    for m in game.legal_moves().iter().copied() {
        game.make(m);
        let lost = match mover_won(game) {
            Some(w) => {
                !w && game
                    .outcome()
                    .is_some_and(|o| matches!(o, Outcome::Win { .. }))
            }
            None => can_win(game, plies - 1),
        };
        game.unmake();
        if !lost {
            return false;
        }
    }
    true
}

/// The fewest moves in which the side to move forces a win, up to `max`.
fn shortest_win(game: &mut Game, max: u32) -> Option<u32> {
    (1..=max).find(|&n| can_win(game, 2 * n - 1))
}

/// A random sparse position with the side to move's pieces near the enemy den.
fn random_position(rng: &mut Rng) -> Option<Position> {
    let side = if rng.below(2) == 0 {
        Side::Red
    } else {
        Side::Blue
    };
    let mut pos = Position::empty(side);
    let mut used = 0u64;
    for s in Side::BOTH {
        let count = 2 + rng.below(3) as usize;
        let mut animals = Animal::ALL.to_vec();
        for _ in 0..count {
            let animal = animals.remove(rng.below(animals.len() as u64) as usize);
            let piece = Piece::new(s, animal);
            let enemy_den = DEN[s.opponent().index()].trailing_zeros() as i32;
            for _ in 0..50 {
                let sq = if s == side && rng.below(2) == 0 {
                    // Near the enemy den: within three files and ranks.
                    let (df, dr) = (rng.below(5) as i32 - 2, rng.below(4) as i32);
                    let (f, r) = (
                        enemy_den % 7 + df,
                        enemy_den / 7 + if s == Side::Red { -dr } else { dr },
                    );
                    match Square::new(f.clamp(0, 6) as u8, r.clamp(0, 8) as u8) {
                        Some(sq) => sq,
                        None => continue,
                    }
                } else {
                    Square::from_index(rng.below(63) as u8)
                };
                let bad = used & sq.bit() != 0
                    || (WATER & sq.bit() != 0 && animal != Animal::Rat)
                    || DEN[0] & sq.bit() != 0
                    || DEN[1] & sq.bit() != 0;
                if !bad {
                    pos.put(piece, sq);
                    used |= sq.bit();
                    break;
                }
            }
        }
    }
    // Round-trip through the notation so the position is a valid one.
    pos.fen().parse().ok()
}

fn engine_with(rules: &Rules) -> Engine {
    let mut engine = Engine::new();
    for (name, value) in rules.settings() {
        engine.set_option(name, Some(&value)).expect("rule option");
    }
    engine.set_option("Hash", Some("8")).unwrap();
    engine
}

fn search(
    engine: &mut Engine,
    fen: &str,
    moves: &[&str],
    depth: u32,
) -> (doushou::rules::Move, i32) {
    engine.new_game();
    engine.set_position(fen, moves).expect("valid position");
    let limits = GoLimits {
        depth: Some(depth),
        ..GoLimits::default()
    };
    let r = engine.search(&limits, &Silent).expect("position set");
    (r.best_move, r.score)
}

#[test]
fn forced_wins_are_found_at_their_exact_distance() {
    let mut rng = Rng(SplitMix64::new(7));
    let rules = Rules::default();
    let mut engine = engine_with(&rules);
    let mut found = [0usize; 4];
    let mut tries = 0;
    while found[1..].iter().any(|&n| n < 10) && tries < 20_000 {
        tries += 1;
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let mut game = Game::new(rules, pos);
        if game.outcome().is_some() {
            continue;
        }
        let Some(n) = shortest_win(&mut game, 3) else {
            continue;
        };
        if found[n as usize] >= 10 {
            continue;
        }
        found[n as usize] += 1;
        let fen = pos.fen();
        let (best, score) = search(&mut engine, &fen, &[], 2 * n + 3);
        assert_eq!(
            Score::from_internal(score),
            Score::Mate(n as i32),
            "{fen}: win in {n} expected"
        );
        // The move played must keep the forced win of the right length.
        game.make(best);
        let keeps_win = mover_won(&game) == Some(true) || must_lose(&mut game, 2 * n - 2);
        assert!(keeps_win, "{fen}: {best} does not win in {n}");
    }
    assert!(
        found[1..].iter().all(|&n| n >= 10),
        "too few wins found: {found:?}"
    );
}

#[test]
fn forced_losses_have_negative_mate_scores() {
    let mut rng = Rng(SplitMix64::new(99));
    let rules = Rules::default();
    let mut engine = engine_with(&rules);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 8 && tries < 20_000 {
        tries += 1;
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let mut game = Game::new(rules, pos);
        if game.outcome().is_some() || !must_lose(&mut game, 2) {
            continue;
        }
        // Lost within two plies, and not at once (the side to move has moves).
        if game.legal_moves().is_empty() {
            continue;
        }
        checked += 1;
        let (_, score) = search(&mut engine, &pos.fen(), &[], 4);
        assert_eq!(
            Score::from_internal(score),
            Score::Mate(-1),
            "{}",
            pos.fen()
        );
    }
    assert_eq!(checked, 8);
}

#[test]
fn bestmove_is_always_legal() {
    let mut rng = Rng(SplitMix64::new(3));
    let mut engine = engine_with(&Rules::default());
    let mut searched = 0;
    while searched < 40 {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let game = Game::new(Rules::default(), pos);
        if game.outcome().is_some() {
            continue;
        }
        searched += 1;
        for limits in [
            GoLimits {
                depth: Some(1),
                ..GoLimits::default()
            },
            GoLimits {
                depth: Some(4),
                ..GoLimits::default()
            },
            GoLimits {
                nodes: Some(1),
                ..GoLimits::default()
            },
        ] {
            engine.set_position(&pos.fen(), &[] as &[&str]).unwrap();
            let r = engine.search(&limits, &Silent).unwrap();
            assert!(game.is_legal(r.best_move), "{}: {}", pos.fen(), r.best_move);
        }
    }
}

#[test]
fn a_won_game_answers_no_move() {
    let mut engine = engine_with(&Rules::default());
    let (best, score) = search(&mut engine, "3E3/7/7/7/7/7/7/7/4e2 b 0 1", &[], 3);
    assert!(best.is_null());
    assert_eq!(score, -MATE);
}

/// Red is far ahead. Both sides shuttle one piece, so the start position can
/// come a third time; under `Repetition=draw` that ends the game drawn.
const SHUTTLE: &str = "7/5c1/r6/7/3L3/7/6E/7/T6";

#[test]
fn the_losing_side_takes_a_repetition_draw() {
    let mut rules = Rules::default();
    rules.repetition = doushou::rules::Repetition::Draw;
    let mut engine = engine_with(&rules);
    let fen = format!("{SHUTTLE} w 0 1");
    let moves = ["a1a2", "f8f9", "a2a1", "f9f8", "a1a2", "f8f9", "a2a1"];
    let (best, score) = search(&mut engine, &fen, &moves, 6);
    assert_eq!(best.to_string(), "f9f8", "blue, lost, should repeat");
    // A draw, worth the contempt less than equality to the side searching.
    assert_eq!(score, -doushou::engine::DEFAULT_CONTEMPT);
}

#[test]
fn the_winning_side_avoids_a_repetition_draw() {
    let mut rules = Rules::default();
    rules.repetition = doushou::rules::Repetition::Draw;
    let mut engine = engine_with(&rules);
    let fen = format!("{SHUTTLE} b 0 1");
    let moves = ["f8f9", "a1a2", "f9f8", "a2a1", "f8f9", "a1a2", "f9f8"];
    let (best, score) = search(&mut engine, &fen, &moves, 6);
    assert_ne!(best.to_string(), "a2a1", "red, winning, should not repeat");
    assert!(score > 200, "red should see its advantage, got {score}");
}

#[test]
fn mate_search_stops_at_the_mate() {
    // A lion next to the blue den: win in one; `go mate 1` must find it at once.
    let mut engine = engine_with(&Rules::default());
    engine
        .set_position("7/3L3/7/7/7/7/7/7/4e2 w 0 1", &[] as &[&str])
        .unwrap();
    let limits = GoLimits {
        mate: Some(1),
        ..GoLimits::default()
    };
    let r = engine.search(&limits, &Silent).unwrap();
    assert_eq!(r.best_move.to_string(), "d8d9");
    assert_eq!(Score::from_internal(r.score), Score::Mate(1));
}

#[test]
fn den_threats_neither_hide_wins_nor_blow_up_the_search() {
    // Blue's lion, tiger and panther stand around Red's den; Red's defenders are
    // near. A runaway extension would search millions of nodes at depth 8.
    let fen = "6e/7/r6/7/7/7/3p2E/R1l1t2/1WC1D2 w 0 30";
    let mut engine = engine_with(&Rules::default());
    for depth in [4, 8] {
        engine.new_game();
        engine.set_position(fen, &[] as &[&str]).unwrap();
        let limits = GoLimits {
            depth: Some(depth),
            ..GoLimits::default()
        };
        let r = engine.search(&limits, &Silent).unwrap();
        assert!(r.nodes < 3_000_000, "depth {depth}: {} nodes", r.nodes);
        let game = Game::from_fen_and_moves(Rules::default(), fen, &[] as &[&str]).unwrap();
        assert!(game.is_legal(r.best_move));
    }
}

/// Two threads pool their iterations: the search to a depth answers that
/// depth, with a legal move that heads its line, whichever thread got there.
#[test]
fn two_threads_answer_the_depth_asked_with_a_legal_line() {
    let mut engine = engine_with(&Rules::default());
    engine.set_option("Threads", Some("2")).unwrap();
    for fen in [
        START_FEN,
        "7/3d3/3w1t1/3e1R1/3p2c/C1r4/1lE1LD1/4W2/7 w 0 43",
    ] {
        engine.new_game();
        engine.set_position(fen, &[] as &[&str]).unwrap();
        let limits = GoLimits {
            depth: Some(9),
            ..GoLimits::default()
        };
        let r = engine.search(&limits, &Silent).unwrap();
        assert_eq!(r.depth, 9, "{fen}");
        assert_eq!(r.pv.first(), Some(&r.best_move), "{fen}");
        let game = Game::from_fen_and_moves(Rules::default(), fen, &[] as &[&str]).unwrap();
        assert!(game.is_legal(r.best_move), "{fen}");
    }
}
