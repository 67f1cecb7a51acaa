//! The command line of `agon-selfplay`: config files, errors with clear messages, and the
//! round-robin tournament with Elo ratings.

use agon_tests::selfplay::{assert_same_outputs, csv_rows, read, scratch, selfplay};
use serde_json::Value;

#[test]
fn a_config_file_holds_the_same_experiment_as_the_flags() {
    let dir = scratch("cli-config");
    let flags = dir.join("flags");
    selfplay(&[
        "run",
        "--variant",
        "standard",
        "--variant",
        "repetition=off",
        "--agent",
        "random",
        "--games",
        "6",
        "--opening-plies",
        "2",
        "--max-plies",
        "300",
        "--seed",
        "9",
        "--out",
        flags.to_str().unwrap(),
    ])
    .ok();
    let json = dir.join("e.json");
    std::fs::write(
        &json,
        r#"{"variants": ["standard", "repetition=off"], "agent": "random", "games": 6,
           "opening-plies": 2, "max-plies": 300, "seed": 9}"#,
    )
    .unwrap();
    let toml = dir.join("e.toml");
    std::fs::write(
        &toml,
        "variants = [\"standard\", \"repetition=off\"]\nagent = \"random\"\ngames = 3\n\
         opening-plies = 2\nmax-plies = 300\nseed = 9\n",
    )
    .unwrap();
    let from_json = dir.join("json");
    selfplay(&[
        "run",
        "--config",
        json.to_str().unwrap(),
        "--out",
        from_json.to_str().unwrap(),
    ])
    .ok();
    assert_same_outputs(&flags, &from_json);
    // Flags override the file (here its games count).
    let from_toml = dir.join("toml");
    selfplay(&[
        "run",
        "--config",
        toml.to_str().unwrap(),
        "--games",
        "6",
        "--out",
        from_toml.to_str().unwrap(),
    ])
    .ok();
    assert_same_outputs(&flags, &from_toml);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("cli-errors");
    let out = dir.join("x");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["run", "--variant", "capture=square", "--out", out],
            "capture=square",
        ),
        (
            &["run", "--agent", "wizard", "--out", out],
            "unknown agent `wizard`",
        ),
        (
            &["run", "--games", "0", "--out", out],
            "--games must be at least 1",
        ),
        (&["run", "--shard", "3/3", "--out", out], "not a shard"),
        (&["run", "--variant", "standard"], "--out"),
        (
            &[
                "run",
                "--variant",
                "standard",
                "--variant",
                "repetition=3",
                "--out",
                out,
            ],
            "given twice",
        ),
    ];
    for (args, message) in cases {
        let run = selfplay(args).code(2);
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let run = selfplay(&["report", dir.join("nothing").to_str().unwrap()]).code(2);
    assert!(run.stderr.contains("experiment.json"), "{}", run.stderr);
}

#[test]
fn a_tournament_rates_every_agent() {
    let dir = scratch("cli-tournament");
    let out = dir.join("t");
    let run = selfplay(&[
        "tournament",
        "--agent",
        "random",
        "--agent",
        "greedy",
        "--agent",
        "greedy:noise=5",
        "--games",
        "8",
        "--max-plies",
        "300",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ])
    .ok();
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let ratings = &json["ratings"];
    assert_eq!(ratings["games"], 24);
    let agents = ratings["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 3);
    let total: f64 = agents.iter().map(|a| a["elo"].as_f64().unwrap()).sum();
    assert!(total.abs() < 1e-6, "ratings are centred on 0");
    for a in agents {
        assert_eq!(a["games"], 16);
        assert!(a["error95"].as_f64().unwrap() > 0.0);
    }
    // Ranked strongest first.
    let elos: Vec<f64> = agents.iter().map(|a| a["elo"].as_f64().unwrap()).collect();
    assert!(elos.windows(2).all(|w| w[0] >= w[1]));
    let pairwise = ratings["pairwise"].as_array().unwrap();
    assert_eq!(pairwise.len(), 6);
    for c in pairwise {
        let back = pairwise
            .iter()
            .find(|d| d["agent"] == c["opponent"] && d["opponent"] == c["agent"])
            .unwrap();
        let sum = c["score"].as_f64().unwrap() + back["score"].as_f64().unwrap();
        assert!((sum - 1.0).abs() < 1e-12);
        let d = c["elo_difference"].as_f64().unwrap();
        assert!((d + back["elo_difference"].as_f64().unwrap()).abs() < 1e-9);
        let (low, high) = (c["low"].as_f64().unwrap(), c["high"].as_f64().unwrap());
        assert!(low < d && d < high, "{c}");
        let los = c["los"].as_f64().unwrap();
        assert!((los + back["los"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    }
    let crosstable = ratings["crosstable"].as_array().unwrap();
    assert_eq!(crosstable.len(), 6);
    for c in crosstable {
        let games: u64 = ["wins", "draws", "undecided", "losses"]
            .iter()
            .map(|k| c[k].as_u64().unwrap())
            .sum();
        assert_eq!(games, 8);
    }
    // The ratings are saved with the summary, and on each pairing's CSV row.
    let summary: Value = serde_json::from_str(&read(&out, "summary.json")).unwrap();
    assert_eq!(&summary["ratings"], ratings);
    let summary_rows = csv_rows(&read(&out, "summary.csv"));
    let pairing = summary_rows
        .iter()
        .find(|r| r["pairing"] == "random vs greedy")
        .unwrap();
    let difference: f64 = pairing["rating_difference"].parse().unwrap();
    let expected = pairwise
        .iter()
        .find(|p| p["agent"] == "random" && p["opponent"] == "greedy")
        .unwrap()["elo_difference"]
        .as_f64()
        .unwrap();
    assert!((difference - expected).abs() < 1e-9);
    // Each pairing plays colour-swapped pairs on shared openings.
    let rows = csv_rows(&read(&out, "games.csv"));
    assert_eq!(rows.len(), 24);
    for pair in rows.chunks(2) {
        assert_eq!(pair[0]["white"], pair[1]["black"]);
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
    }
    let report = selfplay(&["report", out.to_str().unwrap()]).ok();
    assert!(
        report.stdout.contains("Elo ratings (24 games"),
        "{}",
        report.stdout
    );
    assert!(report.stdout.contains("all pairings"));
    assert!(report.stdout.contains("Crosstable"));
    // An anchor fixes the scale: the anchored agent gets its rating exactly.
    let anchored = selfplay(&[
        "report",
        out.to_str().unwrap(),
        "--anchor",
        "random=0",
        "--json",
    ])
    .ok();
    let summary: Value = serde_json::from_str(&anchored.stdout).unwrap();
    let random = summary["ratings"]["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == "random")
        .unwrap()
        .clone();
    assert_eq!(random["elo"], 0.0);
    assert_eq!(random["error95"], 0.0);
}

#[test]
fn a_gauntlet_pairs_the_first_agent_with_each_other() {
    let run = selfplay(&[
        "tournament",
        "--gauntlet",
        "--agent",
        "greedy",
        "--agent",
        "random",
        "--agent",
        "random:seed=3",
        "--games",
        "4",
        "--max-plies",
        "200",
        "--json",
    ])
    .ok();
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let pairings: Vec<String> = json["experiment"]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{} vs {}",
                p["first"].as_str().unwrap(),
                p["second"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(pairings.len(), 2);
    assert!(
        pairings.iter().all(|p| p.starts_with("greedy vs ")),
        "{pairings:?}"
    );
    assert_eq!(json["ratings"]["games"], 8);
}

#[test]
fn time_limited_agents_are_flagged() {
    let dir = scratch("cli-time-limited");
    let run = selfplay(&[
        "run",
        "--white",
        "alphabeta:ms=1",
        "--black",
        "random",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--out",
        dir.to_str().unwrap(),
    ])
    .ok();
    assert!(
        run.stdout
            .contains("2 game(s) used time-limited agents and are not reproducible"),
        "{}",
        run.stdout
    );
    let rows = csv_rows(&read(&dir, "games.csv"));
    assert!(rows.iter().all(|r| r["time_limited"] == "1"));
    let summary: Value = serde_json::from_str(&read(&dir, "summary.json")).unwrap();
    assert_eq!(summary["time_limited_games"], 2);
    assert_eq!(
        read(&dir, "games.agn")
            .matches("[TimeLimited \"yes\"]")
            .count(),
        2
    );
}

#[test]
fn plan_states_pairs_and_detectable_effects() {
    // The issue's example: 2 points at 50% draws, 80% power, 5% two-sided:
    // ((1.959964 + 0.841621)·0.25/0.02)² = 1226.4 -> 1227 pairs.
    let run = selfplay(&[
        "plan",
        "--effect",
        "0.02",
        "--draw-rate",
        "0.5",
        "--power",
        "0.8",
    ])
    .ok();
    assert!(
        run.stdout.contains("1227 pairs (2454 games)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("+14 Elo"), "{}", run.stdout);
    let json = selfplay(&["plan", "--effect", "0.02", "--margin", "0.02", "--json"]).ok();
    let plan: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(plan["detect"]["pairs"], 1227);
    // Equivalence within ±2 points: ((1.644854 + 1.281552)·0.25/0.02)² = 1338.1.
    assert_eq!(plan["equivalence"]["pairs"], 1339);
    let inverse = selfplay(&["plan", "--games", "2454", "--draw-rate", "0.5", "--json"]).ok();
    let plan: Value = serde_json::from_str(&inverse.stdout).unwrap();
    let effect = plan["detect"]["effect"].as_f64().unwrap();
    assert!(effect > 0.0199 && effect < 0.02, "{effect}");
    for (args, message) in [
        (vec!["plan", "--effect", "0.7"], "--effect"),
        (
            vec!["plan", "--effect", "0.02", "--power", "1.5"],
            "--power",
        ),
        (
            vec!["plan", "--effect", "0.02", "--draw-rate", "1"],
            "--draw-rate",
        ),
    ] {
        let out = selfplay(&args).code(2);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }
}
