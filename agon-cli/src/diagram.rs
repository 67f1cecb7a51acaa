//! Board diagrams drawn with plotters: hexagons coloured by ring, cell names, pieces,
//! captured marks and an optional arrow for the last action. One drawing function serves
//! both SVG and PNG; the font is embedded, so no system font is needed.

use agon_core::{Action, Bitboard, Cell, Game, PieceKind, Side};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;
use std::sync::Once;

/// The font family name used for all text. It is registered from the embedded DejaVu Sans;
/// in SVG output it is written as the `font-family`, with generic fallbacks.
const FAMILY: &str = "DejaVu Sans, Verdana, sans-serif";

static REGISTER: Once = Once::new();

/// Registers the embedded fonts with plotters (once per process).
fn register_fonts() {
    REGISTER.call_once(|| {
        let regular: &'static [u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
        let bold: &'static [u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
        // The bytes are compiled in and known to be valid fonts; a failure here would
        // only make text fall back to nothing, never crash.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, regular);
        let _ = plotters::style::register_font(FAMILY, FontStyle::Bold, bold);
    });
}

/// What to draw besides the position itself.
#[derive(Clone, Copy, Debug)]
pub struct DiagramOptions {
    /// Draw the last action as an arrow (a ring for a placement).
    pub arrow: bool,
    /// Write the cell names in the cells.
    pub coordinates: bool,
    /// Write a caption line (side to move, ply, rules) above the board.
    pub caption: bool,
}

/// Fill colours of the rings, throne first.
const RING_COLOURS: [RGBColor; 6] = [
    RGBColor(0xd9, 0xa4, 0x1e),
    RGBColor(0xf6, 0xe7, 0xc1),
    RGBColor(0xec, 0xd9, 0xa9),
    RGBColor(0xe2, 0xca, 0x92),
    RGBColor(0xd6, 0xba, 0x7c),
    RGBColor(0xc9, 0xa8, 0x66),
];
const GRID: RGBColor = RGBColor(0x7a, 0x5c, 0x32);
const NAME: RGBColor = RGBColor(0x5c, 0x46, 0x26);
const WHITE_FILL: RGBColor = RGBColor(0xfb, 0xfb, 0xf7);
const BLACK_FILL: RGBColor = RGBColor(0x26, 0x26, 0x2b);
const CAPTURE_MARK: RGBColor = RGBColor(0xd0, 0x20, 0x20);
const ARROW: RGBColor = RGBColor(0x1f, 0x6f, 0xd0);
const BACKGROUND: RGBColor = RGBColor(0xff, 0xff, 0xff);

/// Pixel geometry of the board on a canvas.
struct Layout {
    /// Hexagon size: centre to corner.
    size: f64,
    /// Centre of the throne.
    centre: (f64, f64),
}

impl Layout {
    fn new(width: u32, height: u32, top: f64) -> Layout {
        let margin = width.min(height) as f64 * 0.02;
        let avail_w = width as f64 - 2.0 * margin;
        let avail_h = height as f64 - top - 2.0 * margin;
        let size = (avail_w / 17.0).min(avail_h / (11.0 * 3f64.sqrt()));
        Layout {
            size,
            centre: (width as f64 / 2.0, top + margin + avail_h / 2.0),
        }
    }

    /// Centre of a cell (flat-topped hexagons; f11 at the top).
    fn point(&self, cell: Cell) -> (f64, f64) {
        let q = cell.q() as f64;
        let r = cell.r() as f64;
        (
            self.centre.0 + 1.5 * self.size * q,
            self.centre.1 + 3f64.sqrt() * self.size * (r + q / 2.0),
        )
    }

    fn corners(&self, cell: Cell, scale: f64) -> Vec<(i32, i32)> {
        let (x, y) = self.point(cell);
        (0..6)
            .map(|k| {
                let angle = std::f64::consts::PI / 3.0 * k as f64;
                px((
                    x + scale * self.size * angle.cos(),
                    y + scale * self.size * angle.sin(),
                ))
            })
            .collect()
    }
}

fn px((x, y): (f64, f64)) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

fn font(size: f64, bold: bool) -> FontDesc<'static> {
    let style = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    FontDesc::new(FontFamily::Name(FAMILY), size.max(1.0), style)
}

fn centred<C: Color>(size: f64, bold: bool, colour: C) -> TextStyle<'static> {
    TextStyle {
        font: font(size, bold),
        color: colour.to_backend_color(),
        pos: Pos::new(HPos::Center, VPos::Center),
    }
}

/// Draws a game's current position (and its last action) on a drawing area.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    game: &Game,
    caption: &str,
    options: DiagramOptions,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    register_fonts();
    let (width, height) = area.dim_in_pixel();
    area.fill(&BACKGROUND)?;
    let top = if options.caption {
        height as f64 * 0.05
    } else {
        0.0
    };
    let layout = Layout::new(width, height, top);
    let s = layout.size;
    if options.caption {
        area.draw(&Text::new(
            caption.to_string(),
            (width as i32 / 2, (top * 0.6) as i32),
            centred(top * 0.5, true, BLACK_FILL),
        ))?;
    }
    let position = game.position();
    for cell in Cell::all() {
        let ring = cell.ring() as usize;
        area.draw(&Polygon::new(
            layout.corners(cell, 1.0),
            RING_COLOURS[ring].filled(),
        ))?;
        let mut outline = layout.corners(cell, 1.0);
        outline.push(outline[0]);
        area.draw(&PathElement::new(
            outline,
            GRID.stroke_width((s / 20.0).max(1.0) as u32),
        ))?;
    }
    let last = game.plies().last().copied();
    let piece_offset = if options.coordinates { -0.13 * s } else { 0.0 };
    for cell in Cell::all() {
        let (x, y) = layout.point(cell);
        let piece = position.piece_at(cell);
        if options.coordinates {
            let name_y = if piece.is_some() { y + 0.62 * s } else { y };
            let name_size = if piece.is_some() { 0.26 * s } else { 0.36 * s };
            area.draw(&Text::new(
                cell.to_string(),
                px((x, name_y)),
                centred(name_size, false, NAME),
            ))?;
        }
        let Some(piece) = piece else { continue };
        let centre = px((x, y + piece_offset));
        let radius = match piece.kind {
            PieceKind::Queen => 0.5 * s,
            PieceKind::Guard => 0.42 * s,
        };
        let (fill, ink) = match piece.side {
            Side::White => (WHITE_FILL, BLACK_FILL),
            Side::Black => (BLACK_FILL, WHITE_FILL),
        };
        let alpha = if piece.captured { 0.7 } else { 1.0 };
        area.draw(&Circle::new(
            centre,
            radius as i32,
            fill.mix(alpha).filled(),
        ))?;
        area.draw(&Circle::new(
            centre,
            radius as i32,
            BLACK_FILL
                .mix(alpha)
                .stroke_width((s / 18.0).max(1.0) as u32),
        ))?;
        if piece.kind == PieceKind::Queen {
            area.draw(&Circle::new(
                centre,
                (radius * 0.78) as i32,
                ink.mix(alpha * 0.8)
                    .stroke_width((s / 30.0).max(1.0) as u32),
            ))?;
        }
        let letter = match piece.kind {
            PieceKind::Queen => "Q",
            PieceKind::Guard => "G",
        };
        area.draw(&Text::new(
            letter,
            centre,
            centred(radius * 1.05, true, ink.mix(alpha)),
        ))?;
        if piece.captured {
            let d = radius * 0.8;
            let w = (s / 9.0).max(2.0) as u32;
            let (cx, cy) = (centre.0 as f64, centre.1 as f64);
            for (a, b) in [((-d, -d), (d, d)), ((-d, d), (d, -d))] {
                area.draw(&PathElement::new(
                    vec![px((cx + a.0, cy + a.1)), px((cx + b.0, cy + b.1))],
                    CAPTURE_MARK.stroke_width(w),
                ))?;
            }
        }
    }
    if options.arrow {
        if let Some(ply) = last {
            draw_last_action(area, &layout, ply.action, ply.captures, piece_offset)?;
        }
    }
    Ok(())
}

fn draw_last_action<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    layout: &Layout,
    action: Action,
    captures: Bitboard,
    piece_offset: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = layout.size;
    let width = (s / 7.0).max(2.0) as u32;
    for cell in captures {
        let mut ring = layout.corners(cell, 0.86);
        ring.push(ring[0]);
        area.draw(&PathElement::new(ring, CAPTURE_MARK.stroke_width(width)))?;
    }
    let Some(to) = action.destination() else {
        return Ok(());
    };
    let lift = |(x, y): (f64, f64)| (x, y + piece_offset);
    let Some(from) = action.origin() else {
        let mut ring = layout.corners(to, 0.86);
        ring.push(ring[0]);
        area.draw(&PathElement::new(ring, ARROW.stroke_width(width)))?;
        return Ok(());
    };
    let (x0, y0) = lift(layout.point(from));
    let (x1, y1) = lift(layout.point(to));
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let head = 0.45 * s;
    let tip = (x1 - ux * 0.1 * s, y1 - uy * 0.1 * s);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let start = (x0 + ux * 0.2 * s, y0 + uy * 0.2 * s);
    let colour = ARROW.mix(0.85);
    area.draw(&PathElement::new(
        vec![px(start), px(base)],
        colour.stroke_width(width),
    ))?;
    let half = 0.25 * s;
    area.draw(&Polygon::new(
        vec![
            px(tip),
            px((base.0 - uy * half, base.1 + ux * half)),
            px((base.0 + uy * half, base.1 - ux * half)),
        ],
        colour.filled(),
    ))?;
    Ok(())
}
