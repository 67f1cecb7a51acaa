//! What an exploration is: the family of rule sets, the agent, the budget and the tests.
//! Saved as `explore-spec.json` in the output directory; everything the exploration
//! plays is derived from it and from the games already played.

use super::family::Family;
use super::verdict::Tests;
use crate::adjudication::Adjudication;
use crate::error::{Error, Result};
use crate::experiment::{canonical_spec, Experiment, Kind, Pairing};
use crate::ladder::LadderSpec;
use crate::openings::OpeningSuite;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file that holds an exploration's spec.
pub const SPEC_FILE: &str = "explore-spec.json";
/// Pairs every rule set gets in the first round at least: below 6 pairs no outcome can
/// be significant in the exact first-move test (see [`crate::summary::MIN_PAIRS`]).
pub const MIN_FIRST_PAIRS: u64 = crate::summary::MIN_PAIRS;

/// An exploration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreSpec {
    /// The switches and values that make the family.
    pub family: Family,
    /// Its rule sets, canonical names, in family order.
    pub rule_sets: Vec<String>,
    /// The agent of both sides (canonical spec).
    pub agent: String,
    /// Games the race may play in all.
    pub budget: u64,
    /// Pairs one rule set may get at most.
    pub max_pairs: u64,
    /// Pairs every rule set gets in the first round; later rounds double each live rule
    /// set's pairs.
    pub first_pairs: u64,
    /// Random opening plies of each pair.
    pub opening_plies: u32,
    /// The ply limit.
    pub max_plies: u32,
    /// The seed of every game.
    pub seed: u64,
    /// Adjudication of the games.
    #[serde(default, skip_serializing_if = "Adjudication::is_empty")]
    pub adjudication: Adjudication,
    /// The opening suite (`--openings`), stored whole: pair `p` of every rule set plays
    /// its opening for `p` (see [`crate::openings`]), and so do the ladders' pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningSuite>,
    /// The verdicts' tests.
    pub tests: Tests,
    /// A skill ladder for each rule set that survives the race.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ladder: Option<LadderSpec>,
}

/// The saved form: the tool, a format number and the spec.
#[derive(Serialize, Deserialize)]
struct SpecFile {
    tool: String,
    format: u32,
    explore: ExploreSpec,
}

impl ExploreSpec {
    /// Checks the numbers and canonicalises the agent; `None` budgets get defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        family: Family,
        agent: &str,
        budget: u64,
        max_pairs: Option<u64>,
        first_pairs: Option<u64>,
        game: (u32, u32, u64),
        adjudication: Adjudication,
        openings: Option<OpeningSuite>,
        tests: Tests,
        ladder: Option<LadderSpec>,
    ) -> Result<ExploreSpec> {
        let rule_sets = family.rule_sets();
        if rule_sets.is_empty() {
            return Err(Error::Settings(
                "the rules refuse every combination of these switches (docs/rules.md names \
                 the combinations that conflict); nothing to explore"
                    .into(),
            ));
        }
        let n = rule_sets.len() as u64;
        let budget_pairs = budget / 2;
        if budget_pairs < n {
            return Err(Error::Settings(format!(
                "--budget {budget} is below one pair (2 games) per rule set ({n} rule sets \
                 need at least {})",
                2 * n
            )));
        }
        let max_pairs = max_pairs.unwrap_or(budget_pairs).min(budget_pairs);
        if max_pairs == 0 {
            return Err(Error::Settings("--max-pairs must be at least 1".into()));
        }
        // A first round of about an eighth of the budget, so that several rounds follow.
        let first_pairs = first_pairs
            .unwrap_or_else(|| (budget_pairs / (8 * n)).max(MIN_FIRST_PAIRS))
            .min(max_pairs)
            .min(budget_pairs / n);
        if first_pairs == 0 {
            return Err(Error::Settings("--first-pairs must be at least 1".into()));
        }
        let (opening_plies, max_plies, seed) = game;
        let spec = ExploreSpec {
            family,
            rule_sets,
            agent: canonical_spec(agent)?,
            budget,
            max_pairs,
            first_pairs,
            opening_plies,
            max_plies,
            seed,
            adjudication,
            openings,
            tests: tests.checked().map_err(Error::Settings)?,
            ladder,
        };
        spec.experiment()?;
        Ok(spec)
    }

    /// The experiment that numbers every game the race may play: one block per rule set of
    /// `2 * max_pairs` games, the agent against itself. A round plays a range of pairs of
    /// some blocks, so a game is the same whichever round plays it.
    pub fn experiment(&self) -> Result<Experiment> {
        Experiment {
            kind: Kind::Run,
            variants: self.rule_sets.clone(),
            pairings: vec![Pairing {
                first: self.agent.clone(),
                second: self.agent.clone(),
            }],
            games: 2 * self.max_pairs,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            seed: self.seed,
            sprt: None,
            adjudication: self.adjudication,
            openings: self.openings.clone(),
        }
        .validated()
    }

    /// Pairs the budget pays for.
    pub fn budget_pairs(&self) -> u64 {
        self.budget / 2
    }

    /// Reads `DIR/explore-spec.json`.
    pub fn read(dir: &Path) -> Result<ExploreSpec> {
        let path = dir.join(SPEC_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let file: SpecFile = serde_json::from_str(&text)
            .map_err(|e| Error::output(&path, format!("not an exploration spec: {e}")))?;
        if file.tool != "agon-selfplay" || file.format != 1 {
            return Err(Error::output(&path, "not an agon-selfplay format 1 spec"));
        }
        Ok(file.explore)
    }

    /// Writes `DIR/explore-spec.json` (creating `DIR`).
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let file = SpecFile {
            tool: "agon-selfplay".into(),
            format: 1,
            explore: self.clone(),
        };
        let text = serde_json::to_string_pretty(&file).expect("specs serialise") + "\n";
        crate::store::write_atomically(&dir.join(SPEC_FILE), text.as_bytes())
    }
}
