//! `agon playout`: uniformly random games to the end, for the statistics of a rule set
//! under random play and as the engine's throughput benchmark.

use crate::error::{CliError, CliResult};
use crate::output::{stderr_is_terminal, Out};
use crate::select::parse_rules;
use agon_core::{random_games, PlayoutTally, Position, Rules};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::time::{Duration, Instant};

/// Examples shown after `agon playout --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon playout                              1,000 random games under the standard rules
  agon playout --variant ludii --games 100000 --threads 1
  agon playout --games 10000 --seed 7 --json | jq .actions_per_cpu_second
Game i of a run plays the random stream (seed, i): the same seed gives the same games and
the same numbers whatever --threads is.";

/// Games per work unit: small enough to spread over threads, large enough that the
/// bookkeeping is nothing beside the games.
const BATCH: u64 = 256;

/// Options of `agon playout`.
#[derive(Args, Debug)]
pub struct PlayoutArgs {
    /// Rule set: `standard` (default), `ludii`, or switches such as
    /// `intervention=suicide,capture=ring`.
    #[arg(long, value_name = "RULES", default_value = "standard")]
    pub variant: String,

    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,

    /// Seed of the random streams (game i plays stream (seed, i)).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Worker threads (default: one per CPU).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,

    /// Stop a game after this many plies and count it a `move-limit` draw (a guard for
    /// rule sets without a repetition rule).
    #[arg(long, value_name = "PLIES", default_value_t = 20_000)]
    pub max_plies: usize,

    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Never draw a progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Serialize)]
struct Ending {
    termination: String,
    result: String,
    games: u64,
    share: f64,
}

#[derive(Serialize)]
struct PlayoutJson {
    variant: String,
    seed: u64,
    threads: usize,
    max_plies: usize,
    games: u64,
    actions: u64,
    mean_length: f64,
    shortest: u64,
    longest: u64,
    cpu_seconds: Option<f64>,
    wall_seconds: f64,
    actions_per_cpu_second: Option<f64>,
    actions_per_second: f64,
    fingerprint: String,
    endings: Vec<Ending>,
}

/// Runs `agon playout`.
pub fn run(args: &PlayoutArgs) -> CliResult {
    let rules = parse_rules(&args.variant)?;
    if args.max_plies == 0 {
        return Err(CliError::new("--max-plies must be at least 1"));
    }
    let threads = crate::games::worker_threads(args.threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::new(format!("cannot start {threads} worker threads: {e}")))?;
    let progress = (!args.no_progress && stderr_is_terminal()).then(|| progress_bar(args.games));
    let cpu_before = cpu_time();
    let wall = Instant::now();
    let tally = pool.install(|| play(rules, args, progress.as_ref()));
    let wall_seconds = wall.elapsed().as_secs_f64();
    let cpu_seconds = cpu_before
        .zip(cpu_time())
        .map(|(before, after)| after.saturating_sub(before).as_secs_f64());
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let per = |seconds: f64| {
        if seconds > 0.0 {
            tally.actions as f64 / seconds
        } else {
            0.0
        }
    };
    let report = PlayoutJson {
        variant: rules.to_string(),
        seed: args.seed,
        threads,
        max_plies: args.max_plies,
        games: tally.games,
        actions: tally.actions,
        mean_length: tally.mean_length(),
        shortest: if tally.games == 0 { 0 } else { tally.shortest },
        longest: tally.longest,
        cpu_seconds,
        wall_seconds,
        actions_per_cpu_second: cpu_seconds.filter(|&s| s > 0.0).map(per),
        actions_per_second: per(wall_seconds),
        fingerprint: format!("{:016x}", tally.fingerprint),
        endings: tally
            .ending_counts()
            .map(|(termination, result, games)| Ending {
                termination: termination.to_string(),
                result: result.to_string(),
                games,
                share: games as f64 / tally.games as f64,
            })
            .collect(),
    };
    let mut out = Out::new();
    if args.json {
        serde_json::to_writer(&mut out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        write_table(&mut out, &report)?;
    }
    out.flush()?;
    Ok(0)
}

/// Plays the run in batches of [`BATCH`] games on the current pool and merges the tallies
/// (sums, minima and maxima: the order of merging does not matter).
fn play(rules: Rules, args: &PlayoutArgs, progress: Option<&ProgressBar>) -> PlayoutTally {
    // Build the tables once before the workers start (and check the start has an action).
    let _ = Position::start(rules);
    let batches = args.games.div_ceil(BATCH);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            let range = b * BATCH..((b + 1) * BATCH).min(args.games);
            let count = range.end - range.start;
            let tally = random_games(rules, args.seed, range, args.max_plies);
            if let Some(bar) = progress {
                bar.inc(count);
            }
            tally
        })
        .reduce(PlayoutTally::default, |mut a, b| {
            a.merge(&b);
            a
        })
}

fn write_table(out: &mut Out, r: &PlayoutJson) -> std::io::Result<()> {
    let millions = |rate: f64| format!("{:.2} M", rate / 1e6);
    writeln!(out, "variant       {}", r.variant)?;
    writeln!(out, "seed          {}", r.seed)?;
    writeln!(out, "threads       {}", r.threads)?;
    writeln!(out, "games         {}", r.games)?;
    writeln!(out, "actions       {}", r.actions)?;
    writeln!(
        out,
        "mean length   {:.1} plies (shortest {}, longest {})",
        r.mean_length, r.shortest, r.longest
    )?;
    match r.cpu_seconds {
        Some(cpu) => writeln!(out, "cpu seconds   {cpu:.2}")?,
        None => writeln!(out, "cpu seconds   unknown")?,
    }
    writeln!(out, "wall seconds  {:.2}", r.wall_seconds)?;
    match r.actions_per_cpu_second {
        Some(rate) => writeln!(
            out,
            "actions/s     {} per CPU second, {} per wall second",
            millions(rate),
            millions(r.actions_per_second)
        )?,
        None => writeln!(
            out,
            "actions/s     {} per wall second",
            millions(r.actions_per_second)
        )?,
    }
    writeln!(out, "fingerprint   {}", r.fingerprint)?;
    writeln!(out, "endings")?;
    for e in &r.endings {
        writeln!(
            out,
            "  {:<12} {:<8} {:>10}  {:5.1}%",
            e.termination,
            e.result,
            e.games,
            100.0 * e.share
        )?;
    }
    Ok(())
}

/// CPU time used by this process so far (user and system, all threads), from /proc on
/// Linux; `None` elsewhere.
pub(crate) fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel reports clock ticks of 1/100 s on every common configuration.
    Some(Duration::from_millis(ticks * 10))
}

fn progress_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
