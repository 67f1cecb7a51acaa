//! The hook the engine protocol drives: `Agent::choose_with` (limits for one search, a
//! stop flag, a report after every iteration).

use agon_core::agents::{
    from_spec, Agent, AlphaBetaAgent, AlphaBetaConfig, MctsAgent, MctsConfig, SearchControl,
    SearchLimits,
};
use agon_core::{Game, Rules, Side};
use agon_tests::positions::{game_of, position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[test]
fn limits_replace_the_configured_ones_and_every_iteration_is_reported() {
    let game = game_of(&["h9-g9", "b7-c7", "g9-g8"]);
    let mut shallow = from_spec("alphabeta:depth=1", 4).unwrap();
    let mut reports = Vec::new();
    let mut record = |r: &agon_core::agents::SearchReport| reports.push(r.clone());
    let mut control = SearchControl {
        limits: Some(SearchLimits {
            depth: Some(3),
            ..SearchLimits::default()
        }),
        on_iteration: Some(&mut record),
        ..SearchControl::default()
    };
    let action = shallow.choose_with(&game, &mut control);
    let expected = from_spec("alphabeta:depth=3", 4).unwrap().choose(&game);
    assert_eq!(action, expected);
    assert_eq!(
        reports.iter().map(|r| r.depth).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    for r in &reports {
        assert_eq!(r.pv.first(), Some(&r.action));
        let mut replay = game.clone();
        for &a in &r.pv {
            replay.play(a).unwrap();
        }
    }
    assert_eq!(reports.last().unwrap().action, action);
    assert!(reports.windows(2).all(|w| w[0].nodes < w[1].nodes));
}

#[test]
fn a_stop_flag_ends_a_search_without_limits() {
    let game = Game::new(Rules::STANDARD);
    let stop = Arc::new(AtomicBool::new(true));
    let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(4, 0));
    let mut control = SearchControl {
        limits: Some(SearchLimits::default()),
        stop: Some(stop),
        ..SearchControl::default()
    };
    // Without the flag this would search to depth 64.
    let action = agent.choose_with(&game, &mut control);
    assert!(game.position().legal().contains(action));
    let report = agent.last_report().unwrap();
    // The flag is polled every few thousand nodes at most; depth 64 would take billions.
    assert!(report.nodes < 100_000, "{} nodes", report.nodes);
}

#[test]
fn a_stop_flag_ends_an_mcts_search_without_limits() {
    let game = game_of(&["h9-g9", "b7-c7"]);
    let mut agent = MctsAgent::new(MctsConfig::with_playouts(1000, 3));
    let mut control = SearchControl {
        limits: Some(SearchLimits::default()),
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..SearchControl::default()
    };
    // Without the flag this would run until stopped; the flag is polled every 64 playouts.
    let action = agent.choose_with(&game, &mut control);
    assert!(game.position().legal().contains(action));
    assert_eq!(agent.last_report().unwrap().playouts, 64);
    // A node budget counts playouts.
    let mut control = SearchControl {
        limits: Some(SearchLimits {
            nodes: Some(300),
            ..SearchLimits::default()
        }),
        ..SearchControl::default()
    };
    agent.choose_with(&game, &mut control);
    assert_eq!(agent.last_report().unwrap().playouts, 300);
}

#[test]
fn agents_without_a_search_choose_as_usual() {
    let game = game_of(&["h9-g9"]);
    for spec in ["greedy:noise=20", "random", "mcts:playouts=50"] {
        let mut a = from_spec(spec, 9).unwrap();
        let mut b = from_spec(spec, 9).unwrap();
        let mut control = SearchControl {
            limits: Some(SearchLimits {
                depth: Some(1),
                ..SearchLimits::default()
            }),
            ..SearchControl::default()
        };
        assert_eq!(
            a.choose_with(&game, &mut control),
            b.choose(&game),
            "{spec}"
        );
    }
}

#[test]
fn forced_results_count_plies_to_the_end() {
    let position = position(
        Rules::STANDARD,
        Side::White,
        "Qf6 Gf7 Gg6 Gg5 Gf5 Ge5 Gd6",
        "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1",
    );
    let game = Game::from_position(position);
    let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(3, 0));
    let report = agent.search(&game);
    assert_eq!(report.action, "d6-e6".parse().unwrap());
    assert_eq!(report.forced_end(), Some(1));
    assert_eq!(report.pv, ["d6-e6".parse().unwrap()]);
}
