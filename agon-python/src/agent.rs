//! `agon.Agent`: agon-core's computer players, built from the same spec strings as the
//! command line (`alphabeta:depth=4`, `mcts:playouts=2000`, ...).

use crate::errors::{AgentError, IllegalActionError};
use crate::game::PyGame;
use agon_core::agents::{from_spec, Agent};
use pyo3::prelude::*;
use std::sync::Mutex;

/// A computer player: `Agent("alphabeta:depth=4")`, `Agent("mcts:playouts=2000")`,
/// `Agent("greedy")`, `Agent("random")` (options as in docs/agents.md). The same spec and
/// seed always choose the same actions, unless the agent is limited by time.
#[pyclass(module = "agon", name = "Agent")]
pub struct PyAgent {
    agent: Mutex<Box<dyn Agent>>,
    seed: u64,
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyAgent> {
        let agent = from_spec(spec, seed).map_err(|e| AgentError::new_err(e.to_string()))?;
        Ok(PyAgent {
            agent: Mutex::new(agent),
            seed,
        })
    }

    /// The canonical spec string.
    #[getter]
    fn spec(&self) -> String {
        self.lock().spec()
    }

    /// The seed the agent was built with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The agents and what they do: `[(name, description), ...]`.
    #[staticmethod]
    fn known() -> Vec<(&'static str, &'static str)> {
        agon_core::agents::AGENTS.to_vec()
    }

    /// Chooses an action (notation) for the side that decides the game's next action. The
    /// search runs with the GIL released. Raises `IllegalActionError` once the game is over.
    fn choose(&self, py: Python<'_>, game: &PyGame) -> PyResult<String> {
        let game = &game.game;
        if let Some(outcome) = game.outcome() {
            return Err(IllegalActionError::new_err(format!(
                "the game is over ({}, {}): no action can follow",
                outcome.result, outcome.termination
            )));
        }
        let action = py.detach(|| self.lock().choose(game));
        Ok(action.to_string())
    }

    /// Forgets what was learned in the previous game (search trees, tables).
    fn new_game(&self) {
        self.lock().new_game();
    }

    fn __repr__(&self) -> String {
        format!("Agent('{}', seed={})", self.lock().spec(), self.seed)
    }
}

impl PyAgent {
    fn lock(&self) -> std::sync::MutexGuard<'_, Box<dyn Agent>> {
        // A panic inside a search would poison the lock; the agent is still usable.
        self.agent.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Registers `Agent`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()
}
