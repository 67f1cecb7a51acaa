//! `agon moves`: the legal actions of a position, one per line.

use crate::error::CliResult;
use crate::output::{tool, write_json_line, Out};
use crate::select::PositionArgs;
use agon_core::{Action, Bitboard, Game};
use clap::Args;
use serde::Serialize;
use std::io::Write;

/// Examples shown after `agon moves --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon moves                                 the 27 actions of the standard start
  agon moves --moves \"h9-g9 b7-c7\"           after some actions
  agon moves --variant opening=placement     the first placements of a variant
  agon moves --record game.agn --ply 10      after ply 10 of a record
  agon moves | wc -l                         how many there are
  agon moves --moves \"h9-g9 $(agon moves --moves h9-g9 | head -1)\"
                                             feed an answer back in
  agon moves --json | jq -r 'select(.captures | length > 0) | .action'
Captures are annotated after the action (`c1-c2xd1`); --bare leaves them off. Output is
in a stable order: steps, relocations, placements, pass; then by cells.";

/// Options of `agon moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// One JSON object per action: action, kind, from, to, captures, side (to move)
    /// and decider (who chooses: differs only under `queen-relocated-by=opponent`).
    #[arg(long)]
    pub json: bool,

    /// Leave off the capture annotations (`c1-c2` instead of `c1-c2xd1`).
    #[arg(long)]
    pub bare: bool,

    #[command(flatten)]
    pub position: PositionArgs,
}

/// One legal action in JSON (`agon moves --json`, and `agon serve`'s API).
#[derive(Serialize)]
pub struct MoveJson {
    action: String,
    kind: &'static str,
    from: Option<String>,
    to: Option<String>,
    captures: Vec<String>,
    side: String,
    decider: String,
}

/// The legal actions of a game's current position (none once the game is over), sorted,
/// each with the cells it would capture.
pub fn legal_with_captures(game: &Game) -> Vec<(Action, Bitboard)> {
    if game.is_over() {
        return Vec::new();
    }
    let mut actions = game.position().legal().to_vec();
    actions.sort();
    actions
        .into_iter()
        .map(|action| {
            let mut after = *game.position();
            (action, after.play_unchecked(action))
        })
        .collect()
}

/// An action with its capture annotation (`c1-c2xd1`).
pub fn annotated(action: Action, captures: Bitboard) -> String {
    agon_notation::format_annotated(action, captures)
}

/// The kind of an action as a word.
pub fn action_kind(action: Action) -> &'static str {
    match action {
        Action::Step { .. } => "step",
        Action::Relocate { .. } => "relocation",
        Action::Place { .. } => "placement",
        Action::Pass => "pass",
    }
}

impl MoveJson {
    /// The JSON form of an action with what it captures, played in `position`.
    pub fn new(action: Action, captures: Bitboard, position: &agon_core::Position) -> MoveJson {
        MoveJson {
            action: action.to_string(),
            kind: action_kind(action),
            from: action.origin().map(|c| c.to_string()),
            to: action.destination().map(|c| c.to_string()),
            captures: captures.into_iter().map(|c| c.to_string()).collect(),
            side: position.to_move().to_string(),
            decider: position.decider().to_string(),
        }
    }
}

/// Runs `agon moves`.
pub fn run(args: &MovesArgs) -> CliResult {
    let game = &args.position.select()?;
    if let Some(outcome) = game.outcome() {
        eprintln!(
            "agon: the game is over ({}, {}): there are no legal actions",
            outcome.result, outcome.termination
        );
    }
    let tool = tool();
    let mut out = Out::new();
    for (action, captures) in legal_with_captures(game) {
        if args.json {
            let json = MoveJson::new(action, captures, game.position());
            write_json_line(&mut out, &json, &tool)?;
        } else if args.bare {
            writeln!(out, "{action}")?;
        } else {
            writeln!(out, "{}", annotated(action, captures))?;
        }
    }
    out.flush()?;
    Ok(0)
}
