//! The ladder chart of one rule set: one row per step (a level against the level below),
//! the stronger agent's score with its 95% interval over colour-swapped pairs, dashed
//! lines at 50% (no gain) and 55% (the score a significant step needs).

use super::panels::{draw, size, Heading, Panel, Point};
use super::{failed, DrawResult};
use crate::error::{Error, Result};
use crate::ladder::{Ladder, SIGNIFICANT_SCORE};
use plotters::prelude::*;
use std::path::Path;

/// Pixel size of the chart of a ladder of `steps` steps.
pub fn chart_size(steps: usize) -> (u32, u32) {
    size(steps)
}

fn budget(spec: &str) -> String {
    spec.split_once(':')
        .map_or(spec, |(_, options)| options)
        .split(',')
        .find(|o| {
            ["playouts=", "nodes=", "depth="]
                .iter()
                .any(|k| o.starts_with(k))
        })
        .unwrap_or(spec)
        .to_string()
}

/// Draws the chart of `ladder`.
pub fn draw_ladder<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    ladder: &Ladder,
    subject: &str,
) -> DrawResult {
    let labels: Vec<String> = ladder
        .steps
        .iter()
        .map(|s| format!("{} vs {}", budget(&s.stronger), budget(&s.weaker)))
        .collect();
    let percent = |x: &f64| format!("{:.0}%", x * 100.0);
    let panel = Panel {
        heading: "score of the stronger level".into(),
        axis: "score of the level with twice the budget".into(),
        points: ladder
            .steps
            .iter()
            .map(|s| {
                s.score.map(|value| Point {
                    value,
                    interval: s.interval,
                })
            })
            .collect(),
        texts: ladder
            .steps
            .iter()
            .map(|s| {
                let mark = if s.significant { "  step" } else { "" };
                match (s.score, s.interval) {
                    (Some(v), Some(i)) => format!(
                        "{:.1}%  [{:.1}, {:.1}]{mark}",
                        v * 100.0,
                        i.low * 100.0,
                        i.high * 100.0
                    ),
                    (Some(v), None) => format!("{:.1}%{mark}", v * 100.0),
                    _ => "-".into(),
                }
            })
            .collect(),
        references: vec![0.5, SIGNIFICANT_SCORE],
        range: None,
        ticks: &percent,
    };
    let title = format!("Skill ladder of {}: depth {}", ladder.variant, ladder.depth);
    draw(
        root,
        &Heading {
            title: &title,
            subject,
            explanation: "Each level doubles the search budget of the one below and plays it \
                          in colour-swapped pairs; a step counts when the stronger scores at \
                          least 55% and its 95% interval lies above 50%.",
            legend: ["score, 95% interval", "50%: no gain; 55%: a step"],
        },
        &labels,
        &[panel],
    )
}

/// The chart as SVG text (for the exploration's page).
pub fn ladder_svg(ladder: &Ladder, subject: &str) -> Result<String> {
    super::register_fonts()?;
    super::svg_text(chart_size(ladder.steps.len()), |root| {
        draw_ladder(root, ladder, subject)
    })
    .map_err(|e| Error::Chart(format!("ladder of {}: {e}", ladder.variant)))
}

/// Writes `ladder-SLUG.svg` and `ladder-SLUG.png` into `dir`.
pub fn write_ladder(dir: &Path, ladder: &Ladder, subject: &str) -> Result<()> {
    super::register_fonts()?;
    let name = format!("ladder-{}", crate::ladder::slug(&ladder.variant));
    let size = chart_size(ladder.steps.len());
    super::svg(&dir.join(format!("{name}.svg")), size, |root| {
        draw_ladder(root, ladder, subject)
    })?;
    super::png(&dir.join(format!("{name}.png")), size, |root| {
        draw_ladder(root, ladder, subject).map_err(failed)
    })
}
