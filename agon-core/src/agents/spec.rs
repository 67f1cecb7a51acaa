//! Agent spec strings: `name` or `name:key=value,key=value`.

use super::{Agent, RandomAgent};
use std::fmt;

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
            return Err(error("empty agent name".into()));
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
/// the same choices, unless the agent is time-limited).
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Agent>, AgentSpecError> {
    let parsed = AgentSpec::parse(spec)?;
    match parsed.name.as_str() {
        "random" => {
            if let Some((k, _)) = parsed.options.first() {
                return Err(AgentSpecError {
                    spec: spec.to_string(),
                    message: format!("`random` takes no options (got `{k}`)"),
                });
            }
            Ok(Box::new(RandomAgent::new(seed)))
        }
        other => Err(AgentSpecError {
            spec: spec.to_string(),
            message: format!("unknown agent `{other}`; known agents: random"),
        }),
    }
}
