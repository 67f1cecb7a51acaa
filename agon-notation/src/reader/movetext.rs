//! The movetext tokenizer, split by token class as pgn-reader splits its reader: one
//! function per class reads its token from a window of at most [`MAX_TOKEN`] + 1 bytes
//! (which keeps the reader linear) and says what it is and how long; one function then
//! steps over it and hands it to the visitor, or reports it. The classes: move numbers and
//! results, NAGs, move suffixes, actions, variations, and what is none of these. The
//! commonest tokens, well-formed actions and move numbers, are read in one loop
//! ([`Reader::movetext_token`]) that also steps over the blanks between them.

use super::{is_word, word_len, GameState, Reader, MAX_TOKEN};
use crate::action_token::{fast_parse_prefix, fast_step, AnnotatedAction};
use crate::annotation::{Nag, Suffix, MAX_VARIATION_DEPTH};
use crate::error::ErrorKind;
use crate::visitor::{Dots, Location, Visitor};
use agon_core::{Bitboard, GameResult};
use std::io::{self, Read};

/// One movetext token, as its class function read it from the window.
enum Token {
    MoveNumber(u64, Dots),
    Result(GameResult),
    Nag(Nag),
    Suffix(Suffix),
    Action(AnnotatedAction),
    OpenVariation,
    CloseVariation,
    /// A word that is not read because the game is being skipped.
    Skipped,
    /// A malformed token: the defect to report.
    Defect(ErrorKind, String),
    /// A token longer than [`MAX_TOKEN`] bytes (its length is not known yet).
    TooLong,
}

/// What the first byte of a token says it may be, for the fast loop of
/// [`Reader::movetext_token`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Plain {
    /// A letter: a well-formed action, perhaps.
    Letter,
    /// A digit: a move number, perhaps.
    Digit,
    /// Anything else.
    Neither,
}

impl Plain {
    /// The class of a token's first byte (one lookup).
    #[inline(always)]
    fn of(first: u8) -> Plain {
        PLAIN[usize::from(first)]
    }
}

/// [`Plain::of`] of every byte.
static PLAIN: [Plain; 256] = {
    let mut table = [Plain::Neither; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() {
            table[b] = Plain::Letter;
        } else if c.is_ascii_digit() {
            table[b] = Plain::Digit;
        }
        b += 1;
    }
    table
};

/// How many bytes of `window`, from `from`, satisfy `class`: the scan every token class
/// shares.
#[inline]
fn run(window: &[u8], from: usize, class: impl Fn(u8) -> bool) -> usize {
    let rest = window.get(from..).unwrap_or_default();
    rest.iter().position(|&b| !class(b)).unwrap_or(rest.len())
}

/// A move number (`12.`, `12...`) or a result that starts with a digit (`1-0`, `0-1`,
/// `1/2-1/2`).
fn number_or_result(window: &[u8]) -> (Token, usize) {
    match plain_move_number(window) {
        Some((number, dots, len)) => (Token::MoveNumber(number, dots), len),
        None => number_or_result_general(window),
    }
}

/// The fast path of [`number_or_result`]: a move number of at most 18 digits (no
/// overflow) with its `.` or `...` and no further dot, read in one pass (one token in
/// three is a move number), with its length; `None` for every other token.
#[inline(always)]
fn plain_move_number(window: &[u8]) -> Option<(u64, Dots, usize)> {
    // The bytes it may look at (18 digits and 4 dots), with their bounds known when the
    // window holds them all.
    match window.first_chunk::<22>() {
        Some(head) => plain_move_number_in(head),
        None => plain_move_number_in(window),
    }
}

/// [`plain_move_number`] of the bytes at hand.
#[inline(always)]
fn plain_move_number_in(window: &[u8]) -> Option<(u64, Dots, usize)> {
    let mut number = 0u64;
    let mut digits = 0;
    while let Some(&b) = window.get(digits) {
        if !b.is_ascii_digit() || digits == 18 {
            break;
        }
        number = 10 * number + u64::from(b - b'0');
        digits += 1;
    }
    let dot = |i: usize| window.get(i) == Some(&b'.');
    if dot(digits) && !dot(digits + 1) && digits < MAX_TOKEN {
        return Some((number, Dots::One, digits + 1));
    }
    if dot(digits)
        && dot(digits + 1)
        && dot(digits + 2)
        && !dot(digits + 3)
        && digits + 3 <= MAX_TOKEN
    {
        return Some((number, Dots::Three, digits + 3));
    }
    None
}

/// [`number_or_result`] for every token its fast path leaves: results, long numbers, other
/// runs of dots.
#[inline(never)]
fn number_or_result_general(window: &[u8]) -> (Token, usize) {
    let digits = run(window, 0, |b| b.is_ascii_digit());
    if window.get(digits) != Some(&b'.') {
        return result(window);
    }
    let len = digits + run(window, digits, |b| b == b'.');
    if len > MAX_TOKEN {
        return (Token::TooLong, 0);
    }
    let number = window[..digits].iter().try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    });
    let Some(number) = number else {
        // The text is copied only for the message (move numbers are frequent).
        let written = String::from_utf8_lossy(&window[..len]);
        let message = format!("`{written}` is too large for a move number");
        return (Token::Defect(ErrorKind::MoveNumber, message), len);
    };
    let dots = match len - digits {
        1 => Dots::One,
        3 => Dots::Three,
        n => {
            let message =
                format!("a move number is followed by `.` (White) or `...` (Black), not {n} dots");
            return (Token::Defect(ErrorKind::Syntax, message), len);
        }
    };
    (Token::MoveNumber(number, dots), len)
}

/// A result written with digits, or a word that starts with a digit and is none.
fn result(window: &[u8]) -> (Token, usize) {
    let len = word_len(window);
    if len > MAX_TOKEN {
        return (Token::TooLong, 0);
    }
    let token = match &window[..len] {
        b"1-0" => Token::Result(GameResult::WhiteWins),
        b"0-1" => Token::Result(GameResult::BlackWins),
        b"1/2-1/2" => Token::Result(GameResult::Draw),
        text => Token::Defect(
            ErrorKind::Syntax,
            format!(
                "`{}` is neither a move number (`12.`, `12...`) nor a result (1-0, 0-1, \
                 1/2-1/2, *)",
                String::from_utf8_lossy(text)
            ),
        ),
    };
    (token, len)
}

/// A NAG: `$` and digits.
fn nag(window: &[u8]) -> (Token, usize) {
    let len = 1 + run(window, 1, |b| b.is_ascii_digit());
    if len == 1 {
        let message = "`$` starts a NAG like `$1`; expected digits".to_string();
        return (Token::Defect(ErrorKind::Syntax, message), 1);
    }
    if len > MAX_TOKEN {
        return (Token::TooLong, 0);
    }
    let written = std::str::from_utf8(&window[..len]).unwrap_or_default();
    let token = match written.parse::<Nag>() {
        Ok(nag) => Token::Nag(nag),
        Err(e) => Token::Defect(ErrorKind::Syntax, format!("`{written}` is not a NAG: {e}")),
    };
    (token, len)
}

/// A move suffix: `!`, `?`, `!!`, `??`, `!?`, `?!`.
fn suffix(window: &[u8]) -> (Token, usize) {
    let len = run(window, 0, |b| b == b'!' || b == b'?');
    match Suffix::from_token(&window[..len]) {
        Some(suffix) => (Token::Suffix(suffix), len),
        None => {
            let message = "a move suffix is one of !, ?, !!, ??, !?, ?!".to_string();
            (
                Token::Defect(ErrorKind::Syntax, message),
                len.min(MAX_TOKEN),
            )
        }
    }
}

/// A well-formed action with its capture annotations, and its length; `None` for any
/// other word ([`other_word`] reads those).
#[inline(always)]
fn action(window: &[u8]) -> Option<(AnnotatedAction, usize)> {
    // A well-formed action, read in one pass (inlined into the reader's loop, which hands
    // it to the visitor without building a token); first the commonest, a plain step.
    if let Some(bytes) = window.first_chunk::<8>() {
        if let Some((action, used)) = fast_step(bytes) {
            if !is_word(bytes[used]) {
                let plain = AnnotatedAction {
                    action,
                    marked: Bitboard::EMPTY,
                    annotated: false,
                    repeated: None,
                };
                return Some((plain, used));
            }
        }
    }
    fast_parse_prefix(window)
        .filter(|&(_, used)| used <= MAX_TOKEN && !window.get(used).is_some_and(|&b| is_word(b)))
}

/// A word that starts with a letter and is not a well-formed [`action`]: an action the
/// general parser reads, or its defect (out of line).
#[inline(never)]
fn other_word(window: &[u8], skipping: bool) -> (Token, usize) {
    let len = word_len(window);
    if len > MAX_TOKEN {
        return (Token::TooLong, 0);
    }
    if skipping {
        return (Token::Skipped, len);
    }
    let token = match AnnotatedAction::parse_bytes(&window[..len]) {
        Ok(action) => Token::Action(action),
        Err(e) => Token::Defect(e.kind(), e.to_string()),
    };
    (token, len)
}

impl<R: Read> Reader<R> {
    /// One movetext token, and the run of well-formed actions and move numbers after it.
    /// Returns true if the last was the result token (the game is over).
    ///
    /// The common tokens, a well-formed action and a move number with its dot, go
    /// straight to the visitor (what [`Reader::visit`] does with `Token::Action` and
    /// `Token::MoveNumber`), and so do those that follow them after spaces and line ends:
    /// the read loop would only step over those blanks and come back here.
    pub(super) fn movetext_token<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        first: u8,
    ) -> io::Result<bool> {
        let mut class = Plain::of(first);
        loop {
            self.fill(MAX_TOKEN + 1)?;
            let at = self.location();
            let window = self.window();
            match class {
                Plain::Letter => {
                    let Some((action, used)) = action(window) else {
                        return self.other_token(state, visitor, at);
                    };
                    self.pos += used;
                    if !state.skipping {
                        state.apply(visitor.action(action, at));
                    }
                }
                Plain::Digit => {
                    let Some((number, dots, used)) = plain_move_number(window) else {
                        return self.other_token(state, visitor, at);
                    };
                    self.pos += used;
                    if !state.skipping {
                        state.apply(visitor.move_number(number, dots, at));
                    }
                }
                Plain::Neither => return self.other_token(state, visitor, at),
            }
            match self.blanks_then_plain_token() {
                Plain::Neither => return Ok(false),
                next => class = next,
            }
        }
    }

    /// Steps over the spaces and line ends after a token, as the read loop does, and says
    /// whether an action or a move number may follow (a letter or a digit, in the bytes
    /// held); anything else ([`Plain::Neither`]) goes back to the read loop.
    #[inline(always)]
    fn blanks_then_plain_token(&mut self) -> Plain {
        // The place is kept in a local, stored at line ends and at the end.
        let mut pos = self.pos;
        let mut class = Plain::Neither;
        while let Some(&b) = self.buf[..self.end].get(pos) {
            match b {
                b' ' => pos += 1,
                b'\n' => {
                    self.pos = pos;
                    self.newline();
                    pos = self.pos;
                }
                _ => {
                    class = Plain::of(b);
                    break;
                }
            }
        }
        self.pos = pos;
        class
    }

    /// A movetext token other than a well-formed action or move number (out of the fast
    /// loop of [`Reader::movetext_token`]). Returns true for the result token.
    #[inline(never)]
    fn other_token<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let window = self.window();
        let (token, len) = match window[0] {
            b'0'..=b'9' => number_or_result(window),
            b'*' => (Token::Result(GameResult::Unfinished), 1),
            b'$' => nag(window),
            b'!' | b'?' => suffix(window),
            first if first.is_ascii_alphabetic() => other_word(window, state.skipping),
            b'(' => (Token::OpenVariation, 1),
            b')' => (Token::CloseVariation, 1),
            _ => {
                self.stray_character(state, visitor, at)?;
                return Ok(false);
            }
        };
        if let Token::TooLong = token {
            self.too_long(state, visitor, at)?;
            return Ok(false);
        }
        self.pos += len;
        if matches!(token, Token::MoveNumber(..))
            && self.pos < self.end
            && self.buf[self.pos] == b' '
        {
            // The blank after a move number, stepped over here rather than by the caller.
            self.pos += 1;
        }
        Ok(self.visit(token, state, visitor, at))
    }

    /// Hands a token the reader has stepped over to the visitor (unless the game is being
    /// skipped), or reports its defect. Returns true for the result token.
    fn visit<V: Visitor>(
        &mut self,
        token: Token,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> bool {
        let flow = match token {
            Token::Result(result) => {
                self.close_before_result(state, visitor);
                if !state.skipping {
                    visitor.result(result, at);
                }
                return true;
            }
            Token::Defect(kind, message) => {
                self.error(state, visitor, at, kind, message);
                return false;
            }
            Token::Skipped | Token::TooLong => return false,
            _ if state.skipping => return false,
            Token::MoveNumber(number, dots) => visitor.move_number(number, dots, at),
            Token::Nag(nag) => visitor.nag(nag, at),
            Token::Suffix(suffix) => visitor.suffix(suffix, at),
            Token::Action(action) => visitor.action(action, at),
            Token::OpenVariation => {
                if state.variations.len() == MAX_VARIATION_DEPTH {
                    let message = format!(
                        "variations nest at most {MAX_VARIATION_DEPTH} deep; this `(` opens \
                         one more"
                    );
                    self.error(state, visitor, at, ErrorKind::Syntax, message);
                    return false;
                }
                state.variations.push(at);
                visitor.begin_variation(at)
            }
            Token::CloseVariation => {
                if state.variations.pop().is_none() {
                    let message = "`)` closes no variation: no `(` is open".to_string();
                    self.error(state, visitor, at, ErrorKind::Syntax, message);
                    return false;
                }
                visitor.end_variation(at)
            }
        };
        state.apply(flow);
        false
    }

    /// A character no token starts with (one beyond ASCII, outside a comment or tag
    /// value, or any other): reported, and stepped over.
    fn stray_character<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<()> {
        let found = self.describe_next()?;
        let message = if self.buf[self.pos].is_ascii() {
            self.pos += 1;
            format!(
                "unexpected {found}: expected an action, a move number, a comment, a NAG or a \
                 result"
            )
        } else if self.utf8_char(state, visitor)? {
            format!("unexpected {found}: outside comments and tag values a record is ASCII")
        } else {
            // Not UTF-8: utf8_char reported it.
            return Ok(());
        };
        self.error(state, visitor, at, ErrorKind::Syntax, message);
        Ok(())
    }

    /// The bytes a token may span: at most [`MAX_TOKEN`] + 1 from the current one.
    fn window(&self) -> &[u8] {
        &self.buf[self.pos..self.end.min(self.pos + MAX_TOKEN + 1)]
    }

    /// At a result token: a variation still open is an error (at its `(`).
    fn close_before_result<V: Visitor>(&mut self, state: &mut GameState, visitor: &mut V) {
        if let Some(&open) = state.variations.last() {
            state.variations.clear();
            let message =
                "the variation opened here is not closed with `)` before the result".to_string();
            self.error(state, visitor, open, ErrorKind::Syntax, message);
        }
    }

    /// A token longer than [`MAX_TOKEN`]: reported at its start, then stepped over.
    fn too_long<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<()> {
        let message = format!("a token longer than {MAX_TOKEN} characters");
        self.error(state, visitor, at, ErrorKind::Syntax, message);
        while let Some(b) = self.peek()? {
            if is_word(b) || b == b'.' || b == b'!' || b == b'?' || b == b'$' {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visitor::Flow;

    fn describe((token, len): (Token, usize)) -> String {
        match token {
            Token::MoveNumber(number, dots) => format!("number {number} {dots:?} {len}"),
            Token::Result(result) => format!("result {result} {len}"),
            Token::Defect(kind, message) => format!("defect {kind:?} {message} {len}"),
            Token::TooLong => "too long".to_string(),
            _ => format!("other {len}"),
        }
    }

    /// Logs the tokens of the fast loop (and comments) with their places.
    #[derive(Default)]
    struct Places(Vec<(String, Location)>);

    impl Visitor for Places {
        fn move_number(&mut self, number: u64, dots: Dots, at: Location) -> Flow {
            let dots = if dots == Dots::One { "." } else { "..." };
            self.0.push((format!("{number}{dots}"), at));
            Flow::Continue
        }
        fn action(&mut self, action: AnnotatedAction, at: Location) -> Flow {
            let token = crate::format_annotated(action.action, action.marked);
            self.0.push((token, at));
            Flow::Continue
        }
        fn comment(&mut self, text: &str, at: Location) -> Flow {
            self.0.push((format!("{{{text}}}"), at));
            Flow::Continue
        }
    }

    /// A random token the fast loop reads (a move number, a plain or annotated step, a
    /// relocation, a placement, a pass, of every cell-name length) or a comment with a
    /// character of two bytes, which moves the columns of the rest of its line.
    fn random_token(rng: &mut agon_core::Rng, cells: &[String]) -> String {
        let cell = |rng: &mut agon_core::Rng| cells[rng.below(cells.len())].clone();
        match rng.below(9) {
            0 | 1 => format!("{}.", 1 + rng.below(300)),
            2 => format!("{}...", 1 + rng.below(300)),
            3 => format!("{}@{}", cell(rng), cell(rng)),
            4 => format!("Q@{}", cell(rng)),
            5 => "pass".to_string(),
            6 => format!("{{\u{e9}{}}}", rng.below(10)),
            7 => format!("{}-{}x{}", cell(rng), cell(rng), cell(rng)),
            _ => format!("{}-{}", cell(rng), cell(rng)),
        }
    }

    /// The fast loop of `movetext_token` (which steps over spaces and line ends itself)
    /// reports every token at the place the text gives it, and reads the same tokens as
    /// the read loop: random tokens with random blanks between them (spaces, tabs, line
    /// ends, CRLF), the places counted here independently, in characters.
    #[test]
    fn the_fast_loop_reports_every_token_at_its_place() {
        let cells: Vec<String> = agon_core::Cell::all().map(|c| c.to_string()).collect();
        let blanks = [" ", " ", " ", "  ", "\n", "\r\n", "\t", " \n ", "\n\n"];
        let mut rng = agon_core::Rng::new(7);
        for _ in 0..200 {
            let mut text = String::from("[Event \"e\"]\n\n");
            let mut expected = Vec::new();
            for _ in 0..1 + rng.below(80) {
                let line = 1 + text.matches('\n').count() as u64;
                let line_start = text.rfind('\n').map_or(0, |i| i + 1);
                let column = 1 + text[line_start..].chars().count() as u64;
                let offset = text.len() as u64;
                let token = random_token(&mut rng, &cells);
                expected.push((
                    token.clone(),
                    Location {
                        line,
                        column,
                        offset,
                    },
                ));
                text.push_str(&token);
                text.push_str(blanks[rng.below(blanks.len())]);
            }
            text.push('*');
            let mut reader = Reader::new(text.as_bytes());
            let mut places = Places::default();
            assert!(reader.read_game(&mut places).unwrap());
            assert_eq!(places.0, expected, "{text:?}");
        }
    }

    /// The plain-step fast path reads every token as the general fast parser does: steps
    /// between every pair of cells (legal or not), with every kind of byte after them,
    /// annotations, relocations, and names that are not cells.
    #[test]
    fn plain_steps_read_fast_as_in_general() {
        let general = |window: &[u8]| {
            fast_parse_prefix(window).filter(|&(_, used)| {
                used <= MAX_TOKEN && !window.get(used).is_some_and(|&b| is_word(b))
            })
        };
        let mut names: Vec<String> = agon_core::Cell::all().map(|c| c.to_string()).collect();
        names.extend(["j5", "a0", "a12", "m1", "A1", "f", "p"].map(String::from));
        let mut checked = 0;
        for from in &names {
            for to in &names {
                for separator in ["-", "@", "x", ""] {
                    for after in [
                        "", " ", "\n", ")", "xa5", "xa5xb5", "5", "a", "-", "!", " 12.",
                    ] {
                        let text = format!("{from}{separator}{to}{after}");
                        let bytes = text.as_bytes();
                        let window = &bytes[..bytes.len().min(MAX_TOKEN + 1)];
                        let describe = |parsed: Option<(AnnotatedAction, usize)>| {
                            parsed.map(|(a, used)| (format!("{a:?}"), used))
                        };
                        assert_eq!(
                            describe(action(window)),
                            describe(general(window)),
                            "{text:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// The fast path of move numbers reads every token that starts with a digit as the
    /// general reader does: numbers of every length up to past the token limit, every run
    /// of dots, results, and windows cut where the reader cuts them.
    #[test]
    fn move_numbers_read_fast_as_in_general() {
        let mut texts = Vec::new();
        for digits in [1, 2, 3, 17, 18, 19, 20, 21, 60, 61, 62, 63, 64, 65, 70] {
            for number in ["1", "9", "0"] {
                let written = number.repeat(digits);
                for dots in 0..6 {
                    for after in ["", " ", "a5-b5", ".", "x", "\n"] {
                        texts.push(format!("{written}{}{after}", ".".repeat(dots)));
                    }
                }
            }
        }
        for text in [
            "1-0",
            "0-1",
            "1/2-1/2",
            "1-0 ",
            "12-",
            "1/2",
            "3x",
            "12 ",
            "18446744073709551616.",
        ] {
            texts.push(text.to_string());
        }
        for text in &texts {
            let bytes = text.as_bytes();
            let window = &bytes[..bytes.len().min(MAX_TOKEN + 1)];
            assert_eq!(
                describe(number_or_result(window)),
                describe(number_or_result_general(window)),
                "{text:?}"
            );
        }
    }
}
