//! Action ids: every action of every rule set as an integer in `0..ACTION_COUNT`, the
//! fixed action space that OpenSpiel, PettingZoo and neural networks need.
//!
//! Cells are numbered `0..91` in (file, rank) order (`a1` is 0, `l6` is 90). With `c` and
//! `d` cell numbers:
//! - a step is `6 * c(from) + direction` (`0..546`), direction in docs/rules.md's order;
//! - a relocation is `546 + 91 * c(from) + c(to)` (`546..8827`);
//! - a placement is `8827 + 91 * kind + c(to)`, queen 0 and guard 1 (`8827..9009`);
//! - a pass is `9009`.
//!
//! This is an encoding only: which ids are legal is agon-core's answer.

use crate::errors::IllegalActionError;
use agon_core::{Action, Cell, Direction, PieceKind};
use pyo3::prelude::*;
use std::sync::OnceLock;

/// Number of cells.
const CELLS: u32 = 91;
/// First id of each kind of action, and the size of the space.
const STEPS: u32 = 0;
const RELOCATIONS: u32 = STEPS + 6 * CELLS;
const PLACEMENTS: u32 = RELOCATIONS + CELLS * CELLS;
const PASS: u32 = PLACEMENTS + 2 * CELLS;
/// The number of action ids.
pub const ACTION_COUNT: u32 = PASS + 1;

/// Cell numbers in both directions.
struct CellNumbers {
    cells: Vec<Cell>,
    number: [u8; 128],
}

fn numbers() -> &'static CellNumbers {
    static TABLE: OnceLock<CellNumbers> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut cells: Vec<Cell> = Cell::all().collect();
        cells.sort();
        let mut number = [u8::MAX; 128];
        for (n, cell) in cells.iter().enumerate() {
            number[cell.index()] = n as u8;
        }
        CellNumbers { cells, number }
    })
}

/// The number (0..91) of a cell in (file, rank) order.
pub fn cell_number(cell: Cell) -> u32 {
    u32::from(numbers().number[cell.index()])
}

/// The id of an action; `None` for a step between cells that are not neighbours (never
/// legal, so never generated).
pub fn try_id(action: Action) -> Option<u32> {
    Some(match action {
        Action::Step { from, to } => {
            STEPS + 6 * cell_number(from) + from.direction_to(to)?.index() as u32
        }
        Action::Relocate { from, to } => RELOCATIONS + CELLS * cell_number(from) + cell_number(to),
        Action::Place { kind, to } => PLACEMENTS + CELLS * kind.index() as u32 + cell_number(to),
        Action::Pass => PASS,
    })
}

/// The id of a legal action (every generated action has one).
pub fn to_id(action: Action) -> u32 {
    try_id(action).expect("agon-core generates steps between neighbours only")
}

/// The action of an id, or `None` for an id that names no action (out of range, or a
/// step off the board).
pub fn from_id(id: u32) -> Option<Action> {
    let cells = &numbers().cells;
    let cell = |n: u32| cells[n as usize];
    match id {
        _ if id < RELOCATIONS => {
            let from = cell(id / 6);
            let to = from.neighbor(Direction::ALL[(id % 6) as usize])?;
            Some(Action::Step { from, to })
        }
        _ if id < PLACEMENTS => {
            let n = id - RELOCATIONS;
            Some(Action::Relocate {
                from: cell(n / CELLS),
                to: cell(n % CELLS),
            })
        }
        _ if id < PASS => {
            let n = id - PLACEMENTS;
            let kind = if n < CELLS {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            };
            Some(Action::Place {
                kind,
                to: cell(n % CELLS),
            })
        }
        PASS => Some(Action::Pass),
        _ => None,
    }
}

/// The action of an id, or `IllegalActionError`.
pub fn action_of(id: i64) -> PyResult<Action> {
    u32::try_from(id).ok().and_then(from_id).ok_or_else(|| {
        IllegalActionError::new_err(format!(
            "{id} is not an action id: ids are 0..{ACTION_COUNT} (see agon.action_from_id)"
        ))
    })
}

/// The id (`0..agon.ACTION_COUNT`) of an action written in notation (`"h9-g9"`, `"d9@a5"`,
/// `"Q@f1"`, `"pass"`). The ids are fixed for every rule set; see docs/python.md.
#[pyfunction]
fn action_id(action: &str) -> PyResult<u32> {
    let action: Action = action
        .parse()
        .map_err(|e: agon_core::ParseActionError| IllegalActionError::new_err(e.to_string()))?;
    try_id(action).ok_or_else(|| {
        IllegalActionError::new_err(format!(
            "{action} has no action id: a step goes to a neighbouring cell"
        ))
    })
}

/// The action (in notation) of an id; raises `IllegalActionError` for an id that names no
/// action (a step off the board, or out of range).
#[pyfunction]
fn action_from_id(id: i64) -> PyResult<String> {
    action_of(id).map(|a| a.to_string())
}

/// Registers the id functions and `ACTION_COUNT`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(action_id, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_id, m)?)?;
    m.add("ACTION_COUNT", ACTION_COUNT)?;
    Ok(())
}
