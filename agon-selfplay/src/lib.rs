//! # agon-selfplay
//!
//! Parallel self-play experiments for Agon: many games between configured agents under
//! many rule variants, streamed to disk as they finish, then statistics a researcher can
//! publish (exact tests over colour-swapped pairs, move-limit games apart from draws,
//! contrasts against a baseline, equivalence, power, the SPRT, bootstrap intervals,
//! Ludii's metrics) and charts. A thin binary, `agon-selfplay`, drives this library.
//!
//! Layout, one job per module: [`experiment`] says which games an experiment holds and
//! derives each from `(seed, index)`; [`play`] plays one game; [`runner`] plays many in
//! parallel; [`store`] writes and recovers the output directory; [`session`] ties them
//! into a run; [`sample`] keeps the compact per-pair data the statistics need;
//! [`summary`] and [`stats`] compute the statistics, [`contrasts`] compares variants
//! with a baseline, [`by_opening`] breaks results down by suite opening; [`ratings`] rates agents
//! of a tournament; [`table`], [`report`] and [`charts`] present the results; [`merge`]
//! joins shards; [`verify`] checks that a row and its record tell the same game.

pub mod adjudication;
pub mod by_opening;
pub mod charts;
pub mod config;
pub mod contrasts;
pub mod error;
pub mod experiment;
pub mod explore;
pub mod external;
pub mod index_set;
pub mod ladder;
pub mod merge;
pub mod openings;
pub mod play;
pub mod progress;
pub mod ratings;
pub mod record;
pub mod report;
pub mod row;
pub mod runner;
pub mod sample;
pub mod session;
pub mod stats;
pub mod store;
pub mod summary;
pub mod table;
pub mod verify;

pub use agon_provenance::Tool;
pub use error::{Error, Result};
pub use experiment::{Experiment, Kind, Pairing, Shard};
pub use row::GameRow;
pub use store::Manifest;
pub use summary::Summary;

/// This build of `agon-selfplay`, as `experiment.json`, `summary.json` and `--json`
/// outputs name it.
pub fn tool() -> Tool {
    Tool::current("agon-selfplay")
}
