//! `agon filter`, `dedupe`, `split` and `stats` agree with `agon validate --json` (and, for
//! what validate does not print, `agon convert`) on the same corpus: every expected count
//! below is computed from those commands' output, never typed in.
//!
//! The corpus: self-play games of two rule sets, the hand-made records of
//! `tests/data/records` (valid and invalid, so invalid games sit between valid ones), and
//! the self-play games a second time (so that there are duplicates).

use agon_tests::cli::{agon, agon_with_stdin, scratch, Run};
use agon_tests::selfplay::selfplay;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The corpus as files, in order, made in the test's own directory (which is removed when
/// the test ends; the self-play part is a few random games).
fn corpus(dir: &Path) -> Vec<String> {
    make_corpus(&dir.join("corpus"))
}

fn make_corpus(dir: &Path) -> Vec<String> {
    let out = dir.join("selfplay");
    selfplay(&[
        "run",
        "--variant",
        "standard",
        "--variant",
        "ludii",
        "--agent",
        "random",
        "--games",
        "20",
        "--opening-plies",
        "2",
        "--max-plies",
        "150",
        "--seed",
        "5",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ])
    .ok();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/records");
    let mut files = vec![out.join("games.agn")];
    for folder in ["valid", "invalid"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(data.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        found.sort();
        files.extend(found);
    }
    files.push(out.join("games.agn"));
    files
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect()
}

fn with<'a>(args: &[&'a str], files: &'a [String]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(files.iter().map(String::as_str));
    all
}

/// The valid games of `validate --json`.
fn validated(files: &[String]) -> (usize, Vec<Value>) {
    let run = agon(&with(&["validate", "--json"], files)).code(1);
    let games = run.json_lines();
    let total = games.len();
    let valid = games.into_iter().filter(|g| g["valid"] == true).collect();
    (total, valid)
}

fn count(games: &[Value], test: impl Fn(&Value) -> bool) -> usize {
    games.iter().filter(|g| test(g)).count()
}

fn number(run: &Run) -> usize {
    run.stdout.trim().parse().unwrap()
}

#[test]
fn stats_agree_with_validate() {
    let dir = scratch("corpus-stats");
    let files = corpus(&dir);
    let (total, valid) = validated(&files);
    assert!(valid.len() > 40, "{}", valid.len());
    let run = agon(&with(
        &["stats", "--json", "--threads", "2", "--batch-games", "3"],
        &files,
    ))
    .code(1);
    let stats: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(stats["games"], total);
    assert_eq!(stats["invalid"], total - valid.len());
    // Invalid games are reported on stderr with their place, as validate does.
    assert!(
        run.stderr.contains("illegal.agn:6:19: game 2, ply 3"),
        "{}",
        run.stderr
    );

    let mut variants: Vec<String> = Vec::new();
    for game in &valid {
        let variant = game["variant"].as_str().unwrap().to_string();
        if !variants.contains(&variant) {
            variants.push(variant);
        }
    }
    let reported: Vec<&str> = stats["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(reported, variants, "rule sets in order of first appearance");
    for entry in stats["variants"].as_array().unwrap() {
        let games: Vec<&Value> = valid
            .iter()
            .filter(|g| g["variant"] == entry["variant"])
            .collect();
        assert_eq!(entry["games"], games.len());
        for result in ["1-0", "0-1", "1/2-1/2", "*"] {
            let n = games.iter().filter(|g| g["result"] == result).count();
            assert_eq!(entry["results"][result], n, "{} {result}", entry["variant"]);
        }
        let mut terminations: BTreeMap<String, usize> = BTreeMap::new();
        for game in &games {
            let name = game["termination"].as_str().unwrap_or("none").to_string();
            *terminations.entry(name).or_default() += 1;
        }
        let reported: BTreeMap<String, usize> =
            serde_json::from_value(entry["terminations"].clone()).unwrap();
        assert_eq!(reported, terminations, "{}", entry["variant"]);
        let plies: Vec<u64> = games.iter().map(|g| g["plies"].as_u64().unwrap()).collect();
        assert_eq!(entry["plies"]["total"], plies.iter().sum::<u64>());
        assert_eq!(entry["plies"]["min"], *plies.iter().min().unwrap());
        assert_eq!(entry["plies"]["max"], *plies.iter().max().unwrap());
        let captures: u64 = games.iter().map(|g| g["captures"].as_u64().unwrap()).sum();
        assert_eq!(entry["captures"]["total"], captures);
    }

    // The same numbers on one thread, and as CSV (one row per rule set).
    let one = agon(&with(&["stats", "--json", "--threads", "1"], &files)).code(1);
    assert_eq!(one.stdout, run.stdout);
    let csv = agon(&with(&["stats", "--csv"], &files)).code(1);
    assert_eq!(csv.lines().len(), variants.len() + 1);
}

#[test]
fn filter_counts_agree_with_validate() {
    let dir = scratch("corpus-filter");
    let files = corpus(&dir);
    let (_, valid) = validated(&files);
    let filtered = |args: &[&str]| {
        number(&agon(&with(&[&["filter", "--count"], args].concat(), &files)).code(1))
    };

    assert_eq!(filtered(&[]), valid.len());
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        assert_eq!(
            filtered(&["--result", result]),
            count(&valid, |g| g["result"] == result),
            "{result}"
        );
    }
    assert_eq!(
        filtered(&["--variant", "ludii"]),
        count(&valid, |g| g["variant"] == "ludii")
    );
    assert_eq!(
        filtered(&["--tag", "Variant=ludii", "--invert"]),
        count(&valid, |g| g["variant"] != "ludii")
    );
    for termination in ["repetition", "move-limit", "formation", "none"] {
        let want = count(&valid, |g| {
            g["termination"].as_str().unwrap_or("none") == termination
        });
        assert_eq!(
            filtered(&["--termination", termination]),
            want,
            "{termination}"
        );
    }
    assert_eq!(
        filtered(&["--min-plies", "10", "--max-plies", "100"]),
        count(&valid, |g| (10..=100)
            .contains(&g["plies"].as_u64().unwrap()))
    );
    assert_eq!(
        filtered(&[
            "--tag-regex",
            "Variant=^(standard|ludii)$",
            "--result",
            "1-0"
        ]),
        count(&valid, |g| {
            (g["variant"] == "standard" || g["variant"] == "ludii") && g["result"] == "1-0"
        })
    );

    // What filter prints validates, game for game, and stdin gives the same output.
    let out = dir.join("wins.agn");
    let all_files = with(
        &["filter", "--result", "1-0", "-o", out.to_str().unwrap()],
        &files,
    );
    agon(&all_files).code(1);
    let (_, printed) = validated_ok(&[out.to_str().unwrap().to_string()]);
    assert_eq!(printed.len(), count(&valid, |g| g["result"] == "1-0"));
    assert!(printed.iter().all(|g| g["result"] == "1-0"));
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let piped = agon_with_stdin(&["filter", "--result", "1-0"], &text).ok();
    let direct = agon(&["filter", "--result", "1-0", &files[0]]).ok();
    assert_eq!(piped.stdout, direct.stdout);
}

/// `convert --to json` and `--to positions`, per valid game in input order.
fn converted(files: &[String]) -> (Vec<Value>, Vec<Vec<String>>) {
    let games = agon(&with(&["convert", "--to", "json"], files))
        .code(1)
        .json_lines();
    let positions = agon(&with(&["convert", "--to", "positions"], files))
        .code(1)
        .json_lines();
    let mut per_game: Vec<Vec<String>> = Vec::new();
    for p in positions {
        if p["ply"] == 0 {
            per_game.push(Vec::new());
        }
        per_game
            .last_mut()
            .unwrap()
            .push(p["position"].as_str().unwrap().to_string());
    }
    assert_eq!(games.len(), per_game.len());
    (games, per_game)
}

#[test]
fn dedupe_and_reaches_agree_with_convert() {
    let dir = scratch("corpus-dedupe");
    let files = corpus(&dir);
    let (_, valid) = validated(&files);
    let (games, positions) = converted(&files);
    assert_eq!(games.len(), valid.len());

    let mut by_actions = HashSet::new();
    for game in &games {
        let actions: Vec<String> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["action"].as_str().unwrap().to_string())
            .collect();
        by_actions.insert((
            game["variant"].to_string(),
            game["start"].to_string(),
            actions,
        ));
    }
    let run = agon(&with(&["dedupe", "--threads", "2"], &files)).code(1);
    let unique = agon_with_stdin(&["validate", "--json"], &run.stdout)
        .ok()
        .json_lines();
    assert_eq!(unique.len(), by_actions.len());
    assert!(unique.len() < valid.len(), "the corpus holds duplicates");
    assert!(run.stderr.contains(&format!(
        "{} unique games of {}, {} duplicates dropped",
        by_actions.len(),
        valid.len(),
        valid.len() - by_actions.len()
    )));

    let ends: HashSet<(String, String)> = games
        .iter()
        .zip(&positions)
        .map(|(g, p)| (g["variant"].to_string(), p.last().unwrap().clone()))
        .collect();
    let run = agon(&with(&["dedupe", "--by", "position", "-q"], &files)).code(1);
    let unique = agon_with_stdin(&["validate", "--json"], &run.stdout)
        .ok()
        .json_lines();
    assert_eq!(unique.len(), ends.len());
    assert_eq!(
        run.stderr.lines().filter(|l| l.contains("dedupe")).count(),
        0
    );

    // --reaches: the games that pass through a position some game reaches at ply 4.
    let target = positions.iter().find(|p| p.len() > 6).unwrap()[4].clone();
    let want = positions.iter().filter(|p| p.contains(&target)).count();
    let run = agon(&with(&["filter", "--count", "--reaches", &target], &files)).code(1);
    assert_eq!(number(&run), want);
    assert!(want >= 1);

    // --contains: the games that play an action.
    let action = games[0]["moves"][1]["action"].as_str().unwrap().to_string();
    let want = games
        .iter()
        .filter(|g| {
            g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["action"] == action.as_str())
        })
        .count();
    let run = agon(&with(&["filter", "--count", "--contains", &action], &files)).code(1);
    assert_eq!(number(&run), want);
}

#[test]
fn split_files_hold_every_game_once() {
    let dir = scratch("corpus-split");
    let files = corpus(&dir);
    let (_, valid) = validated(&files);

    let parts = dir.join("parts");
    let run = agon(&with(
        &["split", "--every", "7", "-d", parts.to_str().unwrap()],
        &files,
    ))
    .code(1);
    let listed: Vec<(String, usize)> = run
        .lines()
        .iter()
        .map(|l| {
            let (path, n) = l.split_once('\t').unwrap();
            (path.to_string(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(listed.len(), valid.len().div_ceil(7));
    assert_eq!(listed.iter().map(|(_, n)| n).sum::<usize>(), valid.len());
    let paths: Vec<String> = listed.iter().map(|(p, _)| p.clone()).collect();
    assert!(paths[0].ends_with("part-0001.agn"));
    // Read back in order, the parts are the corpus's valid games in canonical form.
    let (_, again) = validated_ok(&paths);
    assert_eq!(again.len(), valid.len());
    for (a, b) in again.iter().zip(&valid) {
        for key in ["variant", "plies", "result", "termination", "captures"] {
            assert_eq!(a[key], b[key]);
        }
    }
    let joined: String = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(joined, agon(&with(&["filter"], &files)).code(1).stdout);

    let by_variant = dir.join("by-variant");
    let run = agon(&with(
        &[
            "split",
            "--by-tag",
            "Variant",
            "-d",
            by_variant.to_str().unwrap(),
        ],
        &files,
    ))
    .code(1);
    for line in run.lines() {
        let (path, n) = line.split_once('\t').unwrap();
        let n: usize = n.parse().unwrap();
        let (_, games) = validated_ok(&[path.to_string()]);
        assert_eq!(games.len(), n);
        let variant = games[0]["variant"].clone();
        assert!(games.iter().all(|g| g["variant"] == variant));
        assert_eq!(n, count(&valid, |g| g["variant"] == variant), "{path}");
    }
}

fn validated_ok(files: &[String]) -> (usize, Vec<Value>) {
    let games = agon(&with(&["validate", "--json"], files))
        .ok()
        .json_lines();
    (games.len(), games)
}

#[test]
fn bad_conditions_are_refused_before_reading() {
    let run = agon(&["filter", "--tag", "Event"]).code(2);
    assert!(
        run.stderr.contains("--tag takes NAME=VALUE, not `Event`"),
        "{}",
        run.stderr
    );
    let run = agon(&["filter", "--tag-regex", "Event=("]).code(2);
    assert!(
        run.stderr.contains("is not a regular expression"),
        "{}",
        run.stderr
    );
    let run = agon(&["filter", "--result", "2-0"]).code(2);
    assert!(
        run.stderr.contains("`2-0` is not a result"),
        "{}",
        run.stderr
    );
    let run = agon(&["filter", "--min-plies", "9", "--max-plies", "3"]).code(2);
    assert!(run.stderr.contains("no game can match"), "{}", run.stderr);
    let run = agon(&["filter", "--reaches", "nonsense"]).code(2);
    assert!(
        run.stderr.starts_with("agon: --reaches: "),
        "{}",
        run.stderr
    );
    let run = agon(&["split", "--every", "0"]).code(2);
    assert!(
        run.stderr.contains("--every takes a number"),
        "{}",
        run.stderr
    );
}

/// An opening as `convert` shows it: rule set, start and actions.
type OpeningKey = (String, String, Vec<String>);

#[test]
fn book_counts_agree_with_convert() {
    let dir = scratch("corpus-book");
    let files = corpus(&dir);
    let (games, _) = converted(&files);
    // The expected suite: the first 3 plies of every game of at least 3 plies whose
    // prefix does not end the game, counted.
    let mut counts: Vec<(OpeningKey, usize)> = Vec::new();
    for game in &games {
        let moves = game["moves"].as_array().unwrap();
        if moves.len() < 3 {
            continue;
        }
        let prefix: Vec<String> = moves[..3]
            .iter()
            .map(|m| m["action"].as_str().unwrap().to_string())
            .collect();
        // A prefix that is the whole game, ended by the rules, is no opening.
        let rule_end = [
            "formation",
            "six-guards",
            "no-moves",
            "repetition",
            "double-pass",
        ];
        let ended = game["termination"]
            .as_str()
            .is_some_and(|t| rule_end.contains(&t));
        if moves.len() == 3 && ended {
            continue;
        }
        let key = (
            game["variant"].to_string(),
            game["start"].to_string(),
            prefix,
        );
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => counts.push((key, 1)),
        }
    }
    let frequent = counts.iter().filter(|(_, n)| *n >= 2).count();
    let run = agon(&with(&["book", "--plies", "3", "--min-count", "2"], &files)).code(1);
    let suite = agon_with_stdin(&["convert", "--to", "json"], &run.stdout)
        .ok()
        .json_lines();
    assert_eq!(suite.len(), frequent);
    assert!(frequent >= 1);
    let mut last = usize::MAX;
    for opening in &suite {
        let count: usize = opening["tags"]["Count"].as_str().unwrap().parse().unwrap();
        assert!(count <= last, "most frequent first");
        last = count;
        let actions: Vec<String> = opening["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["action"].as_str().unwrap().to_string())
            .collect();
        let key = (
            opening["variant"].to_string(),
            opening["start"].to_string(),
            actions,
        );
        let want = counts.iter().find(|(k, _)| *k == key).map(|(_, n)| *n);
        assert_eq!(want, Some(count));
    }
    assert!(
        run.stderr
            .contains(&format!("agon book: {frequent} opening")),
        "{}",
        run.stderr
    );
    // As positions: one line per opening.
    let run = agon(&with(
        &["book", "--plies", "3", "--min-count", "2", "--positions"],
        &files,
    ))
    .code(1);
    assert_eq!(run.lines().len(), frequent);
}

/// Two one-ply openings: from a hand-built position where White's queen holds the throne
/// inside a ring of guards that one more step closes (White wins at once or soon: clearly
/// lopsided), and from the standard start (about equal).
const LOPSIDED_AND_BALANCED: &str = "[Event \"lopsided\"]\n\
[Variant \"standard\"]\n\
[Position \"1g4/6g/8/g8/4GG4/4GQ1G2q/4GG4/g8/8/6g/1g4 w -\"]\n\
\n\
1. f8-g7 *\n\
\n\
[Event \"balanced\"]\n\
\n\
1. h9-g9 b7-c7 *\n";

#[test]
fn book_balance_keeps_the_balanced_opening_only() {
    let dir = scratch("corpus-book-balance");
    let file = dir.join("two.agn");
    std::fs::write(&file, LOPSIDED_AND_BALANCED).unwrap();
    let file = file.to_str().unwrap();
    // Without --balance both openings are in the suite.
    let all = agon(&["book", "--plies", "1", file]).code(0);
    assert_eq!(all.stdout.matches("[Event \"agon book\"]").count(), 2);
    let balance = [
        "book",
        "--plies",
        "1",
        "--balance",
        "depth=2,score=1.00",
        file,
    ];
    let one = agon(&[&balance[..], &["--threads", "1"]].concat()).code(0);
    let two = agon(&[&balance[..], &["--threads", "2"]].concat()).code(0);
    assert_eq!(one.stdout, two.stdout, "the same suite at any thread count");
    let suite = agon_with_stdin(&["convert", "--to", "json"], &one.stdout)
        .ok()
        .json_lines();
    assert_eq!(suite.len(), 1, "{}", one.stdout);
    assert_eq!(suite[0]["moves"][0]["action"], "h9-g9");
    assert!(suite[0]["start"].is_null(), "the standard start");
    // Its score, White's view at depth 2, within ±1.00.
    let tag = suite[0]["tags"]["Balance"].as_str().unwrap();
    let score = tag.strip_suffix("/2").expect("the depth follows the score");
    let units: f64 = score
        .parse()
        .expect("a score in units, not a forced result");
    assert!(units.abs() <= 1.0, "{tag}");
    assert!(
        one.stderr
            .contains("(1 of 2 dropped as scored beyond ±1.00 at depth 2)"),
        "{}",
        one.stderr
    );
    for bad in ["depth=0", "depth=13", "score=-1", "score=x", "width=3"] {
        let run = agon(&["book", "--plies", "1", "--balance", bad, file]).code(2);
        assert!(run.stderr.contains("--balance"), "{bad}: {}", run.stderr);
    }
}
