//! `--shard K/N` splits an experiment by game index, and `merge` joins the shards into
//! exactly what one run writes: games, statistics and charts.

use agon_tests::selfplay::{assert_same_outputs, csv_rows, read, scratch, selfplay};
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
        assert_eq!(rows.len(), 10, "30 games split evenly");
        assert!(rows
            .iter()
            .all(|r| r["index"].parse::<u64>().unwrap() % 3 == k as u64));
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
    assert_eq!(csv_rows(&read(&merged, "games.csv")).len(), 15);
    selfplay(&["run", "--resume", "--out", merged.to_str().unwrap()]).ok();
    assert_same_outputs(&single, &merged);
}
