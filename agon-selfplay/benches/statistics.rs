//! The cost of the statistics at scale: builds the compact per-pair samples of a synthetic
//! experiment (1 000 000 games by default, `AGON_BENCH_GAMES` to change; one variant, or
//! `AGON_BENCH_VARIANTS` of them sharing the games) and computes its whole summary
//! (exact test, bootstrap, contrasts). Prints the CPU seconds of each step (from /proc on
//! Linux), the bytes the samples hold per game, and the process's peak resident memory.
//! Run with `cargo bench -p agon-selfplay --bench statistics`.

use agon_core::{GameResult, Rng, Termination};
use agon_selfplay::experiment::{Experiment, Kind, Pairing};
use agon_selfplay::sample::{PairRecord, Samples};
use agon_selfplay::summary::{Analysis, Summary};
use agon_selfplay::GameRow;

fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn peak_resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let games = env("AGON_BENCH_GAMES", 1_000_000);
    let variants = env("AGON_BENCH_VARIANTS", 1).max(1) as usize;
    let names = [
        "standard",
        "capture=ring",
        "repetition=off",
        "touch-move=on",
    ];
    let experiment = Experiment {
        kind: Kind::Run,
        variants: (0..variants)
            .map(|v| names[v % names.len()].to_string())
            .collect(),
        pairings: vec![Pairing {
            first: "random".into(),
            second: "random".into(),
        }],
        games: games / variants as u64,
        opening_plies: 4,
        max_plies: 1000,
        seed: 1,
        sprt: None,
        adjudication: Default::default(),
        openings: None,
    };
    let mut rng = Rng::new(7);
    let cpu = cpu_seconds();
    let mut samples = Samples::new(&experiment);
    // One reusable row: the statistics keep only its compact part.
    let mut row = GameRow {
        index: 0,
        variant: String::new(),
        white: String::new(),
        black: String::new(),
        pair: 0,
        opening: String::new(),
        result: GameResult::Draw,
        termination: Termination::Repetition,
        plies: 0,
        captures: 0,
        relocations: 0,
        passes: 0,
        decision_plies: 0,
        legal_actions: 0,
        seed: 1,
        time_limited: false,
        duration_ms: 0.0,
    };
    for index in 0..experiment.total_games() {
        let (result, termination) = match rng.below(4) {
            0 => (GameResult::WhiteWins, Termination::Formation),
            1 => (GameResult::BlackWins, Termination::Formation),
            2 => (GameResult::Draw, Termination::Repetition),
            _ => (GameResult::Draw, Termination::MoveLimit),
        };
        row.index = index;
        row.result = result;
        row.termination = termination;
        row.plies = 100 + rng.below(900) as u32;
        row.captures = rng.below(60) as u32;
        row.decision_plies = row.plies / 2;
        row.legal_actions = u64::from(row.plies) * 16;
        samples.add(&row);
    }
    let built = cpu_seconds();
    let summary = Summary::of_samples(
        &experiment,
        &samples,
        experiment.total_games(),
        experiment.total_games(),
        &Analysis::default(),
    )
    .expect("summary");
    let summarised = cpu_seconds();
    let pairs: usize = samples.blocks.iter().map(Vec::len).sum();
    println!(
        "statistics of {} games ({} variant(s)): samples hold {} bytes a game ({} pairs of {} \
         bytes); building them {:.2} CPU s, the summary {:.2} CPU s; peak resident memory \
         {:.0} MB; White's score of the first group {:.4}",
        experiment.total_games(),
        variants,
        std::mem::size_of::<PairRecord>() / 2,
        pairs,
        std::mem::size_of::<PairRecord>(),
        cpu.zip(built).map_or(f64::NAN, |(a, b)| b - a),
        built.zip(summarised).map_or(f64::NAN, |(a, b)| b - a),
        peak_resident_mb().unwrap_or(f64::NAN),
        summary.groups[0].pairs.white_score.unwrap_or(f64::NAN),
    );
}
