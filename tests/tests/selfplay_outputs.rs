//! What `agon-selfplay run` writes: every game record validates and matches its CSV row,
//! the statistics equal values computed here by hand from the CSV, the report formats
//! agree with the files, and the charts are valid SVG and PNG.

use agon_core::Action;
use agon_notation::Records;
use agon_tests::selfplay::{bytes, csv_rows, png_size, read, scratch, selfplay, svg_size};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const Z: f64 = 1.959_963_984_540_054;

fn experiment(out: &Path) {
    selfplay(&[
        "run",
        "--variant",
        "standard",
        "--variant",
        "intervention=suicide",
        "--variant",
        "queen-relocated-by=opponent",
        "--white",
        "greedy",
        "--black",
        "random",
        "--games",
        "12",
        "--opening-plies",
        "2",
        "--max-plies",
        "400",
        "--seed",
        "21",
        "--out",
        out.to_str().unwrap(),
    ])
    .ok();
}

type Row = BTreeMap<String, String>;

fn num(row: &Row, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} = {}", row[key]))
}

#[test]
fn every_record_validates_and_matches_its_row() {
    let dir = scratch("outputs-records");
    experiment(&dir);
    let rows = csv_rows(&read(&dir, "games.csv"));
    let agn = bytes(&dir, "games.agn");
    let games: Vec<_> = Records::new(agn.as_slice())
        .map(|g| g.unwrap_or_else(|e| panic!("games.agn: {e}")))
        .collect();
    assert_eq!(games.len(), rows.len());
    assert_eq!(rows.len(), 36);
    for (row, valid) in rows.iter().zip(&games) {
        let record = &valid.record;
        let game = &valid.game;
        assert_eq!(record.tag("Index").as_deref(), Some(row["index"].as_str()));
        assert_eq!(
            record.tag("Variant").as_deref(),
            Some(row["variant"].as_str())
        );
        assert_eq!(record.tag("White").as_deref(), Some(row["white"].as_str()));
        assert_eq!(record.tag("Black").as_deref(), Some(row["black"].as_str()));
        assert_eq!(
            record.tag("Result").as_deref(),
            Some(row["result"].as_str())
        );
        assert_eq!(
            record.tag("Termination").as_deref(),
            Some(row["termination"].as_str())
        );
        assert!(game.is_over());
        let plies = game.plies();
        assert_eq!(plies.len().to_string(), row["plies"]);
        let opening: Vec<String> = plies[..2].iter().map(|p| p.action.to_string()).collect();
        assert_eq!(opening.join(" "), row["opening"]);
        let captures: u32 = plies.iter().map(|p| p.captures.count()).sum();
        assert_eq!(captures.to_string(), row["captures"]);
        let relocations = plies
            .iter()
            .filter(|p| matches!(p.action, Action::Relocate { .. }))
            .count();
        assert_eq!(relocations.to_string(), row["relocations"]);
        let mut legal = 0;
        let mut decisions = 0;
        for k in 0..plies.len() {
            let n = game.position_before(k).unwrap().legal().count();
            legal += n;
            decisions += usize::from(n > 1);
        }
        assert_eq!(legal.to_string(), row["legal_actions"]);
        assert_eq!(decisions.to_string(), row["decision_plies"]);
        if row["termination"] == "move-limit" {
            assert_eq!(row["plies"], "400");
        }
    }
}

#[test]
fn games_agn_is_in_canonical_form() {
    let dir = scratch("outputs-canonical");
    experiment(&dir);
    let path = dir.join("games.agn");
    let path = path.to_str().unwrap();
    let check = agon_tests::cli::agon(&["fmt", "--check", path]);
    assert_eq!(check.code, Some(0), "agon fmt --check: {}", check.stderr);
    // The same test without trusting --check: the canonical form is the file itself.
    let canonical = agon_tests::cli::agon(&["fmt", path]).ok();
    assert!(canonical.raw == bytes(&dir, "games.agn"));
    let text = read(&dir, "games.agn");
    assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

#[track_caller]
fn close(json: &Value, expected: f64) {
    let got = json
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {json}"));
    assert!(
        (got - expected).abs() < 1e-9,
        "got {got}, expected {expected}"
    );
}

#[test]
fn statistics_equal_hand_computation_from_the_games() {
    let dir = scratch("outputs-stats");
    experiment(&dir);
    let rows = csv_rows(&read(&dir, "games.csv"));
    let summary: Value = serde_json::from_str(&read(&dir, "summary.json")).unwrap();
    assert_eq!(summary["games_played"], 36);
    assert_eq!(summary["games_expected"], 36);
    let groups = summary["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3);
    for g in groups {
        let variant = g["variant"].as_str().unwrap();
        assert_eq!(g["pairing"], "greedy vs random");
        let mine: Vec<&Row> = rows.iter().filter(|r| r["variant"] == variant).collect();
        let n = mine.len() as f64;
        let count = |res: &str| mine.iter().filter(|r| r["result"] == res).count() as f64;
        let (w, b) = (count("1-0"), count("0-1"));
        let undecided = mine
            .iter()
            .filter(|r| r["termination"] == "move-limit")
            .count() as f64;
        let d = count("1/2-1/2") - undecided;
        assert_eq!(g["games"], 12);
        close(&g["white_wins"], w);
        close(&g["black_wins"], b);
        close(&g["draws"], d);
        close(&g["undecided"], undecided);
        close(&g["decisive_rate"]["rate"], (w + b) / n);
        if w + b > 0.0 {
            close(&g["white_share_of_decisive"]["rate"], w / (w + b));
        }
        let s = (w + (d + undecided) / 2.0) / n;
        close(&g["white_score"], s);
        // Wilson, written out.
        let centre = (s + Z * Z / (2.0 * n)) / (1.0 + Z * Z / n);
        let half = Z / (1.0 + Z * Z / n) * (s * (1.0 - s) / n + Z * Z / (4.0 * n * n)).sqrt();
        close(&g["white_score_wilson"]["low"], (centre - half).max(0.0));
        close(&g["white_score_wilson"]["high"], (centre + half).min(1.0));
        // Pentanomial over the 6 pairs.
        let score = |r: &Row| match r["result"].as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let mut penta = [0u64; 5];
        let mut pair_means = Vec::new();
        for pair in mine.chunks(2) {
            assert_eq!(pair[0]["pair"], pair[1]["pair"]);
            let total = score(pair[0]) + score(pair[1]);
            penta[(total * 2.0) as usize] += 1;
            pair_means.push(total / 2.0);
        }
        let pj: Vec<u64> = g["pairs"]["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(pj, penta);
        let mu = pair_means.iter().sum::<f64>() / 6.0;
        let var = pair_means.iter().map(|x| (x - mu).powi(2)).sum::<f64>() / 5.0;
        let se = (var / 6.0).sqrt();
        if se > 0.0 {
            // Student's t with 5 degrees of freedom: scipy.stats.t.ppf(0.975, 5).
            let t5 = 2.570_581_835_636_314_6;
            assert_eq!(g["pairs"]["interval_method"], "t");
            close(&g["pairs"]["interval"]["low"], (mu - t5 * se).max(0.0));
            close(&g["pairs"]["interval"]["high"], (mu + t5 * se).min(1.0));
        }
        // The exact sign-flip p-value, by brute force over the 2^6 sign patterns.
        let deviations: Vec<f64> = pair_means.iter().map(|m| m - 0.5).collect();
        let observed = deviations.iter().sum::<f64>().abs();
        let extreme = (0..64u32)
            .filter(|mask| {
                let t: f64 = deviations
                    .iter()
                    .enumerate()
                    .map(|(i, x)| if mask >> i & 1 == 1 { -x } else { *x })
                    .sum();
                t.abs() >= observed - 1e-12
            })
            .count();
        close(&g["first_player_elo"]["p_value"], extreme as f64 / 64.0);
        if s > 0.0 && s < 1.0 {
            close(
                &g["first_player_elo"]["elo"],
                -400.0 * (1.0 / s - 1.0).log10(),
            );
        }
        // Lengths and activity.
        let mut lengths: Vec<f64> = mine.iter().map(|r| num(r, "plies")).collect();
        lengths.sort_by(f64::total_cmp);
        close(&g["length"]["median"], quantile(&lengths, 0.5));
        close(&g["length"]["q1"], quantile(&lengths, 0.25));
        close(&g["length"]["q3"], quantile(&lengths, 0.75));
        close(&g["length"]["mean"], lengths.iter().sum::<f64>() / n);
        close(
            &g["captures_per_game"]["value"],
            mine.iter().map(|r| num(r, "captures")).sum::<f64>() / n,
        );
        let captures = &g["captures_per_game"]["interval"];
        assert!(captures["low"].as_f64() <= g["captures_per_game"]["value"].as_f64());
        // Ludii's metrics.
        let m = &g["ludii"];
        close(&m["advantage_p1"], s);
        close(&m["balance"], 1.0 - (2.0 * s - 1.0).abs());
        close(&m["completion"], (w + b) / n);
        // Drawishness as Ludii's code computes it counts games stopped at the ply limit;
        // the description's version and Timeouts split it.
        close(&m["drawishness"], (d + undecided) / n);
        close(&m["drawishness_described"], d / n);
        close(&m["timeouts"], undecided / n);
        close(&m["duration"], lengths.iter().sum::<f64>() / n);
        let per_game = |key: &str| {
            mine.iter()
                .map(|r| num(r, key) / num(r, "plies"))
                .sum::<f64>()
                / n
        };
        close(&m["branching_factor"], per_game("legal_actions"));
        close(&m["decision_moves"], per_game("decision_plies"));
        // greedy's score over both colours.
        let greedy = mine
            .iter()
            .map(|r| {
                if r["white"] == "greedy" {
                    score(r)
                } else {
                    1.0 - score(r)
                }
            })
            .sum::<f64>()
            / n;
        close(&g["first_agent"]["score"], greedy);
        // The termination counts add up.
        let total: u64 = g["by_termination"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["games"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 12);
    }
}

#[test]
fn report_prints_the_files_and_charts_are_valid() {
    let dir = scratch("outputs-report");
    experiment(&dir);
    let json = selfplay(&["report", dir.to_str().unwrap(), "--json"]).ok();
    assert_eq!(json.stdout, read(&dir, "summary.json"));
    let csv = selfplay(&["report", dir.to_str().unwrap(), "--csv"]).ok();
    assert_eq!(csv.stdout, read(&dir, "summary.csv"));
    let summary_rows = csv_rows(&csv.stdout);
    assert_eq!(summary_rows.len(), 3);
    assert_eq!(summary_rows[1]["variant"], "intervention=suicide");
    let text = selfplay(&["report", dir.to_str().unwrap()]).ok();
    for needle in [
        "queen-relocated-by=opponent",
        "Decisive games",
        "sign-flip",
        "Contrasts with standard",
        "AdvantageP1",
        "DecisionMoves",
        "1/2-1/2 move-limit",
    ] {
        assert!(
            text.stdout.contains(needle),
            "no {needle} in\n{}",
            text.stdout
        );
    }
    for chart in ["outcomes", "lengths"] {
        let svg = svg_size(&read(&dir, &format!("{chart}.svg")))
            .unwrap_or_else(|e| panic!("{chart}.svg: {e}"));
        let png = png_size(&bytes(&dir, &format!("{chart}.png")))
            .unwrap_or_else(|e| panic!("{chart}.png: {e}"));
        assert_eq!(svg, png, "{chart}: SVG and PNG have one size");
        assert_eq!(svg.0, 1600);
        let text = read(&dir, &format!("{chart}.svg"));
        for variant in [
            "standard",
            "intervention=suicide",
            "queen-relocated-by=opponent",
        ] {
            assert!(
                text.contains(&format!("\n{variant}\n")),
                "{chart}.svg lacks {variant}"
            );
        }
        assert!(text.contains("greedy vs random; 12 games per variant"));
    }
    // The contrasts with standard: one row per other variant.
    let svg = read(&dir, "contrasts.svg");
    let (w, _) = svg_size(&svg).unwrap();
    assert_eq!(png_size(&bytes(&dir, "contrasts.png")).unwrap().0, w);
    assert!(svg.contains("Each variant against standard"));
    for variant in ["intervention=suicide", "queen-relocated-by=opponent"] {
        assert!(
            svg.contains(&format!("\n{variant}\n")),
            "contrasts.svg lacks {variant}"
        );
    }
    assert!(
        !svg.contains("\nstandard\n"),
        "the baseline is not contrasted with itself"
    );
}

#[test]
fn the_ludii_preset_runs_with_its_ply_limit() {
    let dir = scratch("outputs-ludii");
    selfplay(&[
        "run",
        "--variant",
        "ludii",
        "--agent",
        "random",
        "--games",
        "16",
        "--opening-plies",
        "0",
        "--max-plies",
        "2500",
        "--out",
        dir.to_str().unwrap(),
    ])
    .ok();
    let rows = csv_rows(&read(&dir, "games.csv"));
    assert_eq!(rows.len(), 16);
    for r in &rows {
        assert_eq!(r["variant"], "ludii");
        assert_eq!(r["opening"], "");
        match r["termination"].as_str() {
            "formation" | "six-guards" => assert_ne!(r["result"], "1/2-1/2"),
            "double-pass" => assert_eq!(r["result"], "1/2-1/2"),
            "move-limit" => assert_eq!(r["plies"], "2500"),
            other => panic!("no {other} under ludii"),
        }
    }
    let agn = bytes(&dir, "games.agn");
    assert_eq!(
        Records::new(agn.as_slice()).filter(|g| g.is_ok()).count(),
        16
    );
}
