//! The SPRT stops a block at the pair where its test decides, and the decision depends
//! only on the prefix of pairs in index order: the same at 1 and 2 threads, after
//! `--resume` with games played beyond the decision, and after `merge` of shards.

use agon_tests::selfplay::{assert_same_outputs, csv_rows, read, scratch, selfplay};
use serde_json::Value;
use std::path::Path;

fn tournament(out: &Path, threads: &str) {
    selfplay(&[
        "tournament",
        "--agent",
        "alphabeta:depth=3",
        "--agent",
        "random",
        "--sprt",
        "elo0=0,elo1=50",
        "--games",
        "200",
        "--max-plies",
        "200",
        "--seed",
        "3",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ])
    .ok();
}

#[test]
fn a_tournament_stops_with_h1_early_and_the_same_at_any_thread_count() {
    let dir = scratch("sprt-tournament");
    let (one, two) = (dir.join("one"), dir.join("two"));
    tournament(&one, "1");
    tournament(&two, "2");
    assert_same_outputs(&one, &two);
    let summary: Value = serde_json::from_str(&read(&one, "summary.json")).unwrap();
    let sprt = &summary["groups"][0]["sprt"];
    assert_eq!(sprt["decision"], "H1", "{sprt}");
    let pairs = sprt["pairs"].as_u64().unwrap();
    assert!(pairs <= 30, "decided after {pairs} of 100 pairs");
    assert_eq!(
        (sprt["elo0"].as_f64(), sprt["elo1"].as_f64()),
        (Some(0.0), Some(50.0))
    );
    assert_eq!(
        (sprt["alpha"].as_f64(), sprt["beta"].as_f64()),
        (Some(0.05), Some(0.05))
    );
    let llr = sprt["llr"].as_f64().unwrap();
    assert!(llr >= sprt["upper"].as_f64().unwrap());
    assert!((sprt["upper"].as_f64().unwrap() - 19f64.ln()).abs() < 1e-12);
    // Exactly the decided prefix is kept.
    let rows = csv_rows(&read(&one, "games.csv"));
    assert_eq!(rows.len() as u64, 2 * pairs);
    assert_eq!(summary["games_used"].as_u64(), Some(2 * pairs));
}

fn run(out: &Path, extra: &[&str]) -> String {
    let mut args: Vec<String> = [
        "run",
        "--white",
        "greedy",
        "--black",
        "random",
        "--games",
        "60",
        "--max-plies",
        "200",
        "--seed",
        "4",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(out.to_str().unwrap().into());
    args.extend(extra.iter().map(|s| s.to_string()));
    selfplay(&args).ok().stdout
}

const SPRT: [&str; 2] = ["--sprt", "elo0=0,elo1=50"];

/// A resume keeps the stored SPRT, and another one given on the command line is refused
/// by name (it was silently ignored).
#[test]
fn resume_keeps_the_stored_sprt_and_refuses_another() {
    let dir = scratch("sprt-resume-other");
    let out = dir.join("out");
    let out_arg = out.to_str().unwrap();
    run(&out, &SPRT);
    selfplay(&["run", "--resume", "--out", out_arg]).ok();
    let other = selfplay(&[
        "run",
        "--resume",
        "--sprt",
        "elo0=0,elo1=20",
        "--out",
        out_arg,
    ])
    .code(2);
    assert!(
        other
            .stderr
            .contains("--sprt elo0=0,elo1=20,alpha=0.05,beta=0.05 (the run has elo0=0,elo1=50,alpha=0.05,beta=0.05)"),
        "{}",
        other.stderr
    );
}

#[test]
fn resume_and_merge_reach_the_same_decision() {
    let dir = scratch("sprt-resume-merge");
    let reference = dir.join("reference");
    let stdout = run(&reference, &SPRT);
    assert!(
        stdout.contains("SPRT of White's first-move advantage"),
        "{stdout}"
    );
    let summary: Value = serde_json::from_str(&read(&reference, "summary.json")).unwrap();
    let sprt = &summary["groups"][0]["sprt"];
    // Greedy wins with either colour, so White's pairs score one point: no first-move
    // advantage, H0.
    assert_eq!(sprt["decision"], "H0", "{sprt}");
    let pairs = sprt["pairs"].as_u64().unwrap();
    assert!(pairs < 30);

    // Every game of the experiment played (as slow threads might have), then resumed
    // under the SPRT: the games after the decision are left out.
    let full = dir.join("full");
    run(&full, &[]);
    assert_eq!(csv_rows(&read(&full, "games.csv")).len(), 60);
    std::fs::copy(
        reference.join("experiment.json"),
        full.join("experiment.json"),
    )
    .unwrap();
    selfplay(&["run", "--resume", "--out", full.to_str().unwrap()]).ok();
    assert_same_outputs(&reference, &full);

    // Shards cannot decide alone (each holds half of every pair); the merge decides.
    let (a, b) = (dir.join("a"), dir.join("b"));
    run(&a, &["--sprt", "elo0=0,elo1=50", "--shard", "0/2"]);
    run(&b, &["--sprt", "elo0=0,elo1=50", "--shard", "1/2"]);
    let merged = dir.join("merged");
    selfplay(&[
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ])
    .ok();
    assert_same_outputs(&reference, &merged);
}

#[test]
fn bad_sprt_specs_are_clear_errors() {
    for (spec, message) in [
        ("elo0=5,elo1=0", "elo0 < elo1"),
        ("elo1=5", "needs elo0 and elo1"),
        ("elo0=0,elo1=5,alpha=0.7", "alpha"),
        ("elo0=0,elo1=5,gamma=1", "no `gamma`"),
    ] {
        let out = selfplay(&["run", "--sprt", spec, "--out", "/nonexistent/x"]).code(2);
        assert!(out.stderr.contains(message), "{spec}: {}", out.stderr);
    }
}
