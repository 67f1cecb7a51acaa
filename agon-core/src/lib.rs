//! # agon-core
//!
//! The rules engine of Agon (Queen's Guard, London 1842): the 91-cell board, the standard
//! rules with every variant of docs/rules.md, move generation, Zobrist hashing, perft and
//! random playouts.
//!
//! ```
//! use agon_core::{Game, Rules, perft};
//! let mut game = Game::new(Rules::STANDARD);
//! assert_eq!(perft(&mut game, 1), 27);
//! let action = "h9-g9".parse().unwrap();
//! game.play(action).unwrap();
//! assert_eq!(game.ply_count(), 1);
//! ```
//!
//! Layout: one module per noun of the game. [`Cell`] and [`Bitboard`] are the geometry,
//! [`Rules`] the rule set, [`Position`] the board state with legal actions and captures,
//! [`Game`] the history with repetition and the outcome, [`IllegalAction`] the one place
//! that explains why an action is not allowed.

mod action;
pub mod agents;
mod bitboard;
mod cell;
mod game;
mod illegal;
mod movegen;
mod outcome;
mod perft;
mod playout;
mod position;
mod rng;
mod rules;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup;
mod side;
mod zobrist;

pub use action::{Action, ActionList, ParseActionError};
pub use bitboard::Bitboard;
pub use cell::{Cell, Direction, ParseCellError, FILE_LETTERS};
pub use game::{Game, Ply};
pub use illegal::IllegalAction;
pub use movegen::LegalActions;
pub use outcome::{GameResult, Outcome, Termination};
pub use perft::{divide, perft, perft_full};
pub use playout::random_playout;
pub use position::{Formation, Phase, Position};
pub use rng::Rng;
pub use rules::{
    CaptureMode, Intervention, Opening, ParseRulesError, QueenRelocatedBy, RelocateThrone,
    Repetition, Rules, RulesError, Switch, SwitchInfo, TouchMove, SWITCHES,
};
pub use setup::{ParsePiecesError, PiecesErrorKind, PositionError, PositionErrorKinds, Setup};
pub use side::{Piece, PieceKind, Side};
