//! docs/selfplay.md, "Worked experiment": every single-switch variant under the same
//! 2-ply agent, contrasted with the standard rules, with the charts.

use super::tables::{balance_table, contrasts_wide, outcomes_table};
use super::{command_listing, config_listing, Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{contrasts, games_of, interval_widths, ludii_metrics, white_score};
use crate::markdown::{count, number, Table, NONE};
use crate::Result;
use agon_core::{GameResult, Termination};
use agon_selfplay::summary::GroupSummary;

/// The section.
pub const SECTION: Section = Section {
    name: "variants",
    doc: "docs/selfplay.md",
    blocks: &[
        "variants-settings",
        "variants-table",
        "variants-outcomes",
        "variants-contrasts",
        "variants-endings",
    ],
    about: "the worked experiment: balance, decisiveness and length of every single-switch variant",
    generate,
};

const CONFIG: &str = "scripts/docs/variants.toml";

fn generate(ctx: &Context) -> Result<Generated> {
    let played = play(ctx, CONFIG, "variants")?;
    let summary = &played.summary;
    let experiment = &summary.experiment;
    let settings = format!(
        "{}\n{}\n{} games: {} variants, {} games each ({} colour-swapped pairs); {}.\n",
        config_listing(ctx, CONFIG)?,
        command_listing(&played.command),
        count(summary.games_played),
        experiment.variants.len(),
        count(experiment.games),
        count(experiment.pairs_per_block()),
        interval_widths(summary),
    );
    let mut groups: Vec<&GroupSummary> = summary.groups.iter().collect();
    groups.sort_by(|a, b| {
        let score = |g: &GroupSummary| white_score(g).map_or(0.0, |s| s.value);
        score(b)
            .total_cmp(&score(a))
            .then_with(|| a.variant.cmp(&b.variant))
    });
    let (contrasts, baseline) = contrasts(summary);
    let contrasts_body = match baseline {
        Some(baseline) => format!(
            "Each variant minus `{baseline}`, per colour-swapped pair, with Welch's 95% \
             interval; **bold**: significant after Holm's correction over the variants.\n\n{}",
            contrasts_wide(contrasts)
        ),
        None => "No baseline: the experiment has no `standard` variant.\n".to_string(),
    };
    let images = ["outcomes", "lengths", "contrasts"]
        .iter()
        .flat_map(|chart| ["png", "svg"].map(|ext| format!("{chart}.{ext}")))
        .map(|f| (played.dir.join(&f), format!("img/selfplay-variants-{f}")))
        .collect();
    Ok(Generated {
        bodies: vec![
            settings,
            balance_table(&groups),
            outcomes_table(&groups),
            contrasts_body,
            endings_tables(&groups),
        ],
        images,
        sources: format!("`{}`", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}

/// How the games ended, and Ludii's metrics, per variant.
fn endings_tables(groups: &[&GroupSummary]) -> String {
    let kinds = [
        (
            "1-0 formation",
            GameResult::WhiteWins,
            Termination::Formation,
        ),
        (
            "0-1 formation",
            GameResult::BlackWins,
            Termination::Formation,
        ),
        (
            "1-0 six-guards",
            GameResult::WhiteWins,
            Termination::SixGuards,
        ),
        (
            "0-1 six-guards",
            GameResult::BlackWins,
            Termination::SixGuards,
        ),
        ("1-0 no-moves", GameResult::WhiteWins, Termination::NoMoves),
        ("0-1 no-moves", GameResult::BlackWins, Termination::NoMoves),
        ("1/2 repetition", GameResult::Draw, Termination::Repetition),
        ("1/2 double-pass", GameResult::Draw, Termination::DoublePass),
        ("undecided", GameResult::Draw, Termination::MoveLimit),
    ];
    let mut columns = vec!["variant".to_string()];
    columns.extend(kinds.iter().map(|k| format!(">{}", k.0)));
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut endings = Table::new(&columns);
    let mut metrics = Table::new(&[
        "variant",
        ">Balance",
        ">Completion",
        ">Drawishness",
        ">Drawishness*",
        ">Timeouts",
        ">BranchingFactor",
        ">DecisionMoves",
    ]);
    for g in groups {
        let mut row = vec![format!("`{}`", g.variant)];
        row.extend(kinds.iter().map(|&(_, r, t)| count(games_of(g, r, t))));
        endings.row(row);
        let mut row = vec![format!("`{}`", g.variant)];
        let values = ludii_metrics(g);
        for (i, value) in values.iter().enumerate() {
            let decimals = if i == 5 { 2 } else { 3 };
            row.push(value.map_or(NONE.into(), |x| number(x, decimals)));
        }
        metrics.row(row);
    }
    format!(
        "Endings (games by result and termination; a `six-guards` ending is a loss for the \
         side that closed the ring; undecided: stopped at the ply limit):\n\n{}\nLudii's \
         metrics (definitions above; Drawishness* is Drawishness as Ludii describes it, \
         without the games stopped at the limit):\n\n{}",
        endings.render(),
        metrics.render()
    )
}
