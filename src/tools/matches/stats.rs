//! Match statistics: Elo from a score with its 95% error bars, the likelihood
//! of superiority, and the sequential probability ratio test (the generalised
//! SPRT over game pairs) that stops a match once the evidence is enough.
//! Scores are from the first engine's side.

use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975).
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one engine against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won, from the first side's view.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost, from the first side's view.
    pub losses: u32,
}

impl Wdl {
    /// Games played: the three counts summed.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Losses, draws and wins: the counts in the order of [`GAME_SCORES`].
    pub fn counts(&self) -> [u32; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Whether the games differ in result, so that a variance can be estimated.
    pub fn has_variance(&self) -> bool {
        outcomes_differ(&self.counts())
    }

    /// The same games from the other engine's side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Mean score per game, 0..1; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Mean and variance of the per-game score (1, ½, 0), the trinomial model.
    fn mean_variance(&self) -> Option<(f64, f64)> {
        (self.games() > 0)
            .then(|| trinomial(self.wins as f64, self.draws as f64, self.losses as f64))
    }

    /// Elo difference that this score means, with the half-width of its 95%
    /// interval. The interval is taken on the score (mean ± 1.96 standard errors
    /// of the trinomial per-game score) and mapped through [`elo_from_score`],
    /// as cutechess does; it is infinite when a bound reaches 0% or 100%.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (mu, var) = self.mean_variance()?;
        let se = (var / self.games() as f64).sqrt();
        let lo = elo_from_score(mu - Z_95 * se);
        let hi = elo_from_score(mu + Z_95 * se);
        Some((elo_from_score(mu), (hi - lo) / 2.0))
    }

    /// Likelihood of superiority: the chance that the first engine is the
    /// stronger, from wins and losses only (draws say nothing about it):
    /// LOS = ½·(1 + erf((W − L) / √(2(W + L)))).
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

/// Mean and variance of the per-game score from (possibly fractional) counts
/// of wins, draws and losses, whose sum must be positive.
fn trinomial(wins: f64, draws: f64, losses: f64) -> (f64, f64) {
    let n = wins + draws + losses;
    let mu = (wins + 0.5 * draws) / n;
    let var = (wins * (1.0 - mu).powi(2) + draws * (0.5 - mu).powi(2) + losses * mu.powi(2)) / n;
    (mu, var)
}

/// Logistic Elo difference of a mean score `s`: −400·log₁₀(1/s − 1).
/// 0 and 1 give −∞ and +∞.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// Expected score of an Elo difference: 1 / (1 + 10^(−elo/400)).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun 7.1.26 (error below 1.5·10⁻⁷,
/// plenty for a percentage printed to one decimal).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0 (usually 0: the change is no better).
    pub elo0: f64,
    /// The Elo difference of H1 (the gain worth accepting).
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Not enough evidence either way: play on.
    Continue,
    /// The LLR reached the lower bound: H0 accepted (no gain of `elo1`).
    H0,
    /// The LLR reached the upper bound: H1 accepted.
    H1,
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtState::Continue => "continue",
            SprtState::H0 => "H0 accepted",
            SprtState::H1 => "H1 accepted",
        })
    }
}

/// Why an `--sprt` argument was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtParseError {
    /// A word without `=`.
    #[error("--sprt: '{0}' is not key=value")]
    NotKeyValue(String),
    /// A value that is not a finite number.
    #[error("--sprt: '{value}' is not a number in '{word}'")]
    NotNumber {
        /// The value.
        value: String,
        /// The whole word.
        word: String,
    },
    /// A key the test does not have.
    #[error("--sprt: unknown key '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// `elo0` or `elo1` missing.
    #[error("--sprt: elo0 and elo1 are required")]
    MissingElo,
    /// The two hypotheses in the wrong order (or equal).
    #[error("--sprt: elo0 must be below elo1")]
    EloOrder,
    /// An error rate outside (0, 0.5).
    #[error("--sprt: alpha and beta must be between 0 and 0.5")]
    ErrorRate,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; alpha and beta
    /// default to 0.05; elo0 and elo1 are required).
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Sprt, SprtParseError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for w in words {
            let w = w.as_ref();
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| SprtParseError::NotKeyValue(w.to_string()))?;
            let v: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| SprtParseError::NotNumber {
                    value: v.to_string(),
                    word: w.to_string(),
                })?;
            match k.trim() {
                "elo0" => elo0 = Some(v),
                "elo1" => elo1 = Some(v),
                "alpha" => alpha = v,
                "beta" => beta = v,
                other => {
                    return Err(SprtParseError::UnknownKey(other.to_string()));
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtParseError::MissingElo);
        };
        if elo0 >= elo1 {
            return Err(SprtParseError::EloOrder);
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err(SprtParseError::ErrorRate);
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The stopping bounds on the LLR (Wald): (ln(β/(1−α)), ln((1−β)/α)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these games, each
    /// game a loss, draw or win (the trinomial model): the generalised SPRT
    /// of [`gsprt_llr`].
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        self.gsprt(&wdl.counts(), &GAME_SCORES)
    }

    /// The log-likelihood ratio of H1 against H0 after these game pairs (the
    /// pentanomial model, as fastchess and fishtest use for openings played
    /// twice with colours swapped: the two games of an opening are not
    /// independent, a pair is).
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        self.gsprt(&pairs.counts, &PAIR_SCORES)
    }

    fn gsprt(&self, counts: &[u32], scores: &[f64]) -> f64 {
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        gsprt_llr(counts, scores, s0, s1)
    }

    /// Whether to stop, and with which hypothesis, at this LLR. No verdict
    /// is given while the results allow no variance to be estimated (every
    /// game or pair alike): a run of wins alone says nothing of how often
    /// the other results come.
    pub fn verdict(&self, llr: f64, has_variance: bool) -> SprtState {
        let (lower, upper) = self.bounds();
        if !has_variance {
            SprtState::Continue
        } else if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

/// The score of one game for each outcome, in the order of the trinomial
/// counts: a loss, a draw, a win.
pub const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The mean score of a pair of games for each pentanomial outcome, in the
/// order of [`Pentanomial::counts`]: 0, ½, 1, 1½ or 2 points of 2.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Results of game pairs (one opening with colours swapped), by the first
/// engine's points in the pair: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs that scored 0, ½, 1, 1½ and 2 points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts a finished pair by the first engine's points in it (0 to 2, in
    /// halves).
    pub fn add(&mut self, points: f64) {
        let slot = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[slot] += 1;
    }

    /// Finished pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Whether the pairs differ in score, so that a variance can be estimated.
    pub fn has_variance(&self) -> bool {
        outcomes_differ(&self.counts)
    }
}

/// Whether at least two kinds of outcome were seen: with one alone no
/// variance can be estimated.
fn outcomes_differ(counts: &[u32]) -> bool {
    counts.iter().filter(|&&c| c > 0).count() >= 2
}

/// The generalised SPRT's log-likelihood ratio (the exact form fishtest's
/// `LLR_alt` computes, not the normal approximation): with p̂ the observed
/// frequencies of the outcomes (scored `scores`), and p⁽⁰⁾, p⁽¹⁾ the
/// distributions nearest to p̂ whose mean score is s₀ and s₁ (the maximum
/// likelihood under each hypothesis), LLR = N·Σ p̂ᵢ·ln(p⁽¹⁾ᵢ / p⁽⁰⁾ᵢ).
/// An outcome never seen counts 10⁻³ times (fishtest's regularisation), so
/// that its likelihood is not zero; with so few games the LLR stays small,
/// about 0.03 after two wins at elo0=0, elo1=5. Zero before any game.
pub fn gsprt_llr(counts: &[u32], scores: &[f64], s0: f64, s1: f64) -> f64 {
    let n: u32 = counts.iter().sum();
    if n == 0 {
        return 0.0;
    }
    let seen: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = seen.iter().sum();
    let freq: Vec<f64> = seen.iter().map(|c| c / total).collect();
    let h0 = most_likely_with_mean(&freq, scores, s0);
    let h1 = most_likely_with_mean(&freq, scores, s1);
    let per_outcome: f64 = (0..freq.len())
        .map(|i| freq[i] * (h1[i] / h0[i]).ln())
        .sum();
    n as f64 * per_outcome
}

/// The distribution q over the outcomes with mean score `mean` that
/// maximises Σ pᵢ·ln qᵢ (every pᵢ > 0, `mean` strictly between the lowest and
/// highest score). By Lagrange, qᵢ = pᵢ / (1 + λ·(xᵢ − mean)), where λ makes
/// Σ pᵢ·(xᵢ − mean) / (1 + λ·(xᵢ − mean)) zero; that sum falls as λ grows, so
/// bisection over the λ that keep every qᵢ positive finds it.
fn most_likely_with_mean(p: &[f64], scores: &[f64], mean: f64) -> Vec<f64> {
    let lowest = scores.iter().cloned().fold(f64::INFINITY, f64::min);
    let highest = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let gap = |lambda: f64| -> f64 {
        p.iter()
            .zip(scores)
            .map(|(pi, x)| pi * (x - mean) / (1.0 + lambda * (x - mean)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (highest - mean), 1.0 / (mean - lowest));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    p.iter()
        .zip(scores)
        .map(|(pi, x)| pi / (1.0 + lambda * (x - mean)))
        .collect()
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.001);
        assert!((elo_from_score(0.25) + 190.848).abs() < 0.001);
        assert!((score_from_elo(190.848) - 0.75).abs() < 1e-5);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        let (elo, err) = wdl(30, 40, 30).elo().unwrap();
        assert_eq!(elo, 0.0);
        // σ² = 0.15 per game, se = √(0.15/100) ≈ 0.03873, ±1.96·se on the score.
        let expected =
            (elo_from_score(0.5 + Z_95 * 0.0387298) - elo_from_score(0.5 - Z_95 * 0.0387298)) / 2.0;
        assert!((err - expected).abs() < 0.01, "{err} vs {expected}");
        assert!((err - 53.0).abs() < 1.0, "{err}");
        let (elo, _) = wdl(75, 0, 25).elo().unwrap();
        assert!((elo - 190.848).abs() < 0.001);
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn los_of_known_results() {
        assert!((wdl(10, 5, 10).los().unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(wdl(0, 7, 0).los(), None);
        // W − L = 10 over 100 decisive games: erf(10/√200) = erf(0.7071) ≈ 0.6827.
        let los = wdl(55, 0, 45).los().unwrap();
        assert!((los - 0.841_345).abs() < 1e-4, "{los}");
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 1e-6);
    }

    /// Values computed by hand (a separate bisection of the Lagrange
    /// condition, in Python) at elo0=0, elo1=5.
    #[test]
    fn sprt_llr_matches_values_computed_by_hand() {
        let sprt = Sprt::parse(&["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]).unwrap();
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944_439).abs() < 1e-5 && (hi - 2.944_439).abs() < 1e-5);
        for ((w, d, l), by_hand) in [
            ((1, 0, 0), 0.014_258_853_7),
            ((2, 0, 0), 0.028_546_447_3),
            ((10, 2, 8), 0.029_681_804_1),
            ((600, 200, 400), 3.305_697_266_8),
            ((40, 20, 40), -0.012_943_556_7),
            ((3300, 3500, 3200), 0.620_969_569_2),
        ] {
            let llr = sprt.llr(&wdl(w, d, l));
            assert!(
                (llr - by_hand).abs() < 1e-8,
                "{w}-{d}-{l}: {llr} vs {by_hand}"
            );
        }
        for (counts, by_hand) in [
            ([0, 0, 1, 0, 1], 0.028_516_776_3),
            ([10, 30, 100, 40, 20], 0.827_331_228_5),
            ([1, 0, 0, 0, 0], -0.014_465_916_0),
        ] {
            let llr = sprt.llr_pairs(&Pentanomial { counts });
            assert!(
                (llr - by_hand).abs() < 1e-8,
                "{counts:?}: {llr} vs {by_hand}"
            );
        }
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
    }

    #[test]
    fn sprt_gives_no_verdict_without_variance_and_stops_with_evidence() {
        let sprt = Sprt::parse(&["elo0=0", "elo1=5"]).unwrap();
        let verdict = |r: Wdl| sprt.verdict(sprt.llr(&r), r.has_variance());
        // One kind of result only: however many, no variance, no verdict.
        assert_eq!(verdict(wdl(400, 0, 0)), SprtState::Continue);
        assert_eq!(verdict(wdl(0, 0, 400)), SprtState::Continue);
        assert_eq!(verdict(wdl(2, 0, 0)), SprtState::Continue);
        assert_eq!(verdict(wdl(600, 200, 400)), SprtState::H1);
        assert_eq!(verdict(wdl(400, 200, 600)), SprtState::H0);
        assert_eq!(verdict(wdl(3, 2, 3)), SprtState::Continue);
        // A score below the midpoint of s₀ and s₁ is evidence for H0.
        assert!(sprt.llr(&wdl(0, 10, 0)) < 0.0);
        let mut pairs = Pentanomial::default();
        pairs.add(2.0);
        pairs.add(2.0);
        assert!(!pairs.has_variance());
        pairs.add(1.5);
        assert_eq!(pairs.counts, [0, 0, 0, 1, 2]);
        assert!(pairs.has_variance() && pairs.pairs() == 3);
    }

    /// On many games the exact GSPRT nears its normal approximation,
    /// N·(s₁ − s₀)·(2x̄ − s₀ − s₁) / (2σ²).
    #[test]
    fn sprt_llr_nears_the_normal_approximation_on_many_games() {
        let sprt = Sprt::parse(&["elo0=0", "elo1=5"]).unwrap();
        let (w, d, l): (f64, f64, f64) = (3300.0, 3500.0, 3200.0);
        let n = w + d + l;
        let mean = (w + 0.5 * d) / n;
        let var = (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / n;
        let (s0, s1) = (0.5, score_from_elo(5.0));
        let normal = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = sprt.llr(&wdl(3300, 3500, 3200));
        assert!((exact - normal).abs() < 0.01, "{exact} vs {normal}");
    }

    #[test]
    fn the_most_likely_distribution_has_the_asked_mean_and_sums_to_one() {
        let p = [0.2, 0.5, 0.3];
        for mean in [0.3, 0.5, 0.55, 0.9] {
            let q = most_likely_with_mean(&p, &GAME_SCORES, mean);
            let sum: f64 = q.iter().sum();
            let m: f64 = q.iter().zip(GAME_SCORES).map(|(q, x)| q * x).sum();
            assert!((sum - 1.0).abs() < 1e-9 && (m - mean).abs() < 1e-9, "{q:?}");
        }
    }

    #[test]
    fn sprt_arguments_are_checked() {
        assert!(Sprt::parse(&["elo0=0"]).is_err());
        assert!(Sprt::parse(&["elo0=5", "elo1=0"]).is_err());
        assert!(Sprt::parse(&["elo0=0", "elo1=5", "alpha=2"]).is_err());
        assert!(Sprt::parse(&["elo0=0", "elo1=x"]).is_err());
        assert!(Sprt::parse(&["elo0=0", "elo1=5", "gamma=1"]).is_err());
        assert!(Sprt::parse(&["elo0", "elo1=5"]).is_err());
        let s = Sprt::parse(&["elo1=5", "elo0=-1"]).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 5.0, 0.05, 0.05));
    }
}
