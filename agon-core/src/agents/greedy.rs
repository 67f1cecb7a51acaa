//! The greedy agent: plays every legal action, evaluates the position it leads to, and
//! picks the best, breaking ties at random (seeded).

use super::eval::{evaluator, Evaluator, Verdict, WeightOverrides};
use super::history::History;
use super::spec::{OptionInfo, Options};
use super::terminal::{judge, Terminal};
use super::Agent;
use crate::{Action, ActionList, Game, Rng};

/// The settings of a [`GreedyAgent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GreedyConfig {
    /// Evaluation noise amplitude (`noise=`; 0 = none).
    pub noise: u32,
    /// The seed of the tie-break (and of the noise).
    pub seed: u64,
    /// Whether the seed came from the spec (then the spec shows it).
    pub seed_in_spec: bool,
    /// Evaluation weight overrides (`weights=`; for tuning).
    pub weights: WeightOverrides,
}

impl GreedyConfig {
    /// The options `greedy` accepts.
    pub(crate) const OPTIONS: &'static [OptionInfo] = &[
        ("noise", "evaluation noise, 0-1000"),
        (
            "weights",
            "evaluation weight overrides, name:value+name:value",
        ),
        ("seed", "whole number"),
    ];

    /// Reads the options of a spec.
    pub(crate) fn from_options(options: &Options, seed: u64) -> Result<GreedyConfig, String> {
        let spec_seed = options.uint("seed", 0, u64::MAX)?;
        Ok(GreedyConfig {
            noise: options.uint("noise", 0, 1000)?.unwrap_or(0) as u32,
            seed: spec_seed.unwrap_or(seed),
            seed_in_spec: spec_seed.is_some(),
            weights: options.weights()?,
        })
    }

    /// The canonical spec string.
    pub fn spec(&self) -> String {
        let mut parts = Vec::new();
        if self.noise > 0 {
            parts.push(format!("noise={}", self.noise));
        }
        if !self.weights.is_empty() {
            parts.push(format!("weights={}", self.weights));
        }
        if self.seed_in_spec {
            parts.push(format!("seed={}", self.seed));
        }
        if parts.is_empty() {
            "greedy".into()
        } else {
            format!("greedy:{}", parts.join(","))
        }
    }
}

/// One ply of look-ahead with the evaluation.
pub struct GreedyAgent {
    config: GreedyConfig,
    eval: Evaluator,
    rng: Rng,
    history: History,
}

impl GreedyAgent {
    /// An agent with these settings.
    pub fn new(config: GreedyConfig) -> GreedyAgent {
        let mut rng = Rng::new(config.seed);
        let salt = rng.next_u64();
        GreedyAgent {
            eval: evaluator(config.noise, salt, &config.weights),
            config,
            rng,
            history: History::new(),
        }
    }
}

impl Agent for GreedyAgent {
    fn spec(&self) -> String {
        self.config.spec()
    }

    fn choose(&mut self, game: &Game) -> Action {
        const WIN: i64 = 1 << 40;
        let root = game.position();
        let me = root.decider();
        let mover = root.to_move();
        self.history.reset(game);
        let mut list = ActionList::new();
        root.legal().generate(&mut list);
        let mut best = i64::MIN;
        let mut ties: Vec<Action> = Vec::new();
        for &action in list.iter() {
            let mut child = *root;
            child.play_unchecked(action);
            let score = match judge(&child, mover, action, &self.history) {
                Some(Terminal::Win(side)) if side == me => WIN,
                Some(Terminal::Win(_)) => -WIN,
                Some(Terminal::Draw) => 0,
                None => match self.eval.for_side(&child, me) {
                    Verdict::NoMoves if child.to_move() == me => -WIN,
                    Verdict::NoMoves => WIN,
                    Verdict::Score(s) => s as i64,
                },
            };
            if score > best {
                best = score;
                ties.clear();
            }
            if score == best {
                ties.push(action);
            }
        }
        ties[self.rng.below(ties.len())]
    }
}
