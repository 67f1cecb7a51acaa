//! Shared helpers for the workspace's end-to-end tests (see `tests/tests/`): an independent
//! reference implementation of the rules, and readers for the Ludii conformance data.

pub mod binaries;
pub mod ludii;
pub mod positions;
pub mod reference;
pub mod standard_replay;
