//! An exploration's directory, and the three ways of playing it: all in one process
//! ([`run`]), one shard of the current round ([`play_shard`]), and the merge of a round's
//! shards ([`merge_round`]).
//!
//! ```text
//! DIR/explore-spec.json        the spec
//! DIR/games/                   the race's games (a run directory: `report DIR/games` works)
//! DIR/ladder/                  the ladders' games (a tournament directory)
//! DIR/rounds/R/K-of-N/         shard K of N of round R, until merged
//! DIR/explore.json, .csv, index.html   the reports, once the exploration is over
//! ```
//!
//! Rounds are numbered from 0; when the exploration has ladders, the round after the last
//! race round plays them.

use super::race::{Race, RoundPlan};
use super::spec::{ExploreSpec, SPEC_FILE};
use crate::error::{Error, Result};
use crate::experiment::{Experiment, Shard};
use crate::merge::gather;
use crate::row::GameRow;
use crate::sample::Samples;
use crate::session::{run as run_session, RunOptions};
use crate::store::{lock_output, read_games, write_games, Manifest, MANIFEST};
use std::path::{Path, PathBuf};

/// The race's games.
pub const GAMES_DIR: &str = "games";
/// The ladders' games.
pub const LADDER_DIR: &str = "ladder";
/// Shards of rounds.
pub const ROUNDS_DIR: &str = "rounds";

/// What an exploration does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Play this round of the race.
    Race(RoundPlan),
    /// Play the ladders of the survivors (round `number`).
    Ladder {
        /// The round's number.
        number: usize,
        /// The ladders' experiment.
        experiment: Experiment,
    },
    /// Nothing: the reports can be written.
    Finished,
}

impl Phase {
    /// The round's number (`None` when finished).
    pub fn round(&self) -> Option<usize> {
        match self {
            Phase::Race(plan) => Some(plan.number),
            Phase::Ladder { number, .. } => Some(*number),
            Phase::Finished => None,
        }
    }
}

/// An exploration as its directory holds it.
#[derive(Clone, Debug)]
pub struct State {
    /// The spec.
    pub spec: ExploreSpec,
    /// The race's experiment.
    pub experiment: Experiment,
    /// The race's games (sorted by index).
    pub rows: Vec<GameRow>,
    /// The race's pairs.
    pub samples: Samples,
    /// The race, replayed from the games.
    pub race: Race,
    /// The ladders' experiment and games, once the race is over (when the spec has
    /// ladders and some rule set survived).
    pub ladder: Option<(Experiment, Vec<GameRow>)>,
}

impl State {
    /// Reads the spec and the games of `dir` and replays the race.
    pub fn load(dir: &Path) -> Result<State> {
        let spec = ExploreSpec::read(dir)?;
        let experiment = spec.experiment()?;
        let rows = read_phase_games(&dir.join(GAMES_DIR), &experiment)?;
        let samples = Samples::of_rows(&experiment, &rows);
        let race = Race::replay(&spec, &samples);
        let ladder = match (&spec.ladder, race.finished()) {
            (Some(ladder), true) => {
                let survivors: Vec<String> = race
                    .survivors()
                    .into_iter()
                    .map(|b| spec.rule_sets[b].clone())
                    .collect();
                if survivors.is_empty() {
                    None
                } else {
                    let e = ladder.experiment(
                        survivors,
                        spec.opening_plies,
                        spec.max_plies,
                        spec.seed,
                        spec.adjudication,
                        spec.openings.clone(),
                    )?;
                    let rows = read_phase_games(&dir.join(LADDER_DIR), &e)?;
                    Some((e, rows))
                }
            }
            _ => None,
        };
        Ok(State {
            spec,
            experiment,
            rows,
            samples,
            race,
            ladder,
        })
    }

    /// What to play next.
    pub fn phase(&self) -> Phase {
        if let Some(plan) = &self.race.next {
            return Phase::Race(plan.clone());
        }
        match &self.ladder {
            Some((experiment, rows)) if (rows.len() as u64) < experiment.total_games() => {
                Phase::Ladder {
                    number: self.race.rounds.len(),
                    experiment: experiment.clone(),
                }
            }
            _ => Phase::Finished,
        }
    }
}

/// The games of a phase's directory, checked against its experiment (none yet when the
/// directory does not exist).
fn read_phase_games(dir: &Path, experiment: &Experiment) -> Result<Vec<GameRow>> {
    if !dir.join(MANIFEST).exists() {
        return Ok(Vec::new());
    }
    let (manifest, rows) = read_games(dir)?;
    if manifest.experiment != *experiment {
        return Err(Error::output(
            dir,
            "holds games of another experiment than this exploration's spec",
        ));
    }
    Ok(rows)
}

/// Creates an exploration in `dir` from `spec`, or checks that `dir` holds that same one.
/// A directory that holds a finished or different exploration is refused unless
/// `resume` (then only the same spec is accepted).
pub fn prepare(dir: &Path, spec: &ExploreSpec, resume: bool) -> Result<()> {
    if dir.join(SPEC_FILE).exists() {
        let stored = ExploreSpec::read(dir)?;
        if stored != *spec {
            return Err(Error::output(
                dir,
                "holds another exploration (its explore-spec.json differs from the options \
                 given); continue it with `explore --resume --out DIR` and no other options, \
                 or choose another --out",
            ));
        }
        if !resume {
            return Err(Error::output(
                dir,
                "already holds this exploration; continue it with --resume, or choose \
                 another --out",
            ));
        }
        return Ok(());
    }
    if resume {
        return Err(Error::output(
            dir,
            format!("holds no exploration to resume ({SPEC_FILE} is missing)"),
        ));
    }
    spec.write(dir)
}

/// Who plays: how many worker threads, and whether they draw progress bars.
#[derive(Clone, Copy, Debug)]
pub struct Workers {
    /// Worker threads.
    pub threads: usize,
    /// Draw progress bars (when stderr is a terminal).
    pub progress: bool,
}

/// Plays the games of `phase` that are not in `out` yet into `out` (created if needed),
/// as a directory of `experiment` (or of `shard` of it).
fn play_into(
    out: &Path,
    experiment: &Experiment,
    shard: Option<Shard>,
    only: Option<Vec<std::ops::Range<u64>>>,
    options: Workers,
) -> Result<u64> {
    let manifest = Manifest::new(experiment.clone(), shard);
    let run_options = RunOptions {
        out: Some(out.to_path_buf()),
        resume: out.join(MANIFEST).exists(),
        threads: options.threads,
        progress: options.progress,
        only,
    };
    Ok(run_session(&manifest, &run_options)?.played_now)
}

/// Plays the whole exploration in `dir` (prepared) in this process, round after round,
/// continuing wherever it stopped. Returns the games played now.
pub fn run(dir: &Path, options: Workers) -> Result<u64> {
    let mut played = 0;
    loop {
        let state = State::load(dir)?;
        match state.phase() {
            Phase::Race(plan) => {
                let ranges = plan.ranges(&state.experiment);
                played += play_into(
                    &dir.join(GAMES_DIR),
                    &state.experiment,
                    None,
                    Some(ranges),
                    options,
                )?;
            }
            Phase::Ladder { experiment, .. } => {
                played += play_into(&dir.join(LADDER_DIR), &experiment, None, None, options)?;
            }
            Phase::Finished => return Ok(played),
        }
    }
}

/// The directory of shard `shard` of round `round`.
pub fn shard_dir(dir: &Path, round: usize, shard: Shard) -> PathBuf {
    dir.join(ROUNDS_DIR)
        .join(round.to_string())
        .join(format!("{}-of-{}", shard.index, shard.count))
}

/// Plays shard `shard` of round `round` of the exploration in `dir` into its own
/// directory (resuming it if it was interrupted). `round` must be the current round:
/// every earlier round merged, this one not yet.
pub fn play_shard(dir: &Path, round: usize, shard: Shard, options: Workers) -> Result<u64> {
    let state = State::load(dir)?;
    let phase = state.phase();
    let Some(current) = phase.round() else {
        return Err(Error::Settings(format!(
            "{} holds a finished exploration: there is no round {round} to play",
            dir.display()
        )));
    };
    if round != current {
        return Err(Error::Settings(format!(
            "{}: the round to play is {current}, not {round} (merge each round with \
             `explore --merge` before playing the next)",
            dir.display()
        )));
    }
    let out = shard_dir(dir, round, shard);
    // Shards play side by side, each in its own directory, which only one process writes.
    let _lock = lock_output(&out)?;
    match phase {
        Phase::Race(plan) => {
            let ranges = plan.ranges(&state.experiment);
            play_into(&out, &state.experiment, Some(shard), Some(ranges), options)
        }
        Phase::Ladder { experiment, .. } => {
            play_into(&out, &experiment, Some(shard), None, options)
        }
        Phase::Finished => unreachable!("a finished exploration has no round"),
    }
}

/// What a merge did.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The round merged.
    pub round: usize,
    /// Shard directories read.
    pub shards: usize,
    /// What comes next.
    pub next: Phase,
}

/// Merges the shards of the current round of `dir` into its games. The round must be
/// complete afterwards; if shards are missing, what was found is kept and the error says
/// how many games are missing.
pub fn merge_round(dir: &Path) -> Result<Merged> {
    let state = State::load(dir)?;
    let phase = state.phase();
    let (round, experiment, target) = match &phase {
        Phase::Race(plan) => (plan.number, state.experiment.clone(), dir.join(GAMES_DIR)),
        Phase::Ladder { number, experiment } => (*number, experiment.clone(), dir.join(LADDER_DIR)),
        Phase::Finished => {
            return Err(Error::Settings(format!(
                "{} holds a finished exploration: nothing to merge",
                dir.display()
            )))
        }
    };
    let round_dir = dir.join(ROUNDS_DIR).join(round.to_string());
    let mut shards: Vec<PathBuf> = match std::fs::read_dir(&round_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join(MANIFEST).exists())
            .collect(),
        Err(_) => Vec::new(),
    };
    shards.sort();
    if shards.is_empty() {
        return Err(Error::output(
            &round_dir,
            format!(
                "no shard of round {round} to merge (play them with `explore --out DIR \
                 --round {round} --shard K/N`)"
            ),
        ));
    }
    let mut dirs = Vec::new();
    if target.join(MANIFEST).exists() {
        dirs.push(target.clone());
    }
    dirs.extend(shards.iter().cloned());
    let (rows, records) = gather(&dirs, &experiment, &dirs[0])?;
    let rows: Vec<GameRow> = rows.into_values().collect();
    std::fs::create_dir_all(&target).map_err(|e| Error::io(&target, e))?;
    write_games(&target, &rows, &records)?;
    Manifest::new(experiment, None).write(&target)?;
    let after = State::load(dir)?;
    let next = after.phase();
    if next.round() == Some(round) {
        let missing = match &next {
            Phase::Race(plan) => {
                let wanted = plan.ranges(&after.experiment).into_iter().flatten().count();
                let held: std::collections::BTreeSet<u64> =
                    after.rows.iter().map(|r| r.index).collect();
                plan.ranges(&after.experiment)
                    .into_iter()
                    .flatten()
                    .filter(|i| !held.contains(i))
                    .count()
                    .min(wanted)
            }
            Phase::Ladder { experiment, .. } => {
                let held = after.ladder.as_ref().map_or(0, |(_, rows)| rows.len());
                experiment.total_games() as usize - held
            }
            Phase::Finished => 0,
        };
        return Err(Error::output(
            &round_dir,
            format!(
                "round {round} is incomplete after merging {} shard(s): {missing} game(s) \
                 missing; play the missing shards (or resume them) and merge again",
                shards.len()
            ),
        ));
    }
    Ok(Merged {
        round,
        shards: shards.len(),
        next,
    })
}
