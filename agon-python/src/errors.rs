//! The package's exceptions. Each carries the message the `agon` command prints for the
//! same mistake (the library's error text), so scripts and the terminal read alike.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    agon,
    AgonError,
    PyValueError,
    "Base class of every error agon raises about its input (a ValueError)."
);
pyo3::create_exception!(
    agon,
    RulesError,
    AgonError,
    "A text that names no rule set (`agon.Rules.parse`, any `variant=` argument)."
);
pyo3::create_exception!(
    agon,
    PositionError,
    AgonError,
    "A text that is not a position string; `column` is the 1-based column of the fault."
);
pyo3::create_exception!(
    agon,
    IllegalActionError,
    AgonError,
    "An action that is not an action, or not legal in the game's position, or comes after the end."
);
pyo3::create_exception!(
    agon,
    RecordError,
    AgonError,
    "A defect in a game record: `file`, `line`, `column`, `game`, `ply`, `kind` and `message` say where and what."
);
pyo3::create_exception!(
    agon,
    AgentError,
    AgonError,
    "A spec string that names no agent (`agon.Agent`)."
);
pyo3::create_exception!(
    agon,
    ExperimentError,
    AgonError,
    "An agon-selfplay output directory that cannot be read."
);

/// Registers the exception classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("AgonError", py.get_type::<AgonError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("AgentError", py.get_type::<AgentError>())?;
    m.add("ExperimentError", py.get_type::<ExperimentError>())?;
    Ok(())
}

/// A `PositionError` with the message `agon --position` prints and the column as an
/// attribute.
pub fn position_error(py: Python<'_>, error: &agon_notation::PositionError) -> PyErr {
    let err = PositionError::new_err(format!("not a position string: {error}"));
    let _ = err.value(py).setattr("column", error.column);
    err
}

/// A `RecordError` with the reader's one-line message and every field as an attribute.
pub fn record_error(py: Python<'_>, error: &agon_notation::RecordError) -> PyErr {
    let err = RecordError::new_err(error.to_string());
    set_record_fields(err.value(py).as_any(), error);
    err
}

/// Sets the fields of a record defect as attributes of a Python object.
pub fn set_record_fields(target: &Bound<'_, PyAny>, error: &agon_notation::RecordError) {
    let side = error.side.map(|s| s.name().to_ascii_lowercase());
    let _ = target.setattr("file", error.file.clone());
    let _ = target.setattr("line", error.line);
    let _ = target.setattr("column", error.column);
    let _ = target.setattr("game", error.game);
    let _ = target.setattr("ply", error.ply);
    let _ = target.setattr("move_number", error.move_number);
    let _ = target.setattr("side", side);
    let _ = target.setattr("kind", error.kind.name());
    let _ = target.setattr("message", error.message.clone());
}
