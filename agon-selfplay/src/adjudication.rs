//! Adjudication: ending dead or lost games early from the players' own search scores, as
//! the chess tester cutechess does (`-draw` and `-resign`), so that an experiment does not
//! spend its CPU on positions nobody is going to win.
//!
//! - `--draw-adjudication movenumber=N,movecount=C,score=S`: once `N` full moves (`2N`
//!   plies, opening included) have been played, a game in which every one of the last `2C`
//!   choices (about `C` moves of each side) was scored within `±S` by the side that made
//!   it is a draw. A capture, or a choice without a score, starts the count again.
//! - `--resign-adjudication movecount=C,score=S`: a side whose last `C` choices it scored
//!   at `-S` or below loses.
//!
//! Scores are what the agents report ([`agon_core::agents::Agent::last_score`]: the
//! evaluation's units, from the chooser's point of view). A side whose agent reports no
//! score never resigns and stops every draw count, so games of agents without scores
//! (`random`, `greedy`) are never adjudicated. Adjudicated games end with the termination
//! `adjudication` and are counted apart from draws by the rules and from the ply limit.

use agon_core::{GameResult, Side};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// `--draw-adjudication movenumber=N,movecount=C,score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Full moves (plies / 2) that must have been played first.
    pub move_number: u32,
    /// Consecutive moves of each side (so `2C` choices) scored within `±score`.
    pub move_count: u32,
    /// The largest score, in evaluation units, that counts as level.
    pub score: u32,
}

/// `--resign-adjudication movecount=C,score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive choices of one side scored at `-score` or below.
    pub move_count: u32,
    /// The loss, in evaluation units, at which a side counts as lost.
    pub score: u32,
}

/// The adjudication rules of an experiment (either may be absent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Draw adjudication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
}

impl Adjudication {
    /// Whether no rule is set.
    pub fn is_empty(&self) -> bool {
        self.draw.is_none() && self.resign.is_none()
    }
}

/// Reads `key=value,...` with the keys in `keys` (each required, at most once), as whole
/// numbers; `option` names the command-line option in messages.
fn numbers<const K: usize>(
    text: &str,
    option: &str,
    keys: [&str; K],
    example: &str,
) -> Result<[u32; K], String> {
    let mut values = [None; K];
    for part in text.split(',') {
        let (key, value) = part.split_once('=').ok_or_else(|| {
            format!("`{part}` in {option} is not KEY=VALUE; expected e.g. {example}")
        })?;
        let key = key.trim();
        let slot = keys.iter().position(|k| *k == key).ok_or_else(|| {
            format!(
                "{option} has no `{key}`; the keys are {} (e.g. {example})",
                keys.join(", ")
            )
        })?;
        if values[slot].is_some() {
            return Err(format!("{option}: `{key}` is given twice"));
        }
        let value: u32 = value.trim().parse().map_err(|_| {
            format!(
                "{option} {key}: `{}` is not a whole number from 0 to {}",
                value.trim(),
                u32::MAX
            )
        })?;
        values[slot] = Some(value);
    }
    let mut out = [0; K];
    for (k, value) in values.into_iter().enumerate() {
        out[k] = value.ok_or_else(|| format!("{option} needs {} (e.g. {example})", keys[k]))?;
    }
    Ok(out)
}

const DRAW_EXAMPLE: &str = "movenumber=40,movecount=8,score=20";
const RESIGN_EXAMPLE: &str = "movecount=4,score=1000";

impl FromStr for DrawRule {
    type Err = String;

    /// `movenumber=N,movecount=C,score=S` (all three; `movecount` at least 1).
    fn from_str(text: &str) -> Result<DrawRule, String> {
        let [move_number, move_count, score] = numbers(
            text,
            "--draw-adjudication",
            ["movenumber", "movecount", "score"],
            DRAW_EXAMPLE,
        )?;
        if move_count == 0 {
            return Err("--draw-adjudication movecount must be at least 1".into());
        }
        Ok(DrawRule {
            move_number,
            move_count,
            score,
        })
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "movenumber={},movecount={},score={}",
            self.move_number, self.move_count, self.score
        )
    }
}

impl FromStr for ResignRule {
    type Err = String;

    /// `movecount=C,score=S` (both; `movecount` at least 1, `score` above 0).
    fn from_str(text: &str) -> Result<ResignRule, String> {
        let [move_count, score] = numbers(
            text,
            "--resign-adjudication",
            ["movecount", "score"],
            RESIGN_EXAMPLE,
        )?;
        if move_count == 0 {
            return Err("--resign-adjudication movecount must be at least 1".into());
        }
        if score == 0 {
            return Err(
                "--resign-adjudication score must be above 0 (a side resigns at -score or below)"
                    .into(),
            );
        }
        Ok(ResignRule { move_count, score })
    }
}

impl fmt::Display for ResignRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movecount={},score={}", self.move_count, self.score)
    }
}

/// Follows one game's scores and says when the rules adjudicate it.
#[derive(Clone, Debug)]
pub struct Judge {
    rules: Adjudication,
    /// Consecutive choices (of both sides) scored within the draw score.
    level: u32,
    /// Per side, consecutive own choices scored at or below minus the resign score.
    lost: [u32; 2],
}

impl Judge {
    /// A judge for one game.
    pub fn new(rules: Adjudication) -> Judge {
        Judge {
            rules,
            level: 0,
            lost: [0; 2],
        }
    }

    /// Takes the score `side` gave its choice (`None`: no score) and what the choice did:
    /// whether it captured, and how many plies the game has after it. Returns the result
    /// to adjudicate, if the game is to end here.
    pub fn after_choice(
        &mut self,
        side: Side,
        score: Option<i32>,
        captured: bool,
        plies: usize,
    ) -> Option<GameResult> {
        if let Some(rule) = self.rules.resign {
            let lost = score.is_some_and(|s| i64::from(s) <= -i64::from(rule.score));
            let count = &mut self.lost[side.index()];
            *count = if lost { *count + 1 } else { 0 };
            if *count >= rule.move_count {
                return Some(GameResult::win_for(!side));
            }
        }
        if let Some(rule) = self.rules.draw {
            let level = !captured && score.is_some_and(|s| s.unsigned_abs() <= rule.score);
            self.level = if level { self.level + 1 } else { 0 };
            if plies / 2 >= rule.move_number as usize
                && u64::from(self.level) >= 2 * u64::from(rule.move_count)
            {
                return Some(GameResult::Draw);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_print_and_refuse_nonsense() {
        let d: DrawRule = "movenumber=40,movecount=8,score=20".parse().unwrap();
        assert_eq!((d.move_number, d.move_count, d.score), (40, 8, 20), "{d:?}");
        assert_eq!(d.to_string().parse::<DrawRule>().unwrap(), d);
        let r: ResignRule = " movecount = 3 , score=900".parse().unwrap();
        assert_eq!((r.move_count, r.score), (3, 900));
        assert_eq!(r.to_string(), "movecount=3,score=900");
        for (bad, says) in [
            ("movenumber=40,movecount=8", "needs score"),
            ("movenumber=40,movecount=0,score=5", "at least 1"),
            ("movenumber=40,movecount=8,score=-5", "whole number"),
            ("movenumber=4,movenumber=5,movecount=1,score=1", "twice"),
            ("moves=4", "has no `moves`"),
            ("40", "not KEY=VALUE"),
        ] {
            let e = bad.parse::<DrawRule>().unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!("movecount=3,score=0".parse::<ResignRule>().is_err());
        assert!("movecount=3".parse::<ResignRule>().is_err());
    }

    fn draw_judge(move_number: u32, move_count: u32, score: u32) -> Judge {
        Judge::new(Adjudication {
            draw: Some(DrawRule {
                move_number,
                move_count,
                score,
            }),
            resign: None,
        })
    }

    #[test]
    fn a_level_game_is_drawn_after_the_move_number_and_the_count() {
        // 2 moves each within ±10, not before move 3 (ply 6).
        let mut judge = draw_judge(3, 2, 10);
        let sides = [Side::White, Side::Black];
        let mut ended = None;
        for ply in 1..=10 {
            if let Some(r) = judge.after_choice(sides[(ply - 1) % 2], Some(-10), false, ply) {
                ended = Some((ply, r));
                break;
            }
        }
        // The count reaches 4 at ply 4, but move 3 is complete only at ply 6.
        assert_eq!(ended, Some((6, GameResult::Draw)));
    }

    #[test]
    fn captures_large_scores_and_silent_agents_restart_the_count() {
        let mut judge = draw_judge(0, 2, 10);
        assert_eq!(judge.after_choice(Side::White, Some(3), false, 1), None);
        assert_eq!(judge.after_choice(Side::Black, Some(3), false, 2), None);
        assert_eq!(judge.after_choice(Side::White, Some(3), true, 3), None);
        assert_eq!(judge.after_choice(Side::Black, Some(3), false, 4), None);
        assert_eq!(judge.after_choice(Side::White, Some(11), false, 5), None);
        assert_eq!(judge.after_choice(Side::Black, None, false, 6), None);
        for ply in 7..10 {
            let side = if ply % 2 == 1 {
                Side::White
            } else {
                Side::Black
            };
            assert_eq!(judge.after_choice(side, Some(0), false, ply), None);
        }
        assert_eq!(
            judge.after_choice(Side::Black, Some(0), false, 10),
            Some(GameResult::Draw)
        );
        // An agent that never scores is never adjudicated.
        let mut judge = draw_judge(0, 1, 1000);
        for ply in 1..100 {
            assert_eq!(judge.after_choice(Side::White, None, false, ply), None);
        }
    }

    #[test]
    fn a_side_that_scores_itself_lost_resigns() {
        let mut judge = Judge::new(Adjudication {
            draw: None,
            resign: Some(ResignRule {
                move_count: 3,
                score: 500,
            }),
        });
        // Black's scores: -500, -700, -400 (count restarts), then -600 three times.
        let black = [-500, -700, -400, -600, -600, -600];
        let mut result = None;
        for (k, &s) in black.iter().enumerate() {
            assert_eq!(
                judge.after_choice(Side::White, Some(500), false, 2 * k + 1),
                None
            );
            result = judge.after_choice(Side::Black, Some(s), false, 2 * k + 2);
            if result.is_some() {
                assert_eq!(k, 5);
            }
        }
        assert_eq!(result, Some(GameResult::WhiteWins));
    }
}
