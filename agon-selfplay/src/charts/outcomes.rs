//! The outcome chart, two panels sharing one row per variant:
//! - left, a stacked bar of White wins, draws and Black wins (shares of the games);
//! - right, White's score with its 95% interval on an axis zoomed to the data, with a
//!   dashed line at 50% (no first-player advantage), and the numbers beside it.
//!
//! Variants are sorted by White's score, highest first.

use super::axes::{
    category_label, interval_bar, marker, reference_line, row_chart, row_guide, row_y, value_label,
    Frame, ROW, X_AXIS,
};
use super::style::ADJUDICATED;
use super::style::{
    bold, header, left, widest, Swatch, ACCENT, BLACK_WINS, DRAWS, HEADER, INK, LABEL_SIZE,
    UNDECIDED, WHITE_WINS, WIDTH,
};
use super::{failed, DrawResult, Series};
use crate::stats::Interval;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Half the bar thickness, in rows.
const HALF_BAR: f64 = 0.3;
/// Space above the plots (column headings).
const TOP: u32 = 50;
/// The colour of the 50% line.
pub const EVEN: RGBColor = RGBColor(0, 114, 178);

/// Pixel size of the chart for `n` variants.
pub fn size(n: usize) -> (u32, u32) {
    (WIDTH, HEADER + TOP + ROW * n as u32 + X_AXIS + 10)
}

/// White's score interval: over pairs when every group has complete pairs, else Wilson.
fn intervals(series: &[&Series]) -> (&'static str, Vec<Option<Interval>>) {
    if series.iter().all(|s| s.group.pairs.interval.is_some()) {
        let i = series.iter().map(|s| s.group.pairs.interval).collect();
        ("over colour-swapped pairs", i)
    } else {
        let i = series.iter().map(|s| s.group.white_score_wilson).collect();
        ("Wilson", i)
    }
}

/// The zoomed score axis: the intervals and 50%, padded, on whole percents.
fn score_range(series: &[&Series], intervals: &[Option<Interval>]) -> (f64, f64) {
    let mut lo: f64 = 0.5;
    let mut hi: f64 = 0.5;
    for (s, i) in series.iter().zip(intervals) {
        let score = s.group.white_score.unwrap_or(0.5);
        lo = lo.min(score).min(i.map_or(score, |i| i.low));
        hi = hi.max(score).max(i.map_or(score, |i| i.high));
    }
    let pad = ((hi - lo) * 0.08).max(0.01);
    let lo = ((lo - pad) * 100.0).floor() / 100.0;
    let hi = ((hi + pad) * 100.0).ceil() / 100.0;
    (lo.max(0.0), hi.min(1.0))
}

/// Draws the chart.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    subject: &str,
) -> DrawResult {
    root.fill(&WHITE).map_err(failed)?;
    let mut order: Vec<&Series> = series.iter().collect();
    order.sort_by(|a, b| {
        let score = |s: &Series| s.group.white_score.unwrap_or(0.5);
        score(b).total_cmp(&score(a)).then(a.label.cmp(&b.label))
    });
    let (kind, intervals) = intervals(&order);
    let counts_differ = order
        .windows(2)
        .any(|w| w[0].group.games != w[1].group.games);
    let labels: Vec<String> = order
        .iter()
        .map(|s| {
            if counts_differ {
                format!("{} (n={})", s.label, s.group.games)
            } else {
                s.label.clone()
            }
        })
        .collect();
    let values: Vec<String> = order
        .iter()
        .zip(&intervals)
        .map(|(s, i)| {
            let score = s.group.white_score.unwrap_or(0.5) * 100.0;
            match i {
                Some(i) => format!("{score:.1}%  [{:.1}, {:.1}]", i.low * 100.0, i.high * 100.0),
                None => format!("{score:.1}%"),
            }
        })
        .collect();

    let (head, body) = root.split_vertically(HEADER);
    // Adjudicated draws get a segment (and a legend entry) only when there are some.
    let adjudicated = order.iter().any(|s| s.group.adjudicated_draws > 0);
    let legend: Vec<(Swatch, &str)> = [
        (Swatch::Fill(WHITE_WINS), "White wins"),
        (Swatch::Fill(DRAWS), "draws"),
        (Swatch::Fill(ADJUDICATED), "adjudicated draws"),
        (Swatch::Fill(UNDECIDED), "ply limit"),
        (Swatch::Fill(BLACK_WINS), "Black wins"),
        (Swatch::Marker(ACCENT), "White's score, 95% interval"),
        (Swatch::Dashed(EVEN), "50%: no first-player advantage"),
    ]
    .into_iter()
    .filter(|(_, text)| adjudicated || *text != "adjudicated draws")
    .collect();
    header(
        &head,
        "Outcomes by rule variant",
        subject,
        &format!(
            "Left: shares of the games. Right: White's score (win 1, draw or ply limit 1/2) \
             with its 95% interval ({kind})."
        ),
        &legend,
    )?;

    let label_width = widest(
        root,
        labels.iter().cloned(),
        &super::style::font(LABEL_SIZE),
    )?;
    let heading = "White's score [95%]";
    let value_width = widest(
        root,
        values.iter().cloned().chain([heading.to_string()]),
        &bold(LABEL_SIZE),
    )?;
    let rows = order.len();
    let width = body.dim_in_pixel().0;
    let left_width = label_width + 30 + (width - label_width - value_width) * 11 / 20;
    let (bars_area, score_area) = body.split_horizontally(left_width);

    let frame = Frame {
        top: TOP,
        left: label_width + 30,
        right: 50,
    };
    let percent = |x: &f64| format!("{:.0}%", x * 100.0);
    let mut bars = row_chart(
        &bars_area,
        &frame,
        0f64..1f64,
        rows,
        6,
        &percent,
        "share of games",
    )?;
    for (p, s) in order.iter().enumerate() {
        let g = s.group;
        let y = row_y(rows, p);
        let games = g.games.max(1) as f64;
        let w = g.white_wins as f64 / games;
        let d = g.draws as f64 / games;
        let u = g.undecided as f64 / games;
        let a = g.adjudicated_draws as f64 / games;
        let (y0, y1) = (y - HALF_BAR, y + HALF_BAR);
        let segments = [
            (0.0, w, WHITE_WINS),
            (w, w + d, DRAWS),
            (w + d, w + d + a, ADJUDICATED),
            (w + d + a, w + d + a + u, UNDECIDED),
            (w + d + a + u, 1.0, BLACK_WINS),
        ];
        bars.draw_series(
            segments
                .iter()
                .filter(|(a, b, _)| b > a)
                .map(|&(a, b, c)| Rectangle::new([(a, y0), (b, y1)], c.filled())),
        )
        .map_err(failed)?;
        bars.draw_series(std::iter::once(Rectangle::new(
            [(0.0, y0), (1.0, y1)],
            INK.stroke_width(1),
        )))
        .map_err(failed)?;
        category_label(root, &bars, y, &labels[p])?;
    }
    reference_line(&mut bars, 0.5, EVEN.mix(0.6).stroke_width(2))?;

    let (lo, hi) = score_range(&order, &intervals);
    let frame = Frame {
        top: TOP,
        left: 0,
        right: value_width + 40,
    };
    let mut scores = row_chart(
        &score_area,
        &frame,
        lo..hi,
        rows,
        7,
        &percent,
        "White's score",
    )?;
    reference_line(&mut scores, 0.5, EVEN.stroke_width(3))?;
    let (rx, top) = scores.backend_coord(&(hi, rows as f64));
    root.draw(&Text::new(
        heading.to_string(),
        (rx + 24, top - 22),
        left(bold(LABEL_SIZE)),
    ))
    .map_err(failed)?;
    for (p, s) in order.iter().enumerate() {
        let y = row_y(rows, p);
        row_guide(&mut scores, y)?;
        if let Some(i) = intervals[p] {
            interval_bar(&mut scores, i.low, i.high, y)?;
        }
        marker(root, &scores, s.group.white_score.unwrap_or(0.5), y, 9)?;
        value_label(root, &scores, y, 24, &values[p])?;
    }
    Ok(())
}
