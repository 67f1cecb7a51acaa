//! docs/selfplay.md, "Worked experiment: where does a captured piece go?": the four values
//! of the `relocation` switch, first as a strength check of alpha-beta against random
//! play, then between equal players.

use super::tables::share;
use super::{command_listing, Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{
    captures_per_game, decisive_rate, draw_rate, first_agent, games_of, mean_length, median_length,
    undecided_rate, white_score,
};
use crate::markdown::{count, number, percent, Table, NONE};
use crate::Result;
use agon_core::{GameResult, Termination};
use agon_selfplay::summary::GroupSummary;

/// The section.
pub const SECTION: Section = Section {
    name: "relocation",
    doc: "docs/selfplay.md",
    blocks: &["relocation-experiment"],
    about: "the four values of the relocation switch: strength check and self-play",
    generate,
};

const STRENGTH: &str = "scripts/docs/relocation-strength.toml";
const SELFPLAY: &str = "scripts/docs/relocation-selfplay.toml";

/// The value of the switch a variant stands for: `` `outer-ring` (standard) ``,
/// `` `removed` ``.
fn value(variant: &str) -> String {
    match variant.strip_prefix("relocation=") {
        Some(v) => format!("`{v}`"),
        None if variant == "standard" => "`outer-ring` (standard)".to_string(),
        None => format!("`{variant}`"),
    }
}

/// Decided games by formation / queen captured / no moves.
fn decided_by(g: &GroupSummary) -> String {
    let won = |t| games_of(g, GameResult::WhiteWins, t) + games_of(g, GameResult::BlackWins, t);
    [
        Termination::Formation,
        Termination::QueenCaptured,
        Termination::NoMoves,
    ]
    .map(|t| count(won(t)))
    .join(" / ")
}

fn generate(ctx: &Context) -> Result<Generated> {
    let strength = play(ctx, STRENGTH, "relocation-strength")?;
    let selfplay = play(ctx, SELFPLAY, "relocation-selfplay")?;
    let mut check = Table::new(&[
        "value",
        "alpha-beta depth 4 score against random [95%]",
        ">games",
        "decisive games by formation / queen captured / no moves",
    ]);
    for g in &strength.summary.groups {
        check.row(vec![
            value(&g.variant),
            share(first_agent(g).map(|(e, _)| e)),
            count(g.games),
            decided_by(g),
        ]);
    }
    let limit = selfplay.manifest.experiment.max_plies;
    let mut table = Table::new(&[
        "value",
        "White score [95% pentanomial]",
        "rule draws [95% Wilson]",
        "decisive [95%]",
        "decisive by formation / queen captured / no moves",
        &format!(">stopped at {} plies", count(u64::from(limit))),
        ">mean length (plies)",
        ">median",
        ">captures/game",
    ]);
    for g in &selfplay.summary.groups {
        table.row(vec![
            value(&g.variant),
            share(white_score(g)),
            share(draw_rate(g)),
            share(decisive_rate(g)),
            decided_by(g),
            undecided_rate(g).map_or(NONE.to_string(), |e| percent(e.value)),
            mean_length(g).map_or(NONE.to_string(), |x| number(x, 1)),
            median_length(g).map_or(NONE.to_string(), |x| number(x, 1)),
            captures_per_game(g).map_or(NONE.to_string(), |e| number(e.value, 2)),
        ]);
    }
    let body = format!(
        "{}\n{}\n{}\n{}",
        command_listing(&strength.command),
        check.render(),
        command_listing(&selfplay.command),
        table.render()
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{}` and `{}`", strength.command, selfplay.command),
        played_at: vec![
            strength.played_at().to_string(),
            selfplay.played_at().to_string(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_named_by_the_value_of_the_switch() {
        assert_eq!(value("standard"), "`outer-ring` (standard)");
        assert_eq!(value("relocation=removed"), "`removed`");
        assert_eq!(value("relocation=next-ring"), "`next-ring`");
    }
}
