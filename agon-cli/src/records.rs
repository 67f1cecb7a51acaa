//! The bridge to agon-notation for single positions and games: position strings given on
//! the command line, and records written atomically.

use crate::error::{describe_io, CliError};
use agon_core::{Game, Outcome, Position, Rules};
use agon_notation::GameRecord;
use std::path::Path;

/// Parses a position string under a rule set.
pub fn parse_position(text: &str, rules: Rules) -> Result<Position, CliError> {
    agon_notation::parse_position(text.trim(), rules).map_err(|e| {
        CliError::with_hint(
            format!("--position is not a position string: {e}"),
            format!(
                "the standard start is `{}`; `agon show` prints the string of any position",
                agon_notation::START_POSITION
            ),
        )
    })
}

/// Writes a game record (tags, movetext, result) to a file, atomically. `ended` is a result
/// the rules did not produce (a resignation).
pub fn save_game(
    path: &Path,
    game: &Game,
    ended: Option<Outcome>,
    tags: &[(String, String)],
) -> Result<(), CliError> {
    let tags: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut record = GameRecord::from_game(game, &tags);
    if let Some(outcome) = ended {
        record.result = outcome.result;
        record.termination = Some(outcome.termination);
    }
    agon_files::write_file(path, record.to_string().as_bytes()).map_err(|e| {
        CliError::new(format!(
            "cannot save {}: {}",
            path.display(),
            describe_io(&e)
        ))
    })
}
