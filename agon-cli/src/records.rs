//! The bridge to agon-notation: position strings and game records.

use crate::error::CliError;
use crate::select::Selected;
use agon_core::{Position, Rules};
use std::path::Path;

/// Parses a position string under a rule set.
pub fn parse_position(_text: &str, _rules: Rules) -> Result<Position, CliError> {
    Err(CliError::new("--position is not available yet"))
}

/// Replays game `game` (1-based) of a record file up to `ply` plies (default: all).
pub fn select_from_record(
    _path: &Path,
    _game: usize,
    _ply: Option<usize>,
) -> Result<Selected, CliError> {
    Err(CliError::new("--record is not available yet"))
}

/// The position string of a position (None until the notation crate provides it).
pub fn position_string(_position: &Position) -> Option<String> {
    None
}

/// Writes a game record (tags, movetext, result) to a file, atomically.
pub fn save_game(
    _path: &Path,
    _game: &agon_core::Game,
    _ended: Option<agon_core::Outcome>,
    _tags: &[(String, String)],
) -> Result<(), CliError> {
    Err(CliError::new("saving records is not available yet"))
}
