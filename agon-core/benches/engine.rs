//! Engine throughput per second of CPU time: perft (bulk-counted and fully played) and
//! random playouts (the lean path of `agon playout`, and playouts on a recorded `Game`).
//!
//! Run with `cargo bench -p agon-core --bench engine` (add `-- quick` for a short run).
//! Numbers go to stdout; nothing here is a pass/fail test. Each figure is the median of
//! five runs, with the best beside it: on a shared machine other jobs only ever slow a run
//! down. The deterministic figures (instructions per leaf and per action) come from
//! `scripts/instructions.sh`, which runs the same workloads under callgrind.

mod common;

use agon_core::{perft, perft_full, random_games, random_playout, Game, Position, Rng, Rules};
use common::Clock;

const RUNS: usize = 5;

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("# agon-core engine benchmark (one thread, rates per CPU second)");
    println!("| workload | work per run | median | best |");
    println!("|---|---|---|---|");
    for depth in 4..=if quick { 5 } else { 6 } {
        measure(&format!("perft {depth} (bulk)"), "leaves", || {
            perft(&mut Game::new(Rules::STANDARD), depth)
        });
    }
    for depth in 3..=if quick { 3 } else { 4 } {
        measure(
            &format!("perft {depth} (every leaf played)"),
            "leaves",
            || perft_full(&mut Game::new(Rules::STANDARD), depth),
        );
    }
    let games = if quick { 2_000 } else { 20_000 };
    for (name, rules) in [("standard", Rules::STANDARD), ("ludii", Rules::LUDII)] {
        measure(&format!("random games, {name}"), "actions", || {
            random_games(rules, 1842, 0..games, 20_000).actions
        });
    }
    measure(
        "random games on a recorded Game, standard",
        "actions",
        || {
            let start = Position::start(Rules::STANDARD);
            let mut game = Game::from_position(start);
            (0..games / 4)
                .map(|i| {
                    game.restart(start);
                    random_playout(&mut game, &mut Rng::for_stream(1842, i), 20_000) as u64
                })
                .sum()
        },
    );
}

/// Runs `work` five times (it returns how many units it did) and prints the median and
/// best units per CPU second (per wall second where CPU time is not available).
fn measure(name: &str, unit: &str, mut work: impl FnMut() -> u64) {
    let mut rates = Vec::new();
    let mut units = 0;
    for _ in 0..RUNS {
        let clock = Clock::start();
        units = std::hint::black_box(work());
        let (wall, cpu) = clock.seconds();
        let seconds = cpu.filter(|&c| c > 0.0).unwrap_or(wall);
        rates.push(units as f64 / seconds);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "| {name} | {units} {unit} | {:.1} M {unit}/s | {:.1} M {unit}/s |",
        rates[RUNS / 2] / 1e6,
        rates[RUNS - 1] / 1e6
    );
}
