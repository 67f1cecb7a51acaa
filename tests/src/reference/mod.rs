//! A deliberately simple, independent implementation of docs/rules.md, used to cross-check the
//! engine: cube coordinates, an array of cells, every rule answered by looking at cells.
//! It shares no code with agon-core; [`convert`] translates values by their names.

pub mod convert;
mod game;
mod hex;
mod position;
mod rules;

pub use game::{ref_perft, RefGame, RefOutcome};
pub use hex::{Hex, DIRECTIONS};
pub use position::{Board, Colour, Kind, Man, Move};
pub use rules::{RefIntervention, RefRelocation, RefRules};
