//! End-to-end tests of `agon playout`: the same games whatever the thread count, the
//! numbers of the library's own tally, the endings adding up, and clear errors.

use agon_core::{random_games, Rules};
use agon_tests::cli::agon;
use serde_json::Value;

fn playout_json(args: &[&str]) -> Value {
    let mut all = vec!["playout", "--json"];
    all.extend_from_slice(args);
    let run = agon(&all).ok();
    let mut objects = run.json_lines();
    assert_eq!(objects.len(), 1, "one JSON object: {}", run.stdout);
    objects.remove(0)
}

/// The fields that describe the games (not the time they took or the threads).
fn games_part(v: &Value) -> Value {
    let mut v = v.clone();
    let object = v.as_object_mut().unwrap();
    for timing in [
        "threads",
        "cpu_seconds",
        "wall_seconds",
        "actions_per_cpu_second",
        "actions_per_second",
    ] {
        assert!(object.remove(timing).is_some(), "field {timing}");
    }
    v
}

#[test]
fn the_same_seed_plays_the_same_games_on_any_number_of_threads() {
    // 600 games: three batches of 256, so threads take different shares.
    let one = playout_json(&["--games", "600", "--seed", "11", "--threads", "1"]);
    let two = playout_json(&["--games", "600", "--seed", "11", "--threads", "2"]);
    let three = playout_json(&["--games", "600", "--seed", "11", "--threads", "3"]);
    assert_eq!(games_part(&one), games_part(&two));
    assert_eq!(games_part(&one), games_part(&three));
    let other_seed = playout_json(&["--games", "600", "--seed", "12", "--threads", "2"]);
    assert_ne!(one["fingerprint"], other_seed["fingerprint"]);
    assert_ne!(one["actions"], other_seed["actions"]);
}

#[test]
fn the_numbers_are_the_library_tally_of_the_same_games() {
    let v = playout_json(&["--games", "300", "--seed", "4", "--variant", "ludii"]);
    let ludii: Rules = "ludii".parse().unwrap();
    let tally = random_games(ludii, 4, 0..300, 20_000);
    assert_eq!(v["variant"], ludii.to_string());
    assert_eq!(v["games"], 300);
    assert_eq!(v["actions"], tally.actions);
    assert_eq!(v["shortest"], tally.shortest);
    assert_eq!(v["longest"], tally.longest);
    assert_eq!(v["fingerprint"], format!("{:016x}", tally.fingerprint));
    let mean = v["mean_length"].as_f64().unwrap();
    assert!((mean - tally.actions as f64 / 300.0).abs() < 1e-9);
    let endings = v["endings"].as_array().unwrap();
    let counted: Vec<(String, String, u64)> = endings
        .iter()
        .map(|e| {
            (
                e["termination"].as_str().unwrap().to_string(),
                e["result"].as_str().unwrap().to_string(),
                e["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, String, u64)> = tally
        .ending_counts()
        .map(|(t, r, n)| (t.to_string(), r.to_string(), n))
        .collect();
    assert_eq!(counted, expected);
    assert_eq!(counted.iter().map(|e| e.2).sum::<u64>(), 300);
    let shares: f64 = endings.iter().map(|e| e["share"].as_f64().unwrap()).sum();
    assert!((shares - 1.0).abs() < 1e-9);
}

#[test]
fn a_ply_limit_adjudicates_move_limit_draws() {
    let v = playout_json(&["--games", "5", "--max-plies", "7"]);
    assert_eq!(v["actions"], 35);
    assert_eq!(v["shortest"], 7);
    assert_eq!(v["longest"], 7);
    let endings = v["endings"].as_array().unwrap();
    assert_eq!(endings.len(), 1);
    assert_eq!(endings[0]["termination"], "move-limit");
    assert_eq!(endings[0]["result"], "1/2-1/2");
    assert_eq!(endings[0]["games"], 5);
}

#[test]
fn the_table_names_every_figure() {
    let run = agon(&["playout", "--games", "20", "--seed", "3"]).ok();
    let json = playout_json(&["--games", "20", "--seed", "3"]);
    for label in [
        "variant",
        "games",
        "actions",
        "mean length",
        "cpu seconds",
        "wall seconds",
        "actions/s",
        "endings",
    ] {
        assert!(
            run.lines().iter().any(|l| l.starts_with(label)),
            "{label} in\n{}",
            run.stdout
        );
    }
    let actions_line = run
        .lines()
        .into_iter()
        .find(|l| l.starts_with("actions "))
        .unwrap();
    assert_eq!(
        actions_line.split_whitespace().last().unwrap(),
        json["actions"].to_string()
    );
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    let run = agon(&["playout", "--threads", "0"]).code(2);
    assert!(run.stderr.contains("--threads"), "{}", run.stderr);
    let run = agon(&["playout", "--variant", "capture=sideways"]).code(2);
    assert!(run.stderr.contains("--variant"), "{}", run.stderr);
    let run = agon(&["playout", "--max-plies", "0"]).code(2);
    assert!(run.stderr.contains("--max-plies"), "{}", run.stderr);
    let run = agon(&["playout", "--games", "many"]).code(2);
    assert!(run.stderr.contains("--games"), "{}", run.stderr);
}

#[test]
fn zero_games_report_zeros() {
    let v = playout_json(&["--games", "0"]);
    assert_eq!(v["games"], 0);
    assert_eq!(v["actions"], 0);
    assert_eq!(v["shortest"], 0);
    assert_eq!(v["endings"].as_array().unwrap().len(), 0);
}
