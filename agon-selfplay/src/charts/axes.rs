//! The pieces every chart of rows shares, in one place: a horizontal value axis over one
//! row per category (grid, tick labels, axis title), the category labels on the left, the
//! value labels on the right, dashed reference lines, interval bars and point markers.
//! Charts differ only in what they draw inside the rows.

use super::style::{diamond, font, left, right, ACCENT, AXIS_SIZE, INK, LABEL_SIZE};
use super::{failed, DrawResult};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A chart with a continuous x axis and one row per category on y (`0..rows`, the first
/// category at the top).
pub type RowChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Height of one row, in pixels.
pub const ROW: u32 = 60;
/// Space under the plot for tick labels and the axis title.
pub const X_AXIS: u32 = 90;

/// Where a row chart sits in its area.
pub struct Frame {
    /// Space above the plot.
    pub top: u32,
    /// Space left of the plot (the category labels go there).
    pub left: u32,
    /// Space right of the plot (value labels go there).
    pub right: u32,
}

/// Builds a row chart over `x` with `rows` rows and draws its axis: light vertical grid
/// lines, `ticks` tick labels written by `label`, the axis title `title`, no y ticks.
pub fn row_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    frame: &Frame,
    x: std::ops::Range<f64>,
    rows: usize,
    ticks: usize,
    label: &dyn Fn(&f64) -> String,
    title: &str,
) -> Result<RowChart<'a, DB>, String> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(frame.top)
        .margin_bottom(10)
        .margin_left(20)
        .margin_right(frame.right)
        .x_label_area_size(X_AXIS)
        .y_label_area_size(frame.left)
        .build_cartesian_2d(x, 0f64..rows as f64)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(ticks)
        .x_label_formatter(label)
        .x_desc(title)
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(AXIS_SIZE))
        .bold_line_style(RGBColor(225, 225, 225))
        .light_line_style(TRANSPARENT)
        .axis_style(INK.stroke_width(2))
        .draw()
        .map_err(failed)?;
    Ok(chart)
}

/// The y coordinate of the middle of row `p` (0 at the top) of `rows`.
pub fn row_y(rows: usize, p: usize) -> f64 {
    rows as f64 - p as f64 - 0.5
}

/// Writes a category label right-aligned just left of the plot, on row `y`.
pub fn category_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &RowChart<DB>,
    y: f64,
    text: &str,
) -> DrawResult {
    let x0 = chart.x_range().start;
    let (x, y) = chart.backend_coord(&(x0, y));
    root.draw(&Text::new(
        text.to_string(),
        (x - 14, y),
        right(font(LABEL_SIZE)),
    ))
    .map_err(failed)
}

/// Writes a value label left-aligned `gap` pixels right of the plot, on row `y`.
pub fn value_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &RowChart<DB>,
    y: f64,
    gap: i32,
    text: &str,
) -> DrawResult {
    let x1 = chart.x_range().end;
    let (x, y) = chart.backend_coord(&(x1, y));
    root.draw(&Text::new(
        text.to_string(),
        (x + gap, y),
        left(font(LABEL_SIZE)),
    ))
    .map_err(failed)
}

/// A dashed vertical line at `x` across all rows.
pub fn reference_line<DB: DrawingBackend>(
    chart: &mut RowChart<DB>,
    x: f64,
    style: ShapeStyle,
) -> DrawResult {
    let rows = chart.y_range().end;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(x, 0.0), (x, rows)],
            12,
            8,
            style,
        ))
        .map(|_| ())
        .map_err(failed)
}

/// A thin horizontal guide across row `y`.
pub fn row_guide<DB: DrawingBackend>(chart: &mut RowChart<DB>, y: f64) -> DrawResult {
    let range = chart.x_range();
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(range.start, y), (range.end, y)],
            RGBColor(235, 235, 235).stroke_width(1),
        )))
        .map(|_| ())
        .map_err(failed)
}

/// An interval as a bar with end caps on row `y`.
pub fn interval_bar<DB: DrawingBackend>(
    chart: &mut RowChart<DB>,
    low: f64,
    high: f64,
    y: f64,
) -> DrawResult {
    let cap = 0.16;
    let style = ACCENT.stroke_width(3);
    chart
        .draw_series([
            PathElement::new(vec![(low, y), (high, y)], style),
            PathElement::new(vec![(low, y - cap), (low, y + cap)], style),
            PathElement::new(vec![(high, y - cap), (high, y + cap)], style),
        ])
        .map(|_| ())
        .map_err(failed)
}

/// A point estimate: an accent diamond with a white rim, at `(x, y)`.
pub fn marker<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &RowChart<DB>,
    x: f64,
    y: f64,
    radius: i32,
) -> DrawResult {
    let centre = chart.backend_coord(&(x, y));
    root.draw(&diamond(centre, radius + 3, WHITE))
        .map_err(failed)?;
    root.draw(&diamond(centre, radius, ACCENT)).map_err(failed)
}
