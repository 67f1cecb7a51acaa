//! The report files of an output directory: `summary.json`, `summary.csv` and the charts,
//! all functions of the experiment and its games alone (no timing), so that a merge of
//! shards writes exactly what one run writes.

use crate::charts;
use crate::error::{Error, Result};
use crate::row::GameRow;
use crate::store::{write_atomically, Manifest};
use crate::summary::{GroupSummary, Summary, OUTCOME_KINDS};
use agon_core::{GameResult, Termination};
use std::path::Path;

/// `summary.json`: the [`Summary`] as pretty JSON.
pub const SUMMARY_JSON: &str = "summary.json";
/// `summary.csv`: one row per group, every statistic in its own column.
pub const SUMMARY_CSV: &str = "summary.csv";

/// Summarises the games of a directory.
pub fn summarise(manifest: &Manifest, rows: &[GameRow]) -> Summary {
    Summary::new(&manifest.experiment, rows, manifest.expected())
}

/// Writes `summary.json`, `summary.csv` and the charts into `dir`; returns the summary.
pub fn write_reports(dir: &Path, manifest: &Manifest, rows: &[GameRow]) -> Result<Summary> {
    let summary = summarise(manifest, rows);
    write_atomically(&dir.join(SUMMARY_JSON), summary_json(&summary).as_bytes())?;
    write_atomically(&dir.join(SUMMARY_CSV), &summary_csv(&summary)?)?;
    charts::write_charts(dir, &summary, rows)?;
    Ok(summary)
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
    let mut kinds = OUTCOME_KINDS.to_vec();
    kinds.push((GameResult::Draw, Termination::MoveLimit));
    kinds
}

/// The columns of `summary.csv`.
pub fn summary_columns() -> Vec<String> {
    let mut columns: Vec<String> = [
        "variant",
        "pairing",
        "games",
        "white_wins",
        "black_wins",
        "draws",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    columns.extend(
        outcome_kinds()
            .into_iter()
            .map(|(r, t)| outcome_column(r, t)),
    );
    columns.extend(
        [
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
            "elo",
            "elo_low",
            "elo_high",
            "elo_model",
            "z",
            "p_value",
            "significant",
            "significant_holm",
            "draw_rate",
            "draw_rate_low",
            "draw_rate_high",
            "move_limit_rate",
            "length_mean",
            "length_min",
            "length_q1",
            "length_median",
            "length_q3",
            "length_max",
            "captures_per_game",
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
            "duration",
            "branching_factor",
            "decision_moves",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    columns
}

fn num(value: Option<f64>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

fn group_record(g: &GroupSummary) -> Vec<String> {
    let mut r = vec![
        g.variant.clone(),
        g.pairing.clone(),
        g.games.to_string(),
        g.white_wins.to_string(),
        g.black_wins.to_string(),
        g.draws.to_string(),
    ];
    r.extend(
        outcome_kinds()
            .into_iter()
            .map(|(res, t)| g.terminations(res, t).to_string()),
    );
    let e = &g.first_player_elo;
    let a = g.first_agent.as_ref();
    r.extend([
        num(g.white_score),
        num(g.white_score_wilson.map(|i| i.low)),
        num(g.white_score_wilson.map(|i| i.high)),
        g.pairs.complete.to_string(),
    ]);
    r.extend(g.pairs.pentanomial.iter().map(u64::to_string));
    r.extend([
        num(g.pairs.white_score),
        num(g.pairs.interval.map(|i| i.low)),
        num(g.pairs.interval.map(|i| i.high)),
        num(e.elo),
        num(e.low),
        num(e.high),
        e.model.clone(),
        num(e.z),
        num(e.p_value),
        e.significant.to_string(),
        e.significant_holm.to_string(),
        num(g.draw_rate),
        num(g.draw_rate_wilson.map(|i| i.low)),
        num(g.draw_rate_wilson.map(|i| i.high)),
        num(g.move_limit_rate),
        num(g.length.mean),
        num(g.length.min),
        num(g.length.q1),
        num(g.length.median),
        num(g.length.q3),
        num(g.length.max),
        num(g.captures_per_game),
        num(g.relocations_per_game),
        a.map_or(String::new(), |a| a.agent.clone()),
        num(a.map(|a| a.score)),
        num(a.and_then(|a| a.wilson).map(|i| i.low)),
        num(a.and_then(|a| a.wilson).map(|i| i.high)),
        num(a.and_then(|a| a.elo)),
        num(g.ludii.advantage_p1),
        num(g.ludii.balance),
        num(g.ludii.completion),
        num(g.ludii.drawishness),
        num(g.ludii.duration),
        num(g.ludii.branching_factor),
        num(g.ludii.decision_moves),
    ]);
    r
}

/// The summary as CSV: a header and one row per group.
pub fn summary_csv(summary: &Summary) -> Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::output(Path::new(SUMMARY_CSV), e.to_string());
    writer.write_record(summary_columns()).map_err(fail)?;
    for g in &summary.groups {
        writer.write_record(group_record(g)).map_err(fail)?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::output(Path::new(SUMMARY_CSV), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_row_has_every_column() {
        let columns = summary_columns();
        assert_eq!(columns[6], "white_formation");
        assert_eq!(columns[14], "draw_move_limit");
        let g = GroupSummary::new("standard", "random", None, &[]);
        assert_eq!(group_record(&g).len(), columns.len());
    }
}
