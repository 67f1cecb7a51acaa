//! The charts of an exploration's page, as SVG text to inline:
//! - the ranking: every rule set's White score, decisive rate and mean length with their
//!   95% intervals, closest to balance first;
//! - the switch effects: each switch value against the switch's first value, in the same
//!   three measures, averaged over the other switches;
//! - one card chart per rule set: the shares of its games and White's score.

use super::axes::{interval_bar, marker, reference_line, row_chart, row_y, Frame};
use super::outcomes::EVEN;
use super::panels::{draw, size, Heading, Panel, Point};
use super::style::{
    font, left, ADJUDICATED, BLACK_WINS, DRAWS, INK, LABEL_SIZE, UNDECIDED, WHITE_WINS,
};
use super::{failed, svg_text, DrawResult};
use crate::error::{Error, Result};
use crate::explore::effects::SwitchEffect;
use crate::explore::report::{ExploreReport, Ranking};
use crate::stats::contrast::StratifiedDifference;
use crate::stats::Interval;
use crate::summary::GroupSummary;
use crate::table::{fixed, signed_fixed};
use plotters::coord::Shift;
use plotters::prelude::*;

fn percent(x: &f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn plies(x: &f64) -> String {
    fixed(*x, 0)
}

fn points(x: &f64) -> String {
    fixed(x * 100.0, 0)
}

fn with_interval(
    value: Option<f64>,
    interval: Option<Interval>,
    scale: f64,
    digits: usize,
) -> String {
    match (value, interval) {
        (Some(v), Some(i)) => format!(
            "{}  [{}, {}]",
            fixed(v * scale, digits),
            fixed(i.low * scale, digits),
            fixed(i.high * scale, digits)
        ),
        (Some(v), None) => fixed(v * scale, digits),
        _ => "-".into(),
    }
}

fn point(value: Option<f64>, interval: Option<Interval>) -> Option<Point> {
    value.map(|value| Point { value, interval })
}

/// What the charts say about the games: the agent and the budget.
pub fn subject(report: &ExploreReport) -> String {
    format!(
        "{} playing itself; {} rule sets, {} games in {} round(s) of racing",
        report.explore.agent,
        report.rule_sets.len(),
        report.games,
        report.rounds.len()
    )
}

/// The ranking chart: every rule set, closest to balance first.
pub fn ranking_svg(report: &ExploreReport) -> Result<String> {
    super::register_fonts()?;
    let cards = report.ranked(Ranking::Fairness);
    let labels: Vec<String> = cards.iter().map(|c| c.name.clone()).collect();
    let margin = report.explore.tests.margin;
    let panels = [
        Panel {
            heading: "White's score".into(),
            axis: "White's score (95% interval over pairs)".into(),
            points: cards
                .iter()
                .map(|c| point(c.white_score, c.white_score_interval))
                .collect(),
            texts: cards
                .iter()
                .map(|c| with_interval(c.white_score, c.white_score_interval, 100.0, 1))
                .collect(),
            references: vec![0.5, 0.5 - margin, 0.5 + margin],
            range: None,
            ticks: &percent,
        },
        Panel {
            heading: "decisive games".into(),
            axis: "share of games won (95% Wilson)".into(),
            points: cards
                .iter()
                .map(|c| point(c.decisive_rate, c.decisive_interval))
                .collect(),
            texts: cards
                .iter()
                .map(|c| with_interval(c.decisive_rate, c.decisive_interval, 100.0, 1))
                .collect(),
            references: vec![report.explore.tests.drawish],
            range: Some((0.0, 1.0)),
            ticks: &percent,
        },
        Panel {
            heading: "mean length".into(),
            axis: "plies (95% bootstrap)".into(),
            points: cards
                .iter()
                .map(|c| point(c.mean_length, c.mean_length_interval))
                .collect(),
            texts: cards
                .iter()
                .map(|c| with_interval(c.mean_length, c.mean_length_interval, 1.0, 0))
                .collect(),
            references: vec![],
            range: Some((0.0, f64::from(report.explore.max_plies))),
            ticks: &plies,
        },
    ];
    let subject = subject(report);
    let explanation = format!(
        "Dashed: 50% and the margin ±{} points (White's score), the drawish line {}% \
         (decisive games). Closest to balance first.",
        fixed(margin * 100.0, 1),
        fixed(report.explore.tests.drawish * 100.0, 0)
    );
    svg_text(size(labels.len()), |root| {
        draw(
            root,
            &Heading {
                title: "Every rule set: balance, decisiveness, length",
                subject: &subject,
                explanation: &explanation,
                legend: ["estimate, 95% interval", "reference lines"],
            },
            &labels,
            &panels,
        )
    })
    .map_err(|e| Error::Chart(format!("ranking chart: {e}")))
}

fn effect_point(d: &Option<StratifiedDifference>) -> Option<Point> {
    d.map(|d| Point {
        value: d.difference,
        interval: d.interval,
    })
}

fn effect_text(d: &Option<StratifiedDifference>, scale: f64, digits: usize) -> String {
    match d {
        Some(d) => match d.interval {
            Some(i) => format!(
                "{}  [{}, {}]",
                signed_fixed(d.difference * scale, digits),
                signed_fixed(i.low * scale, digits),
                signed_fixed(i.high * scale, digits)
            ),
            None => signed_fixed(d.difference * scale, digits),
        },
        None => "-".into(),
    }
}

/// The switch-effect chart (`None` when no switch has an effect to show).
pub fn effects_svg(report: &ExploreReport) -> Result<Option<String>> {
    let effects: &[SwitchEffect] = &report.switch_effects;
    if effects.is_empty() {
        return Ok(None);
    }
    super::register_fonts()?;
    let labels: Vec<String> = effects
        .iter()
        .map(|e| format!("{} (vs {})", e.label(), e.reference))
        .collect();
    let panel = |heading: &str,
                 axis: &str,
                 f: fn(&SwitchEffect) -> &Option<StratifiedDifference>,
                 scale: f64,
                 digits: usize,
                 ticks: &'static dyn Fn(&f64) -> String| Panel {
        heading: heading.to_string(),
        axis: axis.to_string(),
        points: effects.iter().map(|e| effect_point(f(e))).collect(),
        texts: effects
            .iter()
            .map(|e| effect_text(f(e), scale, digits))
            .collect(),
        references: vec![0.0],
        range: None,
        ticks,
    };
    let panels = [
        panel(
            "White's score",
            "difference (points)",
            |e| &e.white_score,
            100.0,
            1,
            &points,
        ),
        panel(
            "decisive games",
            "difference (points)",
            |e| &e.decisive_rate,
            100.0,
            1,
            &points,
        ),
        panel(
            "mean length",
            "difference (plies)",
            |e| &e.mean_length,
            1.0,
            0,
            &plies,
        ),
    ];
    let subject = subject(report);
    svg_text(size(labels.len()), |root| {
        draw(
            root,
            &Heading {
                title: "What each switch does",
                subject: &subject,
                explanation: "Each value against the switch's first value, the other switches \
                              held fixed, averaged over their combinations, with 95% intervals; \
                              0: no effect.",
                legend: ["effect, 95% interval", "0: no effect"],
            },
            &labels,
            &panels,
        )
    })
    .map(Some)
    .map_err(|e| Error::Chart(format!("switch-effect chart: {e}")))
}

/// Size of a card chart.
const CARD: (u32, u32) = (1000, 190);

/// Draws a card chart: one bar of the shares of the games (White wins, draws, adjudicated
/// draws, ply limit, Black wins) with the shares written under it, and White's score with
/// its 95% interval beside a dashed 50% line.
fn draw_card<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    group: &GroupSummary,
) -> DrawResult {
    root.fill(&WHITE).map_err(failed)?;
    let games = group.games.max(1) as f64;
    let shares = [
        (group.white_wins as f64 / games, WHITE_WINS, "White"),
        (group.draws as f64 / games, DRAWS, "draws"),
        (
            group.adjudicated_draws as f64 / games,
            ADJUDICATED,
            "adjudicated",
        ),
        (group.undecided as f64 / games, UNDECIDED, "ply limit"),
        (group.black_wins as f64 / games, BLACK_WINS, "Black"),
    ];
    let (bar_area, score_area) = root.split_horizontally(560);
    let frame = Frame {
        top: 30,
        left: 20,
        right: 20,
    };
    let mut bar = row_chart(
        &bar_area,
        &frame,
        0f64..1f64,
        1,
        5,
        &percent,
        "share of games",
    )?;
    let y = row_y(1, 0);
    let mut x0 = 0.0;
    for (share, colour, _) in shares {
        if share > 0.0 {
            bar.draw_series(std::iter::once(Rectangle::new(
                [(x0, y - 0.3), (x0 + share, y + 0.3)],
                colour.filled(),
            )))
            .map_err(failed)?;
        }
        x0 += share;
    }
    bar.draw_series(std::iter::once(Rectangle::new(
        [(0.0, y - 0.3), (1.0, y + 0.3)],
        INK.stroke_width(1),
    )))
    .map_err(failed)?;
    let legend: Vec<String> = shares
        .iter()
        .filter(|(share, _, name)| *share > 0.0 || *name == "White" || *name == "Black")
        .map(|(share, _, name)| format!("{name} {:.0}%", share * 100.0))
        .collect();
    root.draw(&Text::new(
        legend.join(" · "),
        (20, 14),
        left(font(LABEL_SIZE)),
    ))
    .map_err(failed)?;
    let interval = group.pairs.interval;
    let score = group.pairs.white_score.or(group.white_score).unwrap_or(0.5);
    let (lo, hi) = interval.map_or((0.0, 1.0), |i| (i.low.min(0.45), i.high.max(0.55)));
    let (lo, hi) = ((lo * 20.0).floor() / 20.0, (hi * 20.0).ceil() / 20.0);
    let frame = Frame {
        top: 30,
        left: 20,
        right: 20,
    };
    let mut scores = row_chart(&score_area, &frame, lo..hi, 1, 4, &percent, "White's score")?;
    reference_line(&mut scores, 0.5, EVEN.stroke_width(3))?;
    if let Some(i) = interval {
        interval_bar(&mut scores, i.low, i.high, y)?;
    }
    marker(root, &scores, score, y, 9)
}

/// A rule set's card chart, as SVG text.
pub fn card_svg(group: &GroupSummary) -> Result<String> {
    super::register_fonts()?;
    svg_text(CARD, |root| draw_card(root, group))
        .map_err(|e| Error::Chart(format!("card of {}: {e}", group.variant)))
}
