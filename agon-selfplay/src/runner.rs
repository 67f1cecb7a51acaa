//! Running games in parallel (rayon) and handing each finished game, in completion order,
//! to one consumer on the calling thread (which writes files and moves the progress bar).

use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::play::play;
use crate::record::{write_record, write_record_with};
use crate::row::GameRow;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// A finished game: its CSV row and its record.
pub struct Finished {
    /// The `games.csv` row.
    pub row: GameRow,
    /// The `games.agn` record.
    pub record: String,
}

/// Plays game `index` of an experiment.
pub fn play_one(experiment: &Experiment, index: u64) -> Result<Finished> {
    let spec = experiment.game(index);
    let played = play(&spec, experiment.opening_plies, experiment.max_plies)?;
    let row = GameRow::new(experiment, &spec, &played);
    let record = match &played.forfeit {
        Some(note) => write_record_with(&row, &played.game, &[("Forfeit", note)]),
        None => write_record(&row, &played.game),
    };
    Ok(Finished { row, record })
}

/// Plays the games `indices` on `threads` worker threads and calls `consume` for each
/// finished game on the calling thread, in completion order. Stops at the first error
/// (from a game or from `consume`); games being played then are abandoned.
pub fn run_games(
    experiment: &Experiment,
    indices: &[u64],
    threads: usize,
    mut consume: impl FnMut(Finished) -> Result<()>,
) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::Settings(format!("cannot start {threads} threads: {e}")))?;
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::sync_channel::<Result<Finished>>(2 * threads.max(1) + 2);
    std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            pool.install(|| {
                indices
                    .par_iter()
                    .with_max_len(1)
                    .for_each_with(sender, |sender, &index| {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        if sender.send(play_one(experiment, index)).is_err() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    });
            });
        });
        let mut outcome = Ok(());
        for message in receiver.iter() {
            if let Err(e) = message.and_then(&mut consume) {
                stop.store(true, Ordering::Relaxed);
                outcome = Err(e);
                break;
            }
        }
        drop(receiver);
        outcome
    })
}
