//! The bridge to agon-notation: position strings, reading one game of a record file, and
//! writing records atomically.

use crate::error::{describe_io, CliError};
use crate::files::{open_input, Input};
use crate::select::Selected;
use agon_core::{Game, Outcome, Position, Rules};
use agon_notation::{
    format_position, AnnotatedAction, GameRecord, Location, Reader, Records, Visitor,
};
use std::io::Read;
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

/// The position string of a position.
pub fn position_string(position: &Position) -> Option<String> {
    Some(format_position(position))
}

/// Replays game `game` (1-based) of a record file up to `ply` plies (default: all). When
/// the game is invalid, the plies before its first bad action can still be selected.
pub fn select_from_record(
    path: &Path,
    game: usize,
    ply: Option<usize>,
) -> Result<Selected, CliError> {
    if game == 0 {
        return Err(CliError::new("--game counts from 1"));
    }
    let name = path.display().to_string();
    // Read stdin once into memory so that an invalid game can be read a second time.
    let bytes = match open_input(path)? {
        Input::Stdin(mut stdin) => {
            let mut bytes = Vec::new();
            stdin
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::io("cannot read stdin", e))?;
            Some(bytes)
        }
        Input::File(_) => None,
    };
    let reopen = || -> Result<Box<dyn Read>, CliError> {
        match &bytes {
            Some(bytes) => Ok(Box::new(std::io::Cursor::new(bytes.clone()))),
            None => match open_input(path)? {
                Input::File(file) => Ok(Box::new(file)),
                Input::Stdin(stdin) => Ok(Box::new(stdin)),
            },
        }
    };
    let records = Records::new(reopen()?).with_file_name(name.clone());
    let mut found = 0usize;
    for item in records {
        found += 1;
        if found < game {
            continue;
        }
        return match item {
            Ok(valid) => {
                let record = valid.record;
                let total = record.plies.len();
                let wanted = ply.unwrap_or(total);
                if wanted > total {
                    return Err(CliError::with_hint(
                        format!("game {game} of {name} has {total} plies, not {wanted}"),
                        format!("--ply takes 0 (the start) to {total}"),
                    ));
                }
                let start = record.start_position().map_err(|e| {
                    CliError::new(format!("{name}: game {game} does not start: {e}"))
                })?;
                let mut replay = Game::from_position(start);
                for p in &record.plies[..wanted] {
                    replay.play(p.action).map_err(|e| {
                        CliError::new(format!("{name}: game {game} does not replay: {e}"))
                    })?;
                }
                Ok(Selected { game: replay })
            }
            Err(error) => {
                let bad = error.ply as usize;
                match ply {
                    Some(wanted) if bad > 0 && wanted < bad => {
                        let mut input = reopen()?;
                        replay_prefix(&mut input, game, wanted).map(|game| Selected { game })
                    }
                    _ => Err(CliError::with_hint(
                        format!("{error}"),
                        if bad > 1 {
                            format!(
                                "the game is invalid; `--ply {}` selects the position before the bad action",
                                bad - 1
                            )
                        } else {
                            "the game is invalid; `agon validate` lists every problem".to_string()
                        },
                    )),
                }
            }
        };
    }
    Err(CliError::with_hint(
        if found == 0 {
            format!("{name} holds no game")
        } else {
            format!("{name} holds {found} game(s), so there is no game {game}")
        },
        "--game counts from 1",
    ))
}

/// Collects what is needed to replay the first plies of one game, syntax only.
struct Prefix {
    wanted_game: u64,
    game: u64,
    variant: Option<String>,
    position: Option<String>,
    actions: Vec<AnnotatedAction>,
    limit: usize,
}

impl Visitor for Prefix {
    fn begin_game(&mut self, _at: Location) {
        self.game += 1;
    }
    fn tag(
        &mut self,
        name: &str,
        value: &str,
        _at: Location,
        _value_at: Location,
    ) -> agon_notation::Flow {
        if self.game == self.wanted_game {
            match name {
                "Variant" => self.variant = Some(value.to_string()),
                "Position" => self.position = Some(value.to_string()),
                _ => {}
            }
        }
        agon_notation::Flow::Continue
    }
    fn action(&mut self, action: AnnotatedAction, _at: Location) -> agon_notation::Flow {
        if self.game == self.wanted_game && self.actions.len() < self.limit {
            self.actions.push(action);
        }
        agon_notation::Flow::Continue
    }
}

/// Replays the first `plies` actions of game `game` of an invalid record (they are known
/// to be legal: the record's first defect comes later).
fn replay_prefix(input: &mut dyn Read, game: usize, plies: usize) -> Result<Game, CliError> {
    let mut reader = Reader::new(input);
    let mut prefix = Prefix {
        wanted_game: game as u64,
        game: 0,
        variant: None,
        position: None,
        actions: Vec::new(),
        limit: plies,
    };
    while prefix.game < game as u64 {
        match reader.read_game(&mut prefix) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(CliError::io("cannot read the record", e)),
        }
    }
    let rules = match &prefix.variant {
        Some(name) => crate::select::parse_rules(name)?,
        None => Rules::STANDARD,
    };
    let start = match &prefix.position {
        Some(text) => parse_position(text, rules)?,
        None => Position::start(rules),
    };
    let mut replay = Game::from_position(start);
    for (i, annotated) in prefix.actions.iter().enumerate() {
        annotated
            .check(replay.position())
            .map_err(|e| CliError::new(format!("ply {}: {}", i + 1, e.message)))?;
        replay
            .play(annotated.action)
            .map_err(|e| CliError::new(format!("ply {}: {e}", i + 1)))?;
    }
    Ok(replay)
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
