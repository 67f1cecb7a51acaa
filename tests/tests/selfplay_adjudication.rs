//! Adjudication: games ended early from the agents' own scores carry the termination
//! `adjudication`, validate, and are counted apart from rule draws and the ply limit;
//! agents without scores are never adjudicated; the option is part of the experiment.

use agon_tests::cli::agon;
use agon_tests::selfplay::{csv_rows, read, scratch, selfplay};
use serde_json::Value;
use std::path::Path;

fn run(out: &Path, agent: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "run",
        "--variant",
        "capture=ring",
        "--variant",
        "standard",
        "--agent",
        agent,
        "--games",
        "16",
        "--max-plies",
        "400",
        "--seed",
        "4",
        "--threads",
        "2",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    serde_json::from_str(&selfplay(&args).ok().stdout).unwrap()
}

const DRAW: &str = "movenumber=20,movecount=4,score=150";
const RESIGN: &str = "movecount=3,score=600";

#[test]
fn adjudicated_games_validate_and_are_counted_apart() {
    let dir = scratch("adjudication");
    let out = dir.join("adjudicated");
    let summary = run(
        &out,
        "alphabeta:depth=1,noise=10,hash=1",
        &["--draw-adjudication", DRAW, "--resign-adjudication", RESIGN],
    );
    let rows = csv_rows(&read(&out, "games.csv"));
    let adjudicated: Vec<_> = rows
        .iter()
        .filter(|r| r["termination"] == "adjudication")
        .collect();
    assert!(
        adjudicated.len() >= 4,
        "dead games were adjudicated: {} of {}",
        adjudicated.len(),
        rows.len()
    );
    // A draw needs at least move 20 (ply 40) and 4 level moves of each side.
    for r in &adjudicated {
        let plies: u32 = r["plies"].parse().unwrap();
        assert!((8..400).contains(&plies), "{r:?}");
        if r["result"] == "1/2-1/2" {
            assert!(plies >= 40, "{r:?}");
        }
    }
    // Every record validates, the adjudicated ones with their termination.
    let validated = agon(&["validate", out.join("games.agn").to_str().unwrap()]).ok();
    assert!(
        validated.stdout.contains("32 games: 32 valid, 0 invalid"),
        "{}",
        validated.stdout
    );
    assert!(read(&out, "games.agn").contains("[Termination \"adjudication\"]"));
    // The summary counts them apart: wins, rule draws, the ply limit and adjudicated
    // draws add up to the games.
    for (g, variant) in summary["groups"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["capture=ring", "standard"])
    {
        let count = |k: &str| g[k].as_u64().unwrap();
        let by_rows = adjudicated
            .iter()
            .filter(|r| r["variant"] == variant)
            .count() as u64;
        assert_eq!(count("adjudicated"), by_rows, "{variant}");
        let draws_by_rows = adjudicated
            .iter()
            .filter(|r| r["variant"] == variant && r["result"] == "1/2-1/2")
            .count() as u64;
        assert_eq!(count("adjudicated_draws"), draws_by_rows, "{variant}");
        assert_eq!(
            count("white_wins")
                + count("black_wins")
                + count("draws")
                + count("undecided")
                + count("adjudicated_draws"),
            count("games"),
            "{variant}"
        );
    }
    let csv = csv_rows(&read(&out, "summary.csv"));
    assert_eq!(
        csv[0]["adjudicated"],
        summary["groups"][0]["adjudicated"].to_string()
    );
    // The rules are part of the experiment: a resume keeps them, and a resume with other
    // rules is refused, naming them.
    let manifest: Value = serde_json::from_str(&read(&out, "experiment.json")).unwrap();
    assert_eq!(
        manifest["experiment"]["adjudication"]["draw"]["move_count"],
        4
    );
    let resume = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--resume",
            "--out",
            out.to_str().unwrap(),
            "--variant",
            "capture=ring",
            "--variant",
            "standard",
            "--agent",
            "alphabeta:depth=1,noise=10,hash=1",
            "--games",
            "16",
            "--max-plies",
            "400",
            "--seed",
            "4",
        ];
        args.extend_from_slice(extra);
        selfplay(&args)
    };
    let before = read(&out, "games.csv");
    resume(&[]).ok();
    resume(&["--draw-adjudication", DRAW, "--resign-adjudication", RESIGN]).ok();
    assert_eq!(read(&out, "games.csv"), before);
    let e = resume(&["--draw-adjudication", "movenumber=20,movecount=5,score=150"]).code(2);
    assert!(
        e.stderr.contains(
            "--draw-adjudication movenumber=20,movecount=5,score=150 (the run has \
             movenumber=20,movecount=4,score=150)"
        ),
        "{}",
        e.stderr
    );
}

#[test]
fn agents_without_scores_are_never_adjudicated() {
    let dir = scratch("adjudication-random");
    let out = dir.join("random");
    let summary = run(
        &out,
        "random",
        &[
            "--draw-adjudication",
            "movenumber=0,movecount=1,score=100000",
            "--resign-adjudication",
            "movecount=1,score=1",
        ],
    );
    for g in summary["groups"].as_array().unwrap() {
        assert_eq!(g["adjudicated"], 0);
    }
    assert!(!read(&out, "games.csv").contains("adjudication"));
}

#[test]
fn bad_adjudication_options_are_refused() {
    let dir = scratch("adjudication-bad");
    for (option, value, says) in [
        (
            "--draw-adjudication",
            "movenumber=10,movecount=4",
            "needs score",
        ),
        (
            "--draw-adjudication",
            "movenumber=10,movecount=0,score=5",
            "at least 1",
        ),
        ("--resign-adjudication", "movecount=3,score=0", "above 0"),
        ("--resign-adjudication", "moves=3,score=5", "has no `moves`"),
    ] {
        let e = selfplay(&[
            "run",
            "--agent",
            "random",
            option,
            value,
            "--out",
            dir.join("x").to_str().unwrap(),
        ])
        .code(2);
        assert!(e.stderr.contains(says), "{value}: {}", e.stderr);
    }
}
