//! # agon-python
//!
//! The compiled half of the Python package `agon` (module `agon._agon`): a thin layer over
//! `agon-core` (rules, games, perft, agents), `agon-notation` (positions, records) and
//! `agon-selfplay` (experiment output). Every rule question goes to `agon-core`; this crate
//! only converts values and errors between Rust and Python, one module per Python class.
//!
//! The pure-Python half (`python/agon/`) adds the OpenSpiel and PettingZoo adapters and
//! re-exports everything here as `agon.*`. Build and install with `pip install
//! ./agon-python` (maturin); see `docs/python.md`.

#![forbid(unsafe_code)]

mod action_ids;
mod agent;
mod errors;
mod experiment;
mod game;
mod observation;
mod perft;
mod records;
mod rules;
mod source;

use pyo3::prelude::*;

/// Agon (Queen's Guard, London 1842) for Python: the compiled core of the `agon` package.
#[pymodule]
fn _agon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    rules::register(m)?;
    game::register(m)?;
    action_ids::register(m)?;
    observation::register(m)?;
    perft::register(m)?;
    records::register(m)?;
    agent::register(m)?;
    experiment::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
