//! The options `agon engine` declares in its handshake (`Agent`, `Hash`, `Seed`), how
//! `setoption` changes them, and the agent they build.

use agon_core::agents::{from_spec, Agent, AgentSpec, AlphaBetaConfig};
use agon_notation::protocol::{EngineOption, OptionKind};

/// The largest `Hash` (MB), as `alphabeta:hash=` accepts.
const MAX_HASH: u64 = 4096;
/// The most lines `MultiPV` asks for, as `alphabeta:multipv=` accepts.
const MAX_MULTIPV: u64 = AlphaBetaConfig::MAX_MULTIPV as u64;

/// The engine's settings: what the next agent is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The agent spec (`Agent`).
    pub agent: String,
    /// The alpha-beta table size in MB (`Hash`).
    pub hash: u64,
    /// The agent's seed (`Seed`).
    pub seed: u64,
    /// How many best lines alpha-beta reports (`MultiPV`).
    pub multipv: u64,
    /// The values at startup (the `default` of each option).
    defaults: (String, u64, u64),
}

impl Settings {
    /// Settings from the command line, checked (the agent spec must build an agent, the
    /// table must fit in memory).
    pub fn new(agent: &str, hash: u64, seed: u64) -> Result<Settings, String> {
        from_spec(agent, seed).map_err(|e| e.to_string())?;
        check_hash(hash)?;
        check_memory(hash).map_err(|e| format!("--hash {hash}: {e}"))?;
        Ok(Settings {
            agent: agent.to_string(),
            hash,
            seed,
            multipv: 1,
            defaults: (agent.to_string(), hash, seed),
        })
    }

    /// The options of the handshake, with the startup values as defaults.
    pub fn declared(&self) -> Vec<EngineOption> {
        let (agent, hash, seed) = &self.defaults;
        vec![
            EngineOption {
                name: "Agent".into(),
                kind: OptionKind::String {
                    default: agent.clone(),
                },
            },
            EngineOption {
                name: "Hash".into(),
                kind: OptionKind::Spin {
                    default: i128::from(*hash),
                    min: 1,
                    max: i128::from(MAX_HASH),
                },
            },
            EngineOption {
                name: "Seed".into(),
                kind: OptionKind::Spin {
                    default: i128::from(*seed),
                    min: 0,
                    max: i128::from(u64::MAX),
                },
            },
            EngineOption {
                name: "MultiPV".into(),
                kind: OptionKind::Spin {
                    default: 1,
                    min: 1,
                    max: i128::from(MAX_MULTIPV),
                },
            },
        ]
    }

    /// Applies `setoption name NAME value VALUE` (names case-insensitive).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let declared = self.declared();
        let Some(option) = declared.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
            let names: Vec<&str> = declared.iter().map(|o| o.name.as_str()).collect();
            return Err(format!(
                "setoption: unknown option `{name}`; options: {}",
                names.join(", ")
            ));
        };
        let Some(value) = value else {
            return Err(format!(
                "setoption: option `{}` needs a value: `setoption name {} value VALUE`",
                option.name, option.name
            ));
        };
        option
            .check_value(value)
            .map_err(|e| format!("setoption: {e}"))?;
        match option.name.as_str() {
            "Agent" => {
                from_spec(value, self.seed).map_err(|e| format!("setoption: {e}"))?;
                self.agent = value.to_string();
            }
            "Hash" => {
                let hash = value.parse().expect("checked against the declaration");
                check_memory(hash).map_err(|e| format!("setoption: `Hash` {hash}: {e}"))?;
                self.hash = hash;
            }
            "MultiPV" => self.multipv = value.parse().expect("checked against the declaration"),
            _ => self.seed = value.parse().expect("checked against the declaration"),
        }
        Ok(())
    }

    /// The agent these settings describe: the `Agent` spec with `hash=` from `Hash` and
    /// `multipv=` from `MultiPV` when it is `alphabeta` without its own, seeded with `Seed`.
    pub fn build(&self) -> Result<Box<dyn Agent>, String> {
        let mut spec = AgentSpec::parse(&self.agent).map_err(|e| e.to_string())?;
        let has = |spec: &AgentSpec, key: &str| spec.options.iter().any(|(k, _)| k == key);
        if spec.name == "alphabeta" && !has(&spec, "hash") {
            spec.options.push(("hash".into(), self.hash.to_string()));
        }
        if spec.name == "alphabeta" && self.multipv > 1 && !has(&spec, "multipv") {
            spec.options
                .push(("multipv".into(), self.multipv.to_string()));
        }
        if spec.name == "alphabeta" {
            let hash = spec.options.iter().find(|(k, _)| k == "hash");
            if let Some(mb) = hash.and_then(|(_, v)| v.parse::<u64>().ok()) {
                check_memory(mb).map_err(|e| format!("a {mb} MB table: {e}"))?;
            }
        }
        let options: Vec<String> = spec
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let text = if options.is_empty() {
            spec.name.clone()
        } else {
            format!("{}:{}", spec.name, options.join(","))
        };
        from_spec(&text, self.seed).map_err(|e| e.to_string())
    }
}

/// Whether a table of `mb` MB can be had: the system is asked for that much address space
/// (which costs nothing until used) and it is given back. The engine would otherwise abort
/// when the agent's table cannot be allocated (under `ulimit -v`, or larger than the
/// machine allows), instead of answering `error`.
fn check_memory(mb: u64) -> Result<(), String> {
    let words = usize::try_from(mb << 17).map_err(|_| "too large".to_string())?;
    let mut probe: Vec<u64> = Vec::new();
    probe
        .try_reserve_exact(words)
        .map_err(|_| "the system will not give that much memory".to_string())
}

fn check_hash(hash: u64) -> Result<(), String> {
    if (1..=MAX_HASH).contains(&hash) {
        Ok(())
    } else {
        Err(format!(
            "--hash takes a whole number from 1 to {MAX_HASH}, not {hash}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_declared_with_the_startup_values() {
        let s = Settings::new("alphabeta:noise=3", 32, 7).unwrap();
        let lines: Vec<String> = s.declared().iter().map(|o| o.to_string()).collect();
        assert_eq!(
            lines,
            [
                "option name Agent type string default alphabeta:noise=3",
                "option name Hash type spin default 32 min 1 max 4096",
                "option name Seed type spin default 7 min 0 max 18446744073709551615",
                "option name MultiPV type spin default 1 min 1 max 256",
            ]
        );
    }

    #[test]
    fn setoption_checks_names_and_values() {
        let mut s = Settings::new("alphabeta", 16, 0).unwrap();
        s.set("seed", Some("18446744073709551615")).unwrap();
        assert_eq!(s.seed, u64::MAX);
        s.set("HASH", Some("64")).unwrap();
        assert_eq!(s.hash, 64);
        s.set("Agent", Some("mcts:playouts=10")).unwrap();
        assert_eq!(s.agent, "mcts:playouts=10");
        assert_eq!(
            s.set("Threads", Some("2")).unwrap_err(),
            "setoption: unknown option `Threads`; options: Agent, Hash, Seed, MultiPV"
        );
        assert_eq!(
            s.set("Hash", Some("0")).unwrap_err(),
            "setoption: option `Hash` takes a whole number from 1 to 4096, not `0`"
        );
        assert_eq!(
            s.set("Seed", None).unwrap_err(),
            "setoption: option `Seed` needs a value: `setoption name Seed value VALUE`"
        );
        assert!(s
            .set("Agent", Some("minimax"))
            .unwrap_err()
            .starts_with("setoption: `minimax` is not an agent: unknown agent `minimax`"));
        assert_eq!(s.agent, "mcts:playouts=10");
    }

    #[test]
    fn hash_reaches_alphabeta_unless_its_spec_sets_one() {
        let mut s = Settings::new("alphabeta:depth=3", 64, 1).unwrap();
        assert_eq!(s.build().unwrap().spec(), "alphabeta:depth=3,hash=64");
        s.agent = "alphabeta:hash=2".into();
        assert_eq!(s.build().unwrap().spec(), "alphabeta:depth=4,hash=2");
        s.agent = "greedy".into();
        assert_eq!(s.build().unwrap().spec(), "greedy");
    }

    #[test]
    fn multipv_reaches_alphabeta_unless_its_spec_sets_it() {
        let mut s = Settings::new("alphabeta:depth=3", 16, 1).unwrap();
        s.set("multipv", Some("3")).unwrap();
        assert_eq!(s.build().unwrap().spec(), "alphabeta:depth=3,multipv=3");
        s.agent = "alphabeta:depth=3,multipv=2".into();
        assert_eq!(s.build().unwrap().spec(), "alphabeta:depth=3,multipv=2");
        assert_eq!(
            s.set("MultiPV", Some("257")).unwrap_err(),
            "setoption: option `MultiPV` takes a whole number from 1 to 256, not `257`"
        );
    }
}
