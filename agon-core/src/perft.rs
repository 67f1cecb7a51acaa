//! Perft: counting the leaves of the game tree to a fixed depth, as chess engines do.
//! A finished game has no legal actions, so it contributes nothing below it.

use crate::{Action, ActionList, Game};

/// Leaves at `depth` plies from the game's current state, with bulk counting at the last
/// ply (the legal actions of a depth-1 node are counted, not played).
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    if depth == 1 {
        return game.legal().count() as u64;
    }
    let mut list = ActionList::new();
    game.legal().generate(&mut list);
    let mut total = 0;
    for &action in list.iter() {
        game.play_unchecked(action);
        total += perft(game, depth - 1);
        game.undo();
    }
    total
}

/// Like [`perft`], but every leaf action is played and adjudicated (slower; measures the
/// cost of playing actions, and cross-checks bulk counting).
pub fn perft_full(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut list = ActionList::new();
    game.legal().generate(&mut list);
    let mut total = 0;
    for &action in list.iter() {
        game.play_unchecked(action);
        total += perft_full(game, depth - 1);
        game.undo();
    }
    total
}

/// Perft split by first action, in (kind, cells) order.
pub fn divide(game: &mut Game, depth: u32) -> Vec<(Action, u64)> {
    if depth == 0 || game.is_over() {
        return Vec::new();
    }
    let actions = game.legal().to_vec();
    actions
        .into_iter()
        .map(|action| {
            game.play_unchecked(action);
            let n = perft(game, depth - 1);
            game.undo();
            (action, n)
        })
        .collect()
}
