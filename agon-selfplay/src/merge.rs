//! Merging output directories of one experiment (shards, or interrupted copies) into one
//! directory that holds exactly what a single run would: the same games files, summary and
//! charts.

use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::report::write_reports;
use crate::row::GameRow;
use crate::sample::{sprt_limits, within_limits};
use crate::store::{check_fresh, describe_damage, read_files, write_games, Manifest, GAMES_AGN};
use crate::summary::{Analysis, Summary};
use crate::verify::check_game;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One game as found in one directory.
struct Copy {
    row: GameRow,
    record: String,
    dir: PathBuf,
}

/// Merges `dirs` into `out` (which must be new or empty; the caller holds its lock) and
/// writes its reports. Every game's row must agree with its record, and two copies of a
/// game must be identical (but for the timing column; games whose agents used the clock
/// cannot be replayed and may differ, the first copy is kept), or the merge is refused
/// with the game named.
pub fn merge(dirs: &[PathBuf], out: &Path, analysis: &Analysis) -> Result<Summary> {
    let Some(first) = dirs.first() else {
        return Err(Error::Settings("merge needs at least one directory".into()));
    };
    let base = Manifest::read(first)?;
    let (rows, records) = gather(dirs, &base.experiment, first)?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    check_fresh(out, "merge into a new directory")?;
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

/// The games of `dirs`, each a directory of `experiment` (a shard, a copy, or the whole
/// run): rows and records by index, each game once. Every game's row must agree with its
/// record, and a game held twice must be the same game (its duration aside; time-limited
/// games may differ, the first copy is kept). `named` is the directory the others are
/// compared with in messages.
pub fn gather(
    dirs: &[PathBuf],
    experiment: &Experiment,
    named: &Path,
) -> Result<(BTreeMap<u64, GameRow>, BTreeMap<u64, String>)> {
    let mut games: BTreeMap<u64, Copy> = BTreeMap::new();
    for dir in dirs {
        let manifest = Manifest::read(dir)?;
        if manifest.experiment != *experiment {
            return Err(Error::output(
                dir,
                format!(
                    "holds a different experiment than {}; only shards or copies of one \
                     experiment can be merged",
                    named.display()
                ),
            ));
        }
        let mut files = read_files(dir, &manifest)?;
        if let Some(damaged) = files.damaged.first() {
            return Err(Error::output(
                dir,
                format!(
                    "{}; repair it with `agon-selfplay run --resume --out {}` first",
                    describe_damage(&dir.join(GAMES_AGN), damaged),
                    dir.display()
                ),
            ));
        }
        for row in files.rows {
            let Some(record) = files.records.remove(&row.index) else {
                continue;
            };
            check_game(experiment, &row, &record)
                .map_err(|why| Error::output(dir, format!("game {}: {why}", row.index)))?;
            if let Some(existing) = games.get(&row.index) {
                let same_row = GameRow {
                    duration_ms: existing.row.duration_ms,
                    ..row.clone()
                } == existing.row;
                let same = same_row && record == existing.record;
                if !same && !row.time_limited {
                    return Err(Error::output(
                        dir,
                        format!(
                            "game {} differs from the same game in {} (its {}); copies of a \
                             game must be identical",
                            row.index,
                            existing.dir.display(),
                            if same_row { "record" } else { "games.csv row" }
                        ),
                    ));
                }
                continue;
            }
            games.insert(
                row.index,
                Copy {
                    row,
                    record,
                    dir: dir.clone(),
                },
            );
        }
    }
    let mut rows = BTreeMap::new();
    let mut records = BTreeMap::new();
    for (index, copy) in games {
        rows.insert(index, copy.row);
        records.insert(index, copy.record);
    }
    Ok((rows, records))
}
