//! The report files of an output directory: `summary.json`, `summary.csv`, `openings.csv`
//! (results by suite opening, when there are several) and the charts,
//! all functions of the experiment and its games alone (no timing), so that a merge of
//! shards writes exactly what one run writes.

use crate::by_opening::{openings_csv, OPENINGS_CSV};
use crate::charts;
use crate::contrasts::CONTRAST_METRICS;
use crate::error::{Error, Result};
use crate::row::GameRow;
use crate::sample::Samples;
use crate::stats::contrast::Difference;
use crate::stats::Interval;
use crate::store::{scan_stored_rows, write_atomically, Manifest};
use crate::summary::{Analysis, GroupSummary, Summary, OUTCOME_KINDS};
use agon_core::{GameResult, Termination};
use std::path::Path;

/// `summary.json`: the [`Summary`] as pretty JSON.
pub const SUMMARY_JSON: &str = "summary.json";
/// `summary.csv`: one row per group, every statistic in its own column.
pub const SUMMARY_CSV: &str = "summary.csv";

/// Summarises the games of a directory: the compact samples of its rows (cut at SPRT
/// decisions), then the statistics.
pub fn summarise(
    manifest: &Manifest,
    rows: &[GameRow],
    analysis: &Analysis,
) -> Result<(Summary, Samples)> {
    let samples = Samples::of_rows(&manifest.experiment, rows);
    let summary = Summary::of_samples(
        &manifest.experiment,
        &samples,
        manifest.expected(),
        rows.len() as u64,
        analysis,
    )?;
    Ok((summary, samples))
}

/// The summary of the games stored in `dir`, read row by row from `games.csv` (memory
/// grows with the pairs' statistics, tens of bytes per game, never with whole rows).
pub fn summarise_stored(
    dir: &Path,
    manifest: &Manifest,
    analysis: &Analysis,
) -> Result<(Summary, Samples)> {
    let mut samples = Samples::new(&manifest.experiment);
    let mut games = 0u64;
    scan_stored_rows(dir, manifest, |row, _| {
        samples.add(&row);
        games += 1;
        Ok(())
    })?;
    samples.apply_sprt(manifest.experiment.sprt.as_ref());
    let summary = Summary::of_samples(
        &manifest.experiment,
        &samples,
        manifest.expected(),
        games,
        analysis,
    )?;
    Ok((summary, samples))
}

/// [`write_reports`] for the games stored in `dir`, streamed from `games.csv`.
pub fn write_stored_reports(
    dir: &Path,
    manifest: &Manifest,
    analysis: &Analysis,
) -> Result<Summary> {
    let (summary, samples) = summarise_stored(dir, manifest, analysis)?;
    write_report_files(dir, &summary, &samples)?;
    Ok(summary)
}

/// Writes `summary.json`, `summary.csv` and the charts into `dir`; returns the summary.
pub fn write_reports(
    dir: &Path,
    manifest: &Manifest,
    rows: &[GameRow],
    analysis: &Analysis,
) -> Result<Summary> {
    let (summary, samples) = summarise(manifest, rows, analysis)?;
    write_report_files(dir, &summary, &samples)?;
    Ok(summary)
}

fn write_report_files(dir: &Path, summary: &Summary, samples: &Samples) -> Result<()> {
    write_atomically(&dir.join(SUMMARY_JSON), summary_json(summary).as_bytes())?;
    write_atomically(&dir.join(SUMMARY_CSV), &summary_csv(summary)?)?;
    let by_opening = dir.join(OPENINGS_CSV);
    if summary.openings.is_empty() {
        if by_opening.exists() {
            std::fs::remove_file(&by_opening).map_err(|e| Error::io(&by_opening, e))?;
        }
    } else {
        write_atomically(&by_opening, &openings_csv(&summary.openings)?)?;
    }
    charts::write_charts(dir, summary, samples)
}

/// The summary as pretty JSON with a final newline.
pub fn summary_json(summary: &Summary) -> String {
    serde_json::to_string_pretty(summary).expect("summaries serialise") + "\n"
}

/// The column name of a (result, termination) count: `white_formation`, `draw_move_limit`.
pub fn outcome_column(result: GameResult, termination: Termination) -> String {
    let who = match result {
        GameResult::WhiteWins => "white",
        GameResult::BlackWins => "black",
        _ => "draw",
    };
    format!("{who}_{}", termination.name().replace('-', "_"))
}

fn outcome_kinds() -> Vec<(GameResult, Termination)> {
    OUTCOME_KINDS.to_vec()
}

/// The statistic columns of `summary.csv` after the per-termination counts.
const STAT_COLUMNS: [&str; 70] = [
    "flags",
    "decisive_rate",
    "decisive_low",
    "decisive_high",
    "draw_rate",
    "draw_rate_low",
    "draw_rate_high",
    "undecided_rate",
    "undecided_low",
    "undecided_high",
    "white_share_of_decisive",
    "white_share_low",
    "white_share_high",
    "white_score",
    "wilson_low",
    "wilson_high",
    "pairs",
    "pairs_0",
    "pairs_half",
    "pairs_1",
    "pairs_1half",
    "pairs_2",
    "pairs_white_score",
    "pairs_low",
    "pairs_high",
    "pairs_interval_method",
    "elo",
    "elo_low",
    "elo_high",
    "p_value",
    "significant",
    "significant_holm",
    "normalized_elo",
    "normalized_elo_low",
    "normalized_elo_high",
    "detectable_effect",
    "tost_margin",
    "tost_p",
    "tost_equivalent",
    "sprt_llr",
    "sprt_lower",
    "sprt_upper",
    "sprt_decision",
    "sprt_pairs",
    "length_mean",
    "length_mean_low",
    "length_mean_high",
    "length_min",
    "length_q1",
    "length_median",
    "length_q3",
    "length_max",
    "captures_per_game",
    "captures_low",
    "captures_high",
    "relocations_per_game",
    "first_agent",
    "first_agent_score",
    "first_agent_low",
    "first_agent_high",
    "first_agent_elo",
    "advantage_p1",
    "balance",
    "completion",
    "drawishness",
    "drawishness_described",
    "timeouts",
    "duration",
    "branching_factor",
    "decision_moves",
];

/// Columns of a tournament's ratings on each pairing's row, then of the contrast with
/// the baseline.
const RATING_COLUMNS: [&str; 11] = [
    "rating_difference",
    "rating_difference_low",
    "rating_difference_high",
    "rating_los",
    "first_rating",
    "first_rating_error95",
    "second_rating",
    "second_rating_error95",
    "contrast_baseline",
    "contrast_pairs",
    "contrast_white_elo_difference",
];

/// Columns of each contrast metric: `contrast_<metric>_<part>`.
const CONTRAST_PARTS: [&str; 6] = ["difference", "low", "high", "p", "holm", "effect_size"];

/// The columns of `summary.csv`.
pub fn summary_columns() -> Vec<String> {
    let mut columns: Vec<String> = [
        "variant",
        "pairing",
        "games",
        "white_wins",
        "black_wins",
        "draws",
        "undecided",
        "adjudicated",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    columns.extend(
        outcome_kinds()
            .into_iter()
            .map(|(r, t)| outcome_column(r, t)),
    );
    columns.extend(STAT_COLUMNS.iter().map(|s| s.to_string()));
    columns.extend(RATING_COLUMNS.iter().map(|s| s.to_string()));
    for metric in CONTRAST_METRICS {
        for part in CONTRAST_PARTS {
            columns.push(format!("contrast_{metric}_{part}"));
        }
    }
    columns
}

/// A number for a CSV cell (empty when absent).
pub(crate) fn num(value: Option<f64>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

fn ends(interval: Option<Interval>) -> [String; 2] {
    [num(interval.map(|i| i.low)), num(interval.map(|i| i.high))]
}

/// A rate and its interval's ends for CSV cells.
pub(crate) fn rate_cells(r: &crate::summary::Rate) -> [String; 3] {
    let [low, high] = ends(r.interval);
    [num(r.rate), low, high]
}

fn group_record(summary: &Summary, g: &GroupSummary) -> Vec<String> {
    let mut r = vec![
        g.variant.clone(),
        g.pairing.clone(),
        g.games.to_string(),
        g.white_wins.to_string(),
        g.black_wins.to_string(),
        g.draws.to_string(),
        g.undecided.to_string(),
        g.adjudicated.to_string(),
    ];
    r.extend(
        outcome_kinds()
            .into_iter()
            .map(|(res, t)| g.terminations(res, t).to_string()),
    );
    r.push(g.flags.join("; "));
    r.extend(rate_cells(&g.decisive_rate));
    r.extend(rate_cells(&g.draw_rate));
    r.extend(rate_cells(&g.undecided_rate));
    r.extend(rate_cells(&g.white_share_of_decisive));
    r.push(num(g.white_score));
    r.extend(ends(g.white_score_wilson));
    r.push(g.pairs.complete.to_string());
    r.extend(g.pairs.pentanomial.iter().map(u64::to_string));
    r.push(num(g.pairs.white_score));
    r.extend(ends(g.pairs.interval));
    r.push(
        g.pairs
            .interval_method
            .map_or(String::new(), |m| m.name().to_string()),
    );
    let e = &g.first_player_elo;
    r.extend([
        num(e.elo),
        num(e.low),
        num(e.high),
        num(e.p_value),
        e.significant.to_string(),
        e.significant_holm.to_string(),
    ]);
    let nelo = g.normalized_elo;
    r.push(num(nelo.and_then(|n| n.value)));
    r.extend(ends(nelo.and_then(|n| n.interval)));
    r.push(num(g.detectable_effect));
    let tost = g.equivalence;
    r.extend([
        num(tost.map(|t| t.margin)),
        num(tost.map(|t| t.p_value)),
        tost.map_or(String::new(), |t| t.equivalent.to_string()),
    ]);
    let sprt = g.sprt.as_ref();
    r.extend([
        num(sprt.map(|s| s.llr)),
        num(sprt.map(|s| s.lower)),
        num(sprt.map(|s| s.upper)),
        sprt.and_then(|s| s.decision)
            .map_or(String::new(), |d| format!("{d:?}")),
        sprt.map_or(String::new(), |s| s.pairs.to_string()),
    ]);
    r.push(num(g.length.mean));
    r.extend(ends(g.length.mean_interval));
    r.extend([
        num(g.length.min),
        num(g.length.q1),
        num(g.length.median),
        num(g.length.q3),
        num(g.length.max),
        num(g.captures_per_game.value),
    ]);
    r.extend(ends(g.captures_per_game.interval));
    r.push(num(g.relocations_per_game.value));
    let a = g.first_agent.as_ref();
    r.extend([
        a.map_or(String::new(), |a| a.agent.clone()),
        num(a.map(|a| a.score)),
        num(a.and_then(|a| a.interval).map(|i| i.low)),
        num(a.and_then(|a| a.interval).map(|i| i.high)),
        num(a.and_then(|a| a.elo)),
    ]);
    let m = &g.ludii;
    r.extend([
        num(m.advantage_p1),
        num(m.balance),
        num(m.completion),
        num(m.drawishness),
        num(m.drawishness_described),
        num(m.timeouts),
        num(m.duration),
        num(m.branching_factor),
        num(m.decision_moves),
    ]);
    // The tournament's rating difference between the pairing's agents.
    let pairwise = summary.ratings.as_ref().and_then(|ratings| {
        let (first, second) = g.pairing.split_once(" vs ")?;
        let p = ratings
            .pairwise
            .iter()
            .find(|p| p.agent == first && p.opponent == second)?;
        let rating = |name: &str| ratings.agents.iter().find(|a| a.agent == name);
        Some((p, rating(first)?, rating(second)?))
    });
    r.extend([
        num(pairwise.map(|p| p.0.elo_difference)),
        num(pairwise.map(|p| p.0.low)),
        num(pairwise.map(|p| p.0.high)),
        num(pairwise.map(|p| p.0.los)),
        num(pairwise.map(|p| p.1.elo)),
        num(pairwise.map(|p| p.1.error95)),
        num(pairwise.map(|p| p.2.elo)),
        num(pairwise.map(|p| p.2.error95)),
    ]);
    let contrast = summary
        .contrasts
        .iter()
        .find(|c| c.variant == g.variant && c.pairing == g.pairing);
    r.extend([
        contrast.map_or(String::new(), |c| c.baseline.clone()),
        contrast.map_or(String::new(), |c| c.pairs.to_string()),
        num(contrast.and_then(|c| c.white_elo_difference)),
    ]);
    for m in 0..CONTRAST_METRICS.len() {
        let d: Option<&Difference> = contrast.and_then(|c| c.metrics()[m].as_ref());
        r.push(num(d.map(|d| d.difference)));
        r.extend(ends(d.and_then(|d| d.interval)));
        r.push(num(d.map(|d| d.p_value)));
        r.push(d.map_or(String::new(), |d| d.significant_holm.to_string()));
        r.push(num(d.and_then(|d| d.effect_size)));
    }
    r
}

/// The summary as CSV: a header and one row per group.
pub fn summary_csv(summary: &Summary) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::output(Path::new(SUMMARY_CSV), e.to_string());
    writer.write_record(summary_columns()).map_err(fail)?;
    for g in &summary.groups {
        writer
            .write_record(group_record(summary, g))
            .map_err(fail)?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::output(Path::new(SUMMARY_CSV), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Experiment, Kind, Pairing};

    #[test]
    fn every_group_row_has_every_column() {
        let columns = summary_columns();
        assert_eq!(columns[8], "white_formation");
        assert_eq!(columns[10], "white_queen_captured");
        assert_eq!(columns[18], "draw_move_limit");
        let experiment = Experiment {
            kind: Kind::Run,
            variants: vec!["standard".into()],
            pairings: vec![Pairing {
                first: "random".into(),
                second: "random".into(),
            }],
            games: 2,
            opening_plies: 0,
            max_plies: 10,
            seed: 1,
            sprt: None,
            adjudication: Default::default(),
            openings: None,
        };
        let summary = Summary::new(&experiment, &[], 2);
        assert_eq!(
            group_record(&summary, &summary.groups[0]).len(),
            columns.len()
        );
        let unique: std::collections::BTreeSet<&String> = columns.iter().collect();
        assert_eq!(unique.len(), columns.len(), "column names are unique");
    }
}
