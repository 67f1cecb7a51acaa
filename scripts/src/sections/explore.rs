//! docs/explore.md: draw adjudication on `capture=ring` (the CPU it saves, and whether the
//! verdicts change), and the real result of the variant explorer over 36 rule sets.

use super::tables::share;
use super::{Generated, Section};
use crate::context::Context;
use crate::experiments::{ensure_empty, play_with, reusable, timed, Overrides};
use crate::figures::{
    adjudicated_rate, decisive_rate, first_move_p, first_move_significant, mean_length,
    undecided_rate, white_score,
};
use crate::markdown::{count, number, p_value, percent, Table, NONE};
use crate::Result;
use agon_selfplay::Manifest;
use std::path::Path;
use std::process::Command;

/// The adjudication experiment.
pub const ADJUDICATION_RING: Section = Section {
    name: "adjudication-ring",
    doc: "docs/explore.md",
    blocks: &["adjudication-ring"],
    about: "draw adjudication on capture=ring and standard: CPU saved, verdicts kept",
    generate: adjudication_ring,
};

/// The explorer's real result.
pub const EXPLORE_RESULT: Section = Section {
    name: "explore-result",
    doc: "docs/explore.md",
    blocks: &["explore-result"],
    about: "36 rule sets raced to verdicts by the variant explorer, with skill ladders",
    generate: explore_result,
};

/// The adjudication compared (the same as `scripts/docs/explore.toml`'s).
const DRAW_ADJUDICATION: &str = "movenumber=150,movecount=50,score=100";

fn seconds(cpu: Option<f64>) -> String {
    cpu.map_or(NONE.to_string(), |s| number(s, 1))
}

fn adjudication_ring(ctx: &Context) -> Result<Generated> {
    const CONFIG: &str = "scripts/docs/adjudication-ring.toml";
    let mut table = Table::new(&[
        "rule set",
        "draw adjudication",
        ">games",
        ">CPU s",
        ">mean length",
        "White score [95%]",
        "first-move advantage",
        "decisive [95%]",
        ">undecided",
        ">adjudicated",
    ]);
    let mut sentences = Vec::new();
    let mut total = Some(0.0);
    let mut played_at = Vec::new();
    for variant in ["capture=ring", "standard"] {
        let mut runs = Vec::new();
        for adjudication in [None, Some(DRAW_ADJUDICATION)] {
            let overrides = Overrides {
                variant: Some(variant.to_string()),
                draw_adjudication: adjudication.map(str::to_string),
                afresh: true,
            };
            let name = format!(
                "adjudication-{}-{}",
                variant.replace('=', "-"),
                if adjudication.is_some() { "on" } else { "off" }
            );
            let played = play_with(ctx, CONFIG, &name, &overrides)?;
            let g = played
                .summary
                .groups
                .first()
                .ok_or_else(|| format!("{name}: no games"))?
                .clone();
            let cpu = played.cpu_seconds;
            total = total.zip(cpu).map(|(t, c)| t + c);
            let advantage = format!(
                "{} (p {})",
                if first_move_significant(&g) {
                    "significant"
                } else {
                    "not significant"
                },
                first_move_p(&g).map_or(NONE.to_string(), p_value)
            );
            table.row(vec![
                variant.to_string(),
                adjudication.map_or("none".to_string(), |a| format!("`{a}`")),
                count(g.games),
                seconds(cpu),
                mean_length(&g).map_or(NONE.to_string(), |x| number(x, 0)),
                share(white_score(&g)),
                advantage,
                share(decisive_rate(&g)),
                undecided_rate(&g).map_or(NONE.to_string(), |e| percent(e.value)),
                adjudicated_rate(&g).map_or(NONE.to_string(), |e| percent(e.value)),
            ]);
            played_at.push(played.played_at().to_string());
            runs.push((g, cpu));
        }
        let [(off, off_cpu), (on, on_cpu)] = &runs[..] else {
            unreachable!("two runs per rule set")
        };
        let cpu = match (off_cpu, on_cpu) {
            (Some(off), Some(on)) if *off > 0.0 => {
                let saved = 1.0 - on / off;
                format!(
                    "adjudication took {:.0}% {} CPU ({} s against {} s)",
                    100.0 * saved.abs(),
                    if saved >= 0.0 { "less" } else { "more" },
                    number(*on, 1),
                    number(*off, 1)
                )
            }
            _ => "the CPU time was not measured".to_string(),
        };
        let judged = if first_move_significant(off) == first_move_significant(on) {
            "judged the same"
        } else {
            "**judged differently**"
        };
        sentences.push(format!(
            "On {variant}, {cpu} and the first-move advantage is {judged}. Decisive games: \
             {} with it, {} without.",
            count(on.white_wins + on.black_wins),
            count(off.white_wins + off.black_wins),
        ));
    }
    let body = format!(
        "{}\n{}\n\nCPU: user + system time of each `agon-selfplay` process, {} s in all, on \
         {} core(s).\n",
        table.render(),
        sentences.join("\n\n"),
        seconds(total),
        cores()
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!(
            "`agon-selfplay run --config {CONFIG} --variant V [--draw-adjudication \
             {DRAW_ADJUDICATION}] --out results/docs/adjudication-...`, one run per row, \
             played afresh"
        ),
        played_at,
    })
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The explorer's options in `--quick` mode: a budget of a few games per rule set, short
/// games, two-game ladder steps.
const QUICK_EXPLORE: &[&str] = &[
    "--budget",
    "144",
    "--first-pairs",
    "1",
    "--max-plies",
    "20",
    "--ladder-games",
    "2",
];

/// The file, in an exploration's folder, where this program adds up the CPU seconds of the
/// `agon-selfplay explore` calls that played it (a resumed run is played by several).
const CPU_FILE: &str = "cpu-seconds.txt";

fn explore_result(ctx: &Context) -> Result<Generated> {
    const CONFIG: &str = "scripts/docs/explore.toml";
    const NAME: &str = "explore";
    let dir = ctx.work.join(NAME);
    let quick: &[&str] = if ctx.quick { QUICK_EXPLORE } else { &[] };
    let explore = |out: &Path| {
        let mut command = Command::new(&ctx.selfplay);
        command
            .arg("explore")
            .arg("--config")
            .arg(ctx.root.join(CONFIG))
            .args(quick)
            .arg("--threads")
            .arg(ctx.threads.to_string())
            .arg("--out")
            .arg(out);
        command
    };
    // The spec this build would write, to tell whether the folder holds this exploration.
    let probe = ctx.work.join(format!("{NAME}.spec"));
    let _ = std::fs::remove_dir_all(&probe);
    run(explore(&probe).arg("--prepare"), CONFIG)?;
    let spec = |dir: &Path| std::fs::read_to_string(dir.join("explore-spec.json")).ok();
    let expected = spec(&probe);
    std::fs::remove_dir_all(&probe)
        .map_err(|e| format!("cannot remove {}: {e}", probe.display()))?;
    let played_by = Manifest::read(&dir.join("games")).ok();
    let resume = match (&played_by, spec(&dir)) {
        (Some(stored), Some(found)) if Some(&found) == expected.as_ref() => reusable(ctx, stored),
        (_, Some(_)) => false,
        (_, None) => {
            ensure_empty(&dir, "an exploration")?;
            false
        }
    };
    if !resume && dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    }
    eprintln!(
        "xtask docs: {} {NAME} ({CONFIG})",
        if resume { "continuing" } else { "playing" }
    );
    let mut command = explore(&dir);
    if resume {
        command.arg("--resume");
    }
    let (table, cpu) = run(&mut command, CONFIG)?;
    let earlier: Option<f64> = if resume {
        std::fs::read_to_string(dir.join(CPU_FILE))
            .ok()
            .and_then(|s| s.trim().parse().ok())
    } else {
        Some(0.0)
    };
    let cpu = earlier.zip(cpu).map(|(a, b)| a + b);
    if let Some(cpu) = cpu {
        std::fs::write(dir.join(CPU_FILE), format!("{cpu:.2}\n"))
            .map_err(|e| format!("cannot write {}: {e}", dir.display()))?;
    }
    let manifest = Manifest::read(&dir.join("games")).map_err(|e| e.to_string())?;
    let out = Path::new("results/docs").join(NAME);
    let command = format!(
        "agon-selfplay explore --config {CONFIG} --out {}",
        out.display()
    );
    let cpu = match cpu {
        Some(s) => format!(
            "The race and the ladders took {} CPU seconds (user + system of `agon-selfplay`, \
             over every call that played them) on {} core(s).",
            count(s.round() as u64),
            cores()
        ),
        None => "The CPU time of this exploration was not recorded.".to_string(),
    };
    let body = format!(
        "```text\n$ {command}\n{}\n```\n\nThe page (`index.html`) and \
         `explore.json`/`explore.csv` are in `{}`. {cpu}\n",
        table.trim_end(),
        out.display()
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!("`{command}`"),
        played_at: vec![manifest.tool.commit.clone()],
    })
}

/// Runs an `agon-selfplay explore` command; returns its standard output and the CPU
/// seconds it took.
fn run(command: &mut Command, config: &str) -> Result<(String, Option<f64>)> {
    let (output, cpu) = timed(command.stderr(std::process::Stdio::inherit()), |c| {
        c.output()
    })
    .map_err(|e| format!("cannot run agon-selfplay explore: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "agon-selfplay explore failed on {config} ({})",
            output.status
        )
        .into());
    }
    Ok((String::from_utf8_lossy(&output.stdout).into_owned(), cpu))
}
