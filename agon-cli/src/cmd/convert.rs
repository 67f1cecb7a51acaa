//! `agon convert`: game records to JSON and back, or every position of every game.

use crate::error::{describe_io, CliError, CliResult, EXIT_ERROR, EXIT_PROBLEMS};
use crate::files::{expand_inputs, open_input, Input};
use crate::games::{for_each_game, Event, MapFn, Source};
use agon_core::Game;
use agon_notation::{format_annotated, format_position, GameRecord};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Examples shown after `agon convert --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon convert games.agn > games.jsonl        records to JSON, one game per line
  agon convert games.jsonl > games.agn        and back (the format is detected)
  agon convert --to json game.agn | jq '.moves | length'
  agon convert --to positions game.agn | jq -r 'select(.ply == 20) | .position'
  agon convert --to agn -o clean.agn export.jsonl
JSON games look like {\"tags\": {...}, \"variant\": \"standard\", \"start\": null,
\"moves\": [{\"action\": \"h9-g9\", \"captures\": []}], \"result\": \"*\", \"termination\": null};
reading one replays it, so illegal games are refused. --to positions writes one object
per position of each game: file, game, ply (0 = start), action (the one that led there),
position (the position string). Invalid games are reported on stderr and skipped (exit 1).";

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Game records (.agn), canonical.
    Agn,
    /// One JSON object per game per line.
    Json,
    /// One JSON object per position of every game.
    Positions,
}

/// Options of `agon convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Input files (records or JSON lines; folders mean their .agn files); stdin if none.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Output format (default: JSON for records, records for JSON).
    #[arg(long, value_enum)]
    pub to: Option<Target>,

    /// Write to this file (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads for reading records (default: one per CPU).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// What the input holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Records,
    Json,
}

/// Guesses the input kind from the name, or else from its first non-blank byte.
fn kind_of(path: &Path, first: Option<u8>) -> Kind {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json" | "jsonl" | "ndjson") => return Kind::Json,
        Some("agn" | "pgn") => return Kind::Records,
        _ => {}
    }
    match first {
        Some(b'{') => Kind::Json,
        _ => Kind::Records,
    }
}

#[derive(Serialize)]
struct PositionLine<'a> {
    file: &'a str,
    game: u64,
    ply: usize,
    action: Option<String>,
    position: String,
}

/// Converted text of one game, or the reason it was skipped.
type Converted = Result<String, String>;

fn convert_record(target: Target, file: &str, record: &GameRecord, index: u64) -> Converted {
    match target {
        Target::Agn => Ok(record.to_string()),
        Target::Json => serde_json::to_string(record)
            .map(|mut line| {
                line.push('\n');
                line
            })
            .map_err(|e| e.to_string()),
        Target::Positions => {
            let mut game = Game::from_position(record.start_position().map_err(|e| e.to_string())?);
            let mut text = String::new();
            let mut push = |ply: usize, action: Option<String>, game: &Game| {
                let line = PositionLine {
                    file,
                    game: index,
                    ply,
                    action,
                    position: format_position(game.position()),
                };
                serde_json::to_string(&line).map(|l| {
                    text.push_str(&l);
                    text.push('\n');
                })
            };
            push(0, None, &game).map_err(|e| e.to_string())?;
            for (i, ply) in record.plies.iter().enumerate() {
                game.play(ply.action).map_err(|e| e.to_string())?;
                push(
                    i + 1,
                    Some(format_annotated(ply.action, ply.captures)),
                    &game,
                )
                .map_err(|e| e.to_string())?;
            }
            Ok(text)
        }
    }
}

/// Runs `agon convert`.
pub fn run(args: &ConvertArgs) -> CliResult {
    let paths = expand_inputs(&args.files);
    let sink_to = args.output.clone();
    let mut code = 0u8;
    let mut body = |out: &mut dyn Write| -> Result<u8, CliError> {
        let mut separator = false;
        for path in &paths {
            let code_here = convert_one(path, args, out, &mut separator)?;
            code = code.max(code_here);
        }
        Ok(code)
    };
    match sink_to {
        None => {
            let mut out = crate::output::Out::new();
            let code = body(&mut out)?;
            out.flush()?;
            Ok(code)
        }
        Some(path) => {
            let mut code = 0;
            agon_files::write_file_with(&path, |file| {
                code = body(file).map_err(|e| std::io::Error::other(error_message(e)))?;
                Ok(())
            })
            .map_err(|e| {
                CliError::new(format!(
                    "cannot write {}: {}",
                    path.display(),
                    describe_io(&e)
                ))
            })?;
            Ok(code)
        }
    }
}

fn error_message(error: CliError) -> String {
    match error {
        CliError::Message { message, .. } => message,
        CliError::BrokenPipe => "broken pipe".into(),
    }
}

/// Converts one input; returns its exit code (0, 1 for skipped games, 2 for read errors).
fn convert_one(
    path: &Path,
    args: &ConvertArgs,
    out: &mut dyn Write,
    separator: &mut bool,
) -> Result<u8, CliError> {
    let mut source = Source::new(path.to_path_buf());
    let input = match open_input(path) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("{e}");
            return Ok(EXIT_ERROR);
        }
    };
    let mut reader: Box<dyn BufRead + Send> = match input {
        Input::File(file) => Box::new(BufReader::new(file)),
        Input::Stdin(stdin) => Box::new(BufReader::new(stdin)),
    };
    let first = first_non_blank(&mut reader)
        .map_err(|e| CliError::io(&format!("cannot read {}", source.name), e))?;
    let kind = kind_of(path, first);
    let target = args.to.unwrap_or(match kind {
        Kind::Records => Target::Json,
        Kind::Json => Target::Agn,
    });
    match kind {
        Kind::Json => from_json(&source.name, reader, target, out, separator),
        Kind::Records => {
            source.opened = Some(Box::new(reader));
            from_records(source, args.threads, target, out, separator)
        }
    }
}

/// Peeks at the first byte that is not white space (without consuming it).
fn first_non_blank(reader: &mut dyn BufRead) -> std::io::Result<Option<u8>> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => return Ok(Some(buf[i])),
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

fn write_game(
    out: &mut dyn Write,
    target: Target,
    text: &str,
    separator: &mut bool,
) -> std::io::Result<()> {
    if target == Target::Agn && *separator {
        out.write_all(b"\n")?;
    }
    *separator = true;
    out.write_all(text.as_bytes())
}

fn from_records(
    source: Source,
    threads: Option<usize>,
    target: Target,
    out: &mut dyn Write,
    separator: &mut bool,
) -> Result<u8, CliError> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let map: MapFn<Converted> = Arc::new(move |file, item| match item {
        Ok(valid) => convert_record(target, file, &valid.record, valid.index)
            .map_err(|e| format!("{file}: game {}: {e}", valid.index)),
        Err(error) => Err(error.to_string()),
    });
    let mut code = 0;
    for_each_game(
        vec![source],
        threads.max(1),
        crate::games::BATCH_GAMES,
        map,
        |event| {
            match event {
                Event::Game(Ok(text)) => write_game(out, target, &text, separator)?,
                Event::Game(Err(message)) => {
                    eprintln!("agon: skipped invalid game: {message}");
                    code = code.max(EXIT_PROBLEMS);
                }
                Event::InputError { message } => {
                    eprintln!("agon: {message}");
                    code = EXIT_ERROR;
                }
                Event::Progress(_) => {}
            }
            Ok(())
        },
    )?;
    Ok(code)
}

fn from_json(
    name: &str,
    reader: Box<dyn BufRead + Send>,
    target: Target,
    out: &mut dyn Write,
    separator: &mut bool,
) -> Result<u8, CliError> {
    let mut code = 0;
    let mut index = 0u64;
    // One game per line (NDJSON); a game written over several lines is gathered until it
    // parses, and a JSON array of games is read whole.
    let mut pending = String::new();
    let mut pending_line = 0usize;
    let report = |index: u64, line: usize, message: String| {
        eprintln!("agon: {name}:{line}: game {index}: {message}");
    };
    for (number, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| CliError::io(&format!("cannot read {name}"), e))?;
        if pending.is_empty() {
            if line.trim().is_empty() {
                continue;
            }
            pending_line = number + 1;
        }
        pending.push_str(&line);
        pending.push('\n');
        let games: Result<Vec<GameRecord>, serde_json::Error> =
            if pending.trim_start().starts_with('[') {
                serde_json::from_str(&pending)
            } else {
                serde_json::from_str::<GameRecord>(&pending).map(|g| vec![g])
            };
        match games {
            Ok(games) => {
                for record in games {
                    index += 1;
                    match convert_record(target, name, &record, index) {
                        Ok(text) => write_game(out, target, &text, separator)?,
                        Err(message) => {
                            report(index, pending_line, message);
                            code = EXIT_PROBLEMS;
                        }
                    }
                }
                pending.clear();
            }
            Err(error) if error.is_eof() => {}
            Err(error) => {
                index += 1;
                let line = pending_line + error.line().saturating_sub(1);
                report(index, line, strip_position(&error.to_string()).to_string());
                code = EXIT_PROBLEMS;
                pending.clear();
            }
        }
    }
    if !pending.trim().is_empty() {
        report(
            index + 1,
            pending_line,
            "the JSON text ends in the middle of a game".into(),
        );
        code = EXIT_PROBLEMS;
    }
    Ok(code)
}

/// serde_json appends " at line L column C"; the line is already in front.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}
