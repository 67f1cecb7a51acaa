//! `agon-selfplay run`, `report`, `run --resume` and `merge` in flat memory: the resident
//! set does not grow with the number of games (rows are written, not kept; the final sort,
//! a resume and a merge hold only where each game lies in the files, tens of bytes per
//! game; reports stream `games.csv`). Measured by running 2,000 and 16,000 games and
//! comparing the peaks: the design before kept every row and record, about 8.5 kB per game
//! (120 MB more for the larger run).

use agon_tests::selfplay::{read, scratch, watched};
use std::path::Path;

/// Peak resident kB of `agon-selfplay ARGS`, which must succeed.
fn peak(args: &[&str]) -> u64 {
    let run = watched(args, 300, 400_000, || false);
    assert_eq!((run.code, &run.killed), (Some(0), &None), "{}", run.stderr);
    run.peak_kb
}

/// Peak resident kB of `run` with `games` random games into `out`, of `report` on it, of
/// `run --resume` on it (every game kept: each is read and checked, none played), and of
/// `merge` of it into `out-merged`.
fn peaks(out: &Path, games: u64) -> [u64; 4] {
    let games = games.to_string();
    let out_arg = out.to_str().unwrap();
    let run = peak(&[
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
    ]);
    let report = peak(&["report", out_arg]);
    let resume = peak(&["run", "--resume", "--out", out_arg]);
    let merged = out.with_file_name(format!(
        "{}-merged",
        out.file_name().unwrap().to_str().unwrap()
    ));
    let merge = peak(&["merge", out_arg, "--out", merged.to_str().unwrap()]);
    assert_eq!(read(&merged, "games.agn"), read(out, "games.agn"));
    [run, report, resume, merge]
}

#[test]
fn run_report_resume_and_merge_memory_do_not_grow_with_the_games() {
    let dir = scratch("memory-flat");
    let small = peaks(&dir.join("small"), 2_000);
    let large_dir = dir.join("large");
    let large = peaks(&large_dir, 16_000);
    // Every game was written, sorted by index.
    let csv = read(&large_dir, "games.csv");
    let indices: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(indices, (0..16_000).collect::<Vec<u64>>());
    // Eight times the games: a few MB more at most (the pairs' statistics, the places of
    // the games), where keeping the games would add over 100 MB.
    eprintln!("run, report, resume, merge: {small:?} -> {large:?} kB");
    let limit_kb = 6_000;
    for (what, (small, large)) in ["run", "report", "resume", "merge"]
        .iter()
        .zip(small.iter().zip(&large))
    {
        assert!(
            *large < small + limit_kb,
            "{what}: {small} kB for 2,000 games, {large} kB for 16,000"
        );
    }
}
