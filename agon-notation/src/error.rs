//! Typed errors of the record reader, with file, line, column, game and ply.

use agon_core::Side;
use std::fmt;

/// What kind of defect a record has. The names (see [`ErrorKind::name`]) are stable and
/// appear in JSON output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input could not be read.
    Io,
    /// Bytes that are not UTF-8.
    Encoding,
    /// Text that is not part of the record syntax (unknown token, unclosed comment, token
    /// too long, variations).
    Syntax,
    /// A malformed or duplicated tag pair.
    Tag,
    /// A `Variant` tag that names no rule set.
    Variant,
    /// A `Position` tag that is not a valid position string.
    Position,
    /// A move number that does not match the ply it stands before.
    MoveNumber,
    /// A token in the movetext that is not an action.
    Action,
    /// An action that the rules do not allow in the position reached.
    Illegal,
    /// Capture annotations that do not match what the action captured.
    Captures,
    /// An action after the rules ended the game.
    AfterEnd,
    /// The result (tag, token, or the one the final position implies) is inconsistent.
    Result,
    /// A `Termination` tag that names no termination or does not fit the game.
    Termination,
}

impl ErrorKind {
    /// The stable name: `io`, `encoding`, `syntax`, `tag`, `variant`, `position`,
    /// `move-number`, `action`, `illegal`, `captures`, `after-end`, `result`,
    /// `termination`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Io => "io",
            ErrorKind::Encoding => "encoding",
            ErrorKind::Syntax => "syntax",
            ErrorKind::Tag => "tag",
            ErrorKind::Variant => "variant",
            ErrorKind::Position => "position",
            ErrorKind::MoveNumber => "move-number",
            ErrorKind::Action => "action",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Captures => "captures",
            ErrorKind::AfterEnd => "after-end",
            ErrorKind::Result => "result",
            ErrorKind::Termination => "termination",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A defect in one game of a record file.
///
/// Displayed as `file:line:column: game G, ply P (move M, Side): message`; the file part is
/// left out when the reader has no file name, the ply part when the defect is not at an
/// action (`ply == 0`: tags, result).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RecordError {
    /// The file name given to the reader, if any.
    pub file: Option<String>,
    /// 1-based line (0 when the error has no place in a text, e.g. a replayed record).
    pub line: u64,
    /// 1-based column in characters (0 when there is no text).
    pub column: u64,
    /// 1-based index of the game in the file.
    pub game: u64,
    /// 1-based ply of the action at fault; 0 for defects of tags or of the result.
    pub ply: u64,
    /// The move number of that ply (0 when `ply` is 0).
    pub move_number: u64,
    /// The side to move at that ply, if `ply > 0`.
    #[serde(serialize_with = "serialize_side")]
    pub side: Option<Side>,
    /// What kind of defect.
    pub kind: ErrorKind,
    /// What was wrong and what was expected.
    pub message: String,
}

fn serialize_side<S: serde::Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_str(&side.name().to_ascii_lowercase()),
        None => s.serialize_none(),
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
        }
        if self.line > 0 {
            write!(f, "{}:{}: ", self.line, self.column)?;
        } else if self.file.is_some() {
            f.write_str(" ")?;
        }
        write!(f, "game {}", self.game)?;
        if self.ply > 0 {
            write!(f, ", ply {}", self.ply)?;
            if let Some(side) = self.side {
                write!(f, " (move {}, {side})", self.move_number)?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RecordError {}

/// The move number of a 1-based ply in a game whose first ply is played by `first`, as
/// records number moves (`1. h9-g9 b7-c7 2. ...`; a game Black starts opens `1...`).
pub fn move_number(ply: u64, first: Side) -> u64 {
    let offset = u64::from(first == Side::Black);
    (ply - 1 + offset) / 2 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_follow_pgn() {
        assert_eq!(move_number(1, Side::White), 1);
        assert_eq!(move_number(2, Side::White), 1);
        assert_eq!(move_number(17, Side::White), 9);
        assert_eq!(move_number(1, Side::Black), 1);
        assert_eq!(move_number(2, Side::Black), 2);
        assert_eq!(move_number(3, Side::Black), 2);
    }

    #[test]
    fn json_has_every_field() {
        let error = RecordError {
            file: None,
            line: 4,
            column: 10,
            game: 1,
            ply: 0,
            move_number: 0,
            side: None,
            kind: ErrorKind::Result,
            message: "m".into(),
        };
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"file":null,"line":4,"column":10,"game":1,"ply":0,"move_number":0,"side":null,"kind":"result","message":"m"}"#
        );
    }

    #[test]
    fn display_names_every_place() {
        let error = RecordError {
            file: Some("games.agn".into()),
            line: 12,
            column: 5,
            game: 3,
            ply: 17,
            move_number: 9,
            side: Some(Side::White),
            kind: ErrorKind::Illegal,
            message: "e4-e5 is not legal: e5 lies between two Black pieces".into(),
        };
        assert_eq!(
            error.to_string(),
            "games.agn:12:5: game 3, ply 17 (move 9, White): e4-e5 is not legal: e5 lies \
             between two Black pieces"
        );
    }
}
