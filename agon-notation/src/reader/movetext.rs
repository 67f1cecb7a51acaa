//! The movetext tokenizer, one function per token class (as pgn-reader splits its
//! reader): move numbers and results, NAGs, move suffixes, actions, variations, and what
//! is none of these. Every scan is bounded by a window of [`MAX_TOKEN`] + 1 bytes, which
//! keeps the reader linear.

use super::{is_word, word_len, GameState, Reader, MAX_TOKEN};
use crate::action_token::{fast_parse_prefix, AnnotatedAction};
use crate::annotation::{Nag, Suffix, MAX_VARIATION_DEPTH};
use crate::error::ErrorKind;
use crate::visitor::{Dots, Location, Visitor};
use agon_core::GameResult;
use std::io::{self, Read};

impl<R: Read> Reader<R> {
    /// One movetext token. Returns true if it was the result token (the game is over).
    pub(super) fn movetext_token<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
    ) -> io::Result<bool> {
        self.fill(MAX_TOKEN + 1)?;
        let at = self.location();
        let first = self.buf[self.pos];
        match first {
            b'0'..=b'9' => self.number_or_result(state, visitor, at),
            b'*' => self.unfinished(state, visitor, at),
            b'$' => self.nag(state, visitor, at),
            b'!' | b'?' => self.suffix(state, visitor, at),
            _ if first.is_ascii_alphabetic() => self.action(state, visitor, at),
            b'(' => self.open_variation(state, visitor, at),
            b')' => self.close_variation(state, visitor, at),
            0x80.. => self.non_ascii(state, visitor, at),
            _ => self.unexpected(state, visitor, at),
        }
    }

    /// A move number (`12.`, `12...`) or a result that starts with a digit (`1-0`, `0-1`,
    /// `1/2-1/2`).
    fn number_or_result<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let window = self.window();
        let digits = window
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(window.len());
        if window.get(digits) == Some(&b'.') {
            let dots = window[digits..]
                .iter()
                .position(|&b| b != b'.')
                .unwrap_or(window.len() - digits);
            let number = window[..digits].iter().try_fold(0u64, |n, &d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            });
            if digits + dots > MAX_TOKEN {
                return self.too_long(state, visitor, at);
            }
            let Some(number) = number else {
                // The text is copied only for the message (move numbers are frequent).
                let written = String::from_utf8_lossy(&window[..digits + dots]).into_owned();
                self.pos += digits + dots;
                let message = format!("`{written}` is too large for a move number");
                self.error(state, visitor, at, ErrorKind::MoveNumber, message);
                return Ok(false);
            };
            self.pos += digits + dots;
            let dots = match dots {
                1 => Dots::One,
                3 => Dots::Three,
                n => {
                    let message = format!(
                        "a move number is followed by `.` (White) or `...` (Black), \
                             not {n} dots"
                    );
                    self.error(state, visitor, at, ErrorKind::Syntax, message);
                    return Ok(false);
                }
            };
            if !state.skipping {
                state.apply(visitor.move_number(number, dots, at));
            }
            return Ok(false);
        }
        let word_len = word_len(window);
        if word_len > MAX_TOKEN {
            return self.too_long(state, visitor, at);
        }
        let result = match &window[..word_len] {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        };
        let text = result
            .is_none()
            .then(|| String::from_utf8_lossy(&window[..word_len]).into_owned());
        self.pos += word_len;
        match result {
            Some(result) => {
                self.close_before_result(state, visitor);
                if !state.skipping {
                    visitor.result(result, at);
                }
                Ok(true)
            }
            None => {
                let text = text.unwrap_or_default();
                let message = format!(
                    "`{text}` is neither a move number (`12.`, `12...`) nor a result \
                         (1-0, 0-1, 1/2-1/2, *)"
                );
                self.error(state, visitor, at, ErrorKind::Syntax, message);
                Ok(false)
            }
        }
    }

    /// The result `*`.
    fn unfinished<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        self.pos += 1;
        self.close_before_result(state, visitor);
        if !state.skipping {
            visitor.result(GameResult::Unfinished, at);
        }
        Ok(true)
    }

    /// A NAG: `$` and digits.
    fn nag<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let window = self.window();
        let digits = window[1..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(window.len() - 1);
        if digits == 0 {
            self.pos += 1;
            let message = "`$` starts a NAG like `$1`; expected digits".to_string();
            self.error(state, visitor, at, ErrorKind::Syntax, message);
            return Ok(false);
        }
        if digits + 1 > MAX_TOKEN {
            return self.too_long(state, visitor, at);
        }
        let len = digits + 1;
        let written = std::str::from_utf8(&window[..len]).unwrap_or_default();
        match written.parse::<Nag>() {
            Ok(nag) => {
                self.pos += len;
                if !state.skipping {
                    state.apply(visitor.nag(nag, at));
                }
            }
            Err(e) => {
                let message = format!("`{written}` is not a NAG: {e}");
                self.pos += len;
                self.error(state, visitor, at, ErrorKind::Syntax, message);
            }
        }
        Ok(false)
    }

    /// A move suffix: `!`, `?`, `!!`, `??`, `!?`, `?!`.
    fn suffix<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let window = self.window();
        let len = window
            .iter()
            .position(|&b| b != b'!' && b != b'?')
            .unwrap_or(window.len());
        let Some(suffix) = Suffix::from_token(&window[..len]) else {
            self.pos += len.min(MAX_TOKEN);
            let message = "a move suffix is one of !, ?, !!, ??, !?, ?!".to_string();
            self.error(state, visitor, at, ErrorKind::Syntax, message);
            return Ok(false);
        };
        self.pos += len;
        if !state.skipping {
            state.apply(visitor.suffix(suffix, at));
        }
        Ok(false)
    }

    /// An action, with its capture annotations (or a word that is none).
    fn action<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let window = self.window();
        // The fast path: a well-formed action, read in one pass.
        if let Some((action, used)) = fast_parse_prefix(window) {
            if used <= MAX_TOKEN && !window.get(used).is_some_and(|&b| is_word(b)) {
                self.pos += used;
                if !state.skipping {
                    state.apply(visitor.action(action, at));
                }
                return Ok(false);
            }
        }
        let word_len = word_len(window);
        if word_len > MAX_TOKEN {
            return self.too_long(state, visitor, at);
        }
        if state.skipping {
            self.pos += word_len;
            return Ok(false);
        }
        let parsed = AnnotatedAction::parse_bytes(&window[..word_len]);
        self.pos += word_len;
        match parsed {
            Ok(action) => {
                let flow = visitor.action(action, at);
                state.apply(flow);
            }
            Err(e) => self.error(state, visitor, at, e.kind(), e.to_string()),
        }
        Ok(false)
    }

    /// `(`: a variation opens.
    fn open_variation<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        self.pos += 1;
        if state.skipping {
            return Ok(false);
        }
        if state.variations.len() == MAX_VARIATION_DEPTH {
            let message = format!(
                "variations nest at most {MAX_VARIATION_DEPTH} deep; this `(` opens \
                     one more"
            );
            self.error(state, visitor, at, ErrorKind::Syntax, message);
            return Ok(false);
        }
        state.variations.push(at);
        state.apply(visitor.begin_variation(at));
        Ok(false)
    }

    /// `)`: a variation closes.
    fn close_variation<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        self.pos += 1;
        if state.skipping {
            return Ok(false);
        }
        if state.variations.pop().is_none() {
            let message = "`)` closes no variation: no `(` is open".to_string();
            self.error(state, visitor, at, ErrorKind::Syntax, message);
            return Ok(false);
        }
        state.apply(visitor.end_variation(at));
        Ok(false)
    }

    /// A character beyond ASCII outside a comment or tag value.
    fn non_ascii<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let found = self.describe_next()?;
        if self.utf8_char(state, visitor)? {
            let message =
                format!("unexpected {found}: outside comments and tag values a record is ASCII");
            self.error(state, visitor, at, ErrorKind::Syntax, message);
        }
        Ok(false)
    }

    /// Any other character.
    fn unexpected<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let found = self.describe_next()?;
        self.pos += 1;
        let message = format!(
            "unexpected {found}: expected an action, a move number, a comment, a NAG \
                 or a result"
        );
        self.error(state, visitor, at, ErrorKind::Syntax, message);
        Ok(false)
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

    fn too_long<V: Visitor>(
        &mut self,
        state: &mut GameState,
        visitor: &mut V,
        at: Location,
    ) -> io::Result<bool> {
        let message = format!("a token longer than {MAX_TOKEN} characters");
        self.error(state, visitor, at, ErrorKind::Syntax, message);
        while let Some(b) = self.peek()? {
            if is_word(b) || b == b'.' || b == b'!' || b == b'?' || b == b'$' {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(false)
    }
}
