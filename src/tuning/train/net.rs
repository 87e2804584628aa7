//! The float network the trainer fits ([`FloatNet`]; the engine's quantised
//! one is [`crate::engine::nnue::Network`]), its gradient on a chunk of positions,
//! and Adam.
//!
//! All parameters live in one flat vector, `[W1 | b1 | W2 | b2]` (see
//! [`FloatNet::params`]), so that the gradient, Adam's moments and the
//! checkpoint share one layout. `W1` is input-major, as in the net file.

use super::positions::Positions;
use crate::engine::nnue::features::{INPUTS, RULE_INPUTS, RuleInput, active_features};
use crate::rules::{Position, Rules};
use crate::util::rng::SplitMix64;

/// The logistic scale, centipawns: a score `s` predicts the win probability
/// `sigmoid(s / K)`. Fitted to this engine: on the self-play data the search
/// scores predict the games' results best (least squared error) at about
/// 1000, and the Texel fit of the hand-written evaluation found the same
/// (0.001027/cp). Matching it keeps the net's scores on the scale the
/// search's margins were set for.
pub const K: f64 = 1000.0;

/// The float network's own `SCALE`: its output `out` is the score over `K`,
/// so that the predicted win probability is simply `sigmoid(out)`. The writer
/// re-expresses the output layer for the integer `SCALE` of the file.
pub const TRAIN_SCALE: f64 = K;

/// A one-hidden-layer network in floats: `acc = b1 + Σ W1[active]` per
/// perspective, `out = b2 + W2 · [clamp(acc_stm, 0, 1), clamp(acc_other, 0, 1)]`,
/// score = `TRAIN_SCALE × out` centipawns for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden width H: each perspective's accumulator holds H values.
    pub hidden: usize,
    /// `[W1 (TRAIN_INPUTS × H) | b1 (H) | W2 (2H) | b2 (1)]`.
    pub params: Vec<f32>,
}

/// Rows of the float net's `W1`: the board inputs, then every rule input
/// (input `INPUTS + code`); the writer keeps the rule rows the data used.
pub const TRAIN_INPUTS: usize = INPUTS + RULE_INPUTS;

/// How many parameters a network of hidden width `hidden` has.
pub fn parameter_count(hidden: usize) -> usize {
    TRAIN_INPUTS * hidden + hidden + 2 * hidden + 1
}

impl FloatNet {
    /// A fresh network: every hidden unit starts in CReLU's linear range
    /// (`b1` = 0.5, small `W1`) so that all of them learn from the first step,
    /// and a small `W2` so that the first scores are near zero.
    pub fn random(hidden: usize, seed: u64) -> FloatNet {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * limit
        };
        let mut params = Vec::with_capacity(parameter_count(hidden));
        params.extend((0..INPUTS * hidden).map(|_| uniform(0.1)));
        // Rule inputs start at zero: a rule the data never shows then leaves
        // the net as it is under the default rules.
        params.extend(std::iter::repeat_n(0.0, RULE_INPUTS * hidden));
        params.extend(std::iter::repeat_n(0.5, hidden));
        params.extend((0..2 * hidden).map(|_| uniform(0.01)));
        params.push(0.0);
        FloatNet { hidden, params }
    }

    /// `W1` of the board inputs, input-major: input `i`'s row is
    /// `w1()[i·H..(i+1)·H]`, its H weights.
    pub fn w1(&self) -> &[f32] {
        &self.params[..INPUTS * self.hidden]
    }

    /// The row of rule input `input` (H values).
    pub fn rule_row(&self, input: RuleInput) -> &[f32] {
        let at = (INPUTS + input.code() as usize) * self.hidden;
        &self.params[at..at + self.hidden]
    }

    /// `b1`: the H biases every accumulator starts from.
    pub fn b1(&self) -> &[f32] {
        let at = TRAIN_INPUTS * self.hidden;
        &self.params[at..at + self.hidden]
    }

    /// `W2`: the side to move's H weights, then the other side's.
    pub fn w2(&self) -> &[f32] {
        let at = (TRAIN_INPUTS + 1) * self.hidden;
        &self.params[at..at + 2 * self.hidden]
    }

    /// `b2`: the output's bias.
    pub fn b2(&self) -> f32 {
        self.params[self.params.len() - 1]
    }

    /// One perspective's accumulator: `b1 + Σ W1[active]` (rule inputs
    /// included: their rows follow the board inputs').
    fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        let w1 = &self.params[..TRAIN_INPUTS * h];
        acc.copy_from_slice(self.b1());
        for &input in active {
            let row = &w1[input as usize * h..(input as usize + 1) * h];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }

    /// The output `out` (score / `TRAIN_SCALE`) for the two perspectives'
    /// active inputs, leaving both accumulators (side to move first) in `acc`.
    fn forward(&self, stm: &[u16], other: &[u16], acc: &mut [f32]) -> f32 {
        let (acc_stm, acc_other) = acc.split_at_mut(self.hidden);
        self.accumulate(stm, acc_stm);
        self.accumulate(other, acc_other);
        let dot: f32 = acc
            .iter()
            .zip(self.w2())
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum();
        self.b2() + dot
    }

    /// The score of `pos` under `rules` in centipawns, for the side to move.
    pub fn score(&self, pos: &Position, rules: &Rules) -> f64 {
        let stm = pos.side_to_move();
        let view = |side| -> Vec<u16> {
            active_features(pos, side)
                .map(|i| i as u16)
                .chain(RuleInput::active(rules).map(|r| (INPUTS as u32 + r.code()) as u16))
                .collect()
        };
        let mut acc = vec![0.0; 2 * self.hidden];
        TRAIN_SCALE * self.forward(&view(stm), &view(stm.opponent()), &mut acc) as f64
    }
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a position: `lambda` of the game's result and the
/// rest of the search score's win probability, both for the side to move.
#[inline]
pub fn target(result: f32, score: f32, lambda: f32) -> f32 {
    lambda * result + (1.0 - lambda) * sigmoid(score as f64 / K) as f32
}

/// The summed squared error `(sigmoid(out) - target)²` of `net` over the
/// positions `range` (indices) of `positions`.
pub fn loss_sum(
    net: &FloatNet,
    positions: &Positions,
    range: std::ops::Range<usize>,
    lambda: f32,
) -> f64 {
    let mut acc = vec![0.0; 2 * net.hidden];
    range
        .map(|i| {
            let (stm, other, result, score) = positions.get(i);
            let p = sigmoid(net.forward(stm, other, &mut acc) as f64);
            (p - target(result, score, lambda) as f64).powi(2)
        })
        .sum()
}

/// A gradient in the parameters' layout. Only the `W1` rows of inputs that
/// were active are ever written, and only those are summed and cleared
/// (`rows` lists them), so a step costs what the batch touched.
#[derive(Clone, Debug)]
pub struct Gradient {
    /// Same layout as [`FloatNet::params`].
    values: Vec<f32>,
    /// Which `W1` rows hold something.
    touched: Vec<bool>,
    /// The touched rows, in the order first touched.
    rows: Vec<u16>,
    /// Summed squared error of the positions that made it.
    pub loss: f64,
}

impl Gradient {
    /// A zero gradient for width `hidden`.
    pub fn new(hidden: usize) -> Gradient {
        Gradient {
            values: vec![0.0; parameter_count(hidden)],
            touched: vec![false; TRAIN_INPUTS],
            rows: Vec::new(),
            loss: 0.0,
        }
    }

    fn touch(&mut self, input: u16) {
        if !self.touched[input as usize] {
            self.touched[input as usize] = true;
            self.rows.push(input);
        }
    }

    /// Adds the gradient of the mean squared error over the batch (of
    /// `batch_size` positions) due to `indices` of `positions`.
    pub fn accumulate(
        &mut self,
        net: &FloatNet,
        positions: &Positions,
        indices: &[u32],
        batch_size: usize,
        lambda: f32,
    ) {
        let h = net.hidden;
        let mut acc = vec![0.0; 2 * h];
        let mut grad_acc = vec![0.0f32; 2 * h];
        let w2 = net.w2().to_vec();
        for &i in indices {
            let (stm, other, result, score) = positions.get(i as usize);
            let out = net.forward(stm, other, &mut acc);
            let p = sigmoid(out as f64);
            let error = p - target(result, score, lambda) as f64;
            self.loss += error * error;
            // d(mean (p - t)²)/d out, with dp/d out = p (1 - p).
            let g = (2.0 * error * p * (1.0 - p) / batch_size as f64) as f32;
            let (w1_grad, rest) = self.values.split_at_mut(TRAIN_INPUTS * h);
            let (b1_grad, rest) = rest.split_at_mut(h);
            let (w2_grad, b2_grad) = rest.split_at_mut(2 * h);
            b2_grad[0] += g;
            for j in 0..2 * h {
                let a = acc[j];
                w2_grad[j] += g * a.clamp(0.0, 1.0);
                // CReLU passes the gradient only inside its linear range.
                grad_acc[j] = if a > 0.0 && a < 1.0 { g * w2[j] } else { 0.0 };
            }
            let (grad_stm, grad_other) = grad_acc.split_at(h);
            for ((b, s), o) in b1_grad.iter_mut().zip(grad_stm).zip(grad_other) {
                *b += s + o;
            }
            for (active, grad) in [(stm, grad_stm), (other, grad_other)] {
                for &input in active {
                    let row = &mut w1_grad[input as usize * h..(input as usize + 1) * h];
                    row.iter_mut().zip(grad).for_each(|(r, g)| *r += g);
                }
            }
            for &input in stm.iter().chain(other) {
                self.touch(input);
            }
        }
    }

    /// Adds `other` into `self` and clears `other`.
    pub fn absorb(&mut self, other: &mut Gradient, hidden: usize) {
        for &row in &other.rows {
            let range = row as usize * hidden..(row as usize + 1) * hidden;
            let (mine, theirs) = (&mut self.values[range.clone()], &mut other.values[range]);
            mine.iter_mut().zip(theirs.iter_mut()).for_each(|(a, b)| {
                *a += *b;
                *b = 0.0;
            });
            other.touched[row as usize] = false;
            self.touch(row);
        }
        other.rows.clear();
        let dense = TRAIN_INPUTS * hidden..self.values.len();
        let (mine, theirs) = (
            &mut self.values[dense.clone()],
            &mut other.values[dense.clone()],
        );
        mine.iter_mut().zip(theirs.iter_mut()).for_each(|(a, b)| {
            *a += *b;
            *b = 0.0;
        });
        self.loss += other.loss;
        other.loss = 0.0;
    }
}

/// Adam's moments and step count, in the parameters' layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments: each parameter's running mean gradient.
    pub m: Vec<f32>,
    /// Second moments: each parameter's running mean squared gradient.
    pub v: Vec<f32>,
    /// Steps taken, for the moments' bias correction.
    pub step: u64,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

impl Adam {
    /// Fresh moments for `parameters` parameters.
    pub fn new(parameters: usize) -> Adam {
        Adam {
            m: vec![0.0; parameters],
            v: vec![0.0; parameters],
            step: 0,
        }
    }

    /// One step of `net` down `gradient` (which is cleared). `W1` moves only
    /// in the rows the gradient touched, and their moments decay only then
    /// ("lazy" Adam, as for sparse embeddings): an input absent from a batch
    /// says nothing about its weights.
    pub fn step(&mut self, net: &mut FloatNet, gradient: &mut Gradient, learning_rate: f64) {
        self.step += 1;
        let t = self.step.min(i32::MAX as u64) as i32;
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        // Folded into one step size, as in the Adam paper's efficient form.
        let alpha = (learning_rate * c2.sqrt() / c1) as f32;
        let (beta1, beta2, eps) = (BETA1 as f32, BETA2 as f32, (EPSILON * c2.sqrt()) as f32);
        let h = net.hidden;
        let dense = TRAIN_INPUTS * h..net.params.len();
        let mut update = |range: std::ops::Range<usize>| {
            for i in range {
                let g = gradient.values[i];
                gradient.values[i] = 0.0;
                self.m[i] = beta1 * self.m[i] + (1.0 - beta1) * g;
                self.v[i] = beta2 * self.v[i] + (1.0 - beta2) * g * g;
                net.params[i] -= alpha * self.m[i] / (self.v[i].sqrt() + eps);
            }
        };
        let rows = std::mem::take(&mut gradient.rows);
        for &row in &rows {
            update(row as usize * h..(row as usize + 1) * h);
        }
        update(dense);
        for &row in &rows {
            gradient.touched[row as usize] = false;
        }
        gradient.rows = rows;
        gradient.rows.clear();
        gradient.loss = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Side;

    fn sample() -> Positions {
        let mut positions = Positions::default();
        for (fen, result, score) in [
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", 0.5, 10),
            ("2d3e/l4c1/rTp1w2/7/E6/5R1/1W3t1/3D2L/C6 b 8 34", 1.0, 250),
        ] {
            positions.push(&fen.parse().unwrap(), &Rules::default(), result, score);
        }
        positions
    }

    /// The loss of `net` on `positions` as a mean.
    fn mean_loss(net: &FloatNet, positions: &Positions) -> f64 {
        loss_sum(net, positions, 0..positions.len(), 0.5) / positions.len() as f64
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let positions = sample();
        let mut net = FloatNet::random(8, 3);
        let mut gradient = Gradient::new(8);
        gradient.accumulate(&net, &positions, &[0, 1], 2, 0.5);
        let (stm, _, _, _) = positions.get(1);
        // A W1 weight of an active input, a b1, a W2 and b2.
        let checked = [
            stm[0] as usize * 8 + 3,
            TRAIN_INPUTS * 8 + 5,
            TRAIN_INPUTS * 8 + 8 + 11,
            parameter_count(8) - 1,
        ];
        for i in checked {
            let h = 1e-2;
            let keep = net.params[i];
            net.params[i] = keep + h;
            let up = mean_loss(&net, &positions);
            net.params[i] = keep - h;
            let down = mean_loss(&net, &positions);
            net.params[i] = keep;
            let numeric = (up - down) / (2.0 * h as f64);
            let analytic = gradient.values[i] as f64;
            assert!(
                (numeric - analytic).abs() < 1e-4 + 0.02 * numeric.abs(),
                "parameter {i}: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    #[test]
    fn adam_lowers_the_loss_and_clears_the_gradient() {
        let positions = sample();
        let mut net = FloatNet::random(8, 5);
        let mut adam = Adam::new(net.params.len());
        let before = mean_loss(&net, &positions);
        let mut gradient = Gradient::new(8);
        for _ in 0..50 {
            gradient.accumulate(&net, &positions, &[0, 1], 2, 0.5);
            adam.step(&mut net, &mut gradient, 0.01);
        }
        assert!(mean_loss(&net, &positions) < before);
        assert!(gradient.values.iter().all(|&g| g == 0.0));
        assert!(gradient.rows.is_empty() && !gradient.touched.contains(&true));
    }

    #[test]
    fn the_score_is_from_the_side_to_move() {
        // The start position seen from Blue is Red's view of it: the same
        // inputs, so the same score, whoever is to move.
        let net = FloatNet::random(16, 9);
        let red: Position = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"
            .parse()
            .unwrap();
        let blue: Position = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
            .parse()
            .unwrap();
        assert_eq!(red.side_to_move(), Side::Red);
        // Equal but for the order of the float sums (inputs come in square order).
        let rules = Rules::default();
        assert!((net.score(&red, &rules) - net.score(&blue, &rules)).abs() < 1e-3);
    }
}
