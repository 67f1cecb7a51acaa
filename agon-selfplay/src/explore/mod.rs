//! `agon-selfplay explore`: every reading of the rules in a family, raced to a verdict.
//!
//! A family of rule sets ([`family`]) is played in rounds ([`race`]): each round gives
//! every live rule set more colour-swapped pairs, and the rule sets whose verdicts are
//! settled ([`verdict`]: clearly unfair, clearly balanced, clearly drawish) leave the race,
//! so the budget goes to the questions still open. The rule sets that survive can be
//! measured for depth with a skill ladder ([`crate::ladder`]). The results are report
//! cards ([`report`], [`html`]): `explore.json`, `explore.csv` and a self-contained
//! `index.html`, with the effect of each switch ([`effects`]).
//!
//! The output directory ([`store`]) holds the spec, the race's games (a standard run
//! directory, `games/`), the ladder's (`ladder/`), and, on a cluster, each round's shards
//! (`rounds/R/K-of-N/`) until they are merged. Everything is a function of the spec and
//! of the games: the same seed gives the same games and verdicts at any thread count, in
//! one process or in shards.

pub mod effects;
pub mod family;
pub mod html;
pub mod race;
pub mod report;
pub mod spec;
pub mod store;
pub mod verdict;

pub use family::Family;
pub use race::Race;
pub use report::ExploreReport;
pub use spec::ExploreSpec;
pub use store::{Phase, State};
pub use verdict::Tests;
