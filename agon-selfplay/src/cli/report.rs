//! `agon-selfplay report DIR`.

use super::{print, print_summary, FormatOptions};
use agon_selfplay::ratings::rate;
use agon_selfplay::report::write_reports;
use agon_selfplay::store::read_games;
use agon_selfplay::table::render_ratings;
use agon_selfplay::{Kind, Result};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// An output directory of `run`, `tournament` or `merge`.
    dir: PathBuf,
    #[command(flatten)]
    format: FormatOptions,
}

pub fn report(args: ReportArgs) -> Result<()> {
    let (manifest, rows) = read_games(&args.dir)?;
    let summary = write_reports(&args.dir, &manifest, &rows)?;
    print_summary(&summary, args.format)?;
    if manifest.experiment.kind == Kind::Tournament && !args.format.json && !args.format.csv {
        let agents = super::tournament::agents_of(&manifest.experiment);
        print(&format!("\n{}", render_ratings(&rate(&agents, &rows))))?;
    }
    Ok(())
}
