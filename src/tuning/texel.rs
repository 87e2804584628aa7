//! The Texel method: fit the evaluation's weights so that `sigmoid(K · eval)`
//! predicts the results of the games the positions came from.
//!
//! The evaluation is linear in its weights, so each position is reduced once to
//! its feature counts (sparse: most are zero) and the mean squared error and
//! its gradient are exact sums over positions, computed in parallel with rayon.
//! `K` is fitted first, to the starting weights, and then held: the weights
//! keep the starting table's scale (centipawns), which the search's margins
//! were set for. The weights then move by Adam, pulled gently towards their
//! starting values (L2) so that features seen rarely stay where they were, and
//! kept within bounds. A tenth of the positions, in blocks of consecutive lines
//! (so mostly whole games), is held out to show the fit generalises; a set too
//! small to split is validated on its training positions, and says so.

use super::data;
pub use super::data::{MIN_HELD_OUT, Split, TuneError};
use super::data::{Unwritable, WeightsFault};
use crate::engine::eval::{ADVANCE_BUCKETS, Weights, feature, feature_counts, feature_name};
use crate::rules::Side;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Positions reduced to their sparse feature counts and results.
#[derive(Clone, Debug)]
pub struct Samples {
    /// Feature index of each nonzero count.
    indices: Vec<u16>,
    /// The nonzero counts, one per entry of `indices`.
    counts: Vec<i16>,
    /// Where each position's counts start in `indices`; one more than positions.
    offsets: Vec<u32>,
    /// Each position's result from the side to move's view (1 win, 0 loss).
    results: Vec<f32>,
}

impl Default for Samples {
    fn default() -> Samples {
        Samples::new()
    }
}

impl data::Entries for Samples {
    fn count(&self) -> usize {
        self.len()
    }

    fn push_from(&mut self, other: &Samples, i: usize) {
        let (indices, counts, result) = other.get(i);
        self.indices.extend_from_slice(indices);
        self.counts.extend_from_slice(counts);
        self.offsets.push(self.indices.len() as u32);
        self.results.push(result as f32);
    }
}

impl Samples {
    /// An empty set, to push positions into.
    pub fn new() -> Samples {
        Samples {
            indices: Vec::new(),
            counts: Vec::new(),
            offsets: vec![0],
            results: Vec::new(),
        }
    }

    /// Adds a position with its feature counts and the side to move's result.
    pub fn push(&mut self, counts: &[i32; feature::COUNT], result: f64) {
        for (i, &c) in counts.iter().enumerate() {
            if c != 0 {
                self.indices.push(i as u16);
                self.counts
                    .push(c.clamp(i16::MIN as i32, i16::MAX as i32) as i16);
            }
        }
        self.offsets.push(self.indices.len() as u32);
        self.results.push(result as f32);
    }

    /// How many positions (samples), not feature counts.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Position `i`'s features and result.
    #[inline]
    fn get(&self, i: usize) -> (&[u16], &[i16], f64) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (
            &self.indices[a..b],
            &self.counts[a..b],
            self.results[i] as f64,
        )
    }

    /// The evaluation of position `i` under `weights`.
    #[inline]
    fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        let (idx, cnt, _) = self.get(i);
        idx.iter()
            .zip(cnt)
            .map(|(&j, &c)| weights[j as usize] * c as f64)
            .sum()
    }

    /// How much each feature occurs: the sum of its counts' sizes.
    pub fn occurrences(&self) -> Vec<f64> {
        let mut out = vec![0.0; feature::COUNT];
        for (&i, &c) in self.indices.iter().zip(&self.counts) {
            out[i as usize] += (c as f64).abs();
        }
        out
    }

    /// Mean squared error of `sigmoid(k · eval)` against the results.
    pub fn error(&self, weights: &[f64], k: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sum: f64 = (0..self.len())
            .into_par_iter()
            .with_min_len(4096)
            .map(|i| {
                let r = self.get(i).2;
                (r - sigmoid(k * self.eval(i, weights))).powi(2)
            })
            .sum();
        sum / self.len() as f64
    }

    /// The gradient of [`Samples::error`] with respect to the weights.
    fn gradient(&self, weights: &[f64], k: f64) -> Vec<f64> {
        let n = self.len().max(1) as f64;
        let mut grad = (0..self.len())
            .into_par_iter()
            .with_min_len(4096)
            .fold(
                || vec![0.0; weights.len()],
                |mut g, i| {
                    let (idx, cnt, r) = self.get(i);
                    let s = sigmoid(k * self.eval(i, weights));
                    let d = 2.0 * (s - r) * s * (1.0 - s) * k;
                    for (&j, &c) in idx.iter().zip(cnt) {
                        g[j as usize] += d * c as f64;
                    }
                    g
                },
            )
            .reduce(
                || vec![0.0; weights.len()],
                |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        grad.iter_mut().for_each(|g| *g /= n);
        grad
    }
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The positions of one or more data files, split for training and validation.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Positions the weights are fitted to.
    pub train: Samples,
    /// Positions held out to measure the fit (the training positions again
    /// when `split` is [`Split::None`]).
    pub validation: Samples,
    /// How they were split.
    pub split: Split,
    /// Self-play games counted by the files' `# done` lines.
    pub games: usize,
    /// The `# done` lines' settings, one per finished run (for the summary).
    pub runs: Vec<String>,
}

impl Dataset {
    /// Every position, counted once.
    pub fn positions(&self) -> usize {
        self.train.len() + self.held_out()
    }

    /// Positions held out of the training.
    pub fn held_out(&self) -> usize {
        match self.split {
            Split::HeldOut { .. } => self.validation.len(),
            Split::None => 0,
        }
    }

    /// How the positions were split, in words (the log's and the header's).
    pub fn held_out_text(&self) -> String {
        match self.split {
            Split::HeldOut { block } => format!(
                "{} held out for validation, in blocks of {block}",
                self.held_out()
            ),
            Split::None => "none held out: validated on the training positions".to_string(),
        }
    }
}

/// Reads data files (the format of [`crate::tuning`]) into sparse samples,
/// a tenth held out for validation.
pub fn load(paths: &[PathBuf]) -> Result<Dataset, TuneError> {
    let (train, validation, runs, split) =
        data::read_split(paths, 0.1, |samples: &mut Samples, labelled, rules| {
            let result = if labelled.position.side_to_move() == Side::Red {
                labelled.result
            } else {
                1.0 - labelled.result
            };
            samples.push(&feature_counts(&labelled.position, rules), result);
            Ok(())
        })?;
    let mut data = Dataset {
        train,
        validation,
        split,
        games: runs.games,
        runs: runs.runs,
    };
    if data.positions() < 20 {
        return Err(TuneError::NotEnoughData(data.positions()));
    }
    if data.split == Split::None {
        // Small sets: validate on the training positions rather than on
        // nothing (the report says so).
        data.validation = data.train.clone();
    }
    Ok(data)
}

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Full passes of gradient descent.
    pub epochs: usize,
    /// Adam's step, centipawns: about how far a weight may move per epoch at first.
    pub learning_rate: f64,
    /// Strength of the pull of each weight towards its starting value.
    pub l2: f64,
    /// Report every this many epochs.
    pub report_every: usize,
    /// The logistic scale per centipawn; `None` fits it to the starting weights.
    pub k: Option<f64>,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            epochs: 2000,
            learning_rate: 2.0,
            l2: 1e-9,
            report_every: 100,
            k: None,
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// The fitted weights, rounded.
    pub weights: Weights,
    /// The logistic scale, per centipawn.
    pub k: f64,
    /// Training error before and after.
    pub train_error: (f64, f64),
    /// Validation error before and after.
    pub validation_error: (f64, f64),
    /// Epochs run: as asked; the fit does not stop early.
    pub epochs: usize,
}

/// The bounds each weight is kept within: material (an animal's average worth,
/// see [`pin_material`]) stays positive, mobility and tempo small and positive,
/// everything else within ±1000 centipawns.
pub fn bounds(i: usize) -> (f64, f64) {
    use feature::*;
    match i {
        _ if i < ADVANCE => (50.0, 4000.0),
        MOBILITY => (0.0, 30.0),
        TEMPO => (0.0, 100.0),
        _ => (-1000.0, 1000.0),
    }
}

/// Re-expresses `weights` without changing any evaluation: every piece stands
/// at exactly one advancement distance, so a constant can move between an
/// animal's material and its whole advancement row. This moves the row's
/// average (weighted by `occurrences`, how often each distance occurs) into the
/// material, which then reads as the animal's average worth over the data.
pub fn pin_material(weights: &mut [f64], occurrences: &[f64]) {
    for rank in 0..8 {
        let row = feature::ADVANCE + rank * ADVANCE_BUCKETS
            ..feature::ADVANCE + (rank + 1) * ADVANCE_BUCKETS;
        let seen: f64 = occurrences[row.clone()].iter().sum();
        if seen == 0.0 {
            continue;
        }
        let mean = row
            .clone()
            .map(|i| weights[i] * occurrences[i])
            .sum::<f64>()
            / seen;
        weights[row].iter_mut().for_each(|w| *w -= mean);
        weights[feature::MATERIAL + rank] += mean;
    }
}

/// The `K` that best fits `weights` to the training positions: a golden-section
/// search over log K (the error is unimodal in K).
pub fn fit_k(samples: &Samples, weights: &[f64]) -> f64 {
    let error = |log_k: f64| samples.error(weights, log_k.exp());
    let (mut a, mut b) = ((1e-5f64).ln(), (1e-1f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (error(c), error(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = error(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = error(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fits the weights to `data` from `start`; `report` hears `(epoch, train
/// error, validation error)` now and then.
pub fn tune(
    data: &Dataset,
    start: &Weights,
    config: &TuneConfig,
    report: &mut dyn FnMut(usize, f64, f64),
) -> TuneReport {
    let start_f: Vec<f64> = start.iter().map(|&w| w as f64).collect();
    let k = config.k.unwrap_or_else(|| fit_k(&data.train, &start_f));
    let before = (
        data.train.error(&start_f, k),
        data.validation.error(&start_f, k),
    );
    report(0, before.0, before.1);
    let occurrences = data.train.occurrences();
    let mut w = start_f.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-12);
    for epoch in 1..=config.epochs {
        let mut grad = data.train.gradient(&w, k);
        for (i, g) in grad.iter_mut().enumerate() {
            *g += 2.0 * config.l2 * (w[i] - start_f[i]);
        }
        // The step shrinks linearly to a tenth so the end of the run settles.
        let progress = epoch as f64 / config.epochs as f64;
        let lr = config.learning_rate * (1.0 - 0.9 * progress);
        let (c1, c2) = (1.0 - power(beta1, epoch), 1.0 - power(beta2, epoch));
        for i in 0..w.len() {
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
            w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        // Pinned before the bounds apply, so that they bound average worths.
        pin_material(&mut w, &occurrences);
        for (i, x) in w.iter_mut().enumerate() {
            let (lo, hi) = bounds(i);
            *x = x.clamp(lo, hi);
        }
        if config.report_every > 0 && epoch % config.report_every == 0 {
            report(epoch, data.train.error(&w, k), data.validation.error(&w, k));
        }
    }
    let mut weights = *start;
    for (out, &x) in weights.iter_mut().zip(&w) {
        *out = x.round() as i32;
    }
    let rounded: Vec<f64> = weights.iter().map(|&x| x as f64).collect();
    TuneReport {
        weights,
        k,
        train_error: (before.0, data.train.error(&rounded, k)),
        validation_error: (before.1, data.validation.error(&rounded, k)),
        epochs: config.epochs,
    }
}

/// `base` to the power `n` (Adam's bias corrections).
fn power(base: f64, n: usize) -> f64 {
    base.powi(n.min(i32::MAX as usize) as i32)
}

/// The comment lines at the head of a tuned `weights.rs`: where the weights
/// come from (the data, its files and runs) and how they were fitted.
pub fn weights_header(
    data: &Dataset,
    files: &[PathBuf],
    config: &TuneConfig,
    report: &TuneReport,
) -> Vec<String> {
    let files: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let mut header = vec![
        "The evaluation's weights, written by `doushou tune` (the recipe is in docs/tuning.md)."
            .to_string(),
        format!(
            "Data: {} self-play games, {} quiet positions ({}), from {}.",
            data.games,
            data.positions(),
            data.held_out_text(),
            files.join(", ")
        ),
    ];
    header.extend(data.runs.iter().map(|r| format!("  run: {r}")));
    header.push(format!(
        "Fit: K = {:.6}/cp, {} epochs, learning rate {}, l2 {}; mean squared error {:.6} -> {:.6}, validation {:.6} -> {:.6}.",
        report.k,
        report.epochs,
        config.learning_rate,
        config.l2,
        report.train_error.0,
        report.train_error.1,
        report.validation_error.0,
        report.validation_error.1
    ));
    header
}

/// The text of `weights.rs` for `weights`, one line per group of features
/// (`material`, `advance.r3`, ...), after the `header` comment lines.
pub fn render_weights(weights: &Weights, header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("// Each line holds one group of `eval::feature`, in index order.\n");
    out.push_str("/// The weights the engine plays with.\n");
    out.push_str("pub const WEIGHTS: Weights = [\n");
    // A group is the name before its last dot (`advance.r3` of `advance.r3.d2`),
    // or the whole name of a single weight.
    let group_of = |i: usize| {
        let name = feature_name(i);
        match name.rsplit_once('.') {
            Some((g, d)) => (g.to_string(), Some(d.to_string())),
            None => (name, None),
        }
    };
    let mut i = 0;
    while i < weights.len() {
        let (group, _) = group_of(i);
        let mut j = i;
        let mut details = Vec::new();
        while j < weights.len() {
            let (g, d) = group_of(j);
            if g != group {
                break;
            }
            details.extend(d);
            j += 1;
        }
        out.push_str(&format!("    // {group}"));
        if !details.is_empty() {
            out.push_str(&format!(": {}", details.join(" ")));
        }
        out.push('\n');
        let values: Vec<String> = weights[i..j].iter().map(|w| w.to_string()).collect();
        out.push_str(&format!("    {},\n", values.join(", ")));
        i = j;
    }
    out.push_str("];\n");
    out
}

/// Reads a weight table in the form [`render_weights`] writes (any Rust
/// `[a, b, ...]` list of integers after comments are dropped), so that a fit can
/// start from a table other than the one built in.
pub fn parse_weights(path: &Path) -> Result<Weights, TuneError> {
    let text = crate::util::fs::read_text(path)?;
    let error = |fault: WeightsFault| TuneError::BadWeights {
        path: path.to_path_buf(),
        fault,
    };
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let list = code
        .split_once('[')
        .and_then(|(_, rest)| rest.rsplit_once(']'))
        .map(|(list, _)| list)
        .ok_or_else(|| error(WeightsFault::NoList))?;
    let values = list
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| {
            v.parse::<i32>()
                .map_err(|_| error(WeightsFault::NotAWeight(v.to_string())))
        })
        .collect::<Result<Vec<i32>, _>>()?;
    Weights::try_from(values.as_slice()).map_err(|_| {
        error(WeightsFault::Count {
            found: values.len(),
            expected: feature::COUNT,
        })
    })
}

/// Whether the weights can be written to `path`, checked before a fit so that
/// a long run does not end in a failure to save it: its directory exists, it
/// is not a directory, and it can be opened for writing (a new file is
/// created and removed again; an existing one is left as it is).
pub fn check_writable(path: &Path) -> Result<(), TuneError> {
    let fail = |why: Unwritable| TuneError::Output {
        path: path.to_path_buf(),
        why,
    };
    if path.is_dir() {
        return Err(fail(Unwritable::IsDirectory));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(fail(Unwritable::NoDirectory(dir.to_path_buf())));
    }
    let probe = if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|_| std::fs::remove_file(path))
    };
    probe.map_err(|e| fail(e.into()))
}

/// Writes `weights.rs` text to `path`.
pub fn write_weights(path: &Path, text: &str) -> Result<(), TuneError> {
    std::fs::write(path, text).map_err(|error| TuneError::Io {
        path: path.to_path_buf(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::WEIGHTS;
    use crate::rules::{Position, Rules};

    #[test]
    fn the_table_renders_as_it_is_written() {
        let text = render_weights(&WEIGHTS, &["header".to_string()]);
        let built = include_str!("../engine/weights.rs");
        let body = |t: &str| {
            t.lines()
                .skip_while(|l| !l.starts_with("// Each line"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&text), body(built));
    }

    #[test]
    fn a_written_table_reads_back() {
        let path = std::env::temp_dir().join(format!("doushou-weights-{}.rs", std::process::id()));
        write_weights(&path, &render_weights(&WEIGHTS, &[])).unwrap();
        assert_eq!(parse_weights(&path).unwrap(), WEIGHTS);
        std::fs::write(&path, "pub const WEIGHTS: Weights = [1, 2, 3];").unwrap();
        assert!(matches!(
            parse_weights(&path),
            Err(TuneError::BadWeights { .. })
        ));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn pinning_material_changes_no_evaluation() {
        let pos: Position = "2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 w 8 34"
            .parse()
            .unwrap();
        let counts = feature_counts(&pos, &Rules::default());
        let score = |w: &[f64]| -> f64 { w.iter().zip(&counts).map(|(w, &c)| w * c as f64).sum() };
        let mut w: Vec<f64> = WEIGHTS.iter().map(|&x| x as f64).collect();
        let before = score(&w);
        let occurrences: Vec<f64> = (0..feature::COUNT).map(|i| (i % 7) as f64).collect();
        pin_material(&mut w, &occurrences);
        assert!((score(&w) - before).abs() < 1e-6);
        let row = feature::ADVANCE..feature::ADVANCE + ADVANCE_BUCKETS;
        let mean: f64 = row.clone().map(|i| w[i] * occurrences[i]).sum();
        assert!(mean.abs() < 1e-6);
    }
}
