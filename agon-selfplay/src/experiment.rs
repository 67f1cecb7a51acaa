//! What an experiment is: rule sets, agent pairings, how many games, and how game `i` is
//! derived from the seed alone.
//!
//! Games are numbered `0..total()`. They come in blocks, one per (variant, pairing), variant
//! major; inside a block, games `2p` and `2p + 1` form pair `p`: the same random opening,
//! colours swapped. Everything random about game `i` (its opening, the agents' seeds) is a
//! function of `(seed, i)`, so a game never depends on threads, timing or shards.

use crate::adjudication::Adjudication;
use crate::error::{Error, Result};
use crate::openings::{Opening, OpeningSuite};
use crate::stats::sprt::SprtSpec;
use agon_core::{Rng, Rules};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What kind of command produced the games (only changes how reports are titled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `agon-selfplay run`: variants compared under fixed agents.
    Run,
    /// `agon-selfplay tournament`: agents compared round robin.
    Tournament,
}

/// Two agents that meet: `first` has White in the first game of every pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Canonical spec of the agent with White in even-numbered games of a block.
    pub first: String,
    /// Canonical spec of the other agent.
    pub second: String,
}

impl Pairing {
    /// `first vs second` (also when an agent plays itself).
    pub fn label(&self) -> String {
        format!("{} vs {}", self.first, self.second)
    }
}

/// A complete description of an experiment: the same description always yields the same
/// games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiment {
    /// Which command.
    pub kind: Kind,
    /// Canonical rule-set names.
    pub variants: Vec<String>,
    /// Agent pairings (one for `run`, every pair of agents for `tournament`).
    pub pairings: Vec<Pairing>,
    /// Games per (variant, pairing) block.
    pub games: u64,
    /// Uniformly random plies played before the agents take over.
    pub opening_plies: u32,
    /// Total plies after which a game is adjudicated a draw (termination `move-limit`).
    pub max_plies: u32,
    /// The seed every game derives from.
    pub seed: u64,
    /// A sequential test per block: a block stops at the pair where its test decides
    /// (absent from manifests of experiments without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSpec>,
    /// Draw and resign adjudication from the agents' scores (absent from manifests of
    /// experiments without it).
    #[serde(default, skip_serializing_if = "Adjudication::is_empty")]
    pub adjudication: Adjudication,
    /// A fixed opening suite (`--openings`): pair `p` of every block starts from the
    /// suite's opening for `p`, before the random opening plies (absent from manifests of
    /// experiments without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningSuite>,
}

/// Everything needed to play one game of an experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Game index in the experiment.
    pub index: u64,
    /// Block index (variant-major).
    pub block: usize,
    /// Rule set.
    pub rules: Rules,
    /// White's agent spec.
    pub white: String,
    /// Black's agent spec.
    pub black: String,
    /// Pair number in the whole experiment: both games of a pair share an opening.
    pub pair: u64,
    /// Seed of the opening shared by the pair.
    pub opening_seed: u64,
    /// The suite opening the pair starts from (`--openings`), with its index in the suite.
    pub suite_opening: Option<(usize, Opening)>,
    /// Seed of White's agent.
    pub white_seed: u64,
    /// Seed of Black's agent.
    pub black_seed: u64,
}

impl Experiment {
    /// Checks every name and limit; canonicalises variant names and agent specs.
    pub fn validated(mut self) -> Result<Experiment> {
        if self.variants.is_empty() {
            return Err(Error::Settings(
                "no variant given: use --variant NAME (repeatable) or --variants all".into(),
            ));
        }
        let mut canonical: Vec<String> = Vec::new();
        for name in &self.variants {
            let rules: Rules = name
                .parse()
                .map_err(|e: agon_core::ParseRulesError| Error::Settings(e.to_string()))?;
            let rules_name = rules.to_string();
            if canonical.contains(&rules_name) {
                return Err(Error::Settings(format!(
                    "variant `{name}` is given twice (canonical name `{rules_name}`)"
                )));
            }
            canonical.push(rules_name);
        }
        self.variants = canonical;
        if self.pairings.is_empty() {
            return Err(Error::Settings("no agents given".into()));
        }
        for pairing in &mut self.pairings {
            pairing.first = canonical_spec(&pairing.first)?;
            pairing.second = canonical_spec(&pairing.second)?;
        }
        if self.games == 0 {
            return Err(Error::Settings("--games must be at least 1".into()));
        }
        if self.max_plies == 0 {
            return Err(Error::Settings("--max-plies must be at least 1".into()));
        }
        if self.opening_plies >= self.max_plies {
            return Err(Error::Settings(format!(
                "--opening-plies ({}) must be below --max-plies ({})",
                self.opening_plies, self.max_plies
            )));
        }
        self.total()
            .ok_or_else(|| Error::Settings("too many games".into()))?;
        if let Some(suite) = &self.openings {
            suite.check(&self.variants)?;
        }
        Ok(self)
    }

    /// Number of (variant, pairing) blocks.
    pub fn blocks(&self) -> usize {
        self.variants.len() * self.pairings.len()
    }

    /// Total number of games, if it fits in a `u64`.
    pub fn total(&self) -> Option<u64> {
        (self.blocks() as u64).checked_mul(self.games)
    }

    /// Total number of games (validated experiments only).
    pub fn total_games(&self) -> u64 {
        self.total().unwrap_or(u64::MAX)
    }

    /// Pairs per block: games `2p` and `2p + 1` of a block share an opening.
    pub fn pairs_per_block(&self) -> u64 {
        self.games.div_ceil(2)
    }

    /// The variant and pairing of a block.
    pub fn block(&self, block: usize) -> (&str, &Pairing) {
        let pairings = self.pairings.len();
        (
            &self.variants[block / pairings],
            &self.pairings[block % pairings],
        )
    }

    /// The block a game index belongs to.
    pub fn block_of(&self, index: u64) -> usize {
        (index / self.games) as usize
    }

    /// The pair a game index belongs to, numbered over the whole experiment: games `2p`
    /// and `2p + 1` of a block form its pair `p`, and each block's pairs follow the
    /// previous block's.
    pub fn pair_of(&self, index: u64) -> u64 {
        let block = index / self.games;
        block * self.pairs_per_block() + index % self.games / 2
    }

    /// Everything about game `index` (which must be below [`Experiment::total_games`]).
    pub fn game(&self, index: u64) -> GameSpec {
        let block = self.block_of(index);
        let within = index % self.games;
        let (variant, pairing) = self.block(block);
        let rules: Rules = variant.parse().expect("validated variant");
        let swapped = within % 2 == 1;
        let (white, black) = if swapped {
            (pairing.second.clone(), pairing.first.clone())
        } else {
            (pairing.first.clone(), pairing.second.clone())
        };
        let pair = self.pair_of(index);
        let opening_seed = Rng::for_stream(self.seed ^ OPENING_SALT, pair).next_u64();
        let mut agents = Rng::for_stream(self.seed, index);
        let suite_opening = self.openings.as_ref().map(|suite| {
            let k = suite.index_for_pair(self.seed, within / 2);
            (k, suite.openings[k].clone())
        });
        GameSpec {
            index,
            block,
            rules,
            white,
            black,
            pair,
            opening_seed,
            suite_opening,
            white_seed: agents.next_u64(),
            black_seed: agents.next_u64(),
        }
    }

    /// The agents of the pairings, in order of first appearance.
    pub fn agents(&self) -> Vec<String> {
        let mut agents: Vec<String> = Vec::new();
        for p in &self.pairings {
            for a in [&p.first, &p.second] {
                if !agents.contains(a) {
                    agents.push(a.clone());
                }
            }
        }
        agents
    }

    /// A one-line description for titles: agents and game counts.
    pub fn agents_label(&self) -> String {
        let mut labels: Vec<String> = self.pairings.iter().map(Pairing::label).collect();
        labels.dedup();
        labels.join(", ")
    }
}

/// Separates the opening streams from the agent streams of the same seed.
const OPENING_SALT: u64 = 0x6F70_656E_696E_6773;

/// The canonical spec of an agent (or an external engine), or a settings error naming the
/// bad spec.
pub fn canonical_spec(spec: &str) -> Result<String> {
    crate::external::canonical_spec(spec)
}

/// `--shard K/N`: this process plays only the pairs whose number is `K` modulo `N`, both
/// games of each, so that every shard holds complete colour-swapped pairs (and its own
/// pentanomial statistics) whatever `N` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// Whether pair `pair` (see [`Experiment::pair_of`]) belongs to this shard.
    pub fn contains_pair(&self, pair: u64) -> bool {
        pair % self.count == self.index
    }

    /// Whether game `index` of `experiment` belongs to this shard (with the other game of
    /// its pair).
    pub fn contains_game(&self, experiment: &Experiment, index: u64) -> bool {
        self.contains_pair(experiment.pair_of(index))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> std::result::Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: expected K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment(games: u64) -> Experiment {
        Experiment {
            kind: Kind::Run,
            variants: vec!["standard".into(), "capture=ring".into()],
            pairings: vec![Pairing {
                first: "random".into(),
                second: "random".into(),
            }],
            games,
            opening_plies: 2,
            max_plies: 100,
            seed: 7,
            sprt: None,
            adjudication: Default::default(),
            openings: None,
        }
        .validated()
        .unwrap()
    }

    #[test]
    fn pairs_share_openings_and_swap_colours() {
        let e = Experiment {
            pairings: vec![Pairing {
                first: "random".into(),
                second: "random".into(),
            }],
            ..experiment(5)
        };
        let g: Vec<GameSpec> = (0..10).map(|i| e.game(i)).collect();
        assert_eq!(g[0].opening_seed, g[1].opening_seed);
        assert_ne!(g[1].opening_seed, g[2].opening_seed);
        // 5 games per block: pairs 0,0,1,1,2 then the next block starts pair 3.
        assert_eq!(
            g.iter().map(|s| s.pair).collect::<Vec<_>>(),
            [0, 0, 1, 1, 2, 3, 3, 4, 4, 5]
        );
        assert_eq!(g[4].rules.to_string(), "standard");
        assert_eq!(g[5].rules.to_string(), "capture=ring");
        assert_ne!(g[0].white_seed, g[1].white_seed);
    }

    #[test]
    fn colours_swap_inside_a_pair() {
        let mut e = experiment(4);
        e.pairings = vec![Pairing {
            first: "random".into(),
            second: "random".into(),
        }];
        e.pairings[0].second = "random".into();
        let a = e.game(0);
        let b = e.game(1);
        assert_eq!((a.white.as_str(), a.black.as_str()), ("random", "random"));
        assert_eq!((b.white.as_str(), b.black.as_str()), ("random", "random"));
    }

    #[test]
    fn variants_are_canonicalised_and_checked() {
        let mut e = experiment(2);
        e.variants = vec!["touch-move=on,capture=ring".into()];
        assert_eq!(
            e.validated().unwrap().variants,
            ["capture=ring,touch-move=on"]
        );
        let mut e = experiment(2);
        e.variants = vec!["standard".into(), "repetition=3".into()];
        assert!(e.validated().is_err());
        let mut e = experiment(2);
        e.variants = vec!["capture=square".into()];
        assert!(e.validated().unwrap_err().to_string().contains("square"));
    }

    #[test]
    fn shards_parse_and_partition() {
        let s: Shard = "1/3".parse().unwrap();
        assert!(s.contains_pair(4) && !s.contains_pair(5));
        assert!("3/3".parse::<Shard>().is_err());
        assert!("1".parse::<Shard>().is_err());
        assert_eq!(s.to_string(), "1/3");
    }

    #[test]
    fn shards_hold_whole_pairs_even_with_an_even_count() {
        // Two blocks of 5 games: pairs 0,0,1,1,2 | 3,3,4,4,5.
        let e = experiment(5);
        let games = |shard: &str| -> Vec<u64> {
            let s: Shard = shard.parse().unwrap();
            (0..e.total_games())
                .filter(|&i| s.contains_game(&e, i))
                .collect()
        };
        assert_eq!(games("0/2"), [0, 1, 4, 7, 8]);
        assert_eq!(games("1/2"), [2, 3, 5, 6, 9]);
        for i in 0..e.total_games() {
            assert_eq!(e.pair_of(i), e.game(i).pair);
        }
    }
}
