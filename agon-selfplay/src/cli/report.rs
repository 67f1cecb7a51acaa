//! `agon-selfplay report DIR`.

use super::{print, print_summary, AnalysisOptions, FormatOptions};
use agon_selfplay::report::write_reports;
use agon_selfplay::store::read_games;
use agon_selfplay::table::render_ratings;
use agon_selfplay::Result;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// An output directory of `run`, `tournament` or `merge`.
    dir: PathBuf,
    #[command(flatten)]
    analysis: AnalysisOptions,
    #[command(flatten)]
    format: FormatOptions,
}

pub fn report(args: ReportArgs) -> Result<()> {
    let analysis = args.analysis.settings().analysis()?;
    let (manifest, rows) = read_games(&args.dir)?;
    let summary = write_reports(&args.dir, &manifest, &rows, &analysis)?;
    print_summary(&summary, args.format)?;
    if let Some(ratings) = &summary.ratings {
        if !args.format.json && !args.format.csv {
            print(&format!("\n{}", render_ratings(ratings)))?;
        }
    }
    Ok(())
}
