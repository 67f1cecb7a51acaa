//! Searchers kept for reuse on the thread that dropped them.
//!
//! Self-play builds two fresh agents for every game (so that a game depends only on its
//! seed), and a fresh agent's 16 MB table is memory the system must hand out and zero page
//! by page as the search first touches it: with shallow searches that cost more than the
//! searching. A dropped agent leaves its searcher here instead, and the next agent of the
//! same table size on the same thread takes it, cleared in constant time
//! ([`Searcher::reuse`] searches exactly as a new searcher would).

use super::search::Searcher;
use std::cell::RefCell;

/// The most searchers kept per thread (a game has two agents).
const KEEP: usize = 2;

thread_local! {
    static SPARE: RefCell<Vec<Searcher>> = const { RefCell::new(Vec::new()) };
}

/// A kept searcher, if any, remade by `remake` (which declines one of another size).
pub(crate) fn take(mut remake: impl FnMut(Searcher) -> Option<Searcher>) -> Option<Searcher> {
    SPARE
        .try_with(|spare| {
            let mut spare = spare.borrow_mut();
            while let Some(searcher) = spare.pop() {
                if let Some(ready) = remake(searcher) {
                    return Some(ready);
                }
            }
            None
        })
        .ok()
        .flatten()
}

/// Keeps a searcher for the next agent on this thread (the oldest goes when too many are
/// kept; nothing is kept while the thread is ending).
pub(crate) fn keep(searcher: Searcher) {
    let _ = SPARE.try_with(|spare| {
        let mut spare = spare.borrow_mut();
        if spare.len() == KEEP {
            spare.remove(0);
        }
        spare.push(searcher);
    });
}

/// Forgets the kept searchers of this thread.
#[cfg(test)]
pub(crate) fn forget() {
    SPARE.with(|spare| spare.borrow_mut().clear());
}

/// How many searchers this thread keeps.
#[cfg(test)]
fn kept() -> usize {
    SPARE.with(|spare| spare.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::super::{AlphaBetaAgent, AlphaBetaConfig};
    use super::*;
    use crate::{Game, QueenRelocatedBy, Rng, Rules};

    /// A game `plies` random plies long, from the first seed from `seed` on whose game
    /// lasts that long.
    fn game_after(rules: Rules, seed: u64, plies: usize) -> Game {
        (seed..)
            .map(|s| {
                let mut rng = Rng::new(s);
                let mut game = Game::new(rules);
                while !game.is_over() && game.ply_count() < plies {
                    let action = game.legal().random(&mut rng).expect("the game goes on");
                    game.play_unchecked(action);
                }
                game
            })
            .find(|game| !game.is_over())
            .expect("some game lasts")
    }

    #[test]
    fn a_reused_searcher_searches_exactly_as_a_new_one() {
        let mut variants = vec![Rules::STANDARD, Rules::LUDII];
        variants.extend(
            Rules::single_switch_variants()
                .into_iter()
                .filter(|r| r.queen_relocated_by() == QueenRelocatedBy::Opponent),
        );
        for rules in variants {
            let earlier = game_after(rules, 3, 40);
            let game = game_after(rules, 8, 70);
            let config = AlphaBetaConfig {
                noise: 6,
                ..AlphaBetaConfig::with_depth(4, 11)
            };
            forget();
            let fresh = AlphaBetaAgent::new(config.clone()).search(&game);
            assert_eq!(kept(), 1, "a dropped agent leaves its searcher");
            {
                // Another agent (other seed, noise and limits, a search cut short by its
                // node budget) uses the kept searcher and leaves it behind again.
                let mut other = AlphaBetaAgent::new(AlphaBetaConfig {
                    nodes: Some(3_000),
                    ..AlphaBetaConfig::with_depth(6, 99)
                });
                other.search(&earlier);
                other.search(&game);
                assert_eq!(kept(), 0);
            }
            let mut agent = AlphaBetaAgent::new(config);
            let reused = agent.search(&game);
            assert_eq!(kept(), 0, "the agent took the kept searcher");
            assert_eq!(
                (
                    reused.nodes,
                    reused.action,
                    reused.score,
                    reused.depth,
                    &reused.pv
                ),
                (
                    fresh.nodes,
                    fresh.action,
                    fresh.score,
                    fresh.depth,
                    &fresh.pv
                ),
                "{rules}"
            );
        }
    }

    #[test]
    fn a_searcher_of_another_table_size_is_not_taken() {
        forget();
        let game = game_after(Rules::STANDARD, 8, 70);
        AlphaBetaAgent::new(AlphaBetaConfig::with_depth(2, 1)).search(&game);
        assert_eq!(kept(), 1);
        let mut small = AlphaBetaAgent::new(AlphaBetaConfig {
            hash_mb: 1,
            ..AlphaBetaConfig::with_depth(2, 1)
        });
        small.search(&game);
        assert_eq!(kept(), 0, "the 16 MB searcher was let go, not reused");
        drop(small);
        assert_eq!(kept(), 1);
    }
}
