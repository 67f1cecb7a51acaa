//! The effect of each switch: for each value of a switch that varies in the family, the
//! difference it makes against the switch's first value, with the other switches held
//! fixed, averaged over every combination of them (the main effect of a factorial
//! design, [`crate::stats::contrast::stratified_difference`]), in White's score, the
//! decisive rate and the mean length, per colour-swapped pair.

use super::family::Family;
use crate::contrasts::contrast_values;
use crate::sample::PairRecord;
use crate::stats::contrast::{stratified_difference, StratifiedDifference};
use serde::Serialize;

/// One value of a switch against the switch's reference value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwitchEffect {
    /// The switch.
    pub switch: String,
    /// The value.
    pub value: String,
    /// The reference value (the first value of the switch in the family).
    pub reference: String,
    /// White's score, value minus reference (share of points).
    pub white_score: Option<StratifiedDifference>,
    /// The decisive rate, value minus reference.
    pub decisive_rate: Option<StratifiedDifference>,
    /// The mean length in plies, value minus reference.
    pub mean_length: Option<StratifiedDifference>,
}

impl SwitchEffect {
    /// `switch=value`.
    pub fn label(&self) -> String {
        format!("{}={}", self.switch, self.value)
    }
}

/// Indices of the [`contrast_values`] metrics used here.
const WHITE_SCORE: usize = 0;
const DECISIVE: usize = 2;
const LENGTH: usize = 3;

/// The effects of every value of every switch that varies, against its first value.
/// `pairs[b]` holds the pairs of rule set `b` of `rule_sets` (the family's order).
pub fn switch_effects(
    family: &Family,
    rule_sets: &[String],
    pairs: &[&[PairRecord]],
) -> Vec<SwitchEffect> {
    let values: Vec<Vec<(String, String)>> =
        rule_sets.iter().map(|r| family.values_of(r)).collect();
    let metrics: Vec<[Vec<f64>; 5]> = pairs.iter().map(|p| contrast_values(p)).collect();
    let mut out = Vec::new();
    for factor in family.factors() {
        let reference = &factor.values[0];
        for value in &factor.values[1..] {
            // Strata: each rule set with `value`, matched with the rule set that differs
            // from it in this switch alone, set to `reference`.
            let mut strata: Vec<(usize, usize)> = Vec::new();
            for (b, v) in values.iter().enumerate() {
                if !v.contains(&(factor.switch.clone(), value.clone())) {
                    continue;
                }
                let partner = values.iter().position(|w| {
                    w.iter().zip(v).all(|(a, c)| {
                        if a.0 == factor.switch {
                            &a.1 == reference
                        } else {
                            a == c
                        }
                    })
                });
                if let Some(r) = partner {
                    strata.push((b, r));
                }
            }
            let effect = |m: usize| {
                let pairs: Vec<(&[f64], &[f64])> = strata
                    .iter()
                    .map(|&(b, r)| (metrics[b][m].as_slice(), metrics[r][m].as_slice()))
                    .collect();
                stratified_difference(&pairs)
            };
            out.push(SwitchEffect {
                switch: factor.switch.clone(),
                value: value.clone(),
                reference: reference.clone(),
                white_score: effect(WHITE_SCORE),
                decisive_rate: effect(DECISIVE),
                mean_length: effect(LENGTH),
            });
        }
    }
    out
}
