//! The geometry and palette of a board diagram, shared by `agon render` (drawn with
//! plotters) and `agon serve` (sent to the page, which draws the same board as SVG): where
//! each cell's hexagon is, how large pieces, names, marks and arrows are, and their colours.
//! Everything here is in pixels of one canvas or in units of the hexagon size, so both
//! drawings agree whatever their size.

use agon_core::{Cell, PieceKind};
use serde::Serialize;

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The CSS form, `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl Serialize for Rgb {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.hex())
    }
}

/// Fill colours of the rings, throne first.
pub const RING_COLOURS: [Rgb; 6] = [
    Rgb(0xd9, 0xa4, 0x1e),
    Rgb(0xf6, 0xe7, 0xc1),
    Rgb(0xec, 0xd9, 0xa9),
    Rgb(0xe2, 0xca, 0x92),
    Rgb(0xd6, 0xba, 0x7c),
    Rgb(0xc9, 0xa8, 0x66),
];

/// The colours of a diagram besides the rings.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Palette {
    /// Hexagon outlines.
    pub grid: Rgb,
    /// Cell names.
    pub name: Rgb,
    /// White's pieces (and Black's letters).
    pub white: Rgb,
    /// Black's pieces (and White's letters, outlines, the caption).
    pub black: Rgb,
    /// Captured marks and the rings around cells the last action captured on.
    pub capture: Rgb,
    /// The last action's arrow.
    pub arrow: Rgb,
    /// Behind the board.
    pub background: Rgb,
}

/// The diagram's colours.
pub const PALETTE: Palette = Palette {
    grid: Rgb(0x7a, 0x5c, 0x32),
    name: Rgb(0x5c, 0x46, 0x26),
    white: Rgb(0xfb, 0xfb, 0xf7),
    black: Rgb(0x26, 0x26, 0x2b),
    capture: Rgb(0xd0, 0x20, 0x20),
    arrow: Rgb(0x1f, 0x6f, 0xd0),
    background: Rgb(0xff, 0xff, 0xff),
};

/// Sizes of everything drawn, in units of the hexagon size (centre to corner).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Proportions {
    /// Width of the hexagon outlines.
    pub grid_width: f64,
    /// Radius of a queen.
    pub queen_radius: f64,
    /// Radius of a guard.
    pub guard_radius: f64,
    /// Width of a piece's outline.
    pub piece_outline: f64,
    /// Radius of a queen's inner ring, as a fraction of her radius.
    pub queen_ring: f64,
    /// Width of a queen's inner ring.
    pub queen_ring_width: f64,
    /// Opacity of a queen's inner ring.
    pub queen_ring_opacity: f64,
    /// Height of a piece's letter, as a fraction of its radius.
    pub letter: f64,
    /// Opacity of a captured piece.
    pub captured_opacity: f64,
    /// Half the size of the captured cross, as a fraction of the piece's radius.
    pub cross: f64,
    /// Width of the captured cross.
    pub cross_width: f64,
    /// How far a piece is lifted (negative: up) when names are written, to make room.
    pub piece_lift: f64,
    /// Height of a name on an empty cell.
    pub name: f64,
    /// Height of a name under a piece.
    pub name_under_piece: f64,
    /// How far below the centre a name under a piece is written.
    pub name_drop: f64,
    /// Scale of the hexagon drawn around a cell the last action captured on, or placed on.
    pub mark_ring: f64,
    /// Width of arrows and of those rings.
    pub arrow_width: f64,
    /// Length of an arrow's head.
    pub arrow_head: f64,
    /// Half the width of an arrow's head.
    pub arrow_head_half: f64,
    /// How far short of the destination's centre an arrow's tip stops.
    pub arrow_tip_gap: f64,
    /// How far from the origin's centre an arrow starts.
    pub arrow_start_gap: f64,
    /// Opacity of an arrow.
    pub arrow_opacity: f64,
}

/// The proportions of every diagram.
pub const PROPORTIONS: Proportions = Proportions {
    grid_width: 1.0 / 20.0,
    queen_radius: 0.5,
    guard_radius: 0.42,
    piece_outline: 1.0 / 18.0,
    queen_ring: 0.78,
    queen_ring_width: 1.0 / 30.0,
    queen_ring_opacity: 0.8,
    letter: 1.05,
    captured_opacity: 0.7,
    cross: 0.8,
    cross_width: 1.0 / 9.0,
    piece_lift: -0.13,
    name: 0.36,
    name_under_piece: 0.26,
    name_drop: 0.62,
    mark_ring: 0.86,
    arrow_width: 1.0 / 7.0,
    arrow_head: 0.45,
    arrow_head_half: 0.25,
    arrow_tip_gap: 0.1,
    arrow_start_gap: 0.2,
    arrow_opacity: 0.85,
};

impl Proportions {
    /// The radius of a piece, in hexagon sizes.
    pub fn radius(&self, kind: PieceKind) -> f64 {
        match kind {
            PieceKind::Queen => self.queen_radius,
            PieceKind::Guard => self.guard_radius,
        }
    }
}

/// The board's place on a canvas: flat-topped hexagons, f11 at the top.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Hexagon size: centre to corner, in pixels.
    pub size: f64,
    /// Centre of the throne.
    pub centre: (f64, f64),
}

impl Layout {
    /// The largest board that fits a `width` x `height` canvas below a band of `top`
    /// pixels (for a caption), with a small margin.
    pub fn fit(width: u32, height: u32, top: f64) -> Layout {
        let margin = width.min(height) as f64 * 0.02;
        let avail_w = width as f64 - 2.0 * margin;
        let avail_h = height as f64 - top - 2.0 * margin;
        let size = (avail_w / 17.0).min(avail_h / (11.0 * 3f64.sqrt()));
        Layout {
            size,
            centre: (width as f64 / 2.0, top + margin + avail_h / 2.0),
        }
    }

    /// Centre of a cell.
    pub fn point(&self, cell: Cell) -> (f64, f64) {
        let q = cell.q() as f64;
        let r = cell.r() as f64;
        (
            self.centre.0 + 1.5 * self.size * q,
            self.centre.1 + 3f64.sqrt() * self.size * (r + q / 2.0),
        )
    }

    /// The six corners of a cell's hexagon, `scale` times the hexagon size from its centre.
    pub fn corners(&self, cell: Cell, scale: f64) -> [(f64, f64); 6] {
        let (x, y) = self.point(cell);
        std::array::from_fn(|k| {
            let angle = std::f64::consts::PI / 3.0 * k as f64;
            (
                x + scale * self.size * angle.cos(),
                y + scale * self.size * angle.sin(),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_fits_its_canvas_with_f11_on_top() {
        let layout = Layout::fit(800, 920, 0.0);
        let mut min = (f64::MAX, f64::MAX);
        let mut max = (f64::MIN, f64::MIN);
        for cell in Cell::all() {
            for (x, y) in layout.corners(cell, 1.0) {
                min = (min.0.min(x), min.1.min(y));
                max = (max.0.max(x), max.1.max(y));
            }
        }
        assert!(min.0 >= 0.0 && min.1 >= 0.0 && max.0 <= 800.0 && max.1 <= 920.0);
        let top = Cell::all()
            .min_by(|a, b| layout.point(*a).1.total_cmp(&layout.point(*b).1))
            .unwrap();
        assert_eq!(top.to_string(), "f11");
        assert_eq!(layout.point(Cell::THRONE), layout.centre);
    }

    #[test]
    fn neighbours_share_an_edge() {
        let layout = Layout::fit(800, 920, 0.0);
        let step = 3f64.sqrt() * layout.size;
        for cell in Cell::all() {
            let (x, y) = layout.point(cell);
            for n in cell.neighbors() {
                let (nx, ny) = layout.point(n);
                assert!(((nx - x).hypot(ny - y) - step).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn colours_print_as_css() {
        assert_eq!(PALETTE.capture.hex(), "#d02020");
        assert_eq!(RING_COLOURS[0].hex(), "#d9a41e");
    }
}
