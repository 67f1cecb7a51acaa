//! The percentile bootstrap over pairs: seeded and deterministic, for statistics without a
//! closed-form interval (mean length, captures, Ludii's metrics). Each resample draws `n`
//! units with replacement; statistics see the resample as a multiplicity per unit, so a
//! statistic is a weighted sum over compact per-pair data. Resample `r` draws from its own
//! stream `Rng::for_stream(seed, r)`, so the resamples run in parallel and the result does
//! not depend on the number of threads.

use super::{quantile, Interval};
use agon_core::Rng;
use rayon::prelude::*;

/// Resamples drawn per bootstrap.
pub const RESAMPLES: usize = 1000;

/// `level` percentile intervals (Hyndman-Fan type 7 quantiles of the resampled values) of
/// `M` statistics of `n` units, from `resamples` resamples drawn with `Rng::new(seed)`.
/// `statistic` gets the multiplicity of every unit and returns the `M` values (`None`
/// where a value is undefined for that resample, e.g. a ratio over zero games).
/// An interval is `None` when the statistic was undefined in some resample, or `n = 0`.
pub fn percentile_intervals<const M: usize>(
    n: usize,
    resamples: usize,
    seed: u64,
    level: f64,
    statistic: impl Fn(&[u32]) -> [Option<f64>; M] + Sync,
) -> [Option<Interval>; M] {
    if n == 0 || resamples == 0 {
        return [None; M];
    }
    let results: Vec<[Option<f64>; M]> = (0..resamples as u64)
        .into_par_iter()
        .map_init(
            || vec![0u32; n],
            |weights, r| {
                weights.iter_mut().for_each(|w| *w = 0);
                let mut rng = Rng::for_stream(seed, r);
                for _ in 0..n {
                    weights[rng.below(n)] += 1;
                }
                statistic(weights)
            },
        )
        .collect();
    let tail = (1.0 - level) / 2.0;
    std::array::from_fn(|m| {
        let mut values: Vec<f64> = results.iter().map(|r| r[m]).collect::<Option<_>>()?;
        values.sort_by(f64::total_cmp);
        Some(Interval {
            low: quantile(&values, tail)?,
            high: quantile(&values, 1.0 - tail)?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_of_a_mean_is_seeded_and_close_to_the_normal_interval() {
        let x: Vec<f64> = (0..400).map(|i| f64::from(i % 10)).collect();
        let mean = |w: &[u32]| {
            let total: u32 = w.iter().sum();
            let sum: f64 = w.iter().zip(&x).map(|(w, v)| f64::from(*w) * v).sum();
            [Some(sum / f64::from(total))]
        };
        let [a] = percentile_intervals(x.len(), RESAMPLES, 5, 0.95, mean);
        let [b] = percentile_intervals(x.len(), RESAMPLES, 5, 0.95, mean);
        assert_eq!(a, b, "same seed, same interval");
        let a = a.unwrap();
        // Mean 4.5, sd 2.876 (divisor n), SE 0.1438: normal interval ±0.282.
        assert!((a.low - (4.5 - 0.282)).abs() < 0.05, "{a:?}");
        assert!((a.high - (4.5 + 0.282)).abs() < 0.05, "{a:?}");
        let [c] = percentile_intervals(x.len(), RESAMPLES, 6, 0.95, mean);
        assert_ne!(Some(a), c, "another seed, other resamples");
    }

    #[test]
    fn undefined_statistics_give_no_interval() {
        let [a, b] = percentile_intervals(3, 50, 1, 0.95, |_| [None, Some(1.0)]);
        assert_eq!(a, None);
        assert_eq!(
            b,
            Some(Interval {
                low: 1.0,
                high: 1.0
            })
        );
        let [c] = percentile_intervals(0, 50, 1, 0.95, |_| [Some(1.0)]);
        assert_eq!(c, None);
    }
}
