//! The figures the docs quote, read from the `agon_selfplay` library's summary and ratings.
//! This is the one module that knows the structure of those types: when the statistics
//! change, adapt the functions here and the sections follow.

use agon_core::{GameResult, Termination};
use agon_selfplay::ratings::{rate, Ratings};
use agon_selfplay::summary::GroupSummary;
use agon_selfplay::{Experiment, GameRow};

/// A value with the ends of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The value.
    pub value: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// White's score with its interval: over colour-swapped pairs (pentanomial) when there
/// are complete pairs, else game by game (Wilson).
pub fn white_score(g: &GroupSummary) -> Option<Estimate> {
    match (g.pairs.white_score, g.pairs.interval) {
        (Some(value), Some(i)) => Some(Estimate {
            value,
            low: i.low,
            high: i.high,
        }),
        _ => {
            let i = g.white_score_wilson?;
            Some(Estimate {
                value: g.white_score?,
                low: i.low,
                high: i.high,
            })
        }
    }
}

/// The first-player advantage in Elo with its interval.
pub fn first_move_elo(g: &GroupSummary) -> Option<Estimate> {
    let e = &g.first_player_elo;
    Some(Estimate {
        value: e.elo?,
        low: e.low?,
        high: e.high?,
    })
}

/// The p-value of "no first-player advantage".
pub fn first_move_p(g: &GroupSummary) -> Option<f64> {
    g.first_player_elo.p_value
}

/// Whether the first-player advantage is significant at 5%, tested alone.
pub fn first_move_significant(g: &GroupSummary) -> bool {
    g.first_player_elo.significant
}

/// Whether the first-player advantage is significant at 5% after Holm's correction over
/// the report's groups.
pub fn first_move_significant_holm(g: &GroupSummary) -> bool {
    g.first_player_elo.significant_holm
}

/// The draw rate (rule and move-limit draws) with its Wilson interval.
pub fn draw_rate(g: &GroupSummary) -> Option<Estimate> {
    let i = g.draw_rate_wilson?;
    Some(Estimate {
        value: g.draw_rate?,
        low: i.low,
        high: i.high,
    })
}

/// Games of a (result, termination) kind.
pub fn games_of(g: &GroupSummary, result: GameResult, termination: Termination) -> u64 {
    g.terminations(result, termination)
}

/// Games that ended by `termination`, whoever won.
pub fn games_ended_by(g: &GroupSummary, termination: Termination) -> u64 {
    [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
    ]
    .into_iter()
    .map(|r| games_of(g, r, termination))
    .sum()
}

/// Share of games stopped at the ply limit.
pub fn move_limit_rate(g: &GroupSummary) -> Option<f64> {
    g.move_limit_rate
}

/// Median game length in plies.
pub fn median_length(g: &GroupSummary) -> Option<f64> {
    g.length.median
}

/// Mean game length in plies.
pub fn mean_length(g: &GroupSummary) -> Option<f64> {
    g.length.mean
}

/// Mean pieces captured per game.
pub fn captures_per_game(g: &GroupSummary) -> Option<f64> {
    g.captures_per_game
}

/// The pairing's first agent's score over both colours, with its interval, and the Elo
/// difference it means (when two different agents meet).
pub fn first_agent(g: &GroupSummary) -> Option<(Estimate, Option<f64>)> {
    let a = g.first_agent.as_ref()?;
    let i = a.wilson?;
    Some((
        Estimate {
            value: a.score,
            low: i.low,
            high: i.high,
        },
        a.elo,
    ))
}

/// Ludii's metrics: Balance, Completion, Drawishness, BranchingFactor, DecisionMoves.
pub fn ludii_metrics(g: &GroupSummary) -> [Option<f64>; 5] {
    let m = &g.ludii;
    [
        m.balance,
        m.completion,
        m.drawishness,
        m.branching_factor,
        m.decision_moves,
    ]
}

/// The ratings of a tournament's agents.
pub fn ratings(experiment: &Experiment, rows: &[GameRow]) -> Ratings {
    rate(&experiment.agents(), rows)
}

/// One agent's rating: Elo, half-width of its 95% interval, games, score.
pub fn rating_of(ratings: &Ratings, agent: &str) -> Option<(f64, f64, u64, f64)> {
    let r = ratings.agents.iter().find(|r| r.agent == agent)?;
    Some((r.elo, r.error95, r.games, r.score))
}

/// The agents of a tournament, strongest first.
pub fn ranking(ratings: &Ratings) -> Vec<String> {
    ratings.agents.iter().map(|r| r.agent.clone()).collect()
}

/// Whether one virtual draw per pairing was added (some agent won or lost every game).
pub fn ratings_needed_a_prior(ratings: &Ratings) -> bool {
    ratings.prior_draws_per_pairing > 0.0
}

/// The 95% Wilson interval of `successes` out of `n` (for data outside an experiment, such
/// as Ludii's recorded games).
pub fn wilson(successes: u64, n: u64) -> Option<Estimate> {
    let i = agon_selfplay::stats::wilson(successes as f64, n, agon_selfplay::stats::Z95)?;
    Some(Estimate {
        value: successes as f64 / n as f64,
        low: i.low,
        high: i.high,
    })
}

/// The narrowest and widest half-width, in percentage points, of some intervals of shares.
pub fn half_width_range(estimates: impl IntoIterator<Item = Estimate>) -> Option<(f64, f64)> {
    let widths: Vec<f64> = estimates
        .into_iter()
        .map(|e| 50.0 * (e.high - e.low))
        .collect();
    let low = widths.iter().copied().reduce(f64::min)?;
    let high = widths.iter().copied().reduce(f64::max)?;
    Some((low, high))
}

/// `±a to ±b points`: how wide the intervals of White's score (over pairs) and of the draw
/// rates of a summary's groups are.
pub fn interval_widths(summary: &agon_selfplay::Summary) -> String {
    let range = |r: Option<(f64, f64)>| {
        r.map_or("-".to_string(), |(low, high)| {
            if (high - low).abs() < 0.05 {
                format!("±{low:.1} points")
            } else {
                format!("±{low:.1} to ±{high:.1} points")
            }
        })
    };
    format!(
        "the 95% intervals of White's score are {} wide, those of the draw rates {}",
        range(half_width_range(
            summary.groups.iter().filter_map(white_score)
        )),
        range(half_width_range(
            summary.groups.iter().filter_map(draw_rate)
        )),
    )
}
