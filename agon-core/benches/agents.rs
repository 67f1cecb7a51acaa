//! Agent speed: alpha-beta nodes per second and MCTS playouts per second, on one core.
//!
//! Run with `cargo bench -p agon-core --bench agents` (add `-- quick` for a short run,
//! `-- alphabeta` or `-- mcts` to run only one agent, e.g. under a profiler, and
//! `-- runs=N` to repeat each measurement N times; the default is 3). The alpha-beta part
//! ends with the two fixed searches whose instructions per node `scripts/instructions.sh`
//! counts (the start at depth 8, a midgame position at depth 7), with their nodes per CPU
//! second.
//! Positions come from seeded random play on the standard rules, so every run searches the
//! same trees. Rates are given per wall-clock second and per second of CPU time of this
//! process (the machine may be shared; the CPU-time rate is the one to compare, and the
//! median of the runs is the figure to report).

use agon_core::agents::{AlphaBetaAgent, AlphaBetaConfig, MctsAgent, MctsConfig};
use agon_core::{ActionList, Game, Rng, Rules};

mod common;
use common::Clock;

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("# agon-core agents benchmark (one thread)");
    let only = |name: &str| {
        let named = |a: &String| a == "alphabeta" || a == "mcts";
        let args: Vec<String> = std::env::args().skip(1).filter(named).collect();
        args.is_empty() || args.iter().any(|a| a == name)
    };
    let runs = std::env::args()
        .find_map(|a| a.strip_prefix("runs=")?.parse::<usize>().ok())
        .unwrap_or(if quick { 1 } else { 3 })
        .max(1);
    let games = positions(if quick { 4 } else { 12 });
    if only("alphabeta") {
        alphabeta(&games, if quick { 6 } else { 8 }, runs);
        fixed_searches(runs);
    }
    if only("mcts") {
        mcts(&games, if quick { 2_000 } else { 20_000 }, runs);
    }
}

/// The median of some rates (the lower middle one for an even count).
fn median(mut rates: Vec<f64>) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates[(rates.len() - 1) / 2]
}

/// Games after 10 to 120 random plies, none over.
fn positions(count: u64) -> Vec<Game> {
    let mut games = Vec::new();
    let mut list = ActionList::new();
    let mut i = 0;
    while games.len() < count as usize {
        let mut rng = Rng::for_stream(2024, i);
        i += 1;
        let mut game = Game::new(Rules::STANDARD);
        let plies = 10 + rng.below(110);
        while !game.is_over() && game.ply_count() < plies {
            game.position().legal().generate(&mut list);
            game.play_unchecked(list[rng.below(list.len())]);
        }
        if !game.is_over() {
            games.push(game);
        }
    }
    games
}

fn rates(count: f64, wall: f64, cpu: Option<f64>) -> String {
    let per_cpu = cpu
        .filter(|&c| c > 0.0)
        .map_or("-".to_string(), |c| format!("{:.2} M", count / c / 1e6));
    format!("{:.2} M | {per_cpu}", count / wall / 1e6)
}

fn alphabeta(games: &[Game], depth: u32, runs: usize) {
    println!("\n## alphabeta, depth {depth}, {} positions", games.len());
    println!("| position | plies played | nodes | seconds | best | score |");
    println!("|---|---|---|---|---|---|");
    let mut summary = Vec::new();
    let mut per_cpu = Vec::new();
    for run in 1..=runs {
        let clock = Clock::start();
        let mut nodes = 0;
        for (i, game) in games.iter().enumerate() {
            let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(depth, 1));
            let report = agent.search(game);
            nodes += report.nodes;
            if run == 1 {
                println!(
                    "| {i} | {} | {} | {:.3} | {} | {} |",
                    game.ply_count(),
                    report.nodes,
                    report.elapsed.as_secs_f64(),
                    report.action,
                    report.score
                );
            }
        }
        let (wall, cpu) = clock.seconds();
        per_cpu.push(nodes as f64 / cpu.filter(|&c| c > 0.0).unwrap_or(wall));
        summary.push(format!(
            "| {run} | {nodes} | {wall:.2} | {} | {} |",
            cpu.map_or("-".into(), |c| format!("{c:.2}")),
            rates(nodes as f64, wall, cpu)
        ));
    }
    println!("\n| run | nodes | wall s | CPU s | nodes/s (wall) | nodes/s (CPU) |");
    println!("|---|---|---|---|---|---|");
    for line in summary {
        println!("{line}");
    }
    println!(
        "\nalphabeta: median of {runs} run(s): {:.2} M nodes/s (CPU)",
        median(per_cpu) / 1e6
    );
}

/// The midgame position of `scripts/instructions.sh`: 24 plies of a greedy game, pieces in
/// contact. The script passes the same file's actions to `agon engine`.
const MIDGAME: &str = include_str!("common/midgame.txt");

/// The searches whose instructions per node `scripts/instructions.sh` counts, timed: nodes
/// per CPU second of the same trees. Each run searches each position `REPEAT` times (the
/// CPU clock ticks in hundredths of a second).
fn fixed_searches(runs: usize) {
    const REPEAT: u64 = 5;
    let mut midgame = Game::new(Rules::STANDARD);
    for action in MIDGAME.split_whitespace() {
        midgame
            .play(action.parse().expect("an action"))
            .expect("a legal action");
    }
    let searches = [
        ("start", Game::new(Rules::STANDARD), 8),
        ("midgame", midgame, 7),
    ];
    println!("\n## alphabeta, the searches of scripts/instructions.sh");
    println!(
        "| search | nodes | CPU s per run ({REPEAT} searches) | nodes/s (CPU), median of {runs} |"
    );
    println!("|---|---|---|---|");
    for (name, game, depth) in &searches {
        let mut nodes = 0;
        let mut per_cpu = Vec::new();
        let mut seconds = Vec::new();
        for _ in 0..runs {
            let clock = Clock::start();
            for _ in 0..REPEAT {
                let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(*depth, 1));
                nodes = agent.search(game).nodes;
            }
            let (wall, cpu) = clock.seconds();
            let cpu = cpu.filter(|&c| c > 0.0).unwrap_or(wall);
            seconds.push(format!("{cpu:.2}"));
            per_cpu.push((REPEAT * nodes) as f64 / cpu);
        }
        println!(
            "| {name}, depth {depth} | {nodes} | {} | {:.2} M |",
            seconds.join(", "),
            median(per_cpu) / 1e6
        );
    }
}

fn mcts(games: &[Game], playouts: u64, runs: usize) {
    println!(
        "\n## mcts, {playouts} playouts per position, {} positions",
        games.len()
    );
    println!(
        "| run | playouts | tree nodes | wall s | CPU s | playouts/s (wall) | playouts/s (CPU) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut per_cpu = Vec::new();
    for run in 1..=runs {
        let clock = Clock::start();
        let mut total = 0;
        let mut nodes = 0;
        for game in games {
            let mut agent = MctsAgent::new(MctsConfig::with_playouts(playouts, 1));
            let report = agent.search(game);
            total += report.playouts;
            nodes += report.tree_nodes;
        }
        let (wall, cpu) = clock.seconds();
        let per = |c: f64| format!("{:.0}", total as f64 / c);
        per_cpu.push(total as f64 / cpu.filter(|&c| c > 0.0).unwrap_or(wall));
        println!(
            "| {run} | {total} | {nodes} | {wall:.2} | {} | {} | {} |",
            cpu.map_or("-".into(), |c| format!("{c:.2}")),
            per(wall),
            cpu.filter(|&c| c > 0.0).map_or("-".into(), per)
        );
    }
    println!(
        "\nmcts: median of {runs} run(s): {:.0} playouts/s (CPU)",
        median(per_cpu)
    );
}
