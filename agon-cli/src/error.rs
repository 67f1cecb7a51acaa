//! The one error type of the command: a message, an optional hint, and an exit code.

use std::fmt;
use std::io;

/// Exit code for "the command worked and found problems" (invalid games).
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit code for usage, input and I/O errors.
pub const EXIT_ERROR: u8 = 2;

/// An error that ends the command: printed as `agon: MESSAGE` and, if present, a second
/// line with a hint on how to fix it.
#[derive(Debug)]
pub enum CliError {
    /// A user-facing error.
    Message {
        /// What was wrong.
        message: String,
        /// How to fix it (optional).
        hint: Option<String>,
    },
    /// The reader of our output went away (`agon moves | head -1`): end quietly, with success.
    BrokenPipe,
}

impl CliError {
    /// An error with a message only.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError::Message {
            message: message.into(),
            hint: None,
        }
    }

    /// An error with a message and a hint line.
    pub fn with_hint(message: impl Into<String>, hint: impl Into<String>) -> CliError {
        CliError::Message {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }

    /// An I/O error about a named file (or stdin/stdout).
    pub fn io(what: &str, error: io::Error) -> CliError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            return CliError::BrokenPipe;
        }
        CliError::new(format!("{what}: {}", describe_io(&error)))
    }
}

/// A short, lower-case description of an I/O error without the OS error code.
pub fn describe_io(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::IsADirectory => "is a directory".into(),
        io::ErrorKind::InvalidData => "not valid UTF-8 text".into(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(end) => text[..end].to_string(),
                None => text,
            }
        }
    }
}

impl From<io::Error> for CliError {
    /// Errors writing to stdout: a closed pipe is a quiet end, anything else is reported.
    fn from(error: io::Error) -> CliError {
        CliError::io("cannot write the output", error)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Message { message, hint } => {
                write!(f, "agon: {message}")?;
                if let Some(hint) = hint {
                    write!(f, "\n  hint: {hint}")?;
                }
                Ok(())
            }
            CliError::BrokenPipe => Ok(()),
        }
    }
}

/// The result type of every subcommand: the exit code on success.
pub type CliResult = Result<u8, CliError>;
