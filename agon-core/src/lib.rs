//! # agon-core
//!
//! The rules engine of Agon (Queen's Guard, London 1842): the 91-cell board, the standard
//! rules with every variant of docs/rules.md, move generation, Zobrist hashing, perft,
//! random playouts and computer players.
//!
//! ```
//! use agon_core::{
//!     CaptureMode, Game, IllegalAction, Intervention, Position, PositionErrorKinds, Rules,
//!     Setup, Side, Termination,
//! };
//!
//! // A rule set: parsed from its name or built switch by switch, one canonical name.
//! let rules: Rules = "capture=ring,intervention=suicide".parse()?;
//! let built = Rules::STANDARD
//!     .with_intervention(Intervention::Suicide)?
//!     .with_capture(CaptureMode::Ring)?;
//! assert_eq!((rules, rules.to_string()), (built, "intervention=suicide,capture=ring".into()));
//!
//! // Any arrangement is a Setup; Position::from_setup admits only positions of a game.
//! let setup = Setup::empty()
//!     .with_pieces(Side::White, "Qf6 Gf7 Gg6 Gg5 Gf5 Ge5 Gd6")?
//!     .with_pieces(Side::Black, "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1")?;
//! let mut game = Game::from_position(Position::from_setup(setup, Rules::STANDARD)?);
//!
//! // The legal actions as sets: count, test, list or sample them.
//! assert_eq!(game.legal().count(), 5);
//! let mistake = game.play("d6-c5".parse()?).unwrap_err();
//! assert!(matches!(mistake, IllegalAction::Outward { .. }));
//! game.play("d6-e6".parse()?)?;
//! assert_eq!(game.outcome().map(|o| o.termination), Some(Termination::Formation));
//!
//! // Refusals are typed and list every problem at once.
//! let lone_guard = Setup::empty().with_pieces(Side::White, "Gf6")?;
//! let refused = Position::from_setup(lone_guard, Rules::STANDARD).unwrap_err();
//! assert_eq!(
//!     refused.kinds(),
//!     PositionErrorKinds::PIECE_COUNT | PositionErrorKinds::GUARD_ON_THRONE
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layout: one module per noun of the game. [`Cell`] and [`Bitboard`] are the geometry,
//! [`Rules`] the rule set, [`Setup`] any arrangement and [`Position`] a position of a
//! game (legal actions, captures, formations), [`LegalActions`] the legal actions as sets,
//! [`Game`] the history with repetition and the outcome, [`IllegalAction`] the one place
//! that explains why an action is not allowed. The `serde` feature adds serde support for
//! the types with a text form.

mod action;
pub mod agents;
mod bitboard;
mod cell;
mod game;
mod hot;
mod illegal;
mod lookup16;
mod movegen;
mod outcome;
mod perft;
mod playout;
mod position;
mod repetition;
mod rng;
mod rules;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup;
mod side;
mod step_slots;
#[cfg(test)]
mod test_positions;
mod zobrist;

pub use action::{Action, ActionList, ParseActionError, ParseActionErrorKind};
pub use bitboard::Bitboard;
pub use cell::{Cell, Direction, ParseCellError, FILE_LETTERS};
pub use game::{Game, Ply};
pub use illegal::IllegalAction;
pub use movegen::LegalActions;
pub use outcome::{GameResult, Outcome, ParseResultError, ParseTerminationError, Termination};
pub use perft::{divide, perft, perft_full};
pub use playout::{random_games, random_playout, PlayoutTally};
pub use position::{Formation, Phase, Position};
pub use rng::Rng;
pub use rules::{
    CaptureMode, Intervention, Opening, ParseRulesError, QueenRelocatedBy, RelocateThrone,
    Relocation, Repetition, Rules, RulesError, Switch, SwitchInfo, TouchMove, SWITCHES,
};
pub use setup::{ParsePiecesError, PiecesErrorKind, PositionError, PositionErrorKinds, Setup};
pub use side::{Piece, PieceKind, Side};
