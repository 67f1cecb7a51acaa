//! One action as written in a record, with its capture annotations: `b1-c1`, `c1-c2xd1`,
//! `b5-c5xc5`, `d9@a5`, `Q@f1`, `pass`.
//!
//! Syntax ([`AnnotatedAction::parse`]) is separate from meaning ([`AnnotatedAction::check`],
//! which asks agon-core whether the action is legal and what it captures).

use crate::error::ErrorKind;
use agon_core::{Action, Bitboard, Cell, Position};
use std::fmt;

/// An action token split into the action and the cells its annotations name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnnotatedAction {
    /// The action.
    pub action: Action,
    /// The cells named by `x` annotations (empty when there are none).
    pub marked: Bitboard,
    /// Whether the token had any `x` annotation.
    pub annotated: bool,
    /// A cell that was named twice, if any (always an error).
    pub repeated: Option<Cell>,
}

/// Why an action token is not acceptable in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    /// [`ErrorKind::Action`] (not an action), [`ErrorKind::Illegal`] or
    /// [`ErrorKind::Captures`].
    pub kind: ErrorKind,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ActionError {}

impl AnnotatedAction {
    /// Splits a token into an action and capture annotations (syntax only).
    pub fn parse(token: &str) -> Result<AnnotatedAction, ActionError> {
        let syntax = |reason: String| ActionError {
            kind: ErrorKind::Action,
            message: format!("`{token}` is not an action: {reason}"),
        };
        let mut parts = token.split('x');
        let head = parts.next().unwrap_or_default();
        let action: Action = head.parse().map_err(|e: agon_core::ParseActionError| {
            if head.is_empty() {
                syntax("expected an action before `x`".into())
            } else {
                syntax(e.reason)
            }
        })?;
        let mut marked = Bitboard::EMPTY;
        let mut annotated = false;
        let mut repeated = None;
        for part in parts {
            annotated = true;
            let cell = Cell::parse(part).map_err(|e| {
                syntax(format!(
                    "`x{part}` is not a capture annotation ({}); expected `x` and a cell, like `xd1`",
                    e.reason
                ))
            })?;
            if marked.contains(cell) && repeated.is_none() {
                repeated = Some(cell);
            }
            marked = marked.with(cell);
        }
        Ok(AnnotatedAction {
            action,
            marked,
            annotated,
            repeated,
        })
    }

    /// Compares the annotations with the pieces the action really captured: no annotation
    /// at all is accepted; otherwise the cells must be exactly the captured ones, each once.
    pub fn check_captures(&self, captured: Bitboard) -> Result<(), ActionError> {
        let error = |message: String| {
            Err(ActionError {
                kind: ErrorKind::Captures,
                message: format!(
                    "{message}; {} (written {})",
                    describe_captures(self.action, captured),
                    format_annotated(self.action, captured)
                ),
            })
        };
        if let Some(cell) = self.repeated {
            return error(format!("the capture x{cell} is annotated twice"));
        }
        if !self.annotated {
            return Ok(());
        }
        let extra = self.marked & !captured;
        let missing = captured & !self.marked;
        if let Some(cell) = extra.first() {
            return error(format!(
                "x{cell} is annotated but {} does not capture it",
                self.action
            ));
        }
        if let Some(cell) = missing.first() {
            return error(format!(
                "the capture x{cell} is missing from the annotation"
            ));
        }
        Ok(())
    }

    /// Checks the action in a position (legality from agon-core, then the annotations) and
    /// returns the cells it captures. `position` is not changed.
    pub fn check(&self, position: &Position) -> Result<Bitboard, ActionError> {
        position.check(self.action).map_err(|reason| ActionError {
            kind: ErrorKind::Illegal,
            message: format!("{} is not legal: {reason}", self.action),
        })?;
        let mut after = *position;
        let captured = after.play_unchecked(self.action);
        self.check_captures(captured)?;
        Ok(captured)
    }
}

/// Parses one action token (annotations optional) and checks it in a position: returns the
/// action and the cells it captures.
///
/// ```
/// use agon_core::{Position, Rules};
/// use agon_notation::parse_action;
/// let start = Position::start(Rules::STANDARD);
/// let (action, captured) = parse_action("h9-g9", &start).unwrap();
/// assert_eq!(action.to_string(), "h9-g9");
/// assert!(captured.is_empty());
/// assert!(parse_action("h9-g9xf1", &start).is_err());
/// ```
pub fn parse_action(token: &str, position: &Position) -> Result<(Action, Bitboard), ActionError> {
    let annotated = AnnotatedAction::parse(token)?;
    let captured = annotated.check(position)?;
    Ok((annotated.action, captured))
}

/// Writes an action with its capture annotations in canonical order: `c1-c2xd1`.
pub fn format_annotated(action: Action, captures: Bitboard) -> String {
    let mut text = action.to_string();
    for cell in captures {
        text.push('x');
        text.push_str(&cell.to_string());
    }
    text
}

fn describe_captures(action: Action, captured: Bitboard) -> String {
    match captured.count() {
        0 => format!("{action} captures nothing"),
        1 => format!("{action} captures 1 piece"),
        n => format!("{action} captures {n} pieces"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    #[test]
    fn splits_actions_and_annotations() {
        let a = AnnotatedAction::parse("e4-e5xf5xd5").unwrap();
        assert_eq!(a.action.to_string(), "e4-e5");
        assert_eq!(a.marked, cell("d5").bit().with(cell("f5")));
        assert!(a.annotated);
        assert_eq!(a.repeated, None);
        let a = AnnotatedAction::parse("b5-c5xc5xc5").unwrap();
        assert_eq!(a.repeated, Some(cell("c5")));
        let a = AnnotatedAction::parse("pass").unwrap();
        assert_eq!(a.action, Action::Pass);
        assert!(!a.annotated);
    }

    #[test]
    fn rejects_malformed_tokens() {
        let e = AnnotatedAction::parse("b1-c1x").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Action);
        assert_eq!(
            e.message,
            "`b1-c1x` is not an action: `x` is not a capture annotation (empty cell name); \
             expected `x` and a cell, like `xd1`"
        );
        let e = AnnotatedAction::parse("j1-c1").unwrap_err();
        assert_eq!(
            e.message,
            "`j1-c1` is not an action: `j1` is not a cell: files are a b c d e f g h i k l (there is no j)"
        );
        assert!(AnnotatedAction::parse("xd1").is_err());
    }

    #[test]
    fn annotation_must_match_exactly() {
        let a = AnnotatedAction::parse("c1-c2xd1").unwrap();
        assert_eq!(a.check_captures(cell("d1").bit()), Ok(()));
        let e = a.check_captures(Bitboard::EMPTY).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Captures);
        assert_eq!(
            e.message,
            "xd1 is annotated but c1-c2 does not capture it; c1-c2 captures nothing (written c1-c2)"
        );
        let e = a
            .check_captures(cell("d1").bit().with(cell("b1")))
            .unwrap_err();
        assert_eq!(
            e.message,
            "the capture xb1 is missing from the annotation; c1-c2 captures 2 pieces (written c1-c2xb1xd1)"
        );
        let bare = AnnotatedAction::parse("c1-c2").unwrap();
        assert_eq!(bare.check_captures(cell("d1").bit()), Ok(()));
    }
}
