//! Engine throughput: perft (bulk-counted and fully played) and random playouts.
//!
//! Run with `cargo bench -p agon-core --bench engine` (add `-- quick` for a short run).
//! Numbers go to stdout; nothing here is a pass/fail test.

use agon_core::{perft, perft_full, random_playout, Game, Position, Rng, Rules, Termination};
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("# agon-core engine benchmark (one core unless stated)");
    perft_rates(if quick { 5 } else { 6 });
    playout_rates(if quick { 2_000 } else { 20_000 });
}

fn perft_rates(max_depth: u32) {
    println!("\n## perft from the standard start");
    println!("| depth | leaves | seconds | bulk leaves/s | full leaves/s |");
    println!("|---|---|---|---|---|");
    for depth in 4..=max_depth {
        let mut game = Game::new(Rules::STANDARD);
        let start = Instant::now();
        let leaves = perft(&mut game, depth);
        let bulk = start.elapsed().as_secs_f64();
        let full = if depth <= 5 {
            let start = Instant::now();
            let again = perft_full(&mut game, depth);
            assert_eq!(again, leaves);
            format!(
                "{:.1} M",
                leaves as f64 / start.elapsed().as_secs_f64() / 1e6
            )
        } else {
            "-".to_string()
        };
        println!(
            "| {depth} | {leaves} | {bulk:.3} | {:.1} M | {full} |",
            leaves as f64 / bulk / 1e6
        );
    }
}

struct PlayoutStats {
    games: u64,
    plies: u64,
    terminations: BTreeMap<String, u64>,
}

fn playouts(seed: u64, games: u64) -> PlayoutStats {
    let mut stats = PlayoutStats {
        games: 0,
        plies: 0,
        terminations: BTreeMap::new(),
    };
    let mut game = Game::new(Rules::STANDARD);
    for i in 0..games {
        let mut rng = Rng::for_stream(seed, i);
        game.restart(Position::start(Rules::STANDARD));
        stats.plies += random_playout(&mut game, &mut rng, 100_000) as u64;
        let outcome = game.outcome().expect("playout ends the game");
        let key = match outcome.termination {
            Termination::Repetition => "repetition".to_string(),
            t => format!("{t} {}", outcome.result),
        };
        *stats.terminations.entry(key).or_default() += 1;
        stats.games += 1;
    }
    stats
}

fn playout_rates(games: u64) {
    println!("\n## random playouts, standard rules");
    // Best of five runs: on a shared machine interference only ever slows a run down.
    let mut times = Vec::new();
    let mut stats = playouts(1842, games);
    for _ in 0..5 {
        let start = Instant::now();
        stats = playouts(1842, games);
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let one = times[0];
    println!(
        "1 thread, five runs: best {:.2} M actions/s, median {:.2} M actions/s",
        stats.plies as f64 / one / 1e6,
        stats.plies as f64 / times[2] / 1e6
    );
    println!(
        "1 thread: {} games, {} actions in {one:.2} s: {:.2} M actions/s, {:.0} games/s, mean {:.1} plies",
        stats.games,
        stats.plies,
        stats.plies as f64 / one / 1e6,
        stats.games as f64 / one,
        stats.plies as f64 / stats.games as f64
    );
    for (k, v) in &stats.terminations {
        println!(
            "  {k}: {v} ({:.1}%)",
            100.0 * *v as f64 / stats.games as f64
        );
    }
    let start = Instant::now();
    let plies: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2u64)
            .map(|t| s.spawn(move || playouts(1842 + t, games / 2).plies))
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).sum()
    });
    let two = start.elapsed().as_secs_f64();
    println!(
        "2 threads: {:.2} M actions/s ({:.2}x one thread)",
        plies as f64 / two / 1e6,
        (plies as f64 / two) / (stats.plies as f64 / one)
    );
}
