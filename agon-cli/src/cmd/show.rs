//! `agon show`: the board as text, with whose turn it is and the position string.

use crate::board_text::{board_lines, Highlights, TextStyle, LEGEND};
use crate::error::CliResult;
use crate::output::{colour_wanted, tool, write_json_line, Out};
use crate::select::PositionArgs;
use crate::status;
use agon_core::Game;
use agon_notation::PositionJson;
use clap::Args;
use std::io::Write;

/// Examples shown after `agon show --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon show                                  the standard start
  agon show --moves \"h9-g9 b7-c7 g9-f9\"      after some actions
  agon show --record game.agn --ply 12       a record after ply 12 (0 = its start)
  agon show --record games.agn --game 3      the end of the third game of a file
  agon show --position \"$(cat study.pos)\"    a position string
  agon show --ascii > board.txt              plain ASCII, no colour
  agon show --json --moves h9-g9 | jq -r .notation
Pieces are written before their cell: Qf1 is White's queen on f1, gd1 a Black guard,
(G)d9 a captured White guard; ^f6 is the throne. Colour is used only when stdout is a
terminal and NO_COLOR is unset.";

/// Options of `agon show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Plain ASCII without colour, even on a terminal.
    #[arg(long)]
    pub ascii: bool,

    /// Leave out the legend line.
    #[arg(long)]
    pub no_legend: bool,

    /// One JSON object: the position string, side to move, phase, pieces, pieces in hand,
    /// and the game's ply count, legal action count and result.
    #[arg(long, conflicts_with = "ascii")]
    pub json: bool,

    #[command(flatten)]
    pub position: PositionArgs,
}

/// The highlights for a game's last ply.
pub fn last_ply_highlights(game: &Game) -> Highlights {
    let mut marks = Highlights::default();
    if let Some(ply) = game.plies().last() {
        for cell in ply
            .action
            .origin()
            .into_iter()
            .chain(ply.action.destination())
        {
            marks.moved = marks.moved.with(cell);
        }
        marks.captured = ply.captures;
    }
    marks
}

/// Writes the board picture and the status lines of a game.
pub fn write_board(
    out: &mut impl Write,
    game: &Game,
    style: TextStyle,
    legend: bool,
) -> std::io::Result<()> {
    for line in board_lines(game.position(), style, last_ply_highlights(game)) {
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out)?;
    let rules = game.rules();
    if rules != agon_core::Rules::STANDARD {
        writeln!(out, "Rules: {rules}")?;
    }
    for line in [
        status::last_action_line(game),
        status::captured_line(game),
        status::removed_line(game),
        status::in_hand_line(game),
    ]
    .into_iter()
    .flatten()
    {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", status::turn_line(game))?;
    if legend {
        writeln!(out, "{LEGEND}")?;
    }
    Ok(())
}

fn write_json(game: &Game) -> CliResult {
    let position = game.position();
    let mut json = serde_json::to_value(PositionJson::from_position(position))
        .map_err(std::io::Error::from)?;
    if let Some(object) = json.as_object_mut() {
        let legal = if game.is_over() {
            0
        } else {
            position.legal().count()
        };
        object.insert("ply".into(), game.ply_count().into());
        object.insert("legal_actions".into(), legal.into());
        object.insert("result".into(), game.result().to_string().into());
        object.insert(
            "termination".into(),
            game.outcome().map(|o| o.termination.to_string()).into(),
        );
    }
    let mut out = Out::new();
    write_json_line(&mut out, &json, &tool())?;
    out.flush()?;
    Ok(0)
}

/// Runs `agon show`.
pub fn run(args: &ShowArgs) -> CliResult {
    let game = args.position.select()?;
    if args.json {
        return write_json(&game);
    }
    let style = TextStyle {
        colour: !args.ascii && colour_wanted(),
    };
    let mut out = Out::new();
    write_board(&mut out, &game, style, !args.no_legend)?;
    writeln!(
        out,
        "Position: {}",
        agon_notation::format_position(game.position())
    )?;
    out.flush()?;
    Ok(0)
}
