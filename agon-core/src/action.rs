//! Actions: steps, relocations, placements and passes, in the notation of docs/notation.md.

use crate::{Cell, PieceKind};
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
    pub reason: String,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an action: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseActionError {}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Parses one action without capture annotations: `b1-c1`, `d9@a5`, `Q@f1`, `G@b1`,
    /// `pass`. Cell names are strict (see [`Cell::parse`]).
    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let error = |reason: String| ParseActionError {
            text: text.to_string(),
            reason,
        };
        if text == "pass" {
            return Ok(Action::Pass);
        }
        let cell = |part: &str| Cell::parse(part).map_err(|e| error(e.to_string()));
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
        Err(error(
            "expected a step `b1-c1`, a relocation `d9@a5`, a placement `Q@f1`/`G@b1` or `pass`"
                .into(),
        ))
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
