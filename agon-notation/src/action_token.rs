//! One action as written in a record, with its capture annotations: `b1-c1`, `c1-c2xd1`,
//! `b5-c5xc5`, `d9@a5`, `Q@f1`, `pass`.
//!
//! Syntax ([`AnnotatedAction::parse`]) is separate from meaning ([`AnnotatedAction::check`],
//! which asks agon-core whether the action is legal and what it captures).

use crate::error::ErrorKind;
use agon_core::{
    Action, Bitboard, Cell, IllegalAction, ParseActionError, ParseCellError, PieceKind, Position,
    FILE_LETTERS,
};
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

/// Why an action token is not acceptable in a position: what went wrong, with the token,
/// the action and agon-core's reason as data. `Display` writes the message a record error
/// carries; [`ActionError::kind`] says which [`ErrorKind`] it is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ActionError {
    /// The token has nothing before its first `x` (`xd1`, or an empty token).
    MissingAction {
        /// The token as written.
        token: String,
    },
    /// The part before the first `x` is not an action.
    NotAnAction {
        /// The token as written.
        token: String,
        /// Why its action part is not an action.
        error: ParseActionError,
    },
    /// A part after an `x` is not a cell (`b1-c1x`, `b1-c1xz9`).
    NotAnAnnotation {
        /// The token as written.
        token: String,
        /// Why the part after the `x` is not a cell (its `text` is that part).
        error: ParseCellError,
    },
    /// The rules do not allow the action in the position.
    Illegal {
        /// The action.
        action: Action,
        /// agon-core's reason.
        reason: IllegalAction,
    },
    /// The capture annotations do not match what the action captured.
    Captures {
        /// The action.
        action: Action,
        /// The cells it really captured.
        captured: Bitboard,
        /// The first mismatch found.
        mismatch: CaptureMismatch,
    },
}

/// How capture annotations fail to match the pieces an action captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureMismatch {
    /// A cell annotated twice.
    Repeated(Cell),
    /// A cell annotated that the action does not capture.
    NotCaptured(Cell),
    /// A captured cell the annotations leave out.
    Missing(Cell),
}

impl ActionError {
    /// The kind of record defect: [`ErrorKind::Action`] (not an action),
    /// [`ErrorKind::Illegal`] or [`ErrorKind::Captures`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            ActionError::MissingAction { .. }
            | ActionError::NotAnAction { .. }
            | ActionError::NotAnAnnotation { .. } => ErrorKind::Action,
            ActionError::Illegal { .. } => ErrorKind::Illegal,
            ActionError::Captures { .. } => ErrorKind::Captures,
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::MissingAction { token } => {
                write!(
                    f,
                    "`{token}` is not an action: expected an action before `x`"
                )
            }
            ActionError::NotAnAction { token, error } => {
                write!(f, "`{token}` is not an action: {}", error.kind)
            }
            ActionError::NotAnAnnotation { token, error } => write!(
                f,
                "`{token}` is not an action: `x{}` is not a capture annotation: {error}; \
                 expected `x` and a cell, like `xd1`",
                error.text
            ),
            ActionError::Illegal { action, reason } => write!(f, "{action} is not legal: {reason}"),
            ActionError::Captures {
                action,
                captured,
                mismatch,
            } => {
                match mismatch {
                    CaptureMismatch::Repeated(cell) => {
                        write!(f, "the capture x{cell} is annotated twice")
                    }
                    CaptureMismatch::NotCaptured(cell) => {
                        write!(f, "x{cell} is annotated but {action} does not capture it")
                    }
                    CaptureMismatch::Missing(cell) => {
                        write!(f, "the capture x{cell} is missing from the annotation")
                    }
                }?;
                let action = *action;
                match captured.count() {
                    0 => write!(f, "; {action} captures nothing"),
                    1 => write!(f, "; {action} captures 1 piece"),
                    n => write!(f, "; {action} captures {n} pieces"),
                }?;
                write!(f, " (written {})", format_annotated(action, *captured))
            }
        }
    }
}

impl std::error::Error for ActionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ActionError::NotAnAction { error, .. } => Some(error),
            ActionError::NotAnAnnotation { error, .. } => Some(error),
            ActionError::Illegal { reason, .. } => Some(reason),
            ActionError::MissingAction { .. } | ActionError::Captures { .. } => None,
        }
    }
}

impl AnnotatedAction {
    /// Splits a token into an action and capture annotations (syntax only).
    pub fn parse(token: &str) -> Result<AnnotatedAction, ActionError> {
        AnnotatedAction::parse_bytes(token.as_bytes())
    }

    /// [`AnnotatedAction::parse`] for bytes (the reader's fast path).
    pub(crate) fn parse_bytes(token: &[u8]) -> Result<AnnotatedAction, ActionError> {
        match fast_parse(token) {
            Some(parsed) => Ok(parsed),
            None => AnnotatedAction::parse_slowly(&String::from_utf8_lossy(token)),
        }
    }

    /// The general parser, which explains every error (the fast one only accepts).
    fn parse_slowly(token: &str) -> Result<AnnotatedAction, ActionError> {
        let mut parts = token.split('x');
        let head = parts.next().unwrap_or_default();
        let action: Action = head.parse().map_err(|error| {
            let token = token.to_string();
            if head.is_empty() {
                ActionError::MissingAction { token }
            } else {
                ActionError::NotAnAction { token, error }
            }
        })?;
        let mut marked = Bitboard::EMPTY;
        let mut annotated = false;
        let mut repeated = None;
        for part in parts {
            annotated = true;
            let cell = Cell::parse(part).map_err(|error| ActionError::NotAnAnnotation {
                token: token.to_string(),
                error,
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
        let error = |mismatch| {
            Err(ActionError::Captures {
                action: self.action,
                captured,
                mismatch,
            })
        };
        if let Some(cell) = self.repeated {
            return error(CaptureMismatch::Repeated(cell));
        }
        if !self.annotated {
            return Ok(());
        }
        let extra = self.marked & !captured;
        let missing = captured & !self.marked;
        if let Some(cell) = extra.first() {
            return error(CaptureMismatch::NotCaptured(cell));
        }
        if let Some(cell) = missing.first() {
            return error(CaptureMismatch::Missing(cell));
        }
        Ok(())
    }

    /// Checks the action in a position (legality from agon-core, then the annotations) and
    /// returns the cells it captures. `position` is not changed.
    pub fn check(&self, position: &Position) -> Result<Bitboard, ActionError> {
        position
            .check(self.action)
            .map_err(|reason| ActionError::Illegal {
                action: self.action,
                reason,
            })?;
        let mut after = *position;
        let captured = after.play_unchecked(self.action);
        self.check_captures(captured)?;
        Ok(captured)
    }
}

/// File letter to file index (0 = `a`), 255 for other bytes.
const FILE_INDEX: [u8; 256] = {
    let mut table = [u8::MAX; 256];
    let mut i = 0;
    while i < FILE_LETTERS.len() {
        table[FILE_LETTERS[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// Every cell by file index and rank (1..=11), from the naming rule of docs/rules.md section 1:
/// the rank of `(q, r)` is `min(5, 5 - q) - r + 1`.
const CELLS: [[Option<Cell>; 12]; 11] = {
    let mut table = [[None; 12]; 11];
    let mut file = 0;
    while file < 11 {
        let q = file as i32 - 5;
        let top = if 5 - q < 5 { 5 - q } else { 5 };
        let mut rank = 1;
        while rank < 12 {
            table[file][rank] = Cell::from_axial(q, top + 1 - rank as i32);
            rank += 1;
        }
        file += 1;
    }
    table
};

/// Every cell whose name has one digit (ranks 1 to 9), by the two bytes of its name read
/// as a little-endian `u16` (`None` for every other pair): a cell name in one lookup, the
/// same cells [`fast_cell`] reads from two bytes (128 KiB, of which a read of records
/// touches the eleven rows of the file letters).
static TWO_BYTE_CELLS: [Option<Cell>; 1 << 16] = {
    let mut table = [None; 1 << 16];
    let mut file = 0;
    while file < FILE_LETTERS.len() {
        let mut rank = 1;
        while rank <= 9 {
            let digit = b'0' + rank as u8;
            table[FILE_LETTERS[file] as usize | (digit as usize) << 8] = CELLS[file][rank];
            rank += 1;
        }
        file += 1;
    }
    table
};

/// Reads a cell name at the start of `bytes`: the cell and the bytes it used. A name it
/// accepts is one [`Cell::parse`] accepts, read the same way.
#[inline(always)]
fn fast_cell(bytes: &[u8]) -> Option<(Cell, usize)> {
    let file = FILE_INDEX[*bytes.first()? as usize];
    let d1 = *bytes.get(1)?;
    if file == u8::MAX || !(b'1'..=b'9').contains(&d1) {
        return None;
    }
    let (rank, used) = match bytes.get(2) {
        Some(d2) if d2.is_ascii_digit() => (10 * (d1 - b'0') as usize + (d2 - b'0') as usize, 3),
        _ => ((d1 - b'0') as usize, 2),
    };
    let cell = (*CELLS[file as usize].get(rank)?)?;
    Some((cell, used))
}

/// The fast parser for well-formed tokens: reads an action and its annotations from the
/// start of `bytes` and returns them with the number of bytes used (the caller checks that
/// the token ends there). `None` sends the token to the general parser. Inlined into the
/// reader's loop (`agon validate` reads one per action): the parsed action then stays in
/// registers instead of being returned through memory.
#[inline(always)]
pub(crate) fn fast_parse_prefix(bytes: &[u8]) -> Option<(AnnotatedAction, usize)> {
    let (action, mut used) = match bytes.first()? {
        b'p' => {
            if !bytes.starts_with(b"pass") {
                return None;
            }
            (Action::Pass, 4)
        }
        &letter @ (b'Q' | b'G') => {
            if bytes.get(1) != Some(&b'@') {
                return None;
            }
            let kind = if letter == b'Q' {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            };
            let (to, n) = fast_cell(&bytes[2..])?;
            (Action::Place { kind, to }, 2 + n)
        }
        _ => {
            let (from, n) = fast_cell(bytes)?;
            let separator = *bytes.get(n)?;
            let (to, m) = fast_cell(&bytes[n + 1..])?;
            let action = match separator {
                b'-' => Action::Step { from, to },
                b'@' => Action::Relocate { from, to },
                _ => return None,
            };
            (action, n + 1 + m)
        }
    };
    let mut marked = Bitboard::EMPTY;
    let mut annotated = false;
    let mut repeated = None;
    while bytes.get(used) == Some(&b'x') {
        let (cell, n) = fast_cell(&bytes[used + 1..])?;
        annotated = true;
        if marked.contains(cell) && repeated.is_none() {
            repeated = Some(cell);
        }
        marked = marked.with(cell);
        used += 1 + n;
    }
    let parsed = AnnotatedAction {
        action,
        marked,
        annotated,
        repeated,
    };
    Some((parsed, used))
}

/// The commonest token, a step without annotations (`a5-b5`), read from the first eight
/// bytes of the reader's window (at most seven for the step and one after it), indexed
/// without bounds checks: the step and its length when the byte after it ends the word,
/// `None` for anything else (the caller then asks [`fast_parse_prefix`], which reads the
/// same steps the same way).
#[inline(always)]
pub(crate) fn fast_step(bytes: &[u8; 8]) -> Option<(Action, usize)> {
    // Two one-digit ranks (`a5-b5`), the commonest: two lookups by byte pair.
    let from = TWO_BYTE_CELLS[usize::from(u16::from_le_bytes([bytes[0], bytes[1]]))];
    let to = TWO_BYTE_CELLS[usize::from(u16::from_le_bytes([bytes[3], bytes[4]]))];
    if let (Some(from), Some(to)) = (from, to) {
        if bytes[2] == b'-' && !bytes[5].is_ascii_digit() {
            return Some((Action::Step { from, to }, 5));
        }
    }
    let (from, n) = fast_cell(&bytes[..3])?;
    if bytes[n] != b'-' {
        return None;
    }
    let (to, m) = fast_cell(&bytes[n + 1..n + 4])?;
    Some((Action::Step { from, to }, n + 1 + m))
}

/// The fast parser for a whole token.
fn fast_parse(bytes: &[u8]) -> Option<AnnotatedAction> {
    match fast_parse_prefix(bytes) {
        Some((parsed, used)) if used == bytes.len() => Some(parsed),
        _ => None,
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
        assert_eq!(e.kind(), ErrorKind::Action);
        assert_eq!(
            e.to_string(),
            "`b1-c1x` is not an action: `x` is not a capture annotation: `` is not a cell: empty \
             cell name; expected `x` and a cell, like `xd1`"
        );
        let e = AnnotatedAction::parse("j1-c1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`j1-c1` is not an action: `j1` is not a cell: files are a b c d e f g h i k l (there is no j)"
        );
        assert_eq!(
            AnnotatedAction::parse("xd1").unwrap_err(),
            ActionError::MissingAction {
                token: "xd1".into()
            }
        );
    }

    /// Each error carries its data, and the core error it comes from as its `source`.
    #[test]
    fn errors_carry_the_token_and_the_cause() {
        use std::error::Error;
        let e = AnnotatedAction::parse("j1-c1").unwrap_err();
        let ActionError::NotAnAction { token, error } = &e else {
            panic!("{e:?}")
        };
        assert_eq!((token.as_str(), error.text.as_str()), ("j1-c1", "j1-c1"));
        assert_eq!(e.source().unwrap().to_string(), error.to_string());
        let e = AnnotatedAction::parse("b1-c1xz9").unwrap_err();
        let ActionError::NotAnAnnotation { error, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(error.text, "z9");
        assert_eq!(e.kind(), ErrorKind::Action);
        assert_eq!(e.source().unwrap().to_string(), error.to_string());
        let start = Position::start(agon_core::Rules::STANDARD);
        let e = parse_action("f1-f3", &start).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Illegal);
        let ActionError::Illegal { action, reason } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(action.to_string(), "f1-f3");
        assert_eq!(e.to_string(), format!("f1-f3 is not legal: {reason}"));
        assert_eq!(e.source().unwrap().to_string(), reason.to_string());
        let e = AnnotatedAction::parse("b5-c5xc5xc5")
            .unwrap()
            .check_captures(cell("c5").bit())
            .unwrap_err();
        assert_eq!(
            e,
            ActionError::Captures {
                action: "b5-c5".parse().unwrap(),
                captured: cell("c5").bit(),
                mismatch: CaptureMismatch::Repeated(cell("c5")),
            }
        );
        assert_eq!(
            e.to_string(),
            "the capture xc5 is annotated twice; b5-c5 captures 1 piece (written b5-c5xc5)"
        );
        assert!(e.source().is_none());
    }

    /// The fast parser accepts nothing the general one rejects, and agrees with it.
    #[test]
    fn fast_parser_agrees_with_the_general_one() {
        let mut rng = agon_core::Rng::new(5);
        let fragments = [
            "a1", "f11", "l6", "l7", "j2", "a0", "k12", "c01", "e10", "g", "1", "-", "@", "x",
            "Q@", "G@", "q@", "pass", "pas", "X", "d", "b5", "c5", "h9", " ",
        ];
        let mut accepted = 0;
        for _ in 0..100_000 {
            let len = 1 + rng.below(6);
            let token: String = (0..len)
                .map(|_| fragments[rng.below(fragments.len())])
                .collect();
            let slow = AnnotatedAction::parse_slowly(&token);
            if let Some(fast) = fast_parse(token.as_bytes()) {
                accepted += 1;
                assert_eq!(slow, Ok(fast), "{token}");
            }
        }
        assert!(accepted > 1000, "{accepted}");
        for cell in Cell::all() {
            let name = cell.to_string();
            assert_eq!(fast_cell(name.as_bytes()), Some((cell, name.len())));
        }
        for bad in ["a0", "a7", "f12", "j1", "a01", "l7", "A1"] {
            assert_eq!(fast_cell(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn annotation_must_match_exactly() {
        let a = AnnotatedAction::parse("c1-c2xd1").unwrap();
        assert_eq!(a.check_captures(cell("d1").bit()), Ok(()));
        let e = a.check_captures(Bitboard::EMPTY).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Captures);
        assert_eq!(
            e.to_string(),
            "xd1 is annotated but c1-c2 does not capture it; c1-c2 captures nothing (written c1-c2)"
        );
        let e = a
            .check_captures(cell("d1").bit().with(cell("b1")))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the capture xb1 is missing from the annotation; c1-c2 captures 2 pieces (written c1-c2xb1xd1)"
        );
        let bare = AnnotatedAction::parse("c1-c2").unwrap();
        assert_eq!(bare.check_captures(cell("d1").bit()), Ok(()));
    }
}
