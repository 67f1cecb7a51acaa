//! The statistics, as plain functions of counts and compact per-pair data: Wilson
//! intervals, Elo, the pentanomial model of paired games and its exact and sequential
//! tests, contrasts, equivalence, power, and the bootstrap. Formulas are in
//! docs/selfplay.md; each function states its own.

pub mod bootstrap;
pub mod contrast;
pub mod dist;
pub mod pairs;
pub mod power;
pub mod sprt;

pub use dist::{normal_cdf, normal_quantile, two_sided_p, Z95};
pub use pairs::Pentanomial;
use serde::{Deserialize, Serialize};

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

/// The Elo difference that an expected score `s` means: `-400·log10(1/s - 1)` (an even
/// score gives 0, never -0). `None` at 0 and 1 (infinite).
pub fn elo_from_score(s: f64) -> Option<f64> {
    if s > 0.0 && s < 1.0 {
        Some(-400.0 * (1.0 / s - 1.0).log10() + 0.0)
    } else {
        None
    }
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-d/400))`.
pub fn score_from_elo(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// The `q`-quantile of sorted data with linear interpolation between order statistics
/// (Hyndman-Fan type 7, the default of R and NumPy): `h = (n-1)q`,
/// `x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋])`. `None` for no data.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    quantile_of(sorted.len(), q, |i| sorted[i])
}

/// [`quantile`] of `n` sorted values given by `value(i)` (for data not stored as `f64`).
pub fn quantile_of(n: usize, q: f64, value: impl Fn(usize) -> f64) -> Option<f64> {
    let last = n.checked_sub(1)?;
    let h = last as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(last);
    Some(value(lo) + (h - lo as f64) * (value(hi) - value(lo)))
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
        assert!(elo_from_score(0.5).unwrap().is_sign_positive(), "no -0");
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
}
