//! `agon.load_games`: the games of an `agon-selfplay` output directory as columns, ready for
//! `pandas.DataFrame(...)` or `polars.DataFrame(...)`. The directory is read and checked by
//! agon-selfplay itself, and the columns are those of `games.csv`, whatever they are.

use crate::errors::ExperimentError;
use agon_selfplay::row::COLUMNS;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;
use std::path::PathBuf;

/// The games of an `agon-selfplay` output directory (`run`, `tournament` or `merge`), one
/// entry per column of `games.csv` (`index`, `variant`, `white`, `black`, `result`,
/// `termination`, `plies`, ...) plus `white_score` (1, 0.5 or 0), each a list with one
/// value per game in game order: `pandas.DataFrame(agon.load_games("results/variants"))`.
/// Raises `ExperimentError` (with agon-selfplay's message) for a directory that is not a
/// complete, consistent output.
#[pyfunction]
fn load_games<'py>(py: Python<'py>, directory: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let (_, rows) = py
        .detach(|| agon_selfplay::store::read_games(&directory))
        .map_err(|e| ExperimentError::new_err(e.to_string()))?;
    let mut columns: Vec<Vec<Value>> = vec![Vec::with_capacity(rows.len()); COLUMNS.len()];
    let mut white_score = Vec::with_capacity(rows.len());
    for row in &rows {
        let Value::Object(fields) =
            serde_json::to_value(row).map_err(|e| ExperimentError::new_err(e.to_string()))?
        else {
            return Err(ExperimentError::new_err("a game row is not a record"));
        };
        for (column, name) in columns.iter_mut().zip(COLUMNS) {
            column.push(fields.get(name).cloned().unwrap_or(Value::Null));
        }
        white_score.push(row.white_score());
    }
    let table = PyDict::new(py);
    for (column, name) in columns.into_iter().zip(COLUMNS) {
        let values = column
            .iter()
            .map(|v| to_python(py, v))
            .collect::<PyResult<Vec<_>>>()?;
        table.set_item(name, PyList::new(py, values)?)?;
    }
    table.set_item("white_score", white_score)?;
    Ok(table)
}

/// A JSON scalar as a Python value.
fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        other => other.to_string().into_pyobject(py)?.into_any(),
    })
}

/// Registers `load_games`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_games, m)?)
}
