//! Random playouts under random rule switches, checked at every ply against a
//! slow, obviously correct referee written here from `docs/rules.md` alone: it looks
//! at the board only through `Position::piece_at` and `side_to_move`, tries all
//! 63 x 63 (from, to) pairs, and keeps its own copy of the board, the counters and
//! the game's list of positions for repetition.
//!
//! At every ply: the incremental key equals the key computed from scratch; make
//! then unmake restores position and key; `count_moves` equals the generated
//! count; the notation round-trips; the position's moves, the game's legal moves
//! (repetition included) and the result all equal the referee's; the mirrored
//! position has the mirrored moves. Now and then, perft 2 equals the referee's.

use crate::common;

use doushou::rules::{
    DEN, DrawReason, Game, Move, NEIGHBOURS, Outcome, Position, Rules, START_FEN, Side, Square,
    WinReason,
};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------
// A deterministic PRNG: the project's SplitMix64, with the remainder-based
// draws these playouts were written against
// ---------------------------------------------------------------------------

struct Rng(doushou::util::rng::SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

// ---------------------------------------------------------------------------
// The referee's own reading of docs/rules.md
// ---------------------------------------------------------------------------

/// Square index from a name: file a..g, rank 1..9, index = (rank - 1) * 7 + file.
fn at(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 7 + (b[0] - b'a') as usize
}

fn marks(names: &[&str]) -> [bool; 63] {
    let mut t = [false; 63];
    for n in names {
        t[at(n)] = true;
    }
    t
}

/// The fixed geometry of the board ("Board" in docs/rules.md).
struct Geometry {
    water: [bool; 63],
    red_trap: [bool; 63],
    blue_trap: [bool; 63],
    red_den: usize,
    blue_den: usize,
}

impl Geometry {
    fn new() -> Geometry {
        Geometry {
            water: marks(&[
                "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6",
            ]),
            red_trap: marks(&["c1", "e1", "d2"]),
            blue_trap: marks(&["c9", "e9", "d8"]),
            red_den: at("d1"),
            blue_den: at("d9"),
        }
    }

    fn trap_of(&self, red: bool) -> &[bool; 63] {
        if red { &self.red_trap } else { &self.blue_trap }
    }

    fn any_trap(&self, s: usize) -> bool {
        self.red_trap[s] || self.blue_trap[s]
    }
}

/// The switches as the referee understands them, read from the same
/// `Name=Value` settings the engine is given.
#[derive(Clone, Copy, Debug)]
struct Switches {
    dog_over_wolf: bool,
    tiger: (bool, bool), // (vertical, horizontal)
    lion: (bool, bool),
    bank: bool,
    water_elephant: bool,
    powerless: bool,
    universal: bool,
    enemy_only_blocks: bool,
    repetition: &'static str,
    limit: u32,
}

fn axes(v: &str) -> (bool, bool) {
    match v {
        "both" => (true, true),
        "vertical" => (true, false),
        "horizontal" => (false, true),
        "none" => (false, false),
        _ => panic!("axes {v}"),
    }
}

impl Switches {
    fn from_settings(settings: &[String]) -> Switches {
        let mut s = Switches {
            dog_over_wolf: false,
            tiger: (true, true),
            lion: (true, true),
            bank: false,
            water_elephant: false,
            powerless: false,
            universal: false,
            enemy_only_blocks: false,
            repetition: "forbid",
            limit: 100,
        };
        for item in settings {
            let (name, value) = item.split_once('=').unwrap();
            let flag = value == "true";
            match name {
                "UCI_Variant" => {
                    assert_eq!(value, "xoudouqi");
                    s.dog_over_wolf = true;
                    s.bank = true;
                    s.powerless = true;
                    s.repetition = "forbid";
                }
                "DogOverWolf" => s.dog_over_wolf = flag,
                "TigerJump" => s.tiger = axes(value),
                "LionJump" => s.lion = axes(value),
                "RatBankCapture" => s.bank = flag,
                "RatWaterElephant" => s.water_elephant = flag,
                "TrappedAttackerPowerless" => s.powerless = flag,
                "UniversalTraps" => s.universal = flag,
                "JumpBlockedBy" => s.enemy_only_blocks = value == "enemy",
                "Repetition" => {
                    s.repetition = match value {
                        "forbid" => "forbid",
                        "draw" => "draw",
                        "none" => "none",
                        _ => panic!("{value}"),
                    }
                }
                "NoCaptureLimit" => s.limit = value.parse().unwrap(),
                _ => panic!("unknown setting {name}"),
            }
        }
        s
    }
}

/// The board as the referee keeps it: a FEN letter per square, 0 when empty.
type Board = [u8; 63];

fn is_red(piece: u8) -> bool {
    piece.is_ascii_uppercase()
}

fn rank_of(piece: u8, sw: &Switches) -> u8 {
    match piece.to_ascii_uppercase() {
        b'R' => 1,
        b'C' => 2,
        b'D' if sw.dog_over_wolf => 4,
        b'D' => 3,
        b'W' if sw.dog_over_wolf => 3,
        b'W' => 4,
        b'P' => 5,
        b'T' => 6,
        b'L' => 7,
        b'E' => 8,
        _ => panic!("not a piece: {piece}"),
    }
}

fn board_of(p: &Position) -> Board {
    let mut b = [0; 63];
    for (i, cell) in b.iter_mut().enumerate() {
        let s = Square::new((i % 7) as u8, (i / 7) as u8).unwrap();
        if let Some(piece) = p.piece_at(s) {
            *cell = piece.letter() as u8;
        }
    }
    b
}

struct Referee {
    geo: Geometry,
    sw: Switches,
}

impl Referee {
    /// docs/rules.md "Capture", rules 1-3 and the trap switches.
    fn may_take(&self, attacker: u8, from: usize, defender: u8, to: usize) -> bool {
        let (g, sw) = (&self.geo, &self.sw);
        let red = is_red(attacker);
        // Where the attacker itself stands weakened: enemy traps (any trap with
        // UniversalTraps). Powerless there with TrappedAttackerPowerless.
        let attacker_weak = if sw.universal {
            g.any_trap(from)
        } else {
            g.trap_of(!red)[from]
        };
        if sw.powerless && attacker_weak {
            return false;
        }
        // Rule 1: the defender on a trap of the attacker's side (any trap with
        // UniversalTraps) is taken by anyone.
        let defender_weak = if sw.universal {
            g.any_trap(to)
        } else {
            g.trap_of(red)[to]
        };
        if defender_weak {
            return true;
        }
        let a = attacker.to_ascii_uppercase();
        let d = defender.to_ascii_uppercase();
        // Rule 3: across the bank only what the switches allow.
        if g.water[from] != g.water[to] {
            if a == b'R' && d == b'R' {
                return sw.bank;
            }
            if a == b'R' && d == b'E' && g.water[from] {
                return sw.water_elephant;
            }
            return false;
        }
        // Rule 2 with the rat-elephant exception.
        if a == b'E' && d == b'R' {
            return false;
        }
        if a == b'R' && d == b'E' {
            return true;
        }
        rank_of(attacker, sw) >= rank_of(defender, sw)
    }

    /// Whether `from -> to` is a river jump open to `piece` (Movement, rule 5).
    fn is_jump(&self, b: &Board, piece: u8, from: usize, to: usize) -> bool {
        let (vertical, horizontal) = match piece.to_ascii_uppercase() {
            b'L' => self.sw.lion,
            b'T' => self.sw.tiger,
            _ => return false,
        };
        let (ff, fr, tf, tr) = (from % 7, from / 7, to % 7, to / 7);
        let between: Vec<usize> = if ff == tf && fr != tr {
            if !vertical {
                return false;
            }
            (fr.min(tr) + 1..fr.max(tr)).map(|r| r * 7 + ff).collect()
        } else if fr == tr && ff != tf {
            if !horizontal {
                return false;
            }
            (ff.min(tf) + 1..ff.max(tf)).map(|f| fr * 7 + f).collect()
        } else {
            return false;
        };
        if between.is_empty() || self.geo.water[from] || self.geo.water[to] {
            return false;
        }
        for &s in &between {
            if !self.geo.water[s] {
                return false;
            }
            let occupant = b[s];
            if occupant.eq_ignore_ascii_case(&b'R')
                && (!self.sw.enemy_only_blocks || is_red(occupant) != is_red(piece))
            {
                return false;
            }
        }
        true
    }

    /// Whether the board is a finished game (a den entered, a side with no pieces).
    fn decided(&self, b: &Board) -> bool {
        let red = b.iter().any(|&p| p != 0 && is_red(p));
        let blue = b.iter().any(|&p| p != 0 && !is_red(p));
        (b[self.geo.blue_den] != 0 && is_red(b[self.geo.blue_den]))
            || (b[self.geo.red_den] != 0 && !is_red(b[self.geo.red_den]))
            || !red
            || !blue
    }

    /// Every legal move of the board, repetition aside, by trying all pairs.
    fn moves(&self, b: &Board, red_to_move: bool) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.decided(b) {
            return out;
        }
        let own_den = if red_to_move {
            self.geo.red_den
        } else {
            self.geo.blue_den
        };
        for from in 0..63 {
            let piece = b[from];
            if piece == 0 || is_red(piece) != red_to_move {
                continue;
            }
            for to in 0..63 {
                let (ff, fr, tf, tr) = (
                    (from % 7) as i32,
                    (from / 7) as i32,
                    (to % 7) as i32,
                    (to / 7) as i32,
                );
                let step = (ff - tf).abs() + (fr - tr).abs() == 1;
                if !step && !self.is_jump(b, piece, from, to) {
                    continue;
                }
                if self.geo.water[to] && !piece.eq_ignore_ascii_case(&b'R') {
                    continue;
                }
                if to == own_den {
                    continue;
                }
                let target = b[to];
                if target != 0 {
                    if is_red(target) == red_to_move {
                        continue;
                    }
                    if !self.may_take(piece, from, target, to) {
                        continue;
                    }
                }
                out.push((from, to));
            }
        }
        out
    }
}

/// The referee's game: its own board, side, counters and list of positions.
#[derive(Clone)]
struct RefGame {
    board: Board,
    red_to_move: bool,
    plies_since_capture: u32,
    move_number: u32,
    /// Board and side of every position of the game, the current one last.
    seen: Vec<[u8; 64]>,
}

fn key_of(b: &Board, red_to_move: bool) -> [u8; 64] {
    let mut k = [0; 64];
    k[..63].copy_from_slice(b);
    k[63] = red_to_move as u8;
    k
}

impl RefGame {
    fn new(p: &Position) -> RefGame {
        let board = board_of(p);
        let red_to_move = p.side_to_move() == Side::Red;
        RefGame {
            board,
            red_to_move,
            plies_since_capture: p.plies_since_capture(),
            move_number: p.move_number(),
            seen: vec![key_of(&board, red_to_move)],
        }
    }

    fn after(&self, (from, to): (usize, usize)) -> (Board, bool) {
        let mut b = self.board;
        b[to] = b[from];
        b[from] = 0;
        (b, !self.red_to_move)
    }

    fn occurrences(&self, key: &[u8; 64]) -> usize {
        self.seen.iter().filter(|k| *k == key).count()
    }

    fn play(&mut self, m: (usize, usize)) {
        let capture = self.board[m.1] != 0;
        if !self.red_to_move {
            self.move_number += 1;
        }
        let (b, red) = self.after(m);
        self.board = b;
        self.red_to_move = red;
        self.plies_since_capture = if capture {
            0
        } else {
            self.plies_since_capture + 1
        };
        self.seen.push(key_of(&b, red));
    }

    /// The legal moves of the game: the board's, less those that would make a
    /// position occur a third time under Repetition=forbid.
    fn legal(&self, r: &Referee) -> Vec<(usize, usize)> {
        let mut moves = r.moves(&self.board, self.red_to_move);
        if r.sw.repetition == "forbid" {
            moves.retain(|&m| {
                let (b, red) = self.after(m);
                self.occurrences(&key_of(&b, red)) < 2
            });
        }
        moves
    }

    /// docs/rules.md "End of the game", in its order.
    fn outcome(&self, r: &Referee) -> Option<Outcome> {
        let b = &self.board;
        let g = &r.geo;
        if b[g.blue_den] != 0 && is_red(b[g.blue_den]) {
            return Some(Outcome::Win {
                winner: Side::Red,
                reason: WinReason::Den,
            });
        }
        if b[g.red_den] != 0 && !is_red(b[g.red_den]) {
            return Some(Outcome::Win {
                winner: Side::Blue,
                reason: WinReason::Den,
            });
        }
        let red_left = b.iter().any(|&p| p != 0 && is_red(p));
        let blue_left = b.iter().any(|&p| p != 0 && !is_red(p));
        if !red_left {
            return Some(Outcome::Win {
                winner: Side::Blue,
                reason: WinReason::AllCaptured,
            });
        }
        if !blue_left {
            return Some(Outcome::Win {
                winner: Side::Red,
                reason: WinReason::AllCaptured,
            });
        }
        if self.legal(r).is_empty() {
            return Some(Outcome::Win {
                winner: if self.red_to_move {
                    Side::Blue
                } else {
                    Side::Red
                },
                reason: WinReason::NoLegalMove,
            });
        }
        let here = key_of(b, self.red_to_move);
        if r.sw.repetition == "draw" && self.occurrences(&here) >= 3 {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if r.sw.limit > 0 && self.plies_since_capture >= r.sw.limit {
            return Some(Outcome::Draw(DrawReason::NoCaptureLimit));
        }
        None
    }

    fn perft(&mut self, r: &Referee, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal(r);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            let mut next = self.clone();
            next.play(m);
            n += next.perft(r, depth - 1);
        }
        n
    }
}

fn square(i: usize) -> Square {
    Square::new((i % 7) as u8, (i / 7) as u8).unwrap()
}

fn text((from, to): (usize, usize)) -> String {
    format!("{}{}", square(from), square(to))
}

fn texts(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

// ---------------------------------------------------------------------------
// The playouts
// ---------------------------------------------------------------------------

fn random_settings(rng: &mut Rng) -> Vec<String> {
    if rng.chance(5) {
        return vec!["UCI_Variant=xoudouqi".to_string()];
    }
    let b = |rng: &mut Rng| if rng.chance(50) { "true" } else { "false" };
    let limit = match rng.below(4) {
        0 => 0,
        1 => 100,
        2 => 5 + rng.below(60) as u32,
        _ => 1 + rng.below(8) as u32,
    };
    let mut s = vec![
        format!("DogOverWolf={}", b(rng)),
        format!("TigerJump={}", rng.pick(&["both", "vertical", "none"])),
        format!(
            "LionJump={}",
            rng.pick(&["both", "vertical", "horizontal", "none"])
        ),
        format!("RatBankCapture={}", b(rng)),
        format!("RatWaterElephant={}", b(rng)),
        format!("TrappedAttackerPowerless={}", b(rng)),
        format!("UniversalTraps={}", b(rng)),
        format!("JumpBlockedBy={}", rng.pick(&["any", "enemy"])),
        format!("Repetition={}", rng.pick(&["forbid", "draw", "none"])),
        format!("NoCaptureLimit={limit}"),
    ];
    // Any order must do.
    for i in (1..s.len()).rev() {
        let j = rng.below(i + 1);
        s.swap(i, j);
    }
    s
}

fn start_positions() -> Vec<String> {
    let mut fens = vec![START_FEN.to_string()];
    fens.extend(common::perft_suite_fens());
    // A few sparse positions where repetition and blocking come quickly.
    fens.extend(
        [
            "6c/7/7/7/7/7/7/7/C6 w 0 1",
            "7/7/7/7/6L/7/7/c6/1T5 w 0 1",
            "2e4/2C4/7/7/7/7/7/7/7 w 0 1",
            "7/7/7/7/1Rr4/7/7/7/7 w 0 1",
            "7/3E3/3c3/7/7/7/7/7/7 w 0 1",
            "6d/7/c6/7/L6/7/7/7/7 w 0 1",
            "7/7/7/7/7/7/7/E6/c1T4 w 0 1",
            "4t1C/6e/7/7/7/7/7/7/7 b 0 1",
            // Den races: runners near a den with few defenders.
            "l6/7/3T3/7/7/7/7/7/7 w 0 1",
            "7/2c4/3R3/7/7/7/3W3/7/7 w 0 1",
            "7/7/7/7/7/7/3l3/7/2C4 b 0 1",
        ]
        .map(String::from),
    );
    fens
}

/// The mirror image of a move: both squares turned half a turn.
fn rotated(m: &str) -> String {
    let turn = |s: &str| square(62 - at(s)).to_string();
    format!("{}{}", turn(&m[..2]), turn(&m[2..]))
}

/// Checks everything about one ply of `game`, whose referee twin is `twin`.
/// True where the side to move had a den step nothing answers.
fn check_ply(game: &mut Game, twin: &RefGame, referee: &Referee, ctx: &str, deep: bool) -> bool {
    let rules = *game.rules();
    let p = *game.position();

    // Keys.
    assert_eq!(p.key(), p.compute_key(), "{ctx}: incremental key");

    // The referee's board and counters are the position's.
    assert_eq!(board_of(&p), twin.board, "{ctx}: board");
    assert_eq!(
        p.side_to_move() == Side::Red,
        twin.red_to_move,
        "{ctx}: side"
    );
    assert_eq!(
        p.plies_since_capture(),
        twin.plies_since_capture,
        "{ctx}: no-capture counter"
    );
    assert_eq!(p.move_number(), twin.move_number, "{ctx}: move number");

    // Notation round trip.
    let fen = p.fen();
    let back: Position = fen.parse().unwrap_or_else(|e| panic!("{ctx}: {fen}: {e}"));
    assert_eq!(back, p, "{ctx}: FEN round trip {fen}");
    assert_eq!(back.key(), p.key(), "{ctx}: key after round trip");

    // Moves of the position against the referee's.
    let generated = p.generate(&rules);
    let gen_set = texts(&generated);
    assert_eq!(gen_set.len(), generated.len(), "{ctx}: duplicate moves");
    assert_eq!(
        p.count_moves(&rules),
        generated.len() as u64,
        "{ctx}: count"
    );
    let naive: BTreeSet<String> = referee
        .moves(&twin.board, twin.red_to_move)
        .into_iter()
        .map(text)
        .collect();
    assert_eq!(gen_set, naive, "{ctx}: position moves (engine vs referee)");

    // The search's shortcuts: the captures alone, whether any move exists,
    // whether the den can be entered, each without listing every move.
    let captures: Vec<Move> = generated
        .iter()
        .copied()
        .filter(|&m| p.is_capture(m))
        .collect();
    assert_eq!(
        p.generate_captures(&rules).as_slice(),
        &captures[..],
        "{ctx}: captures"
    );
    assert_eq!(p.has_move(&rules), !generated.is_empty(), "{ctx}: has_move");
    let enemy_den = DEN[p.side_to_move().opponent().index()];
    assert_eq!(
        p.can_enter_den(&rules),
        generated.iter().any(|m| m.to().bit() & enemy_den != 0),
        "{ctx}: can_enter_den"
    );
    // A step next to the den that no enemy move answers: taken nowhere, and
    // the enemy cannot enter our den first.
    let mut den_step = false;
    if !p.can_enter_den(&rules) {
        let doors = NEIGHBOURS[enemy_den.trailing_zeros() as usize];
        let unanswered = |m: Move| {
            let mut after = p;
            after.make(m);
            !after.can_enter_den(&rules) && !after.generate(&rules).iter().any(|r| r.to() == m.to())
        };
        let expected = generated
            .iter()
            .any(|&m| m.to().bit() & doors != 0 && unanswered(m));
        let step = p.unstoppable_den_step(&rules);
        assert_eq!(step.is_some(), expected, "{ctx}: unstoppable_den_step");
        if let Some(m) = step {
            assert!(
                generated.contains(&m) && unanswered(m),
                "{ctx}: {m} answers"
            );
            den_step = true;
        }
    }

    // The same game seen from the other side has the mirrored moves.
    let mirror = p.mirrored();
    assert_eq!(mirror.key(), mirror.compute_key(), "{ctx}: mirrored key");
    let mirrored: BTreeSet<String> = gen_set.iter().map(|m| rotated(m)).collect();
    assert_eq!(
        texts(&mirror.generate(&rules)),
        mirrored,
        "{ctx}: mirrored moves"
    );

    // The game's legal moves, repetition included.
    let legal = game.legal_moves();
    let legal_set = texts(&legal);
    let naive_legal: BTreeSet<String> = twin.legal(referee).into_iter().map(text).collect();
    assert_eq!(
        legal_set, naive_legal,
        "{ctx}: legal moves (engine vs referee)"
    );
    assert_eq!(game.count_legal_moves(), legal.len() as u64, "{ctx}");
    assert_eq!(
        game.has_legal_move(),
        !legal.is_empty(),
        "{ctx}: has_legal_move"
    );
    for &m in generated.iter() {
        let ok = legal_set.contains(&m.to_string());
        assert_eq!(game.is_legal(m), ok, "{ctx}: is_legal({m})");
        assert_eq!(
            game.would_repeat_third(m),
            !ok,
            "{ctx}: would_repeat_third({m})"
        );
    }

    // The result.
    assert_eq!(game.outcome(), twin.outcome(referee), "{ctx}: outcome");

    // The occurrences of the current position.
    let here = key_of(&twin.board, twin.red_to_move);
    assert_eq!(
        game.occurrences() as usize,
        twin.occurrences(&here),
        "{ctx}: occurrences"
    );

    // Make and unmake each legal move.
    let occurrences = game.occurrences();
    let plies = game.plies_played();
    for &m in legal.iter() {
        let predicted = p.key_after(m);
        let mut copy = p;
        copy.make(m);
        game.make(m);
        let after = *game.position();
        assert_eq!(after, copy, "{ctx}: Game::make vs Position::make for {m}");
        assert_eq!(after.key(), after.compute_key(), "{ctx}: key after {m}");
        assert_eq!(after.key(), predicted, "{ctx}: key_after({m})");
        let (b, red) = twin.after((at(&m.to_string()[..2]), at(&m.to_string()[2..])));
        assert_eq!(board_of(&after), b, "{ctx}: board after {m}");
        assert_eq!(
            after.side_to_move() == Side::Red,
            red,
            "{ctx}: side after {m}"
        );
        assert_eq!(
            after.plies_since_capture() == 0,
            p.is_capture(m),
            "{ctx}: counter after {m}"
        );
        game.unmake();
        assert_eq!(*game.position(), p, "{ctx}: unmake {m}");
        assert_eq!(
            game.position().key(),
            p.key(),
            "{ctx}: key after unmake {m}"
        );
        assert_eq!(
            game.occurrences(),
            occurrences,
            "{ctx}: history after unmake"
        );
        assert_eq!(game.plies_played(), plies, "{ctx}");
    }

    if deep {
        let mut t = twin.clone();
        assert_eq!(game.perft(2), t.perft(referee, 2), "{ctx}: perft 2");
        assert_eq!(*game.position(), p, "{ctx}: perft left the game changed");
    }
    den_step
}

#[test]
fn random_playouts_agree_with_the_referee() {
    let fens = start_positions();
    let mut rng = Rng(doushou::util::rng::SplitMix64::new(0x646F_7573_686F_7521));
    let (games, max_plies) = (300, 200);
    let mut stats = [0usize; 9];
    for g in 0..games {
        let fen = &fens[g % fens.len()];
        let settings = random_settings(&mut rng);
        let mut rules = Rules::default();
        rules
            .apply_settings(settings.iter().map(String::as_str))
            .unwrap();
        let referee = Referee {
            geo: Geometry::new(),
            sw: Switches::from_settings(&settings),
        };
        let start: Position = fen.parse().unwrap();
        let mut game = Game::new(rules, start);
        let mut twin = RefGame::new(&start);
        // Some games play on through draws (Game::make allows it), to reach
        // fourth and later occurrences and long no-capture runs.
        let play_through_draws = rng.chance(40);
        let shuffle = rng.below(80) as u64;
        let mut last_move: [Option<Move>; 2] = [None, None];
        for ply in 0..=max_plies {
            let ctx = format!(
                "game {g} ply {ply} [{}] from {fen} after {}: {}",
                settings.join(" "),
                game.moves_played()
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                game.position().fen()
            );
            if check_ply(&mut game, &twin, &referee, &ctx, ply % 16 == 0) {
                stats[8] += 1;
            }
            let outcome = game.outcome();
            match outcome {
                Some(Outcome::Win { reason, .. }) => {
                    stats[reason as usize] += 1;
                    break;
                }
                Some(Outcome::Draw(reason)) => {
                    stats[3 + reason as usize] += 1;
                    if !play_through_draws {
                        break;
                    }
                }
                None => {}
            }
            if ply == max_plies {
                stats[5] += 1;
                break;
            }
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            if legal.len() != game.position().generate(&rules).len() {
                stats[6] += 1; // repetition forbade a move here
            }
            // Often move the same piece back where it came from, so that positions
            // repeat; otherwise any legal move.
            let us = game.position().side_to_move().index();
            let back = last_move[us]
                .map(|m| Move::new(m.to(), m.from()))
                .filter(|m| legal.contains(m));
            let m = match back {
                Some(b) if rng.chance(shuffle) => b,
                _ => legal[rng.below(legal.len())],
            };
            last_move[us] = Some(m);
            let played = game.play_text(&m.to_string());
            if outcome.is_none() {
                assert_eq!(played, Ok(m), "play_text({m})");
            } else {
                // The game is over (a draw played through): play_text refuses, make does not.
                assert!(played.is_err());
                game.make(m);
            }
            twin.play((m.from().index(), m.to().index()));
            if twin.occurrences(&key_of(&twin.board, twin.red_to_move)) >= 3 {
                stats[7] += 1;
            }
        }
    }
    // The playouts must reach the ends they are there to check.
    let [
        den,
        all,
        stuck,
        rep,
        limit,
        long,
        forbidden,
        thrice,
        den_steps,
    ] = stats;
    eprintln!(
        "den {den} all-captured {all} no-move {stuck} repetition-draw {rep} \
         limit-draw {limit} full-length {long} plies with a forbidden move {forbidden} \
         third occurrences {thrice} unanswered den steps {den_steps}"
    );
    assert!(den > 0 && all > 0 && stuck > 0, "{stats:?}");
    assert!(rep > 0 && limit > 0, "{stats:?}");
    assert!(forbidden > 0 && thrice > 0 && den_steps > 0, "{stats:?}");
}

#[test]
fn key_after_and_make_agree_on_every_generated_move() {
    // Position-level only (no game): from each start position under the defaults
    // and under every trap and water switch on, every generated move.
    let mut all_on = Rules::default();
    all_on
        .apply_settings([
            "RatBankCapture=true",
            "RatWaterElephant=true",
            "UniversalTraps=true",
            "DogOverWolf=true",
        ])
        .unwrap();
    for fen in start_positions() {
        let p: Position = fen.parse().unwrap();
        for rules in [Rules::default(), all_on] {
            for &m in p.generate(&rules).iter() {
                let mut q = p;
                q.make(m);
                assert_eq!(q.key(), p.key_after(m), "{fen} {m}");
                assert_eq!(q.key(), q.compute_key(), "{fen} {m}");
                assert_ne!(q.key(), p.key(), "{fen} {m}");
            }
        }
    }
}
