//! The uniformly random player.

use super::Agent;
use crate::{Action, ActionList, Game, Rng};

/// Picks uniformly among the legal actions, from a seeded generator.
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// A random agent whose choices are determined by `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn spec(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &Game) -> Action {
        let mut list = ActionList::new();
        game.position().generate_legal(&mut list);
        list[self.rng.below(list.len())]
    }
}
