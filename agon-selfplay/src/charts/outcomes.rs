//! The outcome chart, two panels sharing one row per variant:
//! - left, a stacked bar of White wins, draws and Black wins (shares of the games);
//! - right, White's score with its 95% interval on an axis zoomed to the data, with a
//!   dashed line at 50% (no first-player advantage), and the numbers beside it.
//!
//! Variants are sorted by White's score, highest first.

use super::style::{
    bold, diamond, font, header, left, right, widest, Swatch, ACCENT, AXIS_SIZE, BLACK_WINS, DRAWS,
    HEADER, INK, LABEL_SIZE, WHITE_WINS, WIDTH,
};
use super::{failed, DrawResult, Series};
use crate::stats::Interval;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Height of one bar's row, in pixels.
const ROW: u32 = 60;
/// Half the bar thickness, in rows.
const HALF_BAR: f64 = 0.3;
/// Space under the plots for tick labels and the axis title.
const X_AXIS: u32 = 90;
/// Space above the plots (column headings).
const TOP: u32 = 50;
/// The colour of the 50% line.
pub const EVEN: RGBColor = RGBColor(0, 114, 178);

/// Pixel size of the chart for `n` variants.
pub fn size(n: usize) -> (u32, u32) {
    (WIDTH, HEADER + TOP + ROW * n as u32 + X_AXIS + 10)
}

/// White's score interval: pentanomial when every group has complete pairs, else Wilson.
fn intervals(series: &[&Series]) -> (&'static str, Vec<Option<Interval>>) {
    if series.iter().all(|s| s.group.pairs.interval.is_some()) {
        let i = series.iter().map(|s| s.group.pairs.interval).collect();
        ("pentanomial, over colour-swapped pairs", i)
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
    header(
        &head,
        "Outcomes by rule variant",
        subject,
        &format!(
            "Left: shares of White wins, draws and Black wins. Right: White's score (win 1, \
             draw 1/2) with its 95% interval ({kind})."
        ),
        &[
            (Swatch::Fill(WHITE_WINS), "White wins"),
            (Swatch::Fill(DRAWS), "draws"),
            (Swatch::Fill(BLACK_WINS), "Black wins"),
            (Swatch::Marker(ACCENT), "White's score, 95% interval"),
            (Swatch::Dashed(EVEN), "50%: no first-player advantage"),
        ],
    )?;

    let label_style = font(LABEL_SIZE);
    let label_width = widest(root, labels.iter().cloned(), &label_style)?;
    let heading = "White's score [95%]";
    let value_width = widest(
        root,
        values.iter().cloned().chain([heading.to_string()]),
        &bold(LABEL_SIZE),
    )?;
    let n = order.len() as f64;
    let width = body.dim_in_pixel().0;
    let left_width = label_width + 30 + (width - label_width - value_width) * 11 / 20;
    let (bars_area, score_area) = body.split_horizontally(left_width);

    let mut bars = ChartBuilder::on(&bars_area)
        .margin_top(TOP)
        .margin_bottom(10)
        .margin_left(20)
        .margin_right(50)
        .x_label_area_size(X_AXIS)
        .y_label_area_size(label_width + 30)
        .build_cartesian_2d(0f64..1f64, 0f64..n)
        .map_err(failed)?;
    bars.configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
        .x_desc("share of games")
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(AXIS_SIZE))
        .bold_line_style(RGBColor(225, 225, 225))
        .light_line_style(TRANSPARENT)
        .axis_style(INK.stroke_width(2))
        .draw()
        .map_err(failed)?;
    for (p, s) in order.iter().enumerate() {
        let g = s.group;
        let y = n - p as f64 - 0.5;
        let games = g.games.max(1) as f64;
        let w = g.white_wins as f64 / games;
        let d = g.draws as f64 / games;
        let (y0, y1) = (y - HALF_BAR, y + HALF_BAR);
        let segments = [
            (0.0, w, WHITE_WINS),
            (w, w + d, DRAWS),
            (w + d, 1.0, BLACK_WINS),
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
        let (lx, ly) = bars.backend_coord(&(0.0, y));
        root.draw(&Text::new(
            labels[p].clone(),
            (lx - 14, ly),
            right(font(LABEL_SIZE)),
        ))
        .map_err(failed)?;
    }
    bars.draw_series(DashedLineSeries::new(
        vec![(0.5, 0.0), (0.5, n)],
        12,
        8,
        EVEN.mix(0.6).stroke_width(2),
    ))
    .map_err(failed)?;

    let (lo, hi) = score_range(&order, &intervals);
    let mut scores = ChartBuilder::on(&score_area)
        .margin_top(TOP)
        .margin_bottom(10)
        .margin_left(50)
        .margin_right(value_width + 40)
        .x_label_area_size(X_AXIS)
        .y_label_area_size(0)
        .build_cartesian_2d(lo..hi, 0f64..n)
        .map_err(failed)?;
    scores
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(7)
        .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
        .x_desc("White's score")
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(AXIS_SIZE))
        .bold_line_style(RGBColor(225, 225, 225))
        .light_line_style(TRANSPARENT)
        .axis_style(INK.stroke_width(2))
        .draw()
        .map_err(failed)?;
    scores
        .draw_series(DashedLineSeries::new(
            vec![(0.5, 0.0), (0.5, n)],
            12,
            8,
            EVEN.stroke_width(3),
        ))
        .map_err(failed)?;
    let (rx, top) = scores.backend_coord(&(hi, n));
    root.draw(&Text::new(
        heading.to_string(),
        (rx + 24, top - 22),
        left(bold(LABEL_SIZE)),
    ))
    .map_err(failed)?;
    for (p, s) in order.iter().enumerate() {
        let y = n - p as f64 - 0.5;
        scores
            .draw_series(std::iter::once(PathElement::new(
                vec![(lo, y), (hi, y)],
                RGBColor(235, 235, 235).stroke_width(1),
            )))
            .map_err(failed)?;
        if let Some(i) = intervals[p] {
            let cap = 0.16;
            scores
                .draw_series([
                    PathElement::new(vec![(i.low, y), (i.high, y)], ACCENT.stroke_width(3)),
                    PathElement::new(
                        vec![(i.low, y - cap), (i.low, y + cap)],
                        ACCENT.stroke_width(3),
                    ),
                    PathElement::new(
                        vec![(i.high, y - cap), (i.high, y + cap)],
                        ACCENT.stroke_width(3),
                    ),
                ])
                .map_err(failed)?;
        }
        let centre = scores.backend_coord(&(s.group.white_score.unwrap_or(0.5), y));
        root.draw(&diamond(centre, 12, WHITE)).map_err(failed)?;
        root.draw(&diamond(centre, 9, ACCENT)).map_err(failed)?;
        let (vx, vy) = scores.backend_coord(&(hi, y));
        root.draw(&Text::new(
            values[p].clone(),
            (vx + 24, vy),
            left(font(LABEL_SIZE)),
        ))
        .map_err(failed)?;
    }
    Ok(())
}
