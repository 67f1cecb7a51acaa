//! The output directory: the experiment's manifest, `games.csv` and `games.agn`, written
//! as games finish and flushed after each one, recovered after a kill, and sorted by game
//! index at the end.
//!
//! Each game is appended to `games.agn` first and to `games.csv` second, each in one write
//! followed by a flush, so a game counts as done exactly when its CSV row is complete. On
//! `--resume`, a cut-short last line or record is dropped, and only games present in both
//! files, whose row and record agree, are kept (the others are played again).
//!
//! A process that writes a directory holds its lock ([`lock_output`]) from start to end, so
//! a second process on the same directory is refused. Whole files are replaced through
//! agon-files (a temporary file of a name no other file shares, a rename, a directory sync).

use crate::error::{Error, Result};
use crate::experiment::{Experiment, Shard};
use crate::index_set::IndexSet;
use crate::record::{scan_records, DamagedRecord, ScanError};
use crate::row::{header_line, scan_rows, GameRow, RowAt};
use crate::sample::SprtMonitor;
use crate::verify::check_game;
use agon_files::{write_file_with, DirLock, LockError};
use agon_provenance::{Tool, UNKNOWN_COMMIT};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
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
    /// The build of `agon-selfplay` that started the directory (name, version, commit).
    /// A `--resume` by another build keeps it; `merge` writes its own.
    pub tool: Tool,
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
            tool: crate::tool(),
            format: 1,
            experiment,
            shard,
        }
    }

    /// Reads `DIR/experiment.json`.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST);
        let text = fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let not_a_manifest = |e: serde_json::Error| {
            Error::output(&path, format!("not an agon-selfplay manifest: {e}"))
        };
        let mut json: serde_json::Value = serde_json::from_str(&text).map_err(not_a_manifest)?;
        // Directories written before manifests named their build say only `"tool":
        // "agon-selfplay"`.
        if json["tool"] == "agon-selfplay" {
            json["tool"] = serde_json::to_value(Tool {
                name: "agon-selfplay".into(),
                version: "unknown".into(),
                commit: UNKNOWN_COMMIT.into(),
            })
            .expect("tools serialise");
        }
        let manifest: Manifest = serde_json::from_value(json).map_err(not_a_manifest)?;
        if manifest.tool.name != "agon-selfplay" || manifest.format != 1 {
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

    /// The settings in which `self` (what a `--resume` asks for) differs from `stored`, as
    /// options, each with the stored value: `--seed 12 (the run has 11)`.
    pub fn differences(&self, stored: &Manifest) -> Vec<String> {
        let (a, b) = (&self.experiment, &stored.experiment);
        let mut out = Vec::new();
        let differ = |out: &mut Vec<String>, option: &str, given: String, had: String| {
            if given != had {
                out.push(format!("{option} {given} (the run has {had})"));
            }
        };
        if a.variants != b.variants {
            out.push(format!(
                "--variant {} (the run has --variant {})",
                a.variants.join(" --variant "),
                b.variants.join(" --variant ")
            ));
        }
        let agents = |e: &Experiment| -> String {
            e.pairings
                .iter()
                .map(|p| p.label())
                .collect::<Vec<_>>()
                .join(", ")
        };
        differ(&mut out, "agents", agents(a), agents(b));
        differ(
            &mut out,
            "--games",
            a.games.to_string(),
            b.games.to_string(),
        );
        differ(
            &mut out,
            "--opening-plies",
            a.opening_plies.to_string(),
            b.opening_plies.to_string(),
        );
        differ(
            &mut out,
            "--max-plies",
            a.max_plies.to_string(),
            b.max_plies.to_string(),
        );
        differ(&mut out, "--seed", a.seed.to_string(), b.seed.to_string());
        let rule = |r: Option<String>| r.unwrap_or_else(|| "none".to_string());
        differ(
            &mut out,
            "--draw-adjudication",
            rule(a.adjudication.draw.map(|r| r.to_string())),
            rule(b.adjudication.draw.map(|r| r.to_string())),
        );
        differ(
            &mut out,
            "--resign-adjudication",
            rule(a.adjudication.resign.map(|r| r.to_string())),
            rule(b.adjudication.resign.map(|r| r.to_string())),
        );
        differ(
            &mut out,
            "--sprt",
            rule(a.sprt.map(|s| s.to_string())),
            rule(b.sprt.map(|s| s.to_string())),
        );
        if a.openings != b.openings {
            let suite = |e: &Experiment| match &e.openings {
                Some(s) => format!(
                    "{} ({} openings, {} from {})",
                    s.file,
                    s.openings.len(),
                    s.order,
                    s.start
                ),
                None => "none".into(),
            };
            out.push(format!(
                "--openings {} (the run has {})",
                suite(a),
                suite(b)
            ));
        }
        let shard = |s: Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
        differ(&mut out, "--shard", shard(self.shard), shard(stored.shard));
        out
    }

    /// Whether two manifests describe the same games: the same experiment and shard,
    /// whichever build wrote them.
    pub fn same_games(&self, other: &Manifest) -> bool {
        self.experiment == other.experiment && self.shard == other.shard
    }

    /// Whether game `index` belongs in this directory (its shard's, if it holds one).
    pub fn holds(&self, index: u64) -> bool {
        match self.shard {
            Some(shard) => shard.contains_game(&self.experiment, index),
            None => true,
        }
    }

    /// The game indices this directory should hold.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.experiment.total_games()).filter(|&i| self.holds(i))
    }

    /// How many games this directory should hold.
    pub fn expected(&self) -> u64 {
        match self.shard {
            None => self.experiment.total_games(),
            Some(_) => self.indices().count() as u64,
        }
    }
}

/// Writes a file so that it is never half written (agon-files: a temporary sibling of its
/// own, a rename, a directory sync; nothing left behind when the disk is full).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    agon_files::write_file(path, bytes).map_err(|e| Error::io(path, e))
}

/// Creates the output directory if needed and locks it for this process (until the lock is
/// dropped or the process ends). Refused, naming the holder, when another process has it.
pub fn lock_output(dir: &Path) -> Result<DirLock> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    DirLock::acquire(dir).map_err(|e| match e {
        LockError::Busy { .. } => Error::output(
            dir,
            format!("{e}; wait for it to end, or choose another --out"),
        ),
        LockError::Io { path, error } => Error::io(&path, error),
    })
}

/// Checks that `dir` can take a new run: it holds no run (`hint` says what to do then) and
/// no other files (a run's files would be scattered among them, as with `--out /`).
pub fn check_fresh(dir: &Path, hint: &str) -> Result<()> {
    for name in [MANIFEST, GAMES_CSV, GAMES_AGN] {
        if dir.join(name).exists() {
            return Err(Error::output(
                dir,
                format!("already holds a run ({name} exists); {hint}"),
            ));
        }
    }
    let entries = fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut others: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .filter(|name| name != agon_files::LOCK_FILE && !agon_files::is_temp_name(name))
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    others.sort();
    let shown = if others.len() > 3 {
        format!("{}, ... ({} entries)", others[..3].join(", "), others.len())
    } else {
        others.join(", ")
    };
    Err(Error::output(
        dir,
        format!(
            "a new run needs a new or empty directory, and this one holds other files \
             ({shown}); choose another --out"
        ),
    ))
}

/// Appends finished games to an output directory. The caller holds the directory's lock
/// ([`lock_output`]).
pub struct GameWriter {
    dir: PathBuf,
    csv: File,
    agn: File,
    done: IndexSet,
    notes: Vec<String>,
}

impl GameWriter {
    /// Starts a new run in `dir` (created if needed). Refuses a directory that already
    /// holds games or other files.
    pub fn create(dir: &Path, manifest: &Manifest) -> Result<GameWriter> {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        check_fresh(dir, "continue it with --resume, or choose another --out")?;
        manifest.write(dir)?;
        write_atomically(&dir.join(GAMES_AGN), b"")?;
        write_atomically(&dir.join(GAMES_CSV), &header_line())?;
        GameWriter::open(dir, IndexSet::new(), Vec::new())
    }

    /// Continues the run in `dir`: checks that it holds the same experiment and shard,
    /// drops anything cut short or damaged, and keeps only games present in both files
    /// whose row and record agree (the others are played again, each with a note).
    pub fn resume(dir: &Path, manifest: &Manifest) -> Result<GameWriter> {
        let stored = Manifest::read(dir)?;
        if !stored.same_games(manifest) {
            return Err(Error::output(
                dir,
                "holds a different experiment or shard than the one given; \
                 run `agon-selfplay run --resume --out DIR` without experiment options \
                 to continue it as it was",
            ));
        }
        let agn_path = dir.join(GAMES_AGN);
        let csv_path = dir.join(GAMES_CSV);
        let (records, damaged) = record_places(&agn_path)?;
        let mut notes: Vec<String> = damaged
            .iter()
            .map(|d| {
                format!(
                    "{}; the game is played again",
                    describe_damage(&agn_path, d)
                )
            })
            .collect();
        // One game at a time: the row from the scan, its record read at its place.
        let mut keep = IndexSet::new();
        let mut rows: Vec<Place> = Vec::new();
        if csv_path.exists() {
            let mut agn = PlaceReader::open(&agn_path)?;
            scan_stored_rows(dir, manifest, |row, at| {
                let Some(place) = find_place(&records, row.index) else {
                    return Ok(());
                };
                let record = agn.read_text(&place)?;
                match check_game(&manifest.experiment, &row, &record) {
                    Ok(()) => {
                        keep.insert(row.index);
                        rows.push(Place::new(row.index, at.offset, at.len));
                    }
                    Err(why) => notes.push(format!(
                        "{}: game {}: {why}; the game is played again",
                        dir.display(),
                        row.index
                    )),
                }
                Ok(())
            })?;
        }
        let mut records = records;
        records.retain(|p| keep.contains(p.index));
        copy_records(&agn_path, &records)?;
        drop(records);
        copy_places(&csv_path, &rows, &header_line())?;
        drop(rows);
        GameWriter::open(dir, keep, notes)
    }

    /// What resuming dropped and why (games to be played again), one line each.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    fn open(dir: &Path, done: IndexSet, notes: Vec<String>) -> Result<GameWriter> {
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
            notes,
        })
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Takes the games already in the directory when it was opened (not those appended
    /// since); an empty set afterwards. Taken rather than lent, so that a run holds one
    /// copy of the set.
    pub fn take_done(&mut self) -> IndexSet {
        std::mem::take(&mut self.done)
    }

    /// Appends one game: its record, then its row, each flushed.
    pub fn append(&mut self, row: &GameRow, record: &str) -> Result<()> {
        self.append_line(&row.to_csv_line(), record)
    }

    /// [`GameWriter::append`] with the row already serialised as a CSV line.
    pub fn append_line(&mut self, csv_line: &[u8], record: &str) -> Result<()> {
        let agn_path = self.dir.join(GAMES_AGN);
        self.agn
            .write_all(record.as_bytes())
            .and_then(|()| self.agn.flush())
            .map_err(|e| Error::io(&agn_path, e))?;
        let csv_path = self.dir.join(GAMES_CSV);
        self.csv
            .write_all(csv_line)
            .and_then(|()| self.csv.flush())
            .map_err(|e| Error::io(&csv_path, e))
    }

    /// Rewrites both files sorted by game index and returns how many games they hold.
    pub fn finish(self) -> Result<u64> {
        self.finish_keeping(|_| true)
    }

    /// Rewrites both files sorted by game index, with only the games whose row `keep`
    /// accepts (an SPRT drops the games played after it decided), and returns how many
    /// games they hold. Streams: only the place of each game (24 bytes per game and file)
    /// is held in memory, and files already sorted and complete are left as they are.
    pub fn finish_keeping(self, keep: impl Fn(&GameRow) -> bool) -> Result<u64> {
        drop(self.csv);
        drop(self.agn);
        let manifest = Manifest::read(&self.dir)?;
        let csv_path = self.dir.join(GAMES_CSV);
        let agn_path = self.dir.join(GAMES_AGN);
        let mut rows: Vec<Place> = Vec::new();
        let mut all_kept = true;
        let csv_complete = scan_stored_rows(&self.dir, &manifest, |row, at| {
            if keep(&row) {
                rows.push(Place::new(row.index, at.offset, at.len));
            } else {
                all_kept = false;
            }
            Ok(())
        })?;
        let mut records: Vec<Place> = Vec::new();
        let file = File::open(&agn_path).map_err(|e| Error::io(&agn_path, e))?;
        let scan = scan_records(BufReader::new(file), |at| {
            records.push(Place::new(at.index, at.offset, at.len));
            Ok::<(), Error>(())
        })
        .map_err(|e| match e {
            ScanError::Read(e) => Error::io(&agn_path, e),
            ScanError::Found(e) => e,
        })?;
        if let Some(damaged) = scan.damaged.first() {
            return Err(Error::output(
                &self.dir,
                describe_damage(&agn_path, damaged),
            ));
        }
        let in_order = |places: &[Place]| places.windows(2).all(|w| w[0].index < w[1].index);
        let untouched = all_kept
            && csv_complete
            && scan.dropped == 0
            && in_order(&rows)
            && rows.len() == records.len()
            && rows.iter().zip(&records).all(|(r, a)| r.index == a.index);
        if untouched {
            drop_final_blank_line(&agn_path)?;
            return Ok(rows.len() as u64);
        }
        rows.sort_unstable_by_key(|p| p.index);
        // Of each game its last complete record (a game played again after a resume
        // follows its earlier copy), and only those of kept rows, chosen in place: two
        // lists of places at a time, not three.
        sort_keeping_last_copies(&mut records);
        let mut next_row = rows.iter().map(|r| r.index).peekable();
        records.retain(|p| {
            while next_row.next_if(|&r| r < p.index).is_some() {}
            next_row.next_if_eq(&p.index).is_some()
        });
        if records.len() != rows.len() {
            // Both lists are sorted and the records a subset of the rows: the first
            // difference is the first row without a record.
            let missing = rows
                .iter()
                .zip(records.iter().map(Some).chain(std::iter::repeat(None)))
                .find(|(row, record)| record.is_none_or(|r| r.index != row.index))
                .map_or(0, |(row, _)| row.index);
            return Err(Error::output(
                &agn_path,
                format!("no record for game {missing}"),
            ));
        }
        copy_places(&agn_path, &records, &[])?;
        drop(records);
        drop_final_blank_line(&agn_path)?;
        copy_places(&csv_path, &rows, &header_line())?;
        Ok(rows.len() as u64)
    }
}

/// Records are separated by a blank line, and none follows the last (the canonical form
/// `agon fmt` writes): drops the blank line a run appends after each record from the end
/// of a finished `games.agn`. One byte less either way leaves only complete records.
fn drop_final_blank_line(path: &Path) -> Result<()> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len < 2 {
        return Ok(());
    }
    let mut tail = [0u8; 2];
    file.seek(SeekFrom::Start(len - 2))
        .and_then(|_| file.read_exact(&mut tail))
        .map_err(|e| Error::io(path, e))?;
    if &tail == b"\n\n" {
        file.set_len(len - 1).map_err(|e| Error::io(path, e))?;
    }
    Ok(())
}

/// Where one game lies in one of the game files.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    pub(crate) index: u64,
    pub(crate) offset: u64,
    pub(crate) len: u32,
}

impl Place {
    pub(crate) fn new(index: u64, offset: u64, len: u64) -> Place {
        Place {
            index,
            offset,
            len: u32::try_from(len).unwrap_or(u32::MAX),
        }
    }
}

/// Replaces `path` with `header` and then the given places of its present contents, in
/// the given order (reading sequentially where the places follow each other).
fn copy_places(path: &Path, places: &[Place], header: &[u8]) -> Result<()> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut input = BufReader::with_capacity(1 << 16, file);
    let mut at = 0u64;
    let mut buffer = Vec::new();
    write_file_with(path, |out| {
        out.write_all(header)?;
        for place in places {
            if place.offset != at {
                input.seek(SeekFrom::Start(place.offset))?;
            }
            buffer.resize(place.len as usize, 0);
            input.read_exact(&mut buffer)?;
            at = place.offset + u64::from(place.len);
            out.write_all(&buffer)?;
        }
        Ok(())
    })
    .map_err(|e| Error::io(path, e))
}

/// The places of the complete, readable records of a `games.agn` (of each game the last
/// one, as a game played again after a resume follows its earlier copy), sorted by index,
/// and the complete records that cannot be read. A missing file holds no records (a run
/// killed right after writing its manifest). Memory: 24 bytes per record.
pub(crate) fn record_places(path: &Path) -> Result<(Vec<Place>, Vec<DamagedRecord>)> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err(Error::io(path, e)),
    };
    let mut places: Vec<Place> = Vec::new();
    let scan = scan_records(BufReader::with_capacity(1 << 16, file), |at| {
        places.push(Place::new(at.index, at.offset, at.len));
        Ok::<(), std::convert::Infallible>(())
    });
    let scan = match scan {
        Ok(scan) => scan,
        Err(ScanError::Read(e)) => return Err(Error::io(path, e)),
        Err(ScanError::Found(never)) => match never {},
    };
    sort_keeping_last_copies(&mut places);
    Ok((places, scan.damaged))
}

/// Sorts places in file order by index and keeps, of each game, its last copy in the file
/// (a game played again after a resume follows its earlier copy). In place: the stable
/// sort keeps file order among copies, and `dedup_by` keeps the first of equal neighbours,
/// so the later copy is moved into it.
fn sort_keeping_last_copies(places: &mut Vec<Place>) {
    places.sort_by_key(|p| p.index);
    places.dedup_by(|later, earlier| {
        let same = later.index == earlier.index;
        if same {
            *earlier = *later;
        }
        same
    });
}

/// The place of game `index` among places sorted by index.
pub(crate) fn find_place(places: &[Place], index: u64) -> Option<Place> {
    places
        .binary_search_by_key(&index, |p| p.index)
        .ok()
        .map(|at| places[at])
}

/// Reads the bytes at given places of one file (mostly in order, so mostly from its buffer).
pub(crate) struct PlaceReader {
    path: PathBuf,
    input: Option<BufReader<File>>,
    at: u64,
}

impl PlaceReader {
    /// A reader of `path`; a missing file is one from which nothing is read.
    pub(crate) fn open(path: &Path) -> Result<PlaceReader> {
        let input = match File::open(path) {
            Ok(file) => Some(BufReader::with_capacity(1 << 16, file)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(path, e)),
        };
        Ok(PlaceReader {
            path: path.to_path_buf(),
            input,
            at: 0,
        })
    }

    /// The bytes at `place`, appended to `out`.
    pub(crate) fn read_into(&mut self, place: &Place, out: &mut Vec<u8>) -> Result<()> {
        self.read_raw(place, out)
            .map_err(|e| Error::io(&self.path, e))
    }

    fn read_raw(&mut self, place: &Place, out: &mut Vec<u8>) -> std::io::Result<()> {
        let Some(input) = self.input.as_mut() else {
            return Err(std::io::ErrorKind::NotFound.into());
        };
        if place.offset != self.at {
            input.seek(SeekFrom::Start(place.offset))?;
        }
        let from = out.len();
        out.resize(from + place.len as usize, 0);
        input.read_exact(&mut out[from..])?;
        self.at = place.offset + u64::from(place.len);
        Ok(())
    }

    /// The text at `place` (a record: [`scan_records`] found it UTF-8).
    pub(crate) fn read_text(&mut self, place: &Place) -> Result<String> {
        let mut bytes = Vec::new();
        self.read_into(place, &mut bytes)?;
        String::from_utf8(bytes).map_err(|_| {
            Error::output(
                &self.path,
                format!("game {} changed while it was read", place.index),
            )
        })
    }
}

/// Replaces a `games.agn` with the records at `places`, in their order, each followed by
/// a blank line (as a run appends them; the last record of a finished file has none).
fn copy_records(path: &Path, places: &[Place]) -> Result<()> {
    let mut input = PlaceReader::open(path)?;
    let mut buffer = Vec::new();
    write_file_with(path, |out| {
        for place in places {
            buffer.clear();
            input.read_raw(place, &mut buffer)?;
            if !buffer.ends_with(b"\n\n") {
                buffer.push(b'\n');
            }
            out.write_all(&buffer)?;
        }
        Ok(())
    })
    .map_err(|e| Error::io(path, e))
}

/// Per block, the first index within the block that the experiment's SPRT no longer
/// needs, from the games stored in `dir` (streamed: one byte per game; empty without an
/// SPRT). See [`crate::sample::sprt_limits`].
pub fn stored_sprt_limits(dir: &Path, manifest: &Manifest) -> Result<Vec<u64>> {
    let Some(mut monitor) = SprtMonitor::new(&manifest.experiment) else {
        return Ok(Vec::new());
    };
    scan_stored_rows(dir, manifest, |row, _| {
        monitor.record(&row);
        Ok(())
    })?;
    Ok(monitor.limits().to_vec())
}

/// Reads `games.csv` of a directory row by row, checking each against the manifest (and
/// that no game appears twice), and calls `found` with each row and its place. Returns
/// whether the file ends with a complete line (a kill can cut the last one short; it is
/// left out). Memory: about one bit per game, for the duplicate check ([`IndexSet`]).
pub fn scan_stored_rows(
    dir: &Path,
    manifest: &Manifest,
    mut found: impl FnMut(GameRow, RowAt) -> Result<()>,
) -> Result<bool> {
    let path = dir.join(GAMES_CSV);
    let mut file = File::open(&path).map_err(|e| Error::io(&path, e))?;
    let (complete, total) = complete_file_length(&mut file).map_err(|e| Error::io(&path, e))?;
    let mut seen = IndexSet::new();
    scan_rows(&path, BufReader::new(file.take(complete)), |row, at| {
        check_row(&path, manifest, &row)?;
        if !seen.insert(row.index) {
            return Err(Error::output(
                &path,
                format!("game {} appears twice", row.index),
            ));
        }
        found(row, at)
    })?;
    Ok(complete == total)
}

/// The length of a file up to its last newline, and its whole length (the file is left
/// at its start).
fn complete_file_length(file: &mut File) -> std::io::Result<(u64, u64)> {
    let total = file.seek(SeekFrom::End(0))?;
    let mut end = total;
    let mut block = vec![0u8; 1 << 16];
    let complete = loop {
        if end == 0 {
            break 0;
        }
        let start = end.saturating_sub(block.len() as u64);
        let chunk = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            break start + i as u64 + 1;
        }
        end = start;
    };
    file.rewind()?;
    Ok((complete, total))
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
    // Records are separated by a blank line, and none follows the last (the canonical form
    // `agon fmt` writes).
    if agn.ends_with("\n\n") {
        agn.pop();
    }
    write_atomically(&dir.join(GAMES_AGN), agn.as_bytes())?;
    write_atomically(&dir.join(GAMES_CSV), &csv)
}

/// "FILE:LINE: game N: what is wrong" for a damaged record.
pub fn describe_damage(agn: &Path, damaged: &DamagedRecord) -> String {
    let game = damaged
        .index
        .map_or("a record".to_string(), |i| format!("game {i}"));
    format!(
        "{}:{}: {game}: {}",
        agn.display(),
        damaged.line,
        damaged.reason
    )
}

/// Reads the manifest and rows of a directory (sorted by index), for merges and resumes
/// (reports stream the rows instead: [`scan_stored_rows`]).
pub fn read_games(dir: &Path) -> Result<(Manifest, Vec<GameRow>)> {
    let manifest = Manifest::read(dir)?;
    let mut rows = Vec::new();
    scan_stored_rows(dir, &manifest, |row, _| {
        rows.push(row);
        Ok(())
    })?;
    Ok((manifest, sorted_rows(rows)))
}

/// Checks that a row belongs to the experiment (and shard) of `manifest`.
fn check_row(path: &Path, manifest: &Manifest, row: &GameRow) -> Result<()> {
    let experiment = &manifest.experiment;
    if row.index >= experiment.total_games() {
        return Err(Error::output(
            path,
            format!("game {} is outside the experiment", row.index),
        ));
    }
    if let Some(shard) = manifest.shard.filter(|_| !manifest.holds(row.index)) {
        return Err(Error::output(
            path,
            format!("game {} is not in shard {shard}", row.index),
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
    Ok(())
}
