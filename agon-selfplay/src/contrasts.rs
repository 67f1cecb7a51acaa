//! Each variant against a baseline variant, in the same pairing: the differences in
//! White's score, the rule-draw rate, the decisive rate, the mean length and the captures,
//! each per complete pair, with Welch's interval, a p-value, Holm's correction per metric
//! over the variants, and Hedges' g.

use crate::experiment::Experiment;
use crate::sample::sums::*;
use crate::sample::{PairRecord, Samples};
use crate::stats::contrast::{difference, holm, Difference};
use crate::stats::elo_from_score;
use crate::summary::ALPHA;
use agon_core::Rng;
use serde::Serialize;

/// Separates the random streams of the permutation tests from the games'.
const PERMUTATION_SALT: u64 = 0x7065_726D_7574_6573;

/// One variant against the baseline, in one pairing: per-pair differences.
#[derive(Clone, Debug, Serialize)]
pub struct Contrast {
    /// The variant.
    pub variant: String,
    /// The pairing.
    pub pairing: String,
    /// The baseline variant.
    pub baseline: String,
    /// Complete pairs of the variant.
    pub pairs: u64,
    /// Complete pairs of the baseline.
    pub baseline_pairs: u64,
    /// White's score, variant minus baseline.
    pub white_score: Option<Difference>,
    /// Elo of the variant's White score minus Elo of the baseline's.
    pub white_elo_difference: Option<f64>,
    /// Rule-draw rate, variant minus baseline.
    pub draw_rate: Option<Difference>,
    /// Decisive rate, variant minus baseline.
    pub decisive_rate: Option<Difference>,
    /// Mean length in plies, variant minus baseline.
    pub mean_length: Option<Difference>,
    /// Mean captures per game, variant minus baseline.
    pub captures: Option<Difference>,
}

/// The names of the contrast metrics, in report order.
pub const CONTRAST_METRICS: [&str; 5] = [
    "white_score",
    "draw_rate",
    "decisive_rate",
    "mean_length",
    "captures",
];

impl Contrast {
    /// The differences in [`CONTRAST_METRICS`] order.
    pub fn metrics(&self) -> [&Option<Difference>; 5] {
        [
            &self.white_score,
            &self.draw_rate,
            &self.decisive_rate,
            &self.mean_length,
            &self.captures,
        ]
    }

    fn metrics_mut(&mut self) -> [&mut Option<Difference>; 5] {
        [
            &mut self.white_score,
            &mut self.draw_rate,
            &mut self.decisive_rate,
            &mut self.mean_length,
            &mut self.captures,
        ]
    }
}

/// Per-pair values of the contrast metrics ([`CONTRAST_METRICS`] order) over a block's
/// complete pairs.
pub fn contrast_values(pairs: &[PairRecord]) -> [Vec<f64>; 5] {
    let mut out: [Vec<f64>; 5] = Default::default();
    for pair in pairs.iter().filter(|p| p.complete()) {
        let s = pair.sums();
        out[0].push(s[WHITE_POINTS] / 2.0);
        out[1].push(s[RULE_DRAWS] / 2.0);
        out[2].push(s[DECISIVE] / 2.0);
        out[3].push(s[PLIES] / 2.0);
        out[4].push(s[CAPTURES] / 2.0);
    }
    out
}

/// Each variant against `baseline` in each pairing, Holm-corrected per metric over the
/// family of variants (and pairings).
pub fn contrasts(experiment: &Experiment, samples: &Samples, baseline: &str) -> Vec<Contrast> {
    let per_variant = experiment.pairings.len();
    let Some(b) = experiment.variants.iter().position(|v| v == baseline) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (v, variant) in experiment.variants.iter().enumerate() {
        if v == b {
            continue;
        }
        for (p, pairing) in experiment.pairings.iter().enumerate() {
            let block = v * per_variant + p;
            let base = contrast_values(&samples.blocks[b * per_variant + p]);
            let mine = contrast_values(&samples.blocks[block]);
            let seed = Rng::for_stream(experiment.seed ^ PERMUTATION_SALT, block as u64).next_u64();
            let diff = |m: usize| difference(&mine[m], &base[m], seed.wrapping_add(m as u64));
            let mean_of =
                |x: &[f64]| (!x.is_empty()).then(|| x.iter().sum::<f64>() / x.len() as f64);
            let white_elo_difference = match (
                mean_of(&mine[0]).and_then(elo_from_score),
                mean_of(&base[0]).and_then(elo_from_score),
            ) {
                (Some(a), Some(b)) => Some(a - b),
                _ => None,
            };
            out.push(Contrast {
                variant: variant.clone(),
                pairing: pairing.label(),
                baseline: baseline.to_string(),
                pairs: mine[0].len() as u64,
                baseline_pairs: base[0].len() as u64,
                white_score: diff(0),
                white_elo_difference,
                draw_rate: diff(1),
                decisive_rate: diff(2),
                mean_length: diff(3),
                captures: diff(4),
            });
        }
    }
    for m in 0..CONTRAST_METRICS.len() {
        let p: Vec<Option<f64>> = out
            .iter()
            .map(|c| c.metrics()[m].as_ref().map(|d| d.p_value))
            .collect();
        for (c, flag) in out.iter_mut().zip(holm(&p, ALPHA)) {
            if let Some(d) = c.metrics_mut()[m] {
                d.significant_holm = flag;
            }
        }
    }
    out
}
