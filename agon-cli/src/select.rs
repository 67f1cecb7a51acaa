//! The position selectors shared by `moves`, `perft`, `show` and `render`: a rule set, a
//! start position, actions to play from it, or a ply of a game record.

use crate::error::CliError;
use crate::files::{open_input, Input};
use agon_core::{Action, Game, Rules, Termination};
use agon_notation::{parse_action, Records};
use clap::Args;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Which position a command works on.
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// Rule set: `standard` (default), `ludii`, or switches such as
    /// `intervention=suicide,capture=ring`.
    #[arg(long, value_name = "RULES")]
    pub variant: Option<String>,

    /// Start from this position string instead of the rule set's start.
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,

    /// Actions to play first, separated by spaces or commas: "h9-g9 b7-c7".
    #[arg(long, value_name = "ACTIONS", allow_hyphen_values = true)]
    pub moves: Option<String>,

    /// Take the position from a game record ("-" for stdin).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves", "variant"])]
    pub record: Option<PathBuf>,

    /// With --record: which game of the file (1-based).
    #[arg(long, value_name = "N", requires = "record", default_value_t = 1)]
    pub game: usize,

    /// With --record: the position after this many plies (0 = the start; default: the end).
    #[arg(long, value_name = "N", requires = "record")]
    pub ply: Option<usize>,
}

/// Parses a rule-set name; the engine's error already lists what is valid.
pub fn parse_rules(text: &str) -> Result<Rules, CliError> {
    text.parse::<Rules>()
        .map_err(|e| CliError::new(format!("--variant: {e}")))
}

/// Splits an action list given on the command line: spaces, commas or newlines, and move
/// numbers such as `1.` or `12...` are skipped so that record movetext can be pasted.
pub fn split_actions(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .filter(|t| !is_move_number(t))
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Reads one typed action (capture annotations such as `c1-c2xd1` are optional and must
/// match) and checks it in the game's current position. `Err` is a message for the user.
pub fn read_action(game: &Game, token: &str) -> Result<Action, String> {
    if let Some(outcome) = game.outcome() {
        return Err(format!(
            "the game is over ({}, {}): no action can follow",
            outcome.result, outcome.termination
        ));
    }
    parse_action(token, game.position())
        .map(|(action, _)| action)
        .map_err(|e| e.to_string())
}

/// Plays one action of `--moves`, with a message that says which one and why it failed.
pub fn play_checked(game: &mut Game, token: &str, index: usize) -> Result<(), CliError> {
    let side = game.position().decider();
    let action = read_action(game, token).map_err(|message| {
        CliError::with_hint(
            format!("action {index} of --moves ({side} to move): {message}"),
            "list the legal actions with `agon moves` and the same options",
        )
    })?;
    game.play(action)
        .map_err(|e| CliError::new(format!("action {index} of --moves: {e}")))?;
    Ok(())
}

impl PositionArgs {
    /// The game that leads to the position the options describe (its current position is
    /// the one asked for; its plies give the last action for arrows and highlights).
    pub fn select(&self) -> Result<Game, CliError> {
        if let Some(path) = &self.record {
            return select_from_record(path, self.game, self.ply);
        }
        let rules = match &self.variant {
            Some(text) => parse_rules(text)?,
            None => Rules::STANDARD,
        };
        let mut game = match &self.position {
            Some(text) => Game::from_position(crate::records::parse_position(text, rules)?),
            None => Game::new(rules),
        };
        if let Some(moves) = &self.moves {
            for (i, token) in split_actions(moves).enumerate() {
                play_checked(&mut game, token, i + 1)?;
            }
        }
        Ok(game)
    }
}

/// Replays game `game` (1-based) of a record file up to `ply` plies (default: all). When
/// the game is invalid, the plies before its first bad action can still be selected: the
/// reader hands back the game replayed up to the defect.
fn select_from_record(path: &Path, game: usize, ply: Option<usize>) -> Result<Game, CliError> {
    if game == 0 {
        return Err(CliError::new("--game counts from 1"));
    }
    let name = path.display().to_string();
    let input: Box<dyn Read> = match open_input(path)? {
        Input::File(file) => Box::new(file),
        Input::Stdin(stdin) => Box::new(stdin),
    };
    let mut records = Records::new(input).with_file_name(name.clone());
    let mut found = 0usize;
    while let Some(item) = records.next() {
        found += 1;
        if found < game {
            continue;
        }
        let (mut replayed, total) = match item {
            Ok(valid) => {
                let total = valid.record.plies.len();
                (valid.game, total)
            }
            Err(error) => {
                let bad = error.ply as usize;
                match (ply, records.take_replayed()) {
                    (Some(wanted), Some(game)) if bad > 0 && wanted < bad => (game, bad - 1),
                    _ => {
                        let hint = if bad > 1 {
                            format!(
                                "the game is invalid; `--ply {}` selects the position before \
                                 the bad action",
                                bad - 1
                            )
                        } else {
                            "the game is invalid; `agon validate` lists every problem".to_string()
                        };
                        return Err(CliError::with_hint(error.to_string(), hint));
                    }
                }
            }
        };
        let wanted = ply.unwrap_or(total);
        if wanted > total {
            return Err(CliError::with_hint(
                format!("game {game} of {name} has {total} plies, not {wanted}"),
                format!("--ply takes 0 (the start) to {total}"),
            ));
        }
        while replayed.ply_count() > wanted {
            replayed.undo();
        }
        if replayed.outcome().map(|o| o.termination) == Some(Termination::MoveLimit) {
            // The position as the rules leave it: a harness's move limit is not one of them.
            if let Some(last) = replayed.undo() {
                replayed.play_unchecked(last.action);
            }
        }
        return Ok(replayed);
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
