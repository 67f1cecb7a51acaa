//! The contrast chart: each variant minus the baseline, two panels sharing one row per
//! variant: the difference in White's score and the difference in the decisive rate, each
//! with its 95% interval, a dashed line at 0 (no change), and the numbers beside them.
//! Variants are sorted by the difference in White's score, highest first.

use super::panels::{Heading, Panel, Point};
use super::DrawResult;
use crate::contrasts::Contrast;
use crate::stats::contrast::Difference;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Pixel size of the chart for `n` contrasts.
pub fn size(n: usize) -> (u32, u32) {
    super::panels::size(n)
}

/// `+1.2  [-0.8, +3.1]` in points.
fn label(d: Option<&Difference>) -> String {
    let signed = |x: f64| crate::table::signed_fixed(x * 100.0, 1);
    match d {
        Some(d) => match d.interval {
            Some(i) => format!(
                "{}  [{}, {}]",
                signed(d.difference),
                signed(i.low),
                signed(i.high)
            ),
            None => signed(d.difference),
        },
        None => "-".into(),
    }
}

/// Draws the chart.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    contrasts: &[&Contrast],
    baseline: &str,
    subject: &str,
) -> DrawResult {
    let mut order: Vec<&Contrast> = contrasts.to_vec();
    let score = |c: &Contrast| c.white_score.as_ref().map_or(0.0, |d| d.difference);
    order.sort_by(|a, b| {
        score(b)
            .total_cmp(&score(a))
            .then(a.variant.cmp(&b.variant))
    });
    let labels: Vec<String> = order.iter().map(|c| c.variant.clone()).collect();
    let points = |x: &f64| crate::table::fixed(x * 100.0, 0);
    let panel = |title: &str, differences: Vec<Option<&Difference>>| Panel {
        heading: title.to_string(),
        axis: format!("difference in {title} (points)"),
        points: differences
            .iter()
            .map(|d| {
                d.map(|d| Point {
                    value: d.difference,
                    interval: d.interval,
                })
            })
            .collect(),
        texts: differences.iter().map(|d| label(*d)).collect(),
        references: vec![0.0],
        range: None,
        ticks: &points,
    };
    let panels = [
        panel(
            "White's score",
            order.iter().map(|c| c.white_score.as_ref()).collect(),
        ),
        panel(
            "decisive games",
            order.iter().map(|c| c.decisive_rate.as_ref()).collect(),
        ),
    ];
    let title = format!("Each variant against {baseline}");
    super::panels::draw(
        root,
        &Heading {
            title: &title,
            subject,
            explanation: "Difference from the baseline in points, per colour-swapped pair, \
                          with its 95% interval (Welch); 0: no change.",
            legend: ["difference, 95% interval", "0: same as the baseline"],
        },
        &labels,
        &panels,
    )
}
