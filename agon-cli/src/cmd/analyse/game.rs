//! The analysis of one game: every position searched once, in order, by one alpha-beta
//! agent (so the result depends only on the game and the agent's settings), and every ply
//! judged by the scores before and after it.

use super::judgement::{loss, side_name, Class, Score};
use crate::cmd::engine::annotate;
use agon_core::agents::{AlphaBetaAgent, AlphaBetaConfig};
use agon_core::{Action, Game, Position, Side};
use agon_notation::format_annotated;
use serde::Serialize;

/// One of the best lines of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// Its score (White's view).
    pub score: Score,
    /// Its actions, with capture annotations.
    pub pv: Vec<String>,
}

/// The analysis of one ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlyAnalysis {
    /// 1-based ply number.
    pub ply: usize,
    /// The side whose turn it was.
    #[serde(serialize_with = "side_name")]
    pub side: Side,
    /// The side that chose the action (differs under `queen-relocated-by=opponent`).
    #[serde(serialize_with = "side_name")]
    pub decider: Side,
    /// The action played (with its capture annotation).
    pub action: String,
    /// The engine's score of the position before the ply (of its best action).
    pub before: Score,
    /// The engine's score of the position after the ply.
    pub after: Score,
    /// The depth of the search behind `after`, counted from the position before the ply
    /// (0 when the ply ended the game).
    pub depth: u32,
    /// The best lines of the position before the ply, best first (`--multipv`; empty when
    /// only one action was legal).
    pub best: Vec<Line>,
    /// Whether the action played is the engine's best.
    pub is_best: bool,
    /// What the decider lost by it (evaluation units, clipped; see `judgement`).
    pub loss: i32,
    /// How bad that is, if bad at all.
    pub class: Option<Class>,
    /// The class's annotation glyph (`$6`, `$2`, `$4` in records).
    pub nag: Option<u8>,
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Plies this side decided.
    pub plies: usize,
    /// Its average loss per decided ply (evaluation units; 0 with no plies).
    pub average_loss: f64,
    /// Plies classified as inaccuracies.
    pub inaccuracies: usize,
    /// ... as mistakes.
    pub mistakes: usize,
    /// ... as blunders.
    pub blunders: usize,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// Every ply in order.
    pub plies: Vec<PlyAnalysis>,
    /// White's totals.
    pub white: SideSummary,
    /// Black's totals.
    pub black: SideSummary,
}

/// Analyses the game that starts at `start` with `actions` (legal, as a validated record
/// guarantees) with new agents of `config`.
///
/// The score before a ply is the search of its position; the score after it is the score
/// of the action played in that same search when it is one of the lines searched exactly
/// (the best one above all), else the search of the next position one ply shallower, so
/// that both come from searches of the same depth (a search's score swings with the parity
/// of its depth, which would otherwise show up as losses).
pub fn analyse(start: Position, actions: &[Action], config: &AlphaBetaConfig) -> GameAnalysis {
    let mut agent = AlphaBetaAgent::new(config.clone());
    // The searches of the positions after actions the search did not score exactly.
    let mut replies = config.depth.filter(|&d| d > 1).map(|d| {
        AlphaBetaAgent::new(AlphaBetaConfig {
            depth: Some(d - 1),
            multipv: 1,
            ..config.clone()
        })
    });
    let mut game = Game::from_position(start);
    let mut plies = Vec::with_capacity(actions.len());
    for (k, &action) in actions.iter().enumerate() {
        let position = *game.position();
        let decider = position.decider();
        // A single legal action is not searched: it loses nothing.
        let report = (position.legal().count() > 1).then(|| agent.search(&game));
        let captured = game.play_unchecked(action);
        let exact = report
            .as_ref()
            .and_then(|r| r.lines.iter().find(|l| l.pv.first() == Some(&action)))
            .map(|line| Score::of_search(line.score, line.forced_end(), decider));
        let (after, depth) = match (game.outcome(), exact) {
            (Some(outcome), _) => (Score::of_result(outcome.result.winner()), 0),
            (None, Some(score)) => (score, report.as_ref().map_or(0, |r| r.depth)),
            (None, None) => {
                let (searcher, deeper) = match replies.as_mut() {
                    Some(replies) => (replies, 1),
                    None => (&mut agent, 0),
                };
                let reply = searcher.search(&game);
                let score =
                    Score::of_search(reply.score, reply.forced_end(), game.position().decider());
                (one_ply_earlier(score), reply.depth + deeper)
            }
        };
        let (before, best, is_best) = match &report {
            Some(report) => (
                Score::of_search(report.score, report.forced_end(), decider),
                report
                    .lines
                    .iter()
                    .map(|line| Line {
                        score: Score::of_search(line.score, line.forced_end(), decider),
                        pv: annotate(&position, &line.pv),
                    })
                    .collect(),
                report.action == action,
            ),
            None => (after, Vec::new(), true),
        };
        let lost = if is_best {
            0
        } else {
            loss(before, after, decider)
        };
        plies.push(PlyAnalysis {
            ply: k + 1,
            side: position.to_move(),
            decider,
            action: format_annotated(action, captured),
            before,
            after,
            depth,
            best,
            is_best,
            loss: lost,
            class: Class::of_loss(lost),
            nag: Class::of_loss(lost).map(Class::nag),
        });
    }
    GameAnalysis {
        white: summary(&plies, Side::White),
        black: summary(&plies, Side::Black),
        plies,
    }
}

/// A score seen one ply earlier: a forced end is one ply further away.
fn one_ply_earlier(score: Score) -> Score {
    match score {
        Score::Forced { winner, plies } => Score::Forced {
            winner,
            plies: plies + 1,
        },
        units => units,
    }
}

/// A side's totals over the plies it decided.
fn summary(plies: &[PlyAnalysis], side: Side) -> SideSummary {
    let mine: Vec<&PlyAnalysis> = plies.iter().filter(|p| p.decider == side).collect();
    let count = |class| mine.iter().filter(|p| p.class == Some(class)).count();
    let total: i64 = mine.iter().map(|p| i64::from(p.loss)).sum();
    SideSummary {
        plies: mine.len(),
        average_loss: if mine.is_empty() {
            0.0
        } else {
            total as f64 / mine.len() as f64
        },
        inaccuracies: count(Class::Inaccuracy),
        mistakes: count(Class::Mistake),
        blunders: count(Class::Blunder),
    }
}
