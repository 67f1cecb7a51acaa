//! Self-play throughput: games per second with 1 and 2 worker threads, for random agents
//! (the engine-bound case, including writing every game to disk) and a small alphabeta
//! configuration (the search-bound case). Run with
//! `cargo bench -p agon-selfplay --bench throughput`; set `AGON_BENCH_SCALE=4` for longer
//! runs. Each measurement is repeated (`AGON_BENCH_REPEAT`, default 3, alternating 1 and 2
//! threads) and the best is kept: interference from other jobs only ever slows a run down,
//! so the best of several is the least disturbed. Prints one line per case: games/s by the wall clock with 1 and 2 worker
//! threads and the speed-up, and the process CPU time per game (from /proc on Linux), which
//! shows whether a second thread adds work; on a machine shared with other jobs the wall
//! clock understates the speed-up and the CPU time is the fairer measure.

use agon_selfplay::config::Settings;
use agon_selfplay::session::{run, RunOptions};
use agon_selfplay::Manifest;
use std::time::Instant;

struct Case {
    name: &'static str,
    /// Write the output files (else keep the games in memory).
    files: bool,
    variant: &'static str,
    agent: &'static str,
    games: u64,
    max_plies: u32,
}

/// CPU seconds (user + system) this process has used, if /proc tells.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Games per second, mean plies, CPU milliseconds per game.
fn games_per_second(case: &Case, threads: usize, scale: u64) -> (f64, f64, Option<f64>) {
    let settings = Settings {
        variants: Some(vec![case.variant.into()]),
        agent: Some(case.agent.into()),
        games: Some(case.games * scale),
        max_plies: Some(case.max_plies),
        opening_plies: Some(if case.variant == "ludii" { 0 } else { 4 }),
        ..Settings::default()
    };
    let manifest = Manifest::new(settings.run_experiment().expect("valid case"), None);
    let dir = std::env::temp_dir().join(format!("agon-selfplay-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = RunOptions {
        out: case.files.then(|| dir.clone()),
        resume: false,
        threads,
        progress: false,
        only: None,
    };
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let outcome = run(&manifest, &options).expect("bench run");
    let seconds = started.elapsed().as_secs_f64();
    let cpu = cpu_before.zip(cpu_seconds()).map(|(a, b)| b - a);
    let rows = match &options.out {
        Some(dir) => {
            agon_selfplay::store::read_games(dir)
                .expect("bench games")
                .1
        }
        None => outcome.rows,
    };
    let plies: u64 = rows.iter().map(|r| u64::from(r.plies)).sum();
    let _ = std::fs::remove_dir_all(&dir);
    let games = outcome.games as f64;
    (
        games / seconds,
        plies as f64 / games,
        cpu.map(|c| c * 1000.0 / games),
    )
}

fn main() {
    let scale: u64 = std::env::var("AGON_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let cases = [
        Case {
            name: "random, standard, ply limit 1000, no files",
            files: false,
            variant: "standard",
            agent: "random",
            games: 4000,
            max_plies: 1000,
        },
        Case {
            name: "random, standard, ply limit 1000",
            files: true,
            variant: "standard",
            agent: "random",
            games: 4000,
            max_plies: 1000,
        },
        Case {
            name: "random, ludii, ply limit 2500 (Ludii: 34 games/s)",
            files: true,
            variant: "ludii",
            agent: "random",
            games: 2000,
            max_plies: 2500,
        },
        Case {
            name: "alphabeta:depth=2,noise=10,hash=1, standard",
            files: true,
            variant: "standard",
            agent: "alphabeta:depth=2,noise=10,hash=1",
            games: 40,
            max_plies: 1000,
        },
        Case {
            name: "alphabeta:depth=2,noise=10 (16 MB table), standard",
            files: true,
            variant: "standard",
            agent: "alphabeta:depth=2,noise=10",
            games: 40,
            max_plies: 1000,
        },
    ];
    let repeat: usize = std::env::var("AGON_BENCH_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let best =
        |a: (f64, f64, Option<f64>), b: (f64, f64, Option<f64>)| if b.0 > a.0 { b } else { a };
    for case in &cases {
        let _warm_up = games_per_second(case, 2, 1);
        let mut one_best = (0.0, 0.0, None);
        let mut two_best = (0.0, 0.0, None);
        for _ in 0..repeat {
            one_best = best(one_best, games_per_second(case, 1, scale));
            two_best = best(two_best, games_per_second(case, 2, scale));
        }
        let (one, plies, cpu_one) = one_best;
        let (two, _, cpu_two) = two_best;
        let cpu = |c: Option<f64>| c.map_or("-".to_string(), |c| format!("{c:.3}"));
        println!(
            "{:<52} 1 thread {:>8.1} games/s, {} CPU ms/game | 2 threads {:>8.1} games/s, \
             {} CPU ms/game | speed-up {:.2}x | mean {:.0} plies",
            case.name,
            one,
            cpu(cpu_one),
            two,
            cpu(cpu_two),
            two / one,
            plies
        );
    }
}
