//! The engine protocol: a line protocol over standard input and output, modelled on UCI
//! (chess) and GTP (Go), through which any program can play Agon against the harness, a
//! GUI or another engine. `docs/protocol.md` is its reference, with a full session.
//!
//! This module holds the message types, their parsing and their printing, so that both
//! ends (the engine `agon engine` and the harness's client in agon-selfplay) share one
//! implementation:
//! - [`Command`]: what the controller sends (`agon`, `setoption`, `newgame`, `variant`,
//!   `position`, `go`, `stop`, `isready`, `quit`);
//! - [`EngineMessage`]: what the engine answers (`id`, `option`, `agonok`, `readyok`,
//!   `info`, `bestmove`, `error`);
//! - [`read_line`]: reading one line with a length cap, so that hostile input cannot
//!   exhaust memory.
//!
//! As elsewhere in this crate, syntax is separate from meaning: the parsers check a line's
//! shape only; [`PositionCommand::game`] replays a `position` command through agon-core,
//! and whoever receives a `bestmove` checks its action in the position it asked about.
//! Every action is written in the notation of docs/notation.md, capture annotations
//! included.
//!
//! ```
//! use agon_notation::protocol::{Command, EngineMessage, Go};
//! let go: Command = "go depth 3".parse().unwrap();
//! assert_eq!(go, Command::Go(Go { depth: Some(3), ..Go::default() }));
//! let error = "go deep 3".parse::<Command>().unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "go: unknown limit `deep`; expected depth N, nodes N, movetime MS or infinite"
//! );
//! let answer: EngineMessage = "bestmove h9-g9".parse().unwrap();
//! assert_eq!(answer.to_string(), "bestmove h9-g9");
//! ```

mod command;
mod error;
mod line;
mod message;

pub use command::{Command, Go, PositionCommand, Start, COMMANDS, MAX_DEPTH};
pub use error::{Found, LineKind, OptionProblem, OptionValueError, OptionValueKind, ProtocolError};
pub use line::{read_line, Line, MAX_LINE};
pub use message::{
    EngineMessage, EngineOption, EvalLine, IdField, Info, OptionKind, Score, MESSAGES,
};

/// Text made safe for one protocol line: control characters (line breaks included) become
/// spaces.
pub(crate) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Shortens text quoted back in an error message to at most 40 characters.
pub(crate) fn quote(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}...")
    }
}

/// Reads a whole number in `min..=max` given after `key` in `command`.
pub(crate) fn number<T>(
    command: &'static str,
    key: &str,
    text: Option<&str>,
    min: T,
    max: T,
) -> Result<T, ProtocolError>
where
    T: std::str::FromStr + PartialOrd + Into<i128> + Copy,
{
    let error = |found: Found| ProtocolError::Number {
        command,
        key: key.to_string(),
        min: min.into(),
        max: max.into(),
        found,
    };
    match text {
        None => Err(error(Found::EndOfLine)),
        Some(text) => match text.parse::<T>() {
            Ok(n) if n >= min && n <= max => Ok(n),
            _ => Err(error(Found::Word(text.to_string()))),
        },
    }
}
