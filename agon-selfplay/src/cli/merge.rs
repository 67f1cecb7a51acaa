//! `agon-selfplay merge DIR... --out DIR`.

use super::{print_summary, AnalysisOptions, FormatOptions};
use agon_selfplay::Result;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output directories of one experiment (shards, or copies of an interrupted run).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The merged directory (must not hold a run yet).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    analysis: AnalysisOptions,
    #[command(flatten)]
    format: FormatOptions,
}

pub fn merge(args: MergeArgs) -> Result<()> {
    for dir in &args.dirs {
        super::note_other_build(dir);
    }
    let analysis = args.analysis.settings().analysis()?;
    if args.out.is_dir() {
        agon_selfplay::store::check_fresh(&args.out, "merge into a new directory")?;
    }
    let _lock = agon_selfplay::store::lock_output(&args.out)?;
    let summary = agon_selfplay::merge::merge(&args.dirs, &args.out, &analysis)?;
    print_summary(&summary, args.format)
}
