//! Where records come from: a path, a folder of `.agn` files, record text, or a Python file
//! object. One rule decides between a path and text given as `str`: text has a line break
//! or starts with `[` (a tag); anything else is a path.

use pyo3::exceptions::{PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyTypeError};
use pyo3::prelude::*;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// One input: its name in messages and its bytes.
pub enum Source {
    /// A record file.
    File(PathBuf),
    /// Record text given directly (or read from a file object).
    Text(Vec<u8>),
}

impl Source {
    /// The name used in error messages (`None` for text, as the reader's messages then
    /// start with the line).
    pub fn name(&self) -> Option<String> {
        match self {
            Source::File(path) => Some(path.display().to_string()),
            Source::Text(_) => None,
        }
    }

    /// Opens the input for reading.
    pub fn open(&self) -> PyResult<Box<dyn Read + Send>> {
        match self {
            Source::File(path) => std::fs::File::open(path)
                .map(|f| Box::new(std::io::BufReader::new(f)) as Box<dyn Read + Send>)
                .map_err(|e| open_error(path, &e)),
            Source::Text(bytes) => Ok(Box::new(Cursor::new(bytes.clone()))),
        }
    }
}

/// The CLI's message for a file that cannot be opened, as the matching `OSError`.
fn open_error(path: &Path, error: &std::io::Error) -> PyErr {
    let message = format!("cannot open {}: {}", path.display(), describe_io(error));
    match error.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// A short description of an I/O error without the OS error code.
fn describe_io(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(end) => text[..end].to_string(),
                None => text,
            }
        }
    }
}

/// One source from a Python value: `str` (path or text, see the module comment),
/// `os.PathLike`, `bytes`, or an object with `read()`.
pub fn one(value: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(text) = value.extract::<String>() {
        let trimmed = text.trim_start();
        return Ok(if text.contains('\n') || trimmed.starts_with('[') {
            Source::Text(text.into_bytes())
        } else {
            Source::File(PathBuf::from(text))
        });
    }
    if let Ok(bytes) = value.extract::<Vec<u8>>() {
        return Ok(Source::Text(bytes));
    }
    if let Ok(path) = value.extract::<PathBuf>() {
        return Ok(Source::File(path));
    }
    if value.hasattr("read")? {
        let content = value.call_method0("read")?;
        if let Ok(text) = content.extract::<String>() {
            return Ok(Source::Text(text.into_bytes()));
        }
        return Ok(Source::Text(content.extract::<Vec<u8>>()?));
    }
    Err(PyTypeError::new_err(format!(
        "records come from a path, a folder, record text, bytes or a file object, not {}",
        value.get_type().name()?
    )))
}

/// Sources from a value that is one source or a list of them; a folder stands for every
/// `.agn` file under it, in name order.
pub fn many(value: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
    let items: Vec<Bound<'_, PyAny>> = if value.is_instance_of::<pyo3::types::PyList>()
        || value.is_instance_of::<pyo3::types::PyTuple>()
    {
        value.try_iter()?.collect::<PyResult<_>>()?
    } else {
        vec![value.clone()]
    };
    let mut sources = Vec::new();
    for item in items {
        match one(&item)? {
            Source::File(path) if path.is_dir() => {
                let mut files = Vec::new();
                agn_files(&path, &mut files).map_err(|e| open_error(&path, &e))?;
                files.sort();
                sources.extend(files.into_iter().map(Source::File));
            }
            source => sources.push(source),
        }
    }
    Ok(sources)
}

/// Every `.agn` file under a folder.
fn agn_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            agn_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "agn") {
            out.push(path);
        }
    }
    Ok(())
}
