//! The contrast chart: each variant minus the baseline, two panels sharing one row per
//! variant: the difference in White's score and the difference in the decisive rate, each
//! with its 95% interval, a dashed line at 0 (no change), and the numbers beside them.
//! Variants are sorted by the difference in White's score, highest first.

use super::axes::{
    category_label, interval_bar, marker, reference_line, row_chart, row_guide, row_y, value_label,
    Frame, ROW, X_AXIS,
};
use super::outcomes::EVEN;
use super::style::{bold, font, header, left, widest, Swatch, ACCENT, HEADER, LABEL_SIZE, WIDTH};
use super::{failed, DrawResult};
use crate::contrasts::Contrast;
use crate::stats::contrast::Difference;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Space above the plots (panel headings).
const TOP: u32 = 50;

/// Pixel size of the chart for `n` contrasts.
pub fn size(n: usize) -> (u32, u32) {
    (WIDTH, HEADER + TOP + ROW * n as u32 + X_AXIS + 10)
}

/// The axis of a panel: 0 and every interval, padded, on whole points.
fn range(differences: &[Option<&Difference>]) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for d in differences.iter().flatten() {
        let (a, b) = d
            .interval
            .map_or((d.difference, d.difference), |i| (i.low, i.high));
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let pad = ((hi - lo) * 0.08).max(0.01);
    (
        ((lo - pad) * 100.0).floor() / 100.0,
        ((hi + pad) * 100.0).ceil() / 100.0,
    )
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
    root.fill(&WHITE).map_err(failed)?;
    let mut order: Vec<&Contrast> = contrasts.to_vec();
    let score = |c: &Contrast| c.white_score.as_ref().map_or(0.0, |d| d.difference);
    order.sort_by(|a, b| {
        score(b)
            .total_cmp(&score(a))
            .then(a.variant.cmp(&b.variant))
    });
    let (head, body) = root.split_vertically(HEADER);
    header(
        &head,
        &format!("Each variant against {baseline}"),
        subject,
        "Difference from the baseline in points, per colour-swapped pair, with its 95% \
         interval (Welch); 0: no change.",
        &[
            (Swatch::Marker(ACCENT), "difference, 95% interval"),
            (Swatch::Dashed(EVEN), "0: same as the baseline"),
        ],
    )?;
    let labels: Vec<String> = order.iter().map(|c| c.variant.clone()).collect();
    let panels: [(&str, Vec<Option<&Difference>>); 2] = [
        (
            "White's score",
            order.iter().map(|c| c.white_score.as_ref()).collect(),
        ),
        (
            "decisive games",
            order.iter().map(|c| c.decisive_rate.as_ref()).collect(),
        ),
    ];
    let texts: Vec<Vec<String>> = panels
        .iter()
        .map(|(_, ds)| ds.iter().map(|d| label(*d)).collect())
        .collect();
    let label_width = widest(root, labels.iter().cloned(), &font(LABEL_SIZE))?;
    let value_width = widest(root, texts.iter().flatten().cloned(), &font(LABEL_SIZE))?;
    let rows = order.len();
    let width = body.dim_in_pixel().0;
    let split = label_width + 30 + (width - label_width - 2 * value_width) / 2 + value_width;
    let (left_area, right_area) = body.split_horizontally(split);
    let points = |x: &f64| crate::table::fixed(x * 100.0, 0);
    for (k, (area, (title, differences))) in [left_area, right_area].iter().zip(&panels).enumerate()
    {
        let frame = Frame {
            top: TOP,
            left: if k == 0 { label_width + 30 } else { 20 },
            right: value_width + 40,
        };
        let (lo, hi) = range(differences);
        let mut chart = row_chart(
            area,
            &frame,
            lo..hi,
            rows,
            7,
            &points,
            &format!("difference in {title} (points)"),
        )?;
        reference_line(&mut chart, 0.0, EVEN.stroke_width(3))?;
        let (x, top) = chart.backend_coord(&(lo, rows as f64));
        root.draw(&Text::new(
            title.to_string(),
            (x, top - 22),
            left(bold(LABEL_SIZE)),
        ))
        .map_err(failed)?;
        for (p, d) in differences.iter().enumerate() {
            let y = row_y(rows, p);
            row_guide(&mut chart, y)?;
            if k == 0 {
                category_label(root, &chart, y, &labels[p])?;
            }
            let Some(d) = d else { continue };
            if let Some(i) = d.interval {
                interval_bar(&mut chart, i.low, i.high, y)?;
            }
            marker(root, &chart, d.difference, y, 9)?;
            value_label(root, &chart, y, 24, &texts[k][p])?;
        }
    }
    Ok(())
}
