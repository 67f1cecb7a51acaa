//! The uniformly random player.

use super::spec::OptionInfo;
use super::Agent;
use crate::{Action, ActionList, Game, Rng};

/// Picks uniformly among the legal actions, from a seeded generator.
pub struct RandomAgent {
    rng: Rng,
    spec_seed: Option<u64>,
}

impl RandomAgent {
    /// The options `random` accepts.
    pub(crate) const OPTIONS: &'static [OptionInfo] = &[("seed", "whole number")];

    /// A random agent whose choices are determined by `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
            spec_seed: None,
        }
    }

    /// A random agent whose seed was given in its spec (the spec shows it).
    pub(crate) fn with_spec_seed(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
            spec_seed: Some(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn spec(&self) -> String {
        match self.spec_seed {
            Some(seed) => format!("random:seed={seed}"),
            None => "random".into(),
        }
    }

    fn choose(&mut self, game: &Game) -> Action {
        let mut list = ActionList::new();
        game.position().legal().generate(&mut list);
        list[self.rng.below(list.len())]
    }
}
