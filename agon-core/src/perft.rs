//! Perft: counting the leaves of the game tree to a fixed depth, as chess engines do.
//! A finished game has no legal actions, so it contributes nothing below it.
//!
//! The walk copies positions (copy-make: a [`Position`] is a small `Copy` value) instead of
//! playing and undoing on the [`Game`]: no record, no undo. Only the repetition rule
//! needs the history: the game's own (its table of occurrences) and the path from the
//! game's position down to the node.

use crate::{Action, ActionList, Game, LegalActions, Position};

/// Leaves at `depth` plies from the game's current state, with bulk counting at the last
/// ply (the legal actions of a depth-1 node are counted, not played).
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    walk::<true>(game, depth)
}

/// Like [`perft`], but every leaf action is played and adjudicated (slower; measures the
/// cost of playing actions, and cross-checks bulk counting).
pub fn perft_full(game: &mut Game, depth: u32) -> u64 {
    walk::<false>(game, depth)
}

/// Perft from the game's state, counting the last ply in bulk when `BULK`.
fn walk<const BULK: bool>(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let root = Node {
        position: *game.position(),
        parent: None,
    };
    count::<BULK>(game, &root, game.legal(), depth)
}

/// A position of the walk and the one it was reached from (`None` for the game's own).
struct Node<'a> {
    position: Position,
    parent: Option<&'a Node<'a>>,
}

/// The leaves `depth >= 1` plies below `node`, a position whose game goes on and whose
/// legal actions are `legal`.
fn count<const BULK: bool>(game: &Game, node: &Node<'_>, legal: &LegalActions, depth: u32) -> u64 {
    if BULK && depth == 1 {
        return legal.count() as u64;
    }
    let mut list = ActionList::new();
    legal.generate(&mut list);
    let mover = node.position.to_move();
    let mut total = 0;
    for &action in list.iter() {
        let mut child = Node {
            position: node.position,
            parent: Some(node),
        };
        child.position.play_unchecked(action);
        let ended = child
            .position
            .outcome_after_action(mover, || repeated(game, &child));
        if !BULK && depth == 1 {
            // A leaf: adjudicated as a game would (the no-move rule included), counted.
            let no_moves = ended.is_none() && !child.position.legal().any();
            std::hint::black_box((ended, no_moves));
            total += 1;
            continue;
        }
        if ended.is_some() {
            continue;
        }
        let child_legal = child.position.legal();
        if child_legal.any() {
            total += count::<BULK>(game, &child, &child_legal, depth - 1);
        }
    }
    total
}

/// Whether `node`'s position has now occurred as often as the repetition rule allows, in
/// the game and on the path to it: counted by hash first (never below the true count),
/// confirmed by comparing positions only when that count reaches the limit.
fn repeated(game: &Game, node: &Node<'_>) -> bool {
    let Some(limit) = node.position.rules().repetition().limit() else {
        return false;
    };
    let on_path = |same: &dyn Fn(&Position) -> bool| {
        std::iter::successors(node.parent, |n| n.parent)
            .filter(|n| n.parent.is_some())
            .filter(|n| same(&n.position))
            .count()
    };
    let hash = node.position.hash();
    let by_hash = 1 + game.occurrences_by_hash(hash) + on_path(&|p| p.hash() == hash);
    by_hash >= limit as usize
        && 1 + game.occurrences_of(&node.position) + on_path(&|p| *p == node.position)
            >= limit as usize
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Repetition, Rng, Rules};

    /// Perft by playing and undoing on the game itself: slow, but the game's own
    /// adjudication (its history and exact repetition check) decides every node.
    fn perft_on_game(game: &mut Game, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if game.is_over() {
            return 0;
        }
        let mut total = 0;
        for action in game.legal().to_vec() {
            game.play_unchecked(action);
            total += perft_on_game(game, depth - 1);
            game.undo();
        }
        total
    }

    /// Copy-make perft, bulk and full, against play-and-undo on the game, from positions
    /// deep in random games under twofold and threefold repetition, where the path and
    /// the game's history together repeat positions within the tree.
    #[test]
    fn copy_make_counts_equal_the_games_own() {
        let twofold = Rules::STANDARD
            .with_repetition(Repetition::times(2).expect("a limit"))
            .expect("a rule set");
        let mut pruned = 0;
        for (rules, seeds) in [(twofold, 16), (Rules::STANDARD, 4), (Rules::LUDII, 4)] {
            for seed in 0..seeds {
                let mut game = Game::new(rules);
                let mut rng = Rng::new(seed);
                for _ in 0..30 + seed {
                    match game.legal().random(&mut rng) {
                        Some(action) => game.play_unchecked(action),
                        None => break,
                    };
                }
                if game.is_over() {
                    continue;
                }
                let depth = 3;
                let expected = perft_on_game(&mut game, depth);
                assert_eq!(perft(&mut game, depth), expected, "{rules} seed {seed}");
                assert_eq!(
                    perft_full(&mut game, depth),
                    expected,
                    "{rules} seed {seed}"
                );
                let mut unpruned = 0;
                for action in game.legal().to_vec() {
                    let mut position = *game.position();
                    position.play_unchecked(action);
                    unpruned += perft(&mut Game::from_position(position), depth - 1);
                }
                pruned += unpruned - expected;
            }
        }
        // Without the history some of these trees would be larger: repetition was tested.
        assert!(pruned > 0);
    }
}
