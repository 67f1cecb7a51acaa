//! One module per subcommand. Each has its clap `Args`, its `EXAMPLES` for `--help`, and a
//! `run` that returns the exit code.

pub mod analyse;
pub mod book;
pub mod completions;
pub mod convert;
pub mod dedupe;
pub mod engine;
pub mod filter;
pub mod fmt;
pub mod man;
pub mod moves;
pub mod perft;
pub mod play;
pub mod playout;
pub mod render;
pub mod serve;
pub mod show;
pub mod split;
pub mod stats;
pub mod validate;
