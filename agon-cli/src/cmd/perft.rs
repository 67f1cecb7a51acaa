//! `agon perft`: count the leaves of the game tree, the engine authors' correctness check.

use crate::cmd::playout::cpu_time;
use crate::error::{CliError, CliResult};
use crate::output::{tool, write_json_line, Out};
use crate::select::PositionArgs;
use agon_core::{divide, perft, perft_full};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// Examples shown after `agon perft --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon perft 3                              leaves 3 plies below the standard start
  agon perft --divide 2                     the count below each first action
  agon perft --variant ludii 3              under another rule set
  agon perft --moves \"h9-g9 b7-c7\" 2        after some actions
  agon perft --json 6 | jq .nodes_per_cpu_second
Perft runs on one thread. The last line of the plain output is the bare node count, so `agon perft 3 | tail -1`
is a number.";

/// Options of `agon perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// How many plies deep to count.
    #[arg(value_name = "DEPTH")]
    pub depth: u32,

    /// Also print the count below each legal action (`action: count`).
    #[arg(long)]
    pub divide: bool,

    /// Play every leaf action instead of counting the last ply in bulk (slower; a
    /// cross-check of the fast count).
    #[arg(long)]
    pub full: bool,

    /// One JSON object with nodes, wall and CPU seconds, and nodes per second of each.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Serialize)]
struct DivideEntry {
    action: String,
    nodes: u64,
}

#[derive(Serialize)]
struct PerftJson {
    variant: String,
    depth: u32,
    nodes: u64,
    /// Wall-clock seconds.
    seconds: f64,
    /// Nodes per wall-clock second.
    nodes_per_second: f64,
    /// CPU seconds of the process (user and system; `null` where unknown).
    cpu_seconds: Option<f64>,
    /// Nodes per CPU second (`null` where unknown or too short to measure).
    nodes_per_cpu_second: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideEntry>>,
}

/// Runs `agon perft`.
pub fn run(args: &PerftArgs) -> CliResult {
    if args.depth > 64 {
        return Err(CliError::with_hint(
            format!("depth {} is far beyond what can be counted", args.depth),
            "depths up to 5 or 6 finish in seconds to minutes",
        ));
    }
    let mut game = args.position.select()?;
    let count = |game: &mut agon_core::Game, depth| {
        if args.full {
            perft_full(game, depth)
        } else {
            perft(game, depth)
        }
    };
    let cpu_before = cpu_time();
    let start = Instant::now();
    let (nodes, parts) = if args.divide && args.depth > 0 {
        let parts: Vec<(agon_core::Action, u64)> = if args.full {
            // `divide` counts in bulk; with --full recount each branch by playing it.
            divide(&mut game, 1)
                .into_iter()
                .map(|(action, _)| {
                    game.play_unchecked(action);
                    let n = count(&mut game, args.depth - 1);
                    game.undo();
                    (action, n)
                })
                .collect()
        } else {
            divide(&mut game, args.depth)
        };
        (parts.iter().map(|p| p.1).sum(), Some(parts))
    } else {
        (count(&mut game, args.depth), None)
    };
    let seconds = start.elapsed().as_secs_f64();
    let cpu_seconds = cpu_before
        .zip(cpu_time())
        .map(|(before, after)| after.saturating_sub(before).as_secs_f64());
    let mut out = Out::new();
    if args.json {
        let json = PerftJson {
            variant: game.rules().to_string(),
            depth: args.depth,
            nodes,
            seconds,
            nodes_per_second: if seconds > 0.0 {
                nodes as f64 / seconds
            } else {
                0.0
            },
            cpu_seconds,
            nodes_per_cpu_second: cpu_seconds.filter(|&s| s > 0.0).map(|s| nodes as f64 / s),
            divide: parts.map(|parts| {
                parts
                    .into_iter()
                    .map(|(action, nodes)| DivideEntry {
                        action: action.to_string(),
                        nodes,
                    })
                    .collect()
            }),
        };
        write_json_line(&mut out, &json, &tool())?;
    } else {
        if let Some(parts) = parts {
            for (action, n) in parts {
                writeln!(out, "{action}: {n}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "{nodes}")?;
    }
    out.flush()?;
    Ok(0)
}
