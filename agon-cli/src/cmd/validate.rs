//! `agon validate`: check every game of record files (legal actions, capture annotations,
//! results), in parallel, reporting in input order.

use crate::error::{CliResult, EXIT_ERROR, EXIT_PROBLEMS};
use crate::games::{for_each_game, Event, MapFn, Source};
use crate::output::{stderr_is_terminal, tool, write_json_line, Out};
use agon_notation::{RecordError, ValidGame};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;

/// Examples shown after `agon validate --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon validate game.agn                     one file
  agon validate records/*.agn                many files (exit 1 if any game is invalid)
  agon validate records/                     every .agn file under a folder
  agon-selfplay ... | agon validate          read stdin (also with `-` as a file name)
  agon validate --json big.agn | jq -c 'select(.valid | not)'
  agon validate -q records/*.agn && echo all good
Each invalid game gets one line, `file:line:column: game G, ply P (move M, Side): reason`,
then a summary line. Exit codes: 0 every game valid, 1 some game invalid, 2 a file could
not be read or the command line is wrong. --json prints one object per game (NDJSON) with
file, game, valid, plies, result, termination, for valid games variant and captures
(pieces captured), and for invalid games error_ply, line, column, kind and message.";

/// Options of `agon validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: crate::corpus::CorpusArgs,

    /// One JSON object per game (NDJSON) instead of text.
    #[arg(long)]
    pub json: bool,

    /// Print nothing; the exit code says whether every game is valid.
    #[arg(short, long, conflicts_with = "json")]
    pub quiet: bool,
}

/// What is reported for one game.
#[derive(Serialize, Default)]
pub struct GameReport {
    file: String,
    game: u64,
    valid: bool,
    plies: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    captures: Option<u64>,
    result: Option<String>,
    termination: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_ply: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    move_number: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The one-line text form of the defect.
    #[serde(skip)]
    text: String,
}

impl GameReport {
    /// The one-line text `agon validate` prints for an invalid game (empty when valid).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the game is valid.
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// The ply at fault in an invalid game (0: the tags or the result).
    pub fn error_ply(&self) -> Option<u64> {
        self.error_ply
    }
}

/// The report of one game.
pub fn report(file: &str, item: Result<&ValidGame, &RecordError>) -> GameReport {
    match item {
        Ok(valid) => {
            let termination = crate::corpus::termination(valid);
            GameReport {
                file: file.to_string(),
                game: valid.index,
                valid: true,
                plies: Some(valid.record.plies.len()),
                variant: Some(valid.record.rules.to_string()),
                captures: Some(crate::corpus::captures(valid)),
                result: Some(valid.record.result.to_string()),
                termination: termination.map(|t| t.to_string()),
                start_line: Some(valid.line),
                error_ply: None,
                move_number: None,
                side: None,
                line: None,
                column: None,
                kind: None,
                message: None,
                text: String::new(),
            }
        }
        Err(error) => GameReport {
            file: file.to_string(),
            game: error.game,
            valid: false,
            plies: (error.ply > 0).then(|| error.ply as usize - 1),
            variant: None,
            captures: None,
            result: None,
            termination: None,
            start_line: None,
            error_ply: Some(error.ply),
            move_number: (error.ply > 0).then_some(error.move_number),
            side: error.side.map(|s| s.to_string()),
            line: Some(error.line),
            column: Some(error.column),
            kind: Some(error.kind.to_string()),
            text: error.to_string(),
            message: Some(error.message.clone()),
        },
    }
}

/// The report of one game for the text output and `--quiet`, which look only at whether
/// a game is valid and at an invalid game's text: a valid game's report holds its index
/// and validity only (not the fields of the JSON output, whose captures are a walk over
/// every ply).
fn validity(file: &str, item: Result<&ValidGame, &RecordError>) -> GameReport {
    match item {
        Ok(valid) => GameReport {
            game: valid.index,
            valid: true,
            ..GameReport::default()
        },
        Err(_) => report(file, item),
    }
}

/// Runs `agon validate`.
pub fn run(args: &ValidateArgs) -> CliResult {
    let paths = crate::files::expand_inputs(&args.input.files);
    let total = crate::corpus::total_bytes(&paths);
    let sources: Vec<Source> = paths.into_iter().map(Source::new).collect();
    let file_count = sources.len();
    let threads = crate::games::worker_threads(args.input.threads)?;
    let progress = (!args.input.no_progress && stderr_is_terminal())
        .then(|| crate::corpus::progress_bar(total));
    let map: MapFn<GameReport> = if args.json {
        Arc::new(report)
    } else {
        Arc::new(validity)
    };
    let tool = tool();
    let mut out = Out::new();
    let (mut games, mut invalid, mut unreadable) = (0u64, 0u64, 0u64);
    let result = for_each_game(sources, threads, args.input.batch_games, map, |event| {
        match event {
            Event::Game(report) => {
                games += 1;
                if !report.valid {
                    invalid += 1;
                }
                if args.json {
                    write_json_line(&mut out, &report, &tool)?;
                } else if !report.valid && !args.quiet {
                    if let Some(bar) = &progress {
                        bar.suspend(|| writeln!(out, "{}", report.text))?;
                    } else {
                        writeln!(out, "{}", report.text)?;
                    }
                }
                if let Some(bar) = &progress {
                    bar.set_message(format!("{games} games, {invalid} invalid"));
                }
            }
            Event::InputError { message, .. } => {
                unreadable += 1;
                out.flush()?;
                match &progress {
                    Some(bar) => bar.suspend(|| eprintln!("agon: {message}")),
                    None => eprintln!("agon: {message}"),
                }
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
    if !args.json && !args.quiet {
        let files = if file_count == 1 {
            String::new()
        } else {
            format!(" in {file_count} files")
        };
        let games_word = if games == 1 { "game" } else { "games" };
        let mut summary = format!(
            "{games} {games_word}{files}: {} valid, {invalid} invalid",
            games - invalid
        );
        if unreadable > 0 {
            summary.push_str(&format!(
                "; {unreadable} input{} could not be read",
                if unreadable == 1 { "" } else { "s" }
            ));
        }
        writeln!(out, "{summary}")?;
    }
    out.flush()?;
    Ok(if unreadable > 0 {
        EXIT_ERROR
    } else if invalid > 0 {
        EXIT_PROBLEMS
    } else {
        0
    })
}
