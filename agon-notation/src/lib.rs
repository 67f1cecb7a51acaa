//! # agon-notation
//!
//! Agon game records (`.agn`, PGN-shaped) and position strings: a streaming reader that
//! validates every game through agon-core, a canonical writer, exact typed errors, and
//! JSON. The grammar, the position notation and every error kind are documented in
//! `docs/notation.md`.
//!
//! ## Positions
//! [`parse_position`] and [`format_position`] read and write the one-line position
//! notation; [`START_POSITION`] is the standard start.
//!
//! ```
//! use agon_core::{Position, Rules};
//! use agon_notation::{format_position, parse_position, START_POSITION};
//! let start = parse_position(START_POSITION, Rules::STANDARD).unwrap();
//! assert_eq!(start, Position::start(Rules::STANDARD));
//! assert_eq!(format_position(&start), START_POSITION);
//! ```
//!
//! ## Single actions
//! [`parse_action`] reads one action token, with or without capture annotations, and
//! checks it in a position; [`format_annotated`] writes one.
//!
//! ## Game records
//! A [`GameRecord`] holds tags, rules, an optional non-standard start, the plies with their
//! captures, their [`Annotations`] (comments, NAGs, suffixes and variations, kept per ply),
//! the result and the termination. Build one from a game with
//! [`GameRecord::from_game`], print it with `Display` (canonical form), replay it with
//! [`GameRecord::to_game`], read one from text with `str::parse`.
//!
//! ```
//! use agon_core::{Game, Rules};
//! use agon_notation::GameRecord;
//! let mut game = Game::new(Rules::STANDARD);
//! game.play("h9-g9".parse().unwrap()).unwrap();
//! let record = GameRecord::from_game(&game, &[("Event", "example")]);
//! let text = record.to_string();
//! assert_eq!(text, "[Event \"example\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n1. h9-g9 *\n");
//! let again: GameRecord = text.parse().unwrap();
//! assert_eq!(again, record);
//! assert_eq!(again.to_game().unwrap().position(), game.position());
//! ```
//!
//! ## Reading files
//! [`Records`] reads any byte source game by game in constant memory and yields, per game,
//! a [`ValidGame`] or the game's first defect as a [`RecordError`] (file, line, column,
//! game, ply, [`ErrorKind`], message); it carries on after a bad game. [`Reader`] is the
//! syntax-only tokenizer underneath, driving a [`Visitor`].
//!
//! ## JSON
//! [`GameRecord`] implements serde's `Serialize` and `Deserialize` (deserializing validates
//! the game); [`PositionJson`] is the JSON form of a position.

mod action_token;
mod annotation;
mod error;
mod json;
mod position_notation;
pub mod protocol;
mod reader;
mod record;
mod records;
mod verdict;
mod visitor;
mod writer;

pub use action_token::{
    format_annotated, parse_action, ActionError, AnnotatedAction, CaptureMismatch,
};
pub use annotation::{
    Annotation, Annotations, Comment, Nag, ParseNagError, Suffix, Variation, MAX_VARIATION_DEPTH,
};
pub use error::{move_number, ErrorKind, RecordError};
pub use json::{
    JsonMovePlace, JsonMoveProblem, JsonRecordError, PieceJson, PositionJson, RemovedJson,
};
pub use position_notation::{
    format_position, parse_position, parse_setup, PositionError, PositionField, PositionProblem,
    PLACEMENT_START_POSITION, START_POSITION,
};
pub use reader::{Reader, MAX_COMMENT, MAX_GAME_BYTES, MAX_TOKEN};
pub use record::{
    GameRecord, ENGINE_TAGS, LINE_WIDTH, MAX_TAGS, MAX_TAG_NAME, MAX_TAG_VALUE, ROSTER_TAGS,
};
pub use records::{Records, ValidGame, MAX_ANNOTATIONS};
pub use verdict::{allowed_results, check_result, VerdictError};
pub use visitor::{Dots, Flow, Location, SyntaxError, Visitor};
