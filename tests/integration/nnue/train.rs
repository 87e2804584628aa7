//! `doushou train` driven as a user runs it, on a small data set that the test
//! makes with `doushou selfplay`: the validation loss falls, the net file is
//! read back by a small reader written here from `docs/nnue.md` (header, size,
//! FNV-1a checksum) and its integer forward pass agrees with the float network
//! of the checkpoint, a resumed run ends where an uninterrupted one does, and
//! bad input fails cleanly with the exit code README gives (2 for the command
//! line, 1 for the data).

use crate::common;

use common::run_tool;
use doushou::engine::nnue::Network;
use doushou::engine::nnue::features::{INPUTS, RuleInput, active_features};
use doushou::rules::{Position, Rules};
use doushou::tuning::train::files::Checkpoint;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A folder of this test process's own.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("doushou-train-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

fn file(name: &str) -> String {
    scratch().join(name).display().to_string()
}

/// About 4000 labelled positions from 40 short games, made once per run, by
/// the linear evaluation at 3000 nodes a move: data that does not change when
/// the shipped net does, and decisive enough (about half the positions from
/// won or lost games) that the validation loss measures something. Shallower
/// games end mostly drawn, and a net that answers "even" fits those at once.
fn data() -> &'static str {
    static DATA: OnceLock<String> = OnceLock::new();
    DATA.get_or_init(|| {
        let path = file("selfplay.txt");
        run_tool(&[
            "selfplay",
            "--games",
            "40",
            "--nodes",
            "3000",
            "--max-plies",
            "300",
            "--eval",
            "linear",
            "--out",
            &path,
        ])
        .assert_ok("selfplay");
        path
    })
}

/// `doushou train` on the data with a small net and small batches (so that a
/// few epochs take many steps), plus `extra` arguments.
fn train(out: &str, extra: &[&str]) -> common::ToolRun {
    let mut args = vec![
        "train",
        "--data",
        data(),
        "--out",
        out,
        "--hidden",
        "32",
        "--batch",
        "256",
        "--lr",
        "0.0003",
    ];
    args.extend_from_slice(extra);
    run_tool(&args)
}

/// The validation losses of the epoch lines, in order.
fn validation_losses(stderr: &str) -> Vec<f64> {
    stderr
        .lines()
        .filter(|l| l.starts_with("train: epoch ") && l.contains(" validation "))
        .map(|l| {
            let after = l.split(" validation ").nth(1).unwrap();
            after.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

/// A version-2 net file, as `docs/nnue.md` describes it.
struct Net {
    hidden: usize,
    scale: i32,
    description: String,
    /// The rule input codes.
    rules: Vec<u32>,
    w1: Vec<i16>,
    /// One row of H per rule input.
    rule_rows: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
}

const QA: i32 = 255;
const QB: i32 = 64;

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash ^= b as u32;
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// Reads and checks a net file: magic, version, inputs, QA, QB, exact size
/// and checksum.
fn read_net(path: &str) -> Net {
    let bytes = std::fs::read(path).unwrap();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(&bytes[..8], b"DSQNNUE\0", "magic");
    assert_eq!(u32_at(8), 2, "version");
    assert_eq!(u32_at(12), INPUTS as u32, "inputs");
    let hidden = u32_at(16) as usize;
    assert!((1..=1024).contains(&hidden));
    let scale = u32_at(20) as i32;
    assert!(scale >= 1);
    assert_eq!((u32_at(24), u32_at(28)), (QA as u32, QB as u32));
    let r = u32_at(32) as usize;
    let n = u32_at(36) as usize;
    let rules: Vec<u32> = (0..r).map(|i| u32_at(40 + 4 * i)).collect();
    let text = 40 + 4 * r;
    let description = String::from_utf8(bytes[text..text + n].to_vec()).unwrap();
    let body = text + n;
    let size = body + 2 * (INPUTS + r) * hidden + 2 * hidden + 2 * 2 * hidden + 4 + 4;
    assert_eq!(bytes.len(), size, "file size");
    assert_eq!(fnv1a(&bytes[..size - 4]), u32_at(size - 4), "checksum");
    let i16s = |from: usize, count: usize| -> Vec<i16> {
        (0..count)
            .map(|i| i16::from_le_bytes(bytes[from + 2 * i..from + 2 * i + 2].try_into().unwrap()))
            .collect()
    };
    let w1 = i16s(body, INPUTS * hidden);
    let rules_at = body + 2 * INPUTS * hidden;
    let rule_rows = i16s(rules_at, r * hidden);
    let b1_at = rules_at + 2 * r * hidden;
    let b1 = i16s(b1_at, hidden);
    let w2 = i16s(b1_at + 2 * hidden, 2 * hidden);
    let b2 = i32::from_le_bytes(bytes[size - 8..size - 4].try_into().unwrap());
    Net {
        hidden,
        scale,
        description,
        rules,
        w1,
        rule_rows,
        b1,
        w2,
        b2,
    }
}

impl Net {
    /// The integer forward pass of `docs/nnue.md` under `rules`, centipawns
    /// for the side to move.
    fn score(&self, pos: &Position, rules: &Rules) -> i32 {
        let stm = pos.side_to_move();
        let mut out = self.b2;
        for (half, side) in [stm, stm.opponent()].into_iter().enumerate() {
            let mut acc: Vec<i32> = self.b1.iter().map(|&b| b as i32).collect();
            for (i, &code) in self.rules.iter().enumerate() {
                if RuleInput::from_code(code).unwrap().is_on(rules) {
                    for (h, a) in acc.iter_mut().enumerate() {
                        *a += self.rule_rows[i * self.hidden + h] as i32;
                    }
                }
            }
            for input in active_features(pos, side) {
                for (h, a) in acc.iter_mut().enumerate() {
                    *a += self.w1[input * self.hidden + h] as i32;
                }
            }
            for (h, a) in acc.iter().enumerate() {
                assert!(i16::try_from(*a).is_ok(), "accumulator {a} overflows i16");
                out += self.w2[half * self.hidden + h] as i32 * a.clamp(&0, &QA);
            }
        }
        out * self.scale / (QA * QB)
    }
}

/// Positions of the data file.
fn positions(count: usize) -> Vec<Position> {
    std::fs::read_to_string(data())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(37)
        .take(count)
        .map(|l| l.split(';').next().unwrap().trim().parse().unwrap())
        .collect()
}

#[test]
fn training_lowers_the_validation_loss_and_writes_a_net_the_engine_can_read() {
    let out = file("net.nnue");
    // A third held out: several blocks of whole games, not one game's noise.
    let run = train(
        &out,
        &["--epochs", "4", "--seed", "3", "--validation", "0.33"],
    );
    run.assert_ok("train");
    let losses = validation_losses(&run.stderr);
    assert_eq!(losses.len(), 4, "one line per epoch:\n{}", run.stderr);
    assert!(
        losses[3] < losses[0],
        "validation loss {losses:?} did not fall:\n{}",
        run.stderr
    );
    // Over a thousand held out: no warning; a few hundred: the trainer says
    // that is little.
    assert!(!run.stderr.contains("too few"), "{}", run.stderr);
    let small = train(
        &file("small.nnue"),
        &["--epochs", "1", "--validation", "0.05"],
    );
    small.assert_ok("train");
    assert!(small.stderr.contains("too few"), "{}", small.stderr);
    assert!(run.stdout.is_empty(), "stdout is for the protocol only");

    let net = read_net(&out);
    assert_eq!(net.hidden, 32);
    assert!(net.description.contains("4 epochs") && net.description.contains("seed 3"));
    // The data file by its name (a path would mean nothing on another machine).
    let name = Path::new(data()).file_name().unwrap().to_str().unwrap();
    assert!(
        net.description.contains(&format!("from {name};")),
        "{}",
        net.description
    );
    let float = Checkpoint::read(Path::new(&format!("{out}.ckpt"))).unwrap();
    assert_eq!(float.epoch, 4);
    let mut spread = 0.0f64;
    for pos in positions(40) {
        let rules = Rules::default();
        let (exact, quantised) = (
            float.net.score(&pos, &rules),
            net.score(&pos, &rules) as f64,
        );
        spread = spread.max(exact.abs());
        // Rounding W1 to 1/255 moves each of up to 16 active rows by half a
        // step: a few cp, more than 4 on some positions.
        assert!(
            (exact - quantised).abs() <= 8.0,
            "{}: float {exact:.1} cp, quantised {quantised} cp",
            pos.fen()
        );
    }
    // Positions of differing scores, or the comparison says little.
    assert!(spread > 20.0, "every score near zero ({spread})");
}

#[test]
fn data_under_two_rule_sets_gives_a_net_that_tells_them_apart() {
    // The same games twice: once under the default rules (the file's own
    // `# rules:` line), once under Repetition=draw, as if a second run.
    let text = std::fs::read_to_string(data()).unwrap();
    let mut both = text.clone();
    both.push_str("# rules: Repetition=draw\n");
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        both.push_str(line);
        both.push('\n');
    }
    let data_file = file("two-rule-sets.txt");
    std::fs::write(&data_file, both).unwrap();
    let out = file("two-rule-sets.nnue");
    let run = run_tool(&[
        "train", "--data", &data_file, "--out", &out, "--hidden", "8", "--epochs", "2", "--batch",
        "256",
    ]);
    run.assert_ok("train on two rule sets");
    assert!(
        run.stderr
            .contains("rule inputs (on for some training position): Repetition=draw"),
        "{}",
        run.stderr
    );
    let net = read_net(&out);
    assert_eq!(net.rules, [RuleInput::RepetitionDraw.code()]);
    assert!(net.description.contains("rule inputs [Repetition=draw]"));
    // The engine reads it, and its integer pass is the documented one under
    // either rule set.
    let engine_net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let mut draw = Rules::default();
    draw.set("Repetition", "draw").unwrap();
    let float = Checkpoint::read(Path::new(&format!("{out}.ckpt"))).unwrap();
    let mut differ = 0;
    for pos in positions(20) {
        for rules in [Rules::default(), draw] {
            assert_eq!(
                engine_net.for_rules(&rules).evaluate_position(&pos),
                net.score(&pos, &rules).clamp(-20_000, 20_000)
            );
            let (exact, quantised) = (
                float.net.score(&pos, &rules),
                net.score(&pos, &rules) as f64,
            );
            assert!(
                (exact - quantised).abs() <= 8.0,
                "{exact} against {quantised}"
            );
        }
        differ += usize::from(net.score(&pos, &Rules::default()) != net.score(&pos, &draw));
    }
    assert!(differ > 0, "the repetition rule changed no evaluation");
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let whole = file("whole.nnue");
    train(&whole, &["--epochs", "3", "--threads", "1"]).assert_ok("3 epochs");
    let first = file("first.nnue");
    let checkpoint = file("first.ckpt");
    train(
        &first,
        &[
            "--epochs",
            "1",
            "--threads",
            "1",
            "--checkpoint",
            &checkpoint,
        ],
    )
    .assert_ok("1 epoch");
    let resumed = file("resumed.nnue");
    let run = train(
        &resumed,
        &["--epochs", "3", "--threads", "1", "--resume", &checkpoint],
    );
    run.assert_ok("2 more epochs");
    assert!(
        run.stderr.contains("resuming after epoch 1"),
        "{}",
        run.stderr
    );
    assert_eq!(validation_losses(&run.stderr).len(), 2);
    assert!(
        std::fs::read(&whole).unwrap() == std::fs::read(&resumed).unwrap(),
        "the resumed net differs from the uninterrupted one"
    );
    // The sums are cut into chunks of a fixed size, so threads do not matter either.
    let two_threads = file("two-threads.nnue");
    train(&two_threads, &["--epochs", "1", "--threads", "2"]).assert_ok("2 threads");
    assert!(std::fs::read(&first).unwrap() == std::fs::read(&two_threads).unwrap());
    // A checkpoint of another seed is refused, not half used.
    let run = train(
        &file("reseeded.nnue"),
        &["--epochs", "3", "--resume", &checkpoint, "--seed", "9"],
    );
    run.assert_failed_cleanly("resume with another seed");
    assert_eq!(
        run.code,
        Some(2),
        "a flag that cannot work is a usage error"
    );
    assert!(run.stderr.contains("--seed 9"), "{}", run.stderr);
}

#[test]
fn bad_input_fails_with_a_clear_message() {
    let bad = file("bad.txt");
    let good = std::fs::read_to_string(data()).unwrap();
    let mut lines: Vec<&str> = good.lines().take(10).collect();
    lines.insert(
        4,
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 ; 1 ; lots",
    );
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let run = run_tool(&["train", "--data", &bad, "--out", &file("x.nnue")]);
    run.assert_failed_cleanly("a bad line");
    assert_eq!(run.code, Some(1), "bad data is an input error");
    assert!(
        run.stderr.contains(&format!("{bad}:5:")) && run.stderr.contains("score 'lots'"),
        "{}",
        run.stderr
    );

    let missing = file("missing.txt");
    let run = run_tool(&["train", "--data", &missing, "--out", &file("x.nnue")]);
    run.assert_failed_cleanly("a missing file");
    assert_eq!(run.code, Some(2), "a named file that cannot be opened");
    assert!(run.stderr.contains(&missing), "{}", run.stderr);

    // Refused before the data is read: the data file here does not even exist.
    for out in [
        scratch()
            .join("no-such-folder/x.nnue")
            .display()
            .to_string(),
        scratch().display().to_string(),
    ] {
        let run = run_tool(&["train", "--data", &missing, "--out", &out]);
        run.assert_failed_cleanly("an unwritable output");
        assert_eq!(run.code, Some(2), "a named file that cannot be created");
        assert!(run.stderr.contains(&out), "{}", run.stderr);
        assert!(!run.stderr.contains(&missing), "{}", run.stderr);
    }

    // A value out of range, and a rule switch (train takes none: each file's
    // `# rules:` lines say the rules of its positions), are usage errors.
    for (flag, value) in [("--lambda", "2"), ("--variant", "xoudouqi")] {
        let run = train(&file("x.nnue"), &[flag, value]);
        run.assert_failed_cleanly(flag);
        assert_eq!(run.code, Some(2), "{flag} {value}");
        assert!(run.stderr.contains(flag), "{}", run.stderr);
    }
}
