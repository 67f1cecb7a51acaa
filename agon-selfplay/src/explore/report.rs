//! The report cards of an exploration: one row per rule set (its statistics over the
//! pairs the race gave it, its verdicts and, when measured, its ladder's depth), the
//! effect of each switch, the rounds and the ladders; written as `explore.json`,
//! `explore.csv`, a table on stdout and `index.html` ([`super::html`]). Every number is a
//! function of the spec and the games (no timing), so one process and a merge of shards
//! write the same files.

use super::effects::{switch_effects, SwitchEffect};
use super::race::RoundRecord;
use super::spec::ExploreSpec;
use super::store::State;
use super::verdict::{Decisiveness, Fairness, Verdicts};
use crate::error::{Error, Result};
use crate::ladder::{ladders, Ladder};
use crate::sample::{PairRecord, Samples};
use crate::stats::Interval;
use crate::store::{write_atomically, Manifest};
use crate::summary::{Analysis, GroupSummary, LudiiMetrics, Summary};
use crate::table::{fixed, percent, percents, Table};
use serde::Serialize;
use std::path::Path;

/// `explore.json`.
pub const EXPLORE_JSON: &str = "explore.json";
/// `explore.csv`.
pub const EXPLORE_CSV: &str = "explore.csv";
/// `index.html`.
pub const INDEX_HTML: &str = "index.html";

/// One rule set's report card.
#[derive(Clone, Debug, Serialize)]
pub struct RuleSetCard {
    /// Canonical rule-set name.
    pub name: String,
    /// The value of each switch of the family, as `switch=value`.
    pub switches: Vec<String>,
    /// Complete pairs the race gave it.
    pub pairs: u64,
    /// Games.
    pub games: u64,
    /// White's score over the pairs (win 1, any draw 1/2).
    pub white_score: Option<f64>,
    /// Its 95% interval over colour-swapped pairs.
    pub white_score_interval: Option<Interval>,
    /// The first-move advantage in Elo.
    pub first_move_elo: Option<f64>,
    /// The exact sign-flip p-value of no first-move advantage (not corrected for the
    /// race's looks: the verdicts are the sequential tests).
    pub p_value: Option<f64>,
    /// Games won by either side / games.
    pub decisive_rate: Option<f64>,
    /// Its 95% Wilson interval.
    pub decisive_interval: Option<Interval>,
    /// Draws by the rules / games.
    pub draw_rate: Option<f64>,
    /// Games stopped at the ply limit / games.
    pub undecided_rate: Option<f64>,
    /// Games ended by adjudication / games.
    pub adjudicated_rate: Option<f64>,
    /// Mean length in plies.
    pub mean_length: Option<f64>,
    /// Its bootstrap 95% interval.
    pub mean_length_interval: Option<Interval>,
    /// Ludii's metrics.
    pub ludii: LudiiMetrics,
    /// The depth of its skill ladder, when measured.
    pub ladder_depth: Option<u32>,
    /// Fairness verdict.
    pub fairness: Fairness,
    /// Decisiveness verdict.
    pub decisiveness: Decisiveness,
    /// `survivor` (in the race to the end and neither unfair nor drawish), or why and
    /// when it left: `left after round R: REASON`.
    pub status: String,
    /// The round after which it left the race.
    pub left_after: Option<usize>,
    /// The sequential tests behind the verdicts.
    pub tests: Option<Verdicts>,
}

/// The whole report of an exploration.
#[derive(Clone, Debug, Serialize)]
pub struct ExploreReport {
    /// Always `agon-selfplay`.
    pub tool: String,
    /// The spec.
    pub explore: ExploreSpec,
    /// Whether the exploration is over (reports of an unfinished one are provisional).
    pub finished: bool,
    /// Games of the race.
    pub games: u64,
    /// Games of the ladders.
    pub ladder_games: u64,
    /// The rounds played.
    pub rounds: Vec<RoundRecord>,
    /// One card per rule set, in the family's order.
    pub rule_sets: Vec<RuleSetCard>,
    /// The effect of each switch value against the switch's first value.
    pub switch_effects: Vec<SwitchEffect>,
    /// The ladders of the survivors.
    pub ladders: Vec<Ladder>,
}

impl ExploreReport {
    /// The report of an exploration's state, and the statistics it came from (the race's
    /// summary, one group per rule set, and the ladders' summary).
    pub fn new(state: &State) -> Result<(ExploreReport, Summary, Option<Summary>)> {
        let spec = &state.spec;
        // The statistics read exactly the pairs the race planned for each rule set.
        let mut samples: Samples = state.samples.clone();
        for (b, pairs) in samples.blocks.iter_mut().enumerate() {
            pairs.truncate(state.race.pairs_of(b) as usize);
        }
        let expected: u64 = (0..spec.rule_sets.len())
            .map(|b| 2 * state.race.pairs_of(b))
            .sum();
        let summary = Summary::of_samples(
            &state.experiment,
            &samples,
            expected,
            samples.games(),
            &Analysis::default(),
        )?;
        let ladder_summary = match &state.ladder {
            Some((experiment, rows)) => {
                let manifest = Manifest::new(experiment.clone(), None);
                Some(crate::report::summarise(&manifest, rows, &Analysis::default())?.0)
            }
            None => None,
        };
        let ladders: Vec<Ladder> = ladder_summary.as_ref().map(ladders).unwrap_or_default();
        let pairs: Vec<&[PairRecord]> = samples.blocks.iter().map(Vec::as_slice).collect();
        let rule_sets = spec
            .rule_sets
            .iter()
            .enumerate()
            .map(|(b, name)| {
                let group = summary
                    .groups
                    .iter()
                    .find(|g| &g.variant == name)
                    .expect("one group per rule set");
                let depth = ladders.iter().find(|l| &l.variant == name).map(|l| l.depth);
                card(spec, state, b, group, depth)
            })
            .collect();
        let report = ExploreReport {
            tool: "agon-selfplay".into(),
            explore: spec.clone(),
            finished: state.phase() == super::Phase::Finished,
            games: summary.games_used,
            ladder_games: state
                .ladder
                .as_ref()
                .map_or(0, |(_, rows)| rows.len() as u64),
            rounds: state.race.rounds.clone(),
            rule_sets,
            switch_effects: switch_effects(&spec.family, &spec.rule_sets, &pairs),
            ladders,
        };
        Ok((report, summary, ladder_summary))
    }

    /// The report as pretty JSON with a final newline.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialise") + "\n"
    }

    /// `explore.csv`: one row per rule set.
    pub fn csv(&self) -> Result<Vec<u8>> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let fail = |e: csv::Error| Error::output(Path::new(EXPLORE_CSV), e.to_string());
        writer.write_record(CSV_COLUMNS).map_err(fail)?;
        for c in &self.rule_sets {
            let num = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
            let low = |i: Option<Interval>| num(i.map(|i| i.low));
            let high = |i: Option<Interval>| num(i.map(|i| i.high));
            let tests = c.tests.as_ref();
            let llr = |f: fn(&Verdicts) -> f64| num(tests.map(f));
            let record: Vec<String> = vec![
                c.name.clone(),
                c.switches.join(";"),
                c.pairs.to_string(),
                c.games.to_string(),
                num(c.white_score),
                low(c.white_score_interval),
                high(c.white_score_interval),
                num(c.first_move_elo),
                num(c.p_value),
                num(c.decisive_rate),
                low(c.decisive_interval),
                high(c.decisive_interval),
                num(c.draw_rate),
                num(c.undecided_rate),
                num(c.adjudicated_rate),
                num(c.mean_length),
                low(c.mean_length_interval),
                high(c.mean_length_interval),
                num(c.ludii.balance),
                num(c.ludii.completion),
                num(c.ludii.drawishness),
                num(c.ludii.timeouts),
                num(c.ludii.branching_factor),
                num(c.ludii.decision_moves),
                c.ladder_depth.map_or(String::new(), |d| d.to_string()),
                c.fairness.name().to_string(),
                c.decisiveness.name().to_string(),
                c.status.clone(),
                llr(|v| v.white_test.llr),
                llr(|v| v.black_test.llr),
                llr(|v| v.drawish_test.llr),
            ];
            writer.write_record(&record).map_err(fail)?;
        }
        writer
            .into_inner()
            .map_err(|e| Error::output(Path::new(EXPLORE_CSV), e.to_string()))
    }

    /// The ranking table printed at the end: rule sets by fairness (distance of White's
    /// score from 1/2), then decisiveness.
    pub fn table(&self) -> String {
        let mut out = format!(
            "agon-selfplay explore: {} rule sets, {} of {} games of the race in {} round(s){}; \
             agent {}\n",
            self.rule_sets.len(),
            self.games,
            self.explore.budget,
            self.rounds.len(),
            if self.ladder_games > 0 {
                format!(", {} ladder games", self.ladder_games)
            } else {
                String::new()
            },
            self.explore.agent
        );
        let mut t = Table::new(
            &[
                "rule set",
                "pairs",
                "White score",
                "95%",
                "decisive",
                "undecided",
                "adjudicated",
                "length",
                "depth",
                "fairness",
                "decisiveness",
                "status",
            ],
            1,
        );
        for c in self.ranked(Ranking::Fairness) {
            t.push(vec![
                c.name.clone(),
                c.pairs.to_string(),
                percent(c.white_score),
                percents(c.white_score_interval),
                percent(c.decisive_rate),
                percent(c.undecided_rate),
                percent(c.adjudicated_rate),
                c.mean_length.map_or("-".into(), |l| fixed(l, 1)),
                c.ladder_depth.map_or("-".into(), |d| d.to_string()),
                c.fairness.name().to_string(),
                c.decisiveness.name().to_string(),
                c.status.clone(),
            ]);
        }
        out.push_str(&t.render());
        out
    }

    /// The cards in the order of a ranking.
    pub fn ranked(&self, by: Ranking) -> Vec<&RuleSetCard> {
        let mut cards: Vec<&RuleSetCard> = self.rule_sets.iter().collect();
        let key = |c: &RuleSetCard| -> f64 {
            match by {
                Ranking::Fairness => c.white_score.map_or(f64::INFINITY, |s| (s - 0.5).abs()),
                Ranking::Decisiveness => -c.decisive_rate.unwrap_or(-1.0),
                Ranking::Depth => -f64::from(c.ladder_depth.unwrap_or(0)),
                Ranking::Length => c.mean_length.unwrap_or(f64::INFINITY),
            }
        };
        cards.sort_by(|a, b| key(a).total_cmp(&key(b)).then(a.name.cmp(&b.name)));
        cards
    }

    /// Writes `explore.json`, `explore.csv` and `index.html` into `dir`.
    pub fn write(&self, dir: &Path, summary: &Summary, ladder: Option<&Summary>) -> Result<()> {
        write_atomically(&dir.join(EXPLORE_JSON), self.json().as_bytes())?;
        write_atomically(&dir.join(EXPLORE_CSV), &self.csv()?)?;
        let html = super::html::page(self, summary, ladder)?;
        write_atomically(&dir.join(INDEX_HTML), html.as_bytes())
    }
}

/// The orders of the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// White's score closest to 1/2 first.
    Fairness,
    /// Most decisive first.
    Decisiveness,
    /// Deepest ladder first.
    Depth,
    /// Shortest games first.
    Length,
}

/// The columns of `explore.csv`.
pub const CSV_COLUMNS: [&str; 31] = [
    "rule_set",
    "switches",
    "pairs",
    "games",
    "white_score",
    "white_score_low",
    "white_score_high",
    "first_move_elo",
    "p_value",
    "decisive_rate",
    "decisive_low",
    "decisive_high",
    "draw_rate",
    "undecided_rate",
    "adjudicated_rate",
    "mean_length",
    "mean_length_low",
    "mean_length_high",
    "balance",
    "completion",
    "drawishness",
    "timeouts",
    "branching_factor",
    "decision_moves",
    "ladder_depth",
    "fairness",
    "decisiveness",
    "status",
    "white_test_llr",
    "black_test_llr",
    "drawish_test_llr",
];

fn card(
    spec: &ExploreSpec,
    state: &State,
    block: usize,
    g: &GroupSummary,
    ladder_depth: Option<u32>,
) -> RuleSetCard {
    let standing = &state.race.standings[block];
    let verdicts = standing.verdicts.clone();
    let survivor = state.race.survivors().contains(&block);
    let status = match (&standing.reason, standing.left_after) {
        (Some(reason), Some(round)) => format!("left after round {round}: {reason}"),
        _ if survivor => "survivor".to_string(),
        _ if verdicts.is_none() => "not played".to_string(),
        _ => "in the race".to_string(),
    };
    RuleSetCard {
        name: g.variant.clone(),
        switches: spec
            .family
            .values_of(&g.variant)
            .into_iter()
            .map(|(s, v)| format!("{s}={v}"))
            .collect(),
        pairs: g.pairs.complete,
        games: g.games,
        white_score: g.pairs.white_score,
        white_score_interval: g.pairs.interval,
        first_move_elo: g.first_player_elo.elo,
        p_value: g.first_player_elo.p_value,
        decisive_rate: g.decisive_rate.rate,
        decisive_interval: g.decisive_rate.interval,
        draw_rate: g.draw_rate.rate,
        undecided_rate: g.undecided_rate.rate,
        adjudicated_rate: g.adjudicated_rate.rate,
        mean_length: g.length.mean,
        mean_length_interval: g.length.mean_interval,
        ludii: g.ludii.clone(),
        ladder_depth,
        fairness: verdicts.as_ref().map_or(Fairness::Open, |v| v.fairness),
        decisiveness: verdicts
            .as_ref()
            .map_or(Decisiveness::Open, |v| v.decisiveness),
        status,
        left_after: standing.left_after,
        tests: verdicts,
    }
}
