//! docs/agents.md, "How the weights were chosen": head-to-head matches behind the tuning
//! notes, one config file each in `scripts/docs/tuning/` (a new file is a new row).

use super::{Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{first_agent, games_ended_by};
use crate::markdown::{count, elo, percent, percent_interval, Table, NONE};
use crate::Result;
use agon_core::Termination;

/// The section.
pub const SECTION: Section = Section {
    name: "tuning",
    doc: "docs/agents.md",
    blocks: &["tuning-matches"],
    about: "head-to-head matches behind the tuning notes of the agents",
    generate,
};

const FOLDER: &str = "scripts/docs/tuning";

/// The match files, sorted by name.
fn configs(ctx: &Context) -> Result<Vec<String>> {
    let dir = ctx.root.join(FOLDER);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    names.sort();
    Ok(names)
}

fn generate(ctx: &Context) -> Result<Generated> {
    let mut table = Table::new(&[
        "match",
        "first agent",
        "second agent",
        ">games",
        "first agent's score [95%]",
        ">Elo",
        ">rule draws",
        ">undecided",
    ]);
    let mut played_at = Vec::new();
    let mut example = String::new();
    for name in configs(ctx)? {
        let played = play(
            ctx,
            &format!("{FOLDER}/{name}.toml"),
            &format!("tuning/{name}"),
        )?;
        let group = played
            .summary
            .groups
            .first()
            .ok_or_else(|| format!("{name}: no games"))?;
        let pairing = &played.manifest.experiment.pairings[0];
        let (score, elo_difference) = match first_agent(group) {
            Some((s, e)) => (
                format!("{} {}", percent(s.value), percent_interval(s.low, s.high)),
                e.map_or(NONE.into(), elo),
            ),
            None => (NONE.into(), NONE.into()),
        };
        table.row(vec![
            format!("`{name}`"),
            format!("`{}`", pairing.first),
            format!("`{}`", pairing.second),
            count(group.games),
            score,
            elo_difference,
            count(group.draws),
            count(games_ended_by(group, Termination::MoveLimit)),
        ]);
        played_at.push(played.played_at().to_string());
        if example.is_empty() {
            example = played.command.replace(&name, "NAME");
        }
    }
    let body = format!(
        "{}\nEach row is `{example}`, NAME in the first column. The first agent has White in \
         the first game of each pair; the file gives the other settings (rules, opening \
         plies, ply limit, seed).\n",
        table.render()
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{example}` for each NAME in the table"),
        played_at,
    })
}
