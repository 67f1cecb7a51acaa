//! End-to-end tests of `agon analyse`: known blunders and best actions in hand-built
//! positions, every ply scored, multi-PV lines in order, the same output at any thread
//! count, and invalid games reported with their place while the others are analysed.

use agon_tests::cli::{agon, agon_with_stdin, scratch, write_file as write};
use serde_json::{json, Value};

/// White's queen is on a6 and five guards hold ring 1: `f8-f7` closes the ring without
/// the queen and loses at once (six-guards), where the queen could have stepped in.
const SIX_GUARDS: &str = "[Result \"0-1\"]\n\
[Variant \"standard\"]\n\
[Position \"1g4/6g/8/g8/4GG4/Q3G2G2q/4GG4/g8/8/6g/1g4 w -\"]\n\
[Termination \"six-guards\"]\n\
\n\
1. f8-f7 0-1\n";

/// The same ring with White's queen on the throne: `f8-f7` wins (formation).
const FORMATION: &str = "[Result \"1-0\"]\n\
[Variant \"standard\"]\n\
[Position \"1g4/6g/8/g8/4GG4/4GQ1G2q/4GG4/g8/8/6g/1g4 w -\"]\n\
[Termination \"formation\"]\n\
\n\
1. f8-f7 1-0\n";

/// Three games: valid; illegal at ply 3 (line 7, column 19); valid.
const MIXED: &str = "[Event \"one\"]\n\
\n\
1. h9-g9 b7-c7 2. g9-g8 c7-c6 *\n\
\n\
[Event \"two\"]\n\
\n\
1. h9-g9 b7-c7 2. g9-g7 *\n\
\n\
[Event \"three\"]\n\
\n\
1. k1-k2 d1-e2 2. a5-a4 f11-g10 3. a4-b5 h1-i1 4. f1-f2 b7-b6 5. b5-b4 g10-g9 *\n";

/// The one JSON game of an analysis of `record`.
fn analyse_one(record: &str, agent: &str) -> Value {
    let run = agon_with_stdin(&["analyse", "--json", "--agent", agent], record).ok();
    let games = run.json_lines();
    assert_eq!(games.len(), 1, "{}", run.stdout);
    games.into_iter().next().unwrap()
}

#[test]
fn closing_the_ring_without_the_queen_is_a_blunder() {
    let game = analyse_one(SIX_GUARDS, "alphabeta:depth=3");
    let ply = &game["plies"][0];
    assert_eq!(ply["action"], "f8-f7");
    assert_eq!(
        ply["after"],
        json!({"forced": {"winner": "black", "plies": 0}})
    );
    assert_eq!(ply["class"], "blunder");
    assert_eq!(ply["nag"], 4);
    assert_eq!(ply["is_best"], false);
    assert_ne!(ply["best"][0]["pv"][0], "f8-f7");
    // The loss is the score before (clipped to 10.00) less a lost game (-10.00).
    let before = ply["before"]["units"].as_i64().expect("a score in units");
    assert_eq!(
        ply["loss"].as_i64().unwrap(),
        before.clamp(-1000, 1000) + 1000
    );
    assert_eq!(game["white"]["blunders"], 1);
    assert_eq!(game["white"]["plies"], 1);
    assert_eq!(game["black"]["plies"], 0);
    // Records on stdout, summaries on stderr.
    let run = agon_with_stdin(&["analyse", "--agent", "alphabeta:depth=3"], SIX_GUARDS).code(0);
    assert!(
        run.stderr
            .starts_with("<stdin> game 1: White average loss "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains(
        "over 1 ply (0 inaccuracies, 0 mistakes, 1 blunder); Black average loss 0.00 over 0 plies"
    ));
    // The record: the engine named, the summary before the first ply, the blunder's NAG and
    // the engine's choice after it.
    let best = ply["best"][0]["pv"][0].as_str().unwrap();
    assert!(run
        .stdout
        .contains("[Annotator \"agon analyse alphabeta:depth=3,contempt=0\"]"));
    assert!(
        run.stdout.contains("\n{analysis: White average loss "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with(&format!("1. f8-f7 $4 {{#-0 best: {best}}} 0-1\n")),
        "{}",
        run.stdout
    );
}

#[test]
fn the_winning_action_is_best_and_loses_nothing() {
    let game = analyse_one(FORMATION, "alphabeta:depth=3");
    let ply = &game["plies"][0];
    assert_eq!(
        ply["before"],
        json!({"forced": {"winner": "white", "plies": 1}})
    );
    assert_eq!(
        ply["after"],
        json!({"forced": {"winner": "white", "plies": 0}})
    );
    assert_eq!(ply["is_best"], true);
    assert_eq!(ply["loss"], 0);
    assert_eq!(ply["class"], Value::Null);
    assert_eq!(ply["best"][0]["pv"], json!(["f8-f7"]));
}

/// A score from White's view as a number that orders scores (forced results beyond any
/// evaluation, the nearer the larger).
fn white_value(score: &Value) -> i64 {
    if let Some(units) = score["units"].as_i64() {
        return units;
    }
    let plies = score["forced"]["plies"].as_i64().unwrap();
    match score["forced"]["winner"].as_str().unwrap() {
        "white" => 1_000_000 - plies,
        _ => plies - 1_000_000,
    }
}

#[test]
fn every_ply_is_scored_and_lines_come_best_first() {
    let game = analyse_one(
        MIXED.split("[Event \"two\"]").next().unwrap(),
        "alphabeta:depth=3",
    );
    let plies = game["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 4);
    let game3 = agon_with_stdin(
        &[
            "analyse",
            "--json",
            "--agent",
            "alphabeta:depth=3",
            "--multipv",
            "3",
        ],
        MIXED
            .rsplit("\n\n[Event")
            .next()
            .map(|g| format!("[Event{g}"))
            .unwrap()
            .as_str(),
    )
    .ok()
    .json_lines();
    let plies = game3[0]["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 10);
    for (k, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], k + 1);
        assert!(
            ply["before"].is_object() && ply["after"].is_object(),
            "{ply}"
        );
        let lines = ply["best"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{ply}");
        // Best first for the side that decides: descending for White, ascending for Black.
        let sign = if ply["decider"] == "white" { 1 } else { -1 };
        let values: Vec<i64> = lines
            .iter()
            .map(|l| sign * white_value(&l["score"]))
            .collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        assert_eq!(lines[0]["score"], ply["before"]);
        let played = lines.iter().find(|l| l["pv"][0] == ply["action"]);
        if let Some(line) = played {
            // An action among the exact lines is scored by its line.
            assert_eq!(line["score"], ply["after"], "{ply}");
        }
        let loss = sign
            * (white_value(&ply["before"]).clamp(-1000, 1000)
                - white_value(&ply["after"]).clamp(-1000, 1000));
        if ply["is_best"] == false {
            assert_eq!(ply["loss"].as_i64().unwrap(), loss.max(0), "{ply}");
        }
    }
}

#[test]
fn annotated_records_validate_are_canonical_and_score_every_ply() {
    let dir = scratch("analyse-records");
    let input = write(&dir, "games.agn", &MIXED.replace("2. g9-g7", "2. g9-g8"));
    let run = agon(&["analyse", "--agent", "alphabeta:depth=3", &input]).code(0);
    assert_eq!(run.stderr.lines().count(), 3, "{}", run.stderr);
    let annotated = write(&dir, "annotated.agn", &run.stdout);
    let valid = agon(&["validate", "--json", &annotated]).ok().json_lines();
    assert_eq!(valid.len(), 3);
    assert_eq!(
        valid
            .iter()
            .map(|g| g["plies"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [4, 3, 10]
    );
    // Canonical already: fmt changes nothing.
    agon(&["fmt", "--check", &annotated]).ok();
    // Every ply is followed by its score comment: `{+0.35/3}`, `{-1.20/3 best: ...}`.
    let json = agon(&["convert", "--to", "json", &annotated]).ok();
    let games: Vec<Value> = json.json_lines();
    assert_eq!(games.len(), 3);
    for game in &games {
        assert!(game["comments"][0]
            .as_str()
            .unwrap()
            .starts_with("analysis: White average loss "));
        for (k, ply) in game["moves"].as_array().unwrap().iter().enumerate() {
            let comments = ply["comments"].as_array().unwrap();
            assert_eq!(comments.len(), 1, "ply {}: {ply}", k + 1);
            let text = comments[0].as_str().unwrap();
            assert!(is_score_comment(text), "ply {}: {text}", k + 1);
        }
    }
    // With -o the records go to the file and the summaries to stdout.
    let output = dir.join("out.agn");
    let run = agon(&[
        "analyse",
        "--agent",
        "alphabeta:depth=3",
        &input,
        "-o",
        output.to_str().unwrap(),
    ])
    .ok();
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    assert!(run
        .stdout
        .starts_with(&format!("{input} game 1: White average loss ")));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        std::fs::read_to_string(&annotated).unwrap()
    );
}

/// Whether a comment is a score comment: `+0.35/3`, `-1.20/3 best: d9-d8`, `0.00/3`, `#+2/3`.
fn is_score_comment(text: &str) -> bool {
    let (score, best) = match text.split_once(" best: ") {
        Some((score, best)) => (score, Some(best)),
        None => (text, None),
    };
    let Some((value, depth)) = score.split_once('/') else {
        return score.starts_with('#');
    };
    let number = value.strip_prefix(['+', '-']).unwrap_or(value);
    let units_ok = number.split_once('.').is_some_and(|(a, b)| {
        !a.is_empty() && a.chars().all(|c| c.is_ascii_digit()) && b.len() == 2
    });
    let forced_ok = value.starts_with("#+") || value.starts_with("#-");
    (units_ok || forced_ok)
        && depth.parse::<u32>().is_ok_and(|d| d > 0)
        && best.is_none_or(|b| !b.is_empty() && !b.contains(' '))
}

#[test]
fn invalid_games_are_reported_and_the_others_analysed() {
    let dir = scratch("analyse-mixed");
    let file = write(&dir, "mixed.agn", MIXED);
    let run = agon(&["analyse", "--json", "--agent", "alphabeta:depth=2", &file]).code(1);
    let games = run.json_lines();
    assert_eq!(games.len(), 3, "{}", run.stdout);
    assert_eq!(games[0]["game"], 1);
    assert_eq!(games[0]["plies"].as_array().unwrap().len(), 4);
    assert_eq!(games[1]["game"], 2);
    assert_eq!(games[1]["error"]["line"], 7);
    assert_eq!(games[1]["error"]["column"], 19);
    assert_eq!(games[1]["error"]["ply"], 3);
    assert_eq!(games[2]["game"], 3);
    assert_eq!(games[2]["plies"].as_array().unwrap().len(), 10);
    assert!(
        run.stderr.contains(&format!(
            "agon: {file}:7:19: game 2, ply 3 (move 2, White): g9-g7 is not legal: g7 is not next to g9"
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("2 games analysed, 1 invalid"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_output_does_not_depend_on_the_thread_count() {
    let dir = scratch("analyse-threads");
    let file = write(&dir, "games.agn", &MIXED.replace("2. g9-g7", "2. g9-g8"));
    let args = |threads: &'static str| {
        agon(&[
            "analyse",
            "--json",
            "--agent",
            "alphabeta:depth=3,noise=20,seed=4",
            "--multipv",
            "2",
            "--threads",
            threads,
            &file,
        ])
        .ok()
        .stdout
    };
    let one = args("1");
    assert_eq!(one.lines().count(), 3);
    assert_eq!(one, args("2"));
    assert_eq!(one, args("3"));
}

#[test]
fn output_goes_to_a_file_and_bad_options_are_refused() {
    let dir = scratch("analyse-options");
    let input = write(&dir, "game.agn", FORMATION);
    let output = dir.join("analysis.json");
    let run = agon(&[
        "analyse",
        "--json",
        "--agent",
        "alphabeta:depth=2",
        &input,
        "-o",
        output.to_str().unwrap(),
    ])
    .ok();
    assert_eq!(run.stdout, "");
    let text = std::fs::read_to_string(&output).unwrap();
    assert_eq!(text.lines().count(), 1);
    let refused = agon(&["analyse", "--agent", "mcts", &input]).code(2);
    assert!(
        refused
            .stderr
            .contains("`mcts` is not the alpha-beta agent"),
        "{}",
        refused.stderr
    );
    let lines = agon(&["analyse", "--multipv", "0", &input]).code(2);
    assert!(lines
        .stderr
        .contains("--multipv takes a number from 1 to 256, not 0"));
    let same = agon(&["analyse", &input, "-o", &input]).code(2);
    assert!(same.stderr.contains("is also an input"), "{}", same.stderr);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), FORMATION);
}

/// `agon analyse` of its own output gives the same bytes: the first analysis's comments
/// and judgement NAGs are replaced, not doubled, and the user's comments, suffixes and
/// other NAGs stay where they were.
#[test]
fn analysing_an_analysed_record_changes_nothing() {
    let record = "[Event \"annotated\"]\n\n{from a club match} 1. h9-g9 {+1.00} $1 b7-c7?! \
                  2. g9-g8 {a user's note} c7-c6 *\n";
    let agent = "alphabeta:depth=3";
    let once = agon_with_stdin(&["analyse", "--agent", agent], record)
        .code(0)
        .stdout;
    let twice = agon_with_stdin(&["analyse", "--agent", agent], &once)
        .code(0)
        .stdout;
    assert_eq!(twice, once, "analyse(analyse(x)) == analyse(x)");
    for kept in [
        "{from a club match}",
        "{+1.00}",
        "$1",
        "b7-c7?!",
        "{a user's note}",
    ] {
        assert!(once.contains(kept), "{kept} is kept:\n{once}");
    }
    assert_eq!(once.matches("{analysis: ").count(), 1, "{once}");
    assert_eq!(once.matches("[Annotator ").count(), 1, "{once}");
    // One score comment per ply, after the user's.
    let json = agon_with_stdin(&["convert", "--to", "json"], &twice)
        .ok()
        .json_lines();
    let moves = json[0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    for ply in moves {
        let comments = ply["comments"].as_array().unwrap();
        let scores = comments
            .iter()
            .filter(|c| is_score_comment(c.as_str().unwrap()))
            .count();
        assert_eq!(scores, 1, "{ply}");
        assert!(is_score_comment(comments.last().unwrap().as_str().unwrap()));
    }
    // Another engine replaces the first one's analysis.
    let deeper = agon_with_stdin(&["analyse", "--agent", "alphabeta:depth=2"], &once).code(0);
    let fresh = agon_with_stdin(&["analyse", "--agent", "alphabeta:depth=2"], record).code(0);
    assert_eq!(deeper.stdout, fresh.stdout);
}
