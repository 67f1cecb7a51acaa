//! Merging output directories of one experiment (shards, or interrupted copies) into one
//! directory that holds exactly what a single run would: the same games files, summary and
//! charts.
//!
//! Merges stream: the games are found by their places in each directory's files (40 bytes
//! per game, freed before the reports), checked one at a time, and copied into the new
//! files in index order; the reports are then read from the new `games.csv`. Memory does
//! not hold rows or records.

use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::report::write_stored_reports;
use crate::row::{header_line, parse_rows, GameRow};
use crate::sample::{within_limits, SprtMonitor};
use crate::store::{
    check_fresh, describe_damage, find_place, record_places, scan_stored_rows, Manifest, Place,
    PlaceReader, GAMES_AGN, GAMES_CSV,
};
use crate::summary::{Analysis, Summary};
use crate::verify::check_game;
use agon_files::write_file_with;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    let games = StoredGames::find(dirs, &base.experiment, first)?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    check_fresh(out, "merge into a new directory")?;
    let manifest = Manifest::new(base.experiment, None);
    // Shards cannot see each other's games, so each plays all of its own; an SPRT decides
    // on the merged prefix here, and the games after its decision are left out.
    let experiment = &manifest.experiment;
    games.write(out, |index| {
        within_limits(experiment, &games.sprt_limits, index)
    })?;
    // The places are not needed for the reports: freed before those count their samples.
    drop(games);
    manifest.write(out)?;
    write_stored_reports(out, &manifest, analysis)
}

/// The games of `dirs`, each a directory of `experiment` (a shard, a copy, or the whole
/// run): rows and records by index, each game once. Every game's row must agree with its
/// record, and a game held twice must be the same game (its duration aside; time-limited
/// games may differ, the first copy is kept). `named` is the directory the others are
/// compared with in messages. Holds every row and record: [`merge`] streams instead.
pub fn gather(
    dirs: &[PathBuf],
    experiment: &Experiment,
    named: &Path,
) -> Result<(BTreeMap<u64, GameRow>, BTreeMap<u64, String>)> {
    let games = StoredGames::find(dirs, experiment, named)?;
    let mut readers = games.readers()?;
    let mut rows = BTreeMap::new();
    let mut records = BTreeMap::new();
    for copy in &games.copies {
        let (row, mut record) = readers[copy.dir].read(copy)?;
        // Every record followed by its blank line, as appended during a run.
        if !record.ends_with("\n\n") {
            record.push('\n');
        }
        rows.insert(copy.index, row);
        records.insert(copy.index, record);
    }
    Ok((rows, records))
}

/// Where the first copy of one game lies.
#[derive(Clone, Copy, Debug)]
struct GameCopy {
    index: u64,
    /// Which directory (position in the list).
    dir: usize,
    row_offset: u64,
    row_len: u32,
    record_offset: u64,
    record_len: u32,
}

impl GameCopy {
    fn row(&self) -> Place {
        Place {
            index: self.index,
            offset: self.row_offset,
            len: self.row_len,
        }
    }

    fn record(&self) -> Place {
        Place {
            index: self.index,
            offset: self.record_offset,
            len: self.record_len,
        }
    }
}

/// The games of several directories of one experiment, found and checked, each once.
struct StoredGames {
    dirs: Vec<PathBuf>,
    /// The first copy of each game, sorted by index.
    copies: Vec<GameCopy>,
    /// The SPRT's per-block limits over these games (empty without an SPRT).
    sprt_limits: Vec<u64>,
}

/// Reads rows and records of one directory at their places.
struct DirReader {
    csv_path: PathBuf,
    csv: PlaceReader,
    agn: PlaceReader,
}

impl DirReader {
    fn open(dir: &Path) -> Result<DirReader> {
        let csv_path = dir.join(GAMES_CSV);
        Ok(DirReader {
            csv: PlaceReader::open(&csv_path)?,
            agn: PlaceReader::open(&dir.join(GAMES_AGN))?,
            csv_path,
        })
    }

    /// The row and record of a copy.
    fn read(&mut self, copy: &GameCopy) -> Result<(GameRow, String)> {
        let mut line = header_line();
        self.csv.read_into(&copy.row(), &mut line)?;
        let (rows, _) = parse_rows(&self.csv_path, &line)?;
        let row = rows.into_iter().next().ok_or_else(|| {
            Error::output(
                &self.csv_path,
                format!("game {} changed while it was read", copy.index),
            )
        })?;
        Ok((row, self.agn.read_text(&copy.record())?))
    }
}

impl StoredGames {
    /// Finds and checks the games of `dirs` (see [`gather`]), one game in memory at a time.
    fn find(dirs: &[PathBuf], experiment: &Experiment, named: &Path) -> Result<StoredGames> {
        let mut copies: Vec<GameCopy> = Vec::new();
        let mut monitor = SprtMonitor::new(experiment);
        let mut readers: Vec<DirReader> = Vec::new();
        for (d, dir) in dirs.iter().enumerate() {
            let manifest = Manifest::read(dir)?;
            if manifest.experiment != *experiment {
                return Err(Error::output(
                    dir,
                    format!(
                        "holds a different experiment than {}; only shards or copies of \
                         one experiment can be merged",
                        named.display()
                    ),
                ));
            }
            let agn_path = dir.join(GAMES_AGN);
            let (records, damaged) = record_places(&agn_path)?;
            if let Some(damaged) = damaged.first() {
                return Err(Error::output(
                    dir,
                    format!(
                        "{}; repair it with `agon-selfplay run --resume --out {}` first",
                        describe_damage(&agn_path, damaged),
                        dir.display()
                    ),
                ));
            }
            readers.push(DirReader::open(dir)?);
            // At most one copy per record: room for them at once, without the doubling
            // (and the moment both the old and the new list are held) of a growing list.
            copies.reserve_exact(records.len());
            // The copies of earlier directories, sorted, to look this one's games up in.
            let earlier = copies.len();
            if !dir.join(GAMES_CSV).exists() {
                continue;
            }
            scan_stored_rows(dir, &manifest, |row, at| {
                let Some(record_at) = find_place(&records, row.index) else {
                    return Ok(());
                };
                let record = readers[d].agn.read_text(&record_at)?;
                check_game(experiment, &row, &record)
                    .map_err(|why| Error::output(dir, format!("game {}: {why}", row.index)))?;
                let first = copies[..earlier]
                    .binary_search_by_key(&row.index, |c| c.index)
                    .ok()
                    .map(|at| copies[at]);
                if let Some(first) = first {
                    let (first_row, first_record) = readers[first.dir].read(&first)?;
                    let same_row = GameRow {
                        duration_ms: first_row.duration_ms,
                        ..row.clone()
                    } == first_row;
                    let same = same_row && same_record(&record, &first_record);
                    if !same && !row.time_limited {
                        return Err(Error::output(
                            dir,
                            format!(
                                "game {} differs from the same game in {} (its {}); copies \
                                 of a game must be identical",
                                row.index,
                                dirs[first.dir].display(),
                                if same_row { "record" } else { "games.csv row" }
                            ),
                        ));
                    }
                    return Ok(());
                }
                if let Some(m) = monitor.as_mut() {
                    m.record(&row);
                }
                copies.push(GameCopy {
                    index: row.index,
                    dir: d,
                    row_offset: at.offset,
                    row_len: u32::try_from(at.len).unwrap_or(u32::MAX),
                    record_offset: record_at.offset,
                    record_len: record_at.len,
                });
                Ok(())
            })?;
            copies.sort_unstable_by_key(|c| c.index);
        }
        Ok(StoredGames {
            dirs: dirs.to_vec(),
            copies,
            sprt_limits: monitor.map(|m| m.limits().to_vec()).unwrap_or_default(),
        })
    }

    fn readers(&self) -> Result<Vec<DirReader>> {
        self.dirs.iter().map(|d| DirReader::open(d)).collect()
    }

    /// Writes `games.csv` and `games.agn` of `out` with the games `keep` accepts, in index
    /// order, copied byte for byte (records separated by a blank line, none after the
    /// last, the canonical form `agon fmt` writes).
    fn write(&self, out: &Path, keep: impl Fn(u64) -> bool) -> Result<()> {
        let kept = || self.copies.iter().filter(|c| keep(c.index));
        let mut readers = self.readers()?;
        let csv_path = out.join(GAMES_CSV);
        let mut line = Vec::new();
        write_file_with(&csv_path, |file| {
            file.write_all(&header_line())?;
            for copy in kept() {
                line.clear();
                readers[copy.dir]
                    .csv
                    .read_into(&copy.row(), &mut line)
                    .map_err(std::io::Error::other)?;
                file.write_all(&line)?;
            }
            Ok(())
        })
        .map_err(|e| Error::io(&csv_path, e))?;
        let agn_path = out.join(GAMES_AGN);
        let mut record = Vec::new();
        write_file_with(&agn_path, |file| {
            for (n, copy) in kept().enumerate() {
                if n > 0 {
                    file.write_all(b"\n")?;
                }
                record.clear();
                readers[copy.dir]
                    .agn
                    .read_into(&copy.record(), &mut record)
                    .map_err(std::io::Error::other)?;
                // Without the blank line a run appends after each record.
                if record.ends_with(b"\n\n") {
                    record.pop();
                }
                file.write_all(&record)?;
            }
            Ok(())
        })
        .map_err(|e| Error::io(&agn_path, e))
    }
}

/// Whether two records are the same, the blank line after each aside.
fn same_record(a: &str, b: &str) -> bool {
    let trim = |s: &str| {
        s.strip_suffix('\n')
            .filter(|t| t.ends_with('\n'))
            .unwrap_or(s)
            .len()
    };
    a[..trim(a)] == b[..trim(b)]
}
