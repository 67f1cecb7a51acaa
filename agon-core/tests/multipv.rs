//! Multi-PV alpha-beta: one line searches exactly as the search did before multi-PV existed
//! (same action, score, depth, node count and line on many positions, pinned in
//! tests/data/search/single-line.txt), and several lines are the best actions in order
//! with exact scores.

use agon_core::agents::{evaluate, AlphaBetaAgent, AlphaBetaConfig, SearchReport};
use agon_core::{Game, Rules, Side};
use std::fmt::Write;
use std::path::PathBuf;

mod common;

/// The rule sets the pinned searches cover.
fn rule_sets() -> Vec<Rules> {
    let mut rules = vec![Rules::STANDARD, Rules::LUDII];
    for name in [
        "queen-relocated-by=opponent",
        "intervention=suicide,capture=ring",
        "opening=placement",
    ] {
        rules.push(name.parse().unwrap());
    }
    rules
}

/// Positions from random play (stopped at assorted plies below 90), the games not over.
fn positions(rules: Rules, count: u64, seed: u64) -> Vec<Game> {
    common::random_games(rules, count, seed, 90)
}

/// One line per search: rules, ply, action, score, depth, nodes, line.
fn describe(rules: Rules, game: &Game, report: &SearchReport) -> String {
    let pv: Vec<String> = report.pv.iter().map(|a| a.to_string()).collect();
    format!(
        "{rules} {} {} {} {} {} {}",
        game.ply_count(),
        report.action,
        report.score,
        report.depth,
        report.nodes,
        pv.join(" ")
    )
}

fn pinned_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/search/single-line.txt")
}

/// Every search of an agent that is kept through the positions of each rule set (so the
/// table and the history carry over, as in a game).
fn single_line_searches() -> String {
    let mut out = String::new();
    for rules in rule_sets() {
        let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(4, 3));
        for game in positions(rules, 24, 17) {
            let report = agent.search(&game);
            writeln!(out, "{}", describe(rules, &game, &report)).unwrap();
        }
    }
    out
}

#[test]
fn one_line_searches_exactly_as_before_multi_pv() {
    let got = single_line_searches();
    if std::env::var_os("AGON_BLESS").is_some() {
        std::fs::write(pinned_path(), &got).unwrap();
    }
    let want = std::fs::read_to_string(pinned_path()).unwrap();
    assert!(
        want.lines().count() > 100,
        "{} searches",
        want.lines().count()
    );
    for (k, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "search {}", k + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

fn with_lines(depth: u32, lines: usize) -> AlphaBetaConfig {
    AlphaBetaConfig {
        multipv: lines,
        ..AlphaBetaConfig::with_depth(depth, 3)
    }
}

#[test]
fn several_lines_are_the_best_actions_in_order() {
    let mut searched = 0;
    for rules in rule_sets() {
        for game in positions(rules, 12, 5) {
            let position = game.position();
            let legal = position.legal().count();
            let single = AlphaBetaAgent::new(with_lines(3, 1)).search(&game);
            for lines in [2, 4] {
                let report = AlphaBetaAgent::new(with_lines(3, lines)).search(&game);
                assert_eq!(report.lines.len(), lines.min(legal), "{position}");
                let first = &report.lines[0];
                assert_eq!((first.score, &first.pv), (report.score, &report.pv));
                assert_eq!(first.pv[0], report.action);
                // The minimax value does not depend on how many lines are asked for.
                assert_eq!(report.score, single.score, "{rules} {position}");
                let scores: Vec<i32> = report.lines.iter().map(|l| l.score).collect();
                assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
                let mut firsts: Vec<_> = report.lines.iter().map(|l| l.pv[0]).collect();
                firsts.sort_by_key(|a| a.to_string());
                firsts.dedup();
                assert_eq!(firsts.len(), report.lines.len(), "distinct first actions");
                for line in &report.lines {
                    let mut replay = game.clone();
                    for &a in &line.pv {
                        replay.play(a).unwrap_or_else(|e| panic!("{a}: {e}"));
                    }
                }
                searched += 1;
            }
        }
    }
    assert!(searched > 80, "{searched} searches");
}

/// At depth 1 without quiescence every line's score is the evaluation of the position its
/// action leads to (or the game's result), so all lines can be checked exactly.
#[test]
fn every_line_of_a_one_ply_search_scores_its_action_exactly() {
    let mut checked = 0;
    for rules in rule_sets() {
        'games: for game in positions(rules, 16, 8) {
            let decider = game.position().decider();
            let mut want = Vec::new();
            for &action in game.position().legal().to_vec().iter() {
                let mut child = game.clone();
                child.play(action).unwrap();
                let score = match child.outcome() {
                    Some(outcome) => match outcome.result.winner() {
                        Some(side) if side == decider => 999_999,
                        Some(_) => -999_999,
                        None => 0,
                    },
                    None => match evaluate(child.position()) {
                        Some(white) if decider == Side::White => white,
                        Some(white) => -white,
                        None => continue 'games,
                    },
                };
                want.push((action, score));
            }
            let config = AlphaBetaConfig {
                quiescence: false,
                contempt: 0,
                ..with_lines(1, AlphaBetaConfig::MAX_MULTIPV)
            };
            let report = AlphaBetaAgent::new(config).search(&game);
            if want.len() == 1 {
                continue;
            }
            assert_eq!(report.lines.len(), want.len());
            for line in &report.lines {
                let (_, score) = want.iter().find(|(a, _)| *a == line.pv[0]).unwrap();
                assert_eq!(line.score, *score, "{} in {}", line.pv[0], game.position());
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} positions");
}
