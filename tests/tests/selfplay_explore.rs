//! `agon-selfplay explore`: a family of rule sets raced to verdicts. The example
//! gives four report cards, the same at one and two threads, and a page that a real
//! browser renders; rounds played as shards and merged give what one process gives; an
//! interrupted exploration resumes to the same report; bad requests are refused.

use agon_tests::browser::{inline_svgs, Browser};
use agon_tests::selfplay::{
    assert_same_exploration, binary, csv_rows, read, scratch, selfplay, without_timing,
};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The same reports, games and experiment (`games.csv` compared without its timing column).
#[track_caller]
fn same_exploration(a: &Path, b: &Path) {
    assert_same_exploration(a, b, &["games/games.agn", "games/experiment.json"]);
    assert_eq!(
        without_timing(&read(a, "games/games.csv")),
        without_timing(&read(b, "games/games.csv"))
    );
}

fn json(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&read(dir, name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The example: `explore --switch capture=line,ring --switch
/// intervention=forbidden,suicide --agent alphabeta:depth=2 --budget 400 --seed 1`.
fn the_example(out: &Path, threads: &str) {
    selfplay(&[
        "explore",
        "--switch",
        "capture=line,ring",
        "--switch",
        "intervention=forbidden,suicide",
        "--agent",
        "alphabeta:depth=2",
        "--budget",
        "400",
        "--seed",
        "1",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ])
    .ok();
}

#[test]
fn the_example_has_four_cards_the_same_at_one_and_two_threads_and_renders() {
    let dir = scratch("explore-example");
    let (one, two) = (dir.join("one"), dir.join("two"));
    the_example(&one, "1");
    the_example(&two, "2");
    same_exploration(&one, &two);

    let report = json(&one, "explore.json");
    let cards = report["rule_sets"].as_array().unwrap();
    let names: Vec<&str> = cards.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "standard",
            "capture=ring",
            "intervention=suicide",
            "intervention=suicide,capture=ring"
        ]
    );
    assert_eq!(report["finished"], true);
    // The budget is spent and never exceeded; every card's games are its pairs' games.
    let games: u64 = cards.iter().map(|c| c["games"].as_u64().unwrap()).sum();
    assert_eq!(games, report["games"].as_u64().unwrap());
    assert!(games <= 400, "{games}");
    for c in cards {
        assert_eq!(c["games"].as_u64(), c["pairs"].as_u64().map(|p| 2 * p));
    }
    let rows = csv_rows(&read(&one, "explore.csv"));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["rule_set"], "capture=ring");
    assert_eq!(rows[1]["switches"], "intervention=forbidden;capture=ring");
    // The games are the race's: `report` reads the same directory as a run's.
    selfplay(&["report", one.join("games").to_str().unwrap(), "--json"]).ok();

    let Some(browser) = Browser::for_test("the explore page test") else {
        return;
    };
    let html = read(&one, "index.html");
    for outside in [" src=", "<link", "href=\"http", "url(", "@import"] {
        assert!(
            !html.contains(outside),
            "the page loads nothing from elsewhere: {outside}"
        );
    }
    let page = browser.load(&one.join("index.html"), (1280, 2400), true, true);
    assert!(page.console.is_empty(), "console: {:?}", page.console);
    let shot = page.screenshot.unwrap();
    assert!(shot.ink() > 0.05 && shot.colours() > 50, "a blank page");
    let dom = page.dom.unwrap();
    assert!(
        dom.contains("data-ready=\"true\"") && dom.contains("data-sorted-by=\"fairness\""),
        "the page's script ran"
    );
    // Every chart renders on its own: the ranking, the switch effects, four cards.
    let svgs = inline_svgs(&html);
    assert_eq!(svgs.len(), 6, "ranking, effects and one chart per card");
    for (k, svg) in svgs.iter().enumerate() {
        let file = browser.scratch().join(format!("chart-{k}.html"));
        std::fs::write(
            &file,
            format!("<!DOCTYPE html><html><body style=\"margin:0\">{svg}</body></html>"),
        )
        .unwrap();
        let load = browser.load(&file, (1600, 1200), true, false);
        assert!(load.console.is_empty(), "chart {k}: {:?}", load.console);
        let image = load.screenshot.unwrap();
        assert!(
            image.ink() > 0.01 && image.colours() > 8,
            "chart {k} renders blank ({} of ink, {} colours)",
            image.ink(),
            image.colours()
        );
    }
}

/// A quick family for the shard and resume tests: random play, short games, ladders of
/// one-ply and two-ply alpha-beta for the survivors.
fn quick(out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "explore",
        "--switch",
        "capture=line,ring",
        "--switch",
        "touch-move=off,on",
        "--agent",
        "random",
        "--budget",
        "300",
        "--max-plies",
        "120",
        "--seed",
        "5",
        "--ladder",
        "2",
        "--ladder-agent",
        "alphabeta:depth=1",
        "--ladder-games",
        "4",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(out.to_str().unwrap().into());
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn next_round(dir: &Path) -> String {
    selfplay(&["explore", "--out", dir.to_str().unwrap(), "--next-round"])
        .ok()
        .stdout
        .trim()
        .to_string()
}

fn play_shard(dir: &Path, round: &str, shard: &str) {
    selfplay(&[
        "explore",
        "--out",
        dir.to_str().unwrap(),
        "--round",
        round,
        "--shard",
        shard,
        "--threads",
        "1",
    ])
    .ok();
}

#[test]
fn rounds_played_as_shards_and_merged_equal_one_process() {
    let dir = scratch("explore-shards");
    let (whole, sharded) = (dir.join("whole"), dir.join("sharded"));
    selfplay(&quick(&whole, &["--threads", "2"])).ok();
    selfplay(&quick(&sharded, &["--prepare"])).ok();
    let out = sharded.to_str().unwrap();
    let mut rounds = 0;
    loop {
        let round = next_round(&sharded);
        if round == "done" {
            break;
        }
        if rounds == 0 {
            // A round with a shard missing does not merge, and says how many games miss.
            play_shard(&sharded, &round, "0/3");
            let e = selfplay(&["explore", "--out", out, "--merge"]).code(2);
            assert!(
                e.stderr.contains("incomplete") && e.stderr.contains("missing"),
                "{}",
                e.stderr
            );
            // Another round than the current one is refused.
            let e = selfplay(&["explore", "--out", out, "--round", "7", "--shard", "0/3"]).code(2);
            assert!(
                e.stderr.contains(&format!("the round to play is {round}")),
                "{}",
                e.stderr
            );
        }
        for k in 0..3 {
            play_shard(&sharded, &round, &format!("{k}/3"));
        }
        let merged = selfplay(&["explore", "--out", out, "--merge"]).ok();
        assert_ne!(merged.stdout.trim(), round, "the merge moves on");
        rounds += 1;
    }
    let report = json(&whole, "explore.json");
    let race_rounds = report["rounds"].as_array().unwrap().len();
    let ladders = report["ladders"].as_array().unwrap();
    assert!(
        !ladders.is_empty(),
        "some rule set survived and has a ladder"
    );
    assert_eq!(
        rounds,
        race_rounds + 1,
        "every race round, then the ladders' round"
    );
    same_exploration(&whole, &sharded);
    assert_eq!(
        read(&whole, "ladder/games.agn"),
        read(&sharded, "ladder/games.agn")
    );
    // The cards carry the ladders' depths, each the number of significant steps.
    for l in ladders {
        let depth = l["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["significant"] == true)
            .count() as u64;
        assert_eq!(l["depth"].as_u64(), Some(depth));
        let card = report["rule_sets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == l["variant"])
            .unwrap();
        assert_eq!(card["ladder_depth"].as_u64(), Some(depth));
        assert_eq!(card["status"], "survivor");
    }
    // Verdicts and statuses agree: a rule set that left says why, with the test behind it.
    for c in report["rule_sets"].as_array().unwrap() {
        let status = c["status"].as_str().unwrap();
        if let Some(reason) = status.strip_prefix("left after round ") {
            let reason = reason.split(": ").nth(1).unwrap();
            match reason {
                "drawish" => assert_eq!(c["decisiveness"], "drawish"),
                "max-pairs" => {}
                fairness => assert_eq!(c["fairness"], fairness),
            }
        }
    }
}

#[test]
fn an_interrupted_exploration_resumes_to_the_same_report() {
    let dir = scratch("explore-resume");
    let (whole, killed) = (dir.join("whole"), dir.join("killed"));
    let args = |out: &Path, extra: &[&str]| {
        let mut a: Vec<String> = [
            "explore",
            "--switch",
            "intervention=forbidden,safe",
            "--switch",
            "opening=standard,placement",
            "--agent",
            "alphabeta:depth=1,noise=20,hash=1",
            "--budget",
            "600",
            "--max-plies",
            "150",
            "--seed",
            "9",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(out.to_str().unwrap().into());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    selfplay(&args(&whole, &["--threads", "2"])).ok();
    let mut child = Command::new(binary())
        .args(args(&killed, &["--threads", "1"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let games = killed.join("games").join("games.csv");
    let started = Instant::now();
    let rows = || {
        std::fs::read_to_string(&games)
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0)
    };
    while rows() < 60 && started.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait().unwrap();
    assert!(
        !killed.join("explore.json").exists(),
        "the exploration was stopped before its end"
    );
    // Options other than the stored ones are refused; none at all continue it.
    let e = selfplay(&args(&killed, &["--resume", "--margin", "0.05"])).code(2);
    assert!(e.stderr.contains("another exploration"), "{}", e.stderr);
    selfplay(&["explore", "--resume", "--out", killed.to_str().unwrap()]).ok();
    same_exploration(&whole, &killed);
    // A finished exploration is not started again over itself.
    let e = selfplay(&args(&whole, &[])).code(2);
    assert!(e.stderr.contains("--resume"), "{}", e.stderr);
}

#[test]
fn bad_requests_are_refused_with_the_reason() {
    let dir = scratch("explore-errors");
    let out = dir.join("x");
    let out = out.to_str().unwrap();
    for (args, says) in [
        (
            vec![
                "--switch",
                "capture=square",
                "--agent",
                "random",
                "--budget",
                "100",
            ],
            "square",
        ),
        (
            vec![
                "--switch",
                "colour=red,blue",
                "--agent",
                "random",
                "--budget",
                "100",
            ],
            "unknown switch `colour`",
        ),
        (
            vec![
                "--switch",
                "capture=ring",
                "--agent",
                "random",
                "--budget",
                "100",
            ],
            "needs a family",
        ),
        (
            vec![
                "--switch",
                "relocation=next-ring,start-cell",
                "--switch",
                "relocate-throne=forbidden",
                "--agent",
                "random",
                "--budget",
                "100",
            ],
            "the rules refuse every combination of these switches",
        ),
        (
            vec!["--switch", "capture=line,ring", "--agent", "random"],
            "--budget",
        ),
        (
            vec!["--switch", "capture=line,ring", "--budget", "100"],
            "--agent",
        ),
        (
            vec![
                "--switch",
                "capture=line,ring",
                "--agent",
                "random",
                "--budget",
                "2",
            ],
            "below one pair",
        ),
        (
            vec![
                "--switches",
                "all",
                "--agent",
                "random",
                "--budget",
                "1000",
                "--ladder",
                "3",
            ],
            "no search budget",
        ),
        (
            vec![
                "--switch",
                "capture=line,ring",
                "--agent",
                "random",
                "--budget",
                "100",
                "--drawish",
                "2",
            ],
            "--drawish",
        ),
        (vec!["--merge"], "explore-spec.json"),
        (
            vec!["--merge", "--agent", "random"],
            "give no exploration options",
        ),
    ] {
        let mut a = vec!["explore", "--out", out];
        a.extend(args.iter());
        let e = selfplay(&a).code(2);
        assert!(e.stderr.contains(says), "{args:?}: {}", e.stderr);
        assert!(!e.stderr.contains("panicked"), "{}", e.stderr);
    }
}

/// Holds the lock of `dir` from another process (util-linux's `flock`, as any process
/// holding the `flock` would) until dropped.
struct LockHolder(std::process::Child);

impl LockHolder {
    fn new(dir: &Path) -> LockHolder {
        std::fs::create_dir_all(dir).unwrap();
        let lock = dir.join(".agon.lock");
        let ready = dir.with_extension("held");
        // `--close`: flock itself holds the lock (its command does not inherit it), so
        // killing flock releases it.
        let child = Command::new("flock")
            .arg("--close")
            .arg(&lock)
            .args(["sh", "-c", "touch \"$0\"; sleep 60"])
            .arg(&ready)
            .stdout(Stdio::null())
            .spawn()
            .expect("util-linux's flock");
        let started = Instant::now();
        while !ready.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "flock never held"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        LockHolder(child)
    }
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn explorations_and_their_shards_lock_their_directories() {
    let dir = scratch("explore-lock");
    // A new exploration needs a new or empty directory.
    let cluttered = dir.join("cluttered");
    std::fs::create_dir_all(&cluttered).unwrap();
    std::fs::write(cluttered.join("notes.txt"), "mine\n").unwrap();
    let e = selfplay(&quick(&cluttered, &[])).code(2);
    assert!(
        e.stderr.contains("holds other files (notes.txt)"),
        "{}",
        e.stderr
    );
    assert!(!cluttered.join("explore-spec.json").exists());

    // A directory another process holds is refused, new or resumed, and left alone.
    let held = dir.join("held");
    let holder = LockHolder::new(&held);
    let e = selfplay(&quick(&held, &[])).code(2);
    assert!(
        e.stderr.contains("in use by another process"),
        "{}",
        e.stderr
    );
    assert!(!held.join("explore-spec.json").exists());
    drop(holder);

    // Prepared, the exploration's directory is locked for --resume and --merge, while a
    // shard locks only its own directory.
    let out = dir.join("prepared");
    selfplay(&quick(&out, &["--prepare"])).ok();
    let holder = LockHolder::new(&out);
    for extra in [vec!["--resume"], vec!["--merge"]] {
        let mut args = vec!["explore", "--out", out.to_str().unwrap()];
        args.extend(extra);
        let e = selfplay(&args).code(2);
        assert!(
            e.stderr.contains("in use by another process"),
            "{}",
            e.stderr
        );
    }
    play_shard(&out, "0", "0/2");
    drop(holder);
    let shard = out.join("rounds/0/1-of-2");
    let holder = LockHolder::new(&shard);
    let e = selfplay(&[
        "explore",
        "--out",
        out.to_str().unwrap(),
        "--round",
        "0",
        "--shard",
        "1/2",
    ])
    .code(2);
    assert!(
        e.stderr.contains("in use by another process"),
        "{}",
        e.stderr
    );
    drop(holder);
    play_shard(&out, "0", "1/2");
    selfplay(&["explore", "--out", out.to_str().unwrap(), "--merge"]).ok();
}

/// The relocation switch's four values race like any other switch (one card each, the
/// standard rules named `standard`), and `relocation=removed` games end decisively.
#[test]
fn the_relocation_values_are_explored() {
    let dir = scratch("explore-relocation");
    let out = dir.join("out");
    selfplay(&[
        "explore",
        "--switch",
        "relocation=outer-ring,next-ring,start-cell,removed",
        "--agent",
        "random",
        "--budget",
        "80",
        "--max-plies",
        "200",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ])
    .ok();
    let report = json(&out, "explore.json");
    let mut names: Vec<&str> = report["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "relocation=next-ring",
            "relocation=removed",
            "relocation=start-cell",
            "standard"
        ]
    );
    let removed = report["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "relocation=removed")
        .unwrap();
    assert!(
        removed["decisive_rate"].as_f64().unwrap() > 0.5,
        "{removed}"
    );
}
