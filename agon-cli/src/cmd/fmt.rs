//! `agon fmt`: rewrite game records in canonical form (tags in order, annotated captures,
//! move numbers, 80-column lines), to stdout or in place.

use crate::error::{describe_io, CliError, CliResult, EXIT_ERROR, EXIT_PROBLEMS};
use crate::files::{expand_inputs, is_stdin};
use crate::games::{for_each_game, Event, MapFn, Source};
use crate::output::Out;
use clap::Args;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Examples shown after `agon fmt --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon fmt game.agn                          print the canonical form
  agon fmt --in-place records/*.agn          rewrite files (atomically; untouched if invalid)
  agon fmt --check records/                  exit 1 if some file is not canonical (for CI)
  cat messy.agn | agon fmt > clean.agn
Canonical form: roster tags first, then Result, Variant, Position, Termination; every
capture annotated; move numbers; lines of at most 80 characters; one blank line between
games. Comments, NAGs, move suffixes and variations are kept. A file with an invalid game
is never rewritten; the game is reported (exit 1).";

/// Options of `agon fmt`.
#[derive(Args, Debug)]
pub struct FmtArgs {
    /// Record files or folders (their .agn files); stdin if none.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Rewrite each file in place (through a temporary file and a rename).
    #[arg(short, long, conflicts_with = "check")]
    pub in_place: bool,

    /// Write nothing; list the files that are not canonical and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,

    /// Worker threads (default: one per CPU).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Canonical text of a game, or the defect that prevents it.
type Canonical = Result<String, String>;

/// Writes the canonical form of one input to `out`. Returns the number of invalid games
/// and whether the input could be read.
fn format_into(path: &Path, threads: usize, out: &mut dyn Write) -> Result<(u64, bool), CliError> {
    let map: MapFn<Canonical> = Arc::new(|_, item| match item {
        Ok(valid) => Ok(valid.record.to_string()),
        Err(error) => Err(error.to_string()),
    });
    let mut invalid = 0;
    let mut readable = true;
    let mut first = true;
    for_each_game(
        vec![Source::new(path.to_path_buf())],
        threads,
        crate::games::BATCH_GAMES,
        map,
        |event| {
            match event {
                Event::Game(Ok(text)) => {
                    if !first {
                        out.write_all(b"\n")?;
                    }
                    first = false;
                    out.write_all(text.as_bytes())?;
                }
                Event::Game(Err(message)) => {
                    eprintln!("agon: {message}");
                    invalid += 1;
                }
                Event::InputError { message } => {
                    eprintln!("agon: {message}");
                    readable = false;
                }
                Event::Progress(_) => {}
            }
            Ok(())
        },
    )?;
    Ok((invalid, readable))
}

/// Runs `agon fmt`.
pub fn run(args: &FmtArgs) -> CliResult {
    let paths = expand_inputs(&args.files);
    let threads = crate::games::worker_threads(args.threads)?;
    if (args.in_place || args.check) && paths.iter().any(|p| is_stdin(p)) {
        return Err(CliError::with_hint(
            "--in-place and --check need files, not stdin",
            "name the files, or leave the option out to print to stdout",
        ));
    }
    let mut code = 0u8;
    if !args.in_place && !args.check {
        let mut out = Out::new();
        let mut first = true;
        for path in &paths {
            // Canonical games of several files are separated like games of one file.
            let mut buffer = Separated {
                inner: &mut out,
                pending: !first,
                written: false,
            };
            let (invalid, readable) = format_into(path, threads, &mut buffer)?;
            first &= !buffer.written;
            code = code.max(exit_code(invalid, readable));
        }
        out.flush()?;
        return Ok(code);
    }
    let mut out = Out::new();
    for path in &paths {
        let outcome = if args.check {
            check_one(path, threads)
        } else {
            rewrite_one(path, threads)
        };
        match outcome {
            Ok(FileOutcome::Unchanged) => {}
            Ok(FileOutcome::Changed) => {
                if args.check {
                    writeln!(out, "{}: not canonical", path.display())?;
                    out.flush()?;
                    code = code.max(EXIT_PROBLEMS);
                }
            }
            Ok(FileOutcome::Invalid(n)) => {
                eprintln!(
                    "agon: {} has {n} invalid game{}; left unchanged",
                    path.display(),
                    if n == 1 { "" } else { "s" }
                );
                code = code.max(EXIT_PROBLEMS);
            }
            Ok(FileOutcome::Unreadable) => code = EXIT_ERROR,
            Err(e) => {
                eprintln!("{e}");
                code = EXIT_ERROR;
            }
        }
    }
    Ok(code)
}

fn exit_code(invalid: u64, readable: bool) -> u8 {
    if !readable {
        EXIT_ERROR
    } else if invalid > 0 {
        EXIT_PROBLEMS
    } else {
        0
    }
}

enum FileOutcome {
    Unchanged,
    Changed,
    Invalid(u64),
    Unreadable,
}

/// Whether a file is already canonical: compares the canonical text with the file as it
/// is produced, without holding either in memory.
fn check_one(path: &Path, threads: usize) -> Result<FileOutcome, CliError> {
    let original = File::open(path).map_err(|e| {
        CliError::new(format!(
            "cannot open {}: {}",
            path.display(),
            describe_io(&e)
        ))
    })?;
    let mut compare = Compare {
        original: BufReader::new(original),
        equal: true,
    };
    let (invalid, readable) = format_into(path, threads, &mut compare)?;
    if !readable {
        return Ok(FileOutcome::Unreadable);
    }
    if invalid > 0 {
        return Ok(FileOutcome::Invalid(invalid));
    }
    let at_end = compare.at_end();
    Ok(if compare.equal && at_end {
        FileOutcome::Unchanged
    } else {
        FileOutcome::Changed
    })
}

/// Rewrites a file in canonical form, atomically, unless it is canonical already or has
/// an invalid game.
fn rewrite_one(path: &Path, threads: usize) -> Result<FileOutcome, CliError> {
    match check_one(path, threads)? {
        FileOutcome::Changed => {}
        other => return Ok(other),
    }
    let mut result = Ok(FileOutcome::Changed);
    agon_files::write_file_with(path, |out| {
        let (invalid, readable) =
            format_into(path, threads, out).map_err(|e| io::Error::other(format!("{e}")))?;
        if !readable || invalid > 0 {
            result = Ok(if readable {
                FileOutcome::Invalid(invalid)
            } else {
                FileOutcome::Unreadable
            });
            // Abandon the temporary file: the original stays as it was.
            return Err(io::Error::other("not rewritten"));
        }
        Ok(())
    })
    .or_else(|e| match result {
        Ok(FileOutcome::Changed) => Err(CliError::new(format!(
            "cannot rewrite {}: {}",
            path.display(),
            describe_io(&e)
        ))),
        _ => Ok(()),
    })?;
    result
}

/// A writer that compares what is written with a file's bytes.
struct Compare<R> {
    original: R,
    equal: bool,
}

impl<R: Read> Compare<R> {
    fn at_end(&mut self) -> bool {
        let mut byte = [0u8; 1];
        matches!(self.original.read(&mut byte), Ok(0))
    }
}

impl<R: Read> Write for Compare<R> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.equal {
            let mut theirs = vec![0u8; buf.len()];
            match self.original.read_exact(&mut theirs) {
                Ok(()) => self.equal = theirs == buf,
                Err(_) => self.equal = false,
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer that puts a blank line before its first write when `pending` (games of the
/// next file after those of the previous one).
struct Separated<'a, W: Write> {
    inner: &'a mut W,
    pending: bool,
    written: bool,
}

impl<W: Write> Write for Separated<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !buf.is_empty() {
            if self.pending {
                self.inner.write_all(b"\n")?;
                self.pending = false;
            }
            self.written = true;
        }
        self.inner.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
