//! The output directory: the experiment's manifest, `games.csv` and `games.agn`, written
//! as games finish and flushed after each one, recovered after a kill, and sorted by game
//! index at the end.
//!
//! Each game is appended to `games.agn` first and to `games.csv` second, each in one write
//! followed by a flush, so a game counts as done exactly when its CSV row is complete. On
//! `--resume`, a cut-short last line or record is dropped, and only games present in both
//! files are kept (the others are played again).

use crate::error::{Error, Result};
use crate::experiment::{Experiment, Shard};
use crate::record::split_records;
use crate::row::{header_line, parse_rows, GameRow};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The manifest file: which experiment (and shard) a directory holds.
pub const MANIFEST: &str = "experiment.json";
/// One CSV row per game.
pub const GAMES_CSV: &str = "games.csv";
/// One game record per game.
pub const GAMES_AGN: &str = "games.agn";

/// What `experiment.json` holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `agon-selfplay`.
    pub tool: String,
    /// Version of this directory layout.
    pub format: u32,
    /// The experiment.
    pub experiment: Experiment,
    /// The shard this directory holds, if not the whole experiment.
    pub shard: Option<Shard>,
}

impl Manifest {
    /// A manifest for an experiment (or one shard of it).
    pub fn new(experiment: Experiment, shard: Option<Shard>) -> Manifest {
        Manifest {
            tool: "agon-selfplay".into(),
            format: 1,
            experiment,
            shard,
        }
    }

    /// Reads `DIR/experiment.json`.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST);
        let text = fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| Error::output(&path, format!("not an agon-selfplay manifest: {e}")))?;
        if manifest.tool != "agon-selfplay" || manifest.format != 1 {
            return Err(Error::output(
                &path,
                "not an agon-selfplay format 1 manifest",
            ));
        }
        Ok(manifest)
    }

    /// Writes `DIR/experiment.json`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("manifests serialise") + "\n";
        write_atomically(&dir.join(MANIFEST), text.as_bytes())
    }

    /// The game indices this directory should hold.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.experiment.total_games()).filter(|&i| self.shard.iter().all(|s| s.contains(i)))
    }

    /// How many games this directory should hold.
    pub fn expected(&self) -> u64 {
        match self.shard {
            None => self.experiment.total_games(),
            Some(s) => {
                let total = self.experiment.total_games();
                total / s.count + u64::from(total % s.count > s.index)
            }
        }
    }
}

/// Writes a file through a temporary sibling and a rename, so it is never half written.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| Error::io(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
}

/// Appends finished games to an output directory.
pub struct GameWriter {
    dir: PathBuf,
    csv: File,
    agn: File,
    done: BTreeSet<u64>,
}

impl GameWriter {
    /// Starts a new run in `dir` (created if needed). Refuses a directory that already
    /// holds games.
    pub fn create(dir: &Path, manifest: &Manifest) -> Result<GameWriter> {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        for name in [MANIFEST, GAMES_CSV, GAMES_AGN] {
            if dir.join(name).exists() {
                return Err(Error::output(
                    dir,
                    format!(
                        "already holds a run ({name} exists); continue it with --resume, \
                         or choose another --out"
                    ),
                ));
            }
        }
        manifest.write(dir)?;
        write_atomically(&dir.join(GAMES_AGN), b"")?;
        write_atomically(&dir.join(GAMES_CSV), &header_line())?;
        GameWriter::open(dir, BTreeSet::new())
    }

    /// Continues the run in `dir`: checks that it holds the same experiment and shard,
    /// drops anything cut short, and keeps only games present in both files.
    pub fn resume(dir: &Path, manifest: &Manifest) -> Result<GameWriter> {
        let stored = Manifest::read(dir)?;
        if &stored != manifest {
            return Err(Error::output(
                dir,
                "holds a different experiment or shard than the one given; \
                 run `agon-selfplay run --resume --out DIR` without experiment options \
                 to continue it as it was",
            ));
        }
        let (rows, records) = read_files(dir, manifest)?;
        let keep: BTreeSet<u64> = rows
            .iter()
            .map(|r| r.index)
            .filter(|i| records.contains_key(i))
            .collect();
        let mut csv = header_line();
        for row in rows.iter().filter(|r| keep.contains(&r.index)) {
            csv.extend(row.to_csv_line());
        }
        let mut agn = String::new();
        for (_, text) in records.iter().filter(|(i, _)| keep.contains(i)) {
            agn.push_str(text);
        }
        write_atomically(&dir.join(GAMES_AGN), agn.as_bytes())?;
        write_atomically(&dir.join(GAMES_CSV), &csv)?;
        GameWriter::open(dir, keep)
    }

    fn open(dir: &Path, done: BTreeSet<u64>) -> Result<GameWriter> {
        let append = |name: &str| {
            let path = dir.join(name);
            OpenOptions::new()
                .append(true)
                .open(&path)
                .map_err(|e| Error::io(&path, e))
        };
        Ok(GameWriter {
            dir: dir.to_path_buf(),
            agn: append(GAMES_AGN)?,
            csv: append(GAMES_CSV)?,
            done,
        })
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Games already in the directory.
    pub fn done(&self) -> &BTreeSet<u64> {
        &self.done
    }

    /// Appends one game: its record, then its row, each flushed.
    pub fn append(&mut self, row: &GameRow, record: &str) -> Result<()> {
        self.append_line(row.index, &row.to_csv_line(), record)
    }

    /// [`GameWriter::append`] with the row already serialised as a CSV line.
    pub fn append_line(&mut self, index: u64, csv_line: &[u8], record: &str) -> Result<()> {
        let agn_path = self.dir.join(GAMES_AGN);
        self.agn
            .write_all(record.as_bytes())
            .and_then(|()| self.agn.flush())
            .map_err(|e| Error::io(&agn_path, e))?;
        let csv_path = self.dir.join(GAMES_CSV);
        self.csv
            .write_all(csv_line)
            .and_then(|()| self.csv.flush())
            .map_err(|e| Error::io(&csv_path, e))?;
        self.done.insert(index);
        Ok(())
    }

    /// Rewrites both files sorted by game index and returns the rows.
    pub fn finish(self) -> Result<Vec<GameRow>> {
        self.finish_keeping(|_| true)
    }

    /// Rewrites both files sorted by game index, with only the games whose row `keep`
    /// accepts (an SPRT drops the games played after it decided), and returns their rows.
    pub fn finish_keeping(self, keep: impl Fn(&GameRow) -> bool) -> Result<Vec<GameRow>> {
        drop(self.csv);
        drop(self.agn);
        let manifest = Manifest::read(&self.dir)?;
        let (rows, records) = read_files(&self.dir, &manifest)?;
        let rows = sorted_rows(rows.into_iter().filter(|r| keep(r)).collect());
        write_games(&self.dir, &rows, &records)?;
        Ok(rows)
    }
}

fn sorted_rows(mut rows: Vec<GameRow>) -> Vec<GameRow> {
    rows.sort_by_key(|r| r.index);
    rows
}

/// Writes `games.csv` and `games.agn` with the given rows (in their order) and, for each,
/// its record.
pub fn write_games(dir: &Path, rows: &[GameRow], records: &BTreeMap<u64, String>) -> Result<()> {
    let mut csv = header_line();
    let mut agn = String::new();
    for row in rows {
        csv.extend(row.to_csv_line());
        let record = records.get(&row.index).ok_or_else(|| {
            Error::output(
                &dir.join(GAMES_AGN),
                format!("no record for game {}", row.index),
            )
        })?;
        agn.push_str(record);
    }
    write_atomically(&dir.join(GAMES_AGN), agn.as_bytes())?;
    write_atomically(&dir.join(GAMES_CSV), &csv)
}

/// Reads both game files of a directory, checking indices against the manifest: rows
/// (cut-short last line dropped) and records by index.
pub fn read_files(
    dir: &Path,
    manifest: &Manifest,
) -> Result<(Vec<GameRow>, BTreeMap<u64, String>)> {
    let csv_path = dir.join(GAMES_CSV);
    let bytes = fs::read(&csv_path).map_err(|e| Error::io(&csv_path, e))?;
    let (rows, _) = parse_rows(&csv_path, &bytes)?;
    let agn_path = dir.join(GAMES_AGN);
    let text = fs::read_to_string(&agn_path).map_err(|e| Error::io(&agn_path, e))?;
    let (spans, _) = split_records(&text);
    let mut records = BTreeMap::new();
    for span in spans {
        records.insert(span.index, span.text.to_string());
    }
    check_indices(&csv_path, manifest, &rows)?;
    Ok((rows, records))
}

/// Reads the manifest and rows of a directory (sorted by index), for reports and merges.
pub fn read_games(dir: &Path) -> Result<(Manifest, Vec<GameRow>)> {
    let manifest = Manifest::read(dir)?;
    let path = dir.join(GAMES_CSV);
    let bytes = fs::read(&path).map_err(|e| Error::io(&path, e))?;
    let (rows, _) = parse_rows(&path, &bytes)?;
    check_indices(&path, &manifest, &rows)?;
    Ok((manifest, sorted_rows(rows)))
}

fn check_indices(path: &Path, manifest: &Manifest, rows: &[GameRow]) -> Result<()> {
    let mut seen = BTreeSet::new();
    let experiment = &manifest.experiment;
    for row in rows {
        if row.index >= experiment.total_games() {
            return Err(Error::output(
                path,
                format!("game {} is outside the experiment", row.index),
            ));
        }
        if manifest.shard.is_some_and(|s| !s.contains(row.index)) {
            return Err(Error::output(
                path,
                format!(
                    "game {} is not in shard {}",
                    row.index,
                    manifest.shard.unwrap()
                ),
            ));
        }
        let expected = experiment.game(row.index);
        if row.variant != expected.rules.to_string()
            || row.white != expected.white
            || row.black != expected.black
        {
            return Err(Error::output(
                path,
                format!(
                    "game {} does not match the experiment's settings",
                    row.index
                ),
            ));
        }
        if !seen.insert(row.index) {
            return Err(Error::output(
                path,
                format!("game {} appears twice", row.index),
            ));
        }
    }
    Ok(())
}
