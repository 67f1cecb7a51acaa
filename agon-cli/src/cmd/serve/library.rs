//! The records the server holds: the files named on the command line and the texts opened
//! from the page (an upload or pasted text). Every game is checked by agon-notation's
//! validating reader and reported by the same code as `agon validate`; an invalid game is
//! kept with its verdict and the plies before its first defect, so that it can be replayed
//! up to there.

use super::bridge::{self, PlyView, StateView};
use super::error::{ApiError, ApiResult};
use crate::cmd::validate::{report, GameReport};
use crate::records::{read_syntax, GameSyntax};
use agon_core::Game;
use agon_notation::{format_annotated, format_position, Comment, GameRecord, Records};
use serde::Serialize;
use std::sync::{Arc, RwLock};

/// The most games the server holds; files and texts beyond it are refused.
pub const MAX_GAMES: usize = 100_000;

/// The games the server holds, in the order they were opened.
#[derive(Default)]
pub struct Library {
    games: RwLock<Vec<Arc<Entry>>>,
}

/// One game: its summary for the list and what is needed to replay it.
struct Entry {
    summary: Summary,
    detail: Detail,
}

enum Detail {
    /// A valid game: its canonical record, the game the reader replayed and the record's
    /// comments.
    Valid(Box<(GameRecord, Game, Vec<Comment>)>),
    /// An invalid game.
    Invalid(Box<InvalidGame>),
}

/// An invalid game: `agon validate`'s report, and the game up to its first defect.
struct InvalidGame {
    report: GameReport,
    prefix: Option<Game>,
    /// The failing action as written, if the defect is at an action.
    token: Option<String>,
    /// The record's comments.
    comments: Vec<Comment>,
}

/// A game in the list.
#[derive(Clone, Serialize)]
pub struct Summary {
    /// The game's id in this server (its place in the list).
    pub id: usize,
    /// The file (or the name given to an opened text).
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The tags other than the engine's, in the record's order.
    pub tags: Vec<(String, String)>,
    /// The rule set's name (as written, for an invalid game).
    pub rules: String,
    /// The result token (as written, for an invalid game).
    pub result: String,
    /// Plies that can be replayed (all of them, or those before the first defect).
    pub plies: usize,
    /// Whether `agon validate` accepts the game.
    pub valid: bool,
    /// `agon validate`'s line for an invalid game.
    pub error: Option<String>,
}

/// An invalid game's verdict, as `agon validate --json` reports it, with its text line.
#[derive(Serialize)]
pub struct Verdict {
    /// The ply at fault (0: the defect is in the tags or the result).
    pub ply: u64,
    /// The action as written at that ply, if the defect is at an action.
    pub token: Option<String>,
    /// The line `agon validate` prints.
    pub text: String,
    /// The object `agon validate --json` prints.
    pub report: serde_json::Value,
}

/// A game to replay.
#[derive(Serialize)]
pub struct GameView {
    /// The list entry.
    pub summary: Summary,
    /// The start position's string when it is not the rule set's usual start.
    pub start: Option<String>,
    /// The plies that can be replayed, each with the comments that follow it.
    pub plies: Vec<PlyView>,
    /// The comments before the first action, joined by a space.
    pub comment: Option<String>,
    /// The position after each of them: `states[k]` follows `k` plies.
    pub states: Vec<StateView>,
    /// The canonical record (valid games only).
    pub record: Option<String>,
    /// Why the game is invalid.
    pub verdict: Option<Verdict>,
}

impl Library {
    /// Reads and checks every game of a text and adds them to the list; returns their
    /// summaries. `name` names the text in verdicts, as a file name does.
    pub fn open(&self, name: &str, bytes: &[u8]) -> ApiResult<Vec<Summary>> {
        let first_id = self.len();
        let mut entries = Vec::new();
        let mut syntax: Option<Vec<GameSyntax>> = None;
        let mut records = Records::new(bytes).with_file_name(name);
        while let Some(item) = records.next() {
            if first_id + entries.len() >= MAX_GAMES {
                return Err(ApiError::invalid(format!(
                    "{name}: the server holds at most {MAX_GAMES} games; start `agon serve` with fewer records"
                )));
            }
            let id = 0; // set when the entry joins the list
            let entry = match item {
                Ok(valid) => {
                    let (record, game) = (valid.record, valid.game);
                    let comments = record.comments();
                    Entry {
                        summary: Summary {
                            id,
                            file: name.to_string(),
                            game: valid.index,
                            tags: record.tags().to_vec(),
                            rules: record.rules.to_string(),
                            result: record.result.to_string(),
                            plies: record.plies.len(),
                            valid: true,
                            error: None,
                        },
                        detail: Detail::Valid(Box::new((record, game, comments))),
                    }
                }
                Err(error) => {
                    // The syntax of every game, read once, only for files with a defect.
                    if syntax.is_none() {
                        syntax = Some(
                            read_syntax(&mut &bytes[..], None, usize::MAX).unwrap_or_default(),
                        );
                    }
                    let game = syntax
                        .as_deref()
                        .and_then(|all| all.iter().find(|g| g.index == error.game));
                    let bad = error.ply as usize;
                    let prefix = records.take_replayed();
                    let token = game
                        .filter(|_| bad > 0)
                        .and_then(|g| g.actions.get(bad - 1))
                        .map(|a| {
                            if a.annotated {
                                format_annotated(a.action, a.marked)
                            } else {
                                a.action.to_string()
                            }
                        });
                    let tag = |name: &str| game.and_then(|g| g.tag(name)).map(str::to_string);
                    let tags = game
                        .map(|g| {
                            g.tags
                                .iter()
                                .filter(|(n, _)| !agon_notation::ENGINE_TAGS.contains(&n.as_str()))
                                .cloned()
                                .collect()
                        })
                        .unwrap_or_default();
                    let index = error.game;
                    let report = report(name, Err(&error));
                    Entry {
                        summary: Summary {
                            id,
                            file: name.to_string(),
                            game: index,
                            tags,
                            rules: tag("Variant").unwrap_or_else(|| "standard".into()),
                            result: tag("Result").unwrap_or_else(|| "*".into()),
                            plies: prefix.as_ref().map_or(0, Game::ply_count),
                            valid: false,
                            error: Some(report.text().to_string()),
                        },
                        detail: Detail::Invalid(Box::new(InvalidGame {
                            report,
                            prefix,
                            token,
                            comments: game.map(|g| g.comments.clone()).unwrap_or_default(),
                        })),
                    }
                }
            };
            entries.push(entry);
        }
        let mut games = self.games.write().unwrap_or_else(|e| e.into_inner());
        // Ids are places in the list (another text may have been opened meanwhile).
        let mut summaries = Vec::with_capacity(entries.len());
        for mut entry in entries {
            entry.summary.id = games.len();
            summaries.push(entry.summary.clone());
            games.push(Arc::new(entry));
        }
        Ok(summaries)
    }

    /// How many games are held.
    pub fn len(&self) -> usize {
        self.games.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Every game's summary.
    pub fn summaries(&self) -> Vec<Summary> {
        let games = self.games.read().unwrap_or_else(|e| e.into_inner());
        games.iter().map(|e| e.summary.clone()).collect()
    }

    /// A game to replay.
    pub fn game(&self, id: usize) -> ApiResult<GameView> {
        let entry = {
            let games = self.games.read().unwrap_or_else(|e| e.into_inner());
            games.get(id).cloned()
        };
        let entry = entry.ok_or_else(|| {
            ApiError::not_found(format!(
                "there is no game {id}; the list has {} game(s), numbered from 0",
                self.len()
            ))
        })?;
        Ok(view(&entry))
    }
}

fn view(entry: &Entry) -> GameView {
    match &entry.detail {
        Detail::Valid(valid) => {
            let (record, game, comments) = valid.as_ref();
            let mut plies = bridge::plies(game);
            let comment = bridge::attach_comments(&mut plies, comments);
            GameView {
                summary: entry.summary.clone(),
                start: record.start.as_ref().map(format_position),
                plies,
                comment,
                states: bridge::states(game),
                record: Some(record.to_string()),
                verdict: None,
            }
        }
        Detail::Invalid(invalid) => {
            let InvalidGame {
                report,
                prefix,
                token,
                comments,
            } = invalid.as_ref();
            let game = prefix.clone();
            let mut plies = game.as_ref().map(bridge::plies).unwrap_or_default();
            let comment = bridge::attach_comments(&mut plies, comments);
            let usual =
                !matches!(&game, Some(g) if *g.start() != agon_core::Position::start(g.rules()));
            GameView {
                summary: entry.summary.clone(),
                start: game
                    .as_ref()
                    .filter(|_| !usual)
                    .map(|g| format_position(g.start())),
                plies,
                comment,
                states: game.as_ref().map(bridge::states).unwrap_or_default(),
                record: None,
                verdict: Some(Verdict {
                    ply: report.error_ply().unwrap_or(0),
                    token: token.clone(),
                    text: report.text().to_string(),
                    report: serde_json::to_value(report).unwrap_or_default(),
                }),
            }
        }
    }
}
