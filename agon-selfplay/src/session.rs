//! One run of an experiment: pick the games still to play, play them in parallel, append
//! each to the output directory as it finishes, and sort the files at the end.

use crate::error::Result;
use crate::progress::Progress;
use crate::row::GameRow;
use crate::runner::run_games;
use crate::sample::{sprt_limits, within_limits, SprtMonitor};
use crate::store::{GameWriter, Manifest};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Output directory (`None`: keep the games in memory only).
    pub out: Option<PathBuf>,
    /// Continue the run already in `out`.
    pub resume: bool,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar (when stderr is a terminal).
    pub progress: bool,
    /// Play only the games in these ranges of indices (`None`: every game of the
    /// manifest), as a round of `agon-selfplay explore` does.
    pub only: Option<Vec<Range<u64>>>,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Every game of the run (earlier sessions of a resumed run included), sorted by
    /// index, when the games were kept in memory (no output directory). Empty when they
    /// were written to a directory: memory stays flat however many games a run has, and
    /// reports stream the rows from `games.csv` ([`crate::report::write_stored_reports`]).
    pub rows: Vec<GameRow>,
    /// How many games the run holds (earlier sessions of a resumed run included).
    pub games: u64,
    /// Games played by this call.
    pub played_now: u64,
    /// Wall-clock seconds this call spent playing.
    pub seconds: f64,
}

impl RunOutcome {
    /// Games per second played by this call.
    pub fn games_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.played_now as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Plays every game of `manifest` (its shard only, if any) that is not yet done. With an
/// SPRT, a block stops being scheduled once the test over its prefix of pairs decided,
/// and the games played beyond that point are left out of the final files, so the result
/// is the same at any thread count and after any interruption. The caller holds the lock of
/// `options.out` ([`crate::store::lock_output`]).
pub fn run(manifest: &Manifest, options: &RunOptions) -> Result<RunOutcome> {
    let experiment = &manifest.experiment;
    let mut writer = match (&options.out, options.resume) {
        (Some(dir), true) => Some(GameWriter::resume(dir, manifest)?),
        (Some(dir), false) => Some(GameWriter::create(dir, manifest)?),
        (None, _) => None,
    };
    if let Some(w) = &writer {
        for note in w.notes() {
            eprintln!("agon-selfplay: {note}");
        }
    }
    // Lazily: `--games 1000000000000` must not build a list of indices.
    let done = writer
        .as_mut()
        .map(GameWriter::take_done)
        .unwrap_or_default();
    let done_count = done.len();
    let in_shard = |i: &u64| manifest.holds(*i);
    let wanted: Box<dyn Iterator<Item = u64> + Send> = match options.only.clone() {
        Some(ranges) => Box::new(ranges.into_iter().flatten().filter(in_shard)),
        None => Box::new(manifest.indices()),
    };
    let expected = match &options.only {
        Some(ranges) => {
            let pending = ranges.iter().cloned().flatten().filter(in_shard);
            done_count + pending.filter(|i| !done.contains(*i)).count() as u64
        }
        None => manifest.expected(),
    };
    let pending = wanted.filter(move |i| !done.contains(*i));
    let mut progress = if options.progress {
        Some(Progress::new(expected, &[], &experiment.variants))
    } else {
        None
    };
    let mut monitor = SprtMonitor::new(experiment);
    // The games kept by a resume, streamed from `games.csv` (never all held at once).
    if let (Some(w), true) = (&writer, options.resume) {
        if progress.is_some() || monitor.is_some() {
            crate::store::scan_stored_rows(w.dir(), manifest, |row, _| {
                if let Some(m) = monitor.as_mut() {
                    m.record(&row);
                }
                if let Some(p) = progress.as_mut() {
                    p.already_done(&row);
                }
                Ok(())
            })?;
        }
    }
    let limits: Vec<AtomicU64> = match &monitor {
        Some(m) => m.limits().iter().map(|&l| AtomicU64::new(l)).collect(),
        None => Vec::new(),
    };
    let needed = |index: u64| {
        let block = experiment.block_of(index);
        !matches!(limits.get(block), Some(l) if index % experiment.games >= l.load(Ordering::Relaxed))
    };
    let mut rows_in_memory = Vec::new();
    let started = Instant::now();
    let mut played_now = 0;
    let outcome = run_games(experiment, pending, options.threads, needed, |finished| {
        if let Some(m) = monitor.as_mut() {
            if m.record(&finished.row) {
                let block = experiment.block_of(finished.row.index);
                limits[block].store(m.limits()[block], Ordering::Relaxed);
            }
        }
        if let Some(w) = writer.as_mut() {
            w.append_line(&finished.csv_line, &finished.record)?;
        } else {
            rows_in_memory.push(finished.row.clone());
        }
        if let Some(p) = progress.as_mut() {
            p.game_done(&finished.row);
        }
        played_now += 1;
        Ok(())
    });
    let seconds = started.elapsed().as_secs_f64();
    if let Some(p) = &progress {
        p.finish();
    }
    outcome?;
    let (rows, games) = match writer {
        Some(w) => {
            let games = match &experiment.sprt {
                Some(_) => {
                    let limits = crate::store::stored_sprt_limits(w.dir(), manifest)?;
                    w.finish_keeping(|r| within_limits(experiment, &limits, r.index))?
                }
                None => w.finish()?,
            };
            (Vec::new(), games)
        }
        None => {
            let limits = sprt_limits(experiment, &rows_in_memory).unwrap_or_default();
            rows_in_memory.retain(|r| within_limits(experiment, &limits, r.index));
            rows_in_memory.sort_by_key(|r| r.index);
            let games = rows_in_memory.len() as u64;
            (rows_in_memory, games)
        }
    };
    Ok(RunOutcome {
        rows,
        games,
        played_now,
        seconds,
    })
}
