//! Agent spec strings: `name` or `name:key=value,key=value`, and the typed reading of
//! their options.

use super::Agent;
use super::{AlphaBetaAgent, GreedyAgent, MctsAgent, RandomAgent};
use super::{AlphaBetaConfig, GreedyConfig, MctsConfig, WeightOverrides};
use std::fmt;

/// The agents [`from_spec`] knows, with a one-line description each.
pub const AGENTS: [(&str, &str); 4] = [
    ("random", "uniform over the legal actions"),
    ("greedy", "one ply with the evaluation, random tie-break"),
    (
        "alphabeta",
        "iterative-deepening principal-variation search with a transposition table",
    ),
    ("mcts", "Monte Carlo tree search (UCT) with biased playouts"),
];

/// A parsed spec: the agent's name and its options, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// `random`, `greedy`, `alphabeta`, `mcts`, ...
    pub name: String,
    /// `key=value` options.
    pub options: Vec<(String, String)>,
}

/// Why a spec string does not name an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpecError {
    /// The spec as given.
    pub spec: String,
    /// What was wrong and what is valid.
    pub message: String,
}

impl fmt::Display for AgentSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an agent: {}", self.spec, self.message)
    }
}

impl std::error::Error for AgentSpecError {}

impl AgentSpec {
    /// Splits `name:key=value,...` (no rule knowledge here).
    pub fn parse(spec: &str) -> Result<AgentSpec, AgentSpecError> {
        let error = |message: String| AgentSpecError {
            spec: spec.to_string(),
            message,
        };
        let (name, rest) = match spec.split_once(':') {
            Some((name, rest)) => (name.trim(), Some(rest)),
            None => (spec.trim(), None),
        };
        if name.is_empty() {
            return Err(error(format!("empty agent name; {}", agent_list())));
        }
        let mut options = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let Some((k, v)) = part.split_once('=') else {
                    return Err(error(format!("option `{part}` is not key=value")));
                };
                options.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        Ok(AgentSpec {
            name: name.to_string(),
            options,
        })
    }
}

/// Builds the agent a spec names, seeded with `seed` (the same spec and seed always give
/// the same choices, unless the agent is time-limited). A `seed=` option in the spec
/// replaces `seed`.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Agent>, AgentSpecError> {
    let parsed = AgentSpec::parse(spec)?;
    let error = |message: String| AgentSpecError {
        spec: spec.to_string(),
        message,
    };
    match parsed.name.as_str() {
        "random" => {
            let options = Options::new(&parsed, RandomAgent::OPTIONS).map_err(error)?;
            Ok(Box::new(
                match options.uint("seed", 0, u64::MAX).map_err(error)? {
                    Some(seed) => RandomAgent::with_spec_seed(seed),
                    None => RandomAgent::new(seed),
                },
            ))
        }
        "greedy" => {
            let options = Options::new(&parsed, GreedyConfig::OPTIONS).map_err(error)?;
            let config = GreedyConfig::from_options(&options, seed).map_err(error)?;
            Ok(Box::new(GreedyAgent::new(config)))
        }
        "alphabeta" => Ok(Box::new(AlphaBetaAgent::new(AlphaBetaConfig::from_spec(
            spec, seed,
        )?))),
        "mcts" => {
            let options = Options::new(&parsed, MctsConfig::OPTIONS).map_err(error)?;
            let config = MctsConfig::from_options(&options, seed).map_err(error)?;
            Ok(Box::new(MctsAgent::new(config)))
        }
        other => Err(error(format!("unknown agent `{other}`; {}", agent_list()))),
    }
}

impl AlphaBetaConfig {
    /// The settings an `alphabeta` spec describes (for callers that need the alpha-beta
    /// agent itself, with its scores and lines, rather than any [`Agent`]); other agents
    /// are refused.
    ///
    /// ```
    /// use agon_core::agents::AlphaBetaConfig;
    /// let config = AlphaBetaConfig::from_spec("alphabeta:depth=6,multipv=3", 0)?;
    /// assert_eq!((config.depth, config.multipv), (Some(6), 3));
    /// assert!(AlphaBetaConfig::from_spec("mcts", 0).is_err());
    /// # Ok::<(), agon_core::agents::AgentSpecError>(())
    /// ```
    pub fn from_spec(spec: &str, seed: u64) -> Result<AlphaBetaConfig, AgentSpecError> {
        let parsed = AgentSpec::parse(spec)?;
        let error = |message: String| AgentSpecError {
            spec: spec.to_string(),
            message,
        };
        if parsed.name != "alphabeta" {
            return Err(error(format!(
                "`{}` is not the alpha-beta agent (only `alphabeta` reports scores and lines)",
                parsed.name
            )));
        }
        let options = Options::new(&parsed, AlphaBetaConfig::OPTIONS).map_err(error)?;
        AlphaBetaConfig::from_options(&options, seed).map_err(error)
    }
}

fn agent_list() -> String {
    let names: Vec<&str> = AGENTS.iter().map(|(name, _)| *name).collect();
    format!("known agents: {}", names.join(", "))
}

/// One option an agent accepts: its key and what values it takes (for error messages).
pub(crate) type OptionInfo = (&'static str, &'static str);

/// The options of one spec, checked against the keys its agent accepts.
pub(crate) struct Options<'a> {
    agent: &'a str,
    given: &'a [(String, String)],
}

impl<'a> Options<'a> {
    /// Checks that every key is known and given once.
    pub(crate) fn new(spec: &'a AgentSpec, valid: &[OptionInfo]) -> Result<Options<'a>, String> {
        for (i, (key, _)) in spec.options.iter().enumerate() {
            if !valid.iter().any(|(k, _)| k == key) {
                let list: Vec<String> = valid.iter().map(|(k, v)| format!("{k} ({v})")).collect();
                return Err(format!(
                    "unknown option `{key}` for `{}`; valid options: {}",
                    spec.name,
                    if list.is_empty() {
                        "none".to_string()
                    } else {
                        list.join(", ")
                    }
                ));
            }
            if spec.options[..i].iter().any(|(k, _)| k == key) {
                return Err(format!("option `{key}` is given twice"));
            }
        }
        Ok(Options {
            agent: &spec.name,
            given: &spec.options,
        })
    }

    fn value(&self, key: &str) -> Option<&'a str> {
        self.given
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Evaluation weight overrides (`weights=name:value+name:value`); none if the option
    /// is not given.
    pub(crate) fn weights(&self) -> Result<WeightOverrides, String> {
        let text = self.value("weights").unwrap_or("");
        text.parse().map_err(|e| format!("`weights={text}`: {e}"))
    }

    /// A whole number in `min..=max`, if the option is given.
    pub(crate) fn uint(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, String> {
        let Some(text) = self.value(key) else {
            return Ok(None);
        };
        match text.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "`{key}={text}`: `{key}` of `{}` takes a whole number from {min} to {max}",
                self.agent
            )),
        }
    }

    /// A whole number, possibly negative, in `min..=max`, if the option is given.
    pub(crate) fn int(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, String> {
        let Some(text) = self.value(key) else {
            return Ok(None);
        };
        match text.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "`{key}={text}`: `{key}` of `{}` takes a whole number from {min} to {max}",
                self.agent
            )),
        }
    }

    /// A number in `min..=max`, if the option is given.
    pub(crate) fn float(&self, key: &str, min: f64, max: f64) -> Result<Option<f64>, String> {
        let Some(text) = self.value(key) else {
            return Ok(None);
        };
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() && (min..=max).contains(&x) => Ok(Some(x)),
            _ => Err(format!(
                "`{key}={text}`: `{key}` of `{}` takes a number from {min} to {max}",
                self.agent
            )),
        }
    }

    /// `on` or `off`, if the option is given.
    pub(crate) fn switch(&self, key: &str) -> Result<Option<bool>, String> {
        match self.value(key) {
            None => Ok(None),
            Some("on") => Ok(Some(true)),
            Some("off") => Ok(Some(false)),
            Some(text) => Err(format!(
                "`{key}={text}`: `{key}` of `{}` is `on` or `off`",
                self.agent
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(spec: &str) -> String {
        match from_spec(spec, 1) {
            Ok(agent) => panic!("`{spec}` parsed as {}", agent.spec()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn unknown_agent_lists_the_known_ones() {
        assert_eq!(
            message("minimax"),
            "`minimax` is not an agent: unknown agent `minimax`; \
             known agents: random, greedy, alphabeta, mcts"
        );
        assert_eq!(
            message(""),
            "`` is not an agent: empty agent name; known agents: random, greedy, alphabeta, mcts"
        );
    }

    #[test]
    fn unknown_option_lists_the_valid_ones() {
        let m = message("alphabeta:deep=3");
        assert!(
            m.starts_with("`alphabeta:deep=3` is not an agent: unknown option `deep` for `alphabeta`; valid options: depth ("),
            "{m}"
        );
        for key in [
            "depth",
            "nodes",
            "ms",
            "noise",
            "hash",
            "quiescence",
            "seed",
        ] {
            assert!(m.contains(&format!(" {key} (")), "{key} missing from {m}");
        }
        let m = message("random:depth=2");
        assert!(m.contains("valid options: seed ("), "{m}");
        let m = message("mcts:depth=2");
        for key in [
            "playouts",
            "ms",
            "exploration",
            "cutoff",
            "reuse",
            "noise",
            "seed",
        ] {
            assert!(m.contains(&format!(" {key} (")), "{key} missing from {m}");
        }
    }

    #[test]
    fn bad_values_say_what_is_valid() {
        assert_eq!(
            message("alphabeta:depth=0"),
            "`alphabeta:depth=0` is not an agent: `depth=0`: `depth` of `alphabeta` takes a \
             whole number from 1 to 64"
        );
        assert_eq!(
            message("mcts:playouts=lots"),
            "`mcts:playouts=lots` is not an agent: `playouts=lots`: `playouts` of `mcts` takes \
             a whole number from 1 to 1000000000"
        );
        assert_eq!(
            message("mcts:reuse=yes"),
            "`mcts:reuse=yes` is not an agent: `reuse=yes`: `reuse` of `mcts` is `on` or `off`"
        );
        assert_eq!(
            message("greedy:noise"),
            "`greedy:noise` is not an agent: option `noise` is not key=value"
        );
        assert_eq!(
            message("alphabeta:depth=3,depth=4"),
            "`alphabeta:depth=3,depth=4` is not an agent: option `depth` is given twice"
        );
        assert!(message("mcts:exploration=-1").contains("takes a number from 0 to 10"));
        let m = message("greedy:weights=speed:3");
        assert!(
            m.contains("`weights=speed:3`: unknown weight `speed`; weights: queen_ring.0-5,"),
            "{m}"
        );
        let m = message("alphabeta:weights=tempo:x");
        assert!(m.contains("`x` is not a whole number"), "{m}");
    }

    #[test]
    fn canonical_specs() {
        let spec = |s: &str| from_spec(s, 7).expect(s).spec();
        assert_eq!(spec("random"), "random");
        assert_eq!(spec("random:seed=3"), "random:seed=3");
        assert_eq!(spec("greedy"), "greedy");
        assert_eq!(spec(" greedy : noise = 5 "), "greedy:noise=5");
        assert_eq!(spec("alphabeta"), "alphabeta:depth=4");
        assert_eq!(spec("alphabeta:ms=200"), "alphabeta:ms=200");
        assert_eq!(
            spec("alphabeta:noise=3,nodes=5000,depth=6"),
            "alphabeta:depth=6,nodes=5000,noise=3"
        );
        assert_eq!(
            spec("alphabeta:quiescence=off"),
            "alphabeta:depth=4,quiescence=off"
        );
        assert_eq!(
            spec("alphabeta:weights=mobility:0+queen_ring.1:150,depth=3"),
            "alphabeta:depth=3,weights=mobility:0+queen_ring.1:150"
        );
        assert_eq!(spec("mcts"), "mcts:playouts=1000");
        assert_eq!(spec("mcts:ms=50"), "mcts:ms=50");
        assert_eq!(
            spec("mcts:playouts=500,exploration=0.5,reuse=off"),
            "mcts:playouts=500,exploration=0.5,reuse=off"
        );
    }

    #[test]
    fn canonical_specs_parse_to_themselves() {
        for s in [
            "random",
            "greedy:noise=5",
            "alphabeta:depth=6,nodes=5000,noise=3",
            "mcts:playouts=500,exploration=0.5,reuse=off",
        ] {
            let once = from_spec(s, 1).expect(s).spec();
            let twice = from_spec(&once, 1).expect(&once).spec();
            assert_eq!(once, twice);
        }
    }

    #[test]
    fn time_limits_are_reported() {
        assert!(from_spec("alphabeta:ms=10", 1).unwrap().is_time_limited());
        assert!(from_spec("mcts:ms=10", 1).unwrap().is_time_limited());
        assert!(!from_spec("alphabeta:depth=3", 1).unwrap().is_time_limited());
        assert!(!from_spec("mcts:playouts=10", 1).unwrap().is_time_limited());
        assert!(!from_spec("greedy", 1).unwrap().is_time_limited());
    }
}
