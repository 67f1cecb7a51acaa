//! The game-length chart: one horizontal box plot per variant (quartiles, median, mean,
//! Tukey whiskers, the other games as dots), sorted by median length, longest first.

use super::axes::{
    category_label, marker, reference_line, row_chart, row_y, value_label, Frame, ROW,
};
use super::outcomes::EVEN;
use super::style::{font, header, widest, Swatch, ACCENT, BOX, HEADER, INK, LABEL_SIZE, WIDTH};
use super::{failed, DrawResult, Series};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Half the box thickness, in rows.
const HALF_BOX: f64 = 0.3;

/// Pixel size of the chart for `n` variants.
pub fn size(n: usize) -> (u32, u32) {
    (WIDTH, HEADER + 30 + ROW * n as u32 + 100)
}

/// Draws the chart. `max_plies` is the ply limit, drawn when some game reached it.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    subject: &str,
    max_plies: f64,
) -> DrawResult {
    root.fill(&WHITE).map_err(failed)?;
    let mut order: Vec<&Series> = series.iter().collect();
    let median = |s: &Series| s.group.length.median.unwrap_or(0.0);
    order.sort_by(|a, b| median(b).total_cmp(&median(a)).then(a.label.cmp(&b.label)));
    let longest = order
        .iter()
        .filter_map(|s| s.lengths.last().copied())
        .fold(1.0, f64::max);
    let limit_reached = longest >= max_plies;
    let x_max = longest * 1.04;
    let values: Vec<String> = order
        .iter()
        .map(|s| {
            format!(
                "median {:.0}, mean {:.0}",
                median(s),
                s.group.length.mean.unwrap_or(0.0)
            )
        })
        .collect();

    let (head, body) = root.split_vertically(HEADER);
    let mut legend = vec![
        (Swatch::Fill(BOX), "middle half of the games"),
        (Swatch::Marker(ACCENT), "mean"),
    ];
    if limit_reached {
        legend.push((Swatch::Dashed(EVEN), "ply limit (adjudicated draw)"));
    }
    header(
        &head,
        "Game length by rule variant",
        subject,
        "Box: quartiles; black bar: median; whiskers: farthest games within 1.5 box lengths; \
         dots: the games beyond.",
        &legend,
    )?;

    let label_style = font(LABEL_SIZE);
    let label_width = widest(root, order.iter().map(|s| s.label.clone()), &label_style)?;
    let value_width = widest(root, values.iter().cloned(), &label_style)?;
    let rows = order.len();
    let frame = Frame {
        top: 20,
        left: label_width + 30,
        right: value_width + 40,
    };
    let mut chart = row_chart(
        &body,
        &frame,
        0f64..x_max,
        rows,
        10,
        &|x| format!("{x:.0}"),
        "plies per game",
    )?;
    if limit_reached {
        reference_line(&mut chart, max_plies, EVEN.stroke_width(3))?;
    }

    for (p, s) in order.iter().enumerate() {
        let y = row_y(rows, p);
        let l = &s.group.length;
        let (Some(q1), Some(q2), Some(q3)) = (l.q1, l.median, l.q3) else {
            continue;
        };
        let reach = 1.5 * (q3 - q1);
        let inside = |x: &&f64| **x >= q1 - reach && **x <= q3 + reach;
        let low = s.lengths.iter().find(inside).copied().unwrap_or(q1);
        let high = s.lengths.iter().rev().find(inside).copied().unwrap_or(q3);
        let cap = HALF_BOX * 0.6;
        chart
            .draw_series([
                PathElement::new(vec![(low, y), (q1, y)], INK.stroke_width(2)),
                PathElement::new(vec![(q3, y), (high, y)], INK.stroke_width(2)),
                PathElement::new(vec![(low, y - cap), (low, y + cap)], INK.stroke_width(2)),
                PathElement::new(vec![(high, y - cap), (high, y + cap)], INK.stroke_width(2)),
            ])
            .map_err(failed)?;
        chart
            .draw_series([
                Rectangle::new([(q1, y - HALF_BOX), (q3, y + HALF_BOX)], BOX.filled()),
                Rectangle::new(
                    [(q1, y - HALF_BOX), (q3, y + HALF_BOX)],
                    INK.stroke_width(2),
                ),
            ])
            .map_err(failed)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(q2, y - HALF_BOX), (q2, y + HALF_BOX)],
                INK.stroke_width(5),
            )))
            .map_err(failed)?;
        chart
            .draw_series(
                s.lengths
                    .iter()
                    .filter(|x| !inside(x))
                    .map(|&x| Circle::new((x, y), 4, INK.mix(0.45).filled())),
            )
            .map_err(failed)?;
        if let Some(mean) = l.mean {
            marker(root, &chart, mean, y, 8)?;
        }
        category_label(root, &chart, y, &s.label)?;
        value_label(root, &chart, y, 18, &values[p])?;
    }
    Ok(())
}
