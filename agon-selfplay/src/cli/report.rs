//! `agon-selfplay report DIR`.

use super::{print, print_summary, AnalysisOptions, FormatOptions};
use agon_selfplay::report::{summarise_stored, write_stored_reports};
use agon_selfplay::table::render_ratings;
use agon_selfplay::Manifest;
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
    let manifest = Manifest::read(&args.dir)?;
    // A run still writing the directory keeps it: its games so far are shown, and the
    // report files are left to it.
    let summary = match agon_files::DirLock::acquire(&args.dir) {
        Ok(_lock) => write_stored_reports(&args.dir, &manifest, &analysis)?,
        Err(busy @ agon_files::LockError::Busy { .. }) => {
            eprintln!(
                "agon-selfplay: {}: {busy}: the games so far are shown; the report files are \
                 left to that process",
                args.dir.display()
            );
            summarise_stored(&args.dir, &manifest, &analysis)?.0
        }
        Err(agon_files::LockError::Io { path, error }) => {
            return Err(agon_selfplay::Error::io(&path, error))
        }
    };
    print_summary(&summary, args.format)?;
    if let Some(ratings) = &summary.ratings {
        if !args.format.json && !args.format.csv {
            print(&format!("\n{}", render_ratings(ratings)))?;
        }
    }
    Ok(())
}
