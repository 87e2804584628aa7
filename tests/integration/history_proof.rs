//! Table draws under `Repetition=forbid`, where the game's history can
//! squeeze a side out of a draw: the proof with the history
//! (`tb::prove_under_history`) and the engine's use of it, on positions of the
//! engine's own games. Each test makes the 4-piece material it needs.

use crate::common;

use common::BIN;
use doushou::engine::{Engine, GoLimits};
use doushou::rules::{Game, Move, Outcome, Rules, Side};
use doushou::tb::{self, Material, TableSet, Verdict};
use doushou::util::rng::SplitMix64;
use std::path::{Path, PathBuf};

/// A directory of tables called `name` that every run of the tests shares:
/// `tb generate` keeps a valid file it finds, so a second run reads the
/// tables instead of making them again (the generator itself is checked
/// afresh by the `tablebase` tests).
fn shared_tables(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("history-proof-tables")
        .join(name)
}

/// The game from `fen` after `moves` (the game's moves, blank-separated)
/// and the tables of its material, in the shared directory `name`.
fn game_with_tables(fen: &str, moves: &str, name: &str) -> (Game, TableSet, PathBuf) {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let game = Game::from_fen_and_moves(Rules::JUNGLE, fen, &moves).unwrap();
    let dir = shared_tables(name);
    let material = Material::of(game.position());
    let set = tb::generate(&dir, Rules::JUNGLE, &[material.canonical()], |_| {}).unwrap();
    (game, set, dir)
}

#[test]
fn under_forbid_a_squeezed_table_draw_is_proven_and_the_proof_wins_when_played() {
    // Two positions of bench-positions/tb-draws-lost.txt with four pieces
    // (elephant and rat against elephant and wolf), where the engine lost a
    // table draw to the game's history. The proof under the history finds
    // them lost whatever Blue plays (the suite's "holds" only held as far
    // as a search saw), and the game's opening won for Red from the start.
    let suite = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bench-positions")
        .join("tb-draws-lost.txt");
    let entries = doushou::tools::races::read_suite_file(&suite).unwrap();
    let dir = shared_tables("squeeze");
    let budget = 1_000_000;
    for entry in [&entries[0], &entries[3]] {
        let spec = &entry.position;
        let game = Game::from_fen_and_moves(entry.rules, &spec.fen, &spec.moves).unwrap();
        let material = Material::of(game.position());
        assert_eq!(material.pieces().len(), 4, "{}", spec.fen);
        let set = tb::generate(&dir, entry.rules, &[material.canonical()], |_| {}).unwrap();
        assert_eq!(set.probe(game.position()), Some(Verdict::Draw));
        let verdict = prove(&set, &game, budget);
        assert_eq!(
            verdict,
            tb::ProofVerdict::Lost,
            "{} {:?}",
            spec.fen,
            spec.moves
        );
        let opening = Game::from_fen_and_moves(entry.rules, &spec.fen, &[] as &[&str]).unwrap();
        let verdict = prove(&set, &opening, budget);
        assert!(matches!(verdict, tb::ProofVerdict::Won(_)), "{verdict:?}");
    }
    // The proof's strategy from that opening against Blue's random moves,
    // then the tables' fastest win once Blue leaves the draw: the game
    // ends in Red's win, refereed by the rules (the history included).
    let entry = &entries[0];
    let set = TableSet::load(&dir, entry.rules).unwrap();
    let mut memory = tb::ProofMemory::new(1 << 22);
    let mut rng = SplitMix64::new(29);
    for _ in 0..4 {
        let mut game = Game::new(entry.rules, entry.position.fen.parse().unwrap());
        while game.outcome().is_none() {
            let legal = game.legal_moves();
            let m = if game.position().side_to_move() == Side::Blue {
                legal[rng.below(legal.len())]
            } else if set.probe(game.position()) == Some(Verdict::Draw) {
                match tb::prove_under_history(
                    &set,
                    &game,
                    tb::Question::Verdict,
                    budget,
                    &mut memory,
                )
                .0
                {
                    tb::ProofVerdict::Won(winning) => winning[0],
                    other => panic!("{other:?} after {:?}", game.moves_played()),
                }
            } else {
                let ranked = set.rank_moves(game.position()).unwrap();
                ranked
                    .into_iter()
                    .find(|(m, _)| legal.contains(m))
                    .unwrap()
                    .0
            };
            game.make(m);
        }
        let outcome = game.outcome().unwrap();
        assert!(
            matches!(
                outcome,
                Outcome::Win {
                    winner: Side::Red,
                    ..
                }
            ),
            "{outcome:?} after {:?}",
            game.moves_played()
        );
    }
}

/// An engine with the tables in `dir`, the history proof's share of the
/// time at `proof_percent` (0: never asked), at `fen` after `moves`.
fn engine_with_tables(dir: &Path, proof_percent: &str, fen: &str, moves: &[&str]) -> Engine {
    let mut engine = Engine::new();
    engine
        .set_option("TablebasePath", Some(dir.to_str().unwrap()))
        .unwrap();
    engine
        .set_option("HISTORY_PROOF_PERCENT", Some(proof_percent))
        .unwrap();
    engine.set_position(fen, moves).unwrap();
    engine
}

#[test]
fn the_proof_holds_the_one_move_of_a_root_a_search_gave_up() {
    // A game of the tables-against-plain match (endings45, 1+0.01): Blue's
    // dog and elephant against Red's lion and elephant, 22 plies before the
    // no-capture limit, the dog and lion shuffling by Red's den. Only a2a3
    // keeps the draw under the history; the search stores losses the
    // history forces on one path and meets them on another, scores every
    // move mated in 8 and played a2b2, which loses. The proof sees it.
    const FEN: &str = "7/2dew2/7/7/7/7/7/5L1/6E b 0 103";
    let moves = "e8f8 g1g2 c8c7 g2g3 c7b7 f2f3 b7a7 g3g4 a7a6 g4g5 a6a5 g5g6 a5a4 f3e3 f8f7 \
        g6g7 a4a3 g7f7 a3a2 e3e2 a2b2 e2d2 b2b1 d2c2 d8e8 c2c1 b1b2 c1c2 b2b1 c2c1 \
        b1b2 c1c2 b2a2 c2b2 a2a1 b2c2 a1a2 c2b2 a2a1 b2c2 e8d8 c2b2 d8d7 b2b1 a1a2 \
        b1b2 a2a1 b2b1 a1a2 b1c1 a2a1 c1c2 a1b1 c2c1 b1b2 c1c2 b2b3 c2c3 b3b2 c3c2 \
        b2b1 f7f8 d7e7 c2c1 b1b2 c1c2 b2b3 f8g8 e7d7 g8f8 d7e7 f8g8 e7e8 g8g7 b3a3 \
        c2b2 e8e7 g7g8 e7d7 b2b3 a3a2 b3b2 a2a1 b2b1 a1a2 g8f8 d7e7 b1b2 a2a1 b2b1 \
        a1a2 b1b2 a2a3 b2c2 a3a2 c2c1";
    let (game, set, _) = game_with_tables(FEN, moves, "given-up");
    assert_eq!(set.probe(game.position()), Some(Verdict::Draw));
    let (holding, losing) = held(&set, &game, 1_000_000);
    assert_eq!(holding, ["a2a3"]);
    assert!(losing.iter().any(|m| m == "a2b2"), "{losing:?}");
}

#[test]
fn near_the_no_capture_limit_the_proof_holds_by_a_loss_too_long_for_it() {
    // A game of the tables-against-plain match (endings45, 1+0.01): Blue's
    // elephant and tiger against Red's elephant and lion, 14 plies before
    // the no-capture limit, the history full of the tiger's shuffle. The
    // tables call one move a draw (g6g5), which the history loses: Red's
    // lion jumps to g4. The others lose in the tables in 18 plies, more
    // than the 14 the limit leaves; after g6g7 Red cannot capture in time and the
    // game is drawn, after d8c8 or d8e8 it can.
    const FEN: &str = "2d4/3e3/4L2/7/7/t6/1E5/7/7 w 8 142";
    let moves = "e7e3 a4a5 b3c3 a5a6 c3d3 a6a7 e3e7 a7b7 d3c3 c9c8 c3b3 c8c7 e7e3 c7d7 e3e7 \
        d8e8 e7d7 e8d8 d7c7 b7a7 c7c3 a7a6 c3c2 a6d6 c2d2 d8e8 d2d3 d6d5 d3c3 e8d8 b3b2 d5d6 \
        c3d3 d6d5 d3e3 d5a5 b2b3 a5a4 e3d3 a4a5 d3c3 d8c8 c3c2 a5d5 b3c3 d5g5 c3d3 g5g4 c2d2 \
        c8c7 d2e2 c7d7 e2e3 g4g3 e3f3 g3g4 f3e3 g4g5 d3d4 d7e7 e3e2 g5g6 e2d2 e7d7 d2d3 g6g5 \
        d3d2 g5g6 d4d5 g6g5 d2e2 d7e7 d5d4 g5g4 e2f2 e7f7 d4d5 g4g5 f2e2 f7e7 e2f2 g5g4 f2g2 \
        g4g5 g2g3 e7d7 g3f3 d7e7 f3e3 g5g4 e3f3 g4g5 f3g3 e7e8 d5d6 e8d8 g3g4 g5g6 g4g5 g6g7 \
        g5g4 g7g6 g4d4";
    let (game, set, _) = game_with_tables(FEN, moves, "too-long");
    assert_eq!(game.position().fen(), "7/3e3/7/3E2t/7/3L3/7/7/7 b 86 193");
    assert_eq!(set.probe(game.position()), Some(Verdict::Draw));
    let ranked: Vec<(String, Verdict)> = set
        .rank_moves(game.position())
        .unwrap()
        .into_iter()
        .map(|(m, v)| (m.to_string(), v))
        .collect();
    let draws: Vec<&str> = ranked
        .iter()
        .filter(|(_, v)| *v == Verdict::Draw)
        .map(|(m, _)| m.as_str())
        .collect();
    assert_eq!(draws, ["g6g5"], "{ranked:?}");
    assert!(
        ranked.contains(&("g6g7".to_string(), Verdict::Loss(18))),
        "{ranked:?}"
    );
    let (holding, losing) = held(&set, &game, 2_000_000);
    assert_eq!(holding, ["g6g7"]);
    assert!(losing.iter().any(|m| m == "g6g5"), "{losing:?}");
}

/// A game of the tables-against-plain match (endings45, 1+0.01): Red's
/// lion and tiger against Blue's lion and elephant, Blue won.
const GAME_140: &str = "6T/5l1/2e4/7/7/7/1L5/7/7 b 0 189";
/// Its first 83 moves: Red then stands 17 plies before the no-capture
/// limit.
const GAME_140_MOVES: &str = "c7b7 b3c3 b7c7 c3c2 f8f9 g9g8 f9f8 g8g7 c7c8 c2c3 c8c7 c3d3 c7d7 d3c3 d7c7 \
        c3d3 c7d7 d3c3 d7d8 c3c7 d8c8 c7b7 c8c7 b7b8 c7c8 b8b9 c8c9 b9b8 c9c8 b8b9 f8g8 g7f7 \
        g8f8 f7e7 f8e8 e7f7 e8f8 f7e7 c8c9 e7d7 f8e8 b9b8 c9c8 b8b9 c8c9 b9b8 c9c8 b8b9 e8d8 \
        d7e7 c8c9 b9b8 c9c8 b8b9 c8c9 b9b8 c9c8 b8b7 d8e8 e7f7 c8b8 b7b3 e8f8 f7e7 b8c8 b3c3 \
        c8c7 c3b3 c7c8 b3c3 f8e8 e7f7 c8c7 c3d3 e8f8 f7e7 f8e8 e7f7 e8f8 f7f3 f8f7 f3f2 c7d7";

#[test]
fn a_table_loss_too_long_for_the_limit_is_proven_by_the_capture_it_forces() {
    // A game of the tables-against-plain match (endings45, 1+0.01): Red's
    // lion and tiger against Blue's lion and elephant, 17 plies before the
    // no-capture limit. The tables call it lost for Red in 18: too long
    // for the limit, so neither the tables nor the search settle it. The
    // proof does, with the history: Blue's lion comes to Red's den, Red
    // must take it, and the capture starts a 3-piece loss that fits.
    let (game, set, dir) = game_with_tables(GAME_140, GAME_140_MOVES, "forced-capture");
    let moves: Vec<&str> = GAME_140_MOVES.split_whitespace().collect();
    assert_eq!(game.position().fen(), "7/7/3e1l1/7/7/7/3L3/5T1/7 w 83 231");
    assert_eq!(set.probe(game.position()), Some(Verdict::Loss(18)));
    assert_eq!(tb::plies_before_limit(game.rules(), game.position()), 17);
    assert!(tb::unsettled_by_tables(&set, &game, game.position()));
    let verdict = prove(&set, &game, 1_000_000);
    assert_eq!(verdict, tb::ProofVerdict::Lost);
    // As a user asks it.
    let out = std::process::Command::new(BIN)
        .args(["tb", "probe", "--path", dir.to_str().unwrap()])
        .args(["--history", "1000000"])
        .arg(format!("{GAME_140} moves {}", moves.join(" ")))
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.starts_with("loss 18 history lost ("), "{out}");
    // Without the limit's pressure the tables settle it, and the proof is
    // not asked: a capture has just started the count.
    let fresh = Game::from_fen_and_moves(
        Rules::JUNGLE,
        "7/7/3e1l1/7/7/7/3L3/5T1/7 w 0 1",
        &[] as &[&str],
    )
    .unwrap();
    assert!(!tb::unsettled_by_tables(&set, &fresh, fresh.position()));
}

/// Collects the search's messages (`info string`).
#[derive(Default)]
struct Messages(std::sync::Mutex<Vec<String>>);

impl doushou::engine::search::Listener for Messages {
    fn info(&self, _: &doushou::engine::search::SearchInfo) {}
    fn message(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
}

#[test]
fn a_capture_into_a_table_draw_the_history_loses_is_not_played() {
    // A game of the tables-against-plain match (endings45, 1+0.01): Red's
    // tiger and elephant against Blue's tiger, elephant and dog, 42 plies
    // before the no-capture limit. Red took the dog (a3a4), into a table
    // draw that is lost from the start under `forbid`: with the count
    // begun afresh, Blue squeezes Red out of fresh positions. Red's search
    // saw a draw; the proof sees Blue's win at once.
    const FEN: &str = "7/7/4t2/3e3/7/d6/T6/4E2/7 w 58 226";
    let (after, set, dir) = game_with_tables(FEN, "a3a4", "capture");
    assert_eq!(set.probe(after.position()), Some(Verdict::Draw));
    let (won, _) = tb::prove_under_history(
        &set,
        &after,
        tb::Question::Win,
        100_000,
        &mut tb::ProofMemory::new(1 << 22),
    );
    assert!(matches!(won, tb::ProofVerdict::Won(_)), "{won:?}");
    let search = |proof_percent: &str| {
        let mut engine = engine_with_tables(&dir, proof_percent, FEN, &[]);
        let limits = GoLimits {
            depth: Some(10),
            ..GoLimits::default()
        };
        let messages = Messages::default();
        let r = engine.search(&limits, &messages).unwrap();
        (r.best_move.to_string(), messages.0.into_inner().unwrap())
    };
    let (trusting, said) = search("0");
    assert_eq!(trusting, "a3a4", "{said:?}");
    let (proving, said) = search("50");
    assert_ne!(proving, "a3a4");
    assert!(
        said.iter()
            .any(|m| m.starts_with("a3a4 captures into a table draw the history loses")),
        "{said:?}"
    );
}

/// The proof's verdict on `game` under its history within `budget`
/// positions, with a proof memory of its own.
fn prove(set: &TableSet, game: &Game, budget: u64) -> tb::ProofVerdict {
    let memory = &mut tb::ProofMemory::new(1 << 22);
    tb::prove_under_history(set, game, tb::Question::Verdict, budget, memory).0
}

/// The moves that hold a table draw under the game's history and some that
/// lose it, as the proof finds them within `budget` positions; the test
/// fails if the proof does not find the draw held.
fn held(set: &TableSet, game: &Game, budget: u64) -> (Vec<String>, Vec<String>) {
    let verdict = prove(set, game, budget);
    let tb::ProofVerdict::Held {
        holding, losing, ..
    } = verdict
    else {
        panic!("{verdict:?}");
    };
    let names = |moves: Vec<Move>| moves.iter().map(Move::to_string).collect();
    (names(holding), names(losing))
}
