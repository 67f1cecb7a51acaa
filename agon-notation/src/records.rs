//! The validating record reader: the tokenizer ([`crate::Reader`]) plus a visitor that
//! replays every action through agon-core and checks the result, one item per game.

use crate::action_token::AnnotatedAction;
use crate::annotation::{Annotations, Nag, Suffix, Variation};
use crate::error::{move_number, ErrorKind, RecordError};
use crate::position_notation::parse_position;
use crate::reader::{Dots, Flow, Location, Reader, SyntaxError, Visitor};
use crate::record::{GameRecord, ENGINE_TAGS, IN_VARIATION, MAX_TAGS};
use crate::verdict::check_result;
use agon_core::{
    Action, Bitboard, Game, GameResult, IllegalAction, Ply, Position, Rules, Side, Termination,
};
use std::io::Read;
use std::str::FromStr;

/// The most comments, NAGs, suffixes and variations (together) one game may hold: 65,536,
/// which bounds the memory of a game's annotations (a record's own limit of 4 MiB could
/// otherwise hold two million empty comments).
pub const MAX_ANNOTATIONS: usize = 1 << 16;

/// A game read from a record file and found valid: every action legal, annotations
/// matching, result and termination fitting the game.
#[derive(Clone)]
pub struct ValidGame {
    /// 1-based index of the game in the file.
    pub index: u64,
    /// The line where the game starts.
    pub line: u64,
    /// The record (canonical: printing it gives the canonical text of the game).
    pub record: GameRecord,
    /// The game replayed through the engine (a `move-limit` draw is adjudicated as such;
    /// games stopped by resignation, time forfeit or agreement are unfinished here, the
    /// record holds their result).
    pub game: Game,
}

impl std::fmt::Debug for ValidGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValidGame")
            .field("index", &self.index)
            .field("line", &self.line)
            .field("record", &self.record)
            .finish_non_exhaustive()
    }
}

/// Reads and validates game records one game at a time, in constant memory: an iterator
/// with one item per game, `Ok` for a valid game and `Err` with the first defect of an
/// invalid one. A bad game never stops the reader; a read error of the input ends it.
///
/// ```
/// use agon_notation::Records;
/// let text = "[Event \"demo\"]\n\n1. h9-g9 b7-c7 *\n\n1. f1-f3 *\n";
/// let games: Vec<_> = Records::new(text.as_bytes()).with_file_name("demo.agn").collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].as_ref().unwrap().game.ply_count(), 2);
/// let error = games[1].as_ref().unwrap_err();
/// assert_eq!(error.to_string(), "demo.agn:5:4: game 2, ply 1 (move 1, White): \
///     f1-f3 is not legal: f3 is not next to f1");
/// ```
pub struct Records<R> {
    reader: Reader<R>,
    file: Option<String>,
    index: u64,
    done: bool,
    /// The last invalid game replayed up to its defect.
    replayed: Option<Game>,
    /// Buffers of a game the caller is done with ([`Records::recycle`]), reused by the
    /// next game.
    spare: Spare,
}

/// The buffers of a finished game, kept for the next one: a long game's history is
/// hundreds of kilobytes, and allocating it afresh for every game makes the allocator
/// return it to the system and fault it back in each time.
#[derive(Default)]
struct Spare {
    game: Option<Game>,
    plies: Vec<Ply>,
}

impl<R: Read> Records<R> {
    /// A validating reader over any byte source.
    pub fn new(input: R) -> Records<R> {
        Records {
            reader: Reader::new(input),
            file: None,
            index: 0,
            done: false,
            replayed: None,
            spare: Spare::default(),
        }
    }

    /// Gives back a valid game the caller is done with, so that the next games reuse its
    /// buffers (the game's history and the record's plies) instead of allocating their
    /// own: what a validator of many games calls after looking at each one. Optional; the
    /// items are the same either way.
    ///
    /// ```
    /// use agon_notation::Records;
    /// let text = "1. h9-g9 b7-c7 *\n\n1. h9-g9 *\n";
    /// let mut records = Records::new(text.as_bytes());
    /// let mut plies = Vec::new();
    /// while let Some(item) = records.next() {
    ///     let valid = item.unwrap();
    ///     plies.push(valid.record.plies.len());
    ///     records.recycle(valid);
    /// }
    /// assert_eq!(plies, [2, 1]);
    /// ```
    pub fn recycle(&mut self, valid: ValidGame) {
        self.spare.game = Some(valid.game);
        self.spare.plies = valid.record.plies;
    }

    /// After an invalid game (an `Err` item): its own line of play replayed up to the
    /// defect, that is every action before the first bad one (variations left out), so
    /// that a caller can show or continue the position there without reading the game
    /// again. `None` when the defect came before the game could start (a bad `Variant`
    /// or `Position` tag) and after a valid game; taken once.
    ///
    /// ```
    /// use agon_notation::Records;
    /// let mut records = Records::new("1. h9-g9 b7-c7 2. h9-h8 *".as_bytes());
    /// let error = records.next().unwrap().unwrap_err();
    /// assert_eq!(error.ply, 3);
    /// assert_eq!(records.take_replayed().unwrap().ply_count(), 2);
    /// ```
    pub fn take_replayed(&mut self) -> Option<Game> {
        self.replayed.take()
    }

    /// How many bytes have been read from the input ([`Reader::bytes_read`]): for progress
    /// reports.
    pub fn bytes_read(&self) -> u64 {
        self.reader.bytes_read()
    }

    /// Names the input in error messages.
    pub fn with_file_name(mut self, name: impl Into<String>) -> Records<R> {
        self.file = Some(name.into());
        self
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = Result<ValidGame, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if let Some(game) = self.replayed.take() {
            self.spare.game = Some(game);
        }
        let spare = std::mem::take(&mut self.spare);
        let mut builder = Builder::new(self.index + 1, self.file.as_deref(), spare);
        match self.reader.read_game(&mut builder) {
            Ok(true) => {
                self.index += 1;
                Some(builder.finish(&mut self.replayed, &mut self.spare))
            }
            Ok(false) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                self.index += 1;
                let at = self.reader.location();
                Some(Err(RecordError {
                    file: self.file.clone(),
                    line: at.line,
                    column: at.column,
                    game: self.index,
                    ply: 0,
                    move_number: 0,
                    side: None,
                    kind: ErrorKind::Io,
                    message: format!("cannot read the input: {error}"),
                }))
            }
        }
    }
}

impl FromStr for GameRecord {
    type Err = RecordError;

    /// Reads and validates exactly one game.
    fn from_str(text: &str) -> Result<GameRecord, RecordError> {
        let mut records = Records::new(text.as_bytes());
        let first = records.next().unwrap_or_else(|| {
            Err(RecordError {
                file: None,
                line: 1,
                column: 1,
                game: 1,
                ply: 0,
                move_number: 0,
                side: None,
                kind: ErrorKind::Syntax,
                message: "expected a game record, found no game".into(),
            })
        })?;
        if let Some(next) = records.next() {
            let (line, column) = match &next {
                Ok(game) => (game.line, 1),
                Err(e) => (e.line, e.column),
            };
            return Err(RecordError {
                file: None,
                line,
                column,
                game: 2,
                ply: 0,
                move_number: 0,
                side: None,
                kind: ErrorKind::Syntax,
                message: "expected one game record, found a second game".into(),
            });
        }
        Ok(first.record)
    }
}

/// The visitor that validates one game.
struct Builder<'a> {
    index: u64,
    file: Option<&'a str>,
    line: u64,
    record: GameRecord,
    variant: Option<(String, Location)>,
    position: Option<(String, Location)>,
    result_tag: Option<(GameResult, Location)>,
    termination: Option<(Termination, Location)>,
    result_token: Option<(GameResult, Location)>,
    game: Option<Game>,
    first: Side,
    error: Option<RecordError>,
    /// The variations being read, innermost last.
    open: Vec<OpenVariation>,
    /// Comments, NAGs, suffixes and variations kept so far (at most [`MAX_ANNOTATIONS`]).
    kept: usize,
    /// Buffers to reuse for the game (the record's plies are in `plies`).
    spare: Spare,
    /// The record's plies, pushed as the game's actions are played (cheaper than copying
    /// the game's plies at the end); right only while no variation has been read.
    plies: Vec<Ply>,
    /// A variation has been read: `plies` may hold the variations' plies too, and the
    /// record's plies are copied from the game instead.
    branched: bool,
}

/// A variation being read: where it branches, what it replaces, what it holds so far.
struct OpenVariation {
    /// The plies of the game before the ply it replaces.
    branch: usize,
    /// The ply it replaces, taken back while the variation is read.
    replaced: Ply,
    /// The index of the annotation of the enclosing line that will hold it.
    index: usize,
    variation: Variation,
}

impl<'a> Builder<'a> {
    fn new(index: u64, file: Option<&'a str>, mut spare: Spare) -> Builder<'a> {
        let mut plies = std::mem::take(&mut spare.plies);
        plies.clear();
        Builder {
            index,
            file,
            line: 0,
            record: GameRecord::new(Rules::STANDARD),
            variant: None,
            position: None,
            result_tag: None,
            termination: None,
            result_token: None,
            game: None,
            first: Side::White,
            error: None,
            open: Vec::new(),
            kept: 0,
            spare,
            plies,
            branched: false,
        }
    }

    /// Records the first defect of the game; returns `Flow::Skip`.
    fn fail(&mut self, at: Location, ply: u64, kind: ErrorKind, message: String) -> Flow {
        if self.error.is_none() {
            self.error = Some(RecordError {
                file: self.file.map(str::to_string),
                line: at.line,
                column: at.column,
                game: self.index,
                ply,
                move_number: if ply > 0 {
                    move_number(ply, self.first)
                } else {
                    0
                },
                side: (ply > 0).then(|| {
                    if ply % 2 == 1 {
                        self.first
                    } else {
                        !self.first
                    }
                }),
                kind,
                message: if self.open.is_empty() || ply == 0 {
                    message
                } else {
                    message + IN_VARIATION
                },
            });
        }
        Flow::Skip
    }

    /// The line being read (the game's, or the innermost open variation) and the index of
    /// the annotation that follows its last ply so far.
    fn line(&mut self) -> (&mut Annotations, usize) {
        let plies = self.game.as_ref().map_or(0, Game::ply_count);
        match self.open.last_mut() {
            Some(open) => (&mut open.variation.annotations, plies - open.branch),
            None => (&mut self.record.annotations, plies),
        }
    }

    /// Counts one more kept comment, NAG, suffix or variation against
    /// [`MAX_ANNOTATIONS`]; `false` (and the game failed) when over.
    fn keep(&mut self, at: Location) -> bool {
        if self.kept == MAX_ANNOTATIONS {
            let ply = self.next_ply();
            let message = format!(
                "a game holds at most {MAX_ANNOTATIONS} comments, NAGs, suffixes and \
                 variations"
            );
            self.fail(at, ply, ErrorKind::Syntax, message);
            return false;
        }
        self.kept += 1;
        true
    }

    /// The next ply (1-based), or 0 while the tags are being read.
    fn next_ply(&self) -> u64 {
        self.game.as_ref().map_or(0, |g| g.ply_count() as u64 + 1)
    }

    /// Builds the game from the `Variant` and `Position` tags (once).
    fn start_game(&mut self) -> Flow {
        if self.game.is_some() || self.error.is_some() {
            return Flow::Continue;
        }
        let rules = match &self.variant {
            None => Rules::STANDARD,
            Some((name, at)) => match name.parse::<Rules>() {
                Ok(rules) => rules,
                Err(e) => {
                    let at = *at;
                    return self.fail(at, 0, ErrorKind::Variant, e.to_string());
                }
            },
        };
        let start = match &self.position {
            None => Position::start(rules),
            Some((text, at)) => match parse_position(text, rules) {
                Ok(position) => position,
                Err(e) => {
                    let before: usize = text.chars().take(e.column - 1).map(char::len_utf8).sum();
                    let at = Location {
                        line: at.line,
                        column: at.column + e.column as u64 - 1,
                        offset: at.offset + before as u64,
                    };
                    let message = format!("the Position tag is not a position: {}", e.problem);
                    return self.fail(at, 0, ErrorKind::Position, message);
                }
            },
        };
        self.record.rules = rules;
        let usual = start == Position::start(rules) && start.passes() == 0;
        self.record.start = (!usual).then_some(start);
        self.first = start.to_move();
        self.game = Some(match self.spare.game.take() {
            Some(mut game) => {
                game.restart(start);
                game
            }
            None => Game::from_position(start),
        });
        Flow::Continue
    }

    /// The valid game, or the first defect (and, in `replayed`, the game's own line
    /// replayed up to it; `None` if no game could start: a defect in the tags). Buffers
    /// it did not use go back to `spare`.
    fn finish(
        mut self,
        replayed: &mut Option<Game>,
        spare: &mut Spare,
    ) -> Result<ValidGame, RecordError> {
        if let Some(error) = self.error.take() {
            *spare = std::mem::take(&mut self.spare);
            spare.plies = std::mem::take(&mut self.plies);
            let mut game = self.game.take();
            if let Some(game) = &mut game {
                // Back from the variations still open to the game's own line.
                while let Some(open) = self.open.pop() {
                    while game.ply_count() > open.branch {
                        game.undo();
                    }
                    game.play_unchecked(open.replaced.action);
                }
            }
            *replayed = game;
            return Err(error);
        }
        let Some(mut game) = self.game.take() else {
            // Not reached: `end_game` either builds the game or records an error.
            let error = RecordError {
                file: self.file.map(str::to_string),
                line: self.line,
                column: 1,
                game: self.index,
                ply: 0,
                move_number: 0,
                side: None,
                kind: ErrorKind::Syntax,
                message: "the game could not be read".into(),
            };
            return Err(error);
        };
        let mut plies = std::mem::take(&mut self.plies);
        if self.branched {
            plies.clear();
            plies.extend_from_slice(game.plies());
        }
        debug_assert_eq!(plies, game.plies());
        self.record.plies = plies;
        match self.record.termination {
            Some(Termination::MoveLimit) => game.adjudicate_move_limit(),
            Some(Termination::Adjudication) => game.adjudicate(self.record.result),
            _ => {}
        }
        Ok(ValidGame {
            index: self.index,
            line: self.line,
            record: self.record,
            game,
        })
    }
}

impl Builder<'_> {
    /// A move number that does not fit ply `ply` (`side` to move): the game fails (out of
    /// line: the messages stay off the hot path).
    #[cold]
    #[inline(never)]
    fn wrong_move_number(
        &mut self,
        number: u64,
        dots: Dots,
        at: Location,
        ply: u64,
        side: Side,
    ) -> Flow {
        let expected = move_number(ply, self.first);
        let written = match dots {
            Dots::One => format!("{number}."),
            Dots::Three => format!("{number}..."),
        };
        if number != expected {
            let message = format!(
                "move number `{written}` does not fit: ply {ply} is move {expected} ({side} to move)"
            );
            return self.fail(at, ply, ErrorKind::MoveNumber, message);
        }
        match (dots, side) {
            (Dots::Three, Side::White) => {
                let message = format!(
                    "`{written}` marks a Black action, but White is to move at ply {ply} (write `{number}.`)"
                );
                self.fail(at, ply, ErrorKind::MoveNumber, message)
            }
            (Dots::One, Side::Black) => {
                let message = format!(
                    "`{written}` marks a White action, but Black is to move at ply {ply} (write `{number}...`)"
                );
                self.fail(at, ply, ErrorKind::MoveNumber, message)
            }
            _ => Flow::Continue,
        }
    }

    /// An action the game refused (at the next ply): after its end, or illegal (out of
    /// line, like the ply's number: a record's actions are legal).
    #[cold]
    #[inline(never)]
    fn refused(&mut self, action: Action, at: Location, reason: IllegalAction) -> Flow {
        let ply = self.next_ply();
        // `play` refuses every action once the game is over, so the outcome is asked only
        // then (a legal action proves the no-move rule has not ended the game).
        if reason == IllegalAction::GameOver {
            if let Some(outcome) = self.game.as_ref().and_then(Game::outcome) {
                let message = format!(
                    "{action} comes after the end of the game: the rules ended it after ply {} by {} ({})",
                    ply - 1,
                    outcome.termination,
                    outcome.result
                );
                return self.fail(at, ply, ErrorKind::AfterEnd, message);
            }
        }
        let message = format!("{action} is not legal: {reason}");
        self.fail(at, ply, ErrorKind::Illegal, message)
    }

    /// Plays an action of the record and keeps its ply: the cells it captured, or the
    /// game's refusal ([`Builder::refused`]).
    #[inline(always)]
    fn play_action(&mut self, action: Action, at: Location) -> Result<Bitboard, Flow> {
        let Some(game) = &mut self.game else {
            return Err(Flow::Skip);
        };
        match game.play(action) {
            Ok(captures) => {
                self.plies.push(Ply { action, captures });
                Ok(captures)
            }
            Err(reason) => Err(self.refused(action, at, reason)),
        }
    }

    /// An action token with capture annotations: played, then its annotations checked
    /// against what it captured (out of line: most actions carry none).
    #[inline(never)]
    fn annotated_action(&mut self, annotated: AnnotatedAction, at: Location) -> Flow {
        let captured = match self.play_action(annotated.action, at) {
            Ok(captured) => captured,
            Err(flow) => return flow,
        };
        match annotated.check_captures(captured) {
            Ok(()) => Flow::Continue,
            Err(e) => {
                let ply = self.next_ply() - 1;
                self.fail(at, ply, e.kind(), e.to_string())
            }
        }
    }
}

impl Visitor for Builder<'_> {
    fn begin_game(&mut self, at: Location) {
        self.line = at.line;
    }

    fn tag(&mut self, name: &str, value: &str, at: Location, value_at: Location) -> Flow {
        let engine_tag = ENGINE_TAGS.contains(&name);
        if !engine_tag && self.record.tags().len() == MAX_TAGS {
            let message = format!(
                "a game has at most {MAX_TAGS} tags besides Result, Variant, Position and \
                 Termination"
            );
            return self.fail(at, 0, ErrorKind::Tag, message);
        }
        // Linear in the tags of a game: at most MAX_TAGS are compared.
        let duplicate = match name {
            "Variant" => self.variant.is_some(),
            "Position" => self.position.is_some(),
            "Result" => self.result_tag.is_some(),
            "Termination" => self.termination.is_some(),
            _ => self.record.tags().iter().any(|(n, _)| n == name),
        };
        if duplicate {
            return self.fail(
                at,
                0,
                ErrorKind::Tag,
                format!("the tag `{name}` is given twice"),
            );
        }
        match name {
            "Variant" => self.variant = Some((value.to_string(), value_at)),
            "Position" => self.position = Some((value.to_string(), value_at)),
            "Result" => match value.parse::<GameResult>() {
                Ok(result) => self.result_tag = Some((result, value_at)),
                Err(message) => {
                    return self.fail(
                        value_at,
                        0,
                        ErrorKind::Result,
                        format!("the Result tag: {message}"),
                    )
                }
            },
            "Termination" => match value.parse::<Termination>() {
                Ok(t) => self.termination = Some((t, value_at)),
                Err(message) => {
                    return self.fail(
                        value_at,
                        0,
                        ErrorKind::Termination,
                        format!("the Termination tag: {message}"),
                    )
                }
            },
            _ => {
                debug_assert!(!ENGINE_TAGS.contains(&name));
                self.record.insert_tag(name.to_string(), value.to_string());
            }
        }
        Flow::Continue
    }

    fn begin_movetext(&mut self, _at: Location) -> Flow {
        self.start_game()
    }

    // Inlined into the reader's loop, like `action`.
    #[inline(always)]
    fn move_number(&mut self, number: u64, dots: Dots, at: Location) -> Flow {
        let Some(game) = &self.game else {
            return Flow::Skip;
        };
        let ply = game.ply_count() as u64 + 1;
        let side = game.position().to_move();
        let fits = match dots {
            Dots::One => side == Side::White,
            Dots::Three => side == Side::Black,
        };
        if number == move_number(ply, self.first) && fits {
            return Flow::Continue;
        }
        self.wrong_move_number(number, dots, at, ply, side)
    }

    // Inlined into the reader's loop: one call and its spilled arguments less per action.
    #[inline(always)]
    fn action(&mut self, annotated: AnnotatedAction, at: Location) -> Flow {
        // Most tokens carry no annotation, which `check_captures` accepts: for them only
        // the action is kept across the play (not the whole token, spilled to memory).
        if annotated.annotated || annotated.repeated.is_some() {
            return self.annotated_action(annotated, at);
        }
        match self.play_action(annotated.action, at) {
            Ok(_) => Flow::Continue,
            Err(flow) => flow,
        }
    }

    fn result(&mut self, result: GameResult, at: Location) -> Flow {
        self.result_token = Some((result, at));
        Flow::Continue
    }

    fn comment(&mut self, text: &str, at: Location) -> Flow {
        if !self.keep(at) {
            return Flow::Skip;
        }
        let (line, index) = self.line();
        line.get_mut(index).comments.push(text.trim().to_string());
        Flow::Continue
    }

    fn nag(&mut self, nag: Nag, at: Location) -> Flow {
        if !self.keep(at) {
            return Flow::Skip;
        }
        let (line, index) = self.line();
        line.get_mut(index).nags.push(nag);
        Flow::Continue
    }

    fn suffix(&mut self, suffix: Suffix, at: Location) -> Flow {
        if !self.keep(at) {
            return Flow::Skip;
        }
        let (line, index) = self.line();
        let annotation = line.get_mut(index);
        // One suffix per ply: another, or one before the first ply, is kept as its NAG.
        if index == 0 || annotation.suffix.is_some() {
            annotation.nags.push(suffix.nag());
        } else {
            annotation.suffix = Some(suffix);
        }
        Flow::Continue
    }

    fn begin_variation(&mut self, at: Location) -> Flow {
        if !self.keep(at) {
            return Flow::Skip;
        }
        let (_, index) = self.line();
        let Some(game) = self.game.as_mut() else {
            return Flow::Skip;
        };
        self.branched = true;
        let replaced = match game.undo() {
            Some(ply) if index > 0 => ply,
            taken => {
                if let Some(ply) = taken {
                    game.play_unchecked(ply.action);
                }
                let ply = self.next_ply();
                let message =
                    "a variation stands after the action it replaces; this `(` follows none"
                        .to_string();
                return self.fail(at, ply, ErrorKind::Syntax, message);
            }
        };
        self.open.push(OpenVariation {
            branch: game.ply_count(),
            replaced,
            index,
            variation: Variation::default(),
        });
        Flow::Continue
    }

    fn end_variation(&mut self, _at: Location) -> Flow {
        let (Some(mut open), Some(game)) = (self.open.pop(), self.game.as_mut()) else {
            return Flow::Skip;
        };
        open.variation.plies = game.plies()[open.branch..].to_vec();
        while game.ply_count() > open.branch {
            game.undo();
        }
        game.play_unchecked(open.replaced.action);
        let (line, _) = self.line();
        line.get_mut(open.index).variations.push(open.variation);
        Flow::Continue
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        let ply = self.next_ply();
        self.fail(error.at, ply, error.kind, error.message);
    }

    fn end_game(&mut self, at: Location) {
        self.start_game();
        if self.error.is_some() {
            return;
        }
        let Some(game) = &self.game else { return };
        let outcome = game.outcome();
        let plies = game.ply_count();
        let (result, result_at) = match (self.result_token, self.result_tag) {
            (Some((token, token_at)), Some((tag, _))) if token != tag => {
                let message =
                    format!("the result token {token} does not match the Result tag \"{tag}\"");
                self.fail(token_at, 0, ErrorKind::Result, message);
                return;
            }
            (Some((token, token_at)), _) => (token, token_at),
            (None, Some((tag, tag_at))) => (tag, tag_at),
            (None, None) => (game.result(), at),
        };
        let termination = self
            .termination
            .map(|(t, _)| t)
            .or_else(|| outcome.map(|o| o.termination));
        if let Err(e) = check_result(outcome, plies, result, termination) {
            let at = match (e.kind(), self.termination) {
                (ErrorKind::Termination, Some((_, tag_at))) => tag_at,
                _ => result_at,
            };
            self.fail(at, 0, e.kind(), e.to_string());
            return;
        }
        self.record.result = result;
        self.record.termination = termination;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        Records::new(text.as_bytes())
            .map(|r| match r {
                Ok(g) => format!("ok {} plies", g.record.plies.len()),
                Err(e) => format!("{} {}", e.kind, e),
            })
            .collect()
    }

    #[test]
    fn reports_each_game() {
        let text = "1. h9-g9 b7-c7 2. g9-f9 *\n\n\
                    [Result \"1-0\"]\n\n1. h9-g9 1-0\n\n\
                    1. h9-g9 2. b7-c7 *\n\n\
                    1... h9-g9 *\n\n\
                    h9-g9 b7-c7xb7 *\n";
        assert_eq!(
            errors(text),
            [
                "ok 3 plies",
                "result 5:10: game 2: the rules have not ended the game after ply 1, so the \
                 result 1-0 needs [Termination \"resignation\"] or [Termination \
                 \"time-forfeit\"] (or the result `*`)",
                "move-number 7:10: game 3, ply 2 (move 1, Black): move number `2.` does not \
                 fit: ply 2 is move 1 (Black to move)",
                "move-number 9:1: game 4, ply 1 (move 1, White): `1...` marks a Black \
                 action, but White is to move at ply 1 (write `1.`)",
                "captures 11:7: game 5, ply 2 (move 1, Black): xb7 is annotated but b7-c7 \
                 does not capture it; b7-c7 captures nothing (written b7-c7)",
            ]
        );
    }

    #[test]
    fn comments_come_with_their_place_among_the_actions() {
        let text = "[Event \"e\"]\n{ opening notes }\n1. h9-g9 {first} b7-c7 ; a line\n\
                    2. g9-f9 {} *\n";
        let game = Records::new(text.as_bytes()).next().unwrap().unwrap();
        let found: Vec<(u64, String)> = game
            .record
            .comments()
            .into_iter()
            .map(|c| (c.ply, c.text))
            .collect();
        let expected = [(0, "opening notes"), (1, "first"), (2, "a line"), (3, "")];
        assert_eq!(found, expected.map(|(p, t)| (p, t.to_string())));
        assert_eq!(
            game.record.to_string(),
            "[Event \"e\"]\n[Result \"*\"]\n[Variant \"standard\"]\n\n\
             {opening notes} 1. h9-g9 {first} 1... b7-c7 {a line} 2. g9-f9 {} *\n"
        );
    }

    #[test]
    fn a_game_has_at_most_max_tags_tags() {
        let tags = |n: usize| -> String {
            (0..n)
                .map(|i| format!("[T{i} \"v\"]\n"))
                .collect::<String>()
        };
        let text = format!("{}[Result \"*\"]\n\n*\n", tags(MAX_TAGS));
        let record: GameRecord = text.parse().unwrap();
        assert_eq!(record.tags().len(), MAX_TAGS);
        // 20,000 tags: the first one over the limit is the error, found in linear time.
        let text = format!("{}\n*\n\n1. h9-g9 *\n", tags(20_000));
        assert_eq!(
            errors(&text),
            [
                format!(
                    "tag {}:1: game 1: a game has at most 256 tags besides Result, Variant, \
                     Position and Termination",
                    MAX_TAGS + 1
                ),
                "ok 1 plies".to_string()
            ]
        );
    }

    /// A random line of at most `plies` plies from `game` (not past its end).
    fn random_line(game: &mut Game, rng: &mut agon_core::Rng, plies: usize) {
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let action = game.legal().random(rng).expect("the game goes on");
            game.play(action).expect("a generated action is legal");
        }
    }

    /// A random variation from `branch`: one to four plies, the first sometimes followed
    /// by a nested variation of one ply (an alternative to it, from `branch` too).
    fn random_variation(branch: &Game, rng: &mut agon_core::Rng) -> String {
        let mut variation = branch.clone();
        let plies = 1 + rng.below(4);
        random_line(&mut variation, rng, plies);
        let mut text = String::new();
        for (i, ply) in variation.plies()[branch.ply_count()..].iter().enumerate() {
            text.push_str(&format!("{} ", ply.action));
            if i == 0 && rng.below(3) == 0 {
                let mut nested = branch.clone();
                random_line(&mut nested, rng, 1);
                if let Some(alternative) = nested.plies().last() {
                    text.push_str(&format!("( {} ) ", alternative.action));
                }
            }
        }
        text
    }

    /// A random game of `rules` and its record: the actions (with their captures
    /// annotated at random), some of them followed by a variation of one to four random
    /// plies (one nested at random), and the result.
    fn random_record_text(rules: Rules, rng: &mut agon_core::Rng) -> (Game, String) {
        let mut game = Game::new(rules);
        let plies = 1 + rng.below(300);
        random_line(&mut game, rng, plies);
        let mut text = format!("[Variant \"{rules}\"]\n\n");
        let mut replay = Game::new(rules);
        for ply in game.plies() {
            replay.play(ply.action).expect("legal in the game");
            if rng.below(3) == 0 {
                text.push_str(&crate::format_annotated(ply.action, ply.captures));
            } else {
                text.push_str(&ply.action.to_string());
            }
            text.push(' ');
            if rng.below(8) == 0 {
                // The position before this ply: where its variations start.
                let mut branch = replay.clone();
                branch.undo();
                text.push_str(&format!("( {} )", random_variation(&branch, rng)));
            }
        }
        text.push_str(&format!("{}\n\n", game.result()));
        (game, text)
    }

    /// The record's plies, pushed as the actions are played (or copied from the game when
    /// the record has variations), are the game's own line: in random games of every rule
    /// set with variations here and there, read with and without recycling the buffers.
    #[test]
    fn record_plies_are_the_games_line_with_and_without_variations() {
        let mut rng = agon_core::Rng::new(41);
        let mut text = String::new();
        let mut games = Vec::new();
        for rules in Rules::single_switch_variants()
            .into_iter()
            .chain([Rules::LUDII])
        {
            for _ in 0..8 {
                let (game, record) = random_record_text(rules, &mut rng);
                text.push_str(&record);
                games.push(game);
            }
        }
        let fresh: Vec<ValidGame> = Records::new(text.as_bytes())
            .map(|item| item.unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let mut recycled = Vec::new();
        let mut records = Records::new(text.as_bytes());
        while let Some(item) = records.next() {
            let valid = item.unwrap_or_else(|e| panic!("{e}"));
            recycled.push((valid.record.clone(), valid.game.plies().to_vec()));
            records.recycle(valid);
        }
        assert_eq!(fresh.len(), games.len());
        assert_eq!(recycled.len(), games.len());
        let mut with_variations = 0;
        for ((game, valid), (record, plies)) in games.iter().zip(&fresh).zip(&recycled) {
            assert_eq!(valid.record.plies, game.plies());
            assert_eq!(valid.game.plies(), game.plies());
            assert_eq!(&valid.record, record);
            assert_eq!(plies, game.plies());
            let mut variations = valid.record.annotations.iter();
            with_variations += usize::from(variations.any(|(_, a)| !a.variations.is_empty()));
        }
        assert!(with_variations > 20, "{with_variations}");
    }

    #[test]
    fn from_str_wants_exactly_one_game() {
        let record: GameRecord = "1. h9-g9 *".parse().unwrap();
        assert_eq!(record.plies.len(), 1);
        let e = "* *".parse::<GameRecord>().unwrap_err();
        assert_eq!(e.message, "expected one game record, found a second game");
        assert!("".parse::<GameRecord>().is_err());
    }
}
