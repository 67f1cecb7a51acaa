//! Skill ladders: how deep a rule set is, measured as the number of steps of doubling
//! search budget at which the stronger agent still wins significantly.
//!
//! Level 0 is the agent as given; level `k + 1` doubles level `k`'s budget (MCTS
//! playouts, alpha-beta nodes, or one more ply of alpha-beta depth, a doubling of the
//! search at the least). Each level plays the level below it in colour-swapped pairs
//! (a tournament experiment whose pairings are the steps, the stronger agent first). A
//! step is *significant* when the stronger agent scores at least
//! [`SIGNIFICANT_SCORE`] and the 95% interval of its score over pairs lies above 1/2;
//! the ladder's depth is the number of significant steps. A game where more skill keeps
//! paying has a long ladder; a game that a modest search already plays as well as it can
//! be played has a short one.

use crate::adjudication::Adjudication;
use crate::error::{Error, Result};
use crate::experiment::{canonical_spec, Experiment, Kind, Pairing};
use crate::openings::OpeningSuite;
use crate::stats::Interval;
use crate::summary::Summary;
use agon_core::agents::AgentSpec;
use serde::{Deserialize, Serialize};

/// The score of the stronger agent that a significant step needs at least.
pub const SIGNIFICANT_SCORE: f64 = 0.55;
/// Games per step by default (20 colour-swapped pairs).
pub const DEFAULT_GAMES: u64 = 40;

/// A ladder: the agent of level 0, the number of levels, and the games of each step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderSpec {
    /// The agent of level 0 (canonical spec).
    pub agent: String,
    /// Levels, at least 2 (`levels - 1` steps).
    pub levels: u32,
    /// Games of each step.
    pub games: u64,
}

/// Which option of an agent's spec holds its budget, and how a level doubles it.
enum Budget {
    /// Doubled: `playouts`, `nodes`.
    Doubled(&'static str),
    /// One more ply per level: `depth`.
    Deeper(&'static str),
}

fn budget_of(spec: &AgentSpec) -> Option<Budget> {
    let has = |key: &str| spec.options.iter().any(|(k, _)| k == key);
    match spec.name.as_str() {
        "mcts" if has("playouts") => Some(Budget::Doubled("playouts")),
        "alphabeta" if has("nodes") => Some(Budget::Doubled("nodes")),
        "alphabeta" if has("depth") => Some(Budget::Deeper("depth")),
        _ => None,
    }
}

impl LadderSpec {
    /// A ladder of `levels` levels from `agent`, `games` games a step.
    pub fn new(agent: &str, levels: u32, games: u64) -> Result<LadderSpec> {
        if levels < 2 {
            return Err(Error::Settings(format!(
                "a ladder needs at least 2 levels (one step), not {levels}"
            )));
        }
        if levels > 16 {
            return Err(Error::Settings(format!(
                "--levels {levels}: at most 16 levels (level 15 has 32768 times the budget)"
            )));
        }
        if games < 2 {
            return Err(Error::Settings(
                "a ladder step needs at least 2 games (one colour-swapped pair)".into(),
            ));
        }
        let agent = canonical_spec(agent)?;
        let parsed = AgentSpec::parse(&agent).map_err(|e| Error::Settings(e.to_string()))?;
        if budget_of(&parsed).is_none() {
            return Err(Error::Settings(format!(
                "`{agent}` has no search budget to double: a ladder takes an `mcts` agent \
                 (playouts, e.g. mcts:playouts=100) or an `alphabeta` agent (depth or nodes, \
                 e.g. alphabeta:depth=1)"
            )));
        }
        let spec = LadderSpec {
            agent,
            levels,
            games,
        };
        spec.level_agents()?;
        Ok(spec)
    }

    /// The canonical spec of every level, level 0 first.
    pub fn level_agents(&self) -> Result<Vec<String>> {
        let parsed = AgentSpec::parse(&self.agent).map_err(|e| Error::Settings(e.to_string()))?;
        let budget = budget_of(&parsed).expect("checked by new");
        let key = match budget {
            Budget::Doubled(key) | Budget::Deeper(key) => key,
        };
        let base: u64 = parsed
            .options
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.parse().ok())
            .expect("a canonical spec's budget is a number");
        (0..self.levels)
            .map(|level| {
                let value = match budget {
                    Budget::Doubled(_) => base.checked_mul(1 << level),
                    Budget::Deeper(_) => base.checked_add(u64::from(level)),
                }
                .ok_or_else(|| {
                    Error::Settings(format!("level {level} of `{}` overflows", self.agent))
                })?;
                let options: Vec<String> = parsed
                    .options
                    .iter()
                    .map(|(k, v)| {
                        if k == key {
                            format!("{k}={value}")
                        } else {
                            format!("{k}={v}")
                        }
                    })
                    .collect();
                canonical_spec(&format!("{}:{}", parsed.name, options.join(",")))
            })
            .collect()
    }

    /// The experiment of the ladders of `variants`: a tournament whose pairings are the
    /// steps, level `k + 1` first (White in the first game of each pair) against level `k`;
    /// pair `p` of every step plays opening `p` of the suite, when there is one.
    pub fn experiment(
        &self,
        variants: Vec<String>,
        opening_plies: u32,
        max_plies: u32,
        seed: u64,
        adjudication: Adjudication,
        openings: Option<OpeningSuite>,
    ) -> Result<Experiment> {
        let agents = self.level_agents()?;
        let pairings = agents
            .windows(2)
            .map(|w| Pairing {
                first: w[1].clone(),
                second: w[0].clone(),
            })
            .collect();
        Experiment {
            kind: Kind::Tournament,
            variants,
            pairings,
            games: self.games,
            opening_plies,
            max_plies,
            seed,
            sprt: None,
            adjudication,
            openings,
        }
        .validated()
    }
}

/// One step of a ladder: a level against the level below.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The stronger agent (level `k + 1`).
    pub stronger: String,
    /// The weaker agent (level `k`).
    pub weaker: String,
    /// Games played.
    pub games: u64,
    /// The stronger agent's mean score.
    pub score: Option<f64>,
    /// Its 95% interval over colour-swapped pairs.
    pub interval: Option<Interval>,
    /// The Elo difference of that score.
    pub elo: Option<f64>,
    /// Whether the step is significant: score at least 55%, interval above 1/2.
    pub significant: bool,
}

/// The ladder of one rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ladder {
    /// The rule set.
    pub variant: String,
    /// Its steps, from the bottom.
    pub steps: Vec<Step>,
    /// The number of significant steps.
    pub depth: u32,
}

/// The ladders of every variant of a ladder experiment's summary.
pub fn ladders(summary: &Summary) -> Vec<Ladder> {
    let experiment = &summary.experiment;
    experiment
        .variants
        .iter()
        .map(|variant| {
            let steps: Vec<Step> = experiment
                .pairings
                .iter()
                .map(|pairing| {
                    let group = summary
                        .groups
                        .iter()
                        .find(|g| &g.variant == variant && g.pairing == pairing.label());
                    let first = group.and_then(|g| g.first_agent.as_ref());
                    let score = first.map(|f| f.score);
                    let interval = first.and_then(|f| f.interval);
                    Step {
                        stronger: pairing.first.clone(),
                        weaker: pairing.second.clone(),
                        games: group.map_or(0, |g| g.games),
                        score,
                        interval,
                        elo: first.and_then(|f| f.elo),
                        significant: score.is_some_and(|s| s >= SIGNIFICANT_SCORE)
                            && interval.is_some_and(|i| i.low > 0.5),
                    }
                })
                .collect();
            Ladder {
                variant: variant.clone(),
                depth: steps.iter().filter(|s| s.significant).count() as u32,
                steps,
            }
        })
        .collect()
}

/// A file-name form of a rule-set name: `intervention=suicide,capture=ring` becomes
/// `intervention-suicide_capture-ring`.
pub fn slug(variant: &str) -> String {
    variant.replace('=', "-").replace(',', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_double_the_budget() {
        let l = LadderSpec::new("mcts:playouts=50", 4, 20).unwrap();
        assert_eq!(
            l.level_agents().unwrap(),
            [
                "mcts:playouts=50",
                "mcts:playouts=100",
                "mcts:playouts=200",
                "mcts:playouts=400"
            ]
        );
        let l = LadderSpec::new("alphabeta:depth=1,noise=10", 3, 20).unwrap();
        assert_eq!(
            l.level_agents().unwrap(),
            [
                "alphabeta:depth=1,noise=10",
                "alphabeta:depth=2,noise=10",
                "alphabeta:depth=3,noise=10"
            ]
        );
        let l = LadderSpec::new("alphabeta:nodes=300", 2, 20).unwrap();
        assert_eq!(l.level_agents().unwrap()[1], "alphabeta:nodes=600");
        // `mcts` alone is mcts:playouts=1000.
        let l = LadderSpec::new("mcts", 2, 20).unwrap();
        assert_eq!(l.level_agents().unwrap()[1], "mcts:playouts=2000");
    }

    #[test]
    fn ladders_need_a_budget_and_two_levels() {
        for (agent, levels, games, says) in [
            ("random", 3, 20, "no search budget"),
            ("greedy", 3, 20, "no search budget"),
            ("mcts:playouts=10", 1, 20, "at least 2 levels"),
            ("mcts:playouts=10", 3, 1, "at least 2 games"),
            ("mcts:playouts=10", 40, 20, "at most 16"),
        ] {
            let e = LadderSpec::new(agent, levels, games)
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{agent}: {e}");
        }
    }

    #[test]
    fn the_experiment_pairs_each_level_with_the_one_below() {
        let l = LadderSpec::new("mcts:playouts=10", 3, 8).unwrap();
        let e = l
            .experiment(
                vec!["standard".into()],
                4,
                200,
                1,
                Adjudication::default(),
                None,
            )
            .unwrap();
        let labels: Vec<String> = e.pairings.iter().map(Pairing::label).collect();
        assert_eq!(
            labels,
            [
                "mcts:playouts=20 vs mcts:playouts=10",
                "mcts:playouts=40 vs mcts:playouts=20"
            ]
        );
        assert_eq!(e.kind, Kind::Tournament);
        assert_eq!(
            slug("intervention=suicide,capture=ring"),
            "intervention-suicide_capture-ring"
        );
    }
}
