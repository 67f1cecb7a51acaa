//! `agon-selfplay run` is deterministic: game i depends only on (seed, i), so one thread
//! and two threads write the same games, statistics and charts (timing column aside).

use agon_tests::selfplay::{
    assert_same_outputs, csv_rows, read, scratch, selfplay, without_timing,
};

const EXPERIMENT: [&str; 13] = [
    "run",
    "--variant",
    "standard",
    "--variant",
    "intervention=suicide,touch-move=on",
    "--agent",
    "random",
    "--games",
    "8",
    "--opening-plies",
    "3",
    "--max-plies",
    "400",
];

fn experiment(seed: &str, threads: &str, out: &std::path::Path) -> Vec<String> {
    let mut args: Vec<String> = EXPERIMENT.iter().map(|s| s.to_string()).collect();
    args.extend(["--seed", seed, "--threads", threads].map(String::from));
    args.push("--out".into());
    args.push(out.to_str().unwrap().into());
    args
}

#[test]
fn one_and_two_threads_write_the_same_games_statistics_and_charts() {
    let dir = scratch("determinism");
    let (one, two) = (dir.join("one"), dir.join("two"));
    selfplay(&experiment("42", "1", &one)).ok();
    selfplay(&experiment("42", "2", &two)).ok();
    assert_same_outputs(&one, &two);

    let rows = csv_rows(&read(&one, "games.csv"));
    assert_eq!(rows.len(), 16);
    let indices: Vec<String> = rows.iter().map(|r| r["index"].clone()).collect();
    let expected: Vec<String> = (0..16).map(|i| i.to_string()).collect();
    assert_eq!(indices, expected, "the final games.csv is sorted by index");
    // A variant name holding a comma stays one variant (quoted in the CSV).
    assert!(rows[..8].iter().all(|r| r["variant"] == "standard"));
    assert!(rows[8..]
        .iter()
        .all(|r| r["variant"] == "intervention=suicide,touch-move=on"));
    // Games 2p and 2p+1 share their opening.
    for pair in rows.chunks(2) {
        assert_eq!(pair[0]["pair"], pair[1]["pair"]);
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["opening"].split(' ').count(), 3);
    }
    assert_ne!(rows[0]["opening"], rows[2]["opening"]);

    // Another seed gives other games.
    let other = dir.join("other");
    selfplay(&experiment("43", "2", &other)).ok();
    assert_ne!(
        without_timing(&read(&one, "games.csv")),
        without_timing(&read(&other, "games.csv"))
    );
}

#[test]
fn searching_agents_are_deterministic_across_threads_too() {
    let dir = scratch("determinism-greedy");
    let run = |threads: &str, out: &std::path::Path| {
        selfplay(&[
            "run",
            "--variant",
            "capture=ring",
            "--white",
            "greedy",
            "--black",
            "random",
            "--games",
            "6",
            "--max-plies",
            "300",
            "--seed",
            "5",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ])
        .ok()
    };
    let (one, two) = (dir.join("one"), dir.join("two"));
    run("1", &one);
    run("2", &two);
    assert_same_outputs(&one, &two);
    let rows = csv_rows(&read(&one, "games.csv"));
    // Colours swap inside each pair.
    assert_eq!(
        (rows[0]["white"].as_str(), rows[0]["black"].as_str()),
        ("greedy", "random")
    );
    assert_eq!(
        (rows[1]["white"].as_str(), rows[1]["black"].as_str()),
        ("random", "greedy")
    );
}
