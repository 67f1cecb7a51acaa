//! docs/selfplay.md, "Worked experiment": every single-switch variant under the same
//! 2-ply agent, with the charts.

use super::{command_listing, config_listing, Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{
    captures_per_game, draw_rate, first_move_elo, first_move_p, first_move_significant_holm,
    games_of, interval_widths, ludii_metrics, median_length, move_limit_rate, white_score,
};
use crate::markdown::{
    count, elo, elo_interval, number, p_value, percent, percent_interval, Table, NONE,
};
use crate::Result;
use agon_core::{GameResult, Termination};
use agon_selfplay::summary::GroupSummary;

/// The section.
pub const SECTION: Section = Section {
    name: "variants",
    doc: "docs/selfplay.md",
    blocks: &["variants-settings", "variants-table", "variants-endings"],
    about: "the worked experiment: balance, draws and lengths of every single-switch variant",
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
    let images = ["outcomes.png", "outcomes.svg", "lengths.png", "lengths.svg"]
        .iter()
        .map(|f| (played.dir.join(f), format!("img/selfplay-variants-{f}")))
        .collect();
    Ok(Generated {
        bodies: vec![settings, balance_table(&groups), endings_tables(&groups)],
        images,
        sources: format!("`{}`", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}

/// White's score, the first-move advantage, draws, lengths, captures: one row per variant,
/// the most White-favoured first.
fn balance_table(groups: &[&GroupSummary]) -> String {
    let mut t = Table::new(&[
        "variant",
        "White score [95% pentanomial]",
        "first-move Elo [95%]",
        ">p",
        "Holm",
        "draws [95% Wilson]",
        ">move-limit",
        ">median length",
        ">captures/game",
    ]);
    for g in groups {
        let score = white_score(g).map_or(NONE.into(), |s| {
            format!("{} {}", percent(s.value), percent_interval(s.low, s.high))
        });
        let advantage = first_move_elo(g).map_or(NONE.into(), |e| {
            format!("{} {}", elo(e.value), elo_interval(e.low, e.high))
        });
        let draws = draw_rate(g).map_or(NONE.into(), |d| {
            format!("{} {}", percent(d.value), percent_interval(d.low, d.high))
        });
        t.row(vec![
            format!("`{}`", g.variant),
            score,
            advantage,
            first_move_p(g).map_or(NONE.into(), p_value),
            if first_move_significant_holm(g) {
                "significant"
            } else {
                "no"
            }
            .into(),
            draws,
            move_limit_rate(g).map_or(NONE.into(), percent),
            median_length(g).map_or(NONE.into(), |m| number(m, 1)),
            captures_per_game(g).map_or(NONE.into(), |c| number(c, 1)),
        ]);
    }
    t.render()
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
        ("1/2 move-limit", GameResult::Draw, Termination::MoveLimit),
    ];
    let mut columns = vec!["variant"];
    columns.extend(kinds.iter().map(|k| k.0));
    let columns: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                c.to_string()
            } else {
                format!(">{c}")
            }
        })
        .collect();
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut endings = Table::new(&columns);
    let mut metrics = Table::new(&[
        "variant",
        ">Balance",
        ">Completion",
        ">Drawishness",
        ">BranchingFactor",
        ">DecisionMoves",
    ]);
    for g in groups {
        let mut row = vec![format!("`{}`", g.variant)];
        row.extend(kinds.iter().map(|&(_, r, t)| count(games_of(g, r, t))));
        endings.row(row);
        let mut row = vec![format!("`{}`", g.variant)];
        let [balance, completion, drawishness, branching, decisions] = ludii_metrics(g);
        row.extend(
            [balance, completion, drawishness].map(|x| x.map_or(NONE.into(), |x| number(x, 3))),
        );
        row.push(branching.map_or(NONE.into(), |x| number(x, 2)));
        row.push(decisions.map_or(NONE.into(), |x| number(x, 3)));
        metrics.row(row);
    }
    format!(
        "Endings (games by result and termination; a `six-guards` ending is a loss for the \
         side that closed the ring):\n\n{}\nLudii's metrics (definitions above):\n\n{}",
        endings.render(),
        metrics.render()
    )
}
