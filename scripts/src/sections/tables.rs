//! Tables several sections share: White's score and balance, decisiveness and length, and
//! the contrasts with a baseline.

use crate::figures::{
    balanced, captures_per_game, contrast_metrics, decisive_rate, detectable_effect, draw_rate,
    first_move_elo, first_move_p, first_move_significant_holm, median_length, undecided_rate,
    white_score, white_share_of_decisive, ContrastFigure, Estimate,
};
use crate::markdown::{elo, elo_interval, number, p_value, percent, percent_interval, Table, NONE};
use agon_selfplay::contrasts::Contrast;
use agon_selfplay::summary::GroupSummary;

/// `51.9% [49.8, 54.1]`.
pub fn share(e: Option<Estimate>) -> String {
    e.map_or(NONE.into(), |e| {
        format!("{} {}", percent(e.value), percent_interval(e.low, e.high))
    })
}

/// White's score, the first-move advantage and its exact test, and balance within the
/// margin: one row per group.
pub fn balance_table(groups: &[&GroupSummary]) -> String {
    let mut t = Table::new(&[
        "variant",
        "White score [95%]",
        "first-move Elo [95%]",
        ">p",
        "Holm",
        "balanced (TOST p)",
        ">detectable",
    ]);
    for g in groups {
        let advantage = first_move_elo(g).map_or(NONE.into(), |e| {
            format!("{} {}", elo(e.value), elo_interval(e.low, e.high))
        });
        let balance = match balanced(g) {
            Some((margin, p, true)) => {
                format!("within ±{} ({})", number(100.0 * margin, 1), p_value(p))
            }
            Some((_, p, false)) => format!("not shown ({})", p_value(p)),
            None => "(undecided)".into(),
        };
        t.row(vec![
            format!("`{}`", g.variant),
            share(white_score(g)),
            advantage,
            first_move_p(g).map_or(NONE.into(), p_value),
            if first_move_significant_holm(g) {
                "significant"
            } else {
                "no"
            }
            .into(),
            balance,
            detectable_effect(g).map_or(NONE.into(), |d| format!("±{}", number(100.0 * d, 1))),
        ]);
    }
    t.render()
}

/// Decided games, White's share of them, rule draws, undecided games, length, captures:
/// one row per group.
pub fn outcomes_table(groups: &[&GroupSummary]) -> String {
    let mut t = Table::new(&[
        "variant",
        "decisive [95%]",
        "White's share of decisive [95%]",
        "rule draws [95%]",
        "undecided [95%]",
        ">median length",
        "captures/game [95%]",
    ]);
    for g in groups {
        t.row(vec![
            format!("`{}`", g.variant),
            share(decisive_rate(g)),
            share(white_share_of_decisive(g)),
            share(draw_rate(g)),
            share(undecided_rate(g)),
            median_length(g).map_or(NONE.into(), |m| number(m, 1)),
            captures_per_game(g).map_or(NONE.into(), |c| {
                format!(
                    "{} [{}, {}]",
                    number(c.value, 1),
                    number(c.low, 1),
                    number(c.high, 1)
                )
            }),
        ]);
    }
    t.render()
}

/// A contrast's difference in its unit: points for shares, plies or pieces otherwise.
fn difference(f: &ContrastFigure, share: bool) -> String {
    let scale = if share { 100.0 } else { 1.0 };
    let signed = |x: f64| {
        let text = format!("{:+.1}", scale * x);
        if text.trim_start_matches(['+', '-']) == "0.0" {
            "0.0".to_string()
        } else {
            text
        }
    };
    format!(
        "{} [{}, {}]",
        signed(f.difference.value),
        signed(f.difference.low),
        signed(f.difference.high)
    )
}

/// Every variant against the baseline, one column per metric, differences bold when they
/// survive Holm's correction.
pub fn contrasts_wide(contrasts: &[Contrast]) -> String {
    let mut columns = vec!["variant".to_string()];
    if let Some(c) = contrasts.first() {
        for (name, share, _) in contrast_metrics(c) {
            columns.push(if share {
                format!("{name} (points) [95%]")
            } else {
                format!("{name} [95%]")
            });
        }
    }
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut t = Table::new(&columns);
    for c in contrasts {
        let mut row = vec![format!("`{}`", c.variant)];
        for (_, share, figure) in contrast_metrics(c) {
            row.push(figure.map_or(NONE.into(), |f| {
                let text = difference(&f, share);
                if f.significant_holm {
                    format!("**{text}**")
                } else {
                    text
                }
            }));
        }
        t.row(row);
    }
    t.render()
}

/// One variant against the baseline, one row per metric, with the test.
pub fn contrast_long(c: &Contrast) -> String {
    let mut t = Table::new(&["metric", "difference [95%]", ">p", "Holm", ">g"]);
    for (name, share, figure) in contrast_metrics(c) {
        let label = if share {
            format!("{name} (points)")
        } else {
            name.to_string()
        };
        match figure {
            Some(f) => t.row(vec![
                label,
                difference(&f, share),
                p_value(f.p_value),
                if f.significant_holm { "yes" } else { "no" }.into(),
                f.effect_size.map_or(NONE.into(), |g| number(g, 2)),
            ]),
            None => t.row(vec![
                label,
                NONE.into(),
                NONE.into(),
                NONE.into(),
                NONE.into(),
            ]),
        }
    }
    t.render()
}
