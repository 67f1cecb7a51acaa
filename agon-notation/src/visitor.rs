//! What the streaming reader reports, in the manner of pgn-reader's `Visitor`: places in
//! the input, the tokens of a game, and syntax defects. The caller implements [`Visitor`]
//! and hands it to [`crate::Reader::read_game`].

use crate::action_token::AnnotatedAction;
use crate::annotation::{Nag, Suffix};
use crate::error::ErrorKind;
use agon_core::GameResult;

/// A place in the input: 1-based line and column (in characters), and the byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Location {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, counting characters (a UTF-8 byte-order mark is not counted).
    pub column: u64,
    /// 0-based byte offset from the start of the input (a byte-order mark counts: it is
    /// in the input), so that a caller can cut the input at a game or token.
    pub offset: u64,
}

impl Location {
    /// The start of an input: line 1, column 1, offset 0.
    pub const START: Location = Location {
        line: 1,
        column: 1,
        offset: 0,
    };
}

/// Whether the reader should keep reporting the current game to the visitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// Skip the rest of this game (the reader still finds where it ends).
    Skip,
}

/// How a move number was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dots {
    /// `12.`: before White's action.
    One,
    /// `12...`: before Black's action.
    Three,
}

/// A syntax defect found by the reader. After reporting one, the reader skips the rest of
/// the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where.
    pub at: Location,
    /// [`ErrorKind::Syntax`], [`ErrorKind::Encoding`] or [`ErrorKind::Tag`].
    pub kind: ErrorKind,
    /// What was found and what was expected.
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    /// `line:column: message`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// What a caller of [`crate::Reader::read_game`] does with the parts of a game. Every method has a
/// default that ignores its input.
pub trait Visitor {
    /// A game starts (its first tag, token or defect is at `at`).
    fn begin_game(&mut self, at: Location) {
        let _ = at;
    }
    /// A tag pair, with escapes resolved; `at` is the `[`, `value_at` the first character
    /// inside the quotes.
    fn tag(&mut self, name: &str, value: &str, at: Location, value_at: Location) -> Flow {
        let _ = (name, value, at, value_at);
        Flow::Continue
    }
    /// The tag section is over; the movetext starts at `at`.
    fn begin_movetext(&mut self, at: Location) -> Flow {
        let _ = at;
        Flow::Continue
    }
    /// A move number (`12.` or `12...`; a number beyond `u64` is a defect of kind
    /// [`ErrorKind::MoveNumber`] instead).
    fn move_number(&mut self, number: u64, dots: Dots, at: Location) -> Flow {
        let _ = (number, dots, at);
        Flow::Continue
    }
    /// An action token, split into the action and its capture annotations (a token that
    /// is not an action is a [`SyntaxError`] of kind [`ErrorKind::Action`]).
    fn action(&mut self, action: AnnotatedAction, at: Location) -> Flow {
        let _ = (action, at);
        Flow::Continue
    }
    /// A NAG: `$0` to `$255` (a larger number is a [`SyntaxError`]).
    fn nag(&mut self, nag: Nag, at: Location) -> Flow {
        let _ = (nag, at);
        Flow::Continue
    }
    /// A move suffix: `!`, `?`, `!!`, `??`, `!?`, `?!` (with or without a space after the
    /// action).
    fn suffix(&mut self, suffix: Suffix, at: Location) -> Flow {
        let _ = (suffix, at);
        Flow::Continue
    }
    /// A variation opens (`(`): the tokens up to the matching [`Visitor::end_variation`]
    /// are an alternative to the action before it. Variations nest at most
    /// [`MAX_VARIATION_DEPTH`](crate::MAX_VARIATION_DEPTH) deep; a `)` without a `(`, a deeper `(`, and a variation
    /// still open at the result or the game's end are [`SyntaxError`]s.
    fn begin_variation(&mut self, at: Location) -> Flow {
        let _ = at;
        Flow::Continue
    }
    /// The variation opened last closes (`)`).
    fn end_variation(&mut self, at: Location) -> Flow {
        let _ = at;
        Flow::Continue
    }
    /// A comment: `text` is what stands between `{` and `}`, or after `;` to the end of the
    /// line, as written (carriage returns dropped, cut to [`MAX_COMMENT`](crate::MAX_COMMENT) bytes).
    fn comment(&mut self, text: &str, at: Location) -> Flow {
        let _ = (text, at);
        Flow::Continue
    }
    /// The result token.
    fn result(&mut self, result: GameResult, at: Location) -> Flow {
        let _ = (result, at);
        Flow::Continue
    }
    /// A syntax defect; the rest of the game is skipped.
    fn syntax_error(&mut self, error: SyntaxError) {
        let _ = error;
    }
    /// The game is over: after its result token, or where the next game or the input
    /// starts or ends (`at`).
    fn end_game(&mut self, at: Location) {
        let _ = at;
    }
}
