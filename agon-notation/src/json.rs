//! JSON forms of game records and positions (documented in docs/notation.md).
//!
//! A game:
//! ```json
//! {"tags": {"Event": "demo"}, "variant": "standard", "start": null,
//!  "moves": [{"action": "h9-g9", "captures": []}], "result": "*", "termination": null}
//! ```
//! Annotations ride along where they stand: `comments` and `nags` before the first ply at
//! the top (and at the top of a variation), and on a move `suffix` (`"!?"`), `nags`
//! (numbers), `comments` and `variations` (each `{"comments", "nags", "moves"}`, an
//! alternative to that move); all optional, left out when empty.
//! Reading a game replays it: every action must be legal, `captures` (optional on input)
//! must match, and the result must fit the game, exactly as for a text record.

use crate::action_token::format_annotated;
use crate::annotation::{Annotations, Nag, Suffix, Variation, MAX_VARIATION_DEPTH};
use crate::position_notation::PositionError;
use crate::position_notation::{format_position, parse_position};
use crate::record::{GameRecord, ENGINE_TAGS, IN_VARIATION, MAX_TAGS, MAX_TAG_NAME};
use crate::verdict::check_result;
use crate::verdict::VerdictError;
use crate::writer::printable_comment;
use agon_core::{
    Action, Bitboard, Cell, Game, GameResult, IllegalAction, Outcome, Phase, PieceKind, Ply,
    Position, Rules, Side, Termination,
};
use serde::de::{self, Deserializer, MapAccess};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One ply in JSON, with what follows it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveJson {
    action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    captures: Option<Vec<Cell>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    suffix: Option<SuffixJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variations: Vec<VariationJson>,
}

/// A variation in JSON: what stands before its first ply, then its plies.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariationJson {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
    moves: Vec<MoveJson>,
}

/// A move suffix as its token (`"!?"`).
struct SuffixJson(Suffix);

impl Serialize for SuffixJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.token())
    }
}

impl<'de> Deserialize<'de> for SuffixJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SuffixJson, D::Error> {
        let token = String::deserialize(deserializer)?;
        Suffix::from_token(token.as_bytes())
            .map(SuffixJson)
            .ok_or_else(|| {
                de::Error::custom(format!(
                    "`{}` is not a move suffix (one of !, ?, !!, ??, !?, ?!)",
                    clip(&token)
                ))
            })
    }
}

/// The JSON form of a line's plies and annotations.
fn moves_json(plies: &[Ply], annotations: &Annotations) -> Vec<MoveJson> {
    plies
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let a = annotations.get(index + 1);
            MoveJson {
                action: p.action,
                captures: Some(p.captures.collect()),
                suffix: a.suffix.map(SuffixJson),
                nags: a.nags.iter().map(|n| n.0).collect(),
                comments: a.comments.clone(),
                variations: a
                    .variations
                    .iter()
                    .map(|v| VariationJson {
                        nags: v.annotations.get(0).nags.iter().map(|n| n.0).collect(),
                        comments: v.annotations.get(0).comments.clone(),
                        moves: moves_json(&v.plies, &v.annotations),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Replays the moves of a line from `game`'s position, checking each (and the
/// variations that stand for it, each from the position before it and then taken back),
/// and returns the line's plies and annotations. `path` names the line in messages
/// (`moves`, `moves[3].variations[0].moves`).
fn line_from_json(
    game: &mut Game,
    moves: &[MoveJson],
    path: &str,
    depth: usize,
) -> Result<(Vec<Ply>, Annotations), JsonRecordError> {
    let first = game.ply_count();
    let mut annotations = Annotations::new();
    for (index, m) in moves.iter().enumerate() {
        let ply = game.ply_count() + 1;
        let refuse = |problem: JsonMoveProblem| JsonRecordError::Move {
            at: JsonMovePlace {
                line: path.to_string(),
                index,
                ply,
                in_variation: depth > 0,
            },
            problem,
        };
        if !m.variations.is_empty() && depth == MAX_VARIATION_DEPTH {
            return Err(refuse(JsonMoveProblem::TooDeep));
        }
        for (k, v) in m.variations.iter().enumerate() {
            let branch = game.ply_count();
            let inner = format!("{path}[{index}].variations[{k}].moves");
            let (plies, mut inner_annotations) = line_from_json(game, &v.moves, &inner, depth + 1)?;
            while game.ply_count() > branch {
                game.undo();
            }
            let before = inner_annotations.get_mut(0);
            before.nags = v.nags.iter().map(|&n| Nag(n)).collect();
            before.comments = clean_comments(&v.comments);
            annotations.get_mut(index + 1).variations.push(Variation {
                plies,
                annotations: inner_annotations,
            });
        }
        if let Some(outcome) = game.outcome() {
            return Err(refuse(JsonMoveProblem::AfterEnd {
                action: m.action,
                outcome,
            }));
        }
        let refuse = |problem| Err(refuse(problem));
        let captured = match game.play(m.action) {
            Ok(captured) => captured,
            Err(reason) => {
                return refuse(JsonMoveProblem::Illegal {
                    action: m.action,
                    reason,
                })
            }
        };
        if let Some(cells) = &m.captures {
            let marked = cells.iter().fold(Bitboard::EMPTY, |b, &c| b.with(c));
            if marked != captured || cells.len() != captured.count() as usize {
                return refuse(JsonMoveProblem::Captures {
                    given: cells.clone(),
                    action: m.action,
                    captured,
                });
            }
        }
        let after = annotations.get_mut(index + 1);
        after.suffix = m.suffix.as_ref().map(|s| s.0);
        after.nags = m.nags.iter().map(|&n| Nag(n)).collect();
        after.comments = clean_comments(&m.comments);
    }
    Ok((game.plies()[first..].to_vec(), annotations))
}

/// Comments as the text reader keeps them (see [`printable_comment`]).
fn clean_comments(comments: &[String]) -> Vec<String> {
    comments
        .iter()
        .map(|c| printable_comment(c).into_owned())
        .collect()
}

/// A game record in JSON.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameJson {
    #[serde(default)]
    tags: Tags,
    #[serde(default = "standard")]
    variant: Rules,
    #[serde(default)]
    start: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
    moves: Vec<MoveJson>,
    #[serde(default = "unfinished")]
    result: GameResult,
    #[serde(default)]
    termination: Option<Termination>,
}

fn standard() -> Rules {
    Rules::STANDARD
}

fn unfinished() -> GameResult {
    GameResult::Unfinished
}

/// Tags as a JSON object that keeps its order.
#[derive(Default)]
struct Tags(Vec<(String, String)>);

impl Serialize for Tags {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Tags {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tags, D::Error> {
        struct TagsVisitor;
        impl<'de> de::Visitor<'de> for TagsVisitor {
            type Value = Tags;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of tag names and string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tags, A::Error> {
                let mut tags: Vec<(String, String)> = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, String>()? {
                    // Engine tags are refused later, in their own words.
                    if tags.len() == MAX_TAGS + ENGINE_TAGS.len() {
                        return Err(de::Error::custom(format!(
                            "a game has at most {MAX_TAGS} tags"
                        )));
                    }
                    // Linear in the tags of a game: at most MAX_TAGS + 4 are compared.
                    if tags.iter().any(|(n, _)| *n == name) {
                        return Err(de::Error::custom(format!(
                            "the tag `{name}` is given twice"
                        )));
                    }
                    tags.push((name, value));
                }
                Ok(Tags(tags))
            }
        }
        deserializer.deserialize_map(TagsVisitor)
    }
}

impl Serialize for GameRecord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GameJson {
            tags: Tags(self.tags().to_vec()),
            variant: self.rules,
            start: self.start.as_ref().map(format_position),
            nags: self.annotations.get(0).nags.iter().map(|n| n.0).collect(),
            comments: self.annotations.get(0).comments.clone(),
            moves: moves_json(&self.plies, &self.annotations),
            result: self.result,
            termination: self.termination,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameRecord {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameRecord, D::Error> {
        let json = GameJson::deserialize(deserializer)?;
        record_from_json(json).map_err(de::Error::custom)
    }
}

fn record_from_json(json: GameJson) -> Result<GameRecord, JsonRecordError> {
    let rules = json.variant;
    let mut record = GameRecord::new(rules);
    for (name, value) in &json.tags.0 {
        if ENGINE_TAGS.contains(&name.as_str()) {
            return Err(JsonRecordError::EngineTag { name: name.clone() });
        }
        if record.tags().len() == MAX_TAGS {
            return Err(JsonRecordError::TooManyTags);
        }
        if !record.set_tag(name, value) || record.tag(name).as_deref() != Some(value) {
            return Err(JsonRecordError::InvalidTag { name: name.clone() });
        }
    }
    let start = match &json.start {
        None => Position::start(rules),
        Some(text) => parse_position(text, rules).map_err(JsonRecordError::Start)?,
    };
    let usual = start == Position::start(rules) && start.passes() == 0;
    record.start = (!usual).then_some(start);
    let mut game = Game::from_position(start);
    let (plies, mut annotations) = line_from_json(&mut game, &json.moves, "moves", 0)?;
    let before = annotations.get_mut(0);
    before.nags = json.nags.iter().map(|&n| Nag(n)).collect();
    before.comments = clean_comments(&json.comments);
    check_result(
        game.outcome(),
        game.ply_count(),
        json.result,
        json.termination,
    )
    .map_err(JsonRecordError::Verdict)?;
    record.plies = plies;
    record.annotations = annotations;
    record.result = json.result;
    record.termination = json
        .termination
        .or_else(|| game.outcome().map(|o| o.termination));
    Ok(record)
}

/// A name cut for a message (at most 80 characters).
fn clip(name: &str) -> String {
    match name.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &name[..end]),
        None => name.to_string(),
    }
}

impl GameRecord {
    /// The record as a JSON object (see the module documentation).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads and validates a record from JSON. The error's `Display` is the message
    /// serde_json gives when reading a [`GameRecord`] through serde.
    pub fn from_json(text: &str) -> Result<GameRecord, JsonRecordError> {
        let json: GameJson = serde_json::from_str(text).map_err(JsonRecordError::from)?;
        record_from_json(json)
    }
}

/// One piece on the board in [`PositionJson`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceJson {
    /// The cell, like `f1`.
    pub cell: Cell,
    /// `white` or `black`.
    pub side: String,
    /// `queen` or `guard`.
    pub kind: String,
    /// Whether the piece is captured (it stays on its cell until relocated).
    pub captured: bool,
}

/// Pieces in hand of one side in [`PositionJson`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandJson {
    /// Queens in hand (0 or 1).
    pub queen: u8,
    /// Guards in hand (0 to 6).
    pub guard: u8,
}

/// Pieces in hand of both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InHandJson {
    /// White's pieces in hand.
    pub white: HandJson,
    /// Black's pieces in hand.
    pub black: HandJson,
}

/// Pieces of each side taken off the board for good (`relocation=removed`), in
/// [`PositionJson`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovedJson {
    /// White's pieces removed from play.
    pub white: u8,
    /// Black's pieces removed from play.
    pub black: u8,
}

/// The JSON form of a position: the position string and the rules, plus the same content
/// spelled out for `jq` (`to_move`, `phase`, `pieces` in (file, rank) order, `in_hand`,
/// `removed`, `passes`). On input, `notation` and `rules` are required; every other field is optional
/// and, when present, must agree with the notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionJson {
    /// The position string.
    pub notation: String,
    /// The rule set's canonical name.
    pub rules: Rules,
    /// `white` or `black`.
    pub to_move: String,
    /// `placement`, `relocation` or `normal`: what the side to move must do.
    pub phase: String,
    /// Every piece on the board.
    pub pieces: Vec<PieceJson>,
    /// Pieces still in hand (placement openings).
    pub in_hand: InHandJson,
    /// Pieces each side has lost for good (only under `relocation=removed`; 0 otherwise).
    pub removed: RemovedJson,
    /// Consecutive passes just played (only `ludii` reads it).
    pub passes: u8,
}

fn side_name(side: Side) -> String {
    side.name().to_ascii_lowercase()
}

impl PositionJson {
    /// The JSON form of a position.
    pub fn from_position(position: &Position) -> PositionJson {
        let hand = |side| HandJson {
            queen: position.in_hand(side, PieceKind::Queen),
            guard: position.in_hand(side, PieceKind::Guard),
        };
        PositionJson {
            notation: format_position(position),
            rules: position.rules(),
            to_move: side_name(position.to_move()),
            phase: match position.phase() {
                Phase::Placement => "placement",
                Phase::Relocation => "relocation",
                Phase::Normal => "normal",
            }
            .to_string(),
            pieces: position
                .occupied()
                .filter_map(|cell| {
                    position.piece_at(cell).map(|p| PieceJson {
                        cell,
                        side: side_name(p.side),
                        kind: p.kind.name().to_string(),
                        captured: p.captured,
                    })
                })
                .collect(),
            in_hand: InHandJson {
                white: hand(Side::White),
                black: hand(Side::Black),
            },
            removed: RemovedJson {
                white: position.removed_count(Side::White),
                black: position.removed_count(Side::Black),
            },
            passes: if position.rules().forced_pass() {
                position.passes()
            } else {
                0
            },
        }
    }

    /// The position (parsed from `notation` under `rules`).
    pub fn to_position(&self) -> Result<Position, PositionError> {
        parse_position(&self.notation, self.rules)
    }
}

/// Why a JSON text is not a game record: where, and what was wrong. `Display` gives the
/// message (the same words serde gives when a [`GameRecord`] is read through it).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonRecordError {
    /// The text is not JSON, or not shaped like a record (a missing or unknown field, a
    /// value of the wrong type, a tag given twice).
    Json {
        /// serde_json's words, without the location.
        reason: String,
        /// 1-based line of the problem (0 when serde_json gives none).
        line: usize,
        /// 1-based column of the problem (0 when serde_json gives none).
        column: usize,
    },
    /// A tag that has its own field (`Variant`, `Position`, `Result`, `Termination`).
    EngineTag {
        /// The tag's name.
        name: String,
    },
    /// More than [`MAX_TAGS`] tags.
    TooManyTags,
    /// A tag whose name or value a record cannot hold.
    InvalidTag {
        /// The tag's name.
        name: String,
    },
    /// `start` is not a position string under the record's rules.
    Start(PositionError),
    /// A move refused while the game is replayed.
    Move {
        /// Which move.
        at: JsonMovePlace,
        /// What is wrong with it.
        problem: JsonMoveProblem,
    },
    /// The result or termination does not fit the game.
    Verdict(VerdictError),
}

/// Where a move stands in a JSON record: `moves[3] (ply 4)`,
/// `moves[0].variations[1].moves[2] (ply 3 (in a variation))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonMovePlace {
    /// The path of its list of moves (`moves`, `moves[0].variations[1].moves`).
    pub line: String,
    /// 0-based index in that list.
    pub index: usize,
    /// 1-based ply number in the game.
    pub ply: usize,
    /// Whether the list is a variation.
    pub in_variation: bool,
}

/// What is wrong with a move of a JSON record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonMoveProblem {
    /// Its variations would nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// It comes after the game ended.
    AfterEnd {
        /// The action.
        action: Action,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// The rules refuse it.
    Illegal {
        /// The action.
        action: Action,
        /// Why.
        reason: IllegalAction,
    },
    /// Its `captures` are not what it captures.
    Captures {
        /// The cells given.
        given: Vec<Cell>,
        /// The action.
        action: Action,
        /// The cells it captures.
        captured: Bitboard,
    },
}

/// serde_json's error when reading records through serde (a list of games, say), typed
/// as [`JsonRecordError::Json`]: its words without the location, and the location as
/// numbers. (Check `serde_json::Error::is_eof` first if the text may be incomplete.)
impl From<serde_json::Error> for JsonRecordError {
    fn from(error: serde_json::Error) -> JsonRecordError {
        let (line, column) = (error.line(), error.column());
        let text = error.to_string();
        let location = format!(" at line {line} column {column}");
        let reason = match text.strip_suffix(&location) {
            Some(reason) if line > 0 => reason.to_string(),
            _ => text,
        };
        JsonRecordError::Json {
            reason,
            line,
            column,
        }
    }
}

impl fmt::Display for JsonMovePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let in_variation = if self.in_variation { IN_VARIATION } else { "" };
        write!(
            f,
            "{}[{}] (ply {}{in_variation})",
            self.line, self.index, self.ply
        )
    }
}

impl fmt::Display for JsonMoveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonMoveProblem::TooDeep => {
                write!(f, "variations nest at most {MAX_VARIATION_DEPTH} deep")
            }
            JsonMoveProblem::AfterEnd { action, outcome } => write!(
                f,
                "{action} comes after the end of the game ({} by {})",
                outcome.result, outcome.termination
            ),
            JsonMoveProblem::Illegal { action, reason } => {
                write!(f, "{action} is not legal: {reason}")
            }
            JsonMoveProblem::Captures {
                given,
                action,
                captured,
            } => write!(
                f,
                "captures {:?} do not match the action, which is {}",
                given.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                format_annotated(*action, *captured)
            ),
        }
    }
}

impl fmt::Display for JsonRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonRecordError::Json {
                reason,
                line,
                column,
            } => {
                f.write_str(reason)?;
                if *line > 0 {
                    write!(f, " at line {line} column {column}")?;
                }
                Ok(())
            }
            JsonRecordError::EngineTag { name } => write!(
                f,
                "the tag `{name}` belongs in its own field (variant, start, result, termination)"
            ),
            JsonRecordError::TooManyTags => write!(f, "a game has at most {MAX_TAGS} tags"),
            JsonRecordError::InvalidTag { name } => write!(
                f,
                "the tag `{}` is not valid in a record (names are at most {MAX_TAG_NAME} \
                 letters, digits and `_`; values are one line of at most 8192 bytes)",
                clip(name)
            ),
            JsonRecordError::Start(error) => write!(f, "start: {error}"),
            JsonRecordError::Move { at, problem } => write!(f, "{at}: {problem}"),
            JsonRecordError::Verdict(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for JsonRecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JsonRecordError::Start(error) => Some(error),
            JsonRecordError::Move {
                problem: JsonMoveProblem::Illegal { reason, .. },
                ..
            } => Some(reason),
            JsonRecordError::Verdict(error) => Some(error),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionInput {
    notation: String,
    rules: Rules,
    to_move: Option<String>,
    phase: Option<String>,
    pieces: Option<Vec<PieceJson>>,
    in_hand: Option<InHandJson>,
    removed: Option<RemovedJson>,
    passes: Option<u8>,
}

impl<'de> Deserialize<'de> for PositionJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PositionJson, D::Error> {
        let input = PositionInput::deserialize(deserializer)?;
        let position = parse_position(&input.notation, input.rules)
            .map_err(|e| de::Error::custom(format!("notation: {e}")))?;
        let json = PositionJson::from_position(&position);
        let disagree = |field: &str| {
            de::Error::custom(format!("the field `{field}` disagrees with the notation"))
        };
        if input.to_move.is_some_and(|v| v != json.to_move) {
            return Err(disagree("to_move"));
        }
        if input.phase.is_some_and(|v| v != json.phase) {
            return Err(disagree("phase"));
        }
        if input.pieces.is_some_and(|v| v != json.pieces) {
            return Err(disagree("pieces"));
        }
        if input.in_hand.is_some_and(|v| v != json.in_hand) {
            return Err(disagree("in_hand"));
        }
        if input.removed.is_some_and(|v| v != json.removed) {
            return Err(disagree("removed"));
        }
        if input.passes.is_some_and(|v| v != json.passes) {
            return Err(disagree("passes"));
        }
        Ok(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_json_has_the_documented_shape() {
        let mut game = Game::new(Rules::STANDARD);
        game.play("h9-g9".parse().unwrap()).unwrap();
        let record = GameRecord::from_game(&game, &[("Event", "demo")]);
        let json = record.to_json();
        assert_eq!(
            json,
            r#"{"tags":{"Event":"demo"},"variant":"standard","start":null,"moves":[{"action":"h9-g9","captures":[]}],"result":"*","termination":null}"#
        );
        assert_eq!(GameRecord::from_json(&json).unwrap(), record);
    }

    #[test]
    fn game_json_input_is_validated() {
        let e = GameRecord::from_json(r#"{"moves":[{"action":"f1-f3"}]}"#).unwrap_err();
        let JsonRecordError::Move {
            at,
            problem: JsonMoveProblem::Illegal { action, .. },
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!((at.line.as_str(), at.index, at.ply), ("moves", 0, 1));
        assert_eq!(action.to_string(), "f1-f3");
        assert!(
            e.to_string()
                .starts_with("moves[0] (ply 1): f1-f3 is not legal: f3 is not next to f1"),
            "{e}"
        );
        let e = GameRecord::from_json(r#"{"moves":[],"result":"1-0"}"#).unwrap_err();
        assert!(matches!(e, JsonRecordError::Verdict(_)), "{e:?}");
        assert!(e.to_string().contains("needs [Termination"), "{e}");
        let e = GameRecord::from_json(r#"{"tags":{"Result":"*"},"moves":[]}"#).unwrap_err();
        assert_eq!(
            e,
            JsonRecordError::EngineTag {
                name: "Result".into()
            }
        );
        assert!(e.to_string().contains("belongs in its own field"), "{e}");
    }

    /// `from_json`'s messages are word for word those of reading a record through serde
    /// (what `from_json` returned before its error was typed), location included.
    #[test]
    fn typed_json_errors_render_as_serde_does() {
        let long = "N".repeat(MAX_TAG_NAME + 1);
        for text in [
            "",
            "[1, 2]",
            r#"{"moves":[{"action":"f1-f3"}]}"#,
            "{\n  \"moves\": [{\"action\": \"h9-g9\", \"captures\": [\"a1\"]}]\n}",
            r#"{"moves":[{"action":"h9-g9","variations":[{"moves":[{"action":"f1-f3"}]}]}]}"#,
            r#"{"moves":[],"result":"1-0"}"#,
            r#"{"tags":{"Result":"*"},"moves":[]}"#,
            r#"{"tags":{"A":"1","A":"2"},"moves":[]}"#,
            &format!(r#"{{"tags":{{"{long}":"x"}},"moves":[]}}"#),
            r#"{"start":"1g2G1/G5g w -","moves":[]}"#,
            r#"{"moves":[],"colour":"red"}"#,
            r#"{"moves":[{"action":"h9-g9"}] "#,
        ] {
            let typed = GameRecord::from_json(text).unwrap_err();
            let serde = serde_json::from_str::<GameRecord>(text).unwrap_err();
            assert_eq!(typed.to_string(), serde.to_string(), "{text}");
        }
        let e = GameRecord::from_json("{\n \"moves\": 3}").unwrap_err();
        let JsonRecordError::Json { line, column, .. } = e else {
            panic!("{e:?}")
        };
        assert_eq!((line, column), (2, 11));
    }

    #[test]
    fn json_tags_must_fit_a_record() {
        let long = "N".repeat(MAX_TAG_NAME + 1);
        let e = GameRecord::from_json(&format!(r#"{{"tags":{{"{long}":"x"}},"moves":[]}}"#))
            .unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "the tag `{long}` is not valid in a record (names are at most 64"
            )),
            "{e}"
        );
        let many: Vec<String> = (0..100_000).map(|i| format!(r#""T{i}":"v""#)).collect();
        let e = GameRecord::from_json(&format!(r#"{{"tags":{{{}}},"moves":[]}}"#, many.join(",")))
            .unwrap_err();
        assert!(
            e.to_string().starts_with("a game has at most 256 tags"),
            "{e}"
        );
    }

    #[test]
    fn position_json_round_trips_and_checks_fields() {
        let start = Position::start(Rules::STANDARD);
        let json = serde_json::to_string(&PositionJson::from_position(&start)).unwrap();
        assert!(json.starts_with(
            r#"{"notation":"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w -","rules":"standard","to_move":"white","phase":"normal","pieces":[{"cell":"a2","side":"black","kind":"guard","captured":false},"#
        ));
        let back: PositionJson = serde_json::from_str(&json).unwrap();
        assert_eq!(back.to_position().unwrap(), start);
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let short: PositionJson = serde_json::from_str(
            r#"{"notation":"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w -","rules":"standard"}"#,
        )
        .unwrap();
        assert_eq!(short, back);
        let wrong = serde_json::from_str::<PositionJson>(
            r#"{"notation":"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w -","rules":"standard","to_move":"black"}"#,
        );
        assert!(wrong
            .unwrap_err()
            .to_string()
            .starts_with("the field `to_move` disagrees"));
    }

    #[test]
    fn position_json_counts_the_pieces_removed_from_play() {
        let rules: Rules = "relocation=removed".parse().unwrap();
        let mut game = Game::new(rules);
        for action in ["a5-b6", "b7-c7", "d9-d8"] {
            game.play(action.parse().unwrap()).unwrap();
        }
        let json = serde_json::to_string(&PositionJson::from_position(game.position())).unwrap();
        assert!(
            json.contains(r#""removed":{"white":0,"black":1},"passes":0}"#),
            "{json}"
        );
        let notation = format_position(game.position());
        let claim = |white, black| {
            serde_json::from_str::<PositionJson>(&format!(
                r#"{{"notation":"{notation}","rules":"relocation=removed","removed":{{"white":{white},"black":{black}}}}}"#
            ))
        };
        assert!(claim(0, 1).is_ok());
        assert!(claim(1, 0)
            .unwrap_err()
            .to_string()
            .starts_with("the field `removed` disagrees"));
    }
}
