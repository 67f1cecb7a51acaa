//! A game record: tags, rule set, start, plies with captures, result and termination, and
//! its canonical text form.

use crate::action_token::format_annotated;
use crate::annotation::{Annotations, Comment, MAX_VARIATION_DEPTH};
use crate::error::{move_number, ErrorKind, RecordError};
use crate::position_notation::format_position;
use crate::verdict::check_result;
use crate::writer::write_movetext;
use agon_core::{Game, GameResult, Ply, Position, Rules, Side, Termination};
use std::fmt::{self, Write as _};

/// Tags that the writer puts first, in this order (PGN's roster, without `Result`).
pub const ROSTER_TAGS: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// Tags with a meaning to the engine; a [`GameRecord`] holds them as fields, not as tags.
pub const ENGINE_TAGS: [&str; 4] = ["Result", "Variant", "Position", "Termination"];

/// The longest tag value the reader accepts (in bytes); longer values are cut by
/// [`GameRecord::set_tag`].
pub const MAX_TAG_VALUE: usize = 8192;

/// The most tags a game may have besides the engine's ([`ENGINE_TAGS`], each at most
/// once): a record with more is invalid, and [`GameRecord::set_tag`] refuses more.
pub const MAX_TAGS: usize = 256;

/// The longest tag name (the reader's token limit).
pub const MAX_TAG_NAME: usize = crate::reader::MAX_TOKEN;

/// The longest line the writer produces for movetext.
pub const LINE_WIDTH: usize = 80;

/// One game: what a record file holds for it, and what the writer prints.
///
/// Equality compares everything the text holds: tags (in order), rules, start, plies with
/// captures, annotations, result and termination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags other than the engine's, roster tags first (see [`ROSTER_TAGS`]), the rest in
    /// the order they were set or read.
    tags: Vec<(String, String)>,
    /// The rule set (`Variant` tag).
    pub rules: Rules,
    /// A start other than the rule set's own (`Position` tag); `None` for the usual start.
    pub start: Option<Position>,
    /// Every action with the cells it captured.
    pub plies: Vec<Ply>,
    /// Comments, NAGs, suffixes and variations: index 0 before the first ply, `n` after
    /// ply `n` (see [`Annotations`]). Write to it with
    /// `record.annotations.get_mut(n).comments.push(...)`.
    pub annotations: Annotations,
    /// The result (`Result` tag and result token).
    pub result: GameResult,
    /// Why the game ended (`Termination` tag), if it did.
    pub termination: Option<Termination>,
}

impl GameRecord {
    /// An empty record of a game that has not started, under a rule set.
    pub fn new(rules: Rules) -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            rules,
            start: None,
            plies: Vec::new(),
            annotations: Annotations::new(),
            result: GameResult::Unfinished,
            termination: None,
        }
    }

    /// The record of a game (finished, stopped at a move limit, or still going) with extra
    /// tags such as `("Event", "selfplay")`. The result and termination come from the game;
    /// for a game stopped by a player (`resignation`, `time-forfeit`, `agreement`) set
    /// [`GameRecord::result`] and [`GameRecord::termination`] afterwards. Engine tags in
    /// `tags` are ignored (the game decides them); see [`GameRecord::set_tag`] for how
    /// names and values are cleaned.
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> GameRecord {
        let rules = game.rules();
        let start = *game.start();
        let usual = start == Position::start(rules) && start.passes() == 0;
        let mut record = GameRecord {
            tags: Vec::new(),
            rules,
            start: (!usual).then_some(start),
            plies: game.plies().to_vec(),
            annotations: Annotations::new(),
            result: game.result(),
            termination: game.outcome().map(|o| o.termination),
        };
        for (name, value) in tags {
            record.set_tag(name, value);
        }
        record
    }

    /// The non-engine tags, in the writer's order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a tag, engine tags included (`Result`, `Variant`, `Position`,
    /// `Termination` are rendered from the fields).
    pub fn tag(&self, name: &str) -> Option<String> {
        match name {
            "Result" => Some(self.result.to_string()),
            "Variant" => Some(self.rules.to_string()),
            "Position" => self.start.as_ref().map(format_position),
            "Termination" => self.termination.map(|t| t.to_string()),
            _ => self
                .tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone()),
        }
    }

    /// Sets a non-engine tag (replacing its value if present) and returns whether it was
    /// set. Names are cleaned to letters, digits and `_` (others become `_`); values lose
    /// line breaks and control characters (they become spaces) and are cut to
    /// [`MAX_TAG_VALUE`] bytes, so that every record prints as a valid record. Engine tags,
    /// empty names, names longer than [`MAX_TAG_NAME`] and a new tag beyond [`MAX_TAGS`]
    /// are refused (returns `false`).
    pub fn set_tag(&mut self, name: &str, value: &str) -> bool {
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if name.is_empty() || name.len() > MAX_TAG_NAME || ENGINE_TAGS.contains(&name.as_str()) {
            return false;
        }
        let mut value: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if value.len() > MAX_TAG_VALUE {
            let mut end = MAX_TAG_VALUE;
            while !value.is_char_boundary(end) {
                end -= 1;
            }
            value.truncate(end);
        }
        if let Some(slot) = self.tags.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = value;
            return true;
        }
        if self.tags.len() >= MAX_TAGS {
            return false;
        }
        self.insert_tag(name, value);
        true
    }

    /// Inserts a tag that is not present yet, keeping the writer's order (in constant time
    /// for a tag outside the roster, which goes last).
    pub(crate) fn insert_tag(&mut self, name: String, value: String) {
        let rank = tag_rank(&name);
        if rank == ROSTER_TAGS.len() {
            self.tags.push((name, value));
            return;
        }
        let at = self
            .tags
            .iter()
            .position(|(n, _)| tag_rank(n) > rank)
            .unwrap_or(self.tags.len());
        self.tags.insert(at, (name, value));
    }

    /// The start position under the record's rules: the `start` position, read again under
    /// `rules` if it was built under others (refused if it cannot arise under them).
    pub fn start_position(&self) -> Result<Position, agon_core::PositionError> {
        match self.start {
            None => Ok(Position::start(self.rules)),
            Some(p) if p.rules() == self.rules => Ok(p),
            Some(p) => Position::from_setup(p.to_setup(), self.rules),
        }
    }

    /// The side that plays the first ply.
    pub fn first_mover(&self) -> Side {
        self.start.map_or(Side::White, |p| p.to_move())
    }

    /// Replays the record and checks it: every action legal, the captures exactly those
    /// recorded, and the result and termination fitting the game. Returns the game (a
    /// `move-limit` draw is adjudicated as such). Errors have no line (0) and game 1.
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let first = self.first_mover();
        let fail = |ply: usize, kind, message: String| {
            let ply = ply as u64;
            RecordError {
                file: None,
                line: 0,
                column: 0,
                game: 1,
                ply,
                move_number: if ply > 0 { move_number(ply, first) } else { 0 },
                side: (ply > 0).then(|| if ply % 2 == 1 { first } else { !first }),
                kind,
                message,
            }
        };
        let start = self.start_position().map_err(|e| {
            fail(
                0,
                ErrorKind::Position,
                format!("the start position is not one of `{}`: {e}", self.rules),
            )
        })?;
        let mut game = Game::from_position(start);
        replay_line(&mut game, &self.plies, &self.annotations, 0)
            .map_err(|e| fail(e.ply, e.kind, e.message))?;
        check_result(
            game.outcome(),
            game.ply_count(),
            self.result,
            self.termination,
        )
        .map_err(|e| fail(0, e.kind(), e.to_string()))?;
        match self.termination {
            Some(Termination::MoveLimit) => game.adjudicate_move_limit(),
            Some(Termination::Adjudication) => game.adjudicate(self.result),
            _ => {}
        }
        Ok(game)
    }

    /// The comments of the game's own line (not those inside variations), in order, with
    /// the number of plies before each.
    pub fn comments(&self) -> Vec<Comment> {
        self.annotations
            .iter()
            .flat_map(|(ply, a)| {
                a.comments.iter().map(move |text| Comment {
                    ply: ply as u64,
                    text: text.clone(),
                })
            })
            .collect()
    }

    /// Writes the record in canonical form (the same text as `Display`).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        out.write_all(self.to_string().as_bytes())
    }
}

/// Where a replayed line went wrong.
struct LineError {
    /// The 1-based ply of the game (counted along the variation, if it is in one).
    ply: usize,
    kind: ErrorKind,
    message: String,
}

/// Plays a line on `game` from its current position, checking every action and its
/// captures, and before each ply the variations that stand for it (each played from the
/// position before that ply, then taken back). Variations nest at most
/// [`MAX_VARIATION_DEPTH`] deep.
fn replay_line(
    game: &mut Game,
    plies: &[Ply],
    annotations: &Annotations,
    depth: usize,
) -> Result<(), LineError> {
    let stray = |game: &Game, message: &str| LineError {
        ply: game.ply_count() + 1,
        kind: ErrorKind::Syntax,
        message: message.to_string(),
    };
    if !annotations.get(0).variations.is_empty() {
        return Err(stray(
            game,
            "a variation stands after the action it replaces, not before the first one",
        ));
    }
    if annotations.last_index() > plies.len() {
        return Err(stray(
            game,
            "an annotation stands after the last ply of its line",
        ));
    }
    for (index, ply) in plies.iter().enumerate() {
        let number = game.ply_count() + 1;
        let variations = &annotations.get(index + 1).variations;
        if !variations.is_empty() && depth == MAX_VARIATION_DEPTH {
            let message = format!("variations nest at most {MAX_VARIATION_DEPTH} deep");
            return Err(stray(game, &message));
        }
        for variation in variations {
            let branch = game.ply_count();
            replay_line(game, &variation.plies, &variation.annotations, depth + 1).map_err(
                |mut e| {
                    if !e.message.ends_with(IN_VARIATION) {
                        e.message.push_str(IN_VARIATION);
                    }
                    e
                },
            )?;
            while game.ply_count() > branch {
                game.undo();
            }
        }
        if let Some(outcome) = game.outcome() {
            return Err(LineError {
                ply: number,
                kind: ErrorKind::AfterEnd,
                message: format!(
                    "{} comes after the end of the game: the rules ended it after ply {} by {} ({})",
                    ply.action,
                    number - 1,
                    outcome.termination,
                    outcome.result
                ),
            });
        }
        let captured = game.play(ply.action).map_err(|reason| LineError {
            ply: number,
            kind: ErrorKind::Illegal,
            message: format!("{} is not legal: {reason}", ply.action),
        })?;
        if captured != ply.captures {
            return Err(LineError {
                ply: number,
                kind: ErrorKind::Captures,
                message: format!(
                    "the record says {} but the action is {}",
                    format_annotated(ply.action, ply.captures),
                    format_annotated(ply.action, captured)
                ),
            });
        }
    }
    Ok(())
}

/// What messages about a ply inside a variation end with.
pub(crate) const IN_VARIATION: &str = " (in a variation)";

/// The writer's rank of a tag: its place in the roster, or 6 for every other tag.
fn tag_rank(name: &str) -> usize {
    ROSTER_TAGS
        .iter()
        .position(|r| *r == name)
        .unwrap_or(ROSTER_TAGS.len())
}

fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    f.write_str("[")?;
    f.write_str(name)?;
    f.write_str(" \"")?;
    for c in value.chars() {
        if c == '"' || c == '\\' {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_str("\"]\n")
}

impl fmt::Display for GameRecord {
    /// The canonical record: tags in the order Event, Site, Date, Round, White, Black,
    /// Result, Variant, Position (if not the usual start), Termination (if any), then the
    /// rest; a blank line; the movetext with move numbers, every capture annotated, and
    /// the annotations (suffix, NAGs, comments, variations after each ply), wrapped at 80
    /// columns; the result token; a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let roster = self.tags.iter().take_while(|(n, _)| tag_rank(n) < 6);
        let mut count = 0;
        for (name, value) in roster {
            write_tag(f, name, value)?;
            count += 1;
        }
        write_tag(f, "Result", self.result.token())?;
        write_tag(f, "Variant", &self.rules.to_string())?;
        if let Some(start) = &self.start {
            write_tag(f, "Position", &format_position(start))?;
        }
        if let Some(termination) = self.termination {
            write_tag(f, "Termination", termination.name())?;
        }
        for (name, value) in &self.tags[count..] {
            write_tag(f, name, value)?;
        }
        f.write_str("\n")?;
        write_movetext(
            f,
            self.first_mover(),
            &self.plies,
            &self.annotations,
            self.result.token(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_core::{random_playout, Rng};

    #[test]
    fn writes_the_canonical_form() {
        let mut game = Game::new(Rules::STANDARD);
        for action in ["h9-g9", "b7-c7", "g9-f9"] {
            game.play(action.parse().unwrap()).unwrap();
        }
        let mut record = GameRecord::from_game(&game, &[("White", "alice"), ("Event", "test")]);
        record.set_tag("Opening", "none");
        record.set_tag("Site", "here \"quoted\" \\");
        assert_eq!(
            record.to_string(),
            "[Event \"test\"]\n[Site \"here \\\"quoted\\\" \\\\\"]\n[White \"alice\"]\n\
             [Result \"*\"]\n[Variant \"standard\"]\n[Opening \"none\"]\n\n\
             1. h9-g9 b7-c7 2. g9-f9 *\n"
        );
    }

    #[test]
    fn movetext_wraps_at_80_columns() {
        let mut game = Game::new(Rules::STANDARD);
        random_playout(&mut game, &mut Rng::new(7), 300);
        let text = GameRecord::from_game(&game, &[]).to_string();
        let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
        assert!(movetext.len() > 5);
        assert!(movetext.iter().all(|l| l.len() <= LINE_WIDTH));
        assert!(movetext[..movetext.len() - 1]
            .iter()
            .all(|l| l.len() > LINE_WIDTH - 12));
    }

    #[test]
    fn tags_are_cleaned_and_engine_tags_refused() {
        let mut record = GameRecord::new(Rules::STANDARD);
        assert!(!record.set_tag("Result", "1-0"));
        assert!(!record.set_tag("", "x"));
        assert!(record.set_tag("My Tag", "two\nlines"));
        assert_eq!(
            record.tags(),
            &[("My_Tag".to_string(), "two lines".to_string())]
        );
        assert!(record.set_tag("Round", "1"));
        assert_eq!(record.tags()[0].0, "Round");
    }

    #[test]
    fn set_tag_refuses_what_a_record_cannot_hold() {
        let mut record = GameRecord::new(Rules::STANDARD);
        assert!(record.set_tag(&"N".repeat(MAX_TAG_NAME), "x"));
        assert!(!record.set_tag(&"N".repeat(MAX_TAG_NAME + 1), "x"));
        for i in 1..MAX_TAGS {
            assert!(record.set_tag(&format!("T{i}"), "v"));
        }
        assert!(!record.set_tag("OneTooMany", "v"));
        assert!(record.set_tag("T1", "replaced"));
        let again: GameRecord = record.to_string().parse().unwrap();
        assert_eq!(again, record);
    }

    #[test]
    fn replay_rejects_wrong_captures() {
        let mut game = Game::new(Rules::STANDARD);
        random_playout(&mut game, &mut Rng::new(3), 400);
        let mut record = GameRecord::from_game(&game, &[]);
        let index = record
            .plies
            .iter()
            .position(|p| p.captures.any())
            .expect("a capture in 400 random plies");
        record.plies[index].captures = agon_core::Bitboard::EMPTY;
        let Err(error) = record.to_game() else {
            panic!("a wrong capture must be found")
        };
        assert_eq!(error.kind, ErrorKind::Captures);
        assert_eq!(error.ply, index as u64 + 1);
    }
}
