//! The MCTS agent: UCT over a tree kept between moves, with playouts that follow a policy
//! weighted toward captures and inward steps, cut off after a few plies and scored by the
//! shared evaluation.

mod playout;
mod tree;

#[cfg(test)]
pub(crate) use playout::units;

use super::eval::{evaluator, Evaluator, WeightOverrides};
use super::history::History;
use super::spec::{OptionInfo, Options};
use super::terminal::{judge, Terminal};
use super::{Agent, SearchControl};
use crate::{Action, ActionList, Game, Rng};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};
use tree::{Context, Tree};

/// The settings of an [`MctsAgent`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Playouts per action (`playouts=`); with no limit at all, 1000.
    pub playouts: Option<u64>,
    /// Time per action in milliseconds (`ms=`).
    pub ms: Option<u64>,
    /// The UCT exploration constant (`exploration=`).
    pub exploration: f64,
    /// Plies of each playout before the evaluation scores it (`cutoff=`).
    pub cutoff: u32,
    /// Weight of a new leaf's static evaluation in its reward, against its playout
    /// (`eval-weight=`, 0 to 1).
    pub eval_weight: f64,
    /// Whether the tree is kept between moves (`reuse=on|off`).
    pub reuse: bool,
    /// Evaluation noise amplitude (`noise=`).
    pub noise: u32,
    /// The seed of the playouts.
    pub seed: u64,
    /// Whether the seed came from the spec (then the spec shows it).
    pub seed_in_spec: bool,
    /// Evaluation weight overrides (`weights=`; for tuning).
    pub weights: WeightOverrides,
}

impl MctsConfig {
    /// Playouts when no limit is given.
    pub const DEFAULT_PLAYOUTS: u64 = 1000;
    /// Default exploration constant.
    pub const DEFAULT_EXPLORATION: f64 = 0.2;
    /// Default weight of the static evaluation of a leaf.
    pub const DEFAULT_EVAL_WEIGHT: f64 = 0.4;
    /// Default playout length.
    pub const DEFAULT_CUTOFF: u32 = 32;
    /// The most nodes a tree may hold (about 40 bytes each).
    const MAX_NODES: usize = 4_000_000;

    /// The options `mcts` accepts.
    pub(crate) const OPTIONS: &'static [OptionInfo] = &[
        ("playouts", "playouts per action"),
        ("ms", "milliseconds per action"),
        ("exploration", "UCT constant, 0-10"),
        ("cutoff", "playout plies before evaluating, 0-1000"),
        (
            "eval-weight",
            "weight of a leaf's evaluation against its playout, 0-1",
        ),
        ("reuse", "keep the tree between moves, on or off"),
        ("noise", "evaluation noise, 0-1000"),
        (
            "weights",
            "evaluation weight overrides, name:value+name:value",
        ),
        ("seed", "whole number"),
    ];

    /// Reads the options of a spec.
    pub(crate) fn from_options(options: &Options, seed: u64) -> Result<MctsConfig, String> {
        let spec_seed = options.uint("seed", 0, u64::MAX)?;
        Ok(MctsConfig {
            playouts: options.uint("playouts", 1, 1_000_000_000)?,
            ms: options.uint("ms", 1, 86_400_000)?,
            exploration: options
                .float("exploration", 0.0, 10.0)?
                .unwrap_or(MctsConfig::DEFAULT_EXPLORATION),
            cutoff: options
                .uint("cutoff", 0, 1000)?
                .map_or(MctsConfig::DEFAULT_CUTOFF, |c| c as u32),
            eval_weight: options
                .float("eval-weight", 0.0, 1.0)?
                .unwrap_or(MctsConfig::DEFAULT_EVAL_WEIGHT),
            reuse: options.switch("reuse")?.unwrap_or(true),
            noise: options.uint("noise", 0, 1000)?.unwrap_or(0) as u32,
            seed: spec_seed.unwrap_or(seed),
            seed_in_spec: spec_seed.is_some(),
            weights: options.weights()?,
        })
    }

    /// A playout-limited configuration with the defaults otherwise.
    pub fn with_playouts(playouts: u64, seed: u64) -> MctsConfig {
        MctsConfig {
            playouts: Some(playouts),
            ms: None,
            exploration: MctsConfig::DEFAULT_EXPLORATION,
            cutoff: MctsConfig::DEFAULT_CUTOFF,
            eval_weight: MctsConfig::DEFAULT_EVAL_WEIGHT,
            reuse: true,
            noise: 0,
            seed,
            seed_in_spec: false,
            weights: WeightOverrides::none(),
        }
    }

    fn playout_limit(&self) -> u64 {
        match (self.playouts, self.ms) {
            (Some(p), _) => p,
            (None, Some(_)) => u64::MAX,
            (None, None) => MctsConfig::DEFAULT_PLAYOUTS,
        }
    }

    /// The canonical spec string.
    pub fn spec(&self) -> String {
        let mut parts = Vec::new();
        if self.playouts.is_some() || self.ms.is_none() {
            parts.push(format!("playouts={}", self.playout_limit()));
        }
        if let Some(ms) = self.ms {
            parts.push(format!("ms={ms}"));
        }
        if self.exploration != MctsConfig::DEFAULT_EXPLORATION {
            parts.push(format!("exploration={}", self.exploration));
        }
        if self.cutoff != MctsConfig::DEFAULT_CUTOFF {
            parts.push(format!("cutoff={}", self.cutoff));
        }
        if self.eval_weight != MctsConfig::DEFAULT_EVAL_WEIGHT {
            parts.push(format!("eval-weight={}", self.eval_weight));
        }
        if !self.reuse {
            parts.push("reuse=off".into());
        }
        if self.noise > 0 {
            parts.push(format!("noise={}", self.noise));
        }
        if !self.weights.is_empty() {
            parts.push(format!("weights={}", self.weights));
        }
        if self.seed_in_spec {
            parts.push(format!("seed={}", self.seed));
        }
        format!("mcts:{}", parts.join(","))
    }
}

/// What an MCTS search did.
#[derive(Clone, Debug)]
pub struct MctsReport {
    /// The chosen action.
    pub action: Action,
    /// Playouts run for this action (reused ones not counted).
    pub playouts: u64,
    /// Visits of the root, reused ones included.
    pub root_visits: u32,
    /// The chosen action's mean reward for the decider, 0 to 1.
    pub value: f64,
    /// Nodes in the tree.
    pub tree_nodes: usize,
    /// The root's actions with their visits and mean reward for the decider, most visited
    /// first (empty when the action was forced or an immediate win).
    pub children: Vec<(Action, u32, f64)>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Monte Carlo tree search.
pub struct MctsAgent {
    config: MctsConfig,
    eval: Evaluator,
    rng: Rng,
    history: History,
    tree: Option<Tree>,
    last: Option<MctsReport>,
}

impl MctsAgent {
    /// An agent with these settings.
    pub fn new(config: MctsConfig) -> MctsAgent {
        let mut rng = Rng::new(config.seed);
        let salt = rng.next_u64();
        MctsAgent {
            eval: evaluator(config.noise, salt, &config.weights),
            config,
            rng,
            history: History::new(),
            tree: None,
            last: None,
        }
    }

    /// The report of the last search, if any.
    pub fn last_report(&self) -> Option<&MctsReport> {
        self.last.as_ref()
    }

    /// The tree for the game's current position: the old one re-rooted if it holds it.
    fn take_tree(&mut self, game: &Game) -> Tree {
        let position = *game.position();
        let ply = game.ply_count();
        if let Some(old) = self.tree.take() {
            let same_game = old.root_ply() <= ply
                && game
                    .position_before(old.root_ply())
                    .is_some_and(|p| p == old.root() && p.hash() == old.root().hash());
            if self.config.reuse && same_game {
                let actions: Vec<Action> = game.plies()[old.root_ply()..]
                    .iter()
                    .map(|p| p.action)
                    .collect();
                if let Some(tree) = old.descend(&actions, position, ply) {
                    return tree;
                }
            }
        }
        Tree::new(position, ply)
    }

    /// Searches the current position and reports the result (what `choose` does).
    pub fn search(&mut self, game: &Game) -> MctsReport {
        let start = Instant::now();
        let limit = self.config.playout_limit();
        let deadline = self.config.ms.map(|ms| start + Duration::from_millis(ms));
        self.search_until(game, start, limit, deadline, None)
    }

    /// Searches until `limit` playouts, the deadline or the stop flag (checked every 64
    /// playouts, after the first batch).
    fn search_until(
        &mut self,
        game: &Game,
        start: Instant,
        limit: u64,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> MctsReport {
        let root = *game.position();
        let mut list = ActionList::new();
        root.legal().generate(&mut list);
        self.history.reset(game);
        // Take a win at once when there is one.
        let me = root.decider();
        for &action in list.iter() {
            let mut child = root;
            child.play_unchecked(action);
            if judge(&child, root.to_move(), action, &self.history) == Some(Terminal::Win(me)) {
                self.tree = None;
                return self.finish(action, 0, 0, 1.0, 0, start);
            }
        }
        if list.len() == 1 {
            return self.finish(list[0], 0, 0, 0.5, 0, start);
        }
        let mut tree = self.take_tree(game);
        let mut cx = Context {
            eval: &self.eval,
            history: &mut self.history,
            rng: &mut self.rng,
            exploration: self.config.exploration,
            cutoff: self.config.cutoff,
            eval_weight: self.config.eval_weight,
            max_nodes: MctsConfig::MAX_NODES,
        };
        let mut playouts = 0;
        while playouts < limit {
            if playouts % 64 == 0 && playouts > 0 {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                if stop.is_some_and(|s| s.load(AtomicOrdering::Relaxed)) {
                    break;
                }
            }
            tree.iterate(&mut cx, &mut list);
            playouts += 1;
        }
        let mut children = tree.root_children();
        children.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
        let (action, _, value) = children[0];
        let (visits, nodes) = (tree.root_visits(), tree.len());
        self.tree = self.config.reuse.then_some(tree);
        let mut report = self.finish(action, playouts, visits, value, nodes, start);
        report.children = children;
        self.last = Some(report.clone());
        report
    }

    fn finish(
        &mut self,
        action: Action,
        playouts: u64,
        root_visits: u32,
        value: f64,
        tree_nodes: usize,
        start: Instant,
    ) -> MctsReport {
        let report = MctsReport {
            action,
            playouts,
            root_visits,
            value,
            tree_nodes,
            children: Vec::new(),
            elapsed: start.elapsed(),
        };
        self.last = Some(report.clone());
        report
    }
}

impl Agent for MctsAgent {
    fn spec(&self) -> String {
        self.config.spec()
    }

    fn choose(&mut self, game: &Game) -> Action {
        self.search(game).action
    }

    /// Honours the stop flag and, in place of the configured budget, the limits' time and
    /// node budget (counted in playouts). A depth limit does not apply to MCTS: with only
    /// a depth, the configured budget applies; with no limit at all, the search runs until
    /// stopped (or, without a stop flag, for the configured budget).
    fn choose_with(&mut self, game: &Game, control: &mut SearchControl<'_>) -> Action {
        let start = Instant::now();
        let configured = (
            self.config.playout_limit(),
            self.config.ms.map(|ms| start + Duration::from_millis(ms)),
        );
        let (limit, deadline) = match control.limits {
            Some(l) if l.nodes.is_some() || l.time.is_some() => {
                (l.nodes.unwrap_or(u64::MAX), l.time.map(|t| start + t))
            }
            Some(l) if l.depth.is_none() && control.stop.is_some() => (u64::MAX, None),
            _ => configured,
        };
        let stop = control.stop.clone();
        self.search_until(game, start, limit, deadline, stop.as_deref())
            .action
    }

    fn new_game(&mut self) {
        self.tree = None;
    }

    fn is_time_limited(&self) -> bool {
        self.config.ms.is_some()
    }

    /// The chosen action's mean reward as evaluation units; a win taken at once is a
    /// forced win, and a single legal action (no search) has no score.
    fn last_score(&self) -> Option<i32> {
        let report = self.last.as_ref()?;
        match (report.playouts, report.root_visits) {
            (0, 0) if report.value >= 1.0 => Some(super::FORCED_SCORE),
            (0, 0) => None,
            _ => Some(playout::units(report.value)),
        }
    }
}
