//! The sequential probability ratio test of engine testers: the generalised SPRT on
//! pentanomial pair counts, as fishtest computes it (M. Van den Bergh, "A practical
//! introduction to the GSPRT", and "Maximum likelihood estimation of a multinomial
//! distribution with given expectation"). Written here from those formulas.
//!
//! Hypotheses are logistic Elo differences `elo0 < elo1`, i.e. expected scores
//! `s_i = 1/(1 + 10^(-elo_i/400))`. With the observed pair frequencies `p̂_k` over the
//! values `a_k = k/4` (zero counts replaced by 1e-3, fishtest's regularisation), the
//! maximum-likelihood distribution with mean `s` is `p_k = p̂_k / (1 + λ(a_k - s))`,
//! where `λ` solves `Σ p̂_k (a_k - s)/(1 + λ(a_k - s)) = 0`; and
//! `LLR = N · Σ p̂_k ln(p_k(s1)/p_k(s0))`, N the (regularised) number of pairs. The test
//! accepts H1 when `LLR ≥ ln((1-β)/α)` and H0 when `LLR ≤ ln(β/(1-α))`.

use super::score_from_elo;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The parameters of an SPRT: `elo0=E0,elo1=E1,alpha=A,beta=B`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSpec {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Parameters are checked finite when parsed, so equality is an equivalence.
impl Eq for SprtSpec {}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hypothesis {
    /// The difference is `elo0` (or less).
    H0,
    /// The difference is `elo1` (or more).
    H1,
}

impl SprtSpec {
    /// `ln(β/(1-α))`: accept H0 at or below.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1-β)/α)`: accept H1 at or above.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of `counts`.
    pub fn llr(&self, counts: [u64; 5]) -> f64 {
        llr_logistic(self.elo0, self.elo1, counts)
    }

    /// The decision at an LLR, if it left the bounds.
    pub fn decide(&self, llr: f64) -> Option<Hypothesis> {
        if llr >= self.upper() {
            Some(Hypothesis::H1)
        } else if llr <= self.lower() {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for SprtSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl FromStr for SprtSpec {
    type Err = String;

    /// `elo0=E0,elo1=E1[,alpha=A][,beta=B]` (alpha and beta default to 0.05).
    fn from_str(text: &str) -> Result<SprtSpec, String> {
        let mut spec = SprtSpec {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!("`{part}` in --sprt is not KEY=VALUE; expected elo0=0,elo1=5,alpha=0.05,beta=0.05")
            })?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt {}: `{value}` is not a number", key.trim()))?;
            match key.trim() {
                "elo0" => spec.elo0 = value,
                "elo1" => spec.elo1 = value,
                "alpha" => spec.alpha = value,
                "beta" => spec.beta = value,
                other => {
                    return Err(format!(
                        "--sprt has no `{other}`; the keys are elo0, elo1, alpha, beta"
                    ))
                }
            }
        }
        if spec.elo0.is_nan() || spec.elo1.is_nan() {
            return Err("--sprt needs elo0 and elo1, e.g. elo0=0,elo1=5".into());
        }
        if spec.elo1 <= spec.elo0 {
            return Err(format!(
                "--sprt needs elo0 < elo1 (got elo0={}, elo1={})",
                spec.elo0, spec.elo1
            ));
        }
        for (name, v) in [("alpha", spec.alpha), ("beta", spec.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!(
                    "--sprt {name} must lie strictly between 0 and 0.5, not {v}"
                ));
            }
        }
        Ok(spec)
    }
}

/// Fishtest's regularisation: a zero count becomes 1e-3 (so that the maximum-likelihood
/// distributions exist for every mean strictly between 0 and 1).
fn regularised(counts: [u64; 5]) -> [f64; 5] {
    counts.map(|c| if c == 0 { 1e-3 } else { c as f64 })
}

/// The maximum-likelihood distribution over values `a` with mean `s`, given observed
/// frequencies `p` (all positive, `min a < s < max a`): `p_k/(1 + λ(a_k - s))`, where `λ`
/// is the root of the strictly decreasing `f(λ) = Σ p_k (a_k - s)/(1 + λ(a_k - s))` on
/// `(-1/(max a - s), 1/(s - min a))`, found by bisection to machine precision.
pub fn mle_with_mean(p: &[f64; 5], a: &[f64; 5], s: f64) -> [f64; 5] {
    let f = |lambda: f64| -> f64 {
        p.iter()
            .zip(a)
            .map(|(pk, ak)| pk * (ak - s) / (1.0 + lambda * (ak - s)))
            .sum()
    };
    let (min, max) = (a[0], a[4]);
    let mut low = -1.0 / (max - s);
    let mut high = 1.0 / (s - min);
    for _ in 0..2000 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let lambda = 0.5 * (low + high);
    let mut out = [0.0; 5];
    for k in 0..5 {
        out[k] = p[k] / (1.0 + lambda * (a[k] - s));
    }
    out
}

/// The generalised log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), logistic Elo,
/// for pentanomial pair counts; 0 for no pairs.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: [u64; 5]) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let regular = regularised(counts);
    let n: f64 = regular.iter().sum();
    let p = regular.map(|c| c / n);
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let p0 = mle_with_mean(&p, &a, s0);
    let p1 = mle_with_mean(&p, &a, s1);
    n * (0..5)
        .map(|k| p[k] * (p1[k].ln() - p0[k].ln()))
        .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_refuse_nonsense() {
        let s: SprtSpec = "elo0=0,elo1=5,alpha=0.05,beta=0.1".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!(s.to_string().parse::<SprtSpec>().unwrap(), s);
        let s: SprtSpec = "elo0=-1.5, elo1=2".parse().unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        for bad in [
            "elo0=5,elo1=0",
            "elo1=5",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=x",
            "e=1",
        ] {
            assert!(bad.parse::<SprtSpec>().is_err(), "{bad}");
        }
        // Bounds for alpha = beta = 0.05: ±ln 19.
        let s: SprtSpec = "elo0=0,elo1=5".parse().unwrap();
        assert!((s.upper() - 19f64.ln()).abs() < 1e-15);
        assert!((s.lower() + 19f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn the_mle_has_the_requested_mean_and_sums_to_one() {
        let p = [0.1, 0.2, 0.4, 0.2, 0.1];
        let a = [0.0, 0.25, 0.5, 0.75, 1.0];
        for s in [0.3, 0.5, 0.51, 0.9] {
            let q = mle_with_mean(&p, &a, s);
            let total: f64 = q.iter().sum();
            let mean: f64 = q.iter().zip(&a).map(|(x, y)| x * y).sum();
            assert!(
                (total - 1.0).abs() < 1e-12 && (mean - s).abs() < 1e-12,
                "{s}: {q:?}"
            );
        }
    }

    /// Values computed independently with a Python 3.11 + SciPy 1.17 script written from
    /// the same formulas (regularise zero counts to 1e-3; solve for λ with
    /// `scipy.optimize.brentq`; `N·Σ p̂ ln(p1/p0)`), run by hand; its source is in
    /// docs/selfplay.md ("Checking the SPRT").
    #[test]
    fn llr_matches_an_independent_computation() {
        let cases: [([u64; 5], f64, f64, f64); 4] = [
            ([10, 20, 40, 20, 10], 0.0, 5.0, -0.034_506_850_951_685_54),
            ([5, 30, 60, 40, 10], 0.0, 5.0, 0.578_557_147_813_927_2),
            ([0, 0, 0, 0, 12], 0.0, 50.0, 1.603_348_578_958_806_7),
            (
                [1234, 5678, 9012, 6789, 2345],
                -1.0,
                3.0,
                69.185_951_840_893_7,
            ),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = llr_logistic(elo0, elo1, counts);
            assert!(
                (llr - expected).abs() < 1e-9 * expected.abs().max(1.0),
                "{counts:?}: {llr} vs {expected}"
            );
        }
        assert_eq!(llr_logistic(0.0, 5.0, [0; 5]), 0.0);
    }
}
