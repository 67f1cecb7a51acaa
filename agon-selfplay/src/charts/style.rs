//! Fonts, colours, sizes and the shared header (title, subtitle, legend) of the charts.

use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;
use std::sync::OnceLock;

/// The family every chart uses; it names the embedded DejaVu Sans.
pub const FAMILY: &str = "sans-serif";

static REGISTERED: OnceLock<std::result::Result<(), String>> = OnceLock::new();

/// Registers the embedded DejaVu Sans (regular and bold) with plotters, once.
pub fn register_fonts() -> Result<()> {
    REGISTERED
        .get_or_init(|| {
            let regular: &'static [u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
            let bold: &'static [u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");
            plotters::style::register_font(FAMILY, FontStyle::Normal, regular)
                .and_then(|()| plotters::style::register_font(FAMILY, FontStyle::Bold, bold))
                .map_err(|_| "the embedded DejaVu Sans font is unreadable".to_string())
        })
        .clone()
        .map_err(Error::Chart)
}

/// Chart width in pixels (SVG user units).
pub const WIDTH: u32 = 1600;
/// Height of the header band: title, subtitle, legend.
pub const HEADER: u32 = 210;
/// Font sizes.
pub const TITLE_SIZE: f64 = 36.0;
/// The subject line (agents and games).
pub const SUBJECT_SIZE: f64 = 28.0;
/// Explanations and legend.
pub const NOTE_SIZE: f64 = 23.0;
/// Axis tick labels and category labels.
pub const LABEL_SIZE: f64 = 24.0;
/// Axis titles.
pub const AXIS_SIZE: f64 = 26.0;

/// White's wins: light ivory.
pub const WHITE_WINS: RGBColor = RGBColor(238, 228, 200);
/// Draws: mid grey.
pub const DRAWS: RGBColor = RGBColor(160, 160, 160);
/// Games stopped at the ply limit (undecided): pale blue-grey, apart from the draws.
pub const UNDECIDED: RGBColor = RGBColor(205, 214, 224);
/// Draws adjudicated from the agents' scores: light grey with a green cast, apart from
/// the rule draws and the ply limit.
pub const ADJUDICATED: RGBColor = RGBColor(196, 214, 190);
/// Black's wins: dark slate.
pub const BLACK_WINS: RGBColor = RGBColor(52, 56, 72);
/// Outlines.
pub const INK: RGBColor = RGBColor(40, 40, 40);
/// Markers that must stand out (White's score, the 50% line): vermilion.
pub const ACCENT: RGBColor = RGBColor(213, 94, 0);
/// Box fill of the length chart: sky blue.
pub const BOX: RGBColor = RGBColor(146, 197, 232);

/// A text style of the chart family.
pub fn font(size: f64) -> TextStyle<'static> {
    (FAMILY, size).into_font().color(&INK)
}

/// A bold text style of the chart family.
pub fn bold(size: f64) -> TextStyle<'static> {
    (FAMILY, size)
        .into_font()
        .style(FontStyle::Bold)
        .color(&INK)
}

/// Right-aligned, vertically centred text.
pub fn right(style: TextStyle<'static>) -> TextStyle<'static> {
    style.pos(Pos::new(HPos::Right, VPos::Center))
}

/// Left-aligned, vertically centred text.
pub fn left(style: TextStyle<'static>) -> TextStyle<'static> {
    style.pos(Pos::new(HPos::Left, VPos::Center))
}

/// A legend entry: a swatch and its text.
pub enum Swatch {
    /// A filled box with an outline.
    Fill(RGBColor),
    /// A line with a diamond on it (a point estimate with its interval).
    Marker(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
}

/// A text style no wider than `max_width` pixels for `text`: `style` at `size`, shrunk
/// in steps of 5% when the text would not fit.
pub fn fitted<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
    max_width: u32,
    style: fn(f64) -> TextStyle<'static>,
) -> std::result::Result<TextStyle<'static>, String> {
    let mut size = size;
    loop {
        let candidate = left(style(size));
        let (w, _) = area
            .estimate_text_size(text, &candidate)
            .map_err(super::failed)?;
        if w <= max_width || size < 10.0 {
            return Ok(candidate);
        }
        size *= 0.95;
    }
}

/// Draws the header band: the title, the subject (agents and games), a line that explains
/// the marks, and a one-line legend. Texts shrink to fit the width.
pub fn header<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    subject: &str,
    explanation: &str,
    legend: &[(Swatch, &str)],
) -> std::result::Result<(), String> {
    let e = super::failed;
    let room = area.dim_in_pixel().0.saturating_sub(80);
    let lines = [
        (title, 34, TITLE_SIZE, bold as fn(f64) -> TextStyle<'static>),
        (
            subject,
            80,
            SUBJECT_SIZE,
            font as fn(f64) -> TextStyle<'static>,
        ),
        (
            explanation,
            120,
            NOTE_SIZE,
            font as fn(f64) -> TextStyle<'static>,
        ),
    ];
    for (text, y, size, style) in lines {
        let style = fitted(area, text, size, room, style)?;
        area.draw(&Text::new(text.to_string(), (40, y), style))
            .map_err(e)?;
    }
    let mut x = 40;
    let y = 168;
    for (swatch, text) in legend {
        match swatch {
            Swatch::Fill(colour) => {
                area.draw(&Rectangle::new(
                    [(x, y - 11), (x + 34, y + 11)],
                    colour.filled(),
                ))
                .map_err(e)?;
                area.draw(&Rectangle::new(
                    [(x, y - 11), (x + 34, y + 11)],
                    INK.stroke_width(1),
                ))
                .map_err(e)?;
            }
            Swatch::Marker(colour) => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + 34, y)],
                    colour.stroke_width(3),
                ))
                .map_err(e)?;
                area.draw(&diamond((x + 17, y), 9, *colour)).map_err(e)?;
            }
            Swatch::Dashed(colour) => {
                for k in 0..3 {
                    let x0 = x + k * 13;
                    area.draw(&PathElement::new(
                        vec![(x0, y), (x0 + 8, y)],
                        colour.stroke_width(3),
                    ))
                    .map_err(e)?;
                }
            }
        }
        let label = left(font(NOTE_SIZE));
        area.draw(&Text::new(text.to_string(), (x + 46, y), label.clone()))
            .map_err(e)?;
        let (w, _) = area.estimate_text_size(text, &label).map_err(e)?;
        x += 46 + w as i32 + 40;
    }
    Ok(())
}

/// A filled diamond with an outline, centred on a pixel.
pub fn diamond(centre: (i32, i32), r: i32, colour: RGBColor) -> Polygon<(i32, i32)> {
    let (x, y) = centre;
    Polygon::new(
        vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
        colour.filled(),
    )
}

/// The widest of some labels in a style, in pixels.
pub fn widest<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: impl Iterator<Item = String>,
    style: &TextStyle,
) -> std::result::Result<u32, String> {
    let mut widest = 0;
    for label in labels {
        let (w, _) = area
            .estimate_text_size(&label, style)
            .map_err(super::failed)?;
        widest = widest.max(w);
    }
    Ok(widest)
}
