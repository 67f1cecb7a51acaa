//! `agon-selfplay run` and `report` in flat memory: the resident set does not grow with
//! the number of games (rows are written, not kept; the final sort holds 24 bytes per
//! game and file; reports stream `games.csv`). Measured by running 2,000 and 16,000 games
//! and comparing the peaks: the design before kept every row and record, about 8.5 kB per
//! game (120 MB more for the larger run).

use agon_tests::selfplay::{read, scratch, watched};
use std::path::Path;

/// Peak resident kB of `run` with `games` random games into `out`, then of `report` on it.
fn peaks(out: &Path, games: u64) -> (u64, u64) {
    let games = games.to_string();
    let out_arg = out.to_str().unwrap();
    let run = watched(
        &[
            "run",
            "--agent",
            "random",
            "--games",
            &games,
            "--max-plies",
            "40",
            "--threads",
            "2",
            "--seed",
            "5",
            "--out",
            out_arg,
        ],
        300,
        400_000,
        || false,
    );
    assert_eq!((run.code, &run.killed), (Some(0), &None), "{}", run.stderr);
    let report = watched(&["report", out_arg], 120, 400_000, || false);
    assert_eq!(
        (report.code, &report.killed),
        (Some(0), &None),
        "{}",
        report.stderr
    );
    (run.peak_kb, report.peak_kb)
}

#[test]
fn run_and_report_memory_does_not_grow_with_the_games() {
    let dir = scratch("memory-flat");
    let (small_run, small_report) = peaks(&dir.join("small"), 2_000);
    let large = dir.join("large");
    let (large_run, large_report) = peaks(&large, 16_000);
    // Every game was written, sorted by index.
    let csv = read(&large, "games.csv");
    let indices: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(indices, (0..16_000).collect::<Vec<u64>>());
    // Eight times the games: a few MB more at most (the pairs' statistics, the sort's
    // places), where keeping the games would add over 100 MB.
    eprintln!("run {small_run} -> {large_run} kB, report {small_report} -> {large_report} kB");
    let limit_kb = 6_000;
    assert!(
        large_run < small_run + limit_kb,
        "run: {small_run} kB for 2,000 games, {large_run} kB for 16,000"
    );
    assert!(
        large_report < small_report + limit_kb,
        "report: {small_report} kB for 2,000 games, {large_report} kB for 16,000"
    );
}
