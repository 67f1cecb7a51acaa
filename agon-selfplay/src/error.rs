//! The one error type of the harness: every failure says what went wrong and where.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a self-play command failed.
#[derive(Debug)]
pub enum Error {
    /// Reading or writing a file failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A settings problem: a bad variant or agent name, a bad option value, a bad config file.
    Settings(String),
    /// An output directory does not hold what it should (missing files, another experiment,
    /// malformed rows).
    Output {
        /// The file or directory.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// An agent returned an illegal action (a bug in the agent, reported with the game).
    Agent(String),
    /// Drawing a chart failed.
    Chart(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A problem with the contents of `path`.
    pub fn output(path: &Path, message: impl Into<String>) -> Error {
        Error::Output {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Settings(message) => f.write_str(message),
            Error::Output { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Agent(message) => write!(f, "agent error: {message}"),
            Error::Chart(message) => write!(f, "chart error: {message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The harness's result type.
pub type Result<T> = std::result::Result<T, Error>;
