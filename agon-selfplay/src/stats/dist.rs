//! Distribution functions: the normal, Student's t and binomial distributions, with the
//! special functions they need (erfc, ln Γ, the regularised incomplete beta function).
//! Each function states its method; docs/selfplay.md cites the sources.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

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

/// The two-sided p-value of a z statistic: `2·(1 - Φ(|z|))`, computed as `erfc(|z|/√2)`
/// so that small p-values keep their precision.
pub fn two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// The `p`-quantile of the standard normal distribution (`0 < p < 1`): Acklam's rational
/// approximation (relative error 1.2e-9), refined by two Newton steps on `Φ`.
pub fn normal_quantile(p: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0, "a normal quantile needs 0 < p < 1");
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        let q = (-2.0 * q.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let mut x = if p < 0.024_25 {
        tail(p)
    } else if p > 1.0 - 0.024_25 {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    for _ in 0..2 {
        let density = (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
        if density > 0.0 {
            x -= (normal_cdf(x) - p) / density;
        }
    }
    x
}

/// `ln Γ(x)` for `x > 0`: the Lanczos approximation (g = 7, nine coefficients), relative
/// error about 1e-15, with the reflection `Γ(x)Γ(1-x) = π/sin(πx)` below 1/2.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (k, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + k as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularised incomplete beta function `I_x(a, b)`, by the continued fraction of
/// Numerical Recipes §6.4 (modified Lentz), using the symmetry
/// `I_x(a, b) = 1 - I_{1-x}(b, a)` where the fraction converges faster.
pub fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_fraction(x, a, b) / a
    } else {
        1.0 - ln_front.exp() * beta_fraction(1.0 - x, b, a) / b
    }
}

fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..10_000 {
        let m = f64::from(m);
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        for coefficient in [
            even,
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + coefficient * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + coefficient / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// The upper tail `P(T > t)` of Student's t distribution with `df > 0` degrees of freedom
/// (not necessarily whole): `I_{df/(df+t²)}(df/2, 1/2) / 2` for `t ≥ 0`.
pub fn t_upper_tail(t: f64, df: f64) -> f64 {
    let half = 0.5 * incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
    if t >= 0.0 {
        half
    } else {
        1.0 - half
    }
}

/// The two-sided p-value of a t statistic: `P(|T| ≥ |t|)`.
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    incomplete_beta(df / (df + t * t), df / 2.0, 0.5).clamp(0.0, 1.0)
}

/// The `p`-quantile of Student's t distribution with `df` degrees of freedom (`0 < p < 1`),
/// by bisection on [`t_upper_tail`] to 1e-12.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0, "a t quantile needs 0 < p < 1");
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    let target = 1.0 - p;
    let (mut low, mut high) = (0.0f64, 1.0f64);
    while t_upper_tail(high, df) > target {
        high *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if t_upper_tail(mid, df) > target {
            low = mid;
        } else {
            high = mid;
        }
        if high - low < 1e-12 * high.max(1.0) {
            break;
        }
    }
    0.5 * (low + high)
}

/// The probabilities `P(X = k)`, `k = 0..=n`, of a binomial(n, 1/2) variable: up to
/// n = 1000 by the recurrence `p_0 = 2^-n`, `p_(k+1) = p_k (n-k)/(k+1)` (exact for small
/// n), beyond from `ln C(n, k) - n ln 2` (no underflow problem for the central terms).
pub fn binomial_half_pmf(n: u64) -> Vec<f64> {
    if n <= 1000 {
        let mut p = 0.5f64.powi(n as i32);
        let mut out = Vec::with_capacity(n as usize + 1);
        for k in 0..=n {
            out.push(p);
            p = p * (n - k) as f64 / (k + 1) as f64;
        }
        return out;
    }
    let nf = n as f64;
    let ln_n_factorial = ln_gamma(nf + 1.0);
    (0..=n)
        .map(|k| {
            let k = k as f64;
            (ln_n_factorial
                - ln_gamma(k + 1.0)
                - ln_gamma(nf - k + 1.0)
                - nf * std::f64::consts::LN_2)
                .exp()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
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
    fn normal_quantiles_invert_the_distribution() {
        // Reference values: scipy.stats.norm.ppf.
        assert!(close(normal_quantile(0.975), Z95, 1e-12));
        assert!(close(normal_quantile(0.8), 0.841_621_233_572_914_2, 1e-12));
        assert!(close(normal_quantile(0.95), 1.644_853_626_951_472_2, 1e-12));
        assert!(close(normal_quantile(1e-10), -6.361_340_902_404_056, 1e-9));
        assert!(close(normal_quantile(0.5), 0.0, 1e-15));
    }

    #[test]
    fn gamma_and_beta_functions() {
        // ln Γ(n) = ln (n-1)!; Γ(1/2) = √π.
        assert!(close(ln_gamma(10.0), 362_880f64.ln(), 1e-12));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-13
        ));
        assert!(close(ln_gamma(1e6), 12_815_504.569_147_61, 1e-6));
        // I_x(1, 1) = x; I_x(2, 1) = x²; scipy.special.betainc(3.5, 0.5, 0.7).
        assert!(close(incomplete_beta(0.3, 1.0, 1.0), 0.3, 1e-14));
        assert!(close(incomplete_beta(0.3, 2.0, 1.0), 0.09, 1e-14));
        assert!(close(
            incomplete_beta(0.7, 3.5, 0.5),
            0.126_870_366_923_670_99,
            1e-12
        ));
    }

    #[test]
    fn student_t_matches_reference_values() {
        // scipy.stats.t.ppf(0.975, df) for df = 1, 2, 9, 30.5.
        assert!(close(t_quantile(0.975, 1.0), 12.706_204_736_174_694, 1e-8));
        assert!(close(t_quantile(0.975, 2.0), 4.302_652_729_749_462, 1e-9));
        assert!(close(t_quantile(0.975, 9.0), 2.262_157_162_798_205, 1e-9));
        assert!(close(
            t_quantile(0.025, 30.5),
            -2.040_869_445_186_320_5,
            1e-9
        ));
        // scipy.stats.t.sf(2.5, 4) and the two-sided p of t = 1 with 1 df (exactly 1/2).
        assert!(close(
            t_upper_tail(2.5, 4.0),
            0.033_383_272_405_994_07,
            1e-12
        ));
        assert!(close(t_two_sided_p(1.0, 1.0), 0.5, 1e-12));
    }

    #[test]
    fn binomial_probabilities() {
        let p = binomial_half_pmf(4);
        let expected = [1.0, 4.0, 6.0, 4.0, 1.0].map(|c| c / 16.0);
        for (a, b) in p.iter().zip(expected) {
            assert!(close(*a, b, 1e-15));
        }
        let big = binomial_half_pmf(100_000);
        assert!(close(big.iter().sum::<f64>(), 1.0, 1e-9));
    }
}
