//! The observation: a stack of 0/1 planes on the board's 11x11 axial embedding, the input
//! format of convolutional networks.
//!
//! `obs[p, i, j]` describes the cell whose agon-core index is `11 * i + j`: `i = q + 5` is
//! the file (`a`..`l`, without `j`) and `j = 5 - r` (`r` the second cube coordinate), so
//! neighbouring cells are neighbouring entries and the 30 entries outside the hexagon are
//! always 0 in every board-shaped plane. `agon.cell_coordinates(name)` gives `(i, j)`.

use crate::errors::PositionError;
use agon_core::{Bitboard, Cell, PieceKind, Position, Side};
use pyo3::prelude::*;

/// Side length of the embedding.
pub const WIDTH: usize = 11;

/// The planes, in order, with what a 1 means. Documented in docs/python.md; the Python
/// module exposes them as `agon.OBSERVATION_PLANES`.
pub const PLANES: [&str; 13] = [
    "white queen (active)",
    "white guards (active)",
    "black queen (active)",
    "black guards (active)",
    "white queen (captured)",
    "white guards (captured)",
    "black queen (captured)",
    "black guards (captured)",
    "the 91 cells of the board",
    "white to move (every cell)",
    "white decides the action (every cell; differs from the side to move only when a queen is relocated by the opponent)",
    "white pieces in hand / 7 (every cell; placement openings)",
    "black pieces in hand / 7 (every cell; placement openings)",
];

/// Fills `out` (`PLANES.len() * 121` values, plane-major) with the planes of a position.
pub fn fill(position: &Position, out: &mut [f32]) {
    debug_assert_eq!(out.len(), PLANES.len() * WIDTH * WIDTH);
    out.fill(0.0);
    let mut set = |plane: usize, cells: Bitboard| {
        for cell in cells {
            out[plane * WIDTH * WIDTH + cell.index()] = 1.0;
        }
    };
    let captured = position.captured();
    for (s, side) in Side::BOTH.into_iter().enumerate() {
        for (k, kind) in [PieceKind::Queen, PieceKind::Guard].into_iter().enumerate() {
            let pieces = position.pieces(side, kind);
            set(2 * s + k, pieces & !captured);
            set(4 + 2 * s + k, pieces & captured);
        }
    }
    set(8, Bitboard::ALL);
    let mut constant = |plane: usize, value: f32| {
        let cells = &mut out[plane * WIDTH * WIDTH..(plane + 1) * WIDTH * WIDTH];
        for cell in Cell::all() {
            cells[cell.index()] = value;
        }
    };
    let in_hand = |side| {
        f32::from(
            position.in_hand(side, PieceKind::Queen) + position.in_hand(side, PieceKind::Guard),
        ) / 7.0
    };
    constant(9, f32::from(u8::from(position.to_move() == Side::White)));
    constant(10, f32::from(u8::from(position.decider() == Side::White)));
    constant(11, in_hand(Side::White));
    constant(12, in_hand(Side::Black));
}

/// `(i, j)` of a cell in the observation's embedding: the cell is `obs[:, i, j]`.
#[pyfunction]
fn cell_coordinates(cell: &str) -> PyResult<(usize, usize)> {
    let cell = Cell::parse(cell).map_err(|e| PositionError::new_err(e.to_string()))?;
    Ok((cell.index() / WIDTH, cell.index() % WIDTH))
}

/// Registers the observation's constants and `cell_coordinates`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("OBSERVATION_PLANES", PLANES.to_vec())?;
    m.add("OBSERVATION_SHAPE", (PLANES.len(), WIDTH, WIDTH))?;
    m.add_function(wrap_pyfunction!(cell_coordinates, m)?)?;
    Ok(())
}
