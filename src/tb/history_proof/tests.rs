use super::*;
use crate::rules::{Animal, Piece, Rules, Square};
use crate::tb::generate::generate;
use crate::tb::index::Material;
use std::sync::OnceLock;

/// The 2-piece table of a lion against a dog, under the default rules
/// (`Repetition=forbid`), made once. (A squeeze lost whatever the move is
/// `under_forbid_a_table_draw_the_history_has_lost_is_reported_lost`.)
fn tables() -> &'static TableSet {
    static TABLES: OnceLock<TableSet> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("doushou-tb-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let targets: Vec<Material> = ["Lvd"].iter().map(|s| s.parse().unwrap()).collect();
        generate(&dir, Rules::JUNGLE, &targets, |_| {}).unwrap()
    })
}

fn game(fen: &str, moves: &[&str]) -> Game {
    Game::from_fen_and_moves(Rules::JUNGLE, fen, moves).unwrap()
}

/// A memory far larger than the proofs here.
fn fresh_memory() -> ProofMemory {
    ProofMemory::new(1 << 20)
}

fn settle(game: &Game) -> ProofVerdict {
    prove_under_history(
        tables(),
        game,
        Question::Verdict,
        1_000_000,
        &mut fresh_memory(),
    )
    .0
}

fn moves(texts: &[&str]) -> Vec<Move> {
    texts.iter().map(|t| t.parse().unwrap()).collect()
}

// A lion on e2 guards its den (d1) against a dog on f3; the lion has gone
// e2-d2-e2 and the dog f3-e3-f3, so this position stands here a second
// time. The tables call all four lion moves drawn; after e2e1, e2d2 or
// e2f2 the history leaves the lion no fresh move that keeps the dog out.
// With 20 plies left before the no-capture limit, e2e3 holds; with the
// whole limit ahead, the dog squeezes the lion out in the end whatever it
// does (its one drawing reply to each dog move lets the dog choose which
// positions recur).
const SHUFFLED_FEN: &str = "7/7/7/7/7/7/4d2/5L1/7 w 80 1";
const SHUFFLED: [&str; 6] = ["f2e2", "e3f3", "e2d2", "f3e3", "d2e2", "e3f3"];

#[test]
fn near_the_limit_the_move_the_history_leaves_holds_and_another_loses() {
    let shuffled = game(SHUFFLED_FEN, &SHUFFLED);
    assert_eq!(tables().probe(shuffled.position()), Some(Verdict::Draw));
    let held = settle(&shuffled);
    let ProofVerdict::Held {
        losing, may_win, ..
    } = &held
    else {
        panic!("{held:?}");
    };
    assert!(!may_win, "the lion's win is refuted: {held:?}");
    assert!(!losing.contains(&moves(&["e2e3"])[0]), "{held:?}");
    let mut after = shuffled.clone();
    after.play_text("e2e1").unwrap();
    assert_eq!(tables().probe(after.position()), Some(Verdict::Draw));
    // Blue, to move, forces the lion out of the draw.
    let won = settle(&after);
    assert!(
        matches!(won, ProofVerdict::Won(ref m) if !m.is_empty()),
        "{won:?}"
    );
    // With the whole no-capture limit ahead, the lion is lost.
    let early = SHUFFLED_FEN.replace(" 80 ", " 0 ");
    assert_eq!(settle(&game(&early, &SHUFFLED)), ProofVerdict::Lost);
}

#[test]
fn only_a_table_draw_under_forbid_with_drawn_history_is_searched() {
    // Under `draw` the history cannot squeeze anyone.
    let rules = Rules {
        repetition: Repetition::Draw,
        ..Rules::JUNGLE
    };
    let shuffled = Game::from_fen_and_moves(rules, SHUFFLED_FEN, &SHUFFLED).unwrap();
    let losing = Vec::new();
    assert_eq!(settle(&shuffled), ProofVerdict::Unknown { losing });
    // A budget too small to settle it.
    let fresh = game(SHUFFLED_FEN, &[]);
    let (verdict, nodes) =
        prove_under_history(tables(), &fresh, Question::Verdict, 2, &mut fresh_memory());
    assert!(matches!(verdict, ProofVerdict::Unknown { .. }) && nodes <= 2);
}

#[test]
fn a_memory_keeps_what_a_proof_learnt_for_the_next_move() {
    // The lion's shuffle with the whole limit ahead: lost, after a search.
    // The same question again settles at its root, and two plies on along
    // the proof (a lion move, the dog's winning reply) the memory saves
    // work a fresh search does.
    let budget = 1_000_000;
    let mut memory = fresh_memory();
    let early = SHUFFLED_FEN.replace(" 80 ", " 0 ");
    let start = game(&early, &SHUFFLED[..2]);
    let (first, spent) =
        prove_under_history(tables(), &start, Question::Verdict, budget, &mut memory);
    assert_eq!(first, ProofVerdict::Lost);
    let (again, respent) =
        prove_under_history(tables(), &start, Question::Verdict, budget, &mut memory);
    assert_eq!(again, first);
    assert!(respent <= 2 && respent < spent, "{respent} of {spent}");
    let mut on = start.clone();
    on.make(on.legal_moves()[0]);
    let (ProofVerdict::Won(winning), _) =
        prove_under_history(tables(), &on, Question::Verdict, budget, &mut memory)
    else {
        panic!("the dog wins after the lion's move");
    };
    on.make(winning[0]);
    let (fresh, fresh_spent) = prove_under_history(
        tables(),
        &on,
        Question::Verdict,
        budget,
        &mut fresh_memory(),
    );
    let (kept, kept_spent) =
        prove_under_history(tables(), &on, Question::Verdict, budget, &mut memory);
    assert_eq!(kept, fresh);
    assert!(
        kept_spent < fresh_spent,
        "{kept_spent} against {fresh_spent}"
    );
}

#[test]
fn a_lost_draw_is_searched_once_and_a_win_is_asked_only_where_the_draw_is_held() {
    let budget = 1_000_000;
    let early = SHUFFLED_FEN.replace(" 80 ", " 0 ");
    let lost = game(&early, &SHUFFLED);
    let (held, held_spent) = prove_held(tables(), &lost, budget.into(), &mut fresh_memory());
    let (outcome, spent) = prove_under_history(
        tables(),
        &lost,
        Question::Verdict,
        budget,
        &mut fresh_memory(),
    );
    assert_eq!(
        (&held, &outcome),
        (&ProofVerdict::Lost, &ProofVerdict::Lost)
    );
    // The win is not asked of a lost draw: no second search.
    assert_eq!(spent, held_spent);
    // Blue forces the lion out after e2e1: it holds, and it wins.
    let mut won = game(SHUFFLED_FEN, &SHUFFLED);
    won.play_text("e2e1").unwrap();
    let (held, _) = prove_held(tables(), &won, budget.into(), &mut fresh_memory());
    assert!(
        matches!(held, ProofVerdict::Held { ref holding, .. } if !holding.is_empty()),
        "{held:?}"
    );
    assert!(matches!(settle(&won), ProofVerdict::Won(_)));
}

#[test]
fn a_memory_too_small_for_the_proof_gives_the_same_verdicts_for_more_work() {
    // Two buckets: the proofs below keep hundreds of states, and search
    // again what the memory gave up.
    let budget = 10_000_000;
    let early = SHUFFLED_FEN.replace(" 80 ", " 0 ");
    let mut won = game(SHUFFLED_FEN, &SHUFFLED);
    won.play_text("e2e1").unwrap();
    let mut extra = 0;
    for position in [game(&early, &SHUFFLED), game(SHUFFLED_FEN, &SHUFFLED), won] {
        let (roomy, roomy_spent) = prove_under_history(
            tables(),
            &position,
            Question::Verdict,
            budget,
            &mut fresh_memory(),
        );
        let small = &mut ProofMemory::new(8);
        let (cramped, cramped_spent) =
            prove_under_history(tables(), &position, Question::Verdict, budget, small);
        // The same verdict and holds; the losing moves listed are those
        // each search came to prove, which a search made again may add to.
        assert_eq!(cramped.word(), roomy.word());
        let holding = |v: &ProofVerdict| match v {
            ProofVerdict::Held { holding, .. } => holding.clone(),
            _ => Vec::new(),
        };
        assert_eq!(holding(&cramped), holding(&roomy));
        assert!(cramped_spent >= roomy_spent);
        extra += cramped_spent - roomy_spent;
    }
    assert!(extra > 0, "the small memory searched nothing again");
}

/// The positions each report of the test below was given.
static REPORTED: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());

#[test]
fn a_long_proof_reports_its_progress_over_both_questions() {
    // Blue forces the lion out after e2e1: the draw's question, then the
    // win's, each searched.
    let mut won = game(SHUFFLED_FEN, &SHUFFLED);
    won.play_text("e2e1").unwrap();
    let budget = ProofBudget {
        positions: 1_000_000,
        deadline: None,
        progress: Some(Progress {
            every: 7,
            report: |positions| REPORTED.lock().unwrap().push(positions),
        }),
    };
    let (verdict, spent) = prove_under_history(
        tables(),
        &won,
        Question::Verdict,
        budget,
        &mut fresh_memory(),
    );
    assert!(matches!(verdict, ProofVerdict::Won(_)), "{verdict:?}");
    let reported = REPORTED.lock().unwrap().clone();
    // Every 7 positions, counted over both searches: the second goes on
    // from the first's count.
    let expected: Vec<u64> = (1..=spent / 7).map(|i| 7 * i).collect();
    assert_eq!(reported, expected, "{spent} positions spent");
    assert!(spent >= 14, "too small a proof to show two reports");
}

// From the shuffled position the lion steps aside (`f2g2`: the dog wins in
// 5 by the tables) and the dog throws the win away (`e3f3`: a table draw
// again). The position the tables settle stands once in the window: a
// winner's fastest line may meet it once more, so the proof applies. Round
// the cycle again and it stands twice: a line through it may be barred,
// and the proof does not answer.
const THROWN_AWAY: [&str; 2] = ["f2g2", "e3f3"];

#[test]
fn a_settled_position_once_in_the_history_leaves_the_proof_exact_twice_it_does_not() {
    let start = SHUFFLED_FEN.replace(" 80 ", " 0 ");
    let mut aside = game(&start, &THROWN_AWAY[..1]);
    assert_eq!(tables().probe(aside.position()), Some(Verdict::Win(5)));
    aside.play_text(THROWN_AWAY[1]).unwrap();
    assert_eq!(tables().probe(aside.position()), Some(Verdict::Draw));
    let once = settle(&aside);
    assert!(
        !matches!(once, ProofVerdict::Unknown { .. }),
        "settled once in the history: {once:?}"
    );
    let round = ["g2f2", "f3e3", "f2g2", "e3f3"];
    let twice = game(&start, &[&THROWN_AWAY[..], &round[..]].concat());
    assert_eq!(twice.position().key(), aside.position().key());
    let losing = Vec::new();
    assert_eq!(settle(&twice), ProofVerdict::Unknown { losing });
}

#[test]
fn every_read_agrees_with_the_tables_when_positions_share_a_slot() {
    // 16 slots for some 7,000 positions: nearly every read finds its
    // slot taken by another position.
    let tb = tables();
    let verdicts = verdicts::Verdicts::with_slots(tb, 16);
    let lion = Piece::new(Side::Red, Animal::Lion);
    let dog = Piece::new(Side::Blue, Animal::Dog);
    let mut positions = Vec::new();
    for (l, d) in (0..63).flat_map(|l| (0..63).map(move |d| (l, d))) {
        for side in [Side::Red, Side::Blue] {
            if l != d {
                let mut pos = Position::empty(side);
                pos.put(lion, Square::from_index(l));
                pos.put(dog, Square::from_index(d));
                positions.push(pos);
            }
        }
    }
    let mut kinds = std::collections::HashSet::new();
    // Twice over, the second time partly from the slots.
    for pos in positions.iter().chain(&positions) {
        let verdict = verdicts.probe(pos);
        assert_eq!(verdict, tb.probe(pos), "{pos:?}");
        assert_eq!(verdicts.probe(pos), verdict, "read again: {pos:?}");
        kinds.insert(verdict.map(|v| std::mem::discriminant(&v)));
    }
    assert!(
        kinds.len() >= 3,
        "wins, losses and draws among them: {kinds:?}"
    );
}
