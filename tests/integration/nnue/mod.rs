//! The learned evaluation: the net file (every way it can be wrong, and
//! writing then reading gives the net back), the incremental accumulator
//! against a from-scratch sum over random games under every rule switch, the
//! colour symmetry of the score, and the `Eval`/`EvalFile` options through the
//! real binary.
//!
//! The nets here have random weights (no trainer needed); the ignored test

mod train;

use crate::common;

use common::{EngineProcess, every_switch, random_move};
use doushou::engine::nnue::features::{INPUTS, RuleInput, feature_index};
use doushou::engine::nnue::{self, Accumulator, AccumulatorStack, NetError, Network, Quantisation};
use doushou::engine::search::Silent;
use doushou::engine::{Engine, GoLimits};
use doushou::rules::{Game, Position, Rules, Side, Square};
use doushou::util::bytes::fnv1a;
use doushou::util::rng::SplitMix64 as Rng;
use std::path::PathBuf;
use std::process::Command;

/// A net with random weights, small enough that no hidden value overflows
/// but large enough that CReLU clamps at both ends (QA is 64, a hidden value
/// reaches ±1088).
fn random_net(seed: u64, hidden: usize) -> Network {
    let mut rng = Rng::new(seed);
    let mut weights =
        |n: usize| -> Vec<i16> { (0..n).map(|_| rng.below(129) as i16 - 64).collect() };
    let w1 = weights(INPUTS * hidden);
    let b1 = weights(hidden);
    let w2 = weights(2 * hidden);
    let q = Quantisation {
        scale: 300,
        qa: 64,
        qb: 32,
    };
    Network::new(q, &format!("random seed {seed}"), w1, b1, w2, -123).unwrap()
}

/// [`random_net`] with rule inputs: `Repetition=draw` and `DogOverWolf`, rows
/// of the same size as `W1`'s.
fn random_net_with_rules(seed: u64, hidden: usize) -> Network {
    let mut rng = Rng::new(seed ^ 0x5EED);
    let rows: Vec<i16> = (0..2 * hidden)
        .map(|_| rng.below(129) as i16 - 64)
        .collect();
    random_net(seed, hidden)
        .with_rule_inputs(
            vec![RuleInput::RepetitionDraw, RuleInput::DogOverWolf],
            rows,
        )
        .unwrap()
}

/// The version-1 file of a net without rule inputs: the version-2 file
/// without its rule input count.
fn version_1_bytes(net: &Network) -> Vec<u8> {
    assert!(net.rule_inputs().is_empty());
    let v2 = net.to_bytes();
    let mut v1 = v2[..8].to_vec();
    v1.extend_from_slice(&1u32.to_le_bytes());
    // inputs, H, SCALE, QA, QB; then n (after the rule count), the rest.
    v1.extend_from_slice(&v2[12..32]);
    v1.extend_from_slice(&v2[36..v2.len() - 4]);
    let sum = fnv1a(&v1);
    v1.extend_from_slice(&sum.to_le_bytes());
    v1
}

/// A file in the temporary folder, unique to this test process.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("doushou-nnue-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Writes `value` as a little-endian u32 at `at`, then fixes the checksum so
/// that only the field is wrong.
fn patch_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    let body = bytes.len() - 4;
    let sum = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

// ---------------------------------------------------------------------------
// The file
// ---------------------------------------------------------------------------

#[test]
fn writing_then_reading_gives_the_net_back() {
    for (seed, hidden) in [(1, 1), (2, 7), (3, 64), (4, 1024)] {
        for net in [
            random_net(seed, hidden),
            random_net_with_rules(seed, hidden),
        ] {
            let bytes = net.to_bytes();
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net, "H {hidden}");
            assert_eq!(back.to_bytes(), bytes, "H {hidden}");
            assert_eq!(back.description(), format!("random seed {seed}"));
            assert_eq!(back.rule_inputs(), net.rule_inputs());
        }
    }
}

#[test]
fn the_file_layout_is_the_documented_one() {
    let net = random_net_with_rules(5, 3);
    let bytes = net.to_bytes();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let i16_at = |at: usize| i16::from_le_bytes([bytes[at], bytes[at + 1]]);
    assert_eq!(&bytes[..8], b"DSQNNUE\0");
    assert_eq!(
        [8, 12, 16, 20, 24, 28, 32, 36].map(u32_at),
        [2, 1008, 3, 300, 64, 32, 2, 13]
    );
    // The rule input codes, then the description.
    assert_eq!([40, 44].map(u32_at), [0, 3]);
    assert_eq!(&bytes[48..61], b"random seed 5");
    let w1_at = 61;
    assert_eq!(i16_at(w1_at), net.w1_row(0)[0]);
    let rules_at = w1_at + 2 * 1008 * 3;
    assert_eq!(
        i16_at(rules_at + 2 * 3),
        net.rule_row(RuleInput::DogOverWolf).unwrap()[0]
    );
    assert_eq!(i16_at(rules_at + 2 * 2 * 3), net.b1()[0]);
    assert_eq!(bytes.len(), 61 + 2 * (1008 + 2) * 3 + 2 * 3 + 4 * 3 + 4 + 4);
    let b2_at = bytes.len() - 8;
    assert_eq!(u32_at(b2_at) as i32, -123);
    assert_eq!(u32_at(bytes.len() - 4), fnv1a(&bytes[..b2_at + 4]));
}

#[test]
fn a_version_1_file_reads_as_a_net_without_rule_inputs() {
    let net = random_net(21, 5);
    let back = Network::from_bytes(&version_1_bytes(&net)).unwrap();
    assert_eq!(back, net);
    assert!(back.rule_inputs().is_empty());
    let mut draw = Rules::default();
    draw.set("Repetition", "draw").unwrap();
    assert_eq!(back.missing_rules(&Rules::default()), Vec::<String>::new());
    assert_eq!(back.missing_rules(&draw), ["Repetition=draw"]);
    // What it cannot see it evaluates as under the default rules.
    let pos = Position::startpos();
    assert_eq!(
        back.for_rules(&draw).evaluate_position(&pos),
        back.evaluate_position(&pos)
    );
}

#[test]
fn each_kind_of_bad_file_is_refused_with_its_own_error() {
    let good = random_net_with_rules(6, 8).to_bytes();
    let read = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();

    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(read(&magic), NetError::BadMagic);
    assert_eq!(read(b"DSQ"), NetError::BadMagic);

    let mut version = good.clone();
    patch_u32(&mut version, 8, 3);
    assert_eq!(read(&version), NetError::UnsupportedVersion(3));

    let mut inputs = good.clone();
    patch_u32(&mut inputs, 12, 1000);
    assert_eq!(read(&inputs), NetError::WrongInputCount(1000));

    for h in [0, 1025] {
        let mut hidden = good.clone();
        patch_u32(&mut hidden, 16, h);
        assert_eq!(read(&hidden), NetError::HiddenOutOfRange(h));
    }

    let mut rule_count = good.clone();
    patch_u32(&mut rule_count, 32, 10);
    assert_eq!(read(&rule_count), NetError::RuleInputCount(10));

    let mut unknown = good.clone();
    patch_u32(&mut unknown, 40, 99);
    assert_eq!(read(&unknown), NetError::UnknownRuleInput(99));

    let mut twice = good.clone();
    patch_u32(&mut twice, 44, 0);
    assert_eq!(
        read(&twice),
        NetError::DuplicateRuleInput(RuleInput::RepetitionDraw)
    );

    let mut smaller = good.clone();
    patch_u32(&mut smaller, 16, 7);
    assert!(
        matches!(read(&smaller), NetError::WrongSize { actual, expected }
            if actual == good.len() as u64 && expected < actual),
        "{}",
        read(&smaller)
    );

    for cut in [20, good.len() / 2, good.len() - 1] {
        assert!(
            matches!(read(&good[..cut]), NetError::Truncated { actual, .. } if actual == cut as u64),
            "cut at {cut}: {}",
            read(&good[..cut])
        );
    }

    for at in [40, good.len() / 2, good.len() - 6] {
        let mut flipped = good.clone();
        flipped[at] ^= 0x10;
        assert!(
            matches!(read(&flipped), NetError::ChecksumMismatch { .. }),
            "byte {at}: {}",
            read(&flipped)
        );
    }

    let mut scale = good.clone();
    patch_u32(&mut scale, 20, 0);
    assert!(matches!(read(&scale), NetError::BadQuantisation(_)));

    // Each error says what is wrong in words.
    let texts: Vec<String> = [
        read(&magic),
        read(&version),
        read(&inputs),
        read(&smaller),
        read(&good[..100]),
        read(&{
            let mut f = good.clone();
            f[60] ^= 1;
            f
        }),
        read(&rule_count),
        read(&unknown),
        read(&twice),
    ]
    .iter()
    .map(|e| e.to_string())
    .collect();
    for (text, word) in texts.iter().zip([
        "magic",
        "version",
        "input",
        "size",
        "truncated",
        "checksum",
        "rule inputs",
        "rule input code 99",
        "Repetition=draw",
    ]) {
        assert!(text.contains(word), "{text:?} should mention {word}");
    }
}

#[test]
fn rule_inputs_add_their_rows_to_the_bias_under_their_rules_only() {
    let net = random_net_with_rules(22, 6);
    let plain = random_net(22, 6);
    let pos: Position = "l5t/1d3c1/r1p1w1e/7/3E3/7/2W1P1R/1C3D1/T5L b 0 1"
        .parse()
        .unwrap();
    let mut draw = Rules::default();
    draw.set("Repetition", "draw").unwrap();
    // Under the default rules the rule inputs are off: the net is the plain one.
    assert_eq!(net.bias(), plain.b1());
    assert_eq!(net.evaluate_position(&pos), plain.evaluate_position(&pos));
    let under_draw = net.for_rules(&draw);
    let expected: Vec<i16> = plain
        .b1()
        .iter()
        .zip(net.rule_row(RuleInput::RepetitionDraw).unwrap())
        .map(|(b, w)| b.wrapping_add(*w))
        .collect();
    assert_eq!(under_draw.bias(), expected.as_slice());
    assert_eq!(under_draw.rules(), &draw);
    assert_ne!(
        under_draw.evaluate_position(&pos),
        net.evaluate_position(&pos),
        "the same position, two repetition rules, two evaluations"
    );
    // Both rule inputs on: both rows.
    let mut xoudouqi = Rules::XOUDOUQI;
    xoudouqi.set("Repetition", "draw").unwrap();
    let both = net.for_rules(&xoudouqi);
    let dog = net.rule_row(RuleInput::DogOverWolf).unwrap();
    for h in 0..6 {
        assert_eq!(both.bias()[h], expected[h].wrapping_add(dog[h]));
    }
    // What it has no input for is named.
    assert_eq!(
        net.missing_rules(&xoudouqi),
        ["RatBankCapture=true", "TrappedAttackerPowerless=true"]
    );
    assert!(net.missing_rules(&draw).is_empty());
}

#[test]
fn a_net_whose_score_could_overflow_is_refused() {
    let q = Quantisation {
        scale: 1,
        qa: 32767,
        qb: 1,
    };
    let hidden = 64;
    let result = Network::new(
        q,
        "",
        vec![0; INPUTS * hidden],
        vec![0; hidden],
        vec![i16::MAX; 2 * hidden],
        0,
    );
    assert_eq!(result.unwrap_err(), NetError::OutputOverflow);
}

#[test]
fn the_embedded_net_loads() {
    let net = nnue::embedded();
    assert!((1..=nnue::MAX_HIDDEN).contains(&net.hidden()));
    assert_eq!(net.to_bytes(), nnue::EMBEDDED);
    // The start position is balanced: only the side to move can tell them apart.
    assert!(net.evaluate_position(&Position::startpos()).abs() < 200);
}

// ---------------------------------------------------------------------------
// The accumulator and the score
// ---------------------------------------------------------------------------

/// Plays random games under `rules`, now and then taking moves back, and checks
/// after every make and unmake that the stack's accumulator is the one computed
/// from scratch. Answers the number of checks.
fn check_incremental(
    net: &Network,
    rules: Rules,
    rng: &mut Rng,
    games: usize,
    plies: usize,
) -> usize {
    let mut checks = 0;
    for _ in 0..games {
        let mut game = Game::new(rules, Position::startpos());
        let mut stack = AccumulatorStack::new(net, game.position(), 8);
        let mut check = |game: &Game, stack: &AccumulatorStack, what: &str| {
            let scratch = Accumulator::from_position(net, game.position());
            assert_eq!(
                stack.current(),
                &scratch,
                "{what} at {} under {rules}",
                game.position().fen()
            );
            assert_eq!(stack.depth(), game.plies_played());
            checks += 1;
        };
        for _ in 0..plies {
            let Some(mv) = random_move(&game, rng) else {
                break;
            };
            stack.push(game.position(), mv);
            game.make(mv);
            check(&game, &stack, &format!("after {mv}"));
            if rng.below(4) == 0 && game.plies_played() > 1 {
                stack.pop();
                game.unmake();
                check(&game, &stack, "after unmake");
            }
        }
        while game.plies_played() > 0 {
            stack.pop();
            game.unmake();
            check(&game, &stack, "unwinding");
        }
    }
    checks
}

#[test]
fn the_incremental_accumulator_equals_the_sum_from_scratch_under_every_switch() {
    let net = random_net(7, 24);
    let mut rng = Rng::new(8);
    let mut checks = 0;
    for (name, value) in every_switch() {
        let mut rules = Rules::default();
        rules.set(&name, &value).unwrap();
        checks += check_incremental(&net, rules, &mut rng, 2, 300);
    }
    assert!(checks > 10_000, "only {checks} checks");
}

#[test]
fn the_incremental_accumulator_holds_for_several_seeds_and_widths() {
    for (seed, hidden) in [(9, 1), (10, 33), (11, 256)] {
        let net = random_net(seed, hidden);
        let mut rng = Rng::new(seed);
        check_incremental(&net, Rules::XOUDOUQI, &mut rng, 3, 250);
    }
    // Hidden values past i16 wrap, in the stack as in the sum from scratch.
    let hidden = 4;
    let q = Quantisation {
        scale: 1,
        qa: 255,
        qb: 1,
    };
    let huge = Network::new(
        q,
        "overflowing",
        vec![20_000; INPUTS * hidden],
        vec![0; hidden],
        vec![1; 2 * hidden],
        0,
    )
    .unwrap();
    check_incremental(&huge, Rules::default(), &mut Rng::new(12), 2, 100);
}

#[test]
fn a_position_and_its_colour_flipped_mirror_score_the_same() {
    let nets = [
        random_net(13, 16),
        random_net(14, 5),
        (*nnue::embedded()).clone(),
    ];
    let mut rng = Rng::new(15);
    let mut checked = 0;
    for net in &nets {
        for (name, value) in every_switch().into_iter().step_by(3) {
            let mut rules = Rules::default();
            rules.set(&name, &value).unwrap();
            let mut game = Game::new(rules, Position::startpos());
            for _ in 0..120 {
                let p = game.position();
                let m = p.mirrored();
                assert_eq!(m.side_to_move(), p.side_to_move().opponent());
                assert_eq!(
                    net.evaluate_position(p),
                    net.evaluate_position(&m),
                    "{} against its mirror {}",
                    p.fen(),
                    m.fen()
                );
                checked += 1;
                let Some(mv) = random_move(&game, &mut rng) else {
                    break;
                };
                game.make(mv);
            }
        }
    }
    assert!(checked > 500, "only {checked} positions");
}

#[test]
fn the_score_is_the_documented_integer_formula() {
    let net = random_net(16, 6);
    let pos: Position = "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 b 8 34"
        .parse()
        .unwrap();
    let acc = Accumulator::from_position(&net, &pos);
    let q = net.quantisation();
    let crelu = |v: i16| i64::from(v.clamp(0, q.qa as i16));
    let (us, them) = (Side::Blue, Side::Red);
    let mut sum = i64::from(net.b2());
    for i in 0..6 {
        sum += crelu(acc.perspective(us)[i]) * i64::from(net.w2()[i]);
        sum += crelu(acc.perspective(them)[i]) * i64::from(net.w2()[6 + i]);
    }
    let expected = sum * i64::from(q.scale) / i64::from(q.qa * q.qb);
    assert_eq!(i64::from(net.evaluate(&acc, Side::Blue)), expected);
    // And the hidden values are b1 plus the rows of the pieces on the board.
    let mut red = net.b1().to_vec();
    for sq in Square::all() {
        if let Some(piece) = pos.piece_at(sq) {
            for (v, w) in red
                .iter_mut()
                .zip(net.w1_row(feature_index(Side::Red, piece, sq)))
            {
                *v = v.wrapping_add(*w);
            }
        }
    }
    assert_eq!(acc.perspective(Side::Red), &red[..]);
}

// ---------------------------------------------------------------------------
// The shipped net
// ---------------------------------------------------------------------------

#[test]
fn the_shipped_net_sees_the_start_as_level_and_an_elephant_as_a_lot() {
    let net = Network::from_bytes(include_bytes!("../../../nets/default.nnue")).unwrap();
    let score = |fen: &str| net.evaluate_position(&fen.parse().unwrap());
    let start = score("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1");
    assert!(start.abs() < 150, "start position {start}");
    // Blue without its elephant: good for Red whoever is to move.
    let red_to_move = score("l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L w 0 1");
    let blue_to_move = score("l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L b 0 1");
    assert!(
        red_to_move > 300,
        "Red to move, an elephant up: {red_to_move}"
    );
    assert!(
        blue_to_move < -300,
        "Blue to move, an elephant down: {blue_to_move}"
    );
}

/// The shipped net knows the repetition rule: the den standoff
/// (Blue besieges Red's den; under `Repetition=draw` the defender may
/// shuffle forever) gets another evaluation under that rule, and the net
/// has an input for every rule family its data covered.
#[test]
fn the_shipped_net_evaluates_a_standoff_by_the_repetition_rule() {
    let net = Network::from_bytes(include_bytes!("../../../nets/default.nnue")).unwrap();
    let pos: Position = "1L5/2t1w2/7/4R2/C2W3/1r5/7/1e2D2/2T2P1 b 4 66"
        .parse()
        .unwrap();
    let mut draw = Rules::default();
    draw.set("Repetition", "draw").unwrap();
    assert!(net.missing_rules(&draw).is_empty());
    let default = net.for_rules(&Rules::default()).evaluate_position(&pos);
    let under_draw = net.for_rules(&draw).evaluate_position(&pos);
    assert_ne!(default, under_draw);
}

/// The engine's evaluation of the same standoff (`eval`, as a person asks
/// for it) under `Repetition=draw` is at most half of its value under the
/// default rules, and of the same sign: the siege Blue holds with less
/// material is worth little where the defender may shuffle forever.
#[test]
fn the_standoff_is_worth_at_most_half_under_repetition_draw() {
    let mut e = EngineProcess::start();
    e.quiet("position fen 1L5/2t1w2/7/4R2/C2W3/1r5/7/1e2D2/2T2P1 b 4 66");
    let default = eval_total(&mut e);
    e.quiet("setoption name Repetition value draw");
    let under_draw = eval_total(&mut e);
    assert!(default > 0, "{default}");
    assert!(
        under_draw >= 0 && 2 * under_draw <= default,
        "default {default}, Repetition=draw {under_draw}"
    );
    e.finish();
}

// ---------------------------------------------------------------------------
// Through the binary
// ---------------------------------------------------------------------------

/// The `eval` command's total, with the strict protocol check off (its
/// answer is for people).
fn eval_total(e: &mut EngineProcess) -> i32 {
    e.strict = false;
    e.send("eval");
    let lines = e.sync();
    e.strict = true;
    let total = lines
        .iter()
        .find_map(|l| l.trim().strip_prefix("total"))
        .unwrap_or_else(|| e.fail(&format!("no total in {lines:?}")));
    total.trim().parse().unwrap()
}

/// Expects exactly one `info string error:` line, mentioning each of `words`.
#[track_caller]
fn expect_option_error(e: &mut EngineProcess, cmd: &str, words: &[&str]) {
    e.send(cmd);
    let lines = e.sync();
    let ok = lines.len() == 1
        && lines[0].starts_with("info string error: ")
        && words.iter().all(|w| lines[0].contains(w));
    if !ok {
        e.fail(&format!(
            "{cmd:?}: expected one error naming {words:?}, got {lines:?}"
        ));
    }
}

/// `go depth 3` answers one of the legal moves.
fn expect_legal_bestmove(e: &mut EngineProcess) {
    e.strict = false;
    e.send("moves");
    let legal = e.next_line();
    e.strict = true;
    let lines = e.go("go depth 3");
    let (best, _) = common::parse_bestmove(lines.last().unwrap()).unwrap();
    if !legal.split(' ').skip(1).any(|m| m == best) {
        e.fail(&format!("bestmove {best} is not among {legal}"));
    }
}

#[test]
fn uci_lists_the_evaluation_options() {
    let mut e = EngineProcess::spawn();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for want in [
        "option name Eval type combo default nnue var nnue var linear",
        "option name EvalFile type string default <default>",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want:?} not in {lines:?}");
    }
    e.finish();
}

#[test]
fn a_bad_eval_file_is_refused_and_the_engine_keeps_its_net() {
    let good = temp_file("good.nnue", &random_net(17, 12).to_bytes());
    let bytes = random_net(18, 12).to_bytes();
    let truncated = temp_file("truncated.nnue", &bytes[..bytes.len() - 100]);
    let mut version = bytes.clone();
    patch_u32(&mut version, 8, 9);
    let version = temp_file("version.nnue", &version);
    let mut e = EngineProcess::start();
    e.quiet("setoption name Eval value nnue");
    e.quiet("position startpos moves a3a4 g7g6");
    let embedded = eval_total(&mut e);
    e.quiet(&format!("setoption name EvalFile value {}", good.display()));
    let with_good = eval_total(&mut e);
    assert_eq!(
        with_good,
        random_net(17, 12).evaluate_position(
            &Game::from_fen_and_moves(
                Rules::default(),
                doushou::rules::START_FEN,
                &["a3a4", "g7g6"]
            )
            .unwrap()
            .position()
            .clone()
        )
    );
    expect_option_error(
        &mut e,
        "setoption name EvalFile value /nonexistent",
        &["/nonexistent"],
    );
    assert_eq!(eval_total(&mut e), with_good);
    expect_legal_bestmove(&mut e);
    let truncated_name = truncated.display().to_string();
    expect_option_error(
        &mut e,
        &format!("setoption name EvalFile value {truncated_name}"),
        &[&truncated_name, "truncated"],
    );
    let version_name = version.display().to_string();
    expect_option_error(
        &mut e,
        &format!("setoption name EvalFile value {version_name}"),
        &[&version_name, "version 9"],
    );
    assert_eq!(eval_total(&mut e), with_good);
    expect_legal_bestmove(&mut e);
    // `<default>` (or no value) is the embedded net again.
    e.quiet("setoption name EvalFile value <default>");
    assert_eq!(eval_total(&mut e), embedded);
    e.quiet(&format!("setoption name EvalFile value {}", good.display()));
    e.quiet("setoption name EvalFile");
    assert_eq!(eval_total(&mut e), embedded);
    e.finish();
    for f in [good, truncated, version] {
        let _ = std::fs::remove_file(f);
    }
}

/// The score of the last `info` line of `go depth 1`, centipawns.
fn depth_1_score(e: &mut EngineProcess) -> i32 {
    let lines = e.go("go depth 1");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score cp "))
        .unwrap_or_else(|| e.fail(&format!("no cp score in {lines:?}")));
    let after = info.split(" score cp ").nth(1).unwrap();
    after.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn the_engine_evaluates_under_the_rules_in_force_and_warns_of_a_net_made_for_others() {
    let net = random_net_with_rules(30, 16);
    let with_rules = temp_file("rules.nnue", &net.to_bytes());
    let old = temp_file("old.nnue", &version_1_bytes(&random_net(31, 16)));
    let pos = *Game::from_fen_and_moves(
        Rules::default(),
        doushou::rules::START_FEN,
        &["a3a4", "g7g6"],
    )
    .unwrap()
    .position();
    let mut draw = Rules::default();
    draw.set("Repetition", "draw").unwrap();

    let mut e = EngineProcess::start();
    e.quiet(&format!(
        "setoption name EvalFile value {}",
        with_rules.display()
    ));
    e.quiet("position startpos moves a3a4 g7g6");
    let (eval_forbid, search_forbid) = (eval_total(&mut e), depth_1_score(&mut e));
    // The net has an input for it: nothing to warn of.
    e.quiet("setoption name Repetition value draw");
    e.quiet("position startpos moves a3a4 g7g6");
    let (eval_draw, search_draw) = (eval_total(&mut e), depth_1_score(&mut e));
    assert_eq!(eval_forbid, net.evaluate_position(&pos));
    assert_eq!(eval_draw, net.for_rules(&draw).evaluate_position(&pos));
    assert_ne!(
        eval_forbid, eval_draw,
        "two repetition rules, one evaluation"
    );
    // The search evaluates under the rules in force too (no repetition can
    // happen in one ply, so only the evaluation differs).
    assert_ne!(search_forbid, search_draw);

    // A version-1 net has no rule inputs: chosen under Repetition=draw, it is
    // warned about, and `eval` says so; under the default rules it is not.
    e.send(&format!("setoption name EvalFile value {}", old.display()));
    let lines = e.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string warning: ")
            && lines[0].contains("Repetition=draw")
            && lines[0].contains("default rules"),
        "{lines:?}"
    );
    e.strict = false;
    e.send("eval");
    let lines = e.sync();
    e.strict = true;
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("warning: ") && l.contains("Repetition=draw")),
        "{lines:?}"
    );
    e.quiet("setoption name Repetition value forbid");
    e.quiet(&format!("setoption name EvalFile value {}", old.display()));
    e.strict = false;
    e.send("eval");
    let lines = e.sync();
    e.strict = true;
    assert!(!lines.iter().any(|l| l.contains("warning")), "{lines:?}");
    e.finish();
}

#[test]
fn the_eval_option_switches_the_evaluation() {
    let mut e = EngineProcess::start();
    e.quiet("position fen l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L w 0 1");
    e.quiet("setoption name Eval value linear");
    e.strict = false;
    e.send("eval");
    let linear = e.sync();
    e.strict = true;
    assert!(
        linear.iter().any(|l| l.trim().starts_with("material")),
        "{linear:?}"
    );
    e.quiet("setoption name Eval value nnue");
    e.strict = false;
    e.send("eval");
    let net = e.sync();
    e.strict = true;
    assert!(net.iter().any(|l| l.trim().starts_with("nnue")), "{net:?}");
    // The net's description is cut to a line (the shipped net's lists 40 data files).
    let header = net.iter().find(|l| l.contains("by the net (")).unwrap();
    assert!(header.len() < 500, "{header}");
    assert!(
        !net.iter().any(|l| l.trim().starts_with("material")),
        "{net:?}"
    );
    // Blue is an elephant down: both evaluations say Red is better.
    assert!(eval_total(&mut e) > 0);
    expect_legal_bestmove(&mut e);
    expect_option_error(
        &mut e,
        "setoption name Eval value cubic",
        &["Eval", "cubic"],
    );
    e.quiet("setoption name Eval value linear");
    assert!(eval_total(&mut e) > 0);
    e.finish();
}

#[test]
fn the_tools_take_the_evaluation_from_the_command_line() {
    let good = temp_file("tool.nnue", &random_net(19, 8).to_bytes());
    let bench = |args: &[&str]| {
        Command::new(common::BIN)
            .args(["bench", "--depth", "2"])
            .args(args)
            .output()
            .unwrap()
    };
    let ok = bench(&["--eval", "nnue", "--eval-file", good.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(text.lines().last().unwrap().ends_with("nps"), "{text}");

    let missing = bench(&["--eval", "nnue", "--eval-file", "/nonexistent.nnue"]);
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("/nonexistent.nnue"), "{err}");

    let bad_kind = bench(&["--eval", "cubic"]);
    assert_eq!(bad_kind.status.code(), Some(2));
    let _ = std::fs::remove_file(good);
}

#[test]
fn the_search_keeps_its_accumulators_in_step_with_the_game() {
    // Debug builds check the stack against a sum from scratch at every
    // evaluation; reductions and every cutoff path are on.
    let path = temp_file("search.nnue", &random_net(20, 16).to_bytes());
    let mut engine = Engine::new();
    for (name, value) in [
        ("Eval", "nnue"),
        ("EvalFile", path.to_str().unwrap()),
        ("Hash", "4"),
    ] {
        engine.set_option(name, Some(value)).unwrap();
    }
    let mut searched = 0;
    for fen in doushou::engine::bench::positions().step_by(4) {
        engine.new_game();
        engine.set_position::<&str>(fen, &[]).unwrap();
        let limits = GoLimits {
            depth: Some(5),
            ..GoLimits::default()
        };
        let result = engine.search(&limits, &Silent).unwrap();
        let game = engine.game().unwrap();
        if game.outcome().is_none() {
            assert!(
                game.legal_moves().contains(&result.best_move),
                "{fen}: {}",
                result.best_move
            );
            searched += 1;
        }
    }
    assert!(searched >= 5, "only {searched} positions searched");
    let _ = std::fs::remove_file(path);
}
