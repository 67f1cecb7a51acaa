//! `agon.perft` and `agon.divide`: agon-core's move-path counts, with the GIL released.

use crate::errors::{position_error, AgonError};
use crate::game::PyGame;
use crate::rules::rules_from;
use agon_core::Game;
use pyo3::prelude::*;

/// The game a perft call starts from: a `Game` (its current position and history), or a
/// rule set with an optional position string.
fn start_game(
    py: Python<'_>,
    variant: &Bound<'_, PyAny>,
    position: Option<&str>,
    depth: u32,
) -> PyResult<Game> {
    if depth > 64 {
        return Err(AgonError::new_err(format!(
            "depth {depth} is far beyond what can be counted"
        )));
    }
    if let Ok(game) = variant.cast::<PyGame>() {
        return Ok(game.borrow().game.clone());
    }
    let rules = rules_from(variant)?;
    Ok(match position {
        None => Game::new(rules),
        Some(text) => Game::from_position(
            agon_notation::parse_position(text.trim(), rules)
                .map_err(|e| position_error(py, &e))?,
        ),
    })
}

/// The number of action sequences of length `depth` from the start of a rule set (or from
/// `position`, or from a `Game`'s current state), counting a finished game as a leaf
/// (`full=True` plays and adjudicates every leaf action too, like `agon perft --full`:
/// slower, the same count).
/// `agon.perft("standard", 4) == 466557`. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (variant = None, depth = 1, position = None, full = false))]
fn perft(
    py: Python<'_>,
    variant: Option<&Bound<'_, PyAny>>,
    depth: u32,
    position: Option<&str>,
    full: bool,
) -> PyResult<u64> {
    let standard = "standard".into_pyobject(py)?.into_any();
    let mut game = start_game(py, variant.unwrap_or(&standard), position, depth)?;
    Ok(py.detach(|| {
        if full {
            agon_core::perft_full(&mut game, depth)
        } else {
            agon_core::perft(&mut game, depth)
        }
    }))
}

/// Perft split by first action: a list of `(action, count)` pairs, as `agon perft
/// --divide` prints. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (variant = None, depth = 1, position = None))]
fn divide(
    py: Python<'_>,
    variant: Option<&Bound<'_, PyAny>>,
    depth: u32,
    position: Option<&str>,
) -> PyResult<Vec<(String, u64)>> {
    let standard = "standard".into_pyobject(py)?.into_any();
    let mut game = start_game(py, variant.unwrap_or(&standard), position, depth)?;
    let counts = py.detach(|| agon_core::divide(&mut game, depth));
    Ok(counts
        .into_iter()
        .map(|(action, n)| (action.to_string(), n))
        .collect())
}

/// Registers `perft` and `divide`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(divide, m)?)?;
    Ok(())
}
