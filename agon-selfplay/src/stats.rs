//! The statistics, as plain functions of counts: Wilson intervals, the pentanomial model of
//! paired games, Elo, normal tail probabilities and quantiles. Formulas are in
//! docs/selfplay.md; each function states its own.

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// Wilson score interval for a proportion `p = score / n`:
/// `(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`. Draws count as half a success,
/// so `score` may be fractional. `None` for `n = 0`.
pub fn wilson(score: f64, n: u64, z: f64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = score / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval {
        low: ((centre - half) / denominator).max(0.0),
        high: ((centre + half) / denominator).min(1.0),
    })
}

/// The Elo difference that an expected score `s` means: `-400·log10(1/s - 1)`. `None` at
/// 0 and 1 (infinite).
pub fn elo_from_score(s: f64) -> Option<f64> {
    if s > 0.0 && s < 1.0 {
        Some(-400.0 * (1.0 / s - 1.0).log10())
    } else {
        None
    }
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-d/400))`.
pub fn score_from_elo(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// The complementary error function, to about 1e-13 relative error: `1 - erf(x)` from the
/// Maclaurin series of erf below 2.5, and the continued fraction
/// `erfc(x) = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))` above.
pub fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    let sqrt_pi = std::f64::consts::PI.sqrt();
    if x < 2.5 {
        // erf(x) = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x * x / n;
            sum += term / (2.0 * n + 1.0);
        }
        1.0 - 2.0 / sqrt_pi * sum
    } else {
        let mut fraction = x;
        for n in (1..=80).rev() {
            fraction = x + f64::from(n) / 2.0 / fraction;
        }
        (-x * x).exp() / sqrt_pi / fraction
    }
}

/// The standard normal distribution function `Φ(x) = erfc(-x/√2)/2`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The two-sided p-value of a z statistic: `2·(1 - Φ(|z|))`.
pub fn two_sided_p(z: f64) -> f64 {
    (2.0 * (1.0 - normal_cdf(z.abs()))).clamp(0.0, 1.0)
}

/// The `q`-quantile of sorted data with linear interpolation between order statistics
/// (Hyndman-Fan type 7, the default of R and NumPy): `h = (n-1)q`,
/// `x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋])`. `None` for no data.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// Counts of per-game results from one side's point of view: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Trinomial {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score `(W + D/2) / n`.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Standard error of the mean score, from the per-game variance
    /// `σ² = Σ p_x (x - μ)²` over x in {1, 1/2, 0}: `sqrt(σ²/n)`.
    pub fn std_error(&self) -> Option<f64> {
        let n = self.games() as f64;
        let mu = self.score()?;
        let var = (self.wins as f64 * (1.0 - mu).powi(2)
            + self.draws as f64 * (0.5 - mu).powi(2)
            + self.losses as f64 * mu.powi(2))
            / n;
        Some((var / n).sqrt())
    }
}

/// Pentanomial counts of game pairs: `counts[k]` is the number of pairs in which the side
/// scored `k/2` points over the two games (k = 0..4), as engine testers count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs scoring 0, 1/2, 1, 3/2 and 2 points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair whose two games scored `a` and `b` (each 0, 1/2 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        let k = ((a + b) * 2.0).round() as usize;
        self.counts[k.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game over the pairs: `Σ counts[k]·(k/4) / N`.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            self.counts
                .iter()
                .enumerate()
                .map(|(k, &c)| c as f64 * k as f64 / 4.0)
                .sum::<f64>()
                / n as f64
        })
    }

    /// Standard error of the mean per-game score, from the per-pair variance
    /// `σ² = Σ p_k (k/4 - μ)²`: `sqrt(σ²/N)`. Needs two pairs.
    pub fn std_error(&self) -> Option<f64> {
        let n = self.pairs();
        if n < 2 {
            return None;
        }
        let mu = self.score()?;
        let var = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - mu).powi(2))
            .sum::<f64>()
            / n as f64;
        Some((var / n as f64).sqrt())
    }

    /// The normal-approximation interval `μ ± z·SE`, clamped to [0, 1].
    pub fn interval(&self, z: f64) -> Option<Interval> {
        let mu = self.score()?;
        let se = self.std_error()?;
        Some(Interval {
            low: (mu - z * se).max(0.0),
            high: (mu + z * se).min(1.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_hand_computation() {
        // 60 successes in 100: p = 0.6, z = 1.96 (to 1e-9 of the exact constant).
        // centre = 0.6 + 3.8415/200 = 0.6192073; half = 1.96*sqrt(0.0024 + 0.0000960) ...
        // Worked in docs/selfplay.md: [0.502002, 0.690599].
        let i = wilson(60.0, 100, Z95).unwrap();
        assert!(close(i.low, 0.502_002, 1e-6), "{}", i.low);
        assert!(close(i.high, 0.690_599, 1e-6), "{}", i.high);
        // 0 of 10: [0, 0.277533].
        let i = wilson(0.0, 10, Z95).unwrap();
        assert_eq!(i.low, 0.0);
        assert!(close(i.high, 0.277_533, 1e-6), "{}", i.high);
        assert!(wilson(0.0, 0, Z95).is_none());
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.5).unwrap(), 0.0, 1e-12));
        // 0.75 -> 400*log10(3) = 190.848501...
        assert!(close(
            elo_from_score(0.75).unwrap(),
            190.848_501_887_864_98,
            1e-9
        ));
        assert!(close(
            elo_from_score(0.25).unwrap(),
            -190.848_501_887_864_98,
            1e-9
        ));
        assert!(elo_from_score(1.0).is_none());
        assert!(close(score_from_elo(190.848_501_887_864_98), 0.75, 1e-12));
    }

    #[test]
    fn normal_tails() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-15));
        assert!(close(erfc(1.0), 0.157_299_207_050_285_13, 1e-14));
        assert!(close(erfc(3.0) / 2.209_049_699_858_544e-5, 1.0, 1e-11));
        assert!(close(erfc(6.0) / 2.151_973_671_249_891_3e-17, 1.0, 1e-11));
        assert!(close(two_sided_p(Z95), 0.05, 1e-12));
        assert!(close(two_sided_p(-2.575_829_3), 0.01, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_253_931_457, 1e-13));
    }

    #[test]
    fn quantiles_interpolate() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&x, 0.5), Some(2.5));
        assert_eq!(quantile(&x, 0.25), Some(1.75));
        assert_eq!(quantile(&x, 0.75), Some(3.25));
        assert_eq!(quantile(&[7.0], 0.25), Some(7.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn trinomial_standard_error() {
        // 6 wins, 2 draws, 2 losses: mu = 0.7; var = (6*.09 + 2*.04 + 2*.49)/10 = 0.16.
        let t = Trinomial {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        assert!(close(t.score().unwrap(), 0.7, 1e-12));
        assert!(close(
            t.std_error().unwrap(),
            (0.16f64 / 10.0).sqrt(),
            1e-12
        ));
    }

    #[test]
    fn pentanomial_matches_hand_computation() {
        // Pairs scoring 2, 1.5, 1, 1, 0.5 points: per-game means 1, .75, .5, .5, .25.
        let mut p = Pentanomial::default();
        for (a, b) in [(1.0, 1.0), (1.0, 0.5), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5)] {
            p.add(a, b);
        }
        assert_eq!(p.counts, [0, 1, 2, 1, 1]);
        // mu = 3/5 = 0.6; var = (.16 + .0225 + .01 + .01 + .1225)/5 = 0.065.
        assert!(close(p.score().unwrap(), 0.6, 1e-12));
        let se = (0.065f64 / 5.0).sqrt();
        assert!(close(p.std_error().unwrap(), se, 1e-12));
        let i = p.interval(Z95).unwrap();
        assert!(close(i.low, 0.6 - Z95 * se, 1e-12));
        assert!(close(i.high, 0.6 + Z95 * se, 1e-12));
    }
}
