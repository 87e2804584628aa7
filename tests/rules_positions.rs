//! Positions built by hand to reach each rule of `docs/rules.md` under each relevant
//! switch value: river jumps and what blocks them, water, rat and elephant, traps,
//! dog over wolf, dens, the ends of the game, repetition, the no-capture limit,
//! and the position notation with its errors.
//!
//! Squares: files a..g, ranks 1..9. Water b4 c4 b5 c5 b6 c6 e4 f4 e5 f5 e6 f6;
//! dens d1 (Red) and d9 (Blue); Red traps c1 e1 d2, Blue traps c9 e9 d8.
//! Every FEN written here is checked against the list of pieces it is meant to
//! hold (`board`), so that a slip in writing it shows up as such.

mod common;

use doushou::rules::{
    DrawReason, FenError, Game, GameError, Move, MoveError, Outcome, Piece, Position, Rules,
    START_FEN, Side, Square, WinReason,
};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn rules(settings: &[&str]) -> Rules {
    let mut r = Rules::default();
    r.apply_settings(settings.iter().copied())
        .unwrap_or_else(|e| panic!("{settings:?}: {e}"));
    r
}

fn pos(fen: &str) -> Position {
    fen.parse()
        .unwrap_or_else(|e| panic!("{fen}: does not parse: {e:?}"))
}

/// Asserts that `fen` holds exactly the pieces listed as `"Lb3 cg9 ..."` (letter,
/// then square), nothing else.
fn board(fen: &str, pieces: &str) {
    let p = pos(fen);
    let mut want = BTreeSet::new();
    for item in pieces.split_whitespace() {
        let (letter, square) = item.split_at(1);
        want.insert((square.to_string(), letter.chars().next().unwrap()));
    }
    let got: BTreeSet<(String, char)> = Square::all()
        .filter_map(|s| p.piece_at(s).map(|pc| (s.to_string(), pc.letter())))
        .collect();
    assert_eq!(got, want, "{fen} does not hold {pieces}");
}

/// Builds a FEN from pieces listed as `"Lb3 cg9"` (used by the table-driven tests).
fn fen_of(pieces: &str, side: char) -> String {
    let mut grid = [[None::<char>; 7]; 9];
    for item in pieces.split_whitespace() {
        let b = item.as_bytes();
        let file = (b[1] - b'a') as usize;
        let rank = (b[2] - b'1') as usize;
        assert!(grid[rank][file].is_none(), "two pieces on {item}");
        grid[rank][file] = Some(b[0] as char);
    }
    let mut ranks = Vec::new();
    for rank in (0..9).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for cell in grid[rank] {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    format!("{} {side}", ranks.join("/"))
}

fn strings(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Every legal move of the position (no history), also checking that the
/// position's generator, its counter and the game agree.
fn legal(fen: &str, r: &Rules) -> BTreeSet<String> {
    let p = pos(fen);
    let game = Game::new(*r, p);
    let from_game = strings(&game.legal_moves());
    let generated = p.generate(r);
    assert_eq!(strings(&generated), from_game, "{fen}");
    assert_eq!(generated.len(), from_game.len(), "{fen}: duplicate moves");
    assert_eq!(p.count_moves(r), from_game.len() as u64, "{fen}");
    from_game
}

/// The legal moves of the piece on `square`, which must belong to the side to move.
fn moves_from(fen: &str, r: &Rules, square: &str) -> BTreeSet<String> {
    let p = pos(fen);
    let piece = p
        .piece_at(sq(square))
        .unwrap_or_else(|| panic!("{fen}: no piece on {square}"));
    assert_eq!(
        piece.side,
        p.side_to_move(),
        "{fen}: {square} is not the mover's"
    );
    legal(fen, r)
        .into_iter()
        .filter(|m| m.starts_with(square))
        .collect()
}

fn play(game: &mut Game, moves: &[&str]) {
    for m in moves {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {:?}: {e}", game.position()));
    }
}

fn win(winner: Side, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

// ---------------------------------------------------------------------------
// River jumps
// ---------------------------------------------------------------------------

/// Each land square next to a river: its land steps, and its jumps (landing
/// square, water squares crossed, horizontal?) as docs/rules.md lists them.
/// A jump: landing square, the water squares crossed, and whether it is horizontal.
type JumpSpec = (&'static str, &'static [&'static str], bool);

const JUMP_ORIGINS: &[(&str, &[&str], &[JumpSpec])] = &[
    (
        "b3",
        &["a3", "c3", "b2"],
        &[("b7", &["b4", "b5", "b6"], false)],
    ),
    (
        "c3",
        &["b3", "d3", "c2"],
        &[("c7", &["c4", "c5", "c6"], false)],
    ),
    (
        "e3",
        &["d3", "f3", "e2"],
        &[("e7", &["e4", "e5", "e6"], false)],
    ),
    (
        "f3",
        &["e3", "g3", "f2"],
        &[("f7", &["f4", "f5", "f6"], false)],
    ),
    (
        "b7",
        &["a7", "c7", "b8"],
        &[("b3", &["b4", "b5", "b6"], false)],
    ),
    (
        "c7",
        &["b7", "d7", "c8"],
        &[("c3", &["c4", "c5", "c6"], false)],
    ),
    (
        "e7",
        &["d7", "f7", "e8"],
        &[("e3", &["e4", "e5", "e6"], false)],
    ),
    (
        "f7",
        &["e7", "g7", "f8"],
        &[("f3", &["f4", "f5", "f6"], false)],
    ),
    ("a4", &["a3", "a5"], &[("d4", &["b4", "c4"], true)]),
    (
        "d4",
        &["d3", "d5"],
        &[("a4", &["b4", "c4"], true), ("g4", &["e4", "f4"], true)],
    ),
    ("g4", &["g3", "g5"], &[("d4", &["e4", "f4"], true)]),
    ("a5", &["a4", "a6"], &[("d5", &["b5", "c5"], true)]),
    (
        "d5",
        &["d4", "d6"],
        &[("a5", &["b5", "c5"], true), ("g5", &["e5", "f5"], true)],
    ),
    ("g5", &["g4", "g6"], &[("d5", &["e5", "f5"], true)]),
    ("a6", &["a5", "a7"], &[("d6", &["b6", "c6"], true)]),
    (
        "d6",
        &["d5", "d7"],
        &[("a6", &["b6", "c6"], true), ("g6", &["e6", "f6"], true)],
    ),
    ("g6", &["g5", "g7"], &[("d6", &["e6", "f6"], true)]),
];

/// The switch values for one jumper and which axes each allows (vertical, horizontal).
fn jump_settings(animal: char) -> Vec<(String, bool, bool)> {
    let (name, values): (&str, &[(&str, bool, bool)]) = match animal {
        'L' => (
            "LionJump",
            &[
                ("both", true, true),
                ("vertical", true, false),
                ("horizontal", false, true),
                ("none", false, false),
            ],
        ),
        'T' => (
            "TigerJump",
            &[
                ("both", true, true),
                ("vertical", true, false),
                ("none", false, false),
            ],
        ),
        _ => unreachable!(),
    };
    values
        .iter()
        .map(|&(v, vert, hor)| (format!("{name}={v}"), vert, hor))
        .collect()
}

/// The letter of `animal` for `side` ('w' Red, 'b' Blue).
fn letter(animal: char, side: char) -> char {
    if side == 'w' {
        animal.to_ascii_uppercase()
    } else {
        animal.to_ascii_lowercase()
    }
}

/// A far-away enemy piece, so that the other side still has pieces.
fn far_enemy(side: char) -> &'static str {
    if side == 'w' { "ea9" } else { "Eg1" }
}

#[test]
fn every_jump_under_every_jump_switch() {
    let mut failures = Vec::new();
    for &(from, steps, jumps) in JUMP_ORIGINS {
        for side in ['w', 'b'] {
            for animal in ['L', 'T'] {
                // The other jumper's switch must not matter: set it to none.
                let other = if animal == 'L' {
                    "TigerJump=none"
                } else {
                    "LionJump=none"
                };
                for (setting, vert, hor) in jump_settings(animal) {
                    let fen = fen_of(
                        &format!("{}{from} {}", letter(animal, side), far_enemy(side)),
                        side,
                    );
                    let r = rules(&[&setting, other]);
                    let mut want: BTreeSet<String> =
                        steps.iter().map(|s| format!("{from}{s}")).collect();
                    for &(to, _, horizontal) in jumps {
                        if (horizontal && hor) || (!horizontal && vert) {
                            want.insert(format!("{from}{to}"));
                        }
                    }
                    let got = moves_from(&fen, &r, from);
                    if got != want {
                        failures.push(format!("{fen} [{setting}]: want {want:?}, got {got:?}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_other_animals_never_jump() {
    // A panther, elephant, wolf and dog next to a river only step.
    let fen = "6c/7/7/7/P6/7/1E1W1D1/7/7 w";
    board(fen, "Pa5 Eb3 Wd3 Df3 cg9");
    let r = Rules::default();
    assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &r, "b3"), set(&["b3a3", "b3c3", "b3b2"]));
    assert_eq!(
        moves_from(fen, &r, "d3"),
        set(&["d3c3", "d3e3", "d3d2", "d3d4"])
    );
    assert_eq!(moves_from(fen, &r, "f3"), set(&["f3e3", "f3g3", "f3f2"]));
}

#[test]
fn a_rat_on_the_path_blocks_a_jump() {
    let mut failures = Vec::new();
    for &(from, steps, jumps) in JUMP_ORIGINS {
        for side in ['w', 'b'] {
            for animal in ['L', 'T'] {
                for &(to, over, _) in jumps {
                    for &water in over {
                        for own_rat in [true, false] {
                            let rat = if own_rat == (side == 'w') { 'R' } else { 'r' };
                            for blocked_by in ["any", "enemy"] {
                                let fen = fen_of(
                                    &format!(
                                        "{}{from} {rat}{water} {}",
                                        letter(animal, side),
                                        far_enemy(side)
                                    ),
                                    side,
                                );
                                let r = rules(&[&format!("JumpBlockedBy={blocked_by}")]);
                                let blocks = !own_rat || blocked_by == "any";
                                let got = moves_from(&fen, &r, from);
                                let jump = format!("{from}{to}");
                                if got.contains(&jump) == blocks {
                                    failures.push(format!(
                                        "{fen} [JumpBlockedBy={blocked_by}]: {jump} {}",
                                        if blocks {
                                            "should be blocked"
                                        } else {
                                            "should be open"
                                        }
                                    ));
                                }
                                // The steps stay whatever the rat does.
                                for s in steps {
                                    if !got.contains(&format!("{from}{s}")) {
                                        failures.push(format!("{fen}: step {from}{s} lost"));
                                    }
                                }
                                // A jump over the other river is unaffected.
                                for &(to2, over2, _) in jumps {
                                    if !over2.contains(&water)
                                        && !got.contains(&format!("{from}{to2}"))
                                    {
                                        failures.push(format!("{fen}: {from}{to2} lost"));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn two_rats_in_a_river_block_as_their_sides_say() {
    // Red lion b3; Red rat b4 and Blue rat b6 on the path: blocked under both values.
    let fen = "6c/7/7/1r5/7/1R5/1L5/7/7 w";
    board(fen, "Lb3 Rb4 rb6 cg9");
    for v in ["any", "enemy"] {
        let r = rules(&[&format!("JumpBlockedBy={v}")]);
        assert_eq!(
            moves_from(fen, &r, "b3"),
            set(&["b3a3", "b3c3", "b3b2"]),
            "{v}"
        );
    }
    // A rat on the landing square is not on the path: the lion takes it.
    let fen = "6c/7/1r5/7/7/7/1L5/7/7 w";
    board(fen, "Lb3 rb7 cg9");
    for v in ["any", "enemy"] {
        let r = rules(&[&format!("JumpBlockedBy={v}")]);
        assert_eq!(
            moves_from(fen, &r, "b3"),
            set(&["b3a3", "b3c3", "b3b2", "b3b7"]),
            "{v}"
        );
    }
    // A rat in the other river does not block.
    let fen = "6c/7/7/7/4r2/7/1L5/7/7 w";
    board(fen, "Lb3 re5 cg9");
    assert!(moves_from(fen, &Rules::default(), "b3").contains("b3b7"));
}

#[test]
fn a_jump_may_not_land_on_its_own_side() {
    let mut failures = Vec::new();
    for &(from, _, jumps) in JUMP_ORIGINS {
        for &(to, _, _) in jumps {
            for animal in ['L', 'T'] {
                let fen = fen_of(&format!("{animal}{from} D{to} ea9"), 'w');
                let got = moves_from(&fen, &Rules::default(), from);
                if got.contains(&format!("{from}{to}")) {
                    failures.push(format!("{fen}: jump onto own dog on {to}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_jump_captures_by_rank() {
    // (jumper, defender, allowed) for every pair among the jumpers and a few others.
    let cases = [
        ('L', 'e', false),
        ('L', 'l', true),
        ('L', 't', true),
        ('L', 'p', true),
        ('L', 'r', true),
        ('T', 'e', false),
        ('T', 'l', false),
        ('T', 't', true),
        ('T', 'w', true),
        ('T', 'c', true),
    ];
    let mut failures = Vec::new();
    for &(from, _, jumps) in JUMP_ORIGINS {
        for &(to, _, _) in jumps {
            for (attacker, defender, allowed) in cases {
                let fen = fen_of(&format!("{attacker}{from} {defender}{to}"), 'w');
                let got = moves_from(&fen, &Rules::default(), from);
                if got.contains(&format!("{from}{to}")) != allowed {
                    failures.push(format!(
                        "{fen}: {attacker} jumping onto {defender}: want allowed={allowed}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The same by hand, Blue jumping: tiger b7 over the river onto a Red lion, a
    // Red tiger and a Red panther.
    let fen = "7/7/1t5/7/7/7/1L5/7/7 b";
    board(fen, "tb7 Lb3");
    assert_eq!(
        moves_from(fen, &Rules::default(), "b7"),
        set(&["b7a7", "b7c7", "b7b8"])
    );
    let fen = "7/7/1t5/7/7/7/1T5/7/7 b";
    board(fen, "tb7 Tb3");
    assert_eq!(
        moves_from(fen, &Rules::default(), "b7"),
        set(&["b7a7", "b7c7", "b7b8", "b7b3"])
    );
    let fen = "7/7/7/7/3l2P/7/7/7/7 b";
    board(fen, "ld5 Pg5");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d5"),
        set(&["d5d4", "d5d6", "d5a5", "d5g5"])
    );
}

// ---------------------------------------------------------------------------
// Water
// ---------------------------------------------------------------------------

#[test]
fn the_rat_enters_and_swims() {
    let r = Rules::default();
    let fen = "6c/7/7/7/7/7/1R5/7/7 w";
    board(fen, "Rb3 cg9");
    assert_eq!(
        moves_from(fen, &r, "b3"),
        set(&["b3a3", "b3c3", "b3b2", "b3b4"])
    );
    let fen = "6c/7/7/7/2R4/7/7/7/7 w";
    board(fen, "Rc5 cg9");
    assert_eq!(
        moves_from(fen, &r, "c5"),
        set(&["c5b5", "c5d5", "c5c4", "c5c6"])
    );
    // Blue's rat in the right-hand river, at its corner.
    let fen = "7/7/7/5r1/7/7/7/7/C6 b";
    board(fen, "rf6 Ca1");
    assert_eq!(
        moves_from(fen, &r, "f6"),
        set(&["f6e6", "f6g6", "f6f5", "f6f7"])
    );
}

#[test]
fn other_animals_stay_out_of_water() {
    // Cat a5, dog d5, elephant b7, wolf c3, panther f7 (and lion/tiger with
    // jumps off, so only their steps are left).
    let fen = "6c/7/1E3P1/7/C2D3/7/2W4/7/7 w";
    board(fen, "Ca5 Dd5 Eb7 Wc3 Pf7 cg9");
    let r = Rules::default();
    assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &r, "d5"), set(&["d5d4", "d5d6"]));
    assert_eq!(moves_from(fen, &r, "b7"), set(&["b7a7", "b7c7", "b7b8"]));
    assert_eq!(moves_from(fen, &r, "c3"), set(&["c3b3", "c3d3", "c3c2"]));
    assert_eq!(moves_from(fen, &r, "f7"), set(&["f7e7", "f7g7", "f7f8"]));
    let fen = "6c/7/7/7/3T3/7/7/7/7 w";
    board(fen, "Td5 cg9");
    assert_eq!(
        moves_from(fen, &rules(&["TigerJump=none"]), "d5"),
        set(&["d5d4", "d5d6"])
    );
}

#[test]
fn rat_bank_capture() {
    let off = Rules::default();
    let on = rules(&["RatBankCapture=true"]);
    let ele = rules(&["RatWaterElephant=true"]);
    // Red rat in water b5, Blue rat on land a5.
    let fen = "7/7/7/7/rR5/7/7/7/7 w";
    board(fen, "Rb5 ra5");
    assert_eq!(moves_from(fen, &off, "b5"), set(&["b5b4", "b5b6", "b5c5"]));
    assert_eq!(moves_from(fen, &ele, "b5"), moves_from(fen, &off, "b5"));
    assert_eq!(
        moves_from(fen, &on, "b5"),
        set(&["b5b4", "b5b6", "b5c5", "b5a5"])
    );
    // The same board, Blue to move: land to water.
    let fen = "7/7/7/7/rR5/7/7/7/7 b";
    board(fen, "Rb5 ra5");
    assert_eq!(moves_from(fen, &off, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &on, "a5"), set(&["a5a4", "a5a6", "a5b5"]));
    // Red rat on land a5, Blue rat in water b5: land to water for Red.
    let fen = "7/7/7/7/Rr5/7/7/7/7 w";
    board(fen, "Ra5 rb5");
    assert_eq!(moves_from(fen, &off, "a5"), set(&["a5a4", "a5a6"]));
    assert_eq!(moves_from(fen, &on, "a5"), set(&["a5a4", "a5a6", "a5b5"]));
    // A rat crossing the bank onto a piece other than a rat never takes it.
    let fen = "7/7/7/7/cR5/7/7/7/7 w";
    board(fen, "Rb5 ca5");
    for r in [off, on, ele] {
        assert_eq!(moves_from(fen, &r, "b5"), set(&["b5b4", "b5b6", "b5c5"]));
    }
}

#[test]
fn two_rats_in_water_take_each_other() {
    let fen = "7/7/7/7/1Rr4/7/7/7/7 w";
    board(fen, "Rb5 rc5");
    for r in [Rules::default(), rules(&["RatBankCapture=true"])] {
        assert_eq!(
            moves_from(fen, &r, "b5"),
            set(&["b5b4", "b5b6", "b5a5", "b5c5"])
        );
    }
    let fen = "7/7/7/7/1Rr4/7/7/7/7 b";
    board(fen, "Rb5 rc5");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c5"),
        set(&["c5c4", "c5c6", "c5d5", "c5b5"])
    );
    // Two rats on land too, of course.
    let fen = "7/7/7/r6/R6/7/7/7/7 w";
    board(fen, "Ra5 ra6");
    assert!(moves_from(fen, &Rules::default(), "a5").contains("a5a6"));
}

#[test]
fn rat_in_water_and_the_elephant() {
    let off = Rules::default();
    let on = rules(&["RatWaterElephant=true"]);
    let bank = rules(&["RatBankCapture=true"]);
    // Red rat in water b5, Blue elephant on land a5.
    let fen = "7/7/7/7/eR5/7/7/7/7 w";
    board(fen, "Rb5 ea5");
    assert_eq!(moves_from(fen, &off, "b5"), set(&["b5b4", "b5b6", "b5c5"]));
    assert_eq!(moves_from(fen, &bank, "b5"), moves_from(fen, &off, "b5"));
    assert_eq!(
        moves_from(fen, &on, "b5"),
        set(&["b5b4", "b5b6", "b5c5", "b5a5"])
    );
    // The elephant on land never reaches the rat in water.
    let fen = "7/7/7/7/eR5/7/7/7/7 b";
    board(fen, "Rb5 ea5");
    for r in [off, on, bank] {
        assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    }
    // Nor does any land piece: a lion beside a Blue rat in water (the rat also
    // blocks the lion's jump along rank 5).
    let fen = "7/7/7/7/Lr5/7/7/7/7 w";
    board(fen, "La5 rb5");
    for r in [off, on, bank, rules(&["JumpBlockedBy=enemy"])] {
        assert_eq!(moves_from(fen, &r, "a5"), set(&["a5a4", "a5a6"]));
    }
}

// ---------------------------------------------------------------------------
// Rat and elephant
// ---------------------------------------------------------------------------

#[test]
fn rat_takes_elephant_on_land_but_not_back() {
    // Red rat a4, Blue elephant a5, both on land.
    let fen = "7/7/7/7/e6/R6/7/7/7 w";
    board(fen, "Ra4 ea5");
    assert_eq!(
        moves_from(fen, &Rules::default(), "a4"),
        set(&["a4a3", "a4b4", "a4a5"])
    );
    let fen = "7/7/7/7/e6/R6/7/7/7 b";
    board(fen, "Ra4 ea5");
    assert_eq!(moves_from(fen, &Rules::default(), "a5"), set(&["a5a6"]));
    // DogOverWolf and friends do not change that.
    assert_eq!(
        moves_from(
            fen,
            &rules(&["DogOverWolf=true", "RatBankCapture=true"]),
            "a5"
        ),
        set(&["a5a6"])
    );
}

#[test]
fn elephant_takes_rat_only_on_the_elephants_trap() {
    // Blue rat on Red's trap c1, Red elephant c2.
    let fen = "7/7/7/7/7/7/7/2E4/2r4 w";
    board(fen, "Ec2 rc1");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c2"),
        set(&["c2b2", "c2d2", "c2c3", "c2c1"])
    );
    // Red rat on Blue's trap d8, Blue elephant d7.
    let fen = "7/3R3/3e3/7/7/7/7/7/7 b";
    board(fen, "ed7 Rd8");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d7"),
        set(&["d7c7", "d7e7", "d7d6", "d7d8"])
    );
    // Blue rat on its own trap d8, Red elephant d7: not by default; with
    // UniversalTraps the trap weakens its own side's rat too.
    let fen = "7/3r3/3E3/7/7/7/7/7/7 w";
    board(fen, "Ed7 rd8");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d7"),
        set(&["d7c7", "d7e7", "d7d6"])
    );
    assert_eq!(
        moves_from(fen, &rules(&["UniversalTraps=true"]), "d7"),
        set(&["d7c7", "d7e7", "d7d6", "d7d8"])
    );
}

// ---------------------------------------------------------------------------
// Traps
// ---------------------------------------------------------------------------

#[test]
fn any_enemy_takes_a_piece_on_its_trap() {
    // Blue elephant on Red's trap c1, Red cat c2.
    let fen = "7/7/7/7/7/7/7/2C4/2e4 w";
    board(fen, "Cc2 ec1");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c2"),
        set(&["c2b2", "c2d2", "c2c3", "c2c1"])
    );
    // Blue lion on Red's trap d2, Red cat d3.
    let fen = "7/7/7/7/7/7/3C3/3l3/7 w";
    board(fen, "Cd3 ld2");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d3"),
        set(&["d3c3", "d3e3", "d3d4", "d3d2"])
    );
    // Red elephant on Blue's trap e9, Blue rat e8 (rat from land) and Blue cat
    // on f9 both may take it.
    let fen = "4Ec1/4r2/7/7/7/7/7/7/7 b";
    board(fen, "Ee9 cf9 re8");
    let r = Rules::default();
    assert!(moves_from(fen, &r, "f9").contains("f9e9"));
    assert!(moves_from(fen, &r, "e8").contains("e8e9"));
}

#[test]
fn a_piece_on_its_own_trap_keeps_its_rank() {
    // Blue elephant on its own trap c9, Red cat c8.
    let fen = "2e4/2C4/7/7/7/7/7/7/7 w";
    board(fen, "Cc8 ec9");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c8"),
        set(&["c8b8", "c8d8", "c8c7"])
    );
    assert_eq!(
        moves_from(fen, &rules(&["UniversalTraps=true"]), "c8"),
        set(&["c8b8", "c8d8", "c8c7", "c8c9"])
    );
    // The elephant on its own trap still takes the cat (never its own den).
    let fen = "2e4/2C4/7/7/7/7/7/7/7 b";
    board(fen, "Cc8 ec9");
    for r in [
        Rules::default(),
        rules(&["UniversalTraps=true"]),
        rules(&["TrappedAttackerPowerless=true"]),
    ] {
        assert_eq!(moves_from(fen, &r, "c9"), set(&["c9b9", "c9c8"]));
    }
    // ... but not with both switches: then any trap makes it powerless.
    assert_eq!(
        moves_from(
            fen,
            &rules(&["UniversalTraps=true", "TrappedAttackerPowerless=true"]),
            "c9"
        ),
        set(&["c9b9"])
    );
}

#[test]
fn trapped_attacker_powerless() {
    let off = Rules::default();
    let on = rules(&["TrappedAttackerPowerless=true"]);
    // Red elephant on Blue's trap d8, Blue cat d7.
    let fen = "7/3E3/3c3/7/7/7/7/7/7 w";
    board(fen, "Ed8 cd7");
    assert_eq!(
        moves_from(fen, &off, "d8"),
        set(&["d8c8", "d8e8", "d8d9", "d8d7"])
    );
    assert_eq!(moves_from(fen, &on, "d8"), set(&["d8c8", "d8e8", "d8d9"]));
    // The cat takes the trapped elephant either way.
    let fen_b = "7/3E3/3c3/7/7/7/7/7/7 b";
    for r in [off, on] {
        assert!(moves_from(fen_b, &r, "d7").contains("d7d8"));
    }
    // Red rat on Blue's trap e9, Blue elephant e8: the rat-elephant exception is
    // powerless too.
    let fen = "4R2/4e2/7/7/7/7/7/7/7 w";
    board(fen, "Re9 ee8");
    assert_eq!(moves_from(fen, &off, "e9"), set(&["e9d9", "e9f9", "e9e8"]));
    assert_eq!(moves_from(fen, &on, "e9"), set(&["e9d9", "e9f9"]));
}

#[test]
fn own_trap_powerless_only_with_universal_traps() {
    // Red elephant on its own trap d2, Blue cat d3.
    let fen = "7/7/7/7/7/7/3c3/3E3/7 w";
    board(fen, "Ed2 cd3");
    let all = set(&["d2c2", "d2e2", "d2d3"]);
    assert_eq!(moves_from(fen, &Rules::default(), "d2"), all);
    assert_eq!(
        moves_from(fen, &rules(&["TrappedAttackerPowerless=true"]), "d2"),
        all
    );
    assert_eq!(moves_from(fen, &rules(&["UniversalTraps=true"]), "d2"), all);
    assert_eq!(
        moves_from(
            fen,
            &rules(&["UniversalTraps=true", "TrappedAttackerPowerless=true"]),
            "d2"
        ),
        set(&["d2c2", "d2e2"])
    );
    // And with UniversalTraps the cat may take the elephant on Red's own trap.
    let fen = "7/7/7/7/7/7/3c3/3E3/7 b";
    assert!(!moves_from(fen, &Rules::default(), "d3").contains("d3d2"));
    assert!(moves_from(fen, &rules(&["UniversalTraps=true"]), "d3").contains("d3d2"));
}

// ---------------------------------------------------------------------------
// Dog over wolf
// ---------------------------------------------------------------------------

#[test]
fn dog_over_wolf() {
    let off = Rules::default();
    let on = rules(&["DogOverWolf=true"]);
    // Red dog a5, Blue wolf a6.
    let fen = "7/7/7/w6/D6/7/7/7/7 w";
    board(fen, "Da5 wa6");
    assert_eq!(moves_from(fen, &off, "a5"), set(&["a5a4"]));
    assert_eq!(moves_from(fen, &on, "a5"), set(&["a5a4", "a5a6"]));
    let fen = "7/7/7/w6/D6/7/7/7/7 b";
    assert_eq!(moves_from(fen, &off, "a6"), set(&["a6a7", "a6a5"]));
    assert_eq!(moves_from(fen, &on, "a6"), set(&["a6a7"]));
    // The xoudouqi preset has the dog over the wolf.
    let mut x = Rules::default();
    x.set("UCI_Variant", "xoudouqi").unwrap();
    assert_eq!(moves_from(fen, &x, "a6"), set(&["a6a7"]));
    // The cat and the panther do not care.
    let fen = "7/7/7/c6/D6/7/7/7/7 w";
    board(fen, "Da5 ca6");
    for r in [off, on] {
        assert!(moves_from(fen, &r, "a5").contains("a5a6"));
    }
    let fen = "7/7/7/p6/W6/7/7/7/7 w";
    board(fen, "Wa5 pa6");
    for r in [off, on] {
        assert!(!moves_from(fen, &r, "a5").contains("a5a6"));
    }
}

// ---------------------------------------------------------------------------
// Dens and the end of the game
// ---------------------------------------------------------------------------

#[test]
fn own_den_is_never_entered() {
    let fen = "6c/7/7/7/7/7/7/7/2L4 w";
    board(fen, "Lc1 cg9");
    assert_eq!(
        moves_from(fen, &Rules::default(), "c1"),
        set(&["c1b1", "c1c2"])
    );
    let fen = "7/3l3/7/7/7/7/7/7/C6 b";
    board(fen, "ld8 Ca1");
    assert_eq!(
        moves_from(fen, &Rules::default(), "d8"),
        set(&["d8c8", "d8e8", "d8d7"])
    );
}

#[test]
fn entering_the_enemy_den_wins() {
    let fen = "l3C2/7/7/7/7/7/7/7/7 w";
    board(fen, "Ce9 la9");
    let r = Rules::default();
    assert_eq!(moves_from(fen, &r, "e9"), set(&["e9d9", "e9f9", "e9e8"]));
    let mut game = Game::new(r, pos(fen));
    assert_eq!(game.outcome(), None);
    play(&mut game, &["e9d9"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Den));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.position().count_moves(&r), 0);
    assert_eq!(game.clone().perft(1), 0);
    assert!(game.play_text("a9a8").is_err());

    let fen = "7/7/7/7/7/7/7/7/2r3L b";
    board(fen, "rc1 Lg1");
    assert_eq!(moves_from(fen, &r, "c1"), set(&["c1b1", "c1c2", "c1d1"]));
    let mut game = Game::new(r, pos(fen));
    play(&mut game, &["c1d1"]);
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::Den));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn a_position_with_a_piece_in_the_enemy_den_is_over() {
    for fen in ["l2C3/7/7/7/7/7/7/7/6L b", "l2C3/7/7/7/7/7/7/7/6L w"] {
        board(fen, "Cd9 la9 Lg1");
        let game = Game::new(Rules::default(), pos(fen));
        assert!(game.legal_moves().is_empty(), "{fen}");
        assert_eq!(pos(fen).count_moves(&Rules::default()), 0, "{fen}");
        assert_eq!(game.outcome(), win(Side::Red, WinReason::Den), "{fen}");
        assert_eq!(game.clone().perft(2), 0, "{fen}");
    }
    let fen = "7/7/7/7/7/7/7/7/L2c3 w";
    board(fen, "cd1 La1");
    let game = Game::new(Rules::default(), pos(fen));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::Den));
}

#[test]
fn a_side_with_no_pieces_loses() {
    // Red lion a5 takes Blue's last piece, the cat on a6.
    let fen = "7/7/7/c6/L6/7/7/7/7 w";
    board(fen, "La5 ca6");
    let mut game = Game::new(Rules::default(), pos(fen));
    assert_eq!(game.outcome(), None);
    play(&mut game, &["a5a6"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::AllCaptured));
    assert!(game.legal_moves().is_empty());
    // Given as a position, whoever is to move.
    for fen in ["7/7/7/7/L6/7/7/7/6T b", "7/7/7/7/L6/7/7/7/6T w"] {
        board(fen, "La5 Tg1");
        let game = Game::new(Rules::default(), pos(fen));
        assert_eq!(
            game.outcome(),
            win(Side::Red, WinReason::AllCaptured),
            "{fen}"
        );
        assert!(game.legal_moves().is_empty(), "{fen}");
    }
    let fen = "7/7/7/7/l6/7/7/7/7 w";
    let game = Game::new(Rules::default(), pos(fen));
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::AllCaptured));
}

#[test]
fn a_blocked_side_to_move_loses() {
    // Blue cat a1 hemmed in by Red elephant a2 and Red tiger b1.
    let fen = "7/7/7/7/7/7/7/E6/cT5 b";
    board(fen, "ca1 Ea2 Tb1");
    let game = Game::new(Rules::default(), pos(fen));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
    // The same board with Red to move is a game going on.
    let fen = "7/7/7/7/7/7/7/E6/cT5 w";
    assert_eq!(Game::new(Rules::default(), pos(fen)).outcome(), None);
    // Red cat g9 (in Blue's corner) hemmed in by Blue elephant g8 and tiger f9.
    let fen = "5tC/6e/7/7/7/7/7/7/7 w";
    board(fen, "Cg9 eg8 tf9");
    let game = Game::new(Rules::default(), pos(fen));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.outcome(), win(Side::Blue, WinReason::NoLegalMove));
    // Being blocked after a move: Red tiger c1 closes the pocket.
    let fen = "7/7/7/7/7/7/7/E6/c1T4 w";
    board(fen, "ca1 Ea2 Tc1");
    let mut game = Game::new(Rules::default(), pos(fen));
    play(&mut game, &["c1b1"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
}

// ---------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------

/// Red cat a1, Blue cat g9; both shuffle one square and back, twice. After the
/// seventh ply Blue's g8g9 would bring the start position a third time.
const REP: &str = "6c/7/7/7/7/7/7/7/C6 w 0 1";
const REP_MOVES: [&str; 7] = ["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"];

#[test]
fn repetition_forbid_removes_exactly_the_repeating_move() {
    board(REP, "Ca1 cg9");
    let r = rules(&["Repetition=forbid"]);
    let mut game = Game::new(r, pos(REP));
    play(&mut game, &REP_MOVES);
    assert_eq!(game.occurrences(), 2);
    let before = game.position().generate(&r);
    assert_eq!(strings(&before), set(&["g8f8", "g8g7", "g8g9"]));
    assert_eq!(strings(&game.legal_moves()), set(&["g8f8", "g8g7"]));
    assert_eq!(game.outcome(), None);
    let third: Move = "g8g9".parse().unwrap();
    assert!(game.would_repeat_third(third));
    assert!(!game.is_legal(third));
    assert!(game.is_legal("g8f8".parse().unwrap()));
    let err = game.play_text("g8g9").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err:?}");
    assert_eq!(game.plies_played(), 7, "a refused move is not played");
    // The other moves stay playable; after one of them the repetition is gone.
    let mut g = game.clone();
    play(&mut g, &["g8g7"]);
    assert_eq!(
        strings(&g.legal_moves()),
        strings(&g.position().generate(&r))
    );
    // Earlier in the same game, before the second occurrence, nothing was forbidden.
    let mut g = Game::new(r, pos(REP));
    play(&mut g, &REP_MOVES[..3]);
    assert_eq!(strings(&g.legal_moves()), set(&["g8f8", "g8g7", "g8g9"]));
}

#[test]
fn repetition_forbid_also_for_red() {
    // Blue starts the shuffle: Red's a2a1 would be the third occurrence.
    let fen = "6c/7/7/7/7/7/7/7/C6 b 0 1";
    let r = Rules::default();
    let mut game = Game::new(r, pos(fen));
    play(
        &mut game,
        &["g9g8", "a1a2", "g8g9", "a2a1", "g9g8", "a1a2", "g8g9"],
    );
    assert_eq!(strings(&game.legal_moves()), set(&["a2a3", "a2b2"]));
    assert!(game.play_text("a2a1").is_err());
}

#[test]
fn repetition_draw_and_none() {
    let draw = rules(&["Repetition=draw"]);
    let mut game = Game::new(draw, pos(REP));
    play(&mut game, &REP_MOVES);
    assert_eq!(game.outcome(), None);
    assert_eq!(strings(&game.legal_moves()), set(&["g8f8", "g8g7", "g8g9"]));
    play(&mut game, &["g8g9"]);
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));

    let none = rules(&["Repetition=none"]);
    let mut game = Game::new(none, pos(REP));
    play(&mut game, &REP_MOVES);
    play(&mut game, &["g8g9"]);
    assert_eq!(game.outcome(), None);
    // And on: a fourth and fifth time change nothing.
    play(&mut game, &REP_MOVES[..4]);
    play(&mut game, &REP_MOVES[..4]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().len(), 2);
}

#[test]
fn a_capture_clears_the_repetition_history() {
    // Red lion a5, Blue cat a7 and Blue dog g9: both shuffle, then the lion takes
    // the cat. Positions before the capture cannot come back.
    let fen = "6d/7/c6/7/L6/7/7/7/7 w 0 1";
    board(fen, "La5 ca7 dg9");
    let mut game = Game::new(Rules::default(), pos(fen));
    play(
        &mut game,
        &["a5a4", "g9g8", "a4a5", "g8g9", "a5a4", "g9g8", "a4a5"],
    );
    assert!(!game.is_legal("g8g9".parse().unwrap()));
    play(&mut game, &["g8f8", "a5a6", "f8g8", "a6a7"]);
    assert_eq!(game.position().plies_since_capture(), 0);
    assert_eq!(game.occurrences(), 1);
    assert_eq!(
        strings(&game.legal_moves()),
        strings(&game.position().generate(game.rules()))
    );
    // The shuffle starts again from scratch: two more occurrences are allowed.
    play(
        &mut game,
        &["g8g9", "a7a6", "g9g8", "a6a7", "g8g9", "a7a6", "g9g8"],
    );
    assert!(!game.is_legal("a6a7".parse().unwrap()));
    assert!(game.is_legal("a6a5".parse().unwrap()));
}

#[test]
fn every_move_forbidden_by_repetition_loses() {
    // Blue cat in the a1 pocket beside Red tiger b1: from a1 its only move is a1a2.
    // Red lion g5 shuffles g5-g6. After seven plies Blue, to move with the cat on
    // a1 for the second time, has only a1a2, which would repeat a third time.
    let fen = "7/7/7/7/6L/7/7/c6/1T5 w 0 1";
    board(fen, "ca2 Tb1 Lg5");
    let moves = ["g5g6", "a2a1", "g6g5", "a1a2", "g5g6", "a2a1", "g6g5"];
    let forbid = Rules::default();
    let mut game = Game::new(forbid, pos(fen));
    play(&mut game, &moves);
    assert_eq!(game.position().side_to_move(), Side::Blue);
    assert_eq!(strings(&game.position().generate(&forbid)), set(&["a1a2"]));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.count_legal_moves(), 0);
    assert_eq!(game.clone().perft(1), 0);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
    // Under the other values Blue still has its move.
    for v in ["draw", "none"] {
        let mut game = Game::new(rules(&[&format!("Repetition={v}")]), pos(fen));
        play(&mut game, &moves);
        assert_eq!(strings(&game.legal_moves()), set(&["a1a2"]), "{v}");
        assert_eq!(game.outcome(), None, "{v}");
    }
}

// ---------------------------------------------------------------------------
// No-capture limit and the order of results
// ---------------------------------------------------------------------------

#[test]
fn no_capture_limit_draws() {
    let fen = "6c/7/7/7/7/7/7/7/C6 w 99 50";
    board(fen, "Ca1 cg9");
    let r = rules(&["NoCaptureLimit=100"]);
    let mut game = Game::new(r, pos(fen));
    assert_eq!(game.outcome(), None);
    play(&mut game, &["a1a2"]);
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    // A lower limit is reached sooner: 99 plies already are a draw under 99.
    let game = Game::new(rules(&["NoCaptureLimit=99"]), pos(fen));
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    // 0 turns the rule off, however long it has been.
    for fen in [
        "6c/7/7/7/7/7/7/7/C6 w 99 50",
        "6c/7/7/7/7/7/7/7/C6 w 5000 50",
    ] {
        let mut game = Game::new(rules(&["NoCaptureLimit=0"]), pos(fen));
        play(&mut game, &["a1a2", "g9g8"]);
        assert_eq!(game.outcome(), None, "{fen}");
    }
}

#[test]
fn a_capture_resets_the_counter() {
    let fen = "6d/7/7/c6/L6/7/7/7/7 w 99 50";
    board(fen, "La5 ca6 dg9");
    let mut game = Game::new(rules(&["NoCaptureLimit=100"]), pos(fen));
    play(&mut game, &["a5a6"]);
    assert_eq!(game.position().plies_since_capture(), 0);
    assert_eq!(game.outcome(), None);
    play(&mut game, &["g9g8"]);
    assert_eq!(game.position().plies_since_capture(), 1);
    assert_eq!(game.position().move_number(), 51);
}

#[test]
fn den_entry_beats_the_no_capture_limit() {
    let fen = "6c/3C3/7/7/7/7/7/7/7 w 99 50";
    board(fen, "Cd8 cg9");
    let mut game = Game::new(rules(&["NoCaptureLimit=100"]), pos(fen));
    play(&mut game, &["d8d9"]);
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Den));
}

#[test]
fn den_entry_beats_a_blocked_opponent() {
    // Blue's only piece, the cat on a1, is hemmed in, and the Red cat enters the
    // den on the 100th ply without capture: the den decides.
    let fen = "7/3C3/7/7/7/7/7/E6/cT5 w 99 50";
    board(fen, "ca1 Ea2 Tb1 Cd8");
    let mut game = Game::new(Rules::default(), pos(fen));
    play(&mut game, &["d8d9"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Den));
    // Any other cat move leaves Blue to move without a move: that loses first,
    // before the no-capture draw.
    let mut game = Game::new(Rules::default(), pos(fen));
    play(&mut game, &["d8c8"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
}

#[test]
fn no_legal_move_beats_the_no_capture_limit() {
    let fen = "7/7/7/7/7/7/7/E6/c1T4 w 99 50";
    board(fen, "ca1 Ea2 Tc1");
    let mut game = Game::new(rules(&["NoCaptureLimit=100"]), pos(fen));
    play(&mut game, &["c1b1"]);
    assert_eq!(game.position().plies_since_capture(), 100);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
}

#[test]
fn repetition_draw_beats_the_no_capture_limit() {
    // Eight plies from 92: the third occurrence and the 100th ply come together.
    let fen = "6c/7/7/7/7/7/7/7/C6 w 92 50";
    board(fen, "Ca1 cg9");
    let moves = [
        "a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1", "g8g9",
    ];
    let play_all = |r: Rules| {
        let mut game = Game::new(r, pos(fen));
        for m in moves {
            // Game::make, not play_text: the game may be over one ply early.
            game.make(m.parse().unwrap());
        }
        assert_eq!(game.position().plies_since_capture(), 100);
        game.outcome()
    };
    assert_eq!(
        play_all(rules(&["Repetition=draw", "NoCaptureLimit=100"])),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
    assert_eq!(
        play_all(rules(&["Repetition=none", "NoCaptureLimit=100"])),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    assert_eq!(
        play_all(rules(&["Repetition=draw", "NoCaptureLimit=0"])),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
}

// ---------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------

fn fen_err(text: &str) -> FenError {
    match std::panic::catch_unwind(|| text.parse::<Position>()) {
        Ok(Ok(p)) => panic!("{text:?} parsed as {p:?}"),
        Ok(Err(e)) => {
            // The message is there to be shown to a user.
            assert!(!e.to_string().is_empty());
            e
        }
        Err(_) => panic!("{text:?}: the parser panicked"),
    }
}

#[test]
fn every_fen_error_is_reported() {
    const B: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    assert_eq!(fen_err(""), FenError::Empty);
    assert_eq!(fen_err("   "), FenError::Empty);
    assert_eq!(fen_err("7/7/7 w"), FenError::RankCount { found: 3 });
    assert_eq!(
        fen_err("7/7/7/7/7/7/7/7/7/7 w"),
        FenError::RankCount { found: 10 }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L w"),
        FenError::RankWidth { rank: 1, width: 6 }
    );
    assert_eq!(
        fen_err("l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::RankWidth { rank: 9, width: 8 }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/ w"),
        FenError::RankWidth { rank: 1, width: 0 }
    );
    assert!(matches!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L7 w"),
        FenError::RankWidth { rank: 1, .. }
    ));
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5x w"),
        FenError::UnknownChar { rank: 1, ch: 'x' }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/8/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::UnknownChar { rank: 6, ch: '8' }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/07/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::UnknownChar { rank: 6, ch: '0' }
    );
    assert_eq!(
        fen_err("L5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::DuplicateAnimal {
            letter: 'L',
            square: sq("g1")
        }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/l6/7/E1W1P1R/1C3D1/T5L w"),
        FenError::DuplicateAnimal {
            letter: 'l',
            square: sq("a5")
        }
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/1L5/7/E1W1P1R/1C3D1/T6 w"),
        FenError::NotRatInWater {
            letter: 'L',
            square: sq("b5")
        }
    );
    assert_eq!(
        fen_err("6t/1d3c1/r1p1w1e/7/7/5l1/E1W1P1R/1C3D1/T5L w"),
        FenError::NotRatInWater {
            letter: 'l',
            square: sq("f4")
        }
    );
    // ... while rats in water are fine.
    assert!(
        "6t/1d3c1/2p1w1e/7/7/1r3R1/E1W1P2/1C3D1/T5L w"
            .parse::<Position>()
            .is_ok()
    );
    assert_eq!(
        fen_err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T2L3 w"),
        FenError::PieceInOwnDen {
            letter: 'L',
            square: sq("d1")
        }
    );
    assert_eq!(
        fen_err("3l2t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"),
        FenError::PieceInOwnDen {
            letter: 'l',
            square: sq("d9")
        }
    );
    assert_eq!(
        fen_err("3C3/7/7/7/7/7/7/7/3c3 w"),
        FenError::BothDensEntered
    );
    assert_eq!(fen_err(B), FenError::MissingSide);
    assert_eq!(fen_err(&format!("{B} x")), FenError::BadSide("x".into()));
    assert_eq!(
        fen_err(&format!("{B} red")),
        FenError::BadSide("red".into())
    );
    for (tail, field) in [
        ("w -1 1", "plies since capture"),
        ("w abc 1", "plies since capture"),
        ("w 1.5 1", "plies since capture"),
        ("w 4294967296 1", "plies since capture"),
        ("w 0 0", "move number"),
        ("w 0 x", "move number"),
        ("w 0 -3", "move number"),
    ] {
        match fen_err(&format!("{B} {tail}")) {
            FenError::BadCounter { field: f, .. } => assert_eq!(f, field, "{tail}"),
            other => panic!("{tail}: {other:?}"),
        }
    }
    assert_eq!(
        fen_err(&format!("{B} w 0 1 extra")),
        FenError::ExtraField("extra".into())
    );
}

#[test]
fn malformed_texts_never_panic() {
    // Mangle the start position character by character in a fixed pseudo-random way.
    let base: Vec<char> = START_FEN.chars().collect();
    let alphabet: Vec<char> = "elptwdcrELPTWDCR0123456789/ -wbrx\u{e9}".chars().collect();
    let mut state = 0x1234_5678_9abc_def0_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..5000 {
        let mut s = base.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() % s.len() as u64) as usize;
            let c = alphabet[(next() % alphabet.len() as u64) as usize];
            match next() % 3 {
                0 => s[i] = c,
                1 => s.insert(i, c),
                _ => {
                    s.remove(i);
                }
            }
            if s.is_empty() {
                s.push('7');
            }
        }
        let text: String = s.into_iter().collect();
        let result = std::panic::catch_unwind(|| text.parse::<Position>());
        match result {
            Err(_) => panic!("{text:?}: the parser panicked"),
            Ok(Ok(p)) => {
                // Whatever parses prints back to the same position.
                assert_eq!(pos(&p.fen()), p, "{text:?}");
            }
            Ok(Err(_)) => {}
        }
    }
}

#[test]
fn side_letters_and_optional_counters() {
    let w = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
    let r = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r");
    assert_eq!(w, r);
    assert_eq!(w.side_to_move(), Side::Red);
    assert_eq!(w.plies_since_capture(), 0);
    assert_eq!(w.move_number(), 1);
    assert_eq!(w, Position::startpos());
    assert_eq!(w.fen(), START_FEN);
    let b = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 7");
    assert_eq!(b.side_to_move(), Side::Blue);
    assert_eq!(b.plies_since_capture(), 7);
    assert_eq!(b.move_number(), 1);
    assert_ne!(b.key(), w.key(), "the side to move is part of the key");
    let c = pos("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 12 40");
    assert_eq!(c.key(), w.key(), "the counters are not part of the key");
    assert_ne!(c, w);
    // Pieces land where the notation says.
    assert_eq!(w.piece_at(sq("a1")), Some(Piece::from_letter('T').unwrap()));
    assert_eq!(w.piece_at(sq("a9")).map(|p| p.letter()), Some('l'));
    assert_eq!(w.piece_at(sq("g7")).map(|p| p.letter()), Some('e'));
    assert_eq!(w.piece_at(sq("d5")), None);
}

#[test]
fn fen_round_trips() {
    let mut fens: Vec<String> = vec![START_FEN.to_string()];
    fens.extend(common::perft_suite_fens());
    fens.extend(
        [
            "6c/7/7/7/2R4/7/7/7/7 w",
            "l2C3/7/7/7/7/7/7/7/6L b",
            "7/7/7/7/7/7/7/7/L2c3 w 3 9",
            "7/7/7/7/7/7/7/7/7 b 0 1",
            "7/7/7/5r1/7/7/7/7/C6 b 4294967295 4294967295",
        ]
        .map(String::from),
    );
    assert!(fens.len() > 60);
    for fen in &fens {
        let p = pos(fen);
        let printed = p.fen();
        let q = pos(&printed);
        assert_eq!(p, q, "{fen} -> {printed}");
        assert_eq!(p.key(), q.key(), "{fen}");
        assert_eq!(p.key(), p.compute_key(), "{fen}");
        assert_eq!(q.fen(), printed, "{fen}");
        // A FEN that already has both counters prints back exactly.
        if fen.split_whitespace().count() == 4 {
            assert_eq!(&printed, fen);
        }
    }
}

// ---------------------------------------------------------------------------
// Games from text
// ---------------------------------------------------------------------------

#[test]
fn game_from_fen_and_moves_reports_the_bad_move() {
    let r = Rules::default();
    let ok = Game::from_fen_and_moves(r, START_FEN, &["g3g4", "a7a6", "g4g5"]).unwrap();
    assert_eq!(ok.plies_played(), 3);
    assert_eq!(ok.position().side_to_move(), Side::Blue);
    assert_eq!(
        ok.position().fen(),
        "l5t/1d3c1/2p1w1e/r6/6R/7/E1W1P2/1C3D1/T5L b 3 2"
    );

    let cases: [(&[&str], usize, bool); 7] = [
        (&["zz"], 0, true),
        (&["g3g4", "a7a6", "g4"], 2, true),
        (&["g3g4", "a9a8", "g4g6"], 2, false), // two squares
        (&["g3g4", "g4g5"], 1, false),         // Red's piece on Blue's turn
        (&["g3g4", "a9a8", "d4d5"], 2, false), // empty square
        (&["a3a4", "a7a6", "a4b4"], 2, false), // elephant into water
        (&["0000"], 0, false),                 // the null move is no move
    ];
    for (moves, index, malformed) in cases {
        match Game::from_fen_and_moves(r, START_FEN, moves) {
            Err(GameError::Move { index: i, error }) => {
                assert_eq!(i, index, "{moves:?}");
                assert_eq!(
                    matches!(error, MoveError::Malformed(_)),
                    malformed,
                    "{moves:?}: {error:?}"
                );
                let text = moves[index];
                assert!(error.to_string().contains(text), "{moves:?}: {error}");
            }
            other => panic!("{moves:?}: {other:?}"),
        }
    }
    assert!(matches!(
        Game::from_fen_and_moves(r, "7/7 w", &["a1a2"]),
        Err(GameError::Fen(FenError::RankCount { found: 2 }))
    ));
    // A move after the game is over is illegal.
    match Game::from_fen_and_moves(r, "l3C2/7/7/7/7/7/7/7/7 w", &["e9d9", "a9a8"]) {
        Err(GameError::Move { index: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
    // A move repeating a position a third time is refused at its index.
    let mut moves = REP_MOVES.to_vec();
    moves.push("g8g9");
    match Game::from_fen_and_moves(r, REP, &moves) {
        Err(GameError::Move { index: 7, error }) => {
            assert!(matches!(error, MoveError::Illegal { .. }))
        }
        other => panic!("{other:?}"),
    }
}
