//! The streaming record tokenizer: syntax only, in the manner of pgn-reader.
//!
//! [`Reader`] reads any [`std::io::Read`] in a fixed 64 KiB buffer, one game at a time, and
//! drives a [`Visitor`] with tags, move numbers, actions (with their capture annotations),
//! move suffixes, NAGs, comments, variations and the result. It knows the notation only, not the rules: whether an action is
//! legal, and whether its annotations match, is the visitor's business (see
//! [`crate::Records`] for the validating one).
//!
//! Guarantees: no panic on any input; time linear in the input; memory bounded by the
//! buffer, the longest tag value ([`crate::MAX_TAG_VALUE`]) and what the visitor keeps.
//! A game is at most [`MAX_GAME_BYTES`] long (from its first tag or token): the reader
//! sees a longer one as if the input ended there, reports it (a syntax error at that
//! place, unless an earlier defect was reported), and skips the rest of it up to the next
//! line that starts with `[`, so a visitor never keeps more than one bounded game.
//! CRLF, a UTF-8 byte-order mark, blank lines and `%` escape lines are accepted. After a
//! syntax error the reader skips to the end of the game (its result token, the next tag
//! section, or the end of the input) and carries on with the next game.
//!
//! A caller that needs the bytes of the games too (to hand whole games to other threads,
//! as the CLI's parallel validator does) asks the reader to keep them: after
//! [`Reader::retain_from`] the buffer keeps every byte read from that offset on, up to a
//! limit, [`Reader::retained`] lends them by offset (the offsets of [`Location`]),
//! [`Reader::release`] lets go of those before an offset, and [`Reader::into_rest`] hands
//! back the input from an offset on when the limit is reached. The input is read once,
//! into the one buffer, and no byte is copied for it.

use crate::error::ErrorKind;
use crate::record::MAX_TAG_VALUE;
pub use crate::visitor::{Dots, Flow, Location, SyntaxError, Visitor};
use std::io::{self, Read};
use std::ops::Range;

mod movetext;

/// The longest token (action, move number, NAG) the reader accepts, in bytes.
pub const MAX_TOKEN: usize = 64;

/// The longest comment text passed to [`Visitor::comment`], in bytes; the rest of a longer
/// comment is read and dropped (the reader keeps constant memory).
pub const MAX_COMMENT: usize = 8192;
/// The longest game the reader accepts, in bytes from its first tag or token to its end
/// (4 MiB: a game of many thousand plies with long comments is far shorter).
pub const MAX_GAME_BYTES: u64 = 4 << 20;

const BUFFER: usize = 64 * 1024;

/// The streaming tokenizer. See the module documentation.
pub struct Reader<R> {
    input: R,
    /// The bytes read and still held: [`BUFFER`] bytes, more while retained bytes need it.
    buf: Vec<u8>,
    pos: usize,
    /// End of the bytes the reader may look at: `filled`, or less at the current game's
    /// size limit.
    end: usize,
    /// End of the bytes read into `buf`.
    filled: usize,
    /// Absolute offset where the current game reaches [`MAX_GAME_BYTES`] (`u64::MAX`
    /// between games).
    limit: u64,
    eof: bool,
    /// Absolute offset of `buf[0]` in the input.
    base: u64,
    line: u64,
    /// Absolute offset where the current line starts.
    line_start: u64,
    /// UTF-8 continuation bytes passed on the current line (bytes that are not columns).
    continuation: u64,
    bom_checked: bool,
    /// The bytes kept for the caller ([`Reader::retain_from`]), if any.
    retention: Option<Retention>,
    /// Scratch buffers for tag names and values, and comment text.
    name: Vec<u8>,
    value: Vec<u8>,
    comment: Vec<u8>,
}

/// Which bytes the reader keeps for its caller.
struct Retention {
    /// Absolute offset of the first byte kept (at least the reader's `base`).
    from: u64,
    /// The most bytes kept.
    limit: u64,
    /// The limit was reached: the reader read no further and saw the end of the input.
    full: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Tags,
    Moves,
}

/// The state of the game being read.
struct GameState {
    begun: bool,
    skipping: bool,
    section: Section,
    /// Where each open variation's `(` stands, outermost first (at most
    /// [`MAX_VARIATION_DEPTH`]).
    variations: Vec<Location>,
}

impl GameState {
    fn apply(&mut self, flow: Flow) {
        if flow == Flow::Skip {
            self.skipping = true;
        }
    }
}

#[inline]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

#[inline]
fn is_word(b: u8) -> bool {
    WORD[b as usize]
}

/// Bytes that continue a token (an unknown token is read whole, so that its error names
/// all of it): letters, digits and `@ - / + # = _ :`.
const WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'@' | b'-' | b'/' | b'+' | b'#' | b'=' | b'_' | b':');
        b += 1;
    }
    table
};

/// The length of the token at the start of `window` (at most the window).
#[inline]
fn word_len(window: &[u8]) -> usize {
    window
        .iter()
        .position(|&b| !is_word(b))
        .unwrap_or(window.len())
}

/// The length of the UTF-8 sequence a lead byte starts (0 for a byte that cannot start one).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 0,
    }
}

impl<R: Read> Reader<R> {
    /// A reader over any byte source (a `BufRead` works too; the reader has its own buffer).
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            buf: vec![0; BUFFER],
            pos: 0,
            end: 0,
            filled: 0,
            limit: u64::MAX,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            continuation: 0,
            bom_checked: false,
            retention: None,
            name: Vec::new(),
            value: Vec::new(),
            comment: Vec::new(),
        }
    }

    /// The place of the next unread byte.
    #[inline]
    pub fn location(&self) -> Location {
        let offset = self.base + self.pos as u64;
        // The line starts at or before the byte, and the continuation bytes passed on it
        // are fewer than the bytes before the byte: the column is at least 1.
        debug_assert!(self.line_start + self.continuation <= offset);
        Location {
            line: self.line,
            column: offset + 1 - self.line_start - self.continuation,
            offset,
        }
    }

    /// How many bytes the reader has taken from its input: the offset just past the last
    /// byte it holds.
    pub fn bytes_read(&self) -> u64 {
        self.base + self.filled as u64
    }

    /// Whether the input has ended: the reader holds every byte it will see (not so when
    /// it stopped at the retention limit, see [`Reader::retention_full`]).
    pub fn input_ended(&self) -> bool {
        self.eof && !self.retention_full()
    }

    /// Keeps every byte of the input from `offset` on (a byte offset as in [`Location`]),
    /// at most `limit` bytes, for [`Reader::retained`] and [`Reader::into_rest`]; replaces
    /// an earlier retention. The bytes from the next unread one on
    /// ([`Reader::location`]) are always still there; earlier ones may have been dropped,
    /// and then retention starts at the first byte still held. Once `limit` bytes are kept
    /// the reader reads no further and sees the end of the input there (see
    /// [`Reader::retention_full`]); [`Reader::release`] keeps that from happening as long
    /// as the caller lets go of what it no longer needs.
    ///
    /// ```
    /// use agon_notation::{Location, Reader, Visitor};
    /// /// Notes where each game starts.
    /// struct Starts(Vec<u64>);
    /// impl Visitor for Starts {
    ///     fn begin_game(&mut self, at: Location) {
    ///         self.0.push(at.offset);
    ///     }
    /// }
    /// let text = "1. h9-g9 *\n\n[Event \"two\"]\n1. h9-g9 b7-c7 *\n";
    /// let mut reader = Reader::new(text.as_bytes());
    /// reader.retain_from(0, 1 << 20);
    /// let mut starts = Starts(Vec::new());
    /// while reader.read_game(&mut starts).unwrap() {}
    /// let second = starts.0[1];
    /// let game = reader.retained(second..reader.bytes_read()).unwrap();
    /// assert_eq!(game, b"[Event \"two\"]\n1. h9-g9 b7-c7 *\n");
    /// reader.release(second);
    /// assert!(reader.retained(0..second).is_none());
    /// ```
    pub fn retain_from(&mut self, offset: u64, limit: usize) {
        self.retention = Some(Retention {
            from: offset.max(self.base),
            limit: limit as u64,
            full: false,
        });
    }

    /// Lets go of the retained bytes before `offset` (the reader may reuse their room).
    pub fn release(&mut self, offset: u64) {
        if let Some(retention) = &mut self.retention {
            retention.from = retention.from.max(offset);
        }
    }

    /// The input bytes at the offsets `range`, when they are retained and have been read
    /// ([`Reader::retain_from`], [`Reader::bytes_read`]); `None` otherwise.
    pub fn retained(&self, range: Range<u64>) -> Option<&[u8]> {
        let retention = self.retention.as_ref()?;
        if range.start < retention.from || range.end > self.bytes_read() {
            return None;
        }
        let start = usize::try_from(range.start - self.base).ok()?;
        let end = usize::try_from(range.end - self.base).ok()?;
        self.buf.get(start..end)
    }

    /// Whether the reader stopped at the retention limit: it read no further, and saw the
    /// end of the input there. The caller takes the rest back with [`Reader::into_rest`].
    pub fn retention_full(&self) -> bool {
        self.retention.as_ref().is_some_and(|r| r.full)
    }

    /// The input from the retained `offset` on: the bytes held, then what the reader has
    /// not read yet (without copying the bytes held). `None` if `offset` is not retained.
    pub fn into_rest(self, offset: u64) -> Option<io::Chain<io::Cursor<Vec<u8>>, R>> {
        let retention = self.retention.as_ref()?;
        if offset < retention.from || offset > self.bytes_read() {
            return None;
        }
        let mut held = self.buf;
        held.truncate(self.filled);
        let mut cursor = io::Cursor::new(held);
        cursor.set_position(offset - self.base);
        Some(cursor.chain(self.input))
    }

    /// Makes at least `want` bytes available after `pos` unless the input (or the game's
    /// size limit) ends first. At the limit, one byte past it is read if there is one, so
    /// that [`Reader::over_limit`] can tell.
    #[inline]
    fn fill(&mut self, want: usize) -> io::Result<()> {
        // `end` is always `visible_end()` outside `refill`: most calls find enough bytes.
        if self.end - self.pos >= want {
            return Ok(());
        }
        self.refill(want)
    }

    /// [`Reader::fill`] when the bytes in view are too few: reads until they are enough.
    #[inline(never)]
    fn refill(&mut self, want: usize) -> io::Result<()> {
        loop {
            self.end = self.visible_end();
            if self.end - self.pos >= want || self.eof {
                return Ok(());
            }
            if self.base + self.end as u64 >= self.limit && self.filled > self.end {
                return Ok(());
            }
            // Reads stop at the retention limit: never more than `limit` bytes are kept.
            let mut allowed = usize::MAX;
            if let Some(retention) = &mut self.retention {
                let kept = (self.base + self.filled as u64).saturating_sub(retention.from);
                if kept >= retention.limit {
                    retention.full = true;
                    self.eof = true;
                    continue;
                }
                allowed = usize::try_from(retention.limit - kept).unwrap_or(usize::MAX);
            }
            self.make_room();
            let room = self.buf.len().min(self.filled.saturating_add(allowed));
            match self.input.read(&mut self.buf[self.filled..room]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Drops the bytes no longer needed from the front of the buffer, and grows it if it is
    /// still full, so that a read has room. Without retention only the few bytes not yet
    /// looked at are moved. Retained bytes are moved only when at least as many are dropped
    /// (or the buffer is full), and the buffer doubles up to the retention limit: each byte
    /// is moved a bounded number of times, and the buffer is never larger than the limit
    /// (or [`BUFFER`]). Called with fewer bytes retained than the limit.
    fn make_room(&mut self) {
        let (keep_from, most) = match &self.retention {
            None => (self.pos, usize::MAX),
            Some(retention) => (
                usize::try_from(retention.from - self.base)
                    .map_or(self.pos, |retained| retained.min(self.pos)),
                usize::try_from(retention.limit).unwrap_or(usize::MAX),
            ),
        };
        let kept = self.filled - keep_from;
        let full = self.filled == self.buf.len();
        if keep_from > 0 && (self.retention.is_none() || kept <= keep_from || full) {
            self.buf.copy_within(keep_from..self.filled, 0);
            self.base += keep_from as u64;
            self.filled -= keep_from;
            self.end -= keep_from;
            self.pos -= keep_from;
        }
        if self.filled == self.buf.len() {
            // Only retained bytes fill the buffer, and they are fewer than the limit.
            let len = self.buf.len();
            self.buf.resize((2 * len).min(most).max(len + 1), 0);
        }
    }

    /// The end of what may be looked at: the bytes read, cut at the game's size limit.
    fn visible_end(&self) -> usize {
        let room = self.limit.saturating_sub(self.base);
        self.filled.min(usize::try_from(room).unwrap_or(usize::MAX))
    }

    /// Sets the game's size limit (`u64::MAX`: none).
    fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
        self.end = self.visible_end();
    }

    /// Whether the current game goes on past [`MAX_GAME_BYTES`] and the reader has come to
    /// that limit (within the bytes of one character: what it cannot read whole there).
    fn over_limit(&self) -> bool {
        self.base + self.end as u64 == self.limit
            && self.filled > self.end
            && self.end - self.pos < 4
    }

    /// After a game found too long: skips to the next line that starts with `[` (the next
    /// game's tags) or the end of the input, in constant memory.
    fn skip_long_game(&mut self) -> io::Result<()> {
        self.set_limit(u64::MAX);
        loop {
            match self.buf[self.pos..self.end]
                .iter()
                .position(|&b| b == b'\n')
            {
                Some(at) => {
                    self.pos += at;
                    self.newline();
                    if self.peek()? == Some(b'[') {
                        return Ok(());
                    }
                }
                None => {
                    self.pos = self.end;
                    if self.peek()?.is_none() {
                        return Ok(());
                    }
                }
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.end {
            self.fill(1)?;
            if self.pos == self.end {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.pos]))
    }

    #[inline]
    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.base + self.pos as u64;
        self.continuation = 0;
    }

    fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    fn check_bom(&mut self) -> io::Result<()> {
        if !self.bom_checked {
            self.bom_checked = true;
            self.fill(3)?;
            if self.buf[self.pos..self.end].starts_with(b"\xef\xbb\xbf") {
                self.pos += 3;
                self.line_start = 3;
            }
        }
        Ok(())
    }

    /// Reads one game and reports it to `visitor`. Returns `Ok(false)` when the input holds
    /// no further game (only blank lines and comments remain). An `Err` is a read error of
    /// the underlying input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<bool> {
        self.check_bom()?;
        self.set_limit(u64::MAX);
        let mut state = GameState {
            begun: false,
            skipping: false,
            section: Section::Tags,
            variations: Vec::new(),
        };
        while let Some(b) = self.peek()? {
            if b == b' ' {
                self.pos += 1;
                continue;
            }
            match b {
                b'\n' => self.newline(),
                _ if is_blank(b) => self.pos += 1,
                b'[' => {
                    if state.section == Section::Moves {
                        break;
                    }
                    self.begin(&mut state, visitor);
                    self.tag(&mut state, visitor)?;
                }
                b'{' => self.brace_comment(&mut state, visitor)?,
                b';' => {
                    let at = self.location();
                    self.pos += 1;
                    self.comment.clear();
                    self.rest_of_line(&mut state, visitor, true)?;
                    if state.begun && !state.skipping {
                        state.apply(visitor.comment(self.comment_text(), at));
                    }
                }
                b'%' if self.at_line_start() => self.rest_of_line(&mut state, visitor, false)?,
                _ => {
                    self.begin(&mut state, visitor);
                    if state.section == Section::Tags {
                        state.section = Section::Moves;
                        if !state.skipping {
                            let at = self.location();
                            state.apply(visitor.begin_movetext(at));
                        }
                    }
                    if self.movetext_token(&mut state, visitor, b)? {
                        let at = self.location();
                        visitor.end_game(at);
                        return Ok(true);
                    }
                }
            }
        }
        if state.begun && self.over_limit() {
            let at = self.location();
            self.error(&mut state, visitor, at, ErrorKind::Syntax, String::new());
            self.skip_long_game()?;
        }
        if let Some(&open) = state.variations.last() {
            let message =
                "the variation opened here is not closed with `)` before the game ends".to_string();
            self.error(&mut state, visitor, open, ErrorKind::Syntax, message);
        }
        if state.begun {
            let at = self.location();
            visitor.end_game(at);
        }
        Ok(state.begun)
    }

    fn begin<V: Visitor>(&mut self, state: &mut GameState, visitor: &mut V) {
        if !state.begun {
            state.begun = true;
            visitor.begin_game(self.location());
            self.set_limit(self.base + self.pos as u64 + MAX_GAME_BYTES);
        }
    }

    fn error<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
        kind: ErrorKind,
        message: String,
    ) {
        self.begin(state, visitor);
        if !state.skipping {
            state.skipping = true;
            // A defect found at the size limit is the size: the game goes on past it.
            let error = if self.over_limit() {
                SyntaxError {
                    at: self.location(),
                    kind: ErrorKind::Syntax,
                    message: format!(
                        "the game is longer than {} MiB; a game is at most {MAX_GAME_BYTES} \
                         bytes from its first tag or token (the rest of it is skipped)",
                        MAX_GAME_BYTES >> 20
                    ),
                }
            } else {
                SyntaxError { at, kind, message }
            };
            visitor.syntax_error(error);
        }
    }

    /// Validates one non-ASCII character at `pos` and steps over it. Returns false (and has
    /// reported an error and stepped over one byte) if the bytes are not UTF-8.
    fn utf8_char<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
    ) -> io::Result<bool> {
        self.fill(4)?;
        let available = &self.buf[self.pos..self.end];
        let len = utf8_len(available[0]);
        let valid =
            len > 0 && available.len() >= len && std::str::from_utf8(&available[..len]).is_ok();
        if valid {
            self.pos += len;
            self.continuation += len as u64 - 1;
            Ok(true)
        } else {
            let at = self.location();
            let message = format!(
                "byte 0x{:02X} is not valid UTF-8 (records are UTF-8 text)",
                available[0]
            );
            self.pos += 1;
            self.error(state, visitor, at, ErrorKind::Encoding, message);
            Ok(false)
        }
    }

    /// Skips to the end of the line (not consuming the newline), checking UTF-8; with
    /// `keep`, the text goes to the comment buffer.
    fn rest_of_line<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        keep: bool,
    ) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            match b {
                b'\n' => break,
                _ if keep => self.comment_char(state, visitor)?,
                0x80.. => {
                    self.utf8_char(state, visitor)?;
                }
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    /// Steps over one character of a comment (checking UTF-8) and keeps it in the comment
    /// buffer while that holds less than [`MAX_COMMENT`] bytes; carriage returns are
    /// dropped.
    fn comment_char<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
    ) -> io::Result<()> {
        // Reading may move the buffer: remember the absolute offset.
        let start = self.base + self.pos as u64;
        if self.buf[self.pos] < 0x80 {
            self.pos += 1;
        } else if !self.utf8_char(state, visitor)? {
            return Ok(());
        }
        let from = (start - self.base) as usize;
        let bytes = &self.buf[from..self.pos];
        if bytes != b"\r" && self.comment.len() + bytes.len() <= MAX_COMMENT {
            self.comment.extend_from_slice(bytes);
        }
        Ok(())
    }

    /// The comment buffer as text (it holds whole, checked characters only).
    fn comment_text(&self) -> &str {
        std::str::from_utf8(&self.comment).unwrap_or_default()
    }

    /// A `{...}` comment. A comment may not contain a line that starts with `[`: such a
    /// line ends it as unclosed, so that one missing `}` cannot swallow the games after it.
    fn brace_comment<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
    ) -> io::Result<()> {
        let at = self.location();
        self.pos += 1;
        self.comment.clear();
        loop {
            let Some(b) = self.peek()? else {
                let message =
                    "the comment opened here is not closed with `}` before the end of the input"
                        .to_string();
                self.error(state, visitor, at, ErrorKind::Syntax, message);
                return Ok(());
            };
            match b {
                b'}' => {
                    self.pos += 1;
                    break;
                }
                b'\n' => {
                    self.newline();
                    if self.comment.len() < MAX_COMMENT {
                        self.comment.push(b'\n');
                    }
                    if self.peek()? == Some(b'[') {
                        // The `[` starts the next game, even if this one had no movetext.
                        state.section = Section::Moves;
                        // The distance, not the line number: the message stays true for
                        // any part of a file read on its own.
                        let below = self.line - at.line;
                        let message = format!(
                            "the comment opened here is not closed with `}}` before the tag {below} \
                             line{} below",
                            if below == 1 { "" } else { "s" }
                        );
                        self.error(state, visitor, at, ErrorKind::Syntax, message);
                        return Ok(());
                    }
                }
                _ => self.comment_char(state, visitor)?,
            }
        }
        if state.begun && !state.skipping {
            state.apply(visitor.comment(self.comment_text(), at));
        }
        Ok(())
    }

    fn skip_blanks_on_line(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if is_blank(b) {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(())
    }

    /// A tag pair `[Name "value"]`.
    fn tag<V: Visitor>(&mut self, state: &mut GameState, visitor: &mut V) -> io::Result<()> {
        let at = self.location();
        self.pos += 1;
        self.skip_blanks_on_line()?;
        self.name.clear();
        while let Some(b) = self.peek()? {
            if b.is_ascii_alphanumeric() || b == b'_' {
                if self.name.len() == MAX_TOKEN {
                    let here = self.location();
                    let message = format!("a tag name is at most {MAX_TOKEN} characters");
                    return self.bad_tag(state, visitor, here, message);
                }
                self.name.push(b);
                self.pos += 1;
            } else {
                break;
            }
        }
        if self.name.is_empty() {
            let here = self.location();
            let found = self.describe_next()?;
            let message = format!(
                "expected a tag name (letters, digits, `_`) after `[`, found {found}; a tag is \
                 like [Event \"name\"]"
            );
            return self.bad_tag(state, visitor, here, message);
        }
        self.skip_blanks_on_line()?;
        if self.peek()? != Some(b'"') {
            let here = self.location();
            let found = self.describe_next()?;
            let name = String::from_utf8_lossy(&self.name).into_owned();
            let message =
                format!("expected a quoted value after the tag name `{name}`, found {found}");
            return self.bad_tag(state, visitor, here, message);
        }
        self.pos += 1;
        let value_at = self.location();
        self.value.clear();
        loop {
            let Some(b) = self.peek()? else {
                let here = self.location();
                let message =
                    "the tag value is not closed with `\"` before the end of the input".to_string();
                return self.bad_tag(state, visitor, here, message);
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\n' => {
                    let here = self.location();
                    let message = "the tag value is not closed with `\"` on its line".to_string();
                    return self.bad_tag(state, visitor, here, message);
                }
                b'\\' => {
                    self.pos += 1;
                    match self.peek()? {
                        Some(e @ (b'"' | b'\\')) => {
                            self.value.push(e);
                            self.pos += 1;
                        }
                        _ => self.value.push(b'\\'),
                    }
                }
                0x80.. => {
                    // Reading may move the buffer: remember the absolute offset.
                    let start = self.base + self.pos as u64;
                    if !self.utf8_char(state, visitor)? {
                        self.recover_line()?;
                        return Ok(());
                    }
                    let from = (start - self.base) as usize;
                    self.value.extend_from_slice(&self.buf[from..self.pos]);
                }
                b'\t' | b' '..=b'~' => {
                    self.value.push(b);
                    self.pos += 1;
                }
                other => {
                    let here = self.location();
                    let message = format!(
                        "control character 0x{other:02X} in a tag value; tag values are one line of text"
                    );
                    return self.bad_tag(state, visitor, here, message);
                }
            }
            if self.value.len() > MAX_TAG_VALUE {
                let message = format!("a tag value is at most {MAX_TAG_VALUE} bytes");
                return self.bad_tag(state, visitor, value_at, message);
            }
        }
        self.skip_blanks_on_line()?;
        if self.peek()? != Some(b']') {
            let here = self.location();
            let found = self.describe_next()?;
            let message = format!("expected `]` to close the tag, found {found}");
            return self.bad_tag(state, visitor, here, message);
        }
        self.pos += 1;
        if !state.skipping {
            // Both are valid UTF-8: names are ASCII, values were checked character by
            // character.
            let name = std::str::from_utf8(&self.name).unwrap_or_default();
            let value = std::str::from_utf8(&self.value).unwrap_or_default();
            let flow = visitor.tag(name, value, at, value_at);
            state.apply(flow);
        }
        Ok(())
    }

    fn bad_tag<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
        message: String,
    ) -> io::Result<()> {
        self.error(state, visitor, at, ErrorKind::Tag, message);
        self.recover_line()
    }

    /// Skips the rest of a line without reporting anything (after an error).
    fn recover_line(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if b == b'\n' {
                break;
            }
            if b >= 0x80 {
                self.fill(4)?;
                let available = &self.buf[self.pos..self.end];
                let len = utf8_len(available[0]);
                if len > 0
                    && available.len() >= len
                    && std::str::from_utf8(&available[..len]).is_ok()
                {
                    self.pos += len;
                    self.continuation += len as u64 - 1;
                    continue;
                }
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// Describes the next character for an error message, without consuming it.
    fn describe_next(&mut self) -> io::Result<String> {
        self.fill(4)?;
        let available = &self.buf[self.pos..self.end];
        Ok(match available.first() {
            None => "the end of the input".to_string(),
            Some(b'\n') => "the end of the line".to_string(),
            Some(b'\r') => "the end of the line".to_string(),
            Some(&b) => {
                let len = utf8_len(b);
                match std::str::from_utf8(&available[..len.clamp(1, available.len())]) {
                    Ok(s) if len > 0 => match s.chars().next() {
                        Some(c) if c.is_control() => format!("character 0x{b:02X}"),
                        Some(c) => format!("`{c}`"),
                        None => format!("byte 0x{b:02X}"),
                    },
                    _ => format!("byte 0x{b:02X} (not UTF-8)"),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action_token::AnnotatedAction;
    use crate::annotation::{Nag, Suffix};
    use agon_core::GameResult;

    #[derive(Default)]
    struct Log(Vec<String>);

    impl Visitor for Log {
        fn begin_game(&mut self, at: Location) {
            self.0.push(format!("begin {}:{}", at.line, at.column));
        }
        fn tag(&mut self, name: &str, value: &str, _: Location, v: Location) -> Flow {
            self.0
                .push(format!("tag {name}={value} @{}:{}", v.line, v.column));
            Flow::Continue
        }
        fn move_number(&mut self, number: u64, dots: Dots, _: Location) -> Flow {
            self.0.push(format!(
                "number {number}{}",
                if dots == Dots::One { "." } else { "..." }
            ));
            Flow::Continue
        }
        fn action(&mut self, action: AnnotatedAction, at: Location) -> Flow {
            let token = crate::format_annotated(action.action, action.marked);
            self.0
                .push(format!("action {token} @{}:{}", at.line, at.column));
            Flow::Continue
        }
        fn nag(&mut self, nag: Nag, _: Location) -> Flow {
            self.0.push(format!("nag {nag}"));
            Flow::Continue
        }
        fn suffix(&mut self, suffix: Suffix, _: Location) -> Flow {
            self.0.push(format!("suffix {suffix}"));
            Flow::Continue
        }
        fn begin_variation(&mut self, at: Location) -> Flow {
            self.0.push(format!("( @{}:{}", at.line, at.column));
            Flow::Continue
        }
        fn end_variation(&mut self, at: Location) -> Flow {
            self.0.push(format!(") @{}:{}", at.line, at.column));
            Flow::Continue
        }
        fn result(&mut self, result: GameResult, _: Location) -> Flow {
            self.0.push(format!("result {result}"));
            Flow::Continue
        }
        fn syntax_error(&mut self, e: SyntaxError) {
            self.0.push(format!(
                "error {} @{}:{} {}",
                e.kind, e.at.line, e.at.column, e.message
            ));
        }
        fn end_game(&mut self, at: Location) {
            self.0.push(format!("end {}:{}", at.line, at.column));
        }
    }

    fn log(input: &[u8]) -> Vec<String> {
        let mut reader = Reader::new(input);
        let mut log = Log::default();
        while reader.read_game(&mut log).unwrap() {}
        log.0
    }

    #[test]
    fn tokens_of_a_game() {
        let text = b"\xef\xbb\xbf[Event \"a \\\"b\\\" \\\\\"]\r\n\r\n1. b1-c1! {c\xc3\xa9} d1-c2 $3 ; x\n2... pass 1/2-1/2";
        assert_eq!(
            log(text),
            [
                "begin 1:1",
                "tag Event=a \"b\" \\ @1:9",
                "number 1.",
                "action b1-c1 @3:4",
                "suffix !",
                "action d1-c2 @3:16",
                "nag $3",
                "number 2...",
                "action pass @4:6",
                "result 1/2-1/2",
                "end 4:18",
            ]
        );
    }

    #[test]
    fn locations_carry_byte_offsets() {
        /// The offsets of game starts and actions.
        struct Offsets(Vec<u64>);
        impl Visitor for Offsets {
            fn begin_game(&mut self, at: Location) {
                self.0.push(at.offset);
            }
            fn action(&mut self, _: AnnotatedAction, at: Location) -> Flow {
                self.0.push(at.offset);
                Flow::Continue
            }
        }
        let text = "\u{feff}{é} 1. h9-g9 *\n[Event \"Café\"]\n1. b7-c7 *";
        let mut reader = Reader::new(OneByte(text.as_bytes()));
        let mut offsets = Offsets(Vec::new());
        while reader.read_game(&mut offsets).unwrap() {}
        let at = |token: &str| text.find(token).unwrap() as u64;
        assert_eq!(
            offsets.0,
            [at("1."), at("h9-g9"), at("[Event"), at("b7-c7")]
        );
        assert_eq!(&text[at("b7-c7") as usize..], "b7-c7 *");
    }

    #[test]
    fn a_tag_after_movetext_starts_the_next_game() {
        let lines = log(b"b1-c1\n[Event \"x\"]\n*\n");
        assert_eq!(
            lines,
            [
                "begin 1:1",
                "action b1-c1 @1:1",
                "end 2:1",
                "begin 2:1",
                "tag Event=x @2:9",
                "result *",
                "end 3:2",
            ]
        );
    }

    #[test]
    fn errors_skip_to_the_end_of_the_game() {
        let lines = log(b"1. b1-c1 # d1 ( 1-0\n\n\xff 2. x *\n{ok} ; trailing\n");
        assert_eq!(
            lines,
            [
                "begin 1:1",
                "number 1.",
                "action b1-c1 @1:4",
                "error syntax @1:10 unexpected `#`: expected an action, a move number, a comment, a NAG or a result",
                "end 1:20",
                "begin 3:1",
                "error encoding @3:1 byte 0xFF is not valid UTF-8 (records are UTF-8 text)",
                "end 3:9",
            ]
        );
    }

    #[test]
    fn an_unclosed_comment_stops_at_a_tag_line() {
        let lines = log(b"1. b1-c1 {oops\n[Event \"next\"]\n*");
        assert_eq!(
            lines,
            [
                "begin 1:1",
                "number 1.",
                "action b1-c1 @1:4",
                "error syntax @1:10 the comment opened here is not closed with `}` before the tag 1 line below",
                "end 2:1",
                "begin 2:1",
                "tag Event=next @2:9",
                "result *",
                "end 3:2",
            ]
        );
    }

    /// A source that hands out one byte per read, so every character crosses a refill.
    struct OneByte<'a>(&'a [u8]);

    impl Read for OneByte<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    /// Hands out its input in reads of sizes drawn from a seeded generator (1 to 3000
    /// bytes), so that games and characters straddle refills everywhere.
    struct Chunks<'a> {
        input: &'a [u8],
        sizes: agon_core::Rng,
    }

    impl Read for Chunks<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = (1 + self.sizes.below(3000))
                .min(out.len())
                .min(self.input.len());
            out[..n].copy_from_slice(&self.input[..n]);
            self.input = &self.input[n..];
            Ok(n)
        }
    }

    /// Where each game begins and ends.
    #[derive(Default)]
    struct Spans(Vec<(u64, u64)>);

    impl Visitor for Spans {
        fn begin_game(&mut self, at: Location) {
            self.0.push((at.offset, at.offset));
        }
        fn end_game(&mut self, at: Location) {
            if let Some(span) = self.0.last_mut() {
                span.1 = at.offset;
            }
        }
    }

    /// Games of every kind the reader meets (tags, comments across lines, multi-byte
    /// characters, CRLF, errors, `%` lines), after a byte-order mark: about 300 KB, so the
    /// retained bytes outgrow the 64 KiB buffer.
    fn varied_games() -> Vec<u8> {
        let mut text = "\u{feff}".to_string();
        for i in 0..2000 {
            match i % 5 {
                0 => text.push_str(&format!(
                    "[Event \"Café n°{i}\"]\r\n1. h9-g9 b7-c7 *\r\n\r\n"
                )),
                1 => text.push_str("{Ein Zug —\nzwei Zeilen} 1. h9-g9 $1 (1. h9-h8) 1-0\n\n"),
                2 => text.push_str("% escape\n1. h9-g9 # oops *\n\n"),
                3 => text.push_str(&format!("[Site \"{}\"]\n*\n", "é".repeat(i % 97))),
                _ => text.push_str("1. b1-c1 {unclosed\n[Round \"x\"]\n*\n"),
            }
        }
        text.into_bytes()
    }

    #[test]
    fn retained_bytes_are_the_input_at_the_reported_offsets() {
        let input = varied_games();
        let mut plain = Spans::default();
        let mut reader = Reader::new(&input[..]);
        while reader.read_game(&mut plain).unwrap() {}
        for seed in 0..8 {
            let mut reader = Reader::new(Chunks {
                input: &input,
                sizes: agon_core::Rng::new(seed),
            });
            // A batch's worth: whatever the reads, the kept bytes stay within the limit.
            let limit = 20_000;
            reader.retain_from(0, limit);
            let mut spans = Spans::default();
            while reader.read_game(&mut spans).unwrap() {
                let (begin, end) = *spans.0.last().unwrap();
                let game = reader.retained(begin..end).unwrap();
                assert_eq!(game, &input[begin as usize..end as usize], "seed {seed}");
                assert!(reader.bytes_read() - begin <= limit as u64);
                if begin > 0 {
                    // Kept since the last release (at the game before), then let go.
                    assert!(reader.retained(begin - 1..end).is_some());
                    reader.release(begin);
                    assert!(reader.retained(begin - 1..end).is_none());
                }
            }
            assert!(!reader.retention_full() && reader.input_ended());
            assert_eq!(spans.0, plain.0, "retaining changes nothing reported");
            assert!(reader.retained(0..1).is_none());
            let last = plain.0.last().unwrap().0;
            assert_eq!(
                reader.retained(last..input.len() as u64).unwrap(),
                &input[last as usize..]
            );
        }
    }

    #[test]
    fn everything_retained_is_kept_whole() {
        let input = varied_games();
        let mut reader = Reader::new(OneByte(&input));
        reader.retain_from(0, usize::MAX);
        assert_eq!(log(&input), {
            let mut log = Log::default();
            while reader.read_game(&mut log).unwrap() {}
            log.0
        });
        assert_eq!(reader.retained(0..input.len() as u64).unwrap(), &input[..]);
        assert!(reader.retained(0..input.len() as u64 + 1).is_none());
    }

    #[test]
    fn retention_stops_at_its_limit_and_hands_back_the_rest() {
        // A comment of 100 KB between two games: a caller that keeps the second game's
        // bytes from its start would keep the whole comment.
        let mut input = b"1. h9-g9 *\n\n1. b7-c7 {".to_vec();
        input.resize(100_000, b'x');
        input.extend_from_slice(b"} *\n\n[Event \"last\"]\n1. h9-g9 *\n");
        let second = 12;
        let mut reader = Reader::new(Chunks {
            input: &input,
            sizes: agon_core::Rng::new(7),
        });
        reader.retain_from(second, 30_000);
        let mut spans = Spans::default();
        assert!(reader.read_game(&mut spans).unwrap());
        assert!(!reader.retention_full());
        // The second game meets the limit inside its comment: the reader sees the input
        // end there, and the rest comes back from any retained offset.
        reader.read_game(&mut spans).unwrap();
        assert!(reader.retention_full() && !reader.input_ended());
        assert_eq!(reader.bytes_read(), second + 30_000);
        assert!(!reader.read_game(&mut spans).unwrap());
        let mut rest = Vec::new();
        reader
            .into_rest(second)
            .unwrap()
            .read_to_end(&mut rest)
            .unwrap();
        assert_eq!(rest, &input[second as usize..]);
        // Offsets before the retained ones cannot come back.
        let mut reader = Reader::new(&input[..]);
        reader.retain_from(second, 30_000);
        assert!(reader.into_rest(second - 1).is_none());
    }

    #[test]
    fn utf8_tag_values_survive_refills() {
        let input = "[Site \"Café Régence — Paris\"]\n*\n".as_bytes();
        let mut reader = Reader::new(OneByte(input));
        let mut log = Log::default();
        while reader.read_game(&mut log).unwrap() {}
        assert_eq!(log.0[1], "tag Site=Café Régence — Paris @1:8");
    }

    /// Records the text of every comment of every game.
    #[derive(Default)]
    struct Comments(Vec<String>);

    impl Visitor for Comments {
        fn comment(&mut self, text: &str, _: Location) -> Flow {
            self.0.push(text.to_string());
            Flow::Continue
        }
    }

    fn comments(input: impl Read) -> Vec<String> {
        let mut reader = Reader::new(input);
        let mut comments = Comments::default();
        while reader.read_game(&mut comments).unwrap() {}
        comments.0
    }

    #[test]
    fn comment_texts_reach_the_visitor_across_refills() {
        let input = "[Event \"x\"]\r\n{before}\r\n1. h9-g9 {Ein Zug — gut} ; to the end\r\n\
                     b7-c7 {two\r\nlines}$1 *\n{after the game}\n"
            .as_bytes();
        let expected = ["before", "Ein Zug — gut", " to the end", "two\nlines"];
        assert_eq!(comments(input), expected);
        assert_eq!(comments(OneByte(input)), expected);
    }

    #[test]
    fn long_comments_are_cut_at_a_character() {
        let text = format!("a{}", "é".repeat(MAX_COMMENT));
        let kept = comments(format!("1. h9-g9 {{{text}}} *\n").as_bytes());
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].len(), MAX_COMMENT - 1);
        assert!(text.starts_with(&kept[0]));
    }

    #[test]
    fn comments_alone_make_no_game() {
        assert!(log(b"  {a comment}\n; another\n%escape\n\n").is_empty());
    }

    /// A game of `size` bytes on one line: an action, a comment filling it, a result.
    fn game_of(size: u64) -> Vec<u8> {
        let (head, tail) = (&b"1. h9-g9 {"[..], &b"} *"[..]);
        let mut game = head.to_vec();
        game.resize(size as usize - tail.len(), b'x');
        game.extend_from_slice(tail);
        game
    }

    #[test]
    fn a_game_longer_than_the_limit_is_reported_and_skipped() {
        let mut input = game_of(MAX_GAME_BYTES + 10);
        input.extend_from_slice(b"\n\n[Event \"next\"]\n*\n");
        let expected = [
            "begin 1:1".to_string(),
            "number 1.".into(),
            "action h9-g9 @1:4".into(),
            format!(
                "error syntax @1:{} the game is longer than 4 MiB; a game is at most 4194304 \
                 bytes from its first tag or token (the rest of it is skipped)",
                MAX_GAME_BYTES + 1
            ),
            "end 3:1".into(),
            "begin 3:1".into(),
            "tag Event=next @3:9".into(),
            "result *".into(),
            "end 4:2".into(),
        ];
        assert_eq!(log(&input), expected);
        // The same whatever the reads: the limit does not depend on buffering.
        let mut reader = Reader::new(OneByte(&input));
        let mut one_byte = Log::default();
        while reader.read_game(&mut one_byte).unwrap() {}
        assert_eq!(one_byte.0, expected);
    }

    #[test]
    fn a_game_of_exactly_the_limit_is_read_whole() {
        for next in [&b""[..], b"\n[Event \"next\"]\n*\n"] {
            let mut input = game_of(MAX_GAME_BYTES);
            input.extend_from_slice(next);
            let lines = log(&input);
            assert_eq!(lines[3], "result *", "{:?}", &lines[..4]);
            assert!(lines.iter().all(|l| !l.starts_with("error")));
        }
    }

    #[test]
    fn a_move_number_beyond_u64_is_named_as_written() {
        let lines = log(b"1. h9-g9 99999999999999999999999. b7-c7 *");
        assert_eq!(
            lines[3],
            "error move-number @1:10 `99999999999999999999999.` is too large for a move number"
        );
    }

    #[test]
    fn long_tokens_and_tags_are_errors() {
        let mut input = b"1. ".to_vec();
        input.extend(vec![b'a'; 100_000]);
        input.extend_from_slice(b" *\n[Event \"");
        input.extend(vec![b'v'; MAX_TAG_VALUE + 10]);
        input.extend_from_slice(b"\"]\n*\n");
        let lines = log(&input);
        assert_eq!(
            lines[2],
            "error syntax @1:4 a token longer than 64 characters"
        );
        assert_eq!(lines[3], "end 1:100006");
        assert_eq!(lines[5], "error tag @2:9 a tag value is at most 8192 bytes");
        let error = SyntaxError {
            at: Location {
                line: 2,
                column: 9,
                offset: 100_017,
            },
            kind: ErrorKind::Tag,
            message: "a tag value is at most 8192 bytes".into(),
        };
        let as_error: &dyn std::error::Error = &error;
        assert_eq!(
            as_error.to_string(),
            "2:9: a tag value is at most 8192 bytes"
        );
        assert_eq!(lines.len(), 7);
    }
}
