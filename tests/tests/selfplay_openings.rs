//! `--openings FILE`: each pair of games plays one suite opening with colours swapped,
//! every variant and pairing plays the same openings in the same order, the same games at
//! 1 and 2 threads, and the suite is part of the stored experiment (a `--resume` keeps it
//! and refuses another).

use agon_tests::cli::agon;
use agon_tests::selfplay::{assert_same_outputs, csv_rows, read, scratch, selfplay};
use std::path::Path;

/// Three openings as records.
const SUITE: &str = "[Event \"a\"]\n\n1. h9-g9 b7-c7 *\n\n[Event \"b\"]\n\n1. k1-k2 d1-e2 *\n\n\
                     [Event \"c\"]\n\n1. h9-g9 *\n";

fn args(suite: &Path, out: &Path, threads: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "run",
        "--variant",
        "standard",
        "--variant",
        "intervention=suicide",
        "--agent",
        "random",
        "--games",
        "8",
        "--max-plies",
        "200",
        "--seed",
        "4",
        "--openings",
        suite.to_str().unwrap(),
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

/// The suite's openings, as `convert --to json` reads them (independent of the harness).
fn suite_openings(suite: &Path) -> Vec<String> {
    agon(&["convert", "--to", "json", suite.to_str().unwrap()])
        .ok()
        .json_lines()
        .iter()
        .map(|g| {
            g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["action"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn openings_runs_are_the_same_at_one_and_two_threads() {
    let dir = scratch("openings-threads");
    let suite = dir.join("suite.agn");
    std::fs::write(&suite, SUITE).unwrap();
    let openings = suite_openings(&suite);
    assert_eq!(openings.len(), 3);

    for order in ["sequential", "random"] {
        let (one, two) = (
            dir.join(format!("{order}-1")),
            dir.join(format!("{order}-2")),
        );
        let extra = ["--openings-order", order, "--openings-start", "1"];
        selfplay(&args(&suite, &one, "1", &extra)).ok();
        selfplay(&args(&suite, &two, "2", &extra)).ok();
        assert_same_outputs(&one, &two);

        let rows = csv_rows(&read(&one, "games.csv"));
        assert_eq!(rows.len(), 16);
        let mut per_block: Vec<Vec<String>> = Vec::new();
        for block in rows.chunks(8) {
            let mut sequence = Vec::new();
            for pair in block.chunks(2) {
                // Both games of a pair: the same opening, colours swapped (the agents are
                // the same here, so the pair is told by the column), exactly a suite entry.
                assert_eq!(pair[0]["pair"], pair[1]["pair"]);
                assert_eq!(pair[0]["opening"], pair[1]["opening"]);
                assert!(
                    openings.contains(&pair[0]["opening"]),
                    "{}",
                    pair[0]["opening"]
                );
                sequence.push(pair[0]["opening"].clone());
            }
            per_block.push(sequence);
        }
        // Every variant plays the same openings in the same order.
        assert_eq!(per_block[0], per_block[1], "{order}");
        if order == "sequential" {
            // Starting at 1 and wrapping around: b, c, a, b.
            let want: Vec<String> = [1, 2, 0, 1].iter().map(|&k| openings[k].clone()).collect();
            assert_eq!(per_block[0], want);
        } else {
            // A permutation: the first three pairs play three different openings.
            let mut first: Vec<&String> = per_block[0][..3].iter().collect();
            first.sort();
            first.dedup();
            assert_eq!(first.len(), 3);
        }
        // The records start with the opening and validate.
        agon(&["validate", one.join("games.agn").to_str().unwrap()]).ok();
        let manifest = read(&one, "experiment.json");
        assert!(
            manifest.contains(&format!("\"order\": \"{order}\"")),
            "{manifest}"
        );
        assert!(
            manifest.contains("\"moves\": \"k1-k2 d1-e2\""),
            "{manifest}"
        );
    }
}

#[test]
fn a_suite_of_positions_starts_every_game_there_and_resume_keeps_it() {
    let dir = scratch("openings-positions");
    let after = |moves: &str| -> String {
        let shown = agon(&["show", "--json", "--moves", moves]).ok().stdout;
        let value: serde_json::Value = serde_json::from_str(&shown).unwrap();
        value["notation"].as_str().unwrap().to_string()
    };
    let positions = [after("h9-g9"), after("h9-g9 b7-c7 g9-g8")];
    let suite = dir.join("suite.txt");
    std::fs::write(
        &suite,
        format!("# two positions\n{}\n{}\n", positions[0], positions[1]),
    )
    .unwrap();
    let out = dir.join("run");
    selfplay(&args(&suite, &out, "2", &[])).ok();
    let games = agon(&[
        "validate",
        "--json",
        out.join("games.agn").to_str().unwrap(),
    ])
    .ok()
    .json_lines();
    assert_eq!(games.len(), 16);
    let records = read(&out, "games.agn");
    for (k, position) in [0, 1, 0, 1].iter().enumerate() {
        let tag = format!("[Position \"{}\"]", positions[*position]);
        assert!(records.contains(&tag), "pair {k}: {tag}");
    }
    // A resume with the same suite continues (nothing left to play); another is refused.
    selfplay(&args(&suite, &out, "2", &["--resume"])).ok();
    let other = dir.join("other.txt");
    std::fs::write(&other, format!("{}\n", positions[1])).unwrap();
    let run = selfplay(&args(&other, &out, "2", &["--resume"])).code(2);
    assert!(run.stderr.contains("--openings"), "{}", run.stderr);
    let run = selfplay(&args(
        &suite,
        &out,
        "2",
        &["--resume", "--openings-start", "1"],
    ))
    .code(2);
    assert!(run.stderr.contains("--openings"), "{}", run.stderr);
}

#[test]
fn an_opening_illegal_under_a_variant_is_refused_before_playing() {
    let dir = scratch("openings-bad");
    let suite = dir.join("suite.agn");
    // Placement openings are illegal under the standard rules.
    std::fs::write(&suite, "[Variant \"opening=placement\"]\n\n1. Q@f1 *\n").unwrap();
    let out = dir.join("run");
    let run = selfplay(&args(&suite, &out, "1", &[])).code(2);
    assert!(
        run.stderr
            .contains("opening 1 (Q@f1) cannot start a game under `standard`"),
        "{}",
        run.stderr
    );
    assert!(!out.join("games.csv").exists());
}
