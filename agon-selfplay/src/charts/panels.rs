//! Charts of estimates with intervals in side-by-side panels that share one row per
//! category: a header, the category labels on the left, and in each panel a dashed
//! reference line, each row's interval and point, and its numbers on the right. The
//! contrast chart, the exploration's ranking and switch-effect charts and the ladder chart
//! are all such charts; they differ only in what their panels hold.

use super::axes::{
    category_label, interval_bar, marker, reference_line, row_chart, row_guide, row_y, value_label,
    Frame, ROW, X_AXIS,
};
use super::outcomes::EVEN;
use super::style::{bold, font, header, left, widest, Swatch, ACCENT, HEADER, LABEL_SIZE, WIDTH};
use super::{failed, DrawResult};
use crate::stats::Interval;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Space above the plots (panel headings).
const TOP: u32 = 50;

/// A point estimate with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The estimate.
    pub value: f64,
    /// Its interval, if any.
    pub interval: Option<Interval>,
}

/// One panel: a heading, an axis, a value per row.
pub struct Panel<'a> {
    /// The heading above the panel.
    pub heading: String,
    /// The axis title under it.
    pub axis: String,
    /// One point per row (`None`: nothing drawn, `-` written).
    pub points: Vec<Option<Point>>,
    /// The text right of each row.
    pub texts: Vec<String>,
    /// Dashed reference lines: the first in the reference colour, the others lighter.
    pub references: Vec<f64>,
    /// The axis range (`None`: the references and every interval, padded).
    pub range: Option<(f64, f64)>,
    /// Writes a tick label.
    pub ticks: &'a dyn Fn(&f64) -> String,
}

/// What the header says.
pub struct Heading<'a> {
    /// The title.
    pub title: &'a str,
    /// The subject line (agents and games).
    pub subject: &'a str,
    /// The line that explains the marks.
    pub explanation: &'a str,
    /// What the marker stands for, and what the reference line means.
    pub legend: [&'a str; 2],
}

/// Pixel size of a chart of `rows` rows.
pub fn size(rows: usize) -> (u32, u32) {
    (WIDTH, HEADER + TOP + ROW * rows as u32 + X_AXIS + 10)
}

/// The axis of a panel: its references and every point and interval, padded, on
/// whole hundredths.
fn auto_range(panel: &Panel) -> (f64, f64) {
    let mut lo = panel
        .references
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let mut hi = panel
        .references
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    for p in panel.points.iter().flatten() {
        let (a, b) = p.interval.map_or((p.value, p.value), |i| (i.low, i.high));
        lo = lo.min(a).min(p.value);
        hi = hi.max(b).max(p.value);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(0.01);
    (
        ((lo - pad) * 100.0).floor() / 100.0,
        ((hi + pad) * 100.0).ceil() / 100.0,
    )
}

/// Draws the chart: `labels` name the rows (top first), each panel holds a value per row.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heading: &Heading,
    labels: &[String],
    panels: &[Panel],
) -> DrawResult {
    root.fill(&WHITE).map_err(failed)?;
    let (head, body) = root.split_vertically(HEADER);
    header(
        &head,
        heading.title,
        heading.subject,
        heading.explanation,
        &[
            (Swatch::Marker(ACCENT), heading.legend[0]),
            (Swatch::Dashed(EVEN), heading.legend[1]),
        ],
    )?;
    let label_width = widest(root, labels.iter().cloned(), &font(LABEL_SIZE))?;
    let value_width = widest(
        root,
        panels.iter().flat_map(|p| p.texts.iter().cloned()),
        &font(LABEL_SIZE),
    )?;
    let rows = labels.len();
    let n = panels.len().max(1) as u32;
    let width = body.dim_in_pixel().0;
    let fixed = label_width + 30 + n * (value_width + 40) + (n - 1) * 20;
    let plot = width.saturating_sub(fixed) / n;
    let mut rest = body;
    for (k, panel) in panels.iter().enumerate() {
        let left_room = if k == 0 { label_width + 30 } else { 20 };
        let area = if k + 1 < panels.len() {
            let (area, others) = rest.split_horizontally(left_room + plot + value_width + 40);
            rest = others;
            area
        } else {
            rest.clone()
        };
        let frame = Frame {
            top: TOP,
            left: left_room,
            right: value_width + 40,
        };
        let (lo, hi) = panel.range.unwrap_or_else(|| auto_range(panel));
        // About one tick label per 130 pixels of plot.
        let ticks = (plot as usize / 130).clamp(3, 8);
        let mut chart = row_chart(&area, &frame, lo..hi, rows, ticks, panel.ticks, &panel.axis)?;
        for (r, &x) in panel.references.iter().enumerate() {
            let style = if r == 0 {
                EVEN.stroke_width(3)
            } else {
                EVEN.mix(0.45).stroke_width(2)
            };
            reference_line(&mut chart, x, style)?;
        }
        let (x, top) = chart.backend_coord(&(lo, rows as f64));
        root.draw(&Text::new(
            panel.heading.clone(),
            (x, top - 22),
            left(bold(LABEL_SIZE)),
        ))
        .map_err(failed)?;
        for (p, point) in panel.points.iter().enumerate() {
            let y = row_y(rows, p);
            row_guide(&mut chart, y)?;
            if k == 0 {
                category_label(root, &chart, y, &labels[p])?;
            }
            if let Some(point) = point {
                if let Some(i) = point.interval {
                    interval_bar(&mut chart, i.low.max(lo), i.high.min(hi), y)?;
                }
                marker(root, &chart, point.value, y, 9)?;
            }
            let text = panel.texts.get(p).map_or("-", String::as_str);
            value_label(root, &chart, y, 24, text)?;
        }
    }
    Ok(())
}
