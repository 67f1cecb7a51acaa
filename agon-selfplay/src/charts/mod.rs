//! Charts of a summary, in SVG and PNG, drawn with plotters and the embedded DejaVu Sans
//! font (no system fonts needed):
//! - `outcomes.svg/png`: White wins, draws, ply-limit games and Black wins by variant as
//!   stacked bars,
//!   White's score with its 95% interval, a dashed 50% line, sorted by White's score;
//! - `lengths.svg/png`: game length per variant as box plots, sorted by median;
//! - `contrasts.svg/png` (when the report has a baseline): each variant minus the
//!   baseline in White's score and in the decisive rate, with 95% intervals.

mod axes;
mod contrasts;
pub mod explore;
pub mod ladder;
mod lengths;
mod outcomes;
pub mod panels;
mod style;

use crate::error::{Error, Result};
use crate::sample::Samples;
use crate::store::write_atomically;
use crate::summary::{GroupSummary, Summary, ALL_PAIRINGS};
use plotters::prelude::*;
use std::path::Path;

pub use style::register_fonts;

/// Base names of the charts written next to the games (each as `.svg` and `.png`;
/// `contrasts` only when the report has contrasts with a baseline).
pub const CHARTS: [&str; 3] = ["outcomes", "lengths", "contrasts"];

/// One bar or box of a chart: a group of games and its label.
pub(crate) struct Series<'a> {
    /// The label on the axis.
    pub label: String,
    /// The group's statistics.
    pub group: &'a GroupSummary,
    /// Lengths of its games, sorted.
    pub lengths: Vec<f64>,
}

/// The groups a chart shows: one per variant (and pairing, when a run has one pairing;
/// pooled over pairings when there are several, as in a tournament).
pub(crate) fn series<'a>(summary: &'a Summary, samples: &Samples) -> Vec<Series<'a>> {
    let experiment = &summary.experiment;
    let pooled = experiment.pairings.len() > 1;
    summary
        .groups
        .iter()
        .filter(|g| (g.pairing == ALL_PAIRINGS) == pooled)
        .map(|g| {
            let mut lengths: Vec<f64> = samples
                .blocks
                .iter()
                .enumerate()
                .filter(|(b, _)| {
                    let (variant, pairing) = experiment.block(*b);
                    variant == g.variant && (pooled || pairing.label() == g.pairing)
                })
                .flat_map(|(_, pairs)| pairs.iter().flat_map(|p| p.played()))
                .map(|game| f64::from(game.plies))
                .collect();
            lengths.sort_by(f64::total_cmp);
            Series {
                label: g.variant.clone(),
                group: g,
                lengths,
            }
        })
        .filter(|s| s.group.games > 0)
        .collect()
}

/// What the titles say about the games: agents and games per variant.
pub(crate) fn subject(summary: &Summary) -> String {
    let e = &summary.experiment;
    let per = if e.pairings.len() > 1 {
        "pairing and variant"
    } else {
        "variant"
    };
    let agents: Vec<String> = e
        .pairings
        .iter()
        .map(|p| {
            if p.first == p.second {
                format!("{} playing itself", p.first)
            } else {
                p.label()
            }
        })
        .collect();
    let agents = if agents.len() > 3 {
        let mut names: Vec<&str> = e
            .pairings
            .iter()
            .flat_map(|p| [p.first.as_str(), p.second.as_str()])
            .collect();
        names.sort_unstable();
        names.dedup();
        format!("{} agents in a round robin", names.len())
    } else {
        agents.join(", ")
    };
    format!(
        "{agents}; {} games per {per}, in colour-swapped pairs",
        e.games
    )
}

/// Writes every chart of a summary into `dir` as SVG and PNG. Writes nothing when no game
/// is finished.
pub fn write_charts(dir: &Path, summary: &Summary, samples: &Samples) -> Result<()> {
    register_fonts()?;
    let series = series(summary, samples);
    if series.is_empty() {
        return Ok(());
    }
    let subject = subject(summary);
    let max_plies = f64::from(summary.experiment.max_plies);
    let size = outcomes::size(series.len());
    svg(&dir.join("outcomes.svg"), size, |root| {
        outcomes::draw(root, &series, &subject)
    })?;
    png(&dir.join("outcomes.png"), size, |root| {
        outcomes::draw(root, &series, &subject)
    })?;
    let size = lengths::size(series.len());
    svg(&dir.join("lengths.svg"), size, |root| {
        lengths::draw(root, &series, &subject, max_plies)
    })?;
    png(&dir.join("lengths.png"), size, |root| {
        lengths::draw(root, &series, &subject, max_plies)
    })?;
    // One pairing's contrasts (pooling pairings would mix different agents).
    let first_pairing = summary.experiment.pairings[0].label();
    let contrasts: Vec<&crate::contrasts::Contrast> = summary
        .contrasts
        .iter()
        .filter(|c| c.pairing == first_pairing)
        .collect();
    let (svg_path, png_path) = (dir.join("contrasts.svg"), dir.join("contrasts.png"));
    let Some(baseline) = summary
        .analysis
        .baseline
        .as_deref()
        .filter(|_| !contrasts.is_empty())
    else {
        // A report without contrasts leaves no stale chart behind.
        for path in [svg_path, png_path] {
            if path.exists() {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
            }
        }
        return Ok(());
    };
    let size = contrasts::size(contrasts.len());
    let subject = if summary.experiment.pairings.len() > 1 {
        format!("{subject}; pairing {first_pairing}")
    } else {
        subject
    };
    svg(&svg_path, size, |root| {
        contrasts::draw(root, &contrasts, baseline, &subject)
    })?;
    png(&png_path, size, |root| {
        contrasts::draw(root, &contrasts, baseline, &subject)
    })
}

/// What drawing returns: plotters' errors as text.
pub(crate) type DrawResult = std::result::Result<(), String>;

/// Turns a plotters error into text.
pub(crate) fn failed(e: impl std::fmt::Display) -> String {
    e.to_string()
}

pub(crate) fn svg(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> DrawResult,
) -> Result<()> {
    let text =
        svg_text(size, draw).map_err(|e| Error::Chart(format!("{}: {e}", path.display())))?;
    write_atomically(path, text.as_bytes())
}

/// A chart drawn as SVG text.
pub(crate) fn svg_text(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> DrawResult,
) -> std::result::Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root)?;
        root.present().map_err(failed)?;
    }
    Ok(text)
}

pub(crate) fn png(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>) -> DrawResult,
) -> Result<()> {
    let mut failure = None;
    agon_files::write_file_via_path(path, |temp| {
        let root = BitMapBackend::new(temp, size).into_drawing_area();
        let drawn = draw(&root).and_then(|()| root.present().map_err(failed));
        drawn.map_err(|e| {
            let message = format!("{}: {e}", path.display());
            failure = Some(Error::Chart(message.clone()));
            std::io::Error::other(message)
        })
    })
    .map_err(|e| failure.take().unwrap_or_else(|| Error::io(path, e)))
}
