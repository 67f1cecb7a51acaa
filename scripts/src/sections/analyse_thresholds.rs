//! docs/cli.md, "Classes" under `agon analyse`: how much score the plies of a weak and a
//! strong agent lose, as `agon analyse` measures it, to show where its thresholds fall.
//! Plays alpha-beta at depth 1 against depth 4, analyses every ply with
//! `agon analyse --json`, and tabulates the loss per ply of each agent.

use super::{command_listing, Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::first_agent;
use crate::markdown::{count, percent, Table, NONE};
use crate::Result;
use agon_selfplay::summary::GroupSummary;
use std::collections::BTreeMap;
use std::process::Command;

/// The section.
pub const SECTION: Section = Section {
    name: "analyse-thresholds",
    doc: "docs/cli.md",
    blocks: &["analyse-thresholds"],
    about: "loss per ply of a weak and a strong agent under `agon analyse`",
    generate,
};

const CONFIG: &str = "scripts/docs/analyse-thresholds.toml";

/// The depth of the analysis (`agon analyse`'s default), and the one of `--quick`.
const DEPTH: u32 = 6;
const QUICK_DEPTH: u32 = 2;

/// The thresholds of `agon analyse`'s classes (inaccuracy, mistake, blunder), in pawns
/// (hundreds of evaluation units).
const THRESHOLDS: [f64; 3] = [0.5, 1.0, 2.0];

/// The value below which a share `p` of the sorted `losses` lie (the nearest rank below).
fn quantile(losses: &[f64], p: f64) -> f64 {
    losses[((losses.len() - 1) as f64 * p).floor() as usize]
}

/// Each agent's losses per ply with a choice (a forced ply loses nothing and is left
/// out), in pawns, from the JSON lines of `agon analyse --json`.
fn losses_by_agent(jsonl: &str) -> Result<BTreeMap<String, Vec<f64>>> {
    let mut by_agent: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (n, line) in jsonl.lines().enumerate() {
        let game: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("agon analyse --json, line {}: {e}", n + 1))?;
        let player = |key: &str| -> Result<String> {
            Ok(game[key]
                .as_str()
                .ok_or_else(|| format!("agon analyse --json, line {}: no {key}", n + 1))?
                .to_string())
        };
        let (white, black) = (player("white_player")?, player("black_player")?);
        let plies = game["plies"]
            .as_array()
            .ok_or_else(|| format!("agon analyse --json, line {}: no plies", n + 1))?;
        for ply in plies {
            if ply["best"].as_array().is_none_or(|b| b.is_empty()) {
                continue;
            }
            let agent = match ply["decider"].as_str() {
                Some("white") => &white,
                Some("black") => &black,
                _ => {
                    return Err(format!(
                        "agon analyse --json, line {}: a ply without decider",
                        n + 1
                    )
                    .into())
                }
            };
            let loss = ply["loss"].as_f64().ok_or_else(|| {
                format!("agon analyse --json, line {}: a ply without loss", n + 1)
            })?;
            by_agent
                .entry(agent.clone())
                .or_default()
                .push(loss / 100.0);
        }
    }
    for losses in by_agent.values_mut() {
        losses.sort_by(f64::total_cmp);
    }
    Ok(by_agent)
}

/// The table: one row per agent, the quantiles of its loss per ply and the share of its
/// plies at or above each threshold.
fn loss_table(by_agent: &BTreeMap<String, Vec<f64>>) -> String {
    let mut t = Table::new(&[
        "agent",
        ">plies",
        ">mean",
        ">median",
        ">75%",
        ">90%",
        ">95%",
        ">99%",
        ">≥ 0.50",
        ">≥ 1.00",
        ">≥ 2.00",
    ]);
    for (agent, losses) in by_agent {
        if losses.is_empty() {
            continue;
        }
        let n = losses.len();
        let mut row = vec![
            format!("`{agent}`"),
            count(n as u64),
            format!("{:.2}", losses.iter().sum::<f64>() / n as f64),
        ];
        for p in [0.5, 0.75, 0.9, 0.95, 0.99] {
            row.push(format!("{:.2}", quantile(losses, p)));
        }
        for threshold in THRESHOLDS {
            let at_least = losses.iter().filter(|&&l| l >= threshold).count();
            row.push(percent(at_least as f64 / n as f64));
        }
        t.row(row);
    }
    t.render()
}

fn games_line(group: &GroupSummary, max_plies: u32) -> String {
    // The first agent (White in the config) is the weak one: the strong agent's score is
    // the rest.
    let strong = first_agent(group).map_or(NONE.into(), |(e, _)| percent(1.0 - e.value));
    format!(
        "Games: {} ({} won by White, {} by Black, {} drawn, {} stopped at {} plies); the \
         depth-4 agent scored {strong}.\n",
        count(group.games),
        count(group.white_wins),
        count(group.black_wins),
        count(group.draws),
        count(group.undecided),
        count(u64::from(max_plies)),
    )
}

fn generate(ctx: &Context) -> Result<Generated> {
    let played = play(ctx, CONFIG, "analyse-thresholds")?;
    let group = played
        .summary
        .groups
        .first()
        .ok_or("the analyse-thresholds experiment has no group")?;
    let depth = if ctx.quick { QUICK_DEPTH } else { DEPTH };
    let agent = format!("alphabeta:depth={depth}");
    let output = Command::new(&ctx.agon)
        .args(["analyse", "--agent", &agent, "--json", "games.agn"])
        .arg("--threads")
        .arg(ctx.threads.to_string())
        .current_dir(&played.dir)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", ctx.agon.display()))?;
    if !output.status.success() {
        return Err(format!(
            "agon analyse failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )
        .into());
    }
    let jsonl = String::from_utf8(output.stdout).map_err(|e| format!("agon analyse: {e}"))?;
    let by_agent = losses_by_agent(&jsonl)?;
    let analyse = format!("agon analyse --agent {agent} --json games.agn");
    let body = format!(
        "{}\nLoss per ply with a choice, in pawns (hundreds of evaluation units), by the agent \
         that chose it:\n\n{}\n{}",
        command_listing(&format!("{}\n{analyse}", played.command)),
        loss_table(&by_agent),
        games_line(group, played.summary.experiment.max_plies),
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{}`, then `{analyse}` in its folder", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_grouped_by_the_agent_that_decided_and_forced_plies_are_left_out() {
        let jsonl = concat!(
            r#"{"white_player":"weak","black_player":"strong","plies":["#,
            r#"{"decider":"white","loss":150,"best":[{"score":0}]},"#,
            r#"{"decider":"black","loss":0,"best":[{"score":0}]},"#,
            r#"{"decider":"white","loss":900,"best":[]},"#,
            r#"{"decider":"white","loss":50,"best":[{"score":0}]}]}"#,
            "\n",
            r#"{"white_player":"strong","black_player":"weak","plies":["#,
            r#"{"decider":"black","loss":250,"best":[{"score":0}]}]}"#,
            "\n"
        );
        let by_agent = losses_by_agent(jsonl).unwrap();
        assert_eq!(by_agent["weak"], vec![0.5, 1.5, 2.5]);
        assert_eq!(by_agent["strong"], vec![0.0]);
        let table = loss_table(&by_agent);
        // weak: mean 1.50, median 1.50, 90% at rank floor(2 * 0.9) = 1, every ply >= 0.50,
        // two of three >= 1.00, one >= 2.00.
        assert!(
            table.contains(
                "| `weak` | 3 | 1.50 | 1.50 | 1.50 | 1.50 | 1.50 | 1.50 | 100.0% | 66.7% | 33.3% |"
            ),
            "{table}"
        );
        assert!(table.contains("| `strong` | 1 | 0.00 |"), "{table}");
    }

    #[test]
    fn a_line_that_is_not_json_is_an_error_naming_it() {
        let error = losses_by_agent("{}\nnot json\n").unwrap_err().to_string();
        assert!(error.contains("line 1"), "{error}");
    }
}
