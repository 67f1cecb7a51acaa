//! `agon convert`: game records to JSON and back, or every position of every game.

use crate::error::{describe_io, CliError, CliResult, EXIT_ERROR, EXIT_PROBLEMS};
use crate::files::{expand_inputs, open_input, Input};
use crate::games::{for_each_game, Event, MapFn, Source};
use agon_core::Game;
use agon_notation::{format_annotated, format_position, GameRecord, JsonRecordError};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::io::{BufRead, BufReader, Read, Write};
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
    let threads = crate::games::worker_threads(args.threads)?;
    let paths = expand_inputs(&args.files);
    let sink_to = args.output.clone();
    let mut code = 0u8;
    let mut body = |out: &mut dyn Write| -> Result<u8, CliError> {
        let mut separator = false;
        for path in &paths {
            let code_here = convert_one(path, args.to, threads, out, &mut separator)?;
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
    to: Option<Target>,
    threads: usize,
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
    let target = to.unwrap_or(match kind {
        Kind::Records => Target::Json,
        Kind::Json => Target::Agn,
    });
    match kind {
        Kind::Json => from_json(&source.name, reader, target, out, separator),
        Kind::Records => {
            source.opened = Some(Box::new(reader));
            from_records(source, threads, target, out, separator)
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
    threads: usize,
    target: Target,
    out: &mut dyn Write,
    separator: &mut bool,
) -> Result<u8, CliError> {
    let map: MapFn<Converted> = Arc::new(move |file, item| match item {
        Ok(valid) => convert_record(target, file, &valid.record, valid.index)
            .map_err(|e| format!("{file}: game {}: {e}", valid.index)),
        Err(error) => Err(error.to_string()),
    });
    let mut code = 0;
    for_each_game(
        vec![source],
        threads,
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

/// The longest JSON text of one game (or of one array of games) that is read.
const MAX_JSON_GAME: usize = 16 << 20;

/// Reads one line (without its line break) into `line`, keeping at most [`MAX_JSON_GAME`]
/// bytes: `Ok(None)` at the end of the input, `Ok(Some(Err(length)))` for a longer line
/// (read and dropped).
fn read_json_line(
    reader: &mut dyn BufRead,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<Result<(), usize>>> {
    line.clear();
    let read = (&mut *reader)
        .take(MAX_JSON_GAME as u64 + 1)
        .read_until(b'\n', line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') && line.len() > MAX_JSON_GAME {
        let rest = reader.skip_until(b'\n')?;
        return Ok(Some(Err(line.len() + rest)));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    Ok(Some(Ok(())))
}

/// How deeply the JSON text seen so far is nested (strings skipped), to tell when a game
/// written over several lines may be complete.
#[derive(Default)]
struct JsonDepth {
    depth: i64,
    in_string: bool,
    escaped: bool,
}

impl JsonDepth {
    fn scan(&mut self, text: &str) {
        for b in text.bytes() {
            match (self.in_string, self.escaped, b) {
                (true, true, _) => self.escaped = false,
                (true, false, b'\\') => self.escaped = true,
                (true, false, b'"') => self.in_string = false,
                (true, false, _) => {}
                (false, _, b'"') => self.in_string = true,
                (false, _, b'{' | b'[') => self.depth += 1,
                (false, _, b'}' | b']') => self.depth -= 1,
                _ => {}
            }
        }
    }

    /// Whether every object and array opened has been closed.
    fn closed(&self) -> bool {
        self.depth <= 0 && !self.in_string
    }
}

fn from_json(
    name: &str,
    mut reader: Box<dyn BufRead + Send>,
    target: Target,
    out: &mut dyn Write,
    separator: &mut bool,
) -> Result<u8, CliError> {
    let mut code = 0;
    let mut index = 0u64;
    // One game per line (NDJSON); a game written over several lines is gathered until it
    // parses, and a JSON array of games is read whole. The gathered text is parsed when
    // its brackets close, and after 1, 2, 4, 8... lines (to find a broken game early), so
    // reading is linear in the input; a game's text is at most MAX_JSON_GAME bytes.
    let mut pending = String::new();
    let mut pending_line = 0usize;
    let mut pending_lines = 0usize;
    let mut depth = JsonDepth::default();
    // Inside a broken game (too long, or a defect found before its end): its lines are
    // skipped.
    let mut skipping = false;
    let report = |index: u64, line: usize, message: String| {
        eprintln!("agon: {name}:{line}: game {index}: {message}");
    };
    let too_long = format!("a JSON game is at most {} MiB", MAX_JSON_GAME >> 20);
    let mut bytes = Vec::new();
    let mut number = 0usize;
    while let Some(read) = read_json_line(&mut *reader, &mut bytes)
        .map_err(|e| CliError::io(&format!("cannot read {name}"), e))?
    {
        number += 1;
        if let Err(length) = read {
            index += 1;
            report(
                index,
                number,
                format!("{too_long}; this line has {length} bytes"),
            );
            code = EXIT_PROBLEMS;
            pending.clear();
            skipping = false;
            continue;
        }
        let line = std::str::from_utf8(&bytes).map_err(|_| {
            CliError::new(format!(
                "cannot read {name}: line {number} is not valid UTF-8 text"
            ))
        })?;
        if skipping {
            // The rest of a broken game ends where its brackets close, or where a line
            // starts a new object at its first column (the next game of NDJSON).
            if line.starts_with('{') {
                skipping = false;
            } else {
                depth.scan(line);
                skipping = !depth.closed();
                continue;
            }
        }
        if pending.is_empty() {
            if line.trim().is_empty() {
                continue;
            }
            pending_line = number;
            pending_lines = 0;
            depth = JsonDepth::default();
        }
        depth.scan(line);
        pending.push_str(line);
        pending.push('\n');
        pending_lines += 1;
        if pending.len() > MAX_JSON_GAME {
            index += 1;
            report(index, pending_line, too_long.clone());
            code = EXIT_PROBLEMS;
            pending.clear();
            skipping = !depth.closed();
            continue;
        }
        if !depth.closed() && !pending_lines.is_power_of_two() {
            continue;
        }
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
                // The location is already in front of the message, as a line of the file.
                let (line, reason) = match JsonRecordError::from(error) {
                    JsonRecordError::Json { reason, line, .. } => (line, reason),
                    other => (0, other.to_string()),
                };
                report(index, pending_line + line.saturating_sub(1), reason);
                code = EXIT_PROBLEMS;
                pending.clear();
                skipping = !depth.closed();
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
