//! Plain-text tables for the terminal: aligned columns, numbers right-aligned.

use crate::ratings::Ratings;
use crate::stats::Interval;
use crate::summary::{GroupSummary, Summary, OUTCOME_KINDS};
use agon_core::{GameResult, Termination};

/// A table being built: a header row and data rows of equal length.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Columns holding text (left-aligned); the others are right-aligned.
    text_columns: usize,
}

impl Table {
    fn new(header: &[&str], text_columns: usize) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            text_columns,
        }
    }

    /// Adds a row (padded or cut to the header's length).
    fn push(&mut self, mut row: Vec<String>) {
        row.resize(self.header.len(), String::new());
        self.rows.push(row);
    }

    fn render(&self) -> String {
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

fn fixed(value: Option<f64>, digits: usize) -> String {
    value.map_or("-".into(), |v| format!("{v:.digits$}"))
}

fn interval(value: Option<Interval>) -> String {
    value.map_or("-".into(), |i| format!("[{:.3}, {:.3}]", i.low, i.high))
}

fn signed(value: Option<f64>) -> String {
    value.map_or("inf".into(), |v| format!("{v:+.0}"))
}

fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// The short heading of a (result, termination) column: `1-0 formation`.
pub fn outcome_heading(result: GameResult, termination: Termination) -> String {
    format!("{} {}", result.token(), termination.name())
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
    if summary.time_limited_games > 0 {
        out.push_str(&format!(
            "note: {} game(s) used time-limited agents and are not reproducible from the seed\n",
            summary.time_limited_games
        ));
    }
    let show_pairing = summary
        .groups
        .iter()
        .any(|g| g.pairing != summary.groups[0].pairing);
    let keys = |g: &GroupSummary| {
        let mut k = vec![g.variant.clone()];
        if show_pairing {
            k.push(g.pairing.clone());
        }
        k
    };
    let key_headers: Vec<&str> = if show_pairing {
        vec!["variant", "pairing"]
    } else {
        vec!["variant"]
    };
    let nkeys = key_headers.len();
    fn with_keys<'a>(keys: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
        keys.iter().chain(rest).copied().collect()
    }

    out.push_str("\nResults (White's score: win 1, draw 1/2; intervals 95%)\n");
    let mut t = Table::new(
        &with_keys(
            &key_headers,
            &[
                "games",
                "White",
                "Black",
                "draws",
                "White score",
                "Wilson",
                "pairs",
                "pentanomial",
                "first-move Elo",
                "Elo 95%",
                "p",
                "sig.",
                "Holm",
            ],
        ),
        nkeys,
    );
    for g in &summary.groups {
        let elo = &g.first_player_elo;
        let mut row = keys(g);
        row.extend([
            g.games.to_string(),
            g.white_wins.to_string(),
            g.black_wins.to_string(),
            g.draws.to_string(),
            fixed(g.white_score, 3),
            interval(g.white_score_wilson),
            g.pairs.complete.to_string(),
            interval(g.pairs.interval),
            signed(elo.elo),
            format!("[{}, {}]", signed(elo.low), signed(elo.high)),
            elo.p_value.map_or("-".into(), p_value),
            if elo.significant { "yes" } else { "no" }.into(),
            if elo.significant_holm { "yes" } else { "no" }.into(),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());

    out.push_str("\nEndings (games by result and termination)\n");
    let mut kinds: Vec<(GameResult, Termination)> = OUTCOME_KINDS.to_vec();
    kinds.push((GameResult::Draw, Termination::MoveLimit));
    // Endings outside the rules (an external engine's forfeit) only when they occurred.
    for t in summary.groups.iter().flat_map(|g| &g.by_termination) {
        if !kinds.contains(&(t.result, t.termination)) {
            kinds.push((t.result, t.termination));
        }
    }
    let headings: Vec<String> = kinds.iter().map(|&(r, t)| outcome_heading(r, t)).collect();
    let heading_refs: Vec<&str> = headings.iter().map(String::as_str).collect();
    let mut t = Table::new(&with_keys(&key_headers, &heading_refs), nkeys);
    for g in &summary.groups {
        let mut row = keys(g);
        row.extend(kinds.iter().map(|&(r, k)| g.terminations(r, k).to_string()));
        t.push(row);
    }
    out.push_str(&t.render());

    out.push_str("\nLength (plies) and activity (per game)\n");
    let mut t = Table::new(
        &with_keys(
            &key_headers,
            &[
                "mean",
                "min",
                "q1",
                "median",
                "q3",
                "max",
                "draw rate",
                "Wilson",
                "captures",
                "relocations",
            ],
        ),
        nkeys,
    );
    for g in &summary.groups {
        let l = &g.length;
        let mut row = keys(g);
        row.extend([
            fixed(l.mean, 1),
            fixed(l.min, 0),
            fixed(l.q1, 1),
            fixed(l.median, 1),
            fixed(l.q3, 1),
            fixed(l.max, 0),
            fixed(g.draw_rate, 3),
            interval(g.draw_rate_wilson),
            fixed(g.captures_per_game, 2),
            fixed(g.relocations_per_game, 2),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());

    if summary.groups.iter().any(|g| g.first_agent.is_some()) {
        out.push_str("\nAgents (score of the pairing's first agent over both colours)\n");
        let mut t = Table::new(
            &with_keys(&key_headers, &["agent", "score", "Wilson", "Elo"]),
            nkeys + 1,
        );
        for g in &summary.groups {
            if let Some(a) = &g.first_agent {
                let mut row = keys(g);
                row.extend([
                    a.agent.clone(),
                    format!("{:.3}", a.score),
                    interval(a.wilson),
                    signed(a.elo),
                ]);
                t.push(row);
            }
        }
        out.push_str(&t.render());
    }

    out.push_str("\nLudii metrics (as Ludii's evaluation computes them)\n");
    let mut t = Table::new(
        &with_keys(
            &key_headers,
            &[
                "AdvantageP1",
                "Balance",
                "Completion",
                "Drawishness",
                "Duration",
                "BranchingFactor",
                "DecisionMoves",
            ],
        ),
        nkeys,
    );
    for g in &summary.groups {
        let m = &g.ludii;
        let mut row = keys(g);
        row.extend([
            fixed(m.advantage_p1, 3),
            fixed(m.balance, 3),
            fixed(m.completion, 3),
            fixed(m.drawishness, 3),
            fixed(m.duration, 1),
            fixed(m.branching_factor, 2),
            fixed(m.decision_moves, 3),
        ]);
        t.push(row);
    }
    out.push_str(&t.render());
    out
}

/// A tournament's ratings as plain text: the rating list, then the cross table.
pub fn render_ratings(ratings: &Ratings) -> String {
    let mut out = format!(
        "Elo ratings ({} games; mean rating 0; 95% intervals)\n",
        ratings.games
    );
    if ratings.prior_draws_per_pairing > 0.0 {
        out.push_str(
            "note: an agent won or lost every game against the rest, so one virtual draw was \
             added to each pairing to keep ratings finite\n",
        );
    }
    let mut t = Table::new(&["rank", "agent", "Elo", "95%", "games", "score"], 2);
    for (k, a) in ratings.agents.iter().enumerate() {
        t.push(vec![
            (k + 1).to_string(),
            a.agent.clone(),
            format!("{:+.0}", a.elo),
            format!("±{:.0}", a.error95),
            a.games.to_string(),
            format!("{:.3}", a.score),
        ]);
    }
    out.push_str(&t.render());
    out.push_str("\nPairings\n");
    let mut t = Table::new(
        &["agent", "opponent", "games", "score", "Elo difference"],
        2,
    );
    for c in &ratings.cross {
        t.push(vec![
            c.agent.clone(),
            c.opponent.clone(),
            c.games.to_string(),
            format!("{:.3}", c.score),
            signed(c.elo_difference),
        ]);
    }
    out.push_str(&t.render());
    out
}
