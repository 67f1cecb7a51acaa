//! Helpers shared by the integration tests: building positions from piece lists, games
//! from random play, and reading legal actions, captures and refusals as strings a reader
//! can check by eye.

#![allow(dead_code)]

use agon_core::{Action, ActionList, Cell, Game, Position, Rng, Rules, Setup, Side};

include!("random_games.rs");

/// A cell by name.
pub fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap_or_else(|e| panic!("{e}"))
}

/// An action in notation.
pub fn act(text: &str) -> Action {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A rule set by name.
pub fn rules(name: &str) -> Rules {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A position under `rules` with the listed White and Black pieces (`Qf6 Gd5 Ge4x`, see
/// [`Setup::with_pieces`]) and `to_move` to move; it must be one that can arise in a game
/// ([`Position::from_setup`]: all seven pieces of each side on the board).
pub fn setup(rules_name: &str, to_move: Side, white: &str, black: &str) -> Position {
    let setup = Setup::empty()
        .with_to_move(to_move)
        .with_pieces(Side::White, white)
        .and_then(|s| s.with_pieces(Side::Black, black))
        .unwrap_or_else(|e| panic!("{e}"));
    Position::from_setup(setup, rules(rules_name))
        .unwrap_or_else(|e| panic!("invalid test position: {e}"))
}

/// `position` changed through its setup; the result must still be a position.
pub fn edited(position: &Position, edit: impl FnOnce(Setup) -> Setup) -> Position {
    Position::from_setup(edit(position.to_setup()), position.rules())
        .unwrap_or_else(|e| panic!("invalid edited position: {e}"))
}

/// Whether a position passes [`Position::from_setup`] again (unchanged).
pub fn survives_from_setup(position: &Position) -> bool {
    Position::from_setup(position.to_setup(), position.rules()) == Ok(*position)
}

/// Every legal action, in notation, in the engine's (kind, cells) order.
pub fn legal(position: &Position) -> Vec<String> {
    position
        .legal()
        .to_vec()
        .iter()
        .map(Action::to_string)
        .collect()
}

/// The destinations of the legal steps of the piece on `from`, sorted by (file, rank).
pub fn steps_from(position: &Position, from: &str) -> Vec<String> {
    let from = cell(from);
    let mut to: Vec<Cell> = position
        .legal()
        .to_vec()
        .into_iter()
        .filter_map(|a| match a {
            Action::Step { from: f, to } if f == from => Some(to),
            _ => None,
        })
        .collect();
    to.sort();
    to.iter().map(Cell::to_string).collect()
}

/// Cell names sorted by (file, rank), for comparing sets of cells.
pub fn names(cells: impl IntoIterator<Item = Cell>) -> Vec<String> {
    let mut cells: Vec<Cell> = cells.into_iter().collect();
    cells.sort();
    cells.iter().map(Cell::to_string).collect()
}

/// Sorted cell names from a space-separated list.
pub fn sorted(list: &str) -> Vec<String> {
    names(list.split_whitespace().map(cell))
}

/// Plays a legal action (it must pass [`Position::check`] and be generated) and returns
/// the position after it and the cells it captured.
pub fn play(position: &Position, action: &str) -> (Position, Vec<String>) {
    let action = act(action);
    if let Err(e) = position.check(action) {
        panic!("`{action}` should be legal but: {e}\n{position}");
    }
    assert!(
        position.legal().to_vec().contains(&action),
        "`{action}` passes check but is not generated\n{position}"
    );
    let mut after = *position;
    let captured = after.play_unchecked(action);
    (after, names(captured))
}

/// The message explaining why `action` is illegal (it must be, and must not be generated).
pub fn refusal(position: &Position, action: &str) -> String {
    let action = act(action);
    assert!(
        !position.legal().to_vec().contains(&action),
        "`{action}` is generated but should be illegal\n{position}"
    );
    match position.check(action) {
        Ok(()) => panic!("`{action}` should be illegal\n{position}"),
        Err(e) => e.to_string(),
    }
}

/// Plays a sequence of actions in a game, each of which must be legal.
pub fn play_all(game: &mut Game, actions: &str) {
    for a in actions.split_whitespace() {
        let action = act(a);
        if let Err(e) = game.play(action) {
            panic!(
                "`{a}` at ply {}: {e}\n{}",
                game.ply_count() + 1,
                game.position()
            );
        }
    }
}

/// The 30 outer-ring cells, by name (docs/rules.md section 1: ring 5).
pub const OUTER_RING: &str = "a1 a2 a3 a4 a5 a6 b1 b7 c1 c8 d1 d9 e1 e10 f1 f11 \
                              g1 g10 h1 h9 i1 i8 k1 k7 l1 l2 l3 l4 l5 l6";

/// The empty cells of the outer ring of a position, minus `except`.
pub fn empty_outer_except(position: &Position, except: &str) -> Vec<String> {
    let except = sorted(except);
    sorted(OUTER_RING)
        .into_iter()
        .filter(|n| position.piece_at(cell(n)).is_none() && !except.contains(n))
        .collect()
}
