//! What the corpus commands (`filter`, `dedupe`, `split`, `stats`) share: the inputs and
//! threads options, the games read through `validate`'s pipeline ([`for_each_game`]: in
//! parallel, in input order, in flat memory), invalid games reported on stderr exactly as
//! `validate` reports them (and skipped), the progress bar, the exit code, and output to
//! stdout or to a file replaced atomically.

use crate::error::{describe_io, CliError, EXIT_ERROR, EXIT_PROBLEMS};
use crate::files::expand_inputs;
use crate::games::{for_each_game, Event, MapFn, Source};
use crate::output::{stderr_is_terminal, Out};
use agon_notation::ValidGame;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The inputs of a corpus command.
#[derive(Args, Debug)]
pub struct CorpusArgs {
    /// Record files or folders (every .agn file inside); `-` or nothing for stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Worker threads (default: one per CPU; 1 reads and checks on one thread).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Games per parallel batch (for testing the batching).
    #[arg(long, hide = true, default_value_t = crate::games::BATCH_GAMES)]
    pub batch_games: usize,

    /// Never draw a progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

/// What was read: every game, the invalid ones (reported and skipped), and the inputs
/// that could not be read.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Games read, valid or not.
    pub games: u64,
    /// Invalid games (reported on stderr, not passed on).
    pub invalid: u64,
    /// Inputs that could not be opened or read.
    pub unreadable: u64,
}

impl Tally {
    /// The exit code: 2 if an input could not be read, 1 if a game was invalid, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 {
            EXIT_ERROR
        } else if self.invalid > 0 {
            EXIT_PROBLEMS
        } else {
            0
        }
    }
}

/// What the worker threads make of a valid game.
pub type GameFn<T> = Arc<dyn Fn(&ValidGame) -> T + Send + Sync>;

/// Reads every game of the inputs, applies `map` to each valid one on the worker threads,
/// and hands the results to `sink` in input order. Invalid games and unreadable inputs are
/// reported on stderr (`file:line:column: game G, ply P ...`, as `validate` does) and
/// counted; the valid games around them are still processed.
pub fn each_game<T: Send + 'static>(
    args: &CorpusArgs,
    map: GameFn<T>,
    mut sink: impl FnMut(T) -> Result<(), CliError>,
) -> Result<Tally, CliError> {
    let paths = expand_inputs(&args.files);
    let total = total_bytes(&paths);
    let sources: Vec<Source> = paths.into_iter().map(Source::new).collect();
    let threads = crate::games::worker_threads(args.threads)?;
    let progress = (!args.no_progress && stderr_is_terminal()).then(|| progress_bar(total));
    let map: MapFn<Result<T, String>> = Arc::new(move |_, item| match item {
        Ok(valid) => Ok(map(valid)),
        Err(error) => Err(error.to_string()),
    });
    let mut tally = Tally::default();
    let say = |progress: &Option<ProgressBar>, text: &str| match progress {
        Some(bar) => bar.suspend(|| eprintln!("{text}")),
        None => eprintln!("{text}"),
    };
    let result = for_each_game(sources, threads, args.batch_games, map, |event| {
        match event {
            Event::Game(item) => {
                tally.games += 1;
                match item {
                    Ok(value) => sink(value)?,
                    Err(text) => {
                        tally.invalid += 1;
                        say(&progress, &text);
                    }
                }
                if let Some(bar) = &progress {
                    bar.set_message(format!("{} games, {} invalid", tally.games, tally.invalid));
                }
            }
            Event::InputError { message } => {
                tally.unreadable += 1;
                say(&progress, &format!("agon: {message}"));
            }
            Event::Progress(bytes) => {
                if let Some(bar) = &progress {
                    bar.inc(bytes);
                }
            }
        }
        Ok(())
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    result.map(|()| tally)
}

/// Runs `work` with the output: stdout, or `path` replaced atomically through agon-files
/// (a failed or interrupted run leaves the old file as it was).
pub fn with_output<R>(
    path: Option<&Path>,
    work: impl FnOnce(&mut dyn Write) -> Result<R, CliError>,
) -> Result<R, CliError> {
    let Some(path) = path.filter(|p| !crate::files::is_stdin(p)) else {
        let mut out = Out::new();
        let value = work(&mut out)?;
        out.flush()
            .map_err(|e| CliError::io("cannot write to stdout", e))?;
        return Ok(value);
    };
    let mut outcome: Option<Result<R, CliError>> = None;
    let written = agon_files::write_file_with(path, |out| {
        let result = work(out);
        let failed = result.is_err();
        outcome = Some(result);
        if failed {
            Err(io::Error::other("stopped"))
        } else {
            Ok(())
        }
    });
    match (outcome, written) {
        (Some(Err(error)), _) => Err(error),
        (_, Err(e)) => Err(CliError::new(format!(
            "cannot write {}: {}",
            path.display(),
            describe_io(&e)
        ))),
        (Some(Ok(value)), Ok(())) => Ok(value),
        (None, Ok(())) => Err(CliError::new("internal error: nothing was written")),
    }
}

/// Writes game records one after the other, one blank line between games.
#[derive(Default)]
pub struct RecordWriter {
    written: u64,
}

impl RecordWriter {
    /// Writes one record's canonical text (as `ValidGame::record.to_string()` gives it).
    pub fn write(&mut self, out: &mut dyn Write, text: &str) -> Result<(), CliError> {
        if self.written > 0 {
            out.write_all(b"\n")
                .map_err(|e| CliError::io("cannot write", e))?;
        }
        out.write_all(text.as_bytes())
            .map_err(|e| CliError::io("cannot write", e))?;
        self.written += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
}

/// The pieces a game captured, suicides included.
pub fn captures(valid: &ValidGame) -> u64 {
    valid
        .record
        .plies
        .iter()
        .map(|ply| u64::from(ply.captures.count()))
        .sum()
}

/// Why a game ended: its `Termination` tag, else what the rules say about its end.
pub fn termination(valid: &ValidGame) -> Option<agon_core::Termination> {
    valid
        .record
        .termination
        .or(valid.game.outcome().map(|o| o.termination))
}

/// `s` for plurals.
pub fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The size of all inputs, if known (not for stdin).
pub fn total_bytes(paths: &[PathBuf]) -> Option<u64> {
    paths
        .iter()
        .map(|p| {
            if crate::files::is_stdin(p) {
                None
            } else {
                std::fs::metadata(p).ok().map(|m| m.len())
            }
        })
        .sum()
}

/// The progress bar of a pass over inputs of `total` bytes (a spinner if unknown).
pub fn progress_bar(total: Option<u64>) -> ProgressBar {
    let bar = match total {
        Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
            .with_style(
                ProgressStyle::with_template(
                    "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {bytes} {binary_bytes_per_sec}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
