//! The bridge to agon-notation for single positions and games: position strings given on
//! the command line, records as written (tags, actions and comments, unchecked: what
//! `agon serve` shows of an invalid game), and records written atomically.

use crate::error::{describe_io, CliError};
use agon_core::{Game, Outcome, Position, Rules};
use agon_notation::{AnnotatedAction, Comment, GameRecord, Location, Reader, Visitor};
use std::io::Read;
use std::path::Path;

/// Parses a position string under a rule set.
pub fn parse_position(text: &str, rules: Rules) -> Result<Position, CliError> {
    agon_notation::parse_position(text.trim(), rules).map_err(|e| {
        CliError::with_hint(
            format!("--position is not a position string: {e}"),
            format!(
                "the standard start is `{}`; `agon show` prints the string of any position",
                agon_notation::START_POSITION
            ),
        )
    })
}

/// One game of a record file as written: its tags and actions, not checked.
#[derive(Clone, Debug, Default)]
pub struct GameSyntax {
    /// 1-based index of the game in the file.
    pub index: u64,
    /// Every tag, in the file's order.
    pub tags: Vec<(String, String)>,
    /// The actions (at most the limit asked for).
    pub actions: Vec<AnnotatedAction>,
    /// The comments, each with the number of actions before it (as the validating reader
    /// gives them).
    pub comments: Vec<Comment>,
}

impl GameSyntax {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Collects the syntax of every game, or of one.
struct SyntaxCollector {
    /// Only this game (1-based), or every game.
    wanted: Option<u64>,
    /// The game being read (1-based).
    game: u64,
    games: Vec<GameSyntax>,
    /// Most actions kept per game.
    limit: usize,
    /// Actions read in the game being read (kept or not).
    seen: u64,
    /// How deep in variations the reader is (0: the game's own line, whose actions and
    /// comments alone are collected).
    depth: usize,
}

impl SyntaxCollector {
    fn current(&mut self) -> Option<&mut GameSyntax> {
        if self.depth > 0 || self.wanted.is_some_and(|w| w != self.game) {
            return None;
        }
        self.games.last_mut()
    }
}

impl Visitor for SyntaxCollector {
    fn begin_game(&mut self, _at: Location) {
        self.game += 1;
        self.seen = 0;
        self.depth = 0;
        if !matches!(self.wanted, Some(w) if w != self.game) {
            self.games.push(GameSyntax {
                index: self.game,
                ..GameSyntax::default()
            });
        }
    }
    fn tag(
        &mut self,
        name: &str,
        value: &str,
        _at: Location,
        _value_at: Location,
    ) -> agon_notation::Flow {
        if let Some(game) = self.current() {
            game.tags.push((name.to_string(), value.to_string()));
        }
        agon_notation::Flow::Continue
    }
    fn comment(&mut self, text: &str, _at: Location) -> agon_notation::Flow {
        // The reader passes only the comments of a game that has begun, as to the
        // validating reader.
        let ply = self.seen;
        if let Some(game) = self.current() {
            game.comments.push(Comment {
                ply,
                text: text.trim().to_string(),
            });
        }
        agon_notation::Flow::Continue
    }
    fn begin_variation(&mut self, _at: Location) -> agon_notation::Flow {
        self.depth += 1;
        agon_notation::Flow::Continue
    }
    fn end_variation(&mut self, _at: Location) -> agon_notation::Flow {
        self.depth = self.depth.saturating_sub(1);
        agon_notation::Flow::Continue
    }
    fn action(&mut self, action: AnnotatedAction, _at: Location) -> agon_notation::Flow {
        if self.depth > 0 {
            return agon_notation::Flow::Continue;
        }
        self.seen += 1;
        let limit = self.limit;
        if let Some(game) = self.current() {
            if game.actions.len() < limit {
                game.actions.push(action);
            }
        }
        agon_notation::Flow::Continue
    }
}

/// Reads the syntax of every game of an input (`wanted` = `None`) or of one game, keeping
/// at most `limit` actions per game.
pub fn read_syntax(
    input: &mut dyn Read,
    wanted: Option<usize>,
    limit: usize,
) -> Result<Vec<GameSyntax>, CliError> {
    let mut reader = Reader::new(input);
    let mut collector = SyntaxCollector {
        wanted: wanted.map(|w| w as u64),
        game: 0,
        games: Vec::new(),
        limit,
        seen: 0,
        depth: 0,
    };
    loop {
        if wanted.is_some_and(|w| collector.game >= w as u64) {
            break;
        }
        match reader.read_game(&mut collector) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(CliError::io("cannot read the record", e)),
        }
    }
    Ok(collector.games)
}

/// Writes a game record (tags, movetext, result) to a file, atomically. `ended` is a result
/// the rules did not produce (a resignation).
pub fn save_game(
    path: &Path,
    game: &Game,
    ended: Option<Outcome>,
    tags: &[(String, String)],
) -> Result<(), CliError> {
    let tags: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut record = GameRecord::from_game(game, &tags);
    if let Some(outcome) = ended {
        record.result = outcome.result;
        record.termination = Some(outcome.termination);
    }
    agon_files::write_file(path, record.to_string().as_bytes()).map_err(|e| {
        CliError::new(format!(
            "cannot save {}: {}",
            path.display(),
            describe_io(&e)
        ))
    })
}
