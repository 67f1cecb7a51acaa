//! `agon engine` in the harness: a match through the protocol gives the same games as the
//! same agents in process (depth-limited, so deterministic), seeds and options reach the
//! engine, tournaments take engines, and bad engine specs are clear errors.

use agon_tests::cli::agon_path;
use agon_tests::selfplay::{csv_rows, read, scratch, selfplay};
use std::collections::BTreeMap;
use std::path::Path;

/// `engine:` spec running this build's `agon engine` with extra options.
fn agon_engine(options: &str) -> String {
    format!("engine:{} engine,{options}", agon_path().display())
}

/// Runs `agon-selfplay run` with White and Black agents and the common settings.
fn run(dir: &Path, variant: &str, white: &str, black: &str) {
    let dir = dir.to_str().unwrap();
    selfplay(&[
        "run",
        "--variant",
        variant,
        "--white",
        white,
        "--black",
        black,
        "--games",
        "4",
        "--max-plies",
        "160",
        "--opening-plies",
        "4",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        dir,
    ])
    .ok();
}

/// `games.agn` without the lines that name the agents.
fn movetext_and_results(dir: &Path) -> String {
    read(dir, "games.agn")
        .lines()
        .filter(|l| !l.starts_with("[White ") && !l.starts_with("[Black "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `games.csv` rows without the agent names and the timing.
fn rows(dir: &Path) -> Vec<BTreeMap<String, String>> {
    csv_rows(&read(dir, "games.csv"))
        .into_iter()
        .map(|mut row| {
            for key in ["white", "black", "duration_ms", "time_limited"] {
                row.remove(key);
            }
            row
        })
        .collect()
}

#[track_caller]
fn assert_same_games(through_engine: &Path, in_process: &Path) {
    let (a, b) = (
        movetext_and_results(through_engine),
        movetext_and_results(in_process),
    );
    assert!(
        a.contains("1. "),
        "no games in {}",
        through_engine.display()
    );
    assert_eq!(a, b);
    assert_eq!(rows(through_engine), rows(in_process));
}

#[test]
fn a_match_through_the_protocol_gives_the_in_process_games() {
    for variant in ["standard", "queen-relocated-by=opponent,capture=ring"] {
        let name = variant.replace([',', '='], "-");
        let engine_dir = scratch(&format!("engine-match-{name}"));
        let process_dir = scratch(&format!("process-match-{name}"));
        run(
            &engine_dir,
            variant,
            &agon_engine("depth=2"),
            "alphabeta:depth=3",
        );
        run(
            &process_dir,
            variant,
            "alphabeta:depth=2",
            "alphabeta:depth=3",
        );
        assert_same_games(&engine_dir, &process_dir);
        // The engine's spec is recorded canonically.
        let agn = read(&engine_dir, "games.agn");
        let spec = format!("{} engine,depth=2", agon_path().display());
        assert!(agn.contains(&format!("[White \"engine:{spec}\"]")), "{agn}");
        assert!(agn.contains(&format!("[Black \"engine:{spec}\"]")), "{agn}");
    }
}

#[test]
fn seeds_and_options_reach_the_engine() {
    // Noise makes the games depend on the seed, so equal games mean equal seeds; the
    // agent itself is chosen with `set.Agent`.
    let engine_dir = scratch("engine-seeds");
    let process_dir = scratch("process-seeds");
    let engine = agon_engine("depth=1,set.Agent=greedy:noise=30");
    run(&engine_dir, "standard", &engine, &engine);
    run(
        &process_dir,
        "standard",
        "greedy:noise=30",
        "greedy:noise=30",
    );
    assert_same_games(&engine_dir, &process_dir);
}

#[test]
fn a_tournament_takes_engines() {
    let dir = scratch("engine-tournament");
    let out = dir.to_str().unwrap();
    let engine = agon_engine("depth=1");
    selfplay(&[
        "tournament",
        "--agent",
        &engine,
        "--agent",
        "greedy",
        "--agent",
        "random",
        "--games",
        "2",
        "--max-plies",
        "120",
        "--seed",
        "2",
        "--out",
        out,
    ])
    .ok();
    let games = rows(&dir);
    assert_eq!(games.len(), 6);
    let validate = agon_tests::cli::agon(&["validate", &format!("{out}/games.agn")]).code(0);
    assert!(
        validate.stdout.contains("6 valid, 0 invalid"),
        "{}",
        validate.stdout
    );
}

#[test]
fn bad_engine_specs_are_clear_errors() {
    let dir = scratch("engine-bad-specs");
    let out = dir.to_str().unwrap();
    let cases = [
        (
            "engine:/nonexistent/engine".to_string(),
            "agon-selfplay: cannot start engine `/nonexistent/engine`: no such program",
        ),
        (
            agon_engine("depth=1,set.Threads=2"),
            "has no option `Threads` (it declares: Agent, Hash, Seed, MultiPV)",
        ),
        (
            "engine:prog,deep=1".to_string(),
            "agon-selfplay: `engine:prog,deep=1` is not an engine: unknown option `deep`; valid \
             options: depth=N, nodes=N, movetime=MS, timeout=MS, set.NAME=VALUE",
        ),
    ];
    for (spec, message) in cases {
        let _ = std::fs::remove_dir_all(&dir);
        let run = selfplay(&[
            "run", "--white", &spec, "--black", "random", "--games", "2", "--out", out,
        ])
        .code(2);
        assert!(run.stderr.contains(message), "{spec}: {}", run.stderr);
    }
}
