//! `agon split`: a corpus cut into files, every N games or one file per value of a tag.
//!
//! Each output file is written through agon-files' atomic writer on a thread of its own,
//! fed the games as they come (so nothing waits for the whole corpus in memory); a file
//! appears, complete, only when its last game is written, and a failed run leaves the
//! files it had not finished as they were.

use crate::corpus::{each_game, CorpusArgs, GameFn};
use crate::error::{describe_io, CliError, CliResult};
use crate::output::Out;
use clap::Args;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Examples shown after `agon split --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon split --every 1000 big.agn -d parts        parts/part-0001.agn, part-0002.agn, ...
  agon split --by-tag Variant records/ -d by-variant
  agon split --by-tag White --prefix white games.agn
  cat *.agn | agon split --every 50 -d batches
Every game goes, in input order and canonical form, to one file in the folder (-d,
created if needed; files of the same names are replaced). --every N starts a new file
after N games: PREFIX-0001.agn, ... --by-tag NAME writes one file per value of the tag,
named after the value (letters, digits, `-`, `_` and `.` kept, other characters as `_`;
PREFIX-none.agn for games without the tag); at most 512 values. Each line of stdout names
a file written and its number of games. Invalid games are reported on stderr and left out
(exit 1).";

/// Most files `--by-tag` keeps open at once.
pub const MAX_TAG_FILES: usize = 512;

/// Options of `agon split`.
#[derive(Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub input: CorpusArgs,

    /// Start a new file every N games.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "by_tag",
        conflicts_with = "by_tag"
    )]
    pub every: Option<u64>,

    /// One file per value of this tag (engine tags too: Variant, Result, Termination).
    #[arg(long, value_name = "NAME")]
    pub by_tag: Option<String>,

    /// The folder of the files.
    #[arg(short = 'd', long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// The start of the file names (default: `part` with --every, the tag's name with
    /// --by-tag).
    #[arg(long, value_name = "TEXT")]
    pub prefix: Option<String>,
}

/// An output file being written on its own thread.
struct PartFile {
    path: PathBuf,
    games: u64,
    /// Game texts; an empty one asks the writer to give up (the target stays untouched).
    sender: SyncSender<String>,
    writer: JoinHandle<io::Result<()>>,
}

impl PartFile {
    fn create(path: PathBuf) -> PartFile {
        let (sender, receiver) = sync_channel::<String>(64);
        let target = path.clone();
        let writer = std::thread::spawn(move || {
            agon_files::write_file_with(&target, |out| {
                let mut first = true;
                for text in receiver {
                    if text.is_empty() {
                        return Err(io::Error::other("abandoned"));
                    }
                    if !first {
                        out.write_all(b"\n")?;
                    }
                    first = false;
                    out.write_all(text.as_bytes())?;
                }
                Ok(())
            })
        });
        PartFile {
            path,
            games: 0,
            sender,
            writer,
        }
    }

    fn write(&mut self, text: String) -> Result<(), CliError> {
        self.games += 1;
        if self.sender.send(text).is_err() {
            // The writer stopped: its error is reported by `finish`.
            return Err(self.fail());
        }
        Ok(())
    }

    /// Waits for the file to be complete and in place.
    fn finish(self) -> Result<(PathBuf, u64), CliError> {
        drop(self.sender);
        match self.writer.join() {
            Ok(Ok(())) => Ok((self.path, self.games)),
            Ok(Err(e)) => Err(write_error(&self.path, &e)),
            Err(_) => Err(CliError::new(format!(
                "cannot write {}: the writer thread failed",
                self.path.display()
            ))),
        }
    }

    fn fail(&self) -> CliError {
        CliError::new(format!("cannot write {}", self.path.display()))
    }

    /// Gives up the file: the target is left as it was.
    fn abandon(self) {
        let _ = self.sender.send(String::new());
        drop(self.sender);
        let _ = self.writer.join();
    }
}

fn write_error(path: &Path, error: &io::Error) -> CliError {
    CliError::new(format!(
        "cannot write {}: {}",
        path.display(),
        describe_io(error)
    ))
}

/// A file name made of a tag's value.
fn file_stem(value: &str) -> String {
    let stem: String = value
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // No hidden files, no `.`/`..`, and short enough for any file system.
    let stem = stem.trim_start_matches('.');
    let stem: String = stem.chars().take(100).collect();
    if stem.is_empty() {
        "_".to_string()
    } else {
        stem
    }
}

/// Where the games go.
struct Parts<'a> {
    args: &'a SplitArgs,
    prefix: String,
    /// `--every`: the file being filled and how many were started.
    current: Option<PartFile>,
    started: u64,
    /// `--by-tag`: the file of each value (by stem), and the stems taken.
    by_value: HashMap<Option<String>, PartFile>,
    stems: HashMap<String, u32>,
    /// Files complete, in the order they were closed or opened.
    done: Vec<(PathBuf, u64)>,
    order: Vec<Option<String>>,
}

impl Parts<'_> {
    fn add(&mut self, value: Option<String>, text: String) -> Result<(), CliError> {
        if let Some(every) = self.args.every {
            if self.current.as_ref().is_some_and(|f| f.games >= every) {
                let full = self.current.take().map(PartFile::finish).transpose()?;
                self.done.extend(full);
            }
            if self.current.is_none() {
                self.started += 1;
                let name = format!("{}-{:04}.agn", self.prefix, self.started);
                self.current = Some(PartFile::create(self.args.dir.join(name)));
            }
            return match &mut self.current {
                Some(file) => file.write(text),
                None => Ok(()),
            };
        }
        if !self.by_value.contains_key(&value) {
            if self.by_value.len() >= MAX_TAG_FILES {
                return Err(CliError::with_hint(
                    format!(
                        "the tag {} has more than {MAX_TAG_FILES} values",
                        self.args.by_tag.as_deref().unwrap_or_default()
                    ),
                    "split by a tag with fewer values, or filter first (agon filter --tag)",
                ));
            }
            let mut stem = match &value {
                Some(value) => file_stem(value),
                None => format!("{}-none", self.prefix),
            };
            // Two values with the same stem get -2, -3, ...
            let taken = self.stems.entry(stem.clone()).or_insert(0);
            *taken += 1;
            if *taken > 1 {
                stem = format!("{stem}-{taken}");
            }
            let path = self.args.dir.join(format!("{stem}.agn"));
            self.by_value.insert(value.clone(), PartFile::create(path));
            self.order.push(value.clone());
        }
        match self.by_value.get_mut(&value) {
            Some(file) => file.write(text),
            None => Ok(()),
        }
    }

    fn finish(mut self) -> Result<Vec<(PathBuf, u64)>, CliError> {
        let mut error = None;
        let mut files: Vec<PartFile> = self.current.take().into_iter().collect();
        for value in &self.order {
            files.extend(self.by_value.remove(value));
        }
        for file in files {
            match file.finish() {
                Ok(done) => self.done.push(done),
                Err(e) => error = error.or(Some(e)),
            }
        }
        match error {
            Some(error) => Err(error),
            None => Ok(self.done),
        }
    }

    fn abandon(mut self) {
        if let Some(file) = self.current.take() {
            file.abandon();
        }
        for (_, file) in self.by_value.drain() {
            file.abandon();
        }
    }
}

/// Runs `agon split`.
pub fn run(args: &SplitArgs) -> CliResult {
    if args.every == Some(0) {
        return Err(CliError::new("--every takes a number of games from 1"));
    }
    std::fs::create_dir_all(&args.dir).map_err(|e| {
        CliError::new(format!(
            "cannot create the folder {}: {}",
            args.dir.display(),
            describe_io(&e)
        ))
    })?;
    let tag = args.by_tag.clone();
    let prefix = args
        .prefix
        .clone()
        .or_else(|| tag.as_deref().map(file_stem))
        .unwrap_or_else(|| "part".to_string());
    let map: GameFn<(Option<String>, String)> = Arc::new(move |valid| {
        let value = tag.as_deref().and_then(|name| valid.record.tag(name));
        (value, valid.record.to_string())
    });
    let mut parts = Parts {
        args,
        prefix: file_stem(&prefix),
        current: None,
        started: 0,
        by_value: HashMap::new(),
        stems: HashMap::new(),
        done: Vec::new(),
        order: Vec::new(),
    };
    let tally = match each_game(&args.input, map, |(value, text)| parts.add(value, text)) {
        Ok(tally) => tally,
        Err(error) => {
            parts.abandon();
            return Err(error);
        }
    };
    let done = parts.finish()?;
    let mut out = Out::new();
    for (path, games) in &done {
        writeln!(out, "{}\t{games}", path.display())?;
    }
    out.flush()?;
    Ok(tally.exit_code())
}
