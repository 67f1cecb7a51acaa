//! docs/selfplay.md, "A one-minute version": the README's main job, and how wide its
//! intervals are.

use super::{Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{
    first_move_p, first_move_significant, first_move_significant_holm, interval_widths, white_score,
};
use crate::markdown::{count, p_value, percent, percent_interval};
use crate::Result;

/// The section.
pub const SECTION: Section = Section {
    name: "readme-job",
    doc: "docs/selfplay.md",
    blocks: &["readme-job"],
    about: "the README's main job: how wide its intervals are",
    generate,
};

const CONFIG: &str = "scripts/docs/readme-job.toml";

fn generate(ctx: &Context) -> Result<Generated> {
    let played = play(ctx, CONFIG, "readme-job")?;
    let summary = &played.summary;
    let experiment = &summary.experiment;
    let body = format!(
        "It plays {} games ({} per variant, {} colour-swapped pairs each) and prints the \
         tables; the charts are in its output folder. With {} games per variant, {}: enough \
         to see the large differences between variants (draw rates, lengths), not the small \
         ones.\n",
        count(summary.games_played),
        count(experiment.games),
        count(experiment.pairs_per_block()),
        count(experiment.games),
        interval_widths(summary),
    );
    let body = body + &significance(summary);
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{}`", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}

/// Which variants' first-move advantage is significant alone, and after Holm's correction.
fn significance(summary: &agon_selfplay::Summary) -> String {
    let alone: Vec<String> = summary
        .groups
        .iter()
        .filter(|g| first_move_significant(g))
        .map(|g| {
            let score = white_score(g).map_or(String::new(), |s| {
                format!(
                    ", White's score {} {}",
                    percent(s.value),
                    percent_interval(s.low, s.high)
                )
            });
            let p = first_move_p(g).map_or(String::new(), |p| format!("p = {}", p_value(p)));
            format!("`{}` ({p}{score})", g.variant)
        })
        .collect();
    let holm = summary
        .groups
        .iter()
        .filter(|g| first_move_significant_holm(g))
        .count();
    if alone.is_empty() {
        "\nNo variant's first-move advantage is significant at 5%, even tested alone.\n".into()
    } else {
        format!(
            "\nFirst-move advantage significant at 5% tested alone: {}; after Holm's correction \
             over the {} variants: {}.\n",
            alone.join(", "),
            summary.groups.len(),
            if holm == 0 {
                "none".to_string()
            } else {
                count(holm as u64)
            },
        )
    }
}
