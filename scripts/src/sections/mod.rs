//! The sections: each regenerates some blocks of one document (and maybe some images)
//! from experiments or data.
//!
//! **Adding a section** (for example benchmark figures): write a module with a
//! `pub const SECTION: Section` whose `generate` function plays or measures what it needs
//! (configs in `scripts/docs/`, outputs under `ctx.work`) and returns the body of each of
//! its blocks; add it to [`SECTIONS`]; put the blocks' markers in the document. The
//! framework adds the provenance line to each block, writes the documents and checks that
//! every block came out well formed.

pub mod analyse_thresholds;
pub mod examples;
pub mod explore;
pub mod ludii_conformance;
pub mod ludii_random;
pub mod readme_job;
pub mod relocation;
pub mod round_robin;
pub mod tables;
pub mod tuning;
pub mod variants;

use crate::context::Context;
use crate::Result;
use std::path::PathBuf;

/// One section of the generated docs.
pub struct Section {
    /// Its name (`--only NAME`).
    pub name: &'static str,
    /// The document it writes, relative to the workspace root.
    pub doc: &'static str,
    /// Its blocks, in document order.
    pub blocks: &'static [&'static str],
    /// One line on what it shows.
    pub about: &'static str,
    /// Plays (or reads) what it needs and renders its blocks.
    pub generate: fn(&Context) -> Result<Generated>,
}

/// What a section produced.
#[derive(Default)]
pub struct Generated {
    /// Each block's body (without the provenance line), in the order of
    /// [`Section::blocks`].
    pub bodies: Vec<String>,
    /// Files to copy into `docs/`: (source, destination relative to `docs/`).
    pub images: Vec<(PathBuf, String)>,
    /// What the numbers come from, for the provenance line: the commands (in backticks),
    /// or the data files.
    pub sources: String,
    /// The commits whose builds played the games (from their `experiment.json`).
    pub played_at: Vec<String>,
}

/// Every section, in the order they run.
pub const SECTIONS: &[Section] = &[
    variants::SECTION,
    examples::CONTRAST,
    examples::SPRT,
    readme_job::SECTION,
    ludii_random::SECTION,
    relocation::SECTION,
    round_robin::SECTION,
    tuning::SECTION,
    explore::ADJUDICATION_RING,
    explore::EXPLORE_RESULT,
    ludii_conformance::SECTION,
    analyse_thresholds::SECTION,
];

/// A config file as a fenced TOML listing, so that the docs show exactly what was run.
pub fn config_listing(ctx: &Context, config: &str) -> Result<String> {
    let path = ctx.root.join(config);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(format!(
        "```toml\n# {config}\n{}```\n",
        text.trim_end().to_string() + "\n"
    ))
}

/// A command as a fenced shell listing.
pub fn command_listing(command: &str) -> String {
    format!("```sh\n{command}\n```\n")
}
