//! The figures the docs quote, read from the `agon_selfplay` library's summary. This is
//! the one module that knows the structure of those types: when the statistics change,
//! adapt the functions here and the sections follow.

use agon_core::{GameResult, Termination};
use agon_selfplay::contrasts::Contrast;
use agon_selfplay::ratings::Ratings;
use agon_selfplay::stats::contrast::Difference;
use agon_selfplay::stats::sprt::Hypothesis;
use agon_selfplay::stats::Interval;
use agon_selfplay::summary::{GroupSummary, Rate};
use agon_selfplay::Summary;

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

fn estimate(value: Option<f64>, interval: Option<Interval>) -> Option<Estimate> {
    let i = interval?;
    Some(Estimate {
        value: value?,
        low: i.low,
        high: i.high,
    })
}

fn rate(r: &Rate) -> Option<Estimate> {
    estimate(r.rate, r.interval)
}

/// White's score over colour-swapped pairs with its interval (per game with the Wilson
/// interval when there is no complete pair).
pub fn white_score(g: &GroupSummary) -> Option<Estimate> {
    estimate(g.pairs.white_score, g.pairs.interval)
        .or_else(|| estimate(g.white_score, g.white_score_wilson))
}

/// The first-player advantage in Elo with its interval (`None` when an end is unbounded).
pub fn first_move_elo(g: &GroupSummary) -> Option<Estimate> {
    let e = &g.first_player_elo;
    Some(Estimate {
        value: e.elo?,
        low: e.low?,
        high: e.high?,
    })
}

/// The p-value of "no first-player advantage" (the exact test over pairs).
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

/// "Balanced within ± margin" (TOST): the margin, the p-value, and whether it is shown;
/// `None` when there is no test, or the group is mostly undecided (no evidence).
pub fn balanced(g: &GroupSummary) -> Option<(f64, f64, bool)> {
    if mostly_undecided(g) {
        return None;
    }
    let t = g.equivalence.as_ref()?;
    Some((t.margin, t.p_value, t.equivalent))
}

/// Whether most of a group's games stopped at the ply limit.
pub fn mostly_undecided(g: &GroupSummary) -> bool {
    g.flagged("mostly undecided")
}

/// The smallest first-move advantage (a share of points) the pairs would detect.
pub fn detectable_effect(g: &GroupSummary) -> Option<f64> {
    g.detectable_effect
}

/// Decided games / games.
pub fn decisive_rate(g: &GroupSummary) -> Option<Estimate> {
    rate(&g.decisive_rate)
}

/// White's wins / decided games.
pub fn white_share_of_decisive(g: &GroupSummary) -> Option<Estimate> {
    rate(&g.white_share_of_decisive)
}

/// Draws by the rules (repetition, double pass) / games.
pub fn draw_rate(g: &GroupSummary) -> Option<Estimate> {
    rate(&g.draw_rate)
}

/// Games stopped at the ply limit / games.
pub fn undecided_rate(g: &GroupSummary) -> Option<Estimate> {
    rate(&g.undecided_rate)
}

/// Games ended by adjudication / games.
pub fn adjudicated_rate(g: &GroupSummary) -> Option<Estimate> {
    rate(&g.adjudicated_rate)
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

/// Median game length in plies.
pub fn median_length(g: &GroupSummary) -> Option<f64> {
    g.length.median
}

/// Mean game length in plies.
pub fn mean_length(g: &GroupSummary) -> Option<f64> {
    g.length.mean
}

/// Mean pieces captured per game, with its interval.
pub fn captures_per_game(g: &GroupSummary) -> Option<Estimate> {
    estimate(g.captures_per_game.value, g.captures_per_game.interval)
}

/// The pairing's first agent's score over both colours, with its interval, and the Elo
/// difference it means (when two different agents meet).
pub fn first_agent(g: &GroupSummary) -> Option<(Estimate, Option<f64>)> {
    let a = g.first_agent.as_ref()?;
    Some((estimate(Some(a.score), a.interval)?, a.elo))
}

/// Ludii's metrics, as its code computes them: Balance, Completion, Drawishness (code),
/// Drawishness (as described), Timeouts, BranchingFactor, DecisionMoves.
pub fn ludii_metrics(g: &GroupSummary) -> [Option<f64>; 7] {
    let m = &g.ludii;
    [
        m.balance,
        m.completion,
        m.drawishness,
        m.drawishness_described,
        m.timeouts,
        m.branching_factor,
        m.decision_moves,
    ]
}

/// The sequential test of a group: the accepted hypothesis (`None` while undecided) and
/// the pairs it read.
pub fn sprt(g: &GroupSummary) -> Option<(Option<&'static str>, u64)> {
    let s = g.sprt.as_ref()?;
    let decision = s.decision.map(|h| match h {
        Hypothesis::H0 => "H0",
        Hypothesis::H1 => "H1",
    });
    Some((decision, s.pairs))
}

/// One contrast metric, variant minus baseline: the difference with its interval, the
/// p-value, whether it survives Holm's correction, and Hedges' g.
pub struct ContrastFigure {
    /// The difference and its interval (the interval's ends are the difference when it
    /// has none).
    pub difference: Estimate,
    /// p-value of "no difference".
    pub p_value: f64,
    /// Significant after Holm's correction over the variants.
    pub significant_holm: bool,
    /// Hedges' g.
    pub effect_size: Option<f64>,
}

fn contrast_figure(d: &Option<Difference>) -> Option<ContrastFigure> {
    let d = d.as_ref()?;
    let (low, high) = d
        .interval
        .map_or((d.difference, d.difference), |i| (i.low, i.high));
    Some(ContrastFigure {
        difference: Estimate {
            value: d.difference,
            low,
            high,
        },
        p_value: d.p_value,
        significant_holm: d.significant_holm,
        effect_size: d.effect_size,
    })
}

/// The contrast metrics in report order, with their names and units: White's score, the
/// rule-draw rate and the decisive rate as shares, mean length in plies, captures per
/// game.
pub fn contrast_metrics(c: &Contrast) -> [(&'static str, bool, Option<ContrastFigure>); 5] {
    [
        ("White's score", true, contrast_figure(&c.white_score)),
        ("decisive rate", true, contrast_figure(&c.decisive_rate)),
        ("rule-draw rate", true, contrast_figure(&c.draw_rate)),
        (
            "mean length (plies)",
            false,
            contrast_figure(&c.mean_length),
        ),
        ("captures per game", false, contrast_figure(&c.captures)),
    ]
}

/// The report's contrasts and their baseline.
pub fn contrasts(summary: &Summary) -> (&[Contrast], Option<&str>) {
    (&summary.contrasts, summary.analysis.baseline.as_deref())
}

/// A tournament's ratings.
pub fn ratings(summary: &Summary) -> Option<&Ratings> {
    summary.ratings.as_ref()
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

/// The virtual draws per pairing of the ratings' prior.
pub fn ratings_prior(ratings: &Ratings) -> f64 {
    ratings.prior_draws_per_pairing
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

/// `±a to ±b points`: how wide the intervals of White's score (over pairs) and of the
/// decisive rates of a summary's groups are.
pub fn interval_widths(summary: &Summary) -> String {
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
        "the 95% intervals of White's score are {} wide, those of the decisive rates {}",
        range(half_width_range(
            summary.groups.iter().filter_map(white_score)
        )),
        range(half_width_range(
            summary.groups.iter().filter_map(decisive_rate)
        )),
    )
}
