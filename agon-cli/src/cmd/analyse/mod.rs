//! `agon analyse`: an alpha-beta engine's judgement of every ply of recorded games (the
//! score before and after, the best lines, inaccuracies, mistakes and blunders) and each
//! side's average loss, written into the records as comments and NAGs, or as JSON.
//!
//! Games are analysed in parallel (one game per task on the rayon pool) and reported in
//! input order; each game gets a new agent, so the output does not depend on the thread
//! count. Invalid games are reported (file, line, column, ply) and skipped.

mod annotate;
mod game;
pub(crate) mod judgement;

use crate::error::{describe_io, CliError, CliResult, EXIT_ERROR, EXIT_PROBLEMS};
use crate::games::{for_each_game, Event, MapFn, Source};
use crate::output::{stderr_is_terminal, Out};
use agon_core::agents::{AgentSpec, AlphaBetaConfig};
use agon_core::Action;
use agon_notation::{GameRecord, RecordError, ValidGame};
use clap::Args;
use game::GameAnalysis;
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Examples shown after `agon analyse --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon analyse game.agn                          the record annotated, to stdout
  agon analyse games.agn -o annotated.agn        ... to a file (summaries on stdout)
  agon analyse --json games.agn | jq '.plies[] | select(.class == \"blunder\")'
  agon analyse --agent alphabeta:depth=8 --multipv 3 --json game.agn -o game.json
  agon-selfplay ... | agon analyse --json         read stdin (also with `-` as a file name)
Every ply gets the engine's score after it as a comment, White's view ({+0.35/6}: 35 units
for White at depth 6; {#+5}: a win for White forced within 5 plies), the engine's best
action when another was played ({-1.20/6 best: d9-d8}), and a NAG for the loss of the side
that chose it: $6 inaccuracy from 0.50, $2 mistake from 1.00, $4 blunder from 2.00
(docs/cli.md explains the thresholds). Each game's summary (average loss per side) goes to
stderr, or to stdout with -o, and into a comment before the first ply. A record analysed
before gets its analysis replaced, not doubled (its other comments stay). Invalid games are reported as `agon validate`
reports them and skipped; exit codes: 0 all analysed, 1 some game invalid, 2 a file could
not be read or the command line is wrong.";

/// Options of `agon analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Record files or folders (every .agn file inside); `-` or nothing for stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// The engine: an `alphabeta` agent spec (docs/agents.md). Draws score 0 unless the
    /// spec sets `contempt=`.
    #[arg(long, value_name = "SPEC", default_value = "alphabeta:depth=6")]
    pub agent: String,

    /// How many of the best lines to report before each ply (1-256).
    #[arg(long, value_name = "N")]
    pub multipv: Option<usize>,

    /// One JSON object per game (NDJSON) instead of annotated records: every ply's scores,
    /// lines, loss and class, and each side's summary.
    #[arg(long)]
    pub json: bool,

    /// Write to this file instead of stdout (each game as soon as it is analysed, so an
    /// interrupted run keeps the games it finished).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads (default: one per CPU); the output is the same for any number.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Never draw a progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

/// The analysis of one game, or why it could not be analysed.
type Analysed = Result<Finished, RecordError>;

/// A game and its analysis.
struct Finished {
    file: String,
    index: u64,
    line: u64,
    white: Option<String>,
    black: Option<String>,
    analysis: GameAnalysis,
    /// The record with the analysis written into it (records output only).
    record: Option<GameRecord>,
}

/// One game as `--json` prints it.
#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    game: u64,
    line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    white_player: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black_player: Option<&'a str>,
    agent: &'a str,
    #[serde(flatten)]
    analysis: &'a GameAnalysis,
}

/// An invalid game as `--json` prints it.
#[derive(Serialize)]
struct InvalidJson<'a> {
    file: Option<&'a str>,
    game: u64,
    error: &'a RecordError,
}

/// The engine settings of `--agent` and `--multipv`.
fn engine_config(args: &AnalyseArgs) -> Result<AlphaBetaConfig, CliError> {
    let mut config = AlphaBetaConfig::from_spec(&args.agent, 0).map_err(|e| {
        CliError::with_hint(
            format!("--agent: {e}"),
            "`agon analyse --agent` takes an alpha-beta spec such as `alphabeta:depth=6`",
        )
    })?;
    let spec = AgentSpec::parse(&args.agent).map_err(|e| CliError::new(e.to_string()))?;
    if !spec.options.iter().any(|(k, _)| k == "contempt") {
        // Both sides' scores on one scale: a draw is worth 0 to either.
        config.contempt = 0;
    }
    if let Some(lines) = args.multipv {
        if !(1..=AlphaBetaConfig::MAX_MULTIPV).contains(&lines) {
            return Err(CliError::new(format!(
                "--multipv takes a number from 1 to {}, not {lines}",
                AlphaBetaConfig::MAX_MULTIPV
            )));
        }
        config.multipv = lines;
    }
    Ok(config)
}

/// Analyses one game of the input (on a worker thread), and writes the analysis into its
/// record unless `json`.
fn analyse_item(
    config: &AlphaBetaConfig,
    json: bool,
    file: &str,
    item: Result<&ValidGame, &RecordError>,
) -> Analysed {
    let valid = item.map_err(RecordError::clone)?;
    let actions: Vec<Action> = valid.game.plies().iter().map(|p| p.action).collect();
    let analysis = game::analyse(*valid.game.start(), &actions, config);
    let record = (!json).then(|| {
        let mut record = valid.record.clone();
        annotate::annotate(&mut record, &analysis, &config.spec());
        record
    });
    Ok(Finished {
        file: file.to_string(),
        index: valid.index,
        line: valid.line,
        white: valid.record.tag("White"),
        black: valid.record.tag("Black"),
        analysis,
        record,
    })
}

/// Runs `agon analyse`.
pub fn run(args: &AnalyseArgs) -> CliResult {
    let config = engine_config(args)?;
    let spec = config.spec();
    let paths = crate::files::expand_inputs(&args.files);
    if let Some(output) = &args.output {
        refuse_input_as_output(output, &paths)?;
    }
    let total: Option<u64> = paths
        .iter()
        .map(|p| {
            if crate::files::is_stdin(p) {
                None
            } else {
                std::fs::metadata(p).ok().map(|m| m.len())
            }
        })
        .sum();
    let threads = crate::games::worker_threads(args.threads)?;
    let mut out: Box<dyn Write> = match &args.output {
        None => Box::new(Out::new()),
        Some(path) => Box::new(BufWriter::new(File::create(path).map_err(|e| {
            CliError::new(format!(
                "cannot write {}: {}",
                path.display(),
                describe_io(&e)
            ))
        })?)),
    };
    let sources: Vec<Source> = paths.into_iter().map(Source::new).collect();
    let progress =
        (!args.no_progress && stderr_is_terminal()).then(|| crate::corpus::progress_bar(total));
    let json = args.json;
    let map: MapFn<Analysed> = Arc::new(move |file, item| analyse_item(&config, json, file, item));
    let (mut analysed, mut invalid, mut unreadable) = (0u64, 0u64, 0u64);
    let summaries_to_stdout = args.output.is_some() && !args.json;
    let mut summaries = Out::new();
    let note = |text: &str| match &progress {
        Some(bar) => bar.suspend(|| eprintln!("{text}")),
        None => eprintln!("{text}"),
    };
    // One game per task: a game's analysis is long, so games are spread over the threads.
    let result = for_each_game(sources, threads, 1, map, |event| {
        match event {
            Event::Game(Ok(finished)) => {
                analysed += 1;
                if args.json {
                    let json = GameJson {
                        file: &finished.file,
                        game: finished.index,
                        line: finished.line,
                        white_player: finished.white.as_deref(),
                        black_player: finished.black.as_deref(),
                        agent: &spec,
                        analysis: &finished.analysis,
                    };
                    serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                } else if let Some(record) = &finished.record {
                    if analysed > 1 {
                        writeln!(out)?;
                    }
                    write!(out, "{record}")?;
                }
                out.flush()?;
                if !args.json {
                    let line = summary_line(&finished);
                    if summaries_to_stdout {
                        writeln!(summaries, "{line}")?;
                        summaries.flush()?;
                    } else {
                        note(&line);
                    }
                }
                if let Some(bar) = &progress {
                    bar.set_message(format!("{analysed} games analysed, {invalid} invalid"));
                }
            }
            Event::Game(Err(error)) => {
                invalid += 1;
                note(&format!("agon: {error}"));
                if args.json {
                    let json = InvalidJson {
                        file: error.file.as_deref(),
                        game: error.game,
                        error: &error,
                    };
                    serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                }
            }
            Event::InputError { message } => {
                unreadable += 1;
                out.flush()?;
                note(&format!("agon: {message}"));
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
    result?;
    out.flush()?;
    if invalid > 0 || unreadable > 0 {
        eprintln!(
            "agon: {analysed} game{} analysed, {invalid} invalid{}",
            if analysed == 1 { "" } else { "s" },
            if unreadable > 0 {
                format!(", {unreadable} input(s) could not be read")
            } else {
                String::new()
            }
        );
    }
    Ok(if unreadable > 0 {
        EXIT_ERROR
    } else if invalid > 0 {
        EXIT_PROBLEMS
    } else {
        0
    })
}

/// `-o` naming one of the inputs would empty it before it is read.
fn refuse_input_as_output(output: &Path, inputs: &[PathBuf]) -> Result<(), CliError> {
    let Ok(target) = output.canonicalize() else {
        return Ok(());
    };
    if inputs
        .iter()
        .any(|p| p.canonicalize().is_ok_and(|p| p == target))
    {
        return Err(CliError::with_hint(
            format!("-o {} is also an input", output.display()),
            "write the analysis to another file",
        ));
    }
    Ok(())
}

/// `FILE game G (White vs Black): White average loss 0.23 over 40 plies (2 inaccuracies,
/// 1 mistake, 0 blunders); Black ...`.
fn summary_line(finished: &Finished) -> String {
    let players = match (&finished.white, &finished.black) {
        (Some(w), Some(b)) => format!(" ({w} vs {b})"),
        _ => String::new(),
    };
    format!(
        "{} game {}{players}: {}",
        finished.file,
        finished.index,
        annotate::summary_text(&finished.analysis)
    )
}
