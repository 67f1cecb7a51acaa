//! Differences between two independent samples of per-pair values (a variant against the
//! baseline): the difference of means with Welch's 95% interval, a p-value (a seeded
//! permutation test for small samples, Welch's t test otherwise), Hedges' g, and Holm's
//! step-down correction over a family of tests.

use super::dist::{t_quantile, t_two_sided_p};
use super::Interval;
use agon_core::Rng;
use serde::Serialize;

/// Up to this many values in both samples together, p-values come from the permutation
/// test; above, from Welch's t test.
pub const PERMUTATION_LIMIT: usize = 200;
/// Random permutations drawn by the permutation test.
pub const PERMUTATIONS: u32 = 9_999;

/// How a p-value was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestMethod {
    /// Seeded Monte Carlo permutation test of the difference of means.
    Permutation,
    /// Welch's unequal-variance t test.
    Welch,
}

/// One sample minus another.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// Mean of the sample minus mean of the reference.
    pub difference: f64,
    /// Welch's 95% interval of the difference (`None` when neither sample varies).
    pub interval: Option<Interval>,
    /// Two-sided p-value of "no difference".
    pub p_value: f64,
    /// How the p-value was computed.
    pub method: TestMethod,
    /// Hedges' g: the difference over the pooled standard deviation, corrected for small
    /// samples by `1 - 3/(4(n1 + n2) - 9)` (`None` when neither sample varies).
    pub effect_size: Option<f64>,
    /// Whether `p < 0.05` survives Holm's correction over the family (set by the caller).
    pub significant_holm: bool,
}

fn mean_and_variance(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let ss: f64 = x.iter().map(|v| (v - mean).powi(2)).sum();
    (mean, if x.len() > 1 { ss / (n - 1.0) } else { 0.0 })
}

/// `sample - reference`. `None` unless both samples have at least two values. `seed`
/// makes the permutation test reproducible.
pub fn difference(sample: &[f64], reference: &[f64], seed: u64) -> Option<Difference> {
    let (n1, n0) = (sample.len(), reference.len());
    if n1 < 2 || n0 < 2 {
        return None;
    }
    let (m1, v1) = mean_and_variance(sample);
    let (m0, v0) = mean_and_variance(reference);
    let diff = m1 - m0;
    let (a, b) = (v1 / n1 as f64, v0 / n0 as f64);
    let se = (a + b).sqrt();
    let welch_df = (a + b).powi(2) / (a * a / (n1 - 1) as f64 + b * b / (n0 - 1) as f64);
    let interval = (se > 0.0).then(|| {
        let t = t_quantile(0.975, welch_df);
        Interval {
            low: diff - t * se,
            high: diff + t * se,
        }
    });
    let (p_value, method) = if n1 + n0 <= PERMUTATION_LIMIT {
        (
            permutation_p(sample, reference, seed),
            TestMethod::Permutation,
        )
    } else if se > 0.0 {
        (t_two_sided_p(diff / se, welch_df), TestMethod::Welch)
    } else {
        (if diff == 0.0 { 1.0 } else { 0.0 }, TestMethod::Welch)
    };
    let pooled = (((n1 - 1) as f64 * v1 + (n0 - 1) as f64 * v0) / (n1 + n0 - 2) as f64).sqrt();
    let correction = 1.0 - 3.0 / (4.0 * (n1 + n0) as f64 - 9.0);
    Some(Difference {
        difference: diff,
        interval,
        p_value,
        method,
        effect_size: (pooled > 0.0).then(|| diff / pooled * correction),
        significant_holm: false,
    })
}

/// The Monte Carlo permutation p-value of the difference of means: the pooled values are
/// dealt at random into samples of the original sizes `PERMUTATIONS` times (a partial
/// Fisher-Yates shuffle from `Rng::new(seed)`), and
/// `p = (1 + #{|difference| ≥ |observed|}) / (1 + PERMUTATIONS)`, which is a valid
/// p-value at any sample size.
pub fn permutation_p(sample: &[f64], reference: &[f64], seed: u64) -> f64 {
    let mut pooled: Vec<f64> = sample.iter().chain(reference).copied().collect();
    let (n1, total) = (sample.len(), pooled.len());
    let sum_all: f64 = pooled.iter().sum();
    let diff = |sum1: f64| sum1 / n1 as f64 - (sum_all - sum1) / (total - n1) as f64;
    let observed = diff(sample.iter().sum()).abs();
    let tolerance = 1e-12 * (1.0 + observed);
    let mut rng = Rng::new(seed);
    let mut hits = 0u32;
    for _ in 0..PERMUTATIONS {
        let mut sum1 = 0.0;
        for i in 0..n1 {
            let j = i + rng.below(total - i);
            pooled.swap(i, j);
            sum1 += pooled[i];
        }
        hits += u32::from(diff(sum1).abs() >= observed - tolerance);
    }
    f64::from(1 + hits) / f64::from(1 + PERMUTATIONS)
}

/// A difference averaged over strata, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StratifiedDifference {
    /// The mean over strata of `mean(sample_k) - mean(reference_k)`.
    pub difference: f64,
    /// `difference ± z·sqrt(Σ_k (s²_k1/n_k1 + s²_k0/n_k0)) / K`, the strata independent
    /// (`None` when no stratum varies).
    pub interval: Option<Interval>,
    /// Strata used (those with at least two values on both sides).
    pub strata: usize,
}

/// The main effect of a factor in a factorial design: for each stratum `k` (the other
/// factors held fixed) the difference of means of two independent samples, averaged
/// with equal weights over the strata, and its normal 95% interval from each side's
/// variance of the mean (Welch's variance, summed over the strata). Strata with fewer
/// than two values on either side are left out; `None` when none is left.
pub fn stratified_difference(strata: &[(&[f64], &[f64])]) -> Option<StratifiedDifference> {
    let mut sum = 0.0;
    let mut variance = 0.0;
    let mut k = 0usize;
    for (sample, reference) in strata {
        if sample.len() < 2 || reference.len() < 2 {
            continue;
        }
        let (m1, v1) = mean_and_variance(sample);
        let (m0, v0) = mean_and_variance(reference);
        sum += m1 - m0;
        variance += v1 / sample.len() as f64 + v0 / reference.len() as f64;
        k += 1;
    }
    if k == 0 {
        return None;
    }
    let difference = sum / k as f64;
    let half = super::Z95 * variance.sqrt() / k as f64;
    Some(StratifiedDifference {
        difference,
        interval: (half > 0.0).then_some(Interval {
            low: difference - half,
            high: difference + half,
        }),
        strata: k,
    })
}

/// Holm's step-down correction at level `alpha`: sort the `m` p-values ascending; the
/// k-th smallest (k = 0, 1, ...) is significant while `p ≤ alpha/(m - k)`, and every test
/// after the first one that fails is not. Missing p-values are not tests.
pub fn holm(p_values: &[Option<f64>], alpha: f64) -> Vec<bool> {
    let mut order: Vec<(f64, usize)> = p_values
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (p, i)))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let m = order.len();
    let mut significant = vec![false; p_values.len()];
    for (k, &(p, i)) in order.iter().enumerate() {
        if p > alpha / (m - k) as f64 {
            break;
        }
        significant[i] = true;
    }
    significant
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_steps_down() {
        // Sorted: 0.01 <= 0.05/4 yes; 0.03 <= 0.05/3 no: stop.
        let flags = holm(&[Some(0.04), Some(0.01), Some(0.03), Some(0.2), None], 0.05);
        assert_eq!(flags, [false, true, false, false, false]);
        let flags = holm(&[Some(0.001), Some(0.02)], 0.05);
        assert_eq!(flags, [true, true]);
    }

    /// Reference values: scipy.stats.ttest_ind(a, b, equal_var=False) and the Welch
    /// interval from scipy.stats.t.ppf(0.975, df), computed by hand in Python.
    #[test]
    fn welch_matches_scipy() {
        let a: Vec<f64> = (0..150).map(|i| f64::from(i % 7) / 6.0).collect();
        let b: Vec<f64> = (0..120).map(|i| f64::from((i * 3) % 5) / 4.0).collect();
        let d = difference(&a, &b, 1).unwrap();
        assert_eq!(d.method, TestMethod::Welch);
        assert!(
            (d.difference - (-0.006_666_666_666_666_654)).abs() < 1e-12,
            "{}",
            d.difference
        );
        assert!(
            (d.p_value - 0.875_208_516_997_156_7).abs() < 1e-9,
            "{}",
            d.p_value
        );
        let i = d.interval.unwrap();
        assert!(
            (i.low - (-0.090_189_235_566_055_1)).abs() < 1e-9,
            "{}",
            i.low
        );
        assert!(
            (i.high - 0.076_855_902_232_721_79).abs() < 1e-9,
            "{}",
            i.high
        );
    }

    #[test]
    fn permutation_tests_small_samples_without_variance() {
        // Three against three with no overlap: the exact p is 2/20 = 0.1.
        let d = difference(&[1.0, 1.0, 1.0], &[0.5, 0.5, 0.5], 7).unwrap();
        assert_eq!(d.method, TestMethod::Permutation);
        assert!((d.p_value - 0.1).abs() < 0.01, "{}", d.p_value);
        assert!(d.interval.is_none() && d.effect_size.is_none());
        // Same seed, same p.
        assert_eq!(
            d.p_value,
            difference(&[1.0, 1.0, 1.0], &[0.5, 0.5, 0.5], 7)
                .unwrap()
                .p_value
        );
        // Identical samples: p = 1.
        let d = difference(&[0.5, 0.5], &[0.5, 0.5], 7).unwrap();
        assert_eq!(d.p_value, 1.0);
        assert!(difference(&[1.0], &[0.0, 1.0], 7).is_none());
    }

    #[test]
    fn stratified_differences_average_the_strata() {
        // Stratum 1: means 1 and 0 (variances 0.5 and 0.5, n 3 and 3 -> var 1/3);
        // stratum 2: means 3 and 2 (variances 1 and 1, n 2 and 2 -> var 1).
        let a1 = [0.5, 1.0, 1.5];
        let b1 = [-0.5, 0.0, 0.5];
        let a2 = [2.0, 4.0];
        let b2 = [1.0, 3.0];
        let d = stratified_difference(&[(&a1, &b1), (&a2, &b2), (&[1.0], &b1)]).unwrap();
        assert_eq!(d.strata, 2);
        assert!((d.difference - 1.0).abs() < 1e-12);
        let v1: f64 = 0.25 / 3.0 * 2.0;
        let v2 = 2.0 / 2.0 * 2.0;
        let half = crate::stats::Z95 * (v1 + v2).sqrt() / 2.0;
        let i = d.interval.unwrap();
        assert!((i.low - (1.0 - half)).abs() < 1e-12 && (i.high - (1.0 + half)).abs() < 1e-12);
        assert!(stratified_difference(&[(&[1.0], &[2.0])]).is_none());
    }

    #[test]
    fn hedges_g_by_hand() {
        // Means 2 and 1; variances 1 and 1; pooled sd 1; J = 1 - 3/(4·8 - 9) = 20/23.
        let d = difference(&[1.0, 2.0, 3.0, 2.0], &[0.0, 1.0, 2.0, 1.0], 3).unwrap();
        let v = (2.0f64 / 3.0).sqrt();
        assert!((d.effect_size.unwrap() - 1.0 / v * 20.0 / 23.0).abs() < 1e-12);
    }
}
