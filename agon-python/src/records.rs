//! `agon.read_records` and `agon.validate`: agon-notation's validating reader, one game at
//! a time, with each game's verdict.

use crate::errors::{record_error, RecordError};
use crate::game::PyGame;
use crate::source;
use agon_notation::{format_annotated, format_position, Records, ValidGame};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::io::Read;
use std::sync::Mutex;

/// One game of a record file with its verdict. A valid game has its tags, actions,
/// captures, comments, result and termination; an invalid one has `valid == False` and `error`, a
/// `RecordError` that says where and why (the message `agon validate` prints).
#[pyclass(module = "agon", name = "Record", frozen)]
pub struct PyRecord {
    /// The file, or `None` for text.
    #[pyo3(get)]
    file: Option<String>,
    /// 1-based index of the game in its input.
    #[pyo3(get)]
    index: u64,
    /// The line where the game starts (for an invalid game, the line of the defect).
    #[pyo3(get)]
    line: u64,
    valid: Option<Box<ValidGame>>,
    error: Option<Py<PyAny>>,
}

#[pymethods]
impl PyRecord {
    /// Whether the game is valid: every action legal, captures and result right.
    #[getter]
    fn valid(&self) -> bool {
        self.valid.is_some()
    }

    /// The defect of an invalid game (a `RecordError`), or `None`.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.error.as_ref().map(|e| e.clone_ref(py))
    }

    /// Every tag: the record's own (roster tags first), then the engine's (`Result`,
    /// `Variant`, `Position`, `Termination`, those that apply); `{}` for an invalid game.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        if let Some(valid) = &self.valid {
            let record = &valid.record;
            for (name, value) in record.tags() {
                dict.set_item(name, value)?;
            }
            for name in agon_notation::ENGINE_TAGS {
                if let Some(value) = record.tag(name) {
                    dict.set_item(name, value)?;
                }
            }
        }
        Ok(dict)
    }

    /// The rule set's canonical name (`None` for an invalid game).
    #[getter]
    fn variant(&self) -> Option<String> {
        self.valid.as_ref().map(|v| v.record.rules.to_string())
    }

    /// The recorded result (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`), `None` if invalid.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.valid.as_ref().map(|v| v.record.result.token())
    }

    /// Why the game ended, from the record or the rules; `None` if it did not (or invalid).
    #[getter]
    fn termination(&self) -> Option<&'static str> {
        let valid = self.valid.as_ref()?;
        valid
            .record
            .termination
            .or(valid.game.outcome().map(|o| o.termination))
            .map(|t| t.name())
    }

    /// The start position string if the game does not start from its rule set's start.
    #[getter]
    fn start(&self) -> Option<String> {
        self.valid
            .as_ref()
            .and_then(|v| v.record.start.as_ref().map(format_position))
    }

    /// The actions, in notation (`[]` for an invalid game).
    #[getter]
    fn actions(&self) -> Vec<String> {
        self.plies().map(|p| p.action.to_string()).collect()
    }

    /// The actions with their capture annotations, as the canonical record writes them
    /// (`"c1-c2xd1"`).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.plies()
            .map(|p| format_annotated(p.action, p.captures))
            .collect()
    }

    /// The cells captured by each action.
    #[getter]
    fn captures(&self) -> Vec<Vec<String>> {
        self.plies()
            .map(|p| p.captures.map(|c| c.to_string()).collect())
            .collect()
    }

    /// The comments, in order, as `(ply, text)`: `ply` is the number of actions before the
    /// comment (0 in the tags or before the first action), `text` is trimmed.
    #[getter]
    fn comments(&self) -> Vec<(u64, String)> {
        self.valid
            .iter()
            .flat_map(|v| v.record.comments())
            .map(|c| (c.ply, c.text))
            .collect()
    }

    /// The game replayed to its end, as an `agon.Game` (raises `RecordError` if invalid).
    fn game(&self, py: Python<'_>) -> PyResult<PyGame> {
        match &self.valid {
            Some(valid) => Ok(PyGame {
                game: valid.game.clone(),
            }),
            None => Err(self.raise(py)),
        }
    }

    /// The canonical record text of a valid game (raises `RecordError` if invalid).
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        match &self.valid {
            Some(valid) => Ok(valid.record.to_string()),
            None => Err(self.raise(py)),
        }
    }

    fn __repr__(&self) -> String {
        match &self.valid {
            Some(v) => format!(
                "Record(index={}, variant='{}', plies={}, result='{}')",
                self.index,
                v.record.rules,
                v.record.plies.len(),
                v.record.result.token()
            ),
            None => format!("Record(index={}, valid=False)", self.index),
        }
    }
}

impl PyRecord {
    fn plies(&self) -> impl Iterator<Item = &agon_core::Ply> {
        self.valid.iter().flat_map(|v| v.record.plies.iter())
    }

    fn raise(&self, py: Python<'_>) -> PyErr {
        match &self.error {
            Some(error) => PyErr::from_value(error.bind(py).clone()),
            None => RecordError::new_err("the game is not valid"),
        }
    }

    fn new(
        py: Python<'_>,
        file: Option<String>,
        item: Result<ValidGame, agon_notation::RecordError>,
    ) -> PyRecord {
        match item {
            Ok(valid) => PyRecord {
                file,
                index: valid.index,
                line: valid.line,
                valid: Some(Box::new(valid)),
                error: None,
            },
            Err(error) => PyRecord {
                file,
                index: error.game,
                line: error.line,
                valid: None,
                error: Some(record_error(py, &error).into_value(py).into_any()),
            },
        }
    }
}

/// The iterator `read_records` returns: one `Record` per game, read as needed (constant
/// memory, GIL released while a game is read and checked).
#[pyclass(module = "agon", name = "RecordReader")]
pub struct PyRecordReader {
    records: Mutex<Records<Box<dyn Read + Send>>>,
    file: Option<String>,
    strict: bool,
}

#[pymethods]
impl PyRecordReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyRecord>> {
        let item = py.detach(|| {
            self.records
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .next()
        });
        let Some(item) = item else {
            return Ok(None);
        };
        if self.strict {
            if let Err(error) = &item {
                return Err(record_error(py, error));
            }
        }
        Ok(Some(PyRecord::new(py, self.file.clone(), item)))
    }
}

/// Reads game records (`.agn`) game by game and checks each one through the engine.
///
/// `source` is a path, record text (a `str` with a line break or starting with `[`),
/// `bytes`, or a file object. Yields one `Record` per game, valid or not (a bad game never
/// stops the reader); with `strict=True` the first invalid game raises its `RecordError`.
#[pyfunction]
#[pyo3(signature = (source, strict = false))]
fn read_records(source: &Bound<'_, PyAny>, strict: bool) -> PyResult<PyRecordReader> {
    let source = source::one(source)?;
    let file = source.name();
    let mut records = Records::new(source.open()?);
    if let Some(name) = &file {
        records = records.with_file_name(name.clone());
    }
    Ok(PyRecordReader {
        records: Mutex::new(records),
        file,
        strict,
    })
}

/// What `agon.validate` found: counts, and the defect of every invalid game in input order.
/// True in a boolean context when every game is valid.
#[pyclass(module = "agon", name = "Validation", frozen)]
pub struct PyValidation {
    /// Games read.
    #[pyo3(get)]
    games: u64,
    /// Valid games.
    #[pyo3(get)]
    valid: u64,
    /// Invalid games.
    #[pyo3(get)]
    invalid: u64,
    /// Inputs read (files, or 1 for text).
    #[pyo3(get)]
    files: usize,
    errors: Vec<Py<PyAny>>,
}

#[pymethods]
impl PyValidation {
    /// The `RecordError` of every invalid game, in input order.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.errors.iter().map(|e| e.clone_ref(py)).collect()
    }

    /// Whether every game is valid.
    #[getter]
    fn ok(&self) -> bool {
        self.invalid == 0
    }

    fn __bool__(&self) -> bool {
        self.ok()
    }

    /// The summary line of `agon validate`: `12 games: 11 valid, 1 invalid`.
    fn summary(&self) -> String {
        let files = if self.files == 1 {
            String::new()
        } else {
            format!(" in {} files", self.files)
        };
        let word = if self.games == 1 { "game" } else { "games" };
        format!(
            "{} {word}{files}: {} valid, {} invalid",
            self.games, self.valid, self.invalid
        )
    }

    fn __repr__(&self) -> String {
        format!("Validation('{}')", self.summary())
    }
}

/// Checks every game of one or more inputs, like `agon validate`: each a path, a folder
/// (every `.agn` file under it), record text, bytes or a file object. Returns a
/// `Validation`; a file that cannot be opened raises `OSError` with the CLI's message.
/// Releases the GIL while checking.
#[pyfunction]
fn validate(py: Python<'_>, sources: &Bound<'_, PyAny>) -> PyResult<PyValidation> {
    let sources = source::many(sources)?;
    let mut inputs = Vec::with_capacity(sources.len());
    for source in &sources {
        inputs.push((source.name(), source.open()?));
    }
    let files = sources.len();
    let (games, defects) = py.detach(move || {
        let mut games = 0u64;
        let mut defects = Vec::new();
        for (name, input) in inputs {
            let mut records = Records::new(input);
            if let Some(name) = name {
                records = records.with_file_name(name);
            }
            for item in records {
                games += 1;
                if let Err(error) = item {
                    defects.push(error);
                }
            }
        }
        (games, defects)
    });
    let errors = defects
        .iter()
        .map(|e| record_error(py, e).into_value(py).into_any())
        .collect::<Vec<_>>();
    Ok(PyValidation {
        games,
        valid: games - defects.len() as u64,
        invalid: defects.len() as u64,
        files,
        errors,
    })
}

/// Registers `read_records`, `validate` and their classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRecord>()?;
    m.add_class::<PyRecordReader>()?;
    m.add_class::<PyValidation>()?;
    m.add_function(wrap_pyfunction!(read_records, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    Ok(())
}
