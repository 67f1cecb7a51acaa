//! Merging output directories of one experiment (shards, or interrupted copies) into one
//! directory that holds exactly what a single run would: the same games files, summary and
//! charts.

use crate::error::{Error, Result};
use crate::report::write_reports;
use crate::row::GameRow;
use crate::sample::{sprt_limits, within_limits};
use crate::store::{read_files, write_games, Manifest, GAMES_AGN, GAMES_CSV, MANIFEST};
use crate::summary::{Analysis, Summary};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Merges `dirs` into `out` (which must not hold a run yet) and writes its reports.
pub fn merge(dirs: &[PathBuf], out: &Path, analysis: &Analysis) -> Result<Summary> {
    let Some(first) = dirs.first() else {
        return Err(Error::Settings("merge needs at least one directory".into()));
    };
    let base = Manifest::read(first)?;
    let mut rows: BTreeMap<u64, GameRow> = BTreeMap::new();
    let mut records: BTreeMap<u64, String> = BTreeMap::new();
    for dir in dirs {
        let manifest = Manifest::read(dir)?;
        if manifest.experiment != base.experiment {
            return Err(Error::output(
                dir,
                format!(
                    "holds a different experiment than {}; only shards or copies of one \
                     experiment can be merged",
                    first.display()
                ),
            ));
        }
        let (dir_rows, dir_records) = read_files(dir, &manifest)?;
        for row in dir_rows {
            let Some(record) = dir_records.get(&row.index) else {
                continue;
            };
            if let Some(existing) = rows.get(&row.index) {
                let same = GameRow {
                    duration_ms: existing.duration_ms,
                    ..row.clone()
                } == *existing;
                if !same && !row.time_limited {
                    return Err(Error::output(
                        dir,
                        format!(
                            "game {} differs from the same game in another directory",
                            row.index
                        ),
                    ));
                }
                continue;
            }
            records.insert(row.index, record.clone());
            rows.insert(row.index, row);
        }
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    for name in [MANIFEST, GAMES_CSV, GAMES_AGN] {
        if out.join(name).exists() {
            return Err(Error::output(
                out,
                format!("already holds a run ({name} exists); merge into a new directory"),
            ));
        }
    }
    let manifest = Manifest::new(base.experiment, None);
    let mut rows: Vec<GameRow> = rows.into_values().collect();
    // Shards cannot see each other's games, so each plays all of its own; an SPRT decides
    // on the merged prefix here, and the games after its decision are left out.
    if let Some(limits) = sprt_limits(&manifest.experiment, &rows) {
        rows.retain(|r| within_limits(&manifest.experiment, &limits, r.index));
    }
    write_games(out, &rows, &records)?;
    manifest.write(out)?;
    write_reports(out, &manifest, &rows, analysis)
}
