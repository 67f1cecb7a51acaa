//! Actions: steps, relocations, placements and passes, in the notation of docs/notation.md.

use crate::{Cell, ParseCellError, PieceKind};
use std::fmt;
use std::str::FromStr;

/// One action: everything a side can do on its turn.
///
/// Ordering is by kind, then cells in (file, rank) order, which gives listings a stable,
/// readable order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece moves to an adjacent empty cell: `b1-c1`.
    Step {
        /// Where the piece stands.
        from: Cell,
        /// The adjacent empty cell it moves to.
        to: Cell,
    },
    /// A captured piece is put back into play: `d9@a5`.
    Relocate {
        /// Where the captured piece stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
    },
    /// A piece in hand is placed during a placement opening: `Q@f1`, `G@b1`.
    Place {
        /// Queen or guard (the side is the side to move).
        kind: PieceKind,
        /// The empty outer-ring cell.
        to: Cell,
    },
    /// The side does nothing (touch-move, or a forced pass under `ludii`).
    Pass,
}

impl Action {
    /// The cell a piece arrives on, if any.
    pub fn destination(self) -> Option<Cell> {
        match self {
            Action::Step { to, .. } | Action::Relocate { to, .. } | Action::Place { to, .. } => {
                Some(to)
            }
            Action::Pass => None,
        }
    }

    /// The cell a step or a relocation arrives on; `None` for placements and passes (what
    /// the arrival shortcut of `Position::outcome_after_arrival_in` is told).
    #[inline]
    pub(crate) fn arrival(self) -> Option<Cell> {
        match self {
            Action::Step { to, .. } | Action::Relocate { to, .. } => Some(to),
            _ => None,
        }
    }

    /// The cell a piece leaves, if any.
    pub fn origin(self) -> Option<Cell> {
        match self {
            Action::Step { from, .. } | Action::Relocate { from, .. } => Some(from),
            Action::Place { .. } | Action::Pass => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Step { from, to } => write!(f, "{from}-{to}"),
            Action::Relocate { from, to } => write!(f, "{from}@{to}"),
            Action::Place { kind, to } => write!(f, "{}@{to}", kind.letter()),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Why a text is not an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseActionError {
    /// The offending text.
    pub text: String,
    /// What was wrong.
    pub kind: ParseActionErrorKind,
}

/// What was wrong with a text that is not an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseActionErrorKind {
    /// It has the shape of an action, but a part is not a cell.
    Cell(ParseCellError),
    /// It has none of the shapes `b1-c1`, `d9@a5`, `Q@f1`/`G@b1`, `pass`.
    Shape,
}

impl fmt::Display for ParseActionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseActionErrorKind::Cell(e) => write!(f, "{e}"),
            ParseActionErrorKind::Shape => f.write_str(
                "expected a step `b1-c1`, a relocation `d9@a5`, a placement `Q@f1`/`G@b1` or \
                 `pass`",
            ),
        }
    }
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an action: {}", self.text, self.kind)
    }
}

impl std::error::Error for ParseActionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseActionErrorKind::Cell(e) => Some(e),
            ParseActionErrorKind::Shape => None,
        }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Parses one action without capture annotations: `b1-c1`, `d9@a5`, `Q@f1`, `G@b1`,
    /// `pass`. Cell names are strict (see [`Cell::parse`]).
    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let error = |kind| ParseActionError {
            text: text.to_string(),
            kind,
        };
        if text == "pass" {
            return Ok(Action::Pass);
        }
        let cell = |part: &str| Cell::parse(part).map_err(|e| error(ParseActionErrorKind::Cell(e)));
        if let Some((from, to)) = text.split_once('-') {
            return Ok(Action::Step {
                from: cell(from)?,
                to: cell(to)?,
            });
        }
        if let Some((from, to)) = text.split_once('@') {
            let to = cell(to)?;
            return match from {
                "Q" => Ok(Action::Place {
                    kind: PieceKind::Queen,
                    to,
                }),
                "G" => Ok(Action::Place {
                    kind: PieceKind::Guard,
                    to,
                }),
                _ => Ok(Action::Relocate {
                    from: cell(from)?,
                    to,
                }),
            };
        }
        Err(error(ParseActionErrorKind::Shape))
    }
}

/// A fixed-capacity list of actions, big enough for any position (no allocation).
#[derive(Clone)]
pub struct ActionList {
    items: [Action; ActionList::CAPACITY],
    len: usize,
}

impl ActionList {
    /// At least the most actions any position can have: six captured guards, each to any
    /// of at most 30 outer-ring cells (180; a queen relocation has at most 90 cells).
    pub const CAPACITY: usize = 192;

    /// An empty list.
    #[inline]
    pub fn new() -> ActionList {
        ActionList {
            items: [Action::Pass; ActionList::CAPACITY],
            len: 0,
        }
    }

    /// Appends an action.
    #[inline]
    pub fn push(&mut self, action: Action) {
        debug_assert!(self.len < ActionList::CAPACITY);
        self.items[self.len] = action;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The actions as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }

    /// The actions as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Action] {
        &mut self.items[..self.len]
    }
}

impl Default for ActionList {
    fn default() -> ActionList {
        ActionList::new()
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn parse_errors_say_which_part_is_wrong() {
        let e = "b1-z9".parse::<Action>().unwrap_err();
        assert_eq!(e.text, "b1-z9");
        let ParseActionErrorKind::Cell(cell) = &e.kind else {
            panic!("a bad cell: {e:?}")
        };
        assert_eq!(cell.text, "z9");
        assert!(e.source().is_some());
        assert_eq!(e.to_string(), format!("`b1-z9` is not an action: {cell}"));
        let e = "resign".parse::<Action>().unwrap_err();
        assert_eq!(e.kind, ParseActionErrorKind::Shape);
        assert!(e.source().is_none());
        assert_eq!(
            e.to_string(),
            "`resign` is not an action: expected a step `b1-c1`, a relocation `d9@a5`, a \
             placement `Q@f1`/`G@b1` or `pass`"
        );
    }
}
