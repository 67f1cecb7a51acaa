//! `agon-selfplay run`, `report`, `run --resume` and `merge` in flat memory: the resident
//! set does not grow with the number of games (rows are written, not kept; the final sort
//! and a merge hold only where each game lies in the files, tens of bytes per game, freed
//! before the reports; a resume holds the games it keeps as bits; reports stream
//! `games.csv`). Measured by running 2,000 and 16,000 games and comparing the peaks: the
//! design before kept every row and record, about 8.5 kB per game (120 MB more for the
//! larger run). The cases are those of `scripts/bench-io.sh`: a merge of two shards and a
//! resume after both files were cut in the middle of a line, as well as a resume that keeps
//! every game and a merge of one whole directory.

use agon_tests::selfplay::{read, scratch, watched};
use std::path::Path;

/// Peak resident kB of `agon-selfplay ARGS`, which must succeed.
fn peak(args: &[&str]) -> u64 {
    let run = watched(args, 300, 400_000, || false);
    assert_eq!((run.code, &run.killed), (Some(0), &None), "{}", run.stderr);
    run.peak_kb
}

/// The options of a run of `games` random games of at most 40 plies.
fn run_args(games: &str) -> Vec<&str> {
    vec![
        "run",
        "--agent",
        "random",
        "--games",
        games,
        "--max-plies",
        "40",
        "--threads",
        "2",
        "--seed",
        "5",
    ]
}

/// Peak resident kB of `run` with `games` random games into `out`, of `report` on it, of
/// `run --resume` on it (every game kept: each is read and checked, none played), of
/// `merge` of it into `out-merged`, of `merge` of its two shards (played into
/// `out-shard0` and `out-shard1`) into `out-shards`, and of `run --resume` after both of
/// its files were cut in half.
fn peaks(out: &Path, games: u64) -> [u64; 6] {
    let games = games.to_string();
    let sibling = |suffix: &str| {
        out.with_file_name(format!(
            "{}-{suffix}",
            out.file_name().unwrap().to_str().unwrap()
        ))
    };
    let out_arg = out.to_str().unwrap();
    let run = peak(&[&run_args(&games)[..], &["--out", out_arg]].concat());
    let report = peak(&["report", out_arg]);
    let resume = peak(&["run", "--resume", "--out", out_arg]);
    let merged = sibling("merged");
    let merge = peak(&["merge", out_arg, "--out", merged.to_str().unwrap()]);
    assert_eq!(read(&merged, "games.agn"), read(out, "games.agn"));
    let shards: Vec<_> = (0..2).map(|k| sibling(&format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let spec = format!("{k}/2");
        let args = [
            &run_args(&games)[..],
            &["--shard", &spec, "--out", shard.to_str().unwrap()],
        ];
        peak(&args.concat());
    }
    let from_shards = sibling("shards");
    let merge_shards = peak(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        from_shards.to_str().unwrap(),
    ]);
    assert_eq!(read(&from_shards, "games.agn"), read(out, "games.agn"));
    // A kill leaves both files cut in the middle of a line, at different games.
    for name in ["games.csv", "games.agn"] {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(out.join(name))
            .unwrap();
        let len = file.metadata().unwrap().len();
        file.set_len(len / 2 + 7).unwrap();
    }
    let resume_cut = peak(&["run", "--resume", "--out", out_arg]);
    assert_eq!(read(out, "games.agn"), read(&merged, "games.agn"));
    [run, report, resume, merge, merge_shards, resume_cut]
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
    let names = [
        "run",
        "report",
        "resume",
        "merge",
        "merge of shards",
        "resume after a cut",
    ];
    eprintln!("{names:?}: {small:?} -> {large:?} kB");
    let limit_kb = 6_000;
    for (what, (small, large)) in names.iter().zip(small.iter().zip(&large)) {
        assert!(
            *large < small + limit_kb,
            "{what}: {small} kB for 2,000 games, {large} kB for 16,000"
        );
    }
}
