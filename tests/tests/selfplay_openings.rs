//! `--openings FILE`: each pair of games plays one suite opening with colours swapped,
//! every variant and pairing plays the same openings in the same order, the same games at
//! 1 and 2 threads, and the suite is part of the stored experiment (a `--resume` keeps it
//! and refuses another); the same for `explore`, whose suite every rule set of the family
//! must be able to play.

use agon_tests::cli::agon;
use agon_tests::selfplay::{
    assert_same_exploration, assert_same_outputs, csv_rows, read, scratch, selfplay,
};
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

/// Parses a number of a CSV cell.
fn number(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|e| panic!("`{cell}` is not a number: {e}"))
}

#[track_caller]
fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} != {want}");
}

/// The report's breakdown by opening agrees with numbers computed here from `games.csv`
/// alone: per opening, the pairs, White's pentanomial counts and score with its interval
/// (Student's t over the pair means, or the exact bound when every pair scored the same),
/// the rule-draw and ply-limit rates and the mean length.
#[test]
fn the_report_breaks_results_down_by_opening() {
    let dir = scratch("openings-report");
    let suite = dir.join("suite.agn");
    std::fs::write(&suite, SUITE).unwrap();
    let openings = suite_openings(&suite);
    let out = dir.join("out");
    let run: Vec<String> = [
        "run",
        "--variant",
        "standard",
        "--agent",
        "random",
        "--games",
        "24",
        "--max-plies",
        "40",
        "--seed",
        "11",
        "--openings",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    selfplay(&run).ok();
    let rows = csv_rows(&read(&out, "games.csv"));
    assert_eq!(rows.len(), 24);

    // Per opening (by its actions), each pair's two games.
    let mut pairs: std::collections::BTreeMap<(String, String), Vec<&_>> = Default::default();
    for row in &rows {
        pairs
            .entry((row["opening"].clone(), row["pair"].clone()))
            .or_default()
            .push(row);
    }
    let by_opening = csv_rows(&read(&out, "openings.csv"));
    assert_eq!(by_opening.len(), 3, "each of the three openings is played");
    // Student's t quantiles (0.975) for 3 degrees of freedom: 12 pairs, 4 per opening.
    const T3: f64 = 3.182_446_305_284_263;
    let mut undecided_seen = 0;
    for got in &by_opening {
        let k: usize = got["opening"].parse().unwrap();
        let moves = &openings[k - 1];
        assert_eq!(&got["label"], moves);
        let mine: Vec<&Vec<&_>> = pairs
            .iter()
            .filter(|((opening, _), _)| opening == moves)
            .map(|(_, games)| games)
            .collect();
        let games: Vec<&std::collections::BTreeMap<String, String>> =
            mine.iter().flat_map(|g| g.iter().copied()).collect();
        let white = |g: &std::collections::BTreeMap<String, String>| match g["result"].as_str() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        let mut pentanomial = [0u64; 5];
        let means: Vec<f64> = mine
            .iter()
            .map(|pair| {
                assert_eq!(pair.len(), 2);
                let half_points = white(pair[0]) + white(pair[1]);
                pentanomial[half_points] += 1;
                half_points as f64 / 4.0
            })
            .collect();
        let n = means.len() as f64;
        assert_eq!(n, 4.0);
        assert_eq!(got["pairs"], "4");
        assert_eq!(got["games"], "8");
        let columns = ["pairs_0", "pairs_half", "pairs_1", "pairs_1half", "pairs_2"];
        for (column, want) in columns.iter().zip(pentanomial) {
            assert_eq!(got[*column], want.to_string(), "{column} of {moves}");
        }
        let mean = means.iter().sum::<f64>() / n;
        close(number(&got["white_score"]), mean, "White's score");
        let (low, high) = if means.iter().all(|&m| m == means[0]) {
            let q = 0.025f64.powf(1.0 / n);
            (mean * q, mean * q + 1.0 - q)
        } else {
            let s2 = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let half = T3 * (s2 / n).sqrt();
            ((mean - half).max(0.0), (mean + half).min(1.0))
        };
        close(number(&got["white_score_low"]), low, "low end");
        close(number(&got["white_score_high"]), high, "high end");
        let share = |f: &dyn Fn(&str, &str) -> bool| {
            games
                .iter()
                .filter(|g| f(&g["result"], &g["termination"]))
                .count() as f64
                / 8.0
        };
        let draws =
            share(&|r: &str, t: &str| r == "1/2-1/2" && (t == "repetition" || t == "double-pass"));
        let undecided = share(&|r: &str, t: &str| r == "1/2-1/2" && t == "move-limit");
        undecided_seen += (undecided > 0.0) as u32;
        close(number(&got["draw_rate"]), draws, "draw rate");
        close(number(&got["undecided_rate"]), undecided, "undecided rate");
        let plies: f64 = games.iter().map(|g| number(&g["plies"])).sum();
        close(number(&got["length_mean"]), plies / 8.0, "mean length");
    }
    assert!(undecided_seen > 0, "some games stop at the ply limit");

    // The same numbers in `report --json`, and a table in the text report.
    let json: serde_json::Value = serde_json::from_str(
        &selfplay(&["report", "--json", out.to_str().unwrap()])
            .ok()
            .stdout,
    )
    .unwrap();
    let listed = json["openings"].as_array().expect("an openings array");
    assert_eq!(listed.len(), 3);
    for (j, c) in listed.iter().zip(&by_opening) {
        assert_eq!(j["opening"].to_string(), c["opening"]);
        assert_eq!(
            j["white_score"].as_f64().unwrap(),
            number(&c["white_score"])
        );
        assert_eq!(
            j["length_mean"].as_f64().unwrap(),
            number(&c["length_mean"])
        );
    }
    let text = selfplay(&["report", out.to_str().unwrap()]).ok().stdout;
    assert!(text.contains("By opening"), "{text}");
    assert!(text.contains(&openings[0]), "{text}");
}

/// `explore --openings`: a family of four rule sets raced from the suite, with ladders of
/// the survivors from the same suite.
fn explore_args(out: &Path, threads: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "explore",
        "--switch",
        "capture=line,ring",
        "--switch",
        "touch-move=off,on",
        "--agent",
        "random",
        "--budget",
        "160",
        "--max-plies",
        "120",
        "--seed",
        "6",
        "--ladder",
        "2",
        "--ladder-agent",
        "alphabeta:depth=1",
        "--ladder-games",
        "4",
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

#[test]
fn explore_with_openings_is_the_same_at_one_and_two_threads_and_from_a_config_file() {
    let dir = scratch("openings-explore");
    let suite = dir.join("suite.agn");
    std::fs::write(&suite, SUITE).unwrap();
    let openings = suite_openings(&suite);
    let suite_arg = suite.to_str().unwrap();
    let given = [
        "--openings",
        suite_arg,
        "--openings-order",
        "sequential",
        "--openings-start",
        "1",
    ];
    let (one, two) = (dir.join("one"), dir.join("two"));
    selfplay(&explore_args(&one, "1", &given)).ok();
    selfplay(&explore_args(&two, "2", &given)).ok();
    assert_same_exploration(&one, &two, &["games/games.agn"]);

    // Pair p of every rule set plays opening (1 + p) mod 3, both games of it; the random
    // opening plies are off by default with a suite, so the opening is exactly the entry.
    let report: serde_json::Value = serde_json::from_str(&read(&one, "explore.json")).unwrap();
    let spec = &report["explore"];
    assert_eq!(spec["opening_plies"], 0);
    assert_eq!(spec["openings"]["start"], 1);
    assert_eq!(spec["openings"]["openings"].as_array().unwrap().len(), 3);
    let games_per_rule_set = 2 * spec["max_pairs"].as_u64().unwrap();
    let rows = csv_rows(&read(&one, "games/games.csv"));
    let mut rule_sets = std::collections::BTreeSet::new();
    for row in &rows {
        let index: u64 = row["index"].parse().unwrap();
        let pair = (index % games_per_rule_set / 2) as usize;
        assert_eq!(row["opening"], openings[(1 + pair) % 3], "game {index}");
        rule_sets.insert(row["variant"].clone());
    }
    assert_eq!(rule_sets.len(), 4);
    // The ladders' games start from the suite too (when some rule set survived).
    if let Ok(ladder) = std::fs::read_to_string(one.join("ladder").join("games.csv")) {
        for row in csv_rows(&ladder) {
            assert!(openings.contains(&row["opening"]), "{}", row["opening"]);
        }
    }
    agon(&["validate", one.join("games/games.agn").to_str().unwrap()]).ok();
    assert!(read(&one, "index.html").contains("3 openings, sequential order from 1"));

    // The same exploration from a config file, with the openings keys.
    let config = dir.join("explore.toml");
    std::fs::write(
        &config,
        format!(
            "switch = [\"capture=line,ring\", \"touch-move=off,on\"]\nagent = \"random\"\n\
             budget = 160\nmax-plies = 120\nseed = 6\nladder = 2\n\
             ladder-agent = \"alphabeta:depth=1\"\nladder-games = 4\n\
             openings = {:?}\nopenings-order = \"sequential\"\nopenings-start = 1\n",
            suite_arg
        ),
    )
    .unwrap();
    let from_file = dir.join("file");
    selfplay(&[
        "explore",
        "--config",
        config.to_str().unwrap(),
        "--threads",
        "2",
        "--out",
        from_file.to_str().unwrap(),
    ])
    .ok();
    assert_same_exploration(&one, &from_file, &["games/games.agn"]);
}

#[test]
fn an_explored_suite_is_stored_so_resumes_and_shards_need_no_file() {
    let dir = scratch("openings-explore-resume");
    let suite = dir.join("suite.agn");
    std::fs::write(&suite, SUITE).unwrap();
    let given = [
        "--openings",
        suite.to_str().unwrap(),
        "--openings-order",
        "random",
    ];
    let whole = dir.join("whole");
    selfplay(&explore_args(&whole, "2", &given)).ok();

    // Prepared, then the file is gone: the round's shards and a resume play the stored
    // suite and end where one process ends.
    let resumed = dir.join("resumed");
    selfplay(&explore_args(
        &resumed,
        "1",
        &[&given[..], &["--prepare"]].concat(),
    ))
    .ok();
    std::fs::rename(&suite, dir.join("moved.agn")).unwrap();
    let out = resumed.to_str().unwrap();
    selfplay(&[
        "explore",
        "--out",
        out,
        "--round",
        "0",
        "--shard",
        "0/2",
        "--threads",
        "1",
    ])
    .ok();
    selfplay(&["explore", "--resume", "--out", out, "--threads", "2"]).ok();
    assert_same_exploration(&whole, &resumed, &["games/games.agn"]);

    // Another suite is another exploration.
    let other = dir.join("other.agn");
    std::fs::write(&other, "[Event \"a\"]\n\n1. h9-g9 *\n").unwrap();
    let e = selfplay(&explore_args(
        &resumed,
        "1",
        &["--openings", other.to_str().unwrap(), "--resume"],
    ))
    .code(2);
    assert!(e.stderr.contains("another exploration"), "{}", e.stderr);
}

#[test]
fn a_suite_that_some_rule_set_of_the_family_cannot_play_is_refused_whole() {
    let dir = scratch("openings-explore-bad");
    let suite = dir.join("suite.agn");
    // Moves from the standard start: not a finished placement opening.
    std::fs::write(&suite, SUITE).unwrap();
    let out = dir.join("explore");
    let e = selfplay(&[
        "explore",
        "--switch",
        "opening=standard,placement",
        "--agent",
        "random",
        "--budget",
        "40",
        "--openings",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
    .code(2);
    assert!(
        e.stderr.contains(
            "3 of its 3 opening(s) cannot be played under 1 of the 2 rule set(s); every rule \
             set plays every opening, so the suite is refused whole"
        ),
        "{}",
        e.stderr
    );
    assert!(
        e.stderr
            .contains("opening 2 (k1-k2 d1-e2) cannot start a game under `opening=placement`"),
        "{}",
        e.stderr
    );
    assert!(!out.exists(), "nothing is created");
}
