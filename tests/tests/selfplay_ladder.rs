//! `agon-selfplay ladder`: levels of doubling budget, each against the one below; the
//! depth is the number of steps the stronger agent wins significantly (at least 55%, the
//! 95% interval above 50%), recomputed here from the summary's own numbers.

use agon_tests::selfplay::{bytes, png_size, read, scratch, selfplay, svg_size};
use serde_json::Value;

#[test]
fn a_ladder_gives_a_chart_and_a_depth() {
    let dir = scratch("ladder");
    let out = dir.join("standard");
    let args = [
        "ladder",
        "--variant",
        "standard",
        "--agent",
        "alphabeta:depth=1,noise=10,hash=1",
        "--levels",
        "3",
        "--games",
        "12",
        "--max-plies",
        "300",
        "--seed",
        "3",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    let printed: Value = serde_json::from_str(&selfplay(&args).ok().stdout).unwrap();
    assert_eq!(
        printed,
        serde_json::from_str::<Value>(&read(&out, "ladder.json")).unwrap()
    );
    let ladder = &printed["ladders"][0];
    assert_eq!(ladder["variant"], "standard");
    let steps = ladder["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0]["stronger"], "alphabeta:depth=2,noise=10,hash=1");
    assert_eq!(steps[0]["weaker"], "alphabeta:depth=1,noise=10,hash=1");
    assert_eq!(steps[1]["stronger"], "alphabeta:depth=3,noise=10,hash=1");
    // Each step's score and interval are the summary's score of the stronger agent, and
    // the depth counts the steps that pass the rule.
    let summary: Value = serde_json::from_str(&read(&out, "summary.json")).unwrap();
    let mut depth = 0;
    for step in steps {
        let pairing = format!(
            "{} vs {}",
            step["stronger"].as_str().unwrap(),
            step["weaker"].as_str().unwrap()
        );
        let group = summary["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["pairing"] == pairing.as_str())
            .unwrap();
        let first = &group["first_agent"];
        assert_eq!(step["score"], first["score"]);
        assert_eq!(step["interval"], first["interval"]);
        assert_eq!(step["games"], 12);
        let score = first["score"].as_f64().unwrap();
        let low = first["interval"]["low"].as_f64().unwrap();
        let significant = score >= 0.55 && low > 0.5;
        assert_eq!(step["significant"], significant);
        depth += u64::from(significant);
    }
    assert_eq!(ladder["depth"].as_u64(), Some(depth));
    // The chart, in SVG and PNG of one size.
    let svg = read(&out, "ladder-standard.svg");
    assert!(svg.contains(&format!("Skill ladder of standard: depth {depth}")));
    assert_eq!(
        svg_size(&svg).unwrap(),
        png_size(&bytes(&out, "ladder-standard.png")).unwrap()
    );
    // Resumed, it plays nothing more and writes the same ladder.
    let resumed = selfplay(&[
        "ladder",
        "--resume",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ])
    .ok();
    assert!(
        resumed.stderr.contains("played 0 game(s)"),
        "{}",
        resumed.stderr
    );
    assert_eq!(
        serde_json::from_str::<Value>(&resumed.stdout).unwrap(),
        printed
    );
}

#[test]
fn ladders_need_an_agent_with_a_budget() {
    let dir = scratch("ladder-errors");
    let out = dir.join("x");
    for (args, says) in [
        (
            vec!["--agent", "random", "--levels", "3"],
            "no search budget",
        ),
        (
            vec!["--agent", "mcts:playouts=10", "--levels", "1"],
            "at least 2 levels",
        ),
        (vec!["--levels", "3"], "--agent"),
        (vec!["--agent", "mcts:playouts=10"], "--levels"),
    ] {
        let mut a = vec!["ladder", "--out", out.to_str().unwrap()];
        a.extend(args.iter());
        let e = selfplay(&a).code(2);
        assert!(e.stderr.contains(says), "{args:?}: {}", e.stderr);
    }
}
