//! The games of record files, validated in parallel and delivered in input order, in flat
//! memory.
//!
//! One reader thread tokenizes each input once (syntax only, with agon-notation's
//! [`Reader`]) to find where games start, and cuts the bytes the reader retains for it
//! into batches of whole games (at most [`BATCH_GAMES`] games or about [`BATCH_BYTES`]
//! bytes), at the byte offsets the reader reports. Each batch is validated
//! on the rayon pool by agon-notation's [`Records`], exactly as if the file were read in
//! one go: lines, columns and game numbers are shifted back to the file's own. The caller
//! receives the results batch by batch in input order; at most a fixed number of batches
//! are in flight, so memory does not grow with the input.
//!
//! Hostile inputs cannot make the reader thread hold more than [`RETAIN_LIMIT`] bytes: a
//! game longer than agon-notation's [`MAX_GAME_BYTES`] (reported there as too long and
//! skipped), or megabytes of comments between games, would otherwise be kept whole for a
//! batch. The reader stops at that limit ([`Reader::retention_full`]), and the rest of
//! that input, from the first byte not yet handed over, is validated as one stream on the
//! reader thread (in order, in constant memory, with the same results).

use crate::error::{describe_io, CliError};
use crate::files::{open_input, Input};
use agon_notation::{
    Flow, Location, Reader, RecordError, Records, ValidGame, Visitor, MAX_GAME_BYTES,
};
use std::collections::VecDeque;
use std::io::Read;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

/// Most games in one batch.
pub const BATCH_GAMES: usize = 512;
/// A batch is closed at the first game start after this many bytes.
pub const BATCH_BYTES: u64 = 1 << 20;
/// Bytes after a batch's last game that are handed to the validator too, so that it sees
/// what comes next exactly as a reader of the whole file would.
const LOOKAHEAD: u64 = 256;
/// The most input bytes the reader thread keeps for batches (a full batch and the longest
/// game fit); past it the rest of the input is validated as a stream.
pub const RETAIN_LIMIT: usize = (2 * MAX_GAME_BYTES + BATCH_BYTES) as usize;
/// Games per event chunk when an input is validated as a stream.
const STREAM_CHUNK: usize = 64;

/// One input: a file, or stdin.
pub struct Source {
    /// The path (`-` for stdin).
    pub path: PathBuf,
    /// The name used in messages and JSON (`<stdin>` for stdin).
    pub name: String,
    /// An input already opened (and perhaps peeked at); otherwise `path` is opened.
    pub opened: Option<Box<dyn Read + Send>>,
}

impl Source {
    /// A source for a path given on the command line.
    pub fn new(path: PathBuf) -> Source {
        let name = if crate::files::is_stdin(&path) {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        Source {
            path,
            name,
            opened: None,
        }
    }

    /// Opens the input, unless it is open already.
    fn open(&mut self) -> Result<Box<dyn Read + Send>, CliError> {
        if let Some(input) = self.opened.take() {
            return Ok(input);
        }
        Ok(match open_input(&self.path)? {
            Input::File(file) => Box::new(file),
            Input::Stdin(stdin) => Box::new(stdin),
        })
    }
}

/// The most worker threads a command takes (`--threads`): far more than any machine has
/// cores, and few enough to start at once.
pub const MAX_THREADS: usize = 1024;

/// The worker threads for `--threads`: as given (1 to [`MAX_THREADS`]), else one per CPU.
pub fn worker_threads(given: Option<usize>) -> Result<usize, CliError> {
    match given {
        Some(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        Some(n) => Err(CliError::new(format!(
            "--threads takes a number from 1 to {MAX_THREADS}, not {n}"
        ))),
        None => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS)),
    }
}

/// What the caller receives, in input order.
pub enum Event<T> {
    /// One game, mapped by the caller's function.
    Game(T),
    /// An input could not be opened or read; its games so far were delivered.
    InputError {
        /// What went wrong (naming the input).
        message: String,
    },
    /// Bytes of input that have been fully processed (for progress bars).
    Progress(u64),
}

/// The function applied to every game on the worker threads (with the input's name). It
/// borrows the game: the pipeline gives each valid game back to its reader, whose next
/// games reuse the buffers.
pub type MapFn<T> = Arc<dyn Fn(&str, Result<&ValidGame, &RecordError>) -> T + Send + Sync>;

/// The function of a [`MapFn`].
type MapRef<'a, T> = &'a dyn Fn(&str, Result<&ValidGame, &RecordError>) -> T;

/// Applies `map` to one item of `records`, then gives a valid game back to `records` for
/// its buffers ([`Records::recycle`]): one allocation of a long game's history for the
/// whole input instead of one per game.
fn map_and_recycle<R: Read, T>(
    records: &mut Records<R>,
    name: &str,
    item: Result<ValidGame, RecordError>,
    map: MapRef<'_, T>,
) -> T {
    let mapped = map(name, item.as_ref());
    if let Ok(valid) = item {
        records.recycle(valid);
    }
    mapped
}

/// Reads every source and calls `sink` with every event in input order. With `threads`
/// = 1 the games are read and validated on this thread, one at a time.
pub fn for_each_game<T: Send + 'static>(
    sources: Vec<Source>,
    threads: usize,
    batch_games: usize,
    map: MapFn<T>,
    mut sink: impl FnMut(Event<T>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    if threads <= 1 {
        return sequential(sources, map, sink);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::new(format!("cannot start {threads} threads: {e}")))?;
    let pool = Arc::new(pool);
    // Each message is a receiver for one batch's events, in input order.
    let (order_tx, order_rx) = sync_channel::<Receiver<Vec<Event<T>>>>(threads * 3);
    let reader = std::thread::spawn(move || {
        for mut source in sources {
            let emit = |events: Vec<Event<T>>| -> bool {
                let (tx, rx) = sync_channel(1);
                let ok = order_tx.send(rx).is_ok();
                let _ = tx.send(events);
                ok
            };
            let name = source_name(&source);
            let mut stream = |input: Box<dyn Read + Send>, first: Location, first_game: u64| {
                stream_games(input, &name, first, first_game, &*map, &emit)
            };
            let mut dispatch = |batch: Batch| -> bool {
                let (tx, rx) = sync_channel(1);
                if order_tx.send(rx).is_err() {
                    return false;
                }
                let map = Arc::clone(&map);
                pool.spawn(move || {
                    let _ = tx.send(batch.validate(&*map));
                });
                true
            };
            match split(&mut source, batch_games.max(1), &mut dispatch, &mut stream) {
                Ok(true) => {}
                Ok(false) => return,
                Err(message) => {
                    if !emit(vec![Event::InputError { message }]) {
                        return;
                    }
                }
            }
        }
    });
    let mut result = Ok(());
    for batch in order_rx.iter() {
        let Ok(events) = batch.recv() else { continue };
        for event in events {
            if let Err(e) = sink(event) {
                result = Err(e);
                break;
            }
        }
        if result.is_err() {
            break;
        }
    }
    // Dropping the receiver makes the reader thread stop at its next batch.
    drop(order_rx);
    let _ = reader.join();
    result
}

fn sequential<T>(
    sources: Vec<Source>,
    map: MapFn<T>,
    mut sink: impl FnMut(Event<T>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    for mut source in sources {
        let input = match source.open() {
            Ok(input) => input,
            Err(e) => {
                sink(Event::InputError {
                    message: error_text(e),
                })?;
                continue;
            }
        };
        let mut reported = 0;
        let mut records = Records::new(input).with_file_name(source.name.clone());
        while let Some(item) = records.next() {
            if let Err(e) = &item {
                if e.kind == agon_notation::ErrorKind::Io {
                    sink(Event::InputError {
                        message: format!("{}: {}", source.name, e.message),
                    })?;
                    break;
                }
            }
            sink(Event::Game(map_and_recycle(
                &mut records,
                &source.name,
                item,
                &*map,
            )))?;
            let now = records.bytes_read();
            sink(Event::Progress(now - reported))?;
            reported = now;
        }
    }
    Ok(())
}

/// The name of a source in messages.
fn source_name(source: &Source) -> Arc<str> {
    Arc::from(source.name.as_str())
}

/// Validates the games of `input` (which starts at `first`, with game `first_game` of the
/// file) one by one on this thread, emitting their events in chunks: the fallback of
/// [`split`] for inputs it cannot cut into batches in bounded memory. Returns false when
/// the consumer has stopped.
fn stream_games<T>(
    input: Box<dyn Read + Send>,
    name: &str,
    first: Location,
    first_game: u64,
    map: MapRef<'_, T>,
    emit: &dyn Fn(Vec<Event<T>>) -> bool,
) -> bool {
    let mut reported = 0;
    let mut chunk = Vec::with_capacity(STREAM_CHUNK + 1);
    let mut records = Records::new(input).with_file_name(name.to_string());
    while let Some(item) = records.next() {
        if let Err(e) = &item {
            if e.kind == agon_notation::ErrorKind::Io {
                chunk.push(Event::InputError {
                    message: format!("{name}: {}", e.message),
                });
                break;
            }
        }
        let item = shift(item, first, first_game);
        chunk.push(Event::Game(map_and_recycle(&mut records, name, item, map)));
        if chunk.len() >= STREAM_CHUNK {
            let now = records.bytes_read();
            chunk.push(Event::Progress(now - reported));
            reported = now;
            if !emit(std::mem::take(&mut chunk)) {
                return false;
            }
        }
    }
    chunk.push(Event::Progress(records.bytes_read() - reported));
    emit(chunk)
}

fn error_text(error: CliError) -> String {
    match error {
        CliError::Message { message, .. } => message,
        CliError::BrokenPipe => "broken pipe".into(),
    }
}

/// Whole games cut from an input, with where they start in it.
struct Batch {
    name: Arc<str>,
    bytes: Vec<u8>,
    /// Where the batch's first byte is in the input.
    first: Location,
    /// The input's index of the first game (1-based).
    first_game: u64,
    /// How many games start in the batch (lookahead bytes may start one more).
    games: usize,
    /// Input bytes this batch accounts for (without lookahead).
    span: u64,
}

impl Batch {
    fn validate<T>(self, map: MapRef<'_, T>) -> Vec<Event<T>> {
        let mut events = Vec::with_capacity(self.games + 1);
        let mut seen = 0;
        let mut records = Records::new(&self.bytes[..]).with_file_name(self.name.to_string());
        while seen < self.games {
            let Some(item) = records.next() else { break };
            seen += 1;
            let item = shift(item, self.first, self.first_game);
            events.push(Event::Game(map_and_recycle(
                &mut records,
                &self.name,
                item,
                map,
            )));
        }
        if seen < self.games {
            events.push(Event::InputError {
                message: format!(
                    "{}: internal error: games {} to {} (from line {}) could not be re-read in a batch; \
                     please report it, and use --threads 1 meanwhile",
                    self.name,
                    self.first_game,
                    self.first_game + self.games as u64 - 1,
                    self.first.line
                ),
            });
        }
        events.push(Event::Progress(self.span));
        events
    }
}

/// Moves the places of a game read from a part of a file that starts at `first`, with game
/// `first_game` of the file, to the file's own lines, columns and game numbers.
fn shift(
    item: Result<ValidGame, RecordError>,
    first: Location,
    first_game: u64,
) -> Result<ValidGame, RecordError> {
    match item {
        Ok(mut valid) => {
            valid.index += first_game - 1;
            valid.line += first.line - 1;
            Ok(valid)
        }
        Err(mut error) => {
            if error.line > 0 {
                if error.line == 1 {
                    error.column += first.column - 1;
                }
                error.line += first.line - 1;
            }
            error.game += first_game - 1;
            Err(error)
        }
    }
}

/// Notes where each game starts, and asks the reader to skip everything else: a skipped
/// game ends exactly where a reported one does (the reader's rule), but its action tokens
/// are not parsed, which makes this pass cheap.
#[derive(Default)]
struct Starts {
    start: Option<Location>,
}

impl Visitor for Starts {
    fn begin_game(&mut self, at: Location) {
        self.start = Some(at);
    }
    fn tag(&mut self, _: &str, _: &str, _: Location, _: Location) -> Flow {
        Flow::Skip
    }
    fn begin_movetext(&mut self, _: Location) -> Flow {
        Flow::Skip
    }
}

/// A batch being filled.
struct Open {
    start: u64,
    first: Location,
    first_game: u64,
    games: usize,
}

impl Open {
    /// The batch of this one's games, which end at `end`: the bytes from its start to
    /// [`LOOKAHEAD`] bytes past `end` (or the end of the input), copied from `reader`'s
    /// retained bytes. Bytes not retained make an empty batch, whose validation reports an
    /// internal error instead of its games.
    fn cut<R: Read>(&self, name: &Arc<str>, end: u64, reader: &Reader<R>) -> Batch {
        let to = (end + LOOKAHEAD).min(reader.bytes_read());
        Batch {
            name: Arc::clone(name),
            bytes: reader
                .retained(self.start..to)
                .map(<[u8]>::to_vec)
                .unwrap_or_default(),
            first: self.first,
            first_game: self.first_game,
            games: self.games,
            span: end - self.start,
        }
    }
}

/// Validates a stream: the input from a place with its first game (see [`stream_games`]).
type StreamFn<'a> = dyn FnMut(Box<dyn Read + Send>, Location, u64) -> bool + 'a;

/// Cuts one source into batches and hands each to `dispatch`; when that would keep more
/// than [`RETAIN_LIMIT`] bytes, hands the rest of the input to `stream` instead. Returns
/// `Ok(false)` when `dispatch` or `stream` asks to stop, `Err` with a message when the
/// input cannot be read.
fn split(
    source: &mut Source,
    batch_games: usize,
    dispatch: &mut dyn FnMut(Batch) -> bool,
    stream: &mut StreamFn<'_>,
) -> Result<bool, String> {
    let name: Arc<str> = Arc::from(source.name.as_str());
    // The reader keeps the bytes of the batches not yet handed over (and their lookahead).
    let mut reader = Reader::new(source.open().map_err(error_text)?);
    reader.retain_from(0, RETAIN_LIMIT);
    let mut open: Option<Open> = None;
    // Batches closed at a game start (where they end), waiting for their lookahead bytes.
    let mut pending: VecDeque<(Open, u64)> = VecDeque::new();
    let mut games = 0u64;
    loop {
        let mut starts = Starts::default();
        let more = reader
            .read_game(&mut starts)
            .map_err(|e| format!("cannot read {}: {}", source.name, describe_io(&e)))?;
        if reader.retention_full() {
            // Everything not yet handed over, from the first batch still held, streams:
            // the bytes kept, then the rest of the input.
            let (first, first_game, start) = match (pending.front(), &open) {
                (Some((batch, _)), _) => (batch.first, batch.first_game, batch.start),
                (None, Some(batch)) => (batch.first, batch.first_game, batch.start),
                (None, None) => (Location::START, 1, 0),
            };
            let Some(rest) = reader.into_rest(start) else {
                return Err(format!(
                    "{name}: internal error: the input from byte {start} was not kept; please \
                     report it, and use --threads 1 meanwhile"
                ));
            };
            return Ok(stream(Box::new(rest), first, first_game));
        }
        if !more {
            break;
        }
        games += 1;
        // The reader knows where the game starts in the input, byte-exact.
        let at = starts.start.unwrap_or(Location::START);
        let offset = at.offset;
        match &mut open {
            None => {
                open = Some(Open {
                    start: 0,
                    first: Location::START,
                    first_game: 1,
                    games: 1,
                })
            }
            Some(batch) if batch.games >= batch_games || offset - batch.start >= BATCH_BYTES => {
                let next = Open {
                    start: offset,
                    first: at,
                    first_game: games,
                    games: 1,
                };
                let closed = std::mem::replace(batch, next);
                pending.push_back((closed, offset));
            }
            Some(batch) => batch.games += 1,
        }
        // Hand over the closed batches whose lookahead has been read.
        while let Some((batch, end)) = pending.front() {
            if reader.bytes_read() < end + LOOKAHEAD && !reader.input_ended() {
                break;
            }
            let made = batch.cut(&name, *end, &reader);
            pending.pop_front();
            if !dispatch(made) {
                return Ok(false);
            }
        }
        let keep = pending
            .front()
            .map(|(b, _)| b.start)
            .or(open.as_ref().map(|b| b.start))
            .unwrap_or(0);
        reader.release(keep);
    }
    // The reader has read to the end of the input: the last batch holds every byte.
    let end = reader.bytes_read();
    let last = open.map(|batch| (batch, end));
    for (batch, batch_end) in pending.into_iter().chain(last) {
        if !dispatch(batch.cut(&name, batch_end, &reader)) {
            return Ok(false);
        }
    }
    Ok(true)
}
