//! Opening suites (`--openings FILE`): every variant and every pairing starts its pairs
//! from the same fixed openings, as cutechess and fastchess do with opening books.
//!
//! A suite file holds either game records (each game's actions are one opening: an action
//! prefix played from the rule set's start) or position strings, one per line (`#` starts
//! a comment line). The suite is stored whole in the experiment (and so in its manifest,
//! `experiment.json`), so a `--resume` plays the same openings even if the file changed,
//! and a resume that names another suite is refused.
//!
//! Pair `p` of every block (the `p`-th pair of games of each variant and pairing) plays
//! opening `order[(start + p) mod n]`, where `order` is the file's order (`sequential`) or
//! a permutation drawn from the experiment's seed (`random`); both games of the pair play
//! it, colours swapped. The opening is thus a function of (suite, order, start, seed, p)
//! only: the same at any thread count, in any shard.

use crate::error::{Error, Result};
use agon_core::{Action, Game, IllegalAction, ParseActionError, Rng, Rules};
use agon_notation::{format_position, parse_position, PositionError, Records};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// The most openings a suite holds (a suite lives in the manifest).
pub const MAX_OPENINGS: usize = 100_000;
/// The largest suite file read.
pub const MAX_SUITE_BYTES: u64 = 64 << 20;
/// Salt of the permutation of `random` order.
const ORDER_SALT: u64 = 0x6f70_656e_696e_6773;

/// One opening: actions from the rule set's start, or a start position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opening {
    /// Actions from the start, separated by spaces (`h9-g9 b7-c7`).
    Moves(String),
    /// A position string.
    Position(String),
}

/// Why an opening cannot start a game under a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpeningError {
    /// A word of the actions is not an action.
    NotAnAction {
        /// The word.
        token: String,
        /// Why it is not an action.
        error: ParseActionError,
    },
    /// An action the rules do not allow where the opening plays it.
    Illegal {
        /// The action.
        action: Action,
        /// agon-core's reason.
        reason: IllegalAction,
    },
    /// The position string is not a position under the rule set.
    Position(PositionError),
    /// The opening ends the game.
    GameOver,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::NotAnAction { token, error } => {
                write!(f, "`{token}` is not an action: {error}")
            }
            OpeningError::Illegal { reason, .. } => reason.fmt(f),
            OpeningError::Position(error) => error.fmt(f),
            OpeningError::GameOver => f.write_str("the game is over there"),
        }
    }
}

impl std::error::Error for OpeningError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpeningError::NotAnAction { error, .. } => Some(error),
            OpeningError::Illegal { reason, .. } => Some(reason),
            OpeningError::Position(error) => Some(error),
            OpeningError::GameOver => None,
        }
    }
}

impl Opening {
    /// The game this opening starts, under `rules`, or why it cannot start one.
    pub fn game(&self, rules: Rules) -> std::result::Result<Game, OpeningError> {
        let game = match self {
            Opening::Moves(moves) => {
                let mut game = Game::new(rules);
                for token in moves.split_whitespace() {
                    let action: Action =
                        token.parse().map_err(|error| OpeningError::NotAnAction {
                            token: token.to_string(),
                            error,
                        })?;
                    game.play(action)
                        .map_err(|reason| OpeningError::Illegal { action, reason })?;
                }
                game
            }
            Opening::Position(text) => {
                Game::from_position(parse_position(text, rules).map_err(OpeningError::Position)?)
            }
        };
        if game.is_over() {
            return Err(OpeningError::GameOver);
        }
        Ok(game)
    }

    /// A short label for reports: the actions, or the position string.
    pub fn label(&self) -> &str {
        match self {
            Opening::Moves(moves) if moves.is_empty() => "(start)",
            Opening::Moves(moves) | Opening::Position(moves) => moves,
        }
    }
}

/// In which order pairs take the openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OpeningOrder {
    /// The file's order.
    #[default]
    Sequential,
    /// A permutation drawn from the experiment's seed.
    Random,
}

impl FromStr for OpeningOrder {
    type Err = String;
    fn from_str(text: &str) -> std::result::Result<OpeningOrder, String> {
        match text {
            "sequential" => Ok(OpeningOrder::Sequential),
            "random" => Ok(OpeningOrder::Random),
            _ => Err(format!(
                "`{text}` is not an openings order; expected sequential or random"
            )),
        }
    }
}

impl fmt::Display for OpeningOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        })
    }
}

/// A suite with how it is used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningSuite {
    /// The file it was read from (for people; the openings below are what counts).
    pub file: String,
    /// In which order pairs take the openings.
    pub order: OpeningOrder,
    /// The opening of a block's first pair (0-based, in `order`).
    pub start: u64,
    /// The openings.
    pub openings: Vec<Opening>,
}

impl OpeningSuite {
    /// Reads a suite file (records or position lines; see the module documentation).
    pub fn load(path: &Path, order: OpeningOrder, start: u64) -> Result<OpeningSuite> {
        let size = std::fs::metadata(path)
            .map_err(|e| Error::io(path, e))?
            .len();
        if size > MAX_SUITE_BYTES {
            return Err(Error::Settings(format!(
                "{}: an openings file is at most {} MiB",
                path.display(),
                MAX_SUITE_BYTES >> 20
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let name = path.display().to_string();
        let openings = parse_suite(&text, &name)?;
        Ok(OpeningSuite {
            file: name,
            order,
            start,
            openings,
        })
    }

    /// Checks that every opening starts a game that is not over under every rule set.
    ///
    /// A suite that some rule set cannot play is refused whole, never played in part:
    /// every rule set must start from the same openings, or their comparison (and a
    /// switch's effect) would mix the rules with the openings. The error counts the
    /// (opening, rule set) combinations that fail, names the first few with the reason,
    /// and says how to fix the suite or the family.
    pub fn check(&self, variants: &[String]) -> Result<()> {
        const SHOWN: usize = 5;
        let mut failures = Vec::new();
        let mut failed_openings = vec![false; self.openings.len()];
        let mut failed_variants = 0;
        for variant in variants {
            let rules: Rules = variant
                .parse()
                .map_err(|e: agon_core::ParseRulesError| Error::Settings(e.to_string()))?;
            let before = failures.len();
            for (k, opening) in self.openings.iter().enumerate() {
                if let Err(why) = opening.game(rules) {
                    failed_openings[k] = true;
                    failures.push(format!(
                        "opening {} ({}) cannot start a game under `{variant}`: {why}",
                        k + 1,
                        opening.label()
                    ));
                }
            }
            failed_variants += usize::from(failures.len() > before);
        }
        if failures.is_empty() {
            return Ok(());
        }
        let openings = failed_openings.iter().filter(|&&f| f).count();
        let mut message = format!(
            "{}: {} of its {} opening(s) cannot be played under {} of the {} rule set(s); \
             every rule set plays every opening, so the suite is refused whole:",
            self.file,
            openings,
            self.openings.len(),
            failed_variants,
            variants.len()
        );
        for failure in failures.iter().take(SHOWN) {
            message.push_str("\n  ");
            message.push_str(failure);
        }
        if failures.len() > SHOWN {
            message.push_str(&format!("\n  ... and {} more", failures.len() - SHOWN));
        }
        message.push_str(
            "\nRemove those openings from the suite, or leave out the rule sets that refuse \
             them",
        );
        Err(Error::Settings(message))
    }

    /// The index (in the file) of the opening of pair `pair` of a block.
    pub fn index_for_pair(&self, seed: u64, pair: u64) -> usize {
        let n = self.openings.len() as u64;
        let rank = (self.start + pair) % n;
        match self.order {
            OpeningOrder::Sequential => rank as usize,
            OpeningOrder::Random => permutation(seed, self.openings.len())[rank as usize],
        }
    }
}

/// A permutation of `0..n` drawn from `seed` (Fisher-Yates).
fn permutation(seed: u64, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(seed ^ ORDER_SALT);
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    order
}

/// Whether a suite file holds records (its first line that is not blank or a comment is a
/// tag or movetext starting with a move number) rather than position strings.
fn holds_records(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| {
            // A tag, or movetext opening with a move number (`1.`); a position string
            // starts with a rank of cells (`1/...`) or a piece, never `N.`.
            let digits = l.bytes().take_while(u8::is_ascii_digit).count();
            l.starts_with('[') || (digits > 0 && l[digits..].starts_with('.'))
        })
}

/// The openings of a suite file's text.
pub fn parse_suite(text: &str, name: &str) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    if holds_records(text) {
        for item in Records::new(text.as_bytes()).with_file_name(name.to_string()) {
            let valid = item.map_err(|e| Error::Settings(format!("openings: {e}")))?;
            let record = &valid.record;
            openings.push(match &record.start {
                // A record from another start: the opening is where it ends.
                Some(_) => Opening::Position(format_position(valid.game.position())),
                None => Opening::Moves(
                    record
                        .plies
                        .iter()
                        .map(|p| p.action.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
            });
            if openings.len() > MAX_OPENINGS {
                break;
            }
        }
    } else {
        for line in text.lines() {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with('#') {
                openings.push(Opening::Position(line.to_string()));
            }
        }
    }
    if openings.is_empty() {
        return Err(Error::Settings(format!(
            "{name}: the openings file holds no opening"
        )));
    }
    if openings.len() > MAX_OPENINGS {
        return Err(Error::Settings(format!(
            "{name}: more than {MAX_OPENINGS} openings"
        )));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_position_lines_are_read() {
        let records = "[Event \"a\"]\n\n1. h9-g9 b7-c7 *\n\n[Event \"b\"]\n\n1. h9-g9 *\n";
        assert_eq!(
            parse_suite(records, "s.agn").unwrap(),
            [
                Opening::Moves("h9-g9 b7-c7".into()),
                Opening::Moves("h9-g9".into())
            ]
        );
        let start = format_position(Game::new(Rules::STANDARD).position());
        let lines = format!("# two positions\n{start}\n\n{start}\n");
        assert_eq!(parse_suite(&lines, "s.txt").unwrap().len(), 2);
        assert!(parse_suite("# nothing\n", "e.txt").is_err());
    }

    /// Each refusal carries its cause as data (and as its `source`), rendered as before.
    #[test]
    fn an_opening_that_starts_no_game_says_why() {
        use std::error::Error;
        let moves = |text: &str| {
            Opening::Moves(text.into())
                .game(Rules::STANDARD)
                .unwrap_err()
        };
        let e = moves("h9-g9 z1");
        let OpeningError::NotAnAction { token, error } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(token, "z1");
        assert_eq!(e.to_string(), format!("`z1` is not an action: {error}"));
        assert!(e.source().is_some());
        let e = moves("f1-f3");
        let OpeningError::Illegal { action, reason } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(action.to_string(), "f1-f3");
        assert_eq!(e.to_string(), reason.to_string());
        let e = Opening::Position("x".into())
            .game(Rules::STANDARD)
            .unwrap_err();
        let OpeningError::Position(error) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(e.to_string(), error.to_string());
        assert_eq!(e.source().unwrap().to_string(), error.to_string());
    }

    #[test]
    fn an_opening_illegal_under_a_variant_is_refused_with_its_number() {
        let suite = OpeningSuite {
            file: "s.agn".into(),
            order: OpeningOrder::Sequential,
            start: 0,
            openings: vec![
                Opening::Moves("h9-g9".into()),
                Opening::Moves("h9-g8".into()),
            ],
        };
        let error = suite.check(&["standard".into()]).unwrap_err().to_string();
        assert!(error.contains("opening 2 (h9-g8)"), "{error}");
        // Every failure is counted; opening 1 is legal under both rule sets.
        let error = suite
            .check(&["standard".into(), "capture=ring".into()])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("1 of its 2 opening(s) cannot be played under 2 of the 2 rule set(s)"),
            "{error}"
        );
        assert!(error.contains("under `capture=ring`"), "{error}");
        assert!(!error.contains("opening 1 "), "{error}");
    }

    #[test]
    fn orders_visit_every_opening_once_per_cycle() {
        let mut suite = OpeningSuite {
            file: "s".into(),
            order: OpeningOrder::Sequential,
            start: 2,
            openings: (0..5).map(|k| Opening::Moves(k.to_string())).collect(),
        };
        let firsts: Vec<usize> = (0..5).map(|p| suite.index_for_pair(1, p)).collect();
        assert_eq!(firsts, [2, 3, 4, 0, 1]);
        suite.order = OpeningOrder::Random;
        let mut seen: Vec<usize> = (0..5).map(|p| suite.index_for_pair(9, p)).collect();
        assert_eq!(suite.index_for_pair(9, 5), seen[0]);
        seen.sort();
        assert_eq!(seen, [0, 1, 2, 3, 4]);
    }
}
