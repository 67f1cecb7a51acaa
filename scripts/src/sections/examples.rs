//! docs/selfplay.md, the worked examples of the statistics: a contrast with the standard
//! rules, and a sequential test that stops a tournament early.

use super::tables::{balance_table, contrast_long, outcomes_table};
use super::{command_listing, config_listing, Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{contrasts, sprt};
use crate::markdown::count;
use crate::Result;
use agon_selfplay::summary::GroupSummary;

/// The contrast example.
pub const CONTRAST: Section = Section {
    name: "contrast-example",
    doc: "docs/selfplay.md",
    blocks: &["contrast-example"],
    about: "an example of a contrast with the standard rules, and of balance within a margin",
    generate: contrast,
};

/// The SPRT example.
pub const SPRT: Section = Section {
    name: "sprt-example",
    doc: "docs/selfplay.md",
    blocks: &["sprt-example"],
    about: "an example of the sequential test stopping a tournament",
    generate: sequential,
};

fn contrast(ctx: &Context) -> Result<Generated> {
    const CONFIG: &str = "scripts/docs/contrast-example.toml";
    let played = play(ctx, CONFIG, "contrast-example")?;
    let summary = &played.summary;
    let (contrasts, baseline) = contrasts(summary);
    let baseline = baseline.ok_or("the contrast example has no baseline")?;
    let mut body = format!(
        "{}\n{}\n",
        config_listing(ctx, CONFIG)?,
        command_listing(&played.command)
    );
    for c in contrasts {
        body.push_str(&format!(
            "`{}` minus `{baseline}`, per colour-swapped pair ({} and {} pairs; 95% Welch \
             interval; p: permutation test up to 200 pairs, Welch beyond; Holm over the \
             variants, per metric; g: Hedges' effect size):\n\n{}\n",
            c.variant,
            count(c.pairs),
            count(c.baseline_pairs),
            contrast_long(c)
        ));
    }
    let groups: Vec<&GroupSummary> = summary.groups.iter().collect();
    body.push_str(&format!(
        "The same run's balance and outcomes:\n\n{}\n{}",
        balance_table(&groups),
        outcomes_table(&groups)
    ));
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{}`", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}

fn sequential(ctx: &Context) -> Result<Generated> {
    const CONFIG: &str = "scripts/docs/sprt-example.toml";
    let played = play(ctx, CONFIG, "sprt-example")?;
    let summary = &played.summary;
    let group = summary
        .groups
        .first()
        .ok_or("the SPRT example has no games")?;
    let (decision, pairs) = sprt(group).ok_or("the SPRT example has no sequential test")?;
    let verdict = match decision {
        Some(h) => format!("accepted {h} after {} pairs", count(pairs)),
        None => format!("had not decided after {} pairs", count(pairs)),
    };
    let body = format!(
        "{}\n{}\nThe test {verdict} of {} ({} of {} games used).\n",
        config_listing(ctx, CONFIG)?,
        command_listing(&played.command),
        count(summary.experiment.pairs_per_block()),
        count(summary.games_used),
        count(summary.experiment.total_games()),
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{}`", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}
