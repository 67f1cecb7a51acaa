//! `--shard K/N` splits an experiment by colour-swapped pair (both games of a pair in the
//! same shard), and `merge` joins the shards into exactly what one run writes: games,
//! statistics and charts.

use agon_tests::selfplay::{assert_same_outputs, csv_rows, read, scratch, selfplay};
use std::collections::BTreeMap;
use std::path::Path;

fn run(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "run",
        "--variant",
        "standard",
        "--variant",
        "capture=ring",
        "--variant",
        "touch-move=on",
        "--agent",
        "random",
        "--games",
        "10",
        "--max-plies",
        "600",
        "--seed",
        "8",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    selfplay(&args).ok();
}

#[test]
fn merged_shards_equal_one_run() {
    let dir = scratch("merge");
    let single = dir.join("single");
    run(&single, &["--threads", "2"]);
    let shards: Vec<_> = (0..3).map(|k| dir.join(format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let spec = format!("{k}/3");
        let threads = if k == 1 { "2" } else { "1" };
        run(shard, &["--shard", &spec, "--threads", threads]);
        let rows = csv_rows(&read(shard, "games.csv"));
        // 3 variants x 10 games = 15 pairs (numbered 0..15 across the blocks), 5 each.
        let pairs = pairs_of(&rows);
        assert_eq!(pairs.len(), 5, "15 pairs split evenly: {pairs:?}");
        assert!(pairs
            .iter()
            .all(|(&p, &games)| p % 3 == k as u64 && games == 2));
    }
    let merged = dir.join("merged");
    let mut args: Vec<String> = vec!["merge".into()];
    // Any order of the inputs.
    for shard in shards.iter().rev() {
        args.push(shard.to_str().unwrap().into());
    }
    args.extend([
        "--out".into(),
        merged.to_str().unwrap().into(),
        "--json".into(),
    ]);
    let out = selfplay(&args).ok();
    assert_same_outputs(&single, &merged);
    assert_eq!(out.stdout, read(&single, "summary.json"));
}

/// The pairs of some `games.csv` rows, each with how many of its games are there.
fn pairs_of(rows: &[BTreeMap<String, String>]) -> BTreeMap<u64, usize> {
    let mut pairs = BTreeMap::new();
    for row in rows {
        *pairs.entry(row["pair"].parse().unwrap()).or_insert(0) += 1;
    }
    pairs
}

#[test]
fn an_even_shard_count_keeps_colour_swapped_pairs_together() {
    let dir = scratch("merge-even");
    let play = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "run",
            "--variant",
            "standard",
            "--agent",
            "random",
            "--games",
            "8",
            "--max-plies",
            "400",
            "--seed",
            "21",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        selfplay(&args).ok();
    };
    let single = dir.join("single");
    play(&single, &[]);
    let mut shards = Vec::new();
    for k in 0..2u64 {
        let shard = dir.join(format!("shard{k}"));
        play(&shard, &["--shard", &format!("{k}/2")]);
        let rows = csv_rows(&read(&shard, "games.csv"));
        let pairs = pairs_of(&rows);
        let expected: BTreeMap<u64, usize> = [(k, 2), (k + 2, 2)].into();
        assert_eq!(pairs, expected, "shard {k}/2 holds pairs {k} and {}", k + 2);
        // Each pair is one opening played with the colours swapped.
        for p in [k, k + 2] {
            let games: Vec<_> = rows.iter().filter(|r| r["pair"] == p.to_string()).collect();
            assert_eq!(games[0]["opening"], games[1]["opening"]);
        }
        // Complete pairs give the shard its own pentanomial statistics.
        let summary: serde_json::Value =
            serde_json::from_str(&read(&shard, "summary.json")).unwrap();
        assert_eq!(summary["groups"][0]["pairs"]["complete"], 2, "{summary}");
        shards.push(shard);
    }
    let merged = dir.join("merged");
    selfplay(&[
        "merge",
        shards[1].to_str().unwrap(),
        shards[0].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ])
    .ok();
    assert_same_outputs(&single, &merged);
}

#[test]
fn merge_refuses_other_experiments_and_used_directories() {
    let dir = scratch("merge-refuse");
    let a = dir.join("a");
    run(&a, &["--shard", "0/2"]);
    let b = dir.join("b");
    selfplay(&[
        "run",
        "--variant",
        "standard",
        "--games",
        "4",
        "--out",
        b.to_str().unwrap(),
    ])
    .ok();
    let e = selfplay(&[
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        dir.join("m").to_str().unwrap(),
    ])
    .code(2);
    assert!(e.stderr.contains("different experiment"), "{}", e.stderr);
    let e = selfplay(&["merge", a.to_str().unwrap(), "--out", b.to_str().unwrap()]).code(2);
    assert!(e.stderr.contains("already holds a run"), "{}", e.stderr);
}

#[test]
fn a_partial_merge_can_be_resumed_into_the_whole_run() {
    let dir = scratch("merge-resume");
    let single = dir.join("single");
    run(&single, &[]);
    let shard = dir.join("shard");
    run(&shard, &["--shard", "1/2"]);
    let merged = dir.join("merged");
    selfplay(&[
        "merge",
        shard.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ])
    .ok();
    // Shard 1/2 of 15 pairs: the odd pairs 1, 3, ..., 13, two games each.
    assert_eq!(csv_rows(&read(&merged, "games.csv")).len(), 14);
    selfplay(&["run", "--resume", "--out", merged.to_str().unwrap()]).ok();
    assert_same_outputs(&single, &merged);
}
