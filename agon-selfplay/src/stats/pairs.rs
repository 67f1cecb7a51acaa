//! Colour-swapped pairs of games, the unit of observation of every first-move statistic.
//!
//! A pair's value is one side's mean score over its two games: 0, 1/4, 1/2, 3/4 or 1.
//! [`Pentanomial`] counts pairs by value (as engine testers do) and derives from the
//! counts alone:
//! - the exact sign-flip test of "no advantage" ([`Pentanomial::sign_flip_p`]), valid at
//!   every sample size;
//! - a 95% interval of the mean that is never of zero width ([`Pentanomial::interval`]);
//! - the two one-sided tests of equivalence ([`Pentanomial::tost`]);
//! - normalized Elo as fishtest defines it ([`Pentanomial::normalized_elo`]);
//! - the smallest advantage the sample could detect ([`Pentanomial::detectable_effect`]).

use super::dist::{binomial_half_pmf, normal_quantile, t_quantile, t_upper_tail};
use super::Interval;
use serde::{Deserialize, Serialize};

/// `800/ln 10`: normalized Elo per unit of t-value per game (fishtest's constant; chosen
/// so that normalized Elo equals Elo for small differences between draw-free players).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Pentanomial counts of game pairs: `counts[k]` is the number of pairs in which the side
/// scored `k/2` points over the two games (k = 0..4), as engine testers count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs scoring 0, 1/2, 1, 3/2 and 2 points.
    pub counts: [u64; 5],
}

/// How an interval of the mean pair score was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntervalMethod {
    /// Student's t interval of the pair means.
    T,
    /// Every pair has the same value, so the sample variance is 0: the exact bound from
    /// the share of pairs with that value (see [`Pentanomial::interval`]).
    ExactBound,
}

/// The two one-sided tests (TOST) of "the mean lies within `1/2 ± margin`".
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tost {
    /// The equivalence margin.
    pub margin: f64,
    /// `max(p_lower, p_upper)`: the p-value of the equivalence claim.
    pub p_value: f64,
    /// Whether `p < alpha`: equivalence shown.
    pub equivalent: bool,
}

impl IntervalMethod {
    /// `t` or `exact-bound`.
    pub fn name(self) -> &'static str {
        match self {
            IntervalMethod::T => "t",
            IntervalMethod::ExactBound => "exact-bound",
        }
    }
}

impl Pentanomial {
    /// Adds a pair whose two games scored `a` and `b` (each 0, 1/2 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        let k = ((a + b) * 2.0).round() as usize;
        self.counts[k.min(4)] += 1;
    }

    /// Adds a pair by its points doubled (0..=4).
    pub fn add_half_points(&mut self, k: u8) {
        self.counts[usize::from(k.min(4))] += 1;
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

    /// `Σ counts[k]·(k/4 - μ)²`: the sum of squared deviations of the pair means.
    fn squared_deviations(&self) -> Option<f64> {
        let mu = self.score()?;
        Some(
            self.counts
                .iter()
                .enumerate()
                .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - mu).powi(2))
                .sum(),
        )
    }

    /// The per-pair variance as a distribution, `σ² = Σ p_k (k/4 - μ)²` (divisor N).
    pub fn variance(&self) -> Option<f64> {
        Some(self.squared_deviations()? / self.pairs() as f64)
    }

    /// The sample variance of the pair means (divisor `N - 1`). Needs two pairs.
    pub fn sample_variance(&self) -> Option<f64> {
        let n = self.pairs();
        (n >= 2).then(|| self.squared_deviations().unwrap_or(0.0) / (n - 1) as f64)
    }

    /// Standard error of the mean, `s/√N` with the sample variance. Needs two pairs.
    pub fn std_error(&self) -> Option<f64> {
        Some((self.sample_variance()? / self.pairs() as f64).sqrt())
    }

    /// The value every pair has, when they all have the same.
    fn common_value(&self) -> Option<f64> {
        let mut values = self.counts.iter().enumerate().filter(|(_, &c)| c > 0);
        let (k, _) = values.next()?;
        values.next().is_none().then_some(k as f64 / 4.0)
    }

    /// The `level` (e.g. 0.95) interval of the mean pair score, never of zero width:
    /// - Student's t interval `μ ± t_{N-1}·s/√N`, clamped to [0, 1], when the pairs vary;
    /// - when every one of the `N` pairs has the same value `c` (so `s = 0`, or `N = 1`),
    ///   the exact bound: the share `q` of pairs worth exactly `c` is at least
    ///   `((1 - level)/2)^(1/N)` (Clopper-Pearson for N of N), and the others lie in
    ///   [0, 1], so the mean lies in `[c·q, c·q + 1 - q]`.
    pub fn interval(&self, level: f64) -> Option<(Interval, IntervalMethod)> {
        let n = self.pairs();
        let mu = self.score()?;
        match (self.common_value(), self.std_error()) {
            (None, Some(se)) => {
                let t = t_quantile(0.5 + level / 2.0, (n - 1) as f64);
                let interval = Interval {
                    low: (mu - t * se).max(0.0),
                    high: (mu + t * se).min(1.0),
                };
                Some((interval, IntervalMethod::T))
            }
            _ => {
                let c = mu;
                let q = ((1.0 - level) / 2.0).powf(1.0 / n as f64);
                let interval = Interval {
                    low: c * q,
                    high: c * q + 1.0 - q,
                };
                Some((interval, IntervalMethod::ExactBound))
            }
        }
    }

    /// The exact two-sided p-value of the sign-flip (permutation) test of "no advantage".
    ///
    /// A pair's deviation `d = points - 1` (in half points: `k - 2`) is, when neither side
    /// is favoured, as likely to be `+d` as `-d` (the two games of a pair differ only by
    /// which side has White). Given the observed `|d|`s, each sign is a fair coin, so the
    /// sum `T = Σ d` is `(2A - a) + 2(2B - b)` in half points, with `A ~ Bin(a, 1/2)` over
    /// the `a` pairs with `|d| = 1/2` and `B ~ Bin(b, 1/2)` over the `b` pairs with
    /// `|d| = 1`. The p-value is `P(|T| ≥ |T_obs|)`, summed exactly; it is never below the
    /// nominal level by chance of approximation, at any number of pairs. `None` for no pairs.
    pub fn sign_flip_p(&self) -> Option<f64> {
        if self.pairs() == 0 {
            return None;
        }
        let c = self.counts.map(|x| x as i64);
        let observed = ((c[3] - c[1]) + 2 * (c[4] - c[0])).abs();
        if observed == 0 {
            return Some(1.0);
        }
        let (a, b) = (c[1] + c[3], c[0] + c[4]);
        let pa = binomial_half_pmf(a as u64);
        let pb = binomial_half_pmf(b as u64);
        // at_most[k] = P(A ≤ k); at_least[k] = P(A ≥ k), each summed from its own tail.
        let mut at_most = Vec::with_capacity(pa.len());
        let mut sum = 0.0;
        for p in &pa {
            sum += p;
            at_most.push(sum);
        }
        let mut at_least = vec![0.0; pa.len()];
        let mut sum = 0.0;
        for k in (0..pa.len()).rev() {
            sum += pa[k];
            at_least[k] = sum;
        }
        let mut p = 0.0;
        for (j, &pj) in pb.iter().enumerate() {
            if pj == 0.0 {
                continue;
            }
            // T = 2A - a + 4j - 2b: T ≥ t  <=>  A ≥ ceil((t + a + 2b - 4j)/2),
            //                       T ≤ -t <=>  A ≤ floor((-t + a + 2b - 4j)/2).
            let shift = a + 2 * b - 4 * j as i64;
            let high = (observed + shift).div_euclid(2) + (observed + shift).rem_euclid(2);
            let low = (shift - observed).div_euclid(2);
            let upper = if high <= 0 {
                1.0
            } else if high > a {
                0.0
            } else {
                at_least[high as usize]
            };
            let lower = if low < 0 {
                0.0
            } else if low >= a {
                1.0
            } else {
                at_most[low as usize]
            };
            p += pj * (upper + lower);
        }
        Some(p.min(1.0))
    }

    /// The two one-sided tests of equivalence to 1/2 within `margin` at level `alpha`:
    /// `p_low` tests `μ ≤ 1/2 - margin`, `p_high` tests `μ ≥ 1/2 + margin`, each with
    /// Student's t on the pair means (`N - 1` degrees of freedom); the claim's p-value is
    /// the larger. When every pair has the same value `c` (no variance), the exact version
    /// of the bound above: the chance that all `N` pairs equal `c` while the mean is outside
    /// the margin is at most `min(1, (1/2 - margin)/c)^N` (low side) and
    /// `min(1, (1/2 - margin)/(1 - c))^N` (high side).
    pub fn tost(&self, margin: f64, alpha: f64) -> Option<Tost> {
        let n = self.pairs();
        let mu = self.score()?;
        let p_value = match (self.common_value(), self.std_error()) {
            (None, Some(se)) => {
                let df = (n - 1) as f64;
                let p_low = t_upper_tail((mu - (0.5 - margin)) / se, df);
                let p_high = t_upper_tail(((0.5 + margin) - mu) / se, df);
                p_low.max(p_high)
            }
            _ => {
                let bound = |room: f64| {
                    if room <= 0.0 {
                        1.0
                    } else {
                        ((0.5 - margin) / room).min(1.0).powf(n as f64)
                    }
                };
                bound(mu).max(bound(1.0 - mu))
            }
        };
        Some(Tost {
            margin,
            p_value,
            equivalent: p_value < alpha,
        })
    }

    /// Normalized Elo as fishtest defines it: the t-value per game `(μ - 1/2)/σ_g` times
    /// `800/ln 10`, where the per-game deviation of pair data is `σ_g = sqrt(2σ²)` (σ² the
    /// per-pair variance with divisor N). Also its `level` interval, from the ends of the
    /// t interval of μ. `None` without variance.
    pub fn normalized_elo(&self, level: f64) -> Option<(f64, Interval)> {
        let mu = self.score()?;
        let sigma = (2.0 * self.variance()?).sqrt();
        if sigma <= 0.0 || self.pairs() < 2 {
            return None;
        }
        let (interval, _) = self.interval(level)?;
        let nelo = |s: f64| (s - 0.5) / sigma * NELO_PER_T;
        Some((
            nelo(mu),
            Interval {
                low: nelo(interval.low),
                high: nelo(interval.high),
            },
        ))
    }

    /// The smallest departure of the mean score from 1/2 that a two-sided test at `alpha`
    /// would detect with probability `power` at this many pairs:
    /// `(z_{1-α/2} + z_{power})·σ/√N`, with σ the sample deviation of the pair means, or,
    /// when the pairs do not vary, `sqrt(1/8)` (two independent draw-free games).
    pub fn detectable_effect(&self, alpha: f64, power: f64) -> Option<f64> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let sd = self
            .sample_variance()
            .map(f64::sqrt)
            .filter(|s| *s > 0.0)
            .unwrap_or((1.0f64 / 8.0).sqrt());
        let z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power);
        Some(z * sd / (n as f64).sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    fn penta(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// The sign-flip p-value by brute force: every one of the 2^N sign patterns.
    fn brute_force_p(counts: [u64; 5]) -> f64 {
        let d: Vec<i64> = counts
            .iter()
            .enumerate()
            .flat_map(|(k, &c)| (0..c).map(move |_| k as i64 - 2))
            .collect();
        let observed: i64 = d.iter().sum::<i64>().abs();
        let n = d.len();
        let mut hits = 0u64;
        for mask in 0u64..1 << n {
            let t: i64 = d
                .iter()
                .enumerate()
                .map(|(i, x)| if mask >> i & 1 == 1 { -x } else { *x })
                .sum();
            hits += u64::from(t.abs() >= observed);
        }
        hits as f64 / (1u64 << n) as f64
    }

    #[test]
    fn sign_flip_is_exact() {
        // Three pairs that White won both games: 2 of 8 sign patterns are as extreme.
        assert_eq!(penta([0, 0, 0, 0, 3]).sign_flip_p(), Some(0.25));
        // Ten such pairs (20 of 20 White wins): 2/2^10.
        assert_eq!(penta([0, 0, 0, 0, 10]).sign_flip_p(), Some(2.0 / 1024.0));
        // All draws: no evidence at all.
        assert_eq!(penta([0, 0, 10, 0, 0]).sign_flip_p(), Some(1.0));
        for counts in [
            [1, 2, 3, 4, 5],
            [0, 3, 1, 0, 2],
            [2, 0, 5, 1, 0],
            [0, 1, 0, 6, 3],
            [3, 3, 3, 3, 3],
        ] {
            let exact = penta(counts).sign_flip_p().unwrap();
            let brute = brute_force_p(counts);
            assert!(close(exact, brute, 1e-12), "{counts:?}: {exact} vs {brute}");
        }
        assert_eq!(penta([0; 5]).sign_flip_p(), None);
    }

    #[test]
    fn large_samples_agree_with_the_normal_approximation() {
        // 10 000 pairs: the exact p is close to the z test's.
        let p = penta([1000, 2000, 4000, 2100, 900]);
        let exact = p.sign_flip_p().unwrap();
        let d_sum = (2100.0 - 2000.0) + 2.0 * (900.0 - 1000.0);
        let var = 4000.0 + 4.0 * 1900.0;
        let z = d_sum / f64::sqrt(var);
        let normal = crate::stats::two_sided_p(z);
        assert!((exact - normal).abs() < 0.01, "{exact} vs {normal}");
    }

    #[test]
    fn intervals_are_t_or_exact_bounds() {
        // Pairs scoring 2, 1.5, 1, 1, 0.5 points: means 1, .75, .5, .5, .25; μ = 0.6,
        // s² = 0.325/4 = 0.08125, SE = sqrt(0.08125/5), t_4 = 2.7764451051977934 (scipy.stats.t.ppf).
        let mut p = Pentanomial::default();
        for (a, b) in [(1.0, 1.0), (1.0, 0.5), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5)] {
            p.add(a, b);
        }
        assert_eq!(p.counts, [0, 1, 2, 1, 1]);
        let (i, method) = p.interval(0.95).unwrap();
        assert_eq!(method, IntervalMethod::T);
        let half = 2.776_445_105_197_793_4 * (0.08125f64 / 5.0).sqrt();
        assert!(close(i.low, 0.6 - half, 1e-9) && close(i.high, 0.6 + half, 1e-9));
        // Ten pairs won twice by White: [0.025^(1/10), 1].
        let (i, method) = penta([0, 0, 0, 0, 10]).interval(0.95).unwrap();
        assert_eq!(method, IntervalMethod::ExactBound);
        assert!(close(i.low, 0.025f64.powf(0.1), 1e-12));
        assert_eq!(i.high, 1.0);
        // Ten drawn pairs: [q/2, 1 - q/2].
        let (i, _) = penta([0, 0, 10, 0, 0]).interval(0.95).unwrap();
        let q = 0.025f64.powf(0.1);
        assert!(close(i.low, q / 2.0, 1e-12) && close(i.high, 1.0 - q / 2.0, 1e-12));
        assert!(i.high - i.low > 0.3);
    }

    #[test]
    fn tost_needs_evidence() {
        // All drawn pairs: p = (1 - 2m)^N.
        let t = penta([0, 0, 10, 0, 0]).tost(0.02, 0.05).unwrap();
        assert!(close(t.p_value, 0.96f64.powi(10), 1e-12));
        assert!(!t.equivalent);
        let t = penta([0, 0, 80, 0, 0]).tost(0.02, 0.05).unwrap();
        assert!(t.equivalent, "{}", t.p_value);
        // 1000 pairs, μ = 0.5, s² = 0.0625·(1000/999)... tight: shown.
        let t = penta([100, 150, 500, 150, 100]).tost(0.02, 0.05).unwrap();
        assert!(t.equivalent, "{}", t.p_value);
        // The same shape at 40 pairs: not shown.
        let t = penta([4, 6, 20, 6, 4]).tost(0.02, 0.05).unwrap();
        assert!(!t.equivalent);
    }

    #[test]
    fn normalized_elo_is_a_t_value_per_game() {
        // Pairs 3/4 and 1/4 in equal numbers plus some 1s: μ, σ² with divisor N.
        let p = penta([0, 10, 0, 10, 5]);
        let mu = (10.0 * 0.25 + 10.0 * 0.75 + 5.0) / 25.0;
        let var = (10.0 * (0.25f64 - mu).powi(2)
            + 10.0 * (0.75f64 - mu).powi(2)
            + 5.0 * (1.0f64 - mu).powi(2))
            / 25.0;
        let (nelo, _) = p.normalized_elo(0.95).unwrap();
        assert!(close(
            nelo,
            (mu - 0.5) / (2.0 * var).sqrt() * NELO_PER_T,
            1e-9
        ));
        assert!(penta([0, 0, 7, 0, 0]).normalized_elo(0.95).is_none());
    }

    #[test]
    fn detectable_effect_follows_the_standard_error() {
        let p = penta([100, 150, 500, 150, 100]);
        let sd = p.sample_variance().unwrap().sqrt();
        let z = 1.959_963_984_540_054 + 0.841_621_233_572_914_3;
        assert!(close(
            p.detectable_effect(0.05, 0.8).unwrap(),
            z * sd / 1000f64.sqrt(),
            1e-9
        ));
    }
}

/// The false-positive rate of the first-move test, by simulation of experiments with no
/// advantage at all.
#[cfg(test)]
mod null_simulation {
    use super::*;
    use agon_core::Rng;

    /// One game's White score with no first-move advantage: a draw with probability
    /// `draw_rate`, else a win for either side with equal probability.
    fn game(rng: &mut Rng, draw_rate: f64) -> f64 {
        if rng.unit() < draw_rate {
            0.5
        } else if rng.below(2) == 0 {
            1.0
        } else {
            0.0
        }
    }

    fn experiment(rng: &mut Rng, pairs: usize, draw_rate: f64) -> Pentanomial {
        let mut p = Pentanomial::default();
        for _ in 0..pairs {
            p.add(game(rng, draw_rate), game(rng, draw_rate));
        }
        p
    }

    /// The test the audit found wanting: `z = (μ - 1/2)/SE` (SE with divisor N), normal
    /// p-value, no test at all when SE = 0.
    fn normal_approximation_p(p: &Pentanomial) -> Option<f64> {
        let se = (p.variance()? / p.pairs() as f64).sqrt();
        let mu = p.score()?;
        (se > 0.0).then(|| crate::stats::two_sided_p((mu - 0.5) / se))
    }

    #[test]
    fn the_exact_test_keeps_its_level_at_every_sample_size() {
        const RUNS: usize = 20_000;
        // Monte Carlo tolerance: three standard errors of a 5% rate over RUNS runs.
        let tolerance = 3.0 * (0.05f64 * 0.95 / RUNS as f64).sqrt();
        for draw_rate in [0.0, 0.3, 0.6] {
            for pairs in [3, 5, 10, 20, 50] {
                let mut rng = Rng::new(1_000 * pairs as u64 + (draw_rate * 10.0) as u64);
                let mut exact = 0;
                let mut normal = 0;
                for _ in 0..RUNS {
                    let p = experiment(&mut rng, pairs, draw_rate);
                    exact += usize::from(p.sign_flip_p().unwrap() < 0.05);
                    normal += usize::from(normal_approximation_p(&p).is_some_and(|p| p < 0.05));
                }
                let rate = exact as f64 / RUNS as f64;
                assert!(
                    rate <= 0.05 + tolerance,
                    "{pairs} pairs, draws {draw_rate}: false-positive rate {rate}"
                );
                if pairs == 3 && draw_rate == 0.0 {
                    // The simulation can tell a bad test: the old one flags far too often.
                    let old = normal as f64 / RUNS as f64;
                    assert!(old > 0.15, "normal approximation at 3 pairs: {old}");
                }
                if pairs == 50 && draw_rate == 0.0 {
                    // ... and the exact test is not uselessly conservative (discreteness
                    // keeps it a little below 5%).
                    assert!(rate > 0.02, "{rate}");
                }
            }
        }
    }
}
