//! The tactical suite for the computer players: hand-built positions with one right
//! action, which every agent above `random` must find within a small budget.
//!
//! Diagrams: upper case White, lower case Black, `^` the empty throne, `x`/`X` captured.

use agon_core::agents::from_spec;
use agon_core::{Action, Game, Rules, Side};
use agon_tests::positions::position;

/// The agents that must solve every position, at small budgets.
const AGENTS: [&str; 5] = [
    "greedy",
    "alphabeta:depth=1",
    "alphabeta:depth=4",
    "alphabeta:nodes=2000",
    "mcts:playouts=2000",
];

/// A game starting from a position with the listed pieces.
fn game(rules: &str, to_move: Side, white: &str, black: &str) -> Game {
    let rules: Rules = rules.parse().unwrap_or_else(|e| panic!("{e}"));
    let position = position(rules, to_move, white, black);
    let game = Game::from_position(position);
    assert!(!game.is_over(), "{position}");
    game
}

/// What each agent plays, with a few seeds each.
fn choices(game: &Game) -> Vec<(String, u64, Action)> {
    let mut out = Vec::new();
    for spec in AGENTS {
        for seed in [1, 2, 3] {
            let mut agent = from_spec(spec, seed).unwrap();
            out.push((spec.to_string(), seed, agent.choose(game)));
        }
    }
    out
}

/// Asserts that every agent plays `expected`.
fn all_play(game: &Game, expected: &str) {
    let expected: Action = expected.parse().unwrap();
    let wrong: Vec<String> = choices(game)
        .into_iter()
        .filter(|(_, _, a)| *a != expected)
        .map(|(spec, seed, a)| format!("{spec} (seed {seed}) played {a}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "expected {expected} in\n{}\n{}",
        game.position(),
        wrong.join("\n")
    );
}

/// White's queen is on the throne with five guards on ring 1; the sixth steps in and wins.
#[test]
fn formation_in_one() {
    let g = game(
        "standard",
        Side::White,
        "Qf6 Gf7 Gg6 Gg5 Gf5 Ge5 Gd6",
        "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1",
    );
    all_play(&g, "d6-e6");
}

/// Black's guard on f7 stands beyond White's queen on the throne: f4-f5 captures her.
/// Under `queen-relocated-by=opponent` Black then chooses where she goes, so the capture
/// is decisive. (Under the standard rules her owner may put her straight back near the
/// throne, or on it, so a queen capture there is rarely so clear-cut.)
#[test]
fn capture_the_queen() {
    let g = game(
        "queen-relocated-by=opponent",
        Side::Black,
        "Qf6 Gg6 Ge5 Gk1 Gl1 Gl2 Gl3",
        "Qa4 Gf7 Gf4 Gc4 Gi7 Ga1 Gb1",
    );
    all_play(&g, "f4-f5");
}

/// Five White guards hold ring 1: the sixth stepping in (f8-f7) closes the ring without
/// the queen and loses at once; the queen steps in instead, on her way to the throne.
#[test]
fn avoid_the_six_guards_loss() {
    let g = game(
        "standard",
        Side::White,
        "Qg7 Gg6 Gg5 Gf5 Ge5 Ge6 Gf8",
        "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1",
    );
    all_play(&g, "g7-f7");
}

/// Black threatens c3-d4, capturing White's queen on d5 against d6, after which Black
/// would choose where she goes (`queen-relocated-by=opponent`); her only escape is d4
/// (e5 and e6 are taken, and no other White piece can reach d4 or d3).
#[test]
fn avoid_being_captured() {
    let g = game(
        "queen-relocated-by=opponent",
        Side::White,
        "Qd5 Ge5 Ge6 Gk1 Gl1 Gl2 Gl3",
        "Qf11 Gd6 Gc3 Gi8 Gk7 Gl6 Gh9",
    );
    all_play(&g, "d5-d4");
}

/// Black's captured queen must be relocated. When Black chooses (the standard rules) she
/// goes to the empty throne; under `queen-relocated-by=opponent` White chooses, and an
/// agent that maximises for the deciding side never gives her the throne.
#[test]
fn the_deciding_side_chooses_the_relocation() {
    let white = "Qf1 Gd1 Ge1 Gg1 Gh1 Gk1 Gl1";
    let black = "Qa6x Gb7 Gc8 Gd9 Gi8 Gk7 Gl6";
    let owner = game("standard", Side::Black, white, black);
    assert_eq!(owner.position().decider(), Side::Black);
    all_play(&owner, "a6@f6");

    let opponent = game("queen-relocated-by=opponent", Side::Black, white, black);
    assert_eq!(opponent.position().decider(), Side::White);
    let throne: Action = "a6@f6".parse().unwrap();
    assert!(opponent.position().legal().contains(throne));
    for (spec, seed, action) in choices(&opponent) {
        assert_ne!(action, throne, "{spec} (seed {seed}) gave Black the throne");
        let to = action.destination().expect("a relocation");
        assert!(to.ring() >= 2, "{spec} (seed {seed}) played {action}");
    }
}
