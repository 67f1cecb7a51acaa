//! `agon.Game`: a game in progress, over `agon_core::Game`. Actions go in as notation
//! (`"h9-g9"`) or as ids (`agon.action_id`); every legality question is agon-core's.

use crate::action_ids;
use crate::errors::{position_error, record_error, AgonError, IllegalActionError};
use crate::observation;
use crate::rules::{rules_from, PyRules};
use agon_core::{Action, ActionList, Bitboard, Cell, Game, Rng, Side};
use agon_notation::{format_position, parse_action, GameRecord};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList};

/// A game of Agon: a start position, the actions played and the outcome, adjudicated by
/// the rules after every action.
///
/// `Game()` starts the standard game; `Game("capture=ring")` a variant;
/// `Game(position="...")` any position (a position string, as `agon show` prints).
/// Actions are strings in the notation of docs/notation.md (`"h9-g9"`, `"d9@a5"`,
/// `"Q@f1"`, `"pass"`) or integer ids (`agon.action_id`). `play` and `undo` change the game
/// in place, so a search can walk the tree without copying it.
#[pyclass(module = "agon", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
}

impl PyGame {
    /// The action a Python value names: a string in notation (checked against the position,
    /// capture annotations included) or an id (not checked here). Refused once the game is
    /// over.
    fn action(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Some(outcome) = self.game.outcome() {
            return Err(IllegalActionError::new_err(format!(
                "the game is over ({}, {}): no action can follow",
                outcome.result, outcome.termination
            )));
        }
        if let Ok(id) = action.extract::<i64>() {
            // Checked by `Game::play` (or `is_legal`), which explains a refusal.
            return action_ids::action_of(id);
        }
        let text: String = action.extract().map_err(|_| {
            IllegalActionError::new_err(format!(
                "an action is a string such as \"h9-g9\" or an integer id, not {}",
                action
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        parse_action(text.trim(), self.game.position())
            .map(|(action, _)| action)
            .map_err(|e| IllegalActionError::new_err(e.to_string()))
    }

    fn generate(&self) -> ActionList {
        let mut list = ActionList::new();
        self.game.legal().generate(&mut list);
        list
    }
}

/// The names of a set of cells, in (file, rank) order.
fn cell_names(cells: Bitboard) -> Vec<String> {
    cells.map(|c| c.to_string()).collect()
}

/// `"white"` or `"black"`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant = None, position = None))]
    fn new(
        py: Python<'_>,
        variant: Option<&Bound<'_, PyAny>>,
        position: Option<&str>,
    ) -> PyResult<PyGame> {
        let rules = match variant {
            Some(v) => rules_from(v)?,
            None => agon_core::Rules::STANDARD,
        };
        let game = match position {
            None => Game::new(rules),
            Some(text) => Game::from_position(
                agon_notation::parse_position(text.trim(), rules)
                    .map_err(|e| position_error(py, &e))?,
            ),
        };
        Ok(PyGame { game })
    }

    /// Replays a game record (one game, `.agn` text) and returns the game; raises
    /// `RecordError` if the record is not a valid game.
    #[staticmethod]
    fn from_record(py: Python<'_>, text: &str) -> PyResult<PyGame> {
        let record: GameRecord = text.parse().map_err(|e| record_error(py, &e))?;
        let game = record.to_game().map_err(|e| record_error(py, &e))?;
        Ok(PyGame { game })
    }

    /// The rule set.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.game.rules())
    }

    /// The canonical name of the rule set (`"standard"`, `"capture=ring"`, ...).
    #[getter]
    fn variant(&self) -> String {
        self.game.rules().to_string()
    }

    /// Every legal action now, in notation, in (kind, cells) order; `[]` once the game is
    /// over.
    fn legal_actions(&self) -> Vec<String> {
        self.game
            .legal()
            .to_vec()
            .into_iter()
            .map(|a| a.to_string())
            .collect()
    }

    /// The ids of the legal actions, ascending; `[]` once the game is over.
    fn legal_action_ids(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self
            .generate()
            .iter()
            .map(|&a| action_ids::to_id(a))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// A 0/1 vector of length `agon.ACTION_COUNT` with a 1 at each legal action id (an
    /// action mask), as a NumPy array of `int8`.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![0u8; action_ids::ACTION_COUNT as usize];
        for &action in self.generate().iter() {
            mask[action_ids::to_id(action) as usize] = 1;
        }
        numpy_array(py, &mask, "int8", &[action_ids::ACTION_COUNT as usize])
    }

    /// The number of legal actions (0 once the game is over), without listing them.
    fn count_legal(&self) -> usize {
        self.game.legal().count()
    }

    /// Whether an action (notation or id) is legal now.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> bool {
        self.action(action)
            .is_ok_and(|a| self.game.legal().contains(a))
    }

    /// Plays an action (notation or id) and returns the cells of the pieces it captured.
    /// Raises `IllegalActionError`, with the reason, for an action that is not legal (the
    /// game is unchanged).
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let action = self.action(action)?;
        let captures = self
            .game
            .play(action)
            .map_err(|e| IllegalActionError::new_err(format!("{action} is not legal: {e}")))?;
        Ok(cell_names(captures))
    }

    /// Takes back the last action and returns it (notation), or `None` at the start.
    fn undo(&mut self) -> Option<String> {
        self.game.undo().map(|ply| ply.action.to_string())
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` while the game goes on.
    fn result(&self) -> &'static str {
        self.game.result().token()
    }

    /// White's score (1, 0.5 or 0), or `None` while the game goes on.
    fn white_score(&self) -> Option<f64> {
        self.game.result().white_score()
    }

    /// Why the game ended (`"formation"`, `"six-guards"`, `"no-moves"`, `"repetition"`,
    /// `"double-pass"`, `"move-limit"`, ...), or `None` while it goes on.
    fn termination(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.termination.name())
    }

    /// The side to move: `"white"` or `"black"`.
    fn to_move(&self) -> &'static str {
        side_name(self.game.position().to_move())
    }

    /// The side that chooses the next action: the side to move, except when a captured
    /// queen is relocated by the opponent (`queen-relocated-by=opponent`).
    fn decider(&self) -> &'static str {
        side_name(self.game.position().decider())
    }

    /// The number of plies (actions) played.
    fn ply(&self) -> usize {
        self.game.ply_count()
    }

    /// The actions played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.game
            .plies()
            .iter()
            .map(|p| p.action.to_string())
            .collect()
    }

    /// The position string of the current position (docs/notation.md).
    fn position(&self) -> String {
        format_position(self.game.position())
    }

    /// The position string of the start position.
    fn start_position(&self) -> String {
        format_position(self.game.start())
    }

    /// The pieces on the board: `{cell: (side, kind, captured)}`, e.g.
    /// `{"e1": ("white", "queen", False), ...}`.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let position = self.game.position();
        let mut cells: Vec<Cell> = position.occupied().collect();
        cells.sort();
        for cell in cells {
            if let Some(piece) = position.piece_at(cell) {
                let value = (side_name(piece.side), piece.kind.name(), piece.captured);
                dict.set_item(cell.to_string(), value)?;
            }
        }
        Ok(dict)
    }

    /// The pieces a side still holds in hand (placement openings): `{"queen": n, "guard": m}`.
    fn in_hand<'py>(&self, py: Python<'py>, side: &str) -> PyResult<Bound<'py, PyDict>> {
        let side = Side::parse(side).ok_or_else(|| {
            AgonError::new_err(format!(
                "`{side}` is not a side: use \"white\" or \"black\""
            ))
        })?;
        let dict = PyDict::new(py);
        for kind in [agon_core::PieceKind::Queen, agon_core::PieceKind::Guard] {
            dict.set_item(kind.name(), self.game.position().in_hand(side, kind))?;
        }
        Ok(dict)
    }

    /// The current position as planes on the 11x11 embedding: a NumPy `float32` array of
    /// shape `agon.OBSERVATION_SHAPE`; `agon.OBSERVATION_PLANES` names the planes.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let shape = [
            observation::PLANES.len(),
            observation::WIDTH,
            observation::WIDTH,
        ];
        let mut planes = vec![0f32; shape.iter().product()];
        observation::fill(self.game.position(), &mut planes);
        let bytes: Vec<u8> = planes.iter().flat_map(|v| v.to_ne_bytes()).collect();
        numpy_array(py, &bytes, "float32", &shape)
    }

    /// The static evaluation agon's agents share, from White's point of view (100 is about
    /// one guard stepping from the outer ring to ring 1), or `None` when the side to move
    /// has no legal action. Meaningless once the game is over.
    fn evaluate(&self) -> Option<i32> {
        agon_core::agents::evaluate(self.game.position())
    }

    /// The position's Zobrist hash (equal positions, same hash).
    fn hash(&self) -> u64 {
        self.game.position().hash()
    }

    /// An independent copy of the game (history included).
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    #[pyo3(signature = (memo = None))]
    fn __deepcopy__(&self, memo: Option<&Bound<'_, PyAny>>) -> PyGame {
        let _ = memo;
        self.clone()
    }

    /// Ends the game as a draw by a ply limit (termination `move-limit`), as harnesses do.
    fn adjudicate_move_limit(&mut self) {
        self.game.adjudicate_move_limit();
    }

    /// Plays uniformly random legal actions, entirely in Rust (the GIL is released), until
    /// the game ends or has `max_plies` plies in all; a game stopped there is adjudicated a
    /// `move-limit` draw (`undo` takes that back with the last action). Deterministic for a
    /// seed. Returns the number of plies this call played.
    #[pyo3(signature = (seed, max_plies = 10_000))]
    fn random_playout(&mut self, py: Python<'_>, seed: u64, max_plies: usize) -> usize {
        let game = &mut self.game;
        py.detach(|| agon_core::random_playout(game, &mut Rng::new(seed), max_plies))
    }

    /// The game as a record (`.agn` text, canonical form), with extra tags such as
    /// `{"Event": "notebook"}`.
    #[pyo3(signature = (tags = None))]
    fn record(&self, tags: Option<Vec<(String, String)>>) -> String {
        let tags = tags.unwrap_or_default();
        let tags: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        GameRecord::from_game(&self.game, &tags).to_string()
    }

    fn __str__(&self) -> String {
        self.game.position().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(variant='{}', ply={}, result='{}', position='{}')",
            self.game.rules(),
            self.game.ply_count(),
            self.game.result().token(),
            format_position(self.game.position())
        )
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let rebuild = py
            .import("agon._agon")?
            .getattr("Game")?
            .getattr("from_record")?
            .unbind();
        Ok((rebuild, (self.record(None),)))
    }
}

/// A NumPy array over a copy of `bytes`, of `dtype` and `shape` (writable: it owns a
/// `bytearray`).
fn numpy_array<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let buffer = PyByteArray::new(py, bytes);
    let flat = numpy.call_method1("frombuffer", (buffer, dtype))?;
    flat.call_method1("reshape", (PyList::new(py, shape)?,))
}

/// Registers `Game`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()
}
