//! Power and sample size of the first-move test, under the model of docs/selfplay.md: a
//! pair's value is the mean of two independent games, each a draw with probability `d`
//! and otherwise a win for either side, so the per-pair standard deviation near balance is
//! `σ = sqrt((1 - d)/8)`.

use super::dist::normal_quantile;

/// `sqrt((1 - draw_rate)/8)`: the standard deviation of a pair's mean score near 1/2.
pub fn pair_sd(draw_rate: f64) -> f64 {
    ((1.0 - draw_rate) / 8.0).sqrt()
}

/// Pairs needed for a two-sided test at `alpha` to detect a White score of `1/2 + effect`
/// with probability `power`: `⌈((z_{1-α/2} + z_{power})·σ/effect)²⌉`.
pub fn pairs_to_detect(effect: f64, draw_rate: f64, alpha: f64, power: f64) -> u64 {
    let z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power);
    ((z * pair_sd(draw_rate) / effect).powi(2)).ceil() as u64
}

/// Pairs needed for the two one-sided tests at `alpha` to show balance within `±margin`
/// with probability `power` when there is no advantage at all:
/// `⌈((z_{1-α} + z_{(1+power)/2})·σ/margin)²⌉`.
pub fn pairs_for_equivalence(margin: f64, draw_rate: f64, alpha: f64, power: f64) -> u64 {
    let z = normal_quantile(1.0 - alpha) + normal_quantile((1.0 + power) / 2.0);
    ((z * pair_sd(draw_rate) / margin).powi(2)).ceil() as u64
}

/// The smallest advantage `pairs` pairs detect (two-sided test at `alpha`, probability
/// `power`): `(z_{1-α/2} + z_{power})·σ/√pairs`.
pub fn detectable_effect(pairs: u64, draw_rate: f64, alpha: f64, power: f64) -> f64 {
    let z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power);
    z * pair_sd(draw_rate) / (pairs as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_example_by_hand() {
        // effect 0.02, 50% draws, 80% power, 5%: σ² = 1/16, (1.959964 + 0.841621)² =
        // 7.848879; 7.848879 · 0.0625 / 0.0004 = 1226.39 -> 1227 pairs.
        assert_eq!(pairs_to_detect(0.02, 0.5, 0.05, 0.8), 1227);
        let e = detectable_effect(1227, 0.5, 0.05, 0.8);
        assert!(e < 0.02 && e > 0.0199, "{e}");
        // Equivalence within ±0.02, 80% power: (1.644854 + 1.281552)² · 0.0625 / 0.0004
        // = 1338.2 -> 1339 pairs.
        assert_eq!(pairs_for_equivalence(0.02, 0.5, 0.05, 0.8), 1339);
    }
}
