//! The evaluation: symmetric between the sides, each term moving the way it
//! should on positions built for it, defined under every rule switch; and the
//! Texel tuner recovering known weights from synthetic data.

use doushou::engine::eval::{
    WEIGHTS, Weights, evaluate, feature, feature_counts, feature_name, term_scores,
};
use doushou::rules::{Game, Position, Rules};
use doushou::tuning::texel::{Dataset, Samples, Split, TuneConfig, tune};
use doushou::util::rng::SplitMix64 as Rng;

use crate::common;
use common::{every_switch, random_move};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The score of one of the evaluation's terms (see `eval::TERMS`).
fn term(p: &Position, rules: &Rules, name: &str) -> i32 {
    term_scores(p, rules, &WEIGHTS)
        .iter()
        .find(|t| t.0 == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .1
}

fn eval(fen: &str) -> i32 {
    evaluate(&pos(fen), &Rules::default(), &WEIGHTS)
}

/// Random rules: each switch set to a random value, in random order.
fn random_rules(rng: &mut Rng) -> Rules {
    let switches = every_switch();
    let mut rules = Rules::default();
    for _ in 0..6 {
        let (name, value) = &switches[rng.below(switches.len())];
        rules.set(name, value).unwrap();
    }
    rules
}

/// Calls `check` on every position of `games` random playouts under `rules`.
fn playouts(rules: Rules, games: usize, rng: &mut Rng, mut check: impl FnMut(&Position)) {
    for _ in 0..games {
        let mut game = Game::new(rules, Position::startpos());
        for _ in 0..160 {
            check(game.position());
            if game.outcome().is_some() {
                break;
            }
            let Some(mv) = random_move(&game, rng) else {
                break;
            };
            game.make(mv);
        }
    }
}

#[test]
fn turning_the_board_and_swapping_colours_keeps_every_feature() {
    let mut rng = Rng::new(6);
    let mut checked = 0;
    for _ in 0..40 {
        let rules = random_rules(&mut rng);
        playouts(rules, 3, &mut rng, |p| {
            let m = p.mirrored();
            assert_eq!(
                feature_counts(p, &rules),
                feature_counts(&m, &rules),
                "{} under {rules}",
                p.fen()
            );
            assert_eq!(
                evaluate(p, &rules, &WEIGHTS),
                evaluate(&m, &rules, &WEIGHTS)
            );
            checked += 1;
        });
    }
    assert!(checked > 5000, "only {checked} positions");
}

#[test]
fn the_evaluation_is_defined_under_every_switch() {
    let mut rng = Rng::new(7);
    for (name, value) in every_switch() {
        let mut rules = Rules::default();
        rules.set(&name, &value).unwrap();
        playouts(rules, 4, &mut rng, |p| {
            let score = evaluate(p, &rules, &WEIGHTS);
            // Far from the search's mate scores (29000 and beyond).
            assert!(
                score.abs() < 15_000,
                "{name}={value}: {} scores {score}",
                p.fen()
            );
            let parts: i32 = term_scores(p, &rules, &WEIGHTS).iter().map(|t| t.1).sum();
            assert_eq!(parts, score);
            // Mobility is the move generator's count, found in the evaluation's own pass.
            let us = p.side_to_move();
            let moves = p.count_moves_of(&rules, us) as i32
                - p.count_moves_of(&rules, us.opponent()) as i32;
            assert_eq!(feature_counts(p, &rules)[feature::MOBILITY], moves);
        });
    }
}

#[test]
fn more_material_is_better() {
    let start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";
    let blue_lost_cat = "l5t/1d5/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";
    let r = Rules::default();
    assert!(term(&pos(blue_lost_cat), &r, "material") > term(&pos(start), &r, "material"));
    // Taking any one enemy animal off the start position is good for us, and
    // the more so the stronger it is among the cat..lion (the rat and the
    // elephant, which hold each other in check, stand apart).
    let without = |letter: char| {
        let (board, rest) = start.split_once(' ').unwrap();
        let board: String = board
            .chars()
            .map(|c| if c == letter { '1' } else { c })
            .collect();
        eval(&format!("{board} {rest}")) - eval(start)
    };
    let gains: Vec<i32> = "rcdwptle".chars().map(without).collect();
    assert!(gains.iter().all(|&g| g > 0), "{gains:?}");
    assert!(gains[6] > gains[5] && gains[5] > gains[1], "{gains:?}");
    assert!(gains[7] > gains[5], "{gains:?}");
}

#[test]
fn nearer_the_enemy_den_is_better() {
    // The red elephant from a3 (9 steps from d9) to a5 (7 steps).
    let back = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";
    let forward = "l5t/1d3c1/r1p1w1e/7/E6/7/2W1P1R/1C3D1/T5L w 0 1";
    let r = Rules::default();
    assert!(term(&pos(forward), &r, "advancement") > term(&pos(back), &r, "advancement"));
    // A red lion two steps from the den against one far away.
    let near = "7/7/3L3/7/6e/7/7/7/7 w 0 1";
    let far = "7/7/7/7/6e/7/7/7/L6 w 0 1";
    assert!(eval(near) > eval(far));
}

#[test]
fn an_enemy_near_our_den_is_worse() {
    // A blue wolf two steps from the red den, against the same wolf at home.
    let home = "T6/6e/6w/7/7/7/7/7/7 w 0 1";
    let near = "T6/6e/7/7/7/7/3w3/7/7 w 0 1";
    let r = Rules::default();
    assert!(term(&pos(near), &r, "den safety") < term(&pos(home), &r, "den safety"));
    assert!(eval(near) < eval(home));
    // A defender next to the trap it guards makes up for one attacker.
    let defended = "T6/6e/7/7/7/7/3w3/4D2/7 w 0 1";
    assert!(term(&pos(defended), &r, "den safety") > term(&pos(near), &r, "den safety"));
    assert!(term(&pos(defended), &r, "trap control") > term(&pos(near), &r, "trap control"));
}

#[test]
fn a_piece_on_an_enemy_trap_is_weakened() {
    // The red lion on the blue trap c9 (Blue to take it is another matter).
    let r = Rules::default();
    let on_trap = pos("2L4/7/7/7/7/7/7/7/e6 w 0 1");
    let beside = pos("1L5/7/7/7/7/7/7/7/e6 w 0 1");
    assert_eq!(feature_counts(&on_trap, &r)[feature::WEAKENED], 1);
    assert_eq!(feature_counts(&beside, &r)[feature::WEAKENED], 0);
    assert!(term(&on_trap, &r, "weakened on trap") < 0);
    // Under UniversalTraps the own traps weaken too.
    let own_trap = pos("7/7/7/7/7/7/7/7/e1L4 w 0 1");
    let mut universal = Rules::default();
    universal.set("UniversalTraps", "true").unwrap();
    assert_eq!(feature_counts(&own_trap, &r)[feature::WEAKENED], 0);
    assert_eq!(feature_counts(&own_trap, &universal)[feature::WEAKENED], 1);
}

#[test]
fn a_rat_in_the_river_closes_enemy_jumps() {
    // Blue lion on a5 with its jump to d5 over b5 c5; the red rat in b5 or on land.
    let r = Rules::default();
    let in_river = pos("7/7/7/7/lR5/7/7/7/6L w 0 1");
    let on_land = pos("7/7/7/7/l6/7/7/7/R5L w 0 1");
    let counts = feature_counts(&in_river, &r);
    assert_eq!(counts[feature::RAT_IN_WATER], 1);
    assert_eq!(counts[feature::RIVER_BLOCK], 1);
    assert_eq!(feature_counts(&on_land, &r)[feature::RAT_IN_WATER], 0);
    assert!(term(&in_river, &r, "river control") > term(&on_land, &r, "river control"));
    // The blue lion's lane is shut.
    assert_eq!(feature_counts(&in_river, &r)[feature::JUMP_LANES], 0);
    assert_eq!(feature_counts(&on_land, &r)[feature::JUMP_LANES], -1);
    // With JumpBlockedBy=enemy our rat still closes enemy lanes, not our own.
    let mut enemy_only = Rules::default();
    enemy_only.set("JumpBlockedBy", "enemy").unwrap();
    let own_lane = pos("7/7/7/7/LR5/7/7/7/6l w 0 1");
    assert_eq!(feature_counts(&own_lane, &r)[feature::JUMP_LANES], 0);
    assert_eq!(
        feature_counts(&own_lane, &enemy_only)[feature::JUMP_LANES],
        1
    );
}

/// The rat–elephant relation is seen; its worth is the tuner's to find (the
/// fitted weight is near zero: see docs/tuning.md).
#[test]
fn the_rat_counts_against_a_living_enemy_elephant() {
    let r = Rules::default();
    let with = pos("6e/7/7/7/7/7/7/7/R6 w 0 1");
    let without = pos("6l/7/7/7/7/7/7/7/R6 w 0 1");
    assert_eq!(feature_counts(&with, &r)[feature::RAT_VS_ELEPHANT], 1);
    assert_eq!(feature_counts(&without, &r)[feature::RAT_VS_ELEPHANT], 0);
}

/// Open lanes are counted under the jump switches. (The fitted weight is
/// negative: a jumper waiting on the bank does less than one elsewhere; see
/// docs/tuning.md.)
#[test]
fn jump_lanes_follow_the_jump_switches() {
    let open = pos("7/7/7/7/3L3/7/7/7/e6 w 0 1");
    let blocked = pos("7/7/7/7/1r1L3/7/7/7/e6 w 0 1");
    let r = Rules::default();
    assert_eq!(feature_counts(&open, &r)[feature::JUMP_LANES], 2);
    assert_eq!(feature_counts(&blocked, &r)[feature::JUMP_LANES], 1);
    assert_eq!(
        term(&open, &r, "jump lanes") - term(&blocked, &r, "jump lanes"),
        WEIGHTS[feature::JUMP_LANES]
    );
    let mut vertical = Rules::default();
    vertical.set("LionJump", "vertical").unwrap();
    assert_eq!(feature_counts(&open, &vertical)[feature::JUMP_LANES], 0);
}

#[test]
fn threats_count_for_the_side_that_can_take() {
    // The red cat next to the blue rat: Red can take it.
    let red_to_move = pos("7/7/2Cr3/7/7/7/7/7/7 w 0 1");
    let blue_to_move = pos("7/7/2Cr3/7/7/7/7/7/7 b 0 1");
    let r = Rules::default();
    assert_eq!(feature_counts(&red_to_move, &r)[feature::THREAT_TO_MOVE], 1);
    assert_eq!(
        feature_counts(&blue_to_move, &r)[feature::THREAT_WAITING],
        1
    );
    assert!(term(&red_to_move, &r, "threats") > 0);
    assert!(term(&blue_to_move, &r, "threats") < 0);
    // The rat takes the elephant, the elephant never the rat (off a trap).
    let rat_elephant = pos("7/7/2Re3/7/7/7/7/7/7 w 0 1");
    let counts = feature_counts(&rat_elephant, &r);
    assert_eq!(counts[feature::THREAT_TO_MOVE + 7], 1);
    assert_eq!(counts[feature::THREAT_WAITING], 0);
    // A lion threatens across an open river lane.
    let across = pos("7/7/7/7/3L2p/7/7/7/e6 w 0 1");
    assert_eq!(feature_counts(&across, &r)[feature::THREAT_TO_MOVE + 4], 1);
}

#[test]
fn a_runner_with_no_defender_nearer_the_den_is_good() {
    let r = Rules::default();
    // The red lion three steps from d9; the blue elephant seven steps from
    // either den, or two from its own.
    let free = pos("7/7/7/3L3/e6/7/7/7/7 w 0 1");
    let opposed = pos("7/2e4/7/3L3/7/7/7/7/7 w 0 1");
    assert_eq!(feature_counts(&free, &r)[feature::RUNNER + 1], 1);
    assert_eq!(feature_counts(&opposed, &r)[feature::RUNNER + 1], 0);
    assert!(term(&free, &r, "runners") > term(&opposed, &r, "runners"));
}

#[test]
fn mobility_and_tempo() {
    let r = Rules::default();
    let cornered = pos("7/7/7/7/7/7/7/7/L5e w 0 1");
    let central = pos("7/7/7/3L3/7/7/7/7/6e w 0 1");
    assert!(
        feature_counts(&central, &r)[feature::MOBILITY]
            > feature_counts(&cornered, &r)[feature::MOBILITY]
    );
    assert!(term(&central, &r, "mobility") >= term(&cornered, &r, "mobility"));
    assert_eq!(term(&central, &r, "tempo"), WEIGHTS[feature::TEMPO]);
    assert!((0..=100).contains(&WEIGHTS[feature::TEMPO]));
}

#[test]
fn dog_over_wolf_swaps_their_values() {
    // A red dog against a blue wolf, each five steps from the enemy den.
    let p = pos("7/7/7/3w3/7/3D3/7/7/7 w 0 1");
    let default = Rules::default();
    let mut swapped = Rules::default();
    swapped.set("DogOverWolf", "true").unwrap();
    let (a, b) = (
        term(&p, &default, "material"),
        term(&p, &swapped, "material"),
    );
    assert_eq!(
        a,
        WEIGHTS[feature::MATERIAL + 2] - WEIGHTS[feature::MATERIAL + 3]
    );
    assert_eq!(b, -a);
    assert_eq!(
        term(&p, &default, "advancement"),
        -term(&p, &swapped, "advancement")
    );
    // The same board with the animals' letters swapped under the other rule.
    let letters_swapped = pos("7/7/7/3d3/7/3W3/7/7/7 w 0 1");
    assert_eq!(
        evaluate(&p, &swapped, &WEIGHTS),
        evaluate(&letters_swapped, &default, &WEIGHTS)
    );
}

#[test]
fn every_weight_has_a_name() {
    for i in 0..feature::COUNT {
        assert!(!feature_name(i).starts_with("unknown"));
    }
}

/// Synthetic positions whose results follow known weights exactly: the tuner
/// must find those weights again from a perturbed start.
#[test]
fn the_tuner_recovers_known_weights() {
    let k = 0.004;
    let known: [(usize, i32); 6] = [
        (feature::MATERIAL, 300),
        (feature::MATERIAL + 1, 500),
        (feature::MATERIAL + 5, 800),
        (feature::RUNNER, 200),
        (feature::MOBILITY, 12),
        (feature::TEMPO, 25),
    ];
    let mut truth: Weights = WEIGHTS;
    for &(i, w) in &known {
        truth[i] = w;
    }
    let mut rng = Rng::new(42);
    let mut samples = |n: usize| {
        let mut s = Samples::new();
        for _ in 0..n {
            let mut counts = [0i32; feature::COUNT];
            for &(i, _) in &known {
                counts[i] = match i {
                    feature::TEMPO => 1,
                    feature::MOBILITY => rng.below(21) as i32 - 10,
                    _ => rng.below(5) as i32 - 2,
                };
            }
            let score: f64 = counts
                .iter()
                .zip(&truth)
                .map(|(&c, &w)| c as f64 * w as f64)
                .sum();
            s.push(&counts, 1.0 / (1.0 + (-k * score).exp()));
        }
        s
    };
    let data = Dataset {
        train: samples(20_000),
        validation: samples(2_000),
        split: Split::HeldOut { block: 256 },
        games: 0,
        runs: Vec::new(),
    };
    let mut start = truth;
    for &(i, w) in &known {
        start[i] = w + if w > 100 { 150 } else { 10 };
    }
    let config = TuneConfig {
        epochs: 1500,
        learning_rate: 2.0,
        l2: 0.0,
        report_every: 0,
        k: Some(k),
    };
    let report = tune(&data, &start, &config, &mut |_, _, _| {});
    for &(i, w) in &known {
        let got = report.weights[i];
        assert!(
            (got - w).abs() <= 3 + w.abs() / 20,
            "{}: found {got}, expected {w}",
            feature_name(i)
        );
    }
    assert!(report.validation_error.1 < report.validation_error.0 / 10.0);
    // Weights no position uses stay where they started.
    assert_eq!(
        report.weights[feature::RIVER_BLOCK],
        start[feature::RIVER_BLOCK]
    );
}

#[test]
fn the_engine_reports_the_terms_of_the_evaluation_in_force() {
    use doushou::engine::Engine;
    let fen = "2L4/7/7/7/7/7/7/7/e6 w 0 1";
    let mut engine = Engine::new();
    engine
        .set_position(fen, &[] as &[&str])
        .expect("a legal position");
    engine
        .set_option("Eval", Some("linear"))
        .expect("a known choice");
    let linear = engine.eval_terms().expect("a position is set");
    assert!(linear.net.is_none());
    assert_eq!(linear.terms.len(), doushou::engine::eval::TERMS.len());
    assert_eq!(linear.total, linear.terms.iter().map(|t| t.1).sum::<i32>());
    assert_eq!(linear.total, eval(fen));

    engine
        .set_option("Eval", Some("nnue"))
        .expect("a known choice");
    let net = engine.eval_terms().expect("a position is set");
    assert!(net.net.is_some());
    assert_eq!(net.terms.len(), 1);
    assert_eq!(net.terms[0].1, net.total);
}
