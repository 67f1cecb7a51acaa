//! Plain-text tables for the terminal: aligned columns, numbers right-aligned. Numbers are
//! printed so that they never read `-0`, `inf` or `NaN`: a rounded zero has no sign, an
//! unbounded interval end is written as a one-sided bound, a missing value as `-`.

use crate::contrasts::CONTRAST_METRICS;
use crate::ratings::Ratings;
use crate::stats::contrast::Difference;
use crate::stats::Interval;
use crate::summary::{Summary, OUTCOME_KINDS};
use agon_core::{GameResult, Termination};

/// A table being built: a header row and data rows of equal length.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Columns holding text (left-aligned); the others are right-aligned.
    text_columns: usize,
}

impl Table {
    /// A table with these column headings; the first `text_columns` are left-aligned.
    pub fn new(header: &[&str], text_columns: usize) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            text_columns,
        }
    }

    /// Adds a row (padded or cut to the header's length).
    pub fn push(&mut self, mut row: Vec<String>) {
        row.resize(self.header.len(), String::new());
        self.rows.push(row);
    }

    /// The table as text, columns padded, a rule under the header.
    pub fn render(&self) -> String {
        let columns = self.header.len();
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (c, cell) in row.iter().enumerate() {
                widths[c] = widths[c].max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut out = String::new();
            for (c, cell) in cells.iter().enumerate() {
                let pad = widths[c] - cell.chars().count();
                if c > 0 {
                    out.push_str("  ");
                }
                if c < self.text_columns {
                    out.push_str(cell);
                    if c + 1 < columns {
                        out.push_str(&" ".repeat(pad));
                    }
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(cell);
                }
            }
            out.push('\n');
            out
        };
        let mut out = line(&self.header);
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        out.push_str(&line(&rule));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// A number with `digits` decimals; a value that rounds to zero has no sign.
pub fn fixed(value: f64, digits: usize) -> String {
    let text = format!("{value:.digits$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

fn opt(value: Option<f64>, digits: usize) -> String {
    value.map_or("-".into(), |v| fixed(v, digits))
}

/// A signed whole number (`+12`, `-3`, `0`).
pub fn signed(value: f64) -> String {
    signed_fixed(value, 0)
}

/// A number with `digits` decimals and its sign (`+1.2`, `-0.4`, `0.0`: zero unsigned).
pub fn signed_fixed(value: f64, digits: usize) -> String {
    let text = fixed(value, digits);
    if text.starts_with('-') || text.chars().all(|c| c == '0' || c == '.') {
        text
    } else {
        format!("+{text}")
    }
}

fn opt_signed(value: Option<f64>) -> String {
    value.map_or("-".into(), signed)
}

/// An interval of shares as percents: `[49.7, 50.5]` (`-` when absent).
pub fn percents(value: Option<Interval>) -> String {
    value.map_or("-".into(), |i| {
        format!(
            "[{}, {}]",
            fixed(i.low * 100.0, 1),
            fixed(i.high * 100.0, 1)
        )
    })
}

/// A share in percent, `50.0%`, or `-`.
pub fn percent(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{}%", fixed(v * 100.0, 1)))
}

/// An Elo interval whose ends may be unbounded (a score interval reaching 0 or 1).
pub fn elo_interval(low: Option<f64>, high: Option<f64>) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("[{}, {}]", signed(l), signed(h)),
        (Some(l), None) => format!("above {}", signed(l)),
        (None, Some(h)) => format!("below {}", signed(h)),
        (None, None) => "-".into(),
    }
}

/// A p-value: three decimals, or two significant digits below 0.001.
pub fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else if p > 0.0 {
        format!("{p:.1e}")
    } else {
        "<1e-300".into()
    }
}

fn yes_no(flag: bool) -> String {
    if flag { "yes" } else { "no" }.into()
}

/// The short heading of a (result, termination) column: `1-0 formation`.
pub fn outcome_heading(result: GameResult, termination: Termination) -> String {
    format!("{} {}", result.token(), termination.name())
}

/// Row keys and their headings: the variant, and the pairing when groups differ in it.
struct Keys {
    headers: Vec<&'static str>,
    show_pairing: bool,
}

impl Keys {
    fn of(summary: &Summary) -> Keys {
        let show_pairing = summary
            .groups
            .iter()
            .any(|g| g.pairing != summary.groups[0].pairing);
        Keys {
            headers: if show_pairing {
                vec!["variant", "pairing"]
            } else {
                vec!["variant"]
            },
            show_pairing,
        }
    }

    fn row(&self, variant: &str, pairing: &str) -> Vec<String> {
        let mut k = vec![variant.to_string()];
        if self.show_pairing {
            k.push(pairing.to_string());
        }
        k
    }

    fn table(&self, rest: &[&str], extra_text_columns: usize) -> Table {
        let header: Vec<&str> = self.headers.iter().chain(rest).copied().collect();
        Table::new(&header, self.headers.len() + extra_text_columns)
    }
}

/// The whole report of a summary as plain text.
pub fn render_summary(summary: &Summary) -> String {
    let e = &summary.experiment;
    let mut out = format!(
        "agon-selfplay: {} of {} games; agents: {}; {} game(s) per variant and pairing; \
         seed {}; {} random opening plies; ply limit {}\n",
        summary.games_played,
        summary.games_expected,
        e.agents_label(),
        e.games,
        e.seed,
        e.opening_plies,
        e.max_plies
    );
    if summary.games_used < summary.games_played {
        out.push_str(&format!(
            "note: {} game(s) played after an SPRT decided are left out of the statistics\n",
            summary.games_played - summary.games_used
        ));
    }
    if summary.time_limited_games > 0 {
        out.push_str(&format!(
            "note: {} game(s) used time-limited agents and are not reproducible from the seed\n",
            summary.time_limited_games
        ));
    }
    let keys = Keys::of(summary);
    results_table(summary, &keys, &mut out);
    decisive_table(summary, &keys, &mut out);
    endings_table(summary, &keys, &mut out);
    length_table(summary, &keys, &mut out);
    agents_table(summary, &keys, &mut out);
    sprt_table(summary, &keys, &mut out);
    contrast_table(summary, &keys, &mut out);
    ludii_table(summary, &keys, &mut out);
    openings_table(summary, &keys, &mut out);
    notes(summary, &mut out);
    out
}

fn results_table(summary: &Summary, keys: &Keys, out: &mut String) {
    out.push_str(
        "\nResults (White's score: win 1, draw 1/2, undecided 1/2; draws: by the rules; \
         adjudicated: ended from the agents' scores, wins and draws; intervals 95%, over \
         colour-swapped pairs; p: exact sign-flip test of no first-move advantage)\n",
    );
    let mut t = keys.table(
        &[
            "games",
            "White",
            "Black",
            "draws",
            "undecided",
            "adjudicated",
            "pairs",
            "White score",
            "95%",
            "first-move Elo",
            "Elo 95%",
            "p",
            "Holm",
            "detectable",
            "note",
        ],
        0,
    );
    for g in &summary.groups {
        let elo = &g.first_player_elo;
        let mut row = keys.row(&g.variant, &g.pairing);
        row.extend([
            g.games.to_string(),
            g.white_wins.to_string(),
            g.black_wins.to_string(),
            g.draws.to_string(),
            g.undecided.to_string(),
            g.adjudicated.to_string(),
            g.pairs.complete.to_string(),
            percent(g.pairs.white_score),
            percents(g.pairs.interval),
            opt_signed(elo.elo),
            elo_interval(elo.low, elo.high),
            elo.p_value.map_or("-".into(), p_value),
            yes_no(elo.significant_holm),
            g.detectable_effect
                .map_or("-".into(), |d| format!("±{}", fixed(d * 100.0, 1))),
            g.flags.join(", "),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());
}

fn openings_table(summary: &Summary, keys: &Keys, out: &mut String) {
    if summary.openings.is_empty() {
        return;
    }
    out.push_str(
        "\nBy opening (the suite's openings by number; White's score over colour-swapped \
         pairs with its 95% pentanomial interval; draws: by the rules; undecided: stopped at \
         the ply limit; openings.csv has every number)\n",
    );
    let mut t = keys.table(
        &[
            "opening",
            "moves or position",
            "pairs",
            "games",
            "White score",
            "95%",
            "draws",
            "undecided",
            "mean length",
        ],
        2,
    );
    for o in &summary.openings {
        let mut row = keys.row(&o.variant, &o.pairing);
        row.extend([
            o.opening.to_string(),
            o.label.clone(),
            o.pairs.to_string(),
            o.games.to_string(),
            percent(o.white_score),
            percents(o.interval),
            percent(o.draw_rate.rate),
            percent(o.undecided_rate.rate),
            opt(o.length_mean, 1),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());
}

fn decisive_table(summary: &Summary, keys: &Keys, out: &mut String) {
    let margin = summary.analysis.margin;
    out.push_str(&format!(
        "\nDecisive games and balance (undecided: stopped at the ply limit; nElo: normalized \
         Elo; balanced: two one-sided tests within ±{} points)\n",
        fixed(margin * 100.0, 1)
    ));
    let mut t = keys.table(
        &[
            "decisive",
            "95%",
            "White's share of decisive",
            "95%",
            "undecided",
            "nElo",
            "nElo 95%",
            "balanced",
            "TOST p",
        ],
        0,
    );
    for g in &summary.groups {
        let mut row = keys.row(&g.variant, &g.pairing);
        let nelo = g.normalized_elo;
        row.extend([
            percent(g.decisive_rate.rate),
            percents(g.decisive_rate.interval),
            percent(g.white_share_of_decisive.rate),
            percents(g.white_share_of_decisive.interval),
            percent(g.undecided_rate.rate),
            opt_signed(nelo.and_then(|n| n.value)),
            nelo.and_then(|n| n.interval)
                .map_or("-".into(), |i| elo_interval(Some(i.low), Some(i.high))),
            g.equivalence.map_or("-".into(), |t| {
                if g.flagged("mostly undecided") {
                    // Unfinished games pull White's score to 1/2: no evidence of balance.
                    "(undecided)".into()
                } else if t.equivalent {
                    format!("within ±{}", fixed(margin * 100.0, 1))
                } else {
                    "not shown".into()
                }
            }),
            g.equivalence.map_or("-".into(), |t| p_value(t.p_value)),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());
}

fn endings_table(summary: &Summary, keys: &Keys, out: &mut String) {
    out.push_str("\nEndings (games by result and termination)\n");
    let mut kinds: Vec<(GameResult, Termination)> = OUTCOME_KINDS.to_vec();
    // Endings outside the rules (an external engine's forfeit) only when they occurred.
    for t in summary.groups.iter().flat_map(|g| &g.by_termination) {
        if !kinds.contains(&(t.result, t.termination)) {
            kinds.push((t.result, t.termination));
        }
    }
    let headings: Vec<String> = kinds.iter().map(|&(r, t)| outcome_heading(r, t)).collect();
    let heading_refs: Vec<&str> = headings.iter().map(String::as_str).collect();
    let mut t = keys.table(&heading_refs, 0);
    for g in &summary.groups {
        let mut row = keys.row(&g.variant, &g.pairing);
        row.extend(kinds.iter().map(|&(r, k)| g.terminations(r, k).to_string()));
        t.push(row);
    }
    out.push_str(&t.render());
}

fn length_table(summary: &Summary, keys: &Keys, out: &mut String) {
    out.push_str("\nLength (plies) and activity (per game; intervals 95%, bootstrap over pairs)\n");
    let mut t = keys.table(
        &[
            "mean",
            "95%",
            "min",
            "q1",
            "median",
            "q3",
            "max",
            "captures",
            "95%",
            "relocations",
        ],
        0,
    );
    let range = |i: Option<Interval>, digits: usize| {
        i.map_or("-".into(), |i| {
            format!("[{}, {}]", fixed(i.low, digits), fixed(i.high, digits))
        })
    };
    for g in &summary.groups {
        let l = &g.length;
        let mut row = keys.row(&g.variant, &g.pairing);
        row.extend([
            opt(l.mean, 1),
            range(l.mean_interval, 1),
            opt(l.min, 0),
            opt(l.q1, 1),
            opt(l.median, 1),
            opt(l.q3, 1),
            opt(l.max, 0),
            opt(g.captures_per_game.value, 2),
            range(g.captures_per_game.interval, 2),
            opt(g.relocations_per_game.value, 2),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());
}

fn agents_table(summary: &Summary, keys: &Keys, out: &mut String) {
    if !summary.groups.iter().any(|g| g.first_agent.is_some()) {
        return;
    }
    out.push_str(
        "\nAgents (score of the pairing's first agent over both colours; 95% over pairs)\n",
    );
    let mut t = keys.table(&["agent", "score", "95%", "Elo"], 1);
    for g in &summary.groups {
        if let Some(a) = &g.first_agent {
            let mut row = keys.row(&g.variant, &g.pairing);
            row.extend([
                a.agent.clone(),
                percent(Some(a.score)),
                percents(a.interval),
                opt_signed(a.elo),
            ]);
            t.push(row);
        }
    }
    out.push_str(&t.render());
}

/// The SPRT table of a summary (empty without an SPRT).
pub fn render_sprt(summary: &Summary) -> String {
    let mut out = String::new();
    sprt_table(summary, &Keys::of(summary), &mut out);
    out
}

fn sprt_table(summary: &Summary, keys: &Keys, out: &mut String) {
    let Some(spec) = &summary.experiment.sprt else {
        return;
    };
    let whose = match summary.experiment.kind {
        crate::Kind::Run => "White's first-move advantage",
        crate::Kind::Tournament => "the pairing's first agent",
    };
    out.push_str(&format!(
        "\nSPRT of {whose}: H0 Elo {}, H1 Elo {}, alpha {}, beta {} (pentanomial GSPRT over \
         the prefix of pairs in index order)\n",
        spec.elo0, spec.elo1, spec.alpha, spec.beta
    ));
    let mut t = keys.table(&["pairs", "LLR", "lower", "upper", "decision"], 0);
    for g in &summary.groups {
        if let Some(s) = &g.sprt {
            let mut row = keys.row(&g.variant, &g.pairing);
            row.extend([
                s.pairs.to_string(),
                fixed(s.llr, 2),
                fixed(s.lower, 2),
                fixed(s.upper, 2),
                s.decision.map_or("continue".into(), |d| format!("{d:?}")),
            ]);
            t.push(row);
        }
    }
    out.push_str(&t.render());
}

/// How a contrast metric is printed: scale and decimals of the difference.
fn metric_format(metric: &str) -> (&'static str, f64, usize) {
    match metric {
        "white_score" => ("White score (points)", 100.0, 1),
        "draw_rate" => ("draw rate (points)", 100.0, 1),
        "decisive_rate" => ("decisive rate (points)", 100.0, 1),
        "mean_length" => ("mean length (plies)", 1.0, 1),
        _ => ("captures per game", 1.0, 2),
    }
}

fn contrast_table(summary: &Summary, keys: &Keys, out: &mut String) {
    if summary.contrasts.is_empty() {
        return;
    }
    let baseline = summary.analysis.baseline.clone().unwrap_or_default();
    out.push_str(&format!(
        "\nContrasts with {baseline} (variant minus {baseline}, per colour-swapped pair; 95% \
         Welch intervals; p: permutation test up to 200 pairs, Welch beyond; Holm over the \
         variants, per metric; g: Hedges' effect size)\n"
    ));
    let mut t = keys.table(&["metric", "difference", "95%", "p", "Holm", "g"], 1);
    for c in &summary.contrasts {
        for (m, metric) in CONTRAST_METRICS.iter().enumerate() {
            let (name, scale, digits) = metric_format(metric);
            let d: Option<&Difference> = c.metrics()[m].as_ref();
            let mut row = keys.row(&c.variant, &c.pairing);
            let value = |v: f64| signed_fixed(v * scale, digits);
            row.extend([
                name.to_string(),
                d.map_or("-".into(), |d| value(d.difference)),
                d.and_then(|d| d.interval).map_or("-".into(), |i| {
                    format!("[{}, {}]", value(i.low), value(i.high))
                }),
                d.map_or("-".into(), |d| p_value(d.p_value)),
                d.map_or("-".into(), |d| yes_no(d.significant_holm)),
                d.and_then(|d| d.effect_size)
                    .map_or("-".into(), |g| fixed(g, 2)),
            ]);
            t.push(row);
        }
    }
    out.push_str(&t.render());
}

fn ludii_table(summary: &Summary, keys: &Keys, out: &mut String) {
    out.push_str(
        "\nLudii metrics (as Ludii's code computes them: Drawishness counts games stopped at \
         the ply limit, which Timeouts counts alone; Drawishness* is its description: rule \
         draws only)\n",
    );
    let mut t = keys.table(
        &[
            "AdvantageP1",
            "Balance",
            "Completion",
            "Drawishness",
            "Drawishness*",
            "Timeouts",
            "Duration",
            "BranchingFactor",
            "DecisionMoves",
        ],
        0,
    );
    for g in &summary.groups {
        let m = &g.ludii;
        let mut row = keys.row(&g.variant, &g.pairing);
        row.extend([
            opt(m.advantage_p1, 3),
            opt(m.balance, 3),
            opt(m.completion, 3),
            opt(m.drawishness, 3),
            opt(m.drawishness_described, 3),
            opt(m.timeouts, 3),
            opt(m.duration, 1),
            opt(m.branching_factor, 2),
            opt(m.decision_moves, 3),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());
}

fn notes(summary: &Summary, out: &mut String) {
    let a = &summary.analysis;
    out.push_str(&format!(
        "\nnotes: `too few pairs`: fewer than {} complete pairs, so no result could be \
         significant; `mostly undecided`: more than half the games hit the ply limit, so \
         White's score mostly counts unfinished games as half points, its interval is narrow for \
         that reason and its balance is not claimed (read the decisive games instead); \
         `detectable`: the smallest first-move advantage (points of White's \
         score) these pairs detect with {}% power at the {}% level.\n",
        a.min_pairs,
        fixed(a.power * 100.0, 0),
        fixed(a.alpha * 100.0, 0)
    ));
}

/// A tournament's ratings as plain text: the rating list, the pairwise table and the
/// crosstable.
pub fn render_ratings(ratings: &Ratings) -> String {
    let scale = match &ratings.anchor {
        Some(a) => format!(
            "{} anchored at {}; intervals relative to it",
            a.agent,
            signed(a.elo)
        ),
        None => "mean rating 0; intervals relative to the mean".into(),
    };
    let mut out = format!(
        "Elo ratings ({} games; {scale}; 95% intervals clustered by colour-swapped pair; \
         prior: {} virtual draw(s) per pairing)\n",
        ratings.games,
        fixed(ratings.prior_draws_per_pairing, 1)
    );
    let mut t = Table::new(&["rank", "agent", "Elo", "95%", "games", "score"], 2);
    for (k, a) in ratings.agents.iter().enumerate() {
        let anchored = ratings.anchor.as_ref().is_some_and(|x| x.agent == a.agent);
        t.push(vec![
            (k + 1).to_string(),
            a.agent.clone(),
            signed(a.elo),
            if anchored {
                "anchor".into()
            } else {
                format!("±{}", fixed(a.error95, 0))
            },
            a.games.to_string(),
            fixed(a.score, 3),
        ]);
    }
    out.push_str(&t.render());
    out.push_str(
        "\nPairwise (rating difference with its 95% interval; LOS: likelihood of superiority)\n",
    );
    let mut t = Table::new(
        &[
            "agent",
            "opponent",
            "games",
            "score",
            "Elo difference",
            "95%",
            "LOS",
        ],
        2,
    );
    for p in &ratings.pairwise {
        t.push(vec![
            p.agent.clone(),
            p.opponent.clone(),
            p.games.to_string(),
            fixed(p.score, 3),
            signed(p.elo_difference),
            elo_interval(Some(p.low), Some(p.high)),
            format!("{}%", fixed(p.los * 100.0, 1)),
        ]);
    }
    out.push_str(&t.render());
    out.push_str("\nCrosstable (wins-draws-losses of the row agent; undecided games apart)\n");
    let mut t = Table::new(&["agent", "opponent", "W-D-L", "undecided"], 2);
    for c in &ratings.crosstable {
        t.push(vec![
            c.agent.clone(),
            c.opponent.clone(),
            format!("{}-{}-{}", c.wins, c.draws, c.losses),
            c.undecided.to_string(),
        ]);
    }
    out.push_str(&t.render());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_never_read_minus_zero_or_infinity() {
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(-0.3, 0), "0");
        assert_eq!(fixed(-0.6, 0), "-1");
        assert_eq!(signed(-0.3), "0");
        assert_eq!(signed(0.4), "0");
        assert_eq!(signed(12.4), "+12");
        assert_eq!(signed(-12.6), "-13");
        assert_eq!(signed_fixed(-0.04, 1), "0.0");
        assert_eq!(signed_fixed(0.05, 1), "+0.1");
        assert_eq!(elo_interval(Some(136.2), None), "above +136");
        assert_eq!(elo_interval(None, Some(-5.0)), "below -5");
        assert_eq!(elo_interval(None, None), "-");
        assert_eq!(p_value(0.25), "0.250");
        assert_eq!(p_value(9.6e-7), "9.6e-7");
        assert_eq!(p_value(0.0), "<1e-300");
    }
}
