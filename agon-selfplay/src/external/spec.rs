//! `engine:` specs: the command that starts an external engine, its per-move limits and the
//! options set on it.

use agon_notation::protocol::{Go, MAX_DEPTH};
use std::fmt;
use std::time::Duration;

/// The prefix that marks an external engine in an agent spec.
pub const PREFIX: &str = "engine:";

/// `movetime` when a spec gives no limit at all (milliseconds).
pub const DEFAULT_MOVETIME: u64 = 1000;
/// How long past `movetime` an engine may take to answer before it loses by `timeout`.
pub const GRACE: Duration = Duration::from_millis(1000);
/// How long an engine may take per action when it has no `movetime` (depth or node limits
/// only), unless the spec sets `timeout=`.
pub const NO_CLOCK_TIMEOUT: Duration = Duration::from_secs(60);

/// A parsed `engine:COMMAND[,key=value...]` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments (the other words of the command).
    pub args: Vec<String>,
    /// `depth=N`: sent as `go depth N`.
    pub depth: Option<u32>,
    /// `nodes=N`: sent as `go nodes N`.
    pub nodes: Option<u64>,
    /// `movetime=MS`: sent as `go movetime MS`.
    pub movetime: Option<u64>,
    /// `timeout=MS`: the longest wait for any answer (default `movetime` + 1 s, or 60 s
    /// without `movetime`).
    pub timeout: Option<u64>,
    /// `set.NAME=VALUE`: sent as `setoption name NAME value VALUE` after the handshake.
    pub options: Vec<(String, String)>,
}

/// Why a text that starts with `engine:` is not an engine spec: the spec and what is wrong
/// in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong.
    pub problem: EngineSpecProblem,
}

/// What is wrong in an engine spec.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineSpecProblem {
    /// No program after `engine:`.
    MissingCommand,
    /// An option without `=`.
    NotKeyValue {
        /// The option as written.
        part: String,
    },
    /// A numeric option out of range or not a number.
    Number {
        /// The option's key.
        key: String,
        /// Its value as written.
        value: String,
        /// The smallest value accepted.
        min: u64,
        /// The largest value accepted.
        max: u64,
    },
    /// An option no engine spec has.
    UnknownOption {
        /// The option's key.
        key: String,
    },
    /// An option given twice.
    Repeated {
        /// The option's key.
        key: String,
    },
}

impl fmt::Display for EngineSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an engine: ", self.spec)?;
        match &self.problem {
            EngineSpecProblem::MissingCommand => f.write_str(
                "the command is missing; expected `engine:PROGRAM [ARGS...][,key=value...]`",
            ),
            EngineSpecProblem::NotKeyValue { part } => {
                write!(f, "option `{part}` is not key=value; {VALID_OPTIONS}")
            }
            EngineSpecProblem::Number {
                key,
                value,
                min,
                max,
            } => write!(
                f,
                "`{key}={value}`: `{key}` takes a whole number from {min} to {max}"
            ),
            EngineSpecProblem::UnknownOption { key } => {
                write!(f, "unknown option `{key}`; {VALID_OPTIONS}")
            }
            EngineSpecProblem::Repeated { key } => write!(f, "option `{key}` is given twice"),
        }
    }
}

impl std::error::Error for EngineSpecError {}

impl EngineSpec {
    /// Parses a spec; `Ok(None)` when it does not start with `engine:` (an in-process agent).
    /// The first comma-separated part is the command line (words separated by spaces; no
    /// commas), the others are `key=value` options.
    pub fn parse(spec: &str) -> Result<Option<EngineSpec>, EngineSpecError> {
        let Some(rest) = spec.trim().strip_prefix(PREFIX) else {
            return Ok(None);
        };
        let error = |problem| EngineSpecError {
            spec: spec.to_string(),
            problem,
        };
        let mut parts = rest.split(',');
        let mut words = parts.next().unwrap_or_default().split_whitespace();
        let Some(program) = words.next() else {
            return Err(error(EngineSpecProblem::MissingCommand));
        };
        let mut parsed = EngineSpec {
            program: program.to_string(),
            args: words.map(str::to_string).collect(),
            depth: None,
            nodes: None,
            movetime: None,
            timeout: None,
            options: Vec::new(),
        };
        for part in parts {
            let Some((key, value)) = part.split_once('=') else {
                return Err(error(EngineSpecProblem::NotKeyValue {
                    part: part.to_string(),
                }));
            };
            let (key, value) = (key.trim(), value.trim());
            let number = |min: u64, max: u64| -> Result<u64, EngineSpecError> {
                match value.parse::<u64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n),
                    _ => Err(error(EngineSpecProblem::Number {
                        key: key.to_string(),
                        value: value.to_string(),
                        min,
                        max,
                    })),
                }
            };
            let given = match key {
                "depth" => parsed
                    .depth
                    .replace(number(1, u64::from(MAX_DEPTH))? as u32)
                    .is_some(),
                "nodes" => parsed.nodes.replace(number(1, u64::MAX)?).is_some(),
                "movetime" => parsed.movetime.replace(number(1, 86_400_000)?).is_some(),
                "timeout" => parsed.timeout.replace(number(1, 86_400_000)?).is_some(),
                _ => match key.strip_prefix("set.") {
                    Some(name) if !name.is_empty() && !value.is_empty() => {
                        let twice = parsed.options.iter().any(|(n, _)| n == name);
                        parsed.options.push((name.to_string(), value.to_string()));
                        twice
                    }
                    _ => {
                        return Err(error(EngineSpecProblem::UnknownOption {
                            key: key.to_string(),
                        }));
                    }
                },
            };
            if given {
                return Err(error(EngineSpecProblem::Repeated {
                    key: key.to_string(),
                }));
            }
        }
        if parsed.depth.is_none() && parsed.nodes.is_none() && parsed.movetime.is_none() {
            parsed.movetime = Some(DEFAULT_MOVETIME);
        }
        Ok(Some(parsed))
    }

    /// The canonical spec: the command's words joined by single spaces, then `depth`,
    /// `nodes`, `movetime`, `timeout` and the `set.` options in their order.
    pub fn canonical(&self) -> String {
        let mut text = format!("{PREFIX}{}", self.program);
        for arg in &self.args {
            text.push(' ');
            text.push_str(arg);
        }
        let mut push = |key: &str, value: Option<String>| {
            if let Some(value) = value {
                text.push_str(&format!(",{key}={value}"));
            }
        };
        push("depth", self.depth.map(|n| n.to_string()));
        push("nodes", self.nodes.map(|n| n.to_string()));
        push("movetime", self.movetime.map(|n| n.to_string()));
        push("timeout", self.timeout.map(|n| n.to_string()));
        for (name, value) in &self.options {
            push(&format!("set.{name}"), Some(value.clone()));
        }
        text
    }

    /// The `go` command of every action.
    pub fn go(&self) -> Go {
        Go {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            infinite: false,
        }
    }

    /// The longest wait for an answer (`bestmove`, `agonok`, `readyok`) before the engine
    /// loses by `timeout`.
    pub fn time_limit(&self) -> Duration {
        match (self.timeout, self.movetime) {
            (Some(ms), _) => Duration::from_millis(ms),
            (None, Some(ms)) => Duration::from_millis(ms) + GRACE,
            (None, None) => NO_CLOCK_TIMEOUT,
        }
    }

    /// Whether the engine's choices depend on the clock (it is given `movetime`).
    pub fn is_time_limited(&self) -> bool {
        self.movetime.is_some()
    }
}

const VALID_OPTIONS: &str = "valid options: depth=N, nodes=N, movetime=MS, timeout=MS, \
                             set.NAME=VALUE";

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(spec: &str) -> EngineSpec {
        EngineSpec::parse(spec).unwrap().expect("an engine spec")
    }

    fn error(spec: &str) -> String {
        EngineSpec::parse(spec).unwrap_err().to_string()
    }

    #[test]
    fn specs_parse_and_print_canonically() {
        assert_eq!(EngineSpec::parse("alphabeta:depth=3"), Ok(None));
        let s = parse("engine:  ./bin/agon   engine ,movetime=100,set.Hash=32, depth=4");
        assert_eq!(s.program, "./bin/agon");
        assert_eq!(s.args, ["engine"]);
        assert_eq!(
            s.canonical(),
            "engine:./bin/agon engine,depth=4,movetime=100,set.Hash=32"
        );
        assert_eq!(parse(&s.canonical()), s);
        assert_eq!(s.go().to_string(), "go depth 4 movetime 100");
        assert_eq!(s.time_limit(), Duration::from_millis(1100));
        assert!(s.is_time_limited());
    }

    #[test]
    fn a_spec_without_limits_gets_the_default_movetime() {
        let s = parse("engine:prog");
        assert_eq!(s.canonical(), "engine:prog,movetime=1000");
        let s = parse("engine:prog,depth=2");
        assert_eq!(s.time_limit(), NO_CLOCK_TIMEOUT);
        assert!(!s.is_time_limited());
        let s = parse("engine:prog,depth=2,timeout=300");
        assert_eq!(s.time_limit(), Duration::from_millis(300));
    }

    #[test]
    fn bad_specs_say_what_is_valid() {
        assert_eq!(
            error("engine:"),
            "`engine:` is not an engine: the command is missing; expected \
             `engine:PROGRAM [ARGS...][,key=value...]`"
        );
        assert_eq!(
            EngineSpec::parse("engine:prog,depth=0")
                .unwrap_err()
                .problem,
            EngineSpecProblem::Number {
                key: "depth".into(),
                value: "0".into(),
                min: 1,
                max: 255
            }
        );
        assert_eq!(
            error("engine:prog,depth=0"),
            "`engine:prog,depth=0` is not an engine: `depth=0`: `depth` takes a whole number \
             from 1 to 255"
        );
        assert_eq!(
            error("engine:prog,fast"),
            "`engine:prog,fast` is not an engine: option `fast` is not key=value; valid \
             options: depth=N, nodes=N, movetime=MS, timeout=MS, set.NAME=VALUE"
        );
        assert_eq!(
            error("engine:prog,ms=5"),
            "`engine:prog,ms=5` is not an engine: unknown option `ms`; valid options: \
             depth=N, nodes=N, movetime=MS, timeout=MS, set.NAME=VALUE"
        );
        assert_eq!(
            error("engine:prog,nodes=5,nodes=6"),
            "`engine:prog,nodes=5,nodes=6` is not an engine: option `nodes` is given twice"
        );
        assert_eq!(
            error("engine:prog,set.Hash=1,set.Hash=2"),
            "`engine:prog,set.Hash=1,set.Hash=2` is not an engine: option `set.Hash` is given \
             twice"
        );
    }
}
