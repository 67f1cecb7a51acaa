//! The board geometry sent to the page (`/api/geometry`): every cell's centre, corners and
//! ring colour, and the proportions and palette of pieces, names, marks and arrows, all
//! from [`crate::board_geometry`], the module `agon render` draws with.

use crate::board_geometry::{
    Layout, Palette, Proportions, Rgb, PALETTE, PROPORTIONS, RING_COLOURS,
};
use agon_core::Cell;
use serde::Serialize;

/// The canvas the page's SVG uses as its view box.
const WIDTH: u32 = 800;
const HEIGHT: u32 = 880;

/// One cell's place and colour.
#[derive(Serialize)]
pub struct CellShape {
    /// The cell's name, like `f6`.
    pub name: Cell,
    /// Its ring, 0 (the throne) to 5.
    pub ring: u8,
    /// The centre.
    pub x: f64,
    /// The centre.
    pub y: f64,
    /// The hexagon's corners.
    pub corners: [(f64, f64); 6],
    /// The fill colour.
    pub fill: Rgb,
}

/// The whole board's geometry.
#[derive(Serialize)]
pub struct Geometry {
    /// View box width.
    pub width: u32,
    /// View box height.
    pub height: u32,
    /// Hexagon size (centre to corner): the unit of the proportions.
    pub size: f64,
    /// Every cell.
    pub cells: Vec<CellShape>,
    /// Sizes of pieces, names, marks and arrows, in hexagon sizes.
    pub proportions: Proportions,
    /// The colours.
    pub palette: Palette,
}

/// The geometry of the page's board.
pub fn geometry() -> Geometry {
    let layout = Layout::fit(WIDTH, HEIGHT, 0.0);
    Geometry {
        width: WIDTH,
        height: HEIGHT,
        size: layout.size,
        cells: Cell::all()
            .map(|cell| {
                let (x, y) = layout.point(cell);
                CellShape {
                    name: cell,
                    ring: cell.ring(),
                    x,
                    y,
                    corners: layout.corners(cell, 1.0),
                    fill: RING_COLOURS[cell.ring() as usize],
                }
            })
            .collect(),
        proportions: PROPORTIONS,
        palette: PALETTE,
    }
}
