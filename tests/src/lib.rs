//! Shared helpers for the workspace's end-to-end tests (see `tests/tests/`): running the
//! binaries (`cli`, `selfplay`, `engine`, `serve`), a headless browser (`browser`),
//! hand-built positions, an independent reference implementation of the rules, and readers
//! for the Ludii conformance data.

pub mod binaries;
pub mod browser;
pub mod cli;
pub mod engine;
pub mod ludii;
pub mod perft_suite;
pub mod positions;
pub mod reference;
pub mod run;
pub mod scratch;
pub mod selfplay;
pub mod serve;
pub mod standard_replay;
