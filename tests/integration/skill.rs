//! Levels for people (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`): full
//! strength changes nothing, a weak level plays legal moves chosen among the
//! best few, and lower levels lose to higher ones. Every search here is
//! limited by depth or nodes, never by time, so the results are the same on a
//! loaded machine.

use doushou::engine::search::Silent;
use doushou::engine::skill::{ELO_MAX, ELO_MIN, FULL_STRENGTH, LEVEL_ELO};
use doushou::engine::{Engine, GoLimits};
use doushou::rules::{Game, Outcome, Position, Rules, Side};

/// The bench's node count at `depth` with the engine's options.
fn bench_nodes(engine: &Engine, depth: i32) -> u64 {
    let control = doushou::engine::SearchControl::new(false);
    doushou::engine::bench::run(
        engine.threads(),
        Rules::default(),
        Some(depth),
        &control,
        |_| {},
    )
    .expect("the bench runs")
    .nodes
}

#[test]
fn full_strength_is_level_20_and_an_elo_without_the_limit_changes_nothing() {
    let mut engine = Engine::new();
    let default = bench_nodes(&engine, 5);
    engine.set_option("Skill Level", Some("20")).unwrap();
    engine
        .set_option("UCI_Elo", Some(&ELO_MIN.to_string()))
        .unwrap();
    assert_eq!(bench_nodes(&engine, 5), default);
    engine.set_option("Skill Level", Some("3")).unwrap();
    assert_ne!(
        bench_nodes(&engine, 5),
        default,
        "a level limits the search"
    );
    engine.set_option("Skill Level", Some("20")).unwrap();
    engine
        .set_option("UCI_LimitStrength", Some("true"))
        .unwrap();
    assert_ne!(
        bench_nodes(&engine, 5),
        default,
        "the least UCI_Elo limits it"
    );
    engine
        .set_option("UCI_Elo", Some(&ELO_MAX.to_string()))
        .unwrap();
    assert_eq!(
        bench_nodes(&engine, 5),
        default,
        "the greatest Elo is full strength"
    );
    assert!(engine.set_option("Skill Level", Some("21")).is_err());
    let below = (ELO_MIN - 1).to_string();
    assert!(engine.set_option("UCI_Elo", Some(&below)).is_err());
}

/// Plays one game from `opening` between `red` and `blue`, each searching
/// `nodes` nodes a move; the winner, or `None` for a draw or 300 plies.
fn play(red: &mut Engine, blue: &mut Engine, opening: &[&str], nodes: u64) -> Option<Side> {
    let mut moves: Vec<String> = opening.iter().map(|m| m.to_string()).collect();
    let start = Position::startpos().fen();
    let mut game = Game::from_fen_and_moves(Rules::default(), &start, &moves).unwrap();
    for _ in 0..300 {
        if let Some(outcome) = game.outcome() {
            return match outcome {
                Outcome::Win { winner, .. } => Some(winner),
                Outcome::Draw(_) => None,
            };
        }
        let engine = match game.position().side_to_move() {
            Side::Red => &mut *red,
            Side::Blue => &mut *blue,
        };
        engine.set_position(&start, &moves).unwrap();
        let limits = GoLimits {
            nodes: Some(nodes),
            ..GoLimits::default()
        };
        let result = engine.search(&limits, &Silent).unwrap();
        let mv = result.best_move;
        assert!(game.legal_moves().contains(&mv), "{mv} is not legal");
        game.make(mv);
        moves.push(mv.to_string());
    }
    None
}

fn engine_at(level: i32) -> Engine {
    let mut engine = Engine::new();
    engine
        .set_option("Skill Level", Some(&level.to_string()))
        .unwrap();
    engine.set_option("Hash", Some("4")).unwrap();
    engine
}

/// Points (a win 2, a draw 1) of `a` against `b` over the openings, each
/// played with both colours.
fn match_points(a: i32, b: i32, openings: &[&[&str]]) -> (u32, u32) {
    let (mut a_points, mut b_points) = (0, 0);
    for opening in openings {
        for a_is_red in [true, false] {
            let (mut ea, mut eb) = (engine_at(a), engine_at(b));
            let winner = if a_is_red {
                play(&mut ea, &mut eb, opening, 4000)
            } else {
                play(&mut eb, &mut ea, opening, 4000)
            };
            let a_side = if a_is_red { Side::Red } else { Side::Blue };
            match winner {
                Some(w) if w == a_side => a_points += 2,
                Some(_) => b_points += 2,
                None => {
                    a_points += 1;
                    b_points += 1;
                }
            }
        }
    }
    (a_points, b_points)
}

#[test]
fn lower_levels_play_legal_moves_and_lose_to_higher_ones() {
    let openings: [&[&str]; 2] = [&[], &["a3a4", "g7g6"]];
    let (weak, strong) = match_points(0, 20, &openings);
    assert!(
        strong > weak,
        "level 0 {weak} points, full strength {strong}"
    );
    let (weak, strong) = match_points(4, 12, &openings);
    assert!(strong > weak, "level 4 {weak} points, level 12 {strong}");
}

/// `UCI_Elo`'s table is the levels' rating list (`doushou ratings --json`
/// of their games, player `L<level>`, full strength `L20` anchored at the
/// table's top), each rating rounded to 10; docs/records/level-ratings.md
/// says how the list was made.
#[test]
fn the_elo_table_is_the_levels_rating_list_rounded() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/records/level-ratings.json"
    );
    let text = std::fs::read_to_string(path).expect("the levels' rating list");
    let list: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let ratings = list["ratings"].as_array().expect("a list of ratings");
    assert_eq!(ratings.len(), LEVEL_ELO.len(), "one rating a level");
    for &(level, elo) in &LEVEL_ELO {
        let name = format!("L{level}");
        let listed = ratings
            .iter()
            .find(|r| r["name"] == name.as_str())
            .and_then(|r| r["elo"].as_f64())
            .unwrap_or_else(|| panic!("{name} is not rated in {path}"));
        assert!(
            (f64::from(elo) - listed).abs() <= 5.0,
            "level {level}: the table says {elo}, the list {listed:.1}"
        );
    }
    assert_eq!(LEVEL_ELO[LEVEL_ELO.len() - 1].0, f64::from(FULL_STRENGTH));
}
