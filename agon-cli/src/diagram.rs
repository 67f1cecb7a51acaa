//! Board diagrams drawn with plotters: hexagons coloured by ring, cell names, pieces,
//! captured marks and an optional arrow for the last action. One drawing function serves
//! both SVG and PNG; the font is embedded, so no system font is needed. The geometry and
//! colours come from [`crate::board_geometry`], which `agon serve`'s page draws with too.

use crate::board_geometry::{Layout, Rgb, PALETTE, PROPORTIONS, RING_COLOURS};
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

/// A plotters colour of the shared palette.
fn colour(c: Rgb) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// Corners of a cell's hexagon in whole pixels.
fn corners(layout: &Layout, cell: Cell, scale: f64) -> Vec<(i32, i32)> {
    layout.corners(cell, scale).into_iter().map(px).collect()
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
    area.fill(&colour(PALETTE.background))?;
    let top = if options.caption {
        height as f64 * 0.05
    } else {
        0.0
    };
    let layout = Layout::fit(width, height, top);
    let p = PROPORTIONS;
    let (black, white) = (colour(PALETTE.black), colour(PALETTE.white));
    let s = layout.size;
    if options.caption {
        area.draw(&Text::new(
            caption.to_string(),
            (width as i32 / 2, (top * 0.6) as i32),
            centred(top * 0.5, true, black),
        ))?;
    }
    let position = game.position();
    for cell in Cell::all() {
        let ring = cell.ring() as usize;
        area.draw(&Polygon::new(
            corners(&layout, cell, 1.0),
            colour(RING_COLOURS[ring]).filled(),
        ))?;
        let mut outline = corners(&layout, cell, 1.0);
        outline.push(outline[0]);
        area.draw(&PathElement::new(
            outline,
            colour(PALETTE.grid).stroke_width((s * p.grid_width).max(1.0) as u32),
        ))?;
    }
    let last = game.plies().last().copied();
    let piece_offset = if options.coordinates {
        p.piece_lift * s
    } else {
        0.0
    };
    for cell in Cell::all() {
        let (x, y) = layout.point(cell);
        let piece = position.piece_at(cell);
        if options.coordinates {
            let name_y = if piece.is_some() {
                y + p.name_drop * s
            } else {
                y
            };
            let name_size = if piece.is_some() {
                p.name_under_piece * s
            } else {
                p.name * s
            };
            area.draw(&Text::new(
                cell.to_string(),
                px((x, name_y)),
                centred(name_size, false, colour(PALETTE.name)),
            ))?;
        }
        let Some(piece) = piece else { continue };
        let centre = px((x, y + piece_offset));
        let radius = p.radius(piece.kind) * s;
        let (fill, ink) = match piece.side {
            Side::White => (white, black),
            Side::Black => (black, white),
        };
        let alpha = if piece.captured {
            p.captured_opacity
        } else {
            1.0
        };
        area.draw(&Circle::new(
            centre,
            radius as i32,
            fill.mix(alpha).filled(),
        ))?;
        area.draw(&Circle::new(
            centre,
            radius as i32,
            black
                .mix(alpha)
                .stroke_width((s * p.piece_outline).max(1.0) as u32),
        ))?;
        if piece.kind == PieceKind::Queen {
            area.draw(&Circle::new(
                centre,
                (radius * p.queen_ring) as i32,
                ink.mix(alpha * p.queen_ring_opacity)
                    .stroke_width((s * p.queen_ring_width).max(1.0) as u32),
            ))?;
        }
        let letter = match piece.kind {
            PieceKind::Queen => "Q",
            PieceKind::Guard => "G",
        };
        area.draw(&Text::new(
            letter,
            centre,
            centred(radius * p.letter, true, ink.mix(alpha)),
        ))?;
        if piece.captured {
            let d = radius * p.cross;
            let w = (s * p.cross_width).max(2.0) as u32;
            let (cx, cy) = (centre.0 as f64, centre.1 as f64);
            for (a, b) in [((-d, -d), (d, d)), ((-d, d), (d, -d))] {
                area.draw(&PathElement::new(
                    vec![px((cx + a.0, cy + a.1)), px((cx + b.0, cy + b.1))],
                    colour(PALETTE.capture).stroke_width(w),
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
    let p = PROPORTIONS;
    let width = (s * p.arrow_width).max(2.0) as u32;
    for cell in captures {
        let mut ring = corners(layout, cell, p.mark_ring);
        ring.push(ring[0]);
        area.draw(&PathElement::new(
            ring,
            colour(PALETTE.capture).stroke_width(width),
        ))?;
    }
    let Some(to) = action.destination() else {
        return Ok(());
    };
    let lift = |(x, y): (f64, f64)| (x, y + piece_offset);
    let Some(from) = action.origin() else {
        let mut ring = corners(layout, to, p.mark_ring);
        ring.push(ring[0]);
        area.draw(&PathElement::new(
            ring,
            colour(PALETTE.arrow).stroke_width(width),
        ))?;
        return Ok(());
    };
    let (x0, y0) = lift(layout.point(from));
    let (x1, y1) = lift(layout.point(to));
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let head = p.arrow_head * s;
    let tip = (x1 - ux * p.arrow_tip_gap * s, y1 - uy * p.arrow_tip_gap * s);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let start = (
        x0 + ux * p.arrow_start_gap * s,
        y0 + uy * p.arrow_start_gap * s,
    );
    let colour = colour(PALETTE.arrow).mix(p.arrow_opacity);
    area.draw(&PathElement::new(
        vec![px(start), px(base)],
        colour.stroke_width(width),
    ))?;
    let half = p.arrow_head_half * s;
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
