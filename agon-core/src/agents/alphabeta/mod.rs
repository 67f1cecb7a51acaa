//! The alpha-beta agent: iterative-deepening principal-variation search with a Zobrist
//! transposition table, move ordering (table action, captures, killers, history), a
//! capture quiescence search and the shared evaluation.

mod ordering;
mod search;
mod spare;
mod tt;

pub use search::{ScoredLine, SearchReport};

/// Scores at least this large are forced results (see [`SearchReport::forced_end`]).
pub(crate) const FORCED_SCORE: i32 = search::WIN_BOUND;

use super::eval::{evaluator, WeightOverrides};
use super::spec::{OptionInfo, Options};
use super::{Agent, SearchControl};
use crate::{Action, Game};
use search::{Limits, Searcher};
use std::time::Duration;

/// The settings of an [`AlphaBetaAgent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Deepest iteration in plies (`depth=`); with no limit at all, 4.
    pub depth: Option<u32>,
    /// Node budget per action (`nodes=`).
    pub nodes: Option<u64>,
    /// Time budget per action in milliseconds (`ms=`).
    pub ms: Option<u64>,
    /// Evaluation noise amplitude (`noise=`, evaluation units; 0 = none).
    pub noise: u32,
    /// Transposition table size in MB (`hash=`).
    pub hash_mb: usize,
    /// Whether leaves are searched for captures (`quiescence=on|off`).
    pub quiescence: bool,
    /// What a draw costs the searching side, in evaluation units (`contempt=`): positive
    /// values make it avoid repetitions unless it is behind.
    pub contempt: i32,
    /// The seed (noise and nothing else depends on it).
    pub seed: u64,
    /// Whether the seed came from the spec (then the spec shows it).
    pub seed_in_spec: bool,
    /// Evaluation weight overrides (`weights=`; for tuning).
    pub weights: WeightOverrides,
    /// How many of the best actions each search scores exactly and reports with their
    /// lines (`multipv=`, 1-256; [`SearchReport::lines`]). The chosen action and its score
    /// are the same whatever this is; more lines cost more nodes.
    pub multipv: usize,
}

impl AlphaBetaConfig {
    /// Depth when no limit is given.
    pub const DEFAULT_DEPTH: u32 = 4;
    /// Default contempt for draws.
    pub const DEFAULT_CONTEMPT: i32 = 50;
    /// Default table size in MB.
    pub const DEFAULT_HASH_MB: usize = 16;

    /// The options `alphabeta` accepts.
    pub(crate) const OPTIONS: &'static [OptionInfo] = &[
        ("depth", "plies, 1-64"),
        ("nodes", "node budget per action"),
        ("ms", "milliseconds per action"),
        ("noise", "evaluation noise, 0-1000"),
        ("hash", "table size in MB, 1-4096"),
        ("quiescence", "on or off"),
        ("contempt", "what a draw costs, -1000 to 1000"),
        (
            "weights",
            "evaluation weight overrides, name:value+name:value",
        ),
        ("multipv", "lines to score, 1-256"),
        ("seed", "whole number"),
    ];

    /// The most lines a search reports.
    pub const MAX_MULTIPV: usize = 256;

    /// Reads the options of a spec.
    pub(crate) fn from_options(options: &Options, seed: u64) -> Result<AlphaBetaConfig, String> {
        let spec_seed = options.uint("seed", 0, u64::MAX)?;
        Ok(AlphaBetaConfig {
            depth: options.uint("depth", 1, 64)?.map(|d| d as u32),
            nodes: options.uint("nodes", 1, u64::MAX)?,
            ms: options.uint("ms", 1, 86_400_000)?,
            noise: options.uint("noise", 0, 1000)?.unwrap_or(0) as u32,
            hash_mb: options
                .uint("hash", 1, 4096)?
                .map_or(AlphaBetaConfig::DEFAULT_HASH_MB, |h| h as usize),
            quiescence: options.switch("quiescence")?.unwrap_or(true),
            contempt: options
                .int("contempt", -1000, 1000)?
                .map_or(AlphaBetaConfig::DEFAULT_CONTEMPT, |c| c as i32),
            seed: spec_seed.unwrap_or(seed),
            seed_in_spec: spec_seed.is_some(),
            weights: options.weights()?,
            multipv: options
                .uint("multipv", 1, AlphaBetaConfig::MAX_MULTIPV as u64)?
                .map_or(1, |n| n as usize),
        })
    }

    /// A depth-limited configuration with the defaults otherwise.
    pub fn with_depth(depth: u32, seed: u64) -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: Some(depth),
            nodes: None,
            ms: None,
            noise: 0,
            hash_mb: AlphaBetaConfig::DEFAULT_HASH_MB,
            quiescence: true,
            contempt: AlphaBetaConfig::DEFAULT_CONTEMPT,
            seed,
            seed_in_spec: false,
            weights: WeightOverrides::none(),
            multipv: 1,
        }
    }

    fn limits(&self) -> Limits {
        let unlimited = self.depth.is_none() && self.nodes.is_none() && self.ms.is_none();
        Limits {
            depth: match self.depth {
                Some(d) => d,
                None if unlimited => AlphaBetaConfig::DEFAULT_DEPTH,
                None => 64,
            },
            nodes: self.nodes,
            time: self.ms.map(Duration::from_millis),
            lines: self.multipv,
        }
    }

    /// The canonical spec string.
    pub fn spec(&self) -> String {
        let mut parts = Vec::new();
        let limits = self.limits();
        if self.depth.is_some() || (self.nodes.is_none() && self.ms.is_none()) {
            parts.push(format!("depth={}", limits.depth));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(ms) = self.ms {
            parts.push(format!("ms={ms}"));
        }
        if self.noise > 0 {
            parts.push(format!("noise={}", self.noise));
        }
        if self.hash_mb != AlphaBetaConfig::DEFAULT_HASH_MB {
            parts.push(format!("hash={}", self.hash_mb));
        }
        if !self.quiescence {
            parts.push("quiescence=off".into());
        }
        if self.contempt != AlphaBetaConfig::DEFAULT_CONTEMPT {
            parts.push(format!("contempt={}", self.contempt));
        }
        if !self.weights.is_empty() {
            parts.push(format!("weights={}", self.weights));
        }
        if self.multipv != 1 {
            parts.push(format!("multipv={}", self.multipv));
        }
        if self.seed_in_spec {
            parts.push(format!("seed={}", self.seed));
        }
        format!("alphabeta:{}", parts.join(","))
    }
}

/// Iterative-deepening alpha-beta search.
pub struct AlphaBetaAgent {
    config: AlphaBetaConfig,
    searcher: Option<Searcher>,
    last: Option<SearchReport>,
}

impl AlphaBetaAgent {
    /// An agent with these settings (the table is allocated on the first search).
    pub fn new(config: AlphaBetaConfig) -> AlphaBetaAgent {
        AlphaBetaAgent {
            config,
            searcher: None,
            last: None,
        }
    }

    /// Searches the current position and reports the result (what `choose` does).
    pub fn search(&mut self, game: &Game) -> SearchReport {
        let limits = self.config.limits();
        self.search_with(game, limits, None, &mut |_| {})
    }

    fn search_with(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let config = &self.config;
        let searcher = self.searcher.get_or_insert_with(|| {
            let salt = crate::Rng::new(config.seed).next_u64();
            let eval = evaluator(config.noise, salt, &config.weights);
            let (hash_mb, quiescence, contempt) =
                (config.hash_mb, config.quiescence, config.contempt);
            spare::take(|kept| kept.reuse(eval.clone(), hash_mb, quiescence, contempt))
                .unwrap_or_else(|| Searcher::new(eval, hash_mb, quiescence, contempt))
        });
        let report = searcher.think_with(game, limits, stop, on_iteration);
        self.last = Some(report.clone());
        report
    }

    /// The report of the last search, if any.
    pub fn last_report(&self) -> Option<&SearchReport> {
        self.last.as_ref()
    }
}

impl Drop for AlphaBetaAgent {
    /// Leaves the searcher's memory to the thread's next agent (see `spare`).
    fn drop(&mut self) {
        if let Some(searcher) = self.searcher.take() {
            spare::keep(searcher);
        }
    }
}

impl Agent for AlphaBetaAgent {
    fn spec(&self) -> String {
        self.config.spec()
    }

    fn choose(&mut self, game: &Game) -> Action {
        self.search(game).action
    }

    fn choose_with(&mut self, game: &Game, control: &mut SearchControl<'_>) -> Action {
        let limits = match control.limits {
            None => self.config.limits(),
            Some(l) => Limits {
                depth: l.depth.unwrap_or(64).clamp(1, 64),
                nodes: l.nodes,
                time: l.time,
                lines: self.config.multipv,
            },
        };
        let stop = control.stop.clone();
        match control.on_iteration.as_deref_mut() {
            Some(callback) => self.search_with(game, limits, stop, callback).action,
            None => self.search_with(game, limits, stop, &mut |_| {}).action,
        }
    }

    fn new_game(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    fn is_time_limited(&self) -> bool {
        self.config.ms.is_some()
    }

    fn last_score(&self) -> Option<i32> {
        self.last.as_ref().map(|report| report.score)
    }
}
