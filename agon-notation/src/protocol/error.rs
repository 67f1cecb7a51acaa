//! What can be wrong with a protocol line, as data: the command, the field, the value
//! found and the form expected. `Display` writes the one-line message an engine prints
//! after `error ` (docs/protocol.md), so callers that only print it need nothing else.

use super::{one_line, quote, COMMANDS, MESSAGES};
use crate::action_token::ActionError;
use crate::position_notation::PositionError;
use agon_core::{Action, Outcome, ParseRulesError, Rules};
use std::fmt;

/// A line that does not follow the protocol, or a `position` that does not replay: what
/// was wrong and what was expected. An engine prints it as `error MESSAGE` (its `Display`,
/// always one line).
///
/// ```
/// use agon_notation::protocol::{Command, Found, ProtocolError};
/// let error = "go depth 0".parse::<Command>().unwrap_err();
/// assert_eq!(
///     error,
///     ProtocolError::Number {
///         command: "go",
///         key: "depth".into(),
///         min: 1,
///         max: 255,
///         found: Found::Word("0".into()),
///     }
/// );
/// assert_eq!(error.to_string(), "go: `depth` needs a whole number from 1 to 255, found `0`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The line has no words.
    EmptyLine {
        /// Whether a command or an engine message was expected.
        of: LineKind,
    },
    /// The first word is no command (or no engine message).
    UnknownWord {
        /// Whether a command or an engine message was expected.
        of: LineKind,
        /// The word found.
        word: String,
    },
    /// A command or message that takes no arguments has some.
    Arguments {
        /// The command or message.
        command: &'static str,
        /// The arguments found, joined by single spaces.
        found: String,
    },
    /// The line does not have the shape its command requires.
    Malformed {
        /// The command or message.
        command: &'static str,
        /// The form expected, as written in the message (`` `setoption name NAME value
        /// VALUE` ``, `one action`...).
        expected: String,
        /// What was found instead.
        found: Found,
    },
    /// A field (a `go` limit, an `info` field, a spin option field) the command does not
    /// know.
    UnknownField {
        /// The command or message.
        command: &'static str,
        /// What the field is called in the message (`limit`, `field`, `spin field`).
        what: &'static str,
        /// The word found.
        word: String,
        /// The fields the command knows, as written in the message.
        expected: &'static str,
    },
    /// A field given twice.
    Repeated {
        /// The command or message.
        command: &'static str,
        /// The field.
        key: String,
    },
    /// A field that needs a whole number in a range has none.
    Number {
        /// The command or message.
        command: &'static str,
        /// The field (`depth`, `score units`...).
        key: String,
        /// The smallest value accepted.
        min: i128,
        /// The largest value accepted.
        max: i128,
        /// What was found instead ([`Found::EndOfLine`] or [`Found::Word`]).
        found: Found,
    },
    /// `go infinite` with another limit.
    InfiniteWithLimit,
    /// An `option` declaration whose name is given but whose type or values are wrong.
    Option {
        /// The option's name.
        name: String,
        /// What is wrong with it.
        problem: OptionProblem,
    },
    /// `variant NAME` with a name that is no rule set.
    Variant(ParseRulesError),
    /// A `position` whose start is not a position string under the current rule set.
    Position {
        /// The position string given.
        text: String,
        /// The rule set it was read under.
        rules: Rules,
        /// Why it is not a position.
        error: PositionError,
    },
    /// A `position` whose action number `number` (1-based) is not an action or is not
    /// legal in turn.
    Move {
        /// 1-based number of the action in the `moves` list.
        number: usize,
        /// Why it is refused.
        error: ActionError,
    },
    /// A `position` that plays an action after the end of the game.
    GameOver {
        /// 1-based number of the action in the `moves` list.
        number: usize,
        /// The action.
        action: Action,
        /// How the game had ended.
        outcome: Outcome,
    },
}

/// Whether a line was read as a controller's command or as an engine's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// A [`super::Command`] (the words of [`COMMANDS`]).
    Command,
    /// An [`super::EngineMessage`] (the words of [`MESSAGES`]).
    Message,
}

/// What a line held where a form was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// Nothing is said of what was found (the line simply does not fit the form).
    Unspecified,
    /// A required part is missing (`the name`, `` `type` ``).
    Missing(&'static str),
    /// The line ended.
    EndOfLine,
    /// These words (quoted back, shortened to 40 characters).
    Word(String),
}

/// What is wrong with a declared `option` (see [`ProtocolError::Option`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionProblem {
    /// A spin option lacks one of `default`, `min` and `max`.
    SpinIncomplete,
    /// A spin option's default is outside its range.
    SpinOrder {
        /// The default.
        default: i128,
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: i128,
    },
    /// A check option without `default true` or `default false`.
    CheckDefault,
    /// A string option without `default TEXT`.
    StringDefault,
    /// A type other than `spin`, `check` and `string` (empty when none was given).
    UnknownType(String),
}

/// A value that does not fit the option it is given to (see
/// [`super::EngineOption::check_value`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionValueError {
    /// The option's name.
    pub name: String,
    /// What the option takes.
    pub expected: OptionValueKind,
    /// The value given.
    pub value: String,
}

/// What an option's value must be (see [`OptionValueError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValueKind {
    /// A whole number in `min..=max`.
    Number {
        /// The smallest value.
        min: i128,
        /// The largest value.
        max: i128,
    },
    /// `true` or `false`.
    Boolean,
}

impl fmt::Display for LineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineKind::Command => "command",
            LineKind::Message => "message",
        })
    }
}

impl LineKind {
    fn words(self) -> String {
        match self {
            LineKind::Command => COMMANDS.join(", "),
            LineKind::Message => MESSAGES.join(", "),
        }
    }
}

impl fmt::Display for Found {
    /// The end of a message: nothing, `; X is missing`, `, found the end of the line` or
    /// ``, found `WORDS` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Unspecified => Ok(()),
            Found::Missing(what) => write!(f, "; {what} is missing"),
            Found::EndOfLine => f.write_str(", found the end of the line"),
            Found::Word(word) => write!(f, ", found `{}`", quote(word)),
        }
    }
}

impl fmt::Display for OptionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionProblem::SpinIncomplete => {
                f.write_str("a spin option needs default, min and max")
            }
            OptionProblem::SpinOrder { default, min, max } => write!(
                f,
                "expected min <= default <= max, found {min}, {default}, {max}"
            ),
            OptionProblem::CheckDefault => {
                f.write_str("a check option needs `default true` or `default false`")
            }
            OptionProblem::StringDefault => write!(
                f,
                "a string option needs `default TEXT` (`{}` for none)",
                super::message::EMPTY
            ),
            OptionProblem::UnknownType(word) => write!(
                f,
                "unknown type `{}`; expected spin, check or string",
                quote(word)
            ),
        }
    }
}

impl ProtocolError {
    /// The message before it is made one line.
    fn render(&self) -> String {
        match self {
            ProtocolError::EmptyLine { of } => {
                format!("empty line; expected a {of}: {}", of.words())
            }
            ProtocolError::UnknownWord { of, word } => format!(
                "unknown {of} `{}`; expected one of {}",
                quote(word),
                of.words()
            ),
            ProtocolError::Arguments { command, found } => {
                format!("{command}: takes no arguments, found `{}`", quote(found))
            }
            ProtocolError::Malformed {
                command,
                expected,
                found,
            } => format!("{command}: expected {expected}{found}"),
            ProtocolError::UnknownField {
                command,
                what,
                word,
                expected,
            } => format!(
                "{command}: unknown {what} `{}`; expected {expected}",
                quote(word)
            ),
            ProtocolError::Repeated { command, key } => {
                format!("{command}: `{key}` is given twice")
            }
            ProtocolError::Number {
                command,
                key,
                min,
                max,
                found,
            } => format!("{command}: `{key}` needs a whole number from {min} to {max}{found}"),
            ProtocolError::InfiniteWithLimit => {
                "go: `infinite` takes no other limit (it searches until `stop`)".to_string()
            }
            ProtocolError::Option { name, problem } => format!("option `{name}`: {problem}"),
            ProtocolError::Variant(error) => format!("variant: {error}"),
            ProtocolError::Position { text, rules, error } => format!(
                "position: `{}` is not a position under the rules `{rules}`: {error}",
                quote(text)
            ),
            ProtocolError::Move { number, error } => format!("position: move {number}: {error}"),
            ProtocolError::GameOver {
                number,
                action,
                outcome,
            } => format!(
                "position: move {number} ({action}): the game is already over ({} by {})",
                outcome.result, outcome.termination
            ),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&one_line(&self.render()))
    }
}

impl std::error::Error for ProtocolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProtocolError::Variant(error) => Some(error),
            ProtocolError::Position { error, .. } => Some(error),
            ProtocolError::Move { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for OptionValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option `{}` takes ", self.name)?;
        match self.expected {
            OptionValueKind::Number { min, max } => {
                write!(f, "a whole number from {min} to {max}")?
            }
            OptionValueKind::Boolean => f.write_str("`true` or `false`")?,
        }
        write!(f, ", not `{}`", quote(&self.value))
    }
}

impl std::error::Error for OptionValueError {}
