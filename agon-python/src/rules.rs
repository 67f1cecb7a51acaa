//! `agon.Rules`: a rule set, known to Python by its canonical name only, so that a new
//! switch in agon-core needs no change here.

use crate::errors::RulesError;
use agon_core::Rules;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A rule set: `standard`, `ludii`, or comma-separated `switch=value` pairs such as
/// `capture=ring,repetition=off` (see `Rules.switches()` and docs/rules.md).
///
/// `Rules("capture=ring")` and `Rules.parse("capture=ring")` are the same. Two rule sets
/// are equal when they play the same game; `str(rules)` is the canonical name.
#[pyclass(module = "agon", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (name = "standard"))]
    fn new(name: &str) -> PyResult<PyRules> {
        parse(name).map(PyRules)
    }

    /// Parses a rule-set name; raises `RulesError` with the valid choices on a bad one.
    #[staticmethod]
    fn parse(name: &str) -> PyResult<PyRules> {
        parse(name).map(PyRules)
    }

    /// The canonical name: non-default switches in canonical order, or `standard`/`ludii`.
    #[getter]
    fn name(&self) -> String {
        self.0.to_string()
    }

    /// The switches with their valid values, default first: `{"capture": "line, ring", ...}`.
    #[staticmethod]
    fn switches(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let dict = PyDict::new(py);
        for switch in agon_core::SWITCHES {
            dict.set_item(switch.name, switch.values.join(", "))?;
        }
        Ok(dict)
    }

    /// The standard rules and every single-switch variant, in canonical order (the set that
    /// `agon-selfplay run --variants all` plays).
    #[staticmethod]
    fn variants() -> Vec<PyRules> {
        Rules::single_switch_variants()
            .into_iter()
            .map(PyRules)
            .collect()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules('{}')", self.0)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let class = py.get_type::<PyRules>().into_any().unbind();
        Ok((class, (self.0.to_string(),)))
    }
}

/// Parses a rule-set name with the engine's error message.
fn parse(name: &str) -> PyResult<Rules> {
    name.parse::<Rules>()
        .map_err(|e| RulesError::new_err(e.to_string()))
}

/// A rule set given as a name or a `Rules` object.
pub fn rules_from(value: &Bound<'_, PyAny>) -> PyResult<Rules> {
    if let Ok(rules) = value.cast::<PyRules>() {
        return Ok(rules.get().0);
    }
    match value.extract::<String>() {
        Ok(name) => parse(&name),
        Err(_) => Err(RulesError::new_err(format!(
            "a rule set is a name such as `standard` or `capture=ring` or an agon.Rules, not {}",
            value.get_type().name()?
        ))),
    }
}

/// Registers `Rules`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()
}
