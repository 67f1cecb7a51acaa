//! Running games in parallel (rayon) and handing each finished game, in completion order,
//! to one consumer (which writes files and moves the progress bar).

use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::play::play;
use crate::record::{write_record, write_record_with};
use crate::row::GameRow;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// The most worker threads a run takes (`--threads`): far more than any machine has cores,
/// and few enough to start at once.
pub const MAX_THREADS: usize = 1024;

/// A finished game: its CSV row and its record.
pub struct Finished {
    /// The `games.csv` row.
    pub row: GameRow,
    /// The row as a `games.csv` line (serialised by the worker, outside the writer's lock).
    pub csv_line: Vec<u8>,
    /// The `games.agn` record.
    pub record: String,
}

/// Plays game `index` of an experiment.
pub fn play_one(experiment: &Experiment, index: u64) -> Result<Finished> {
    let spec = experiment.game(index);
    let played = play(
        &spec,
        experiment.opening_plies,
        experiment.max_plies,
        experiment.adjudication,
    )?;
    let row = GameRow::new(experiment, &spec, &played);
    let record = match &played.forfeit {
        Some(note) => write_record_with(&row, &played.game, &[("Forfeit", note)]),
        None => write_record(&row, &played.game),
    };
    let csv_line = row.to_csv_line();
    Ok(Finished {
        row,
        csv_line,
        record,
    })
}

/// Plays the games `indices` on `threads` worker threads and calls `consume` for each
/// finished game, in completion order, one game at a time (the worker that finished the
/// game calls it under a lock: no extra thread competes with the workers for the cores).
/// Games are handed to the workers in the order of `indices`, and a game for which
/// `needed` is false when a worker reaches it is skipped (an SPRT that decided stops its
/// block this way). Stops at the first error (from a game or from `consume`); games being
/// played then are abandoned.
///
/// Indices are taken from the iterator one at a time as workers become free, so memory is
/// bounded by the games in flight, however many the iterator holds (`--games
/// 1000000000000`).
pub fn run_games(
    experiment: &Experiment,
    indices: impl Iterator<Item = u64> + Send,
    threads: usize,
    needed: impl Fn(u64) -> bool + Sync,
    consume: impl FnMut(Finished) -> Result<()> + Send,
) -> Result<()> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Error::Settings(format!(
            "--threads takes a number from 1 to {MAX_THREADS}, not {threads}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Settings(format!("cannot start {threads} threads: {e}")))?;
    let stop = AtomicBool::new(false);
    let sink = Mutex::new((consume, None::<Error>));
    // After an error the iterator ends at once, so the workers do not walk through the
    // rest of a huge range.
    let indices = indices.take_while(|_| !stop.load(Ordering::Relaxed));
    pool.install(|| {
        indices.par_bridge().for_each(|index| {
            if stop.load(Ordering::Relaxed) || !needed(index) {
                return;
            }
            let finished = play_one(experiment, index);
            let mut guard = sink.lock().unwrap_or_else(PoisonError::into_inner);
            let (consume, error) = &mut *guard;
            if error.is_some() {
                return;
            }
            if let Err(e) = finished.and_then(&mut *consume) {
                *error = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
        });
    });
    // Engines kept between games on the workers' threads end with the run.
    pool.broadcast(|_| crate::external::retire_idle_engines());
    match sink.into_inner().unwrap_or_else(PoisonError::into_inner).1 {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
