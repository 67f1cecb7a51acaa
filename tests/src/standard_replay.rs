//! Replays Ludii's recorded games under another rule set (the standard rules) and finds
//! where each first stops being legal or ends: evidence of how the rule sets differ.

use crate::ludii::LudiiGame;
use agon_core::{Action, Cell, Game, GameResult, IllegalAction, Outcome, Rules};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How the replay of one game stopped.
#[derive(Clone, Debug)]
pub enum Stop {
    /// Ply `ply` (1-based) is not legal under the rules.
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The recorded action.
        action: Action,
        /// Why the rules reject it.
        reason: IllegalAction,
    },
    /// The rules ended the game after ply `ply`, before the record did.
    Ended {
        /// 1-based ply after which the game was over.
        ply: usize,
        /// How.
        outcome: Outcome,
    },
    /// Every recorded action was legal; the game ended (or not) as it did here.
    Completed {
        /// The outcome under the rules, if the game is over.
        outcome: Option<Outcome>,
    },
}

/// One game replayed.
#[derive(Clone, Debug)]
pub struct Replay {
    /// 1-based game number (the line in the data files).
    pub game: usize,
    /// Plies in the record.
    pub plies: usize,
    /// The recorded result.
    pub result: GameResult,
    /// The first ply (1-based) whose captures differ from the record's, and why, if any.
    pub first_capture_difference: Option<(usize, &'static str)>,
    /// How the replay stopped.
    pub stop: Stop,
}

impl Replay {
    /// The ply at which the replay stopped (the last ply for completed games).
    pub fn stop_ply(&self) -> usize {
        match self.stop {
            Stop::Illegal { ply, .. } | Stop::Ended { ply, .. } => ply,
            Stop::Completed { .. } => self.plies,
        }
    }

    /// A short description of why the replay stopped, shared by similar games.
    pub fn reason(&self) -> String {
        match &self.stop {
            Stop::Illegal { action, reason, .. } => {
                let kind = match action {
                    Action::Step { .. } => "step",
                    Action::Relocate { .. } => "relocation",
                    Action::Place { .. } => "placement",
                    Action::Pass => "pass",
                };
                let why = match reason {
                    IllegalAction::Intervention { .. } => "lands between two active enemy pieces",
                    IllegalAction::PassNotAllowed => "a pass, while the side has legal actions",
                    IllegalAction::RelocationDue { .. } => {
                        "a relocation is due (a piece of the mover is captured here)"
                    }
                    IllegalAction::NotCaptured(_) => "the piece to relocate is not captured here",
                    IllegalAction::Occupied(_) => "the destination is occupied here",
                    IllegalAction::NoPiece(_) => "no piece on the origin here",
                    IllegalAction::NotYourPiece(_) => "the piece belongs to the opponent here",
                    IllegalAction::GameOver => "the game is over",
                    _ => "another rule",
                };
                format!("illegal {kind}: {why}")
            }
            Stop::Ended { outcome, .. } => format!("ended early: {}", outcome.termination),
            Stop::Completed { outcome: Some(o) } if o.result == self.result => {
                format!("replays whole, same result ({})", o.termination)
            }
            Stop::Completed { outcome: Some(o) } => {
                format!(
                    "replays whole, other result ({} {})",
                    o.result, o.termination
                )
            }
            Stop::Completed { outcome: None } => "replays whole, not over".to_string(),
        }
    }
}

/// Why one action captured other pieces than in the record.
fn capture_cause(action: Action, ours: &[Cell], theirs: &[Cell]) -> &'static str {
    let ours_more = theirs.iter().all(|c| ours.contains(c));
    let theirs_more = ours.iter().all(|c| theirs.contains(c));
    match action {
        Action::Relocate { .. } if theirs.is_empty() => {
            "a relocation captures (relocations never capture in Ludii)"
        }
        Action::Step { .. } if theirs_more => {
            "Ludii's step captures more (a captured piece of the mover flanks there)"
        }
        Action::Step { .. } if ours_more => "the step captures more here",
        _ => "other captures",
    }
}

fn sorted(cells: impl IntoIterator<Item = Cell>) -> Vec<Cell> {
    let mut v: Vec<Cell> = cells.into_iter().collect();
    v.sort();
    v
}

/// Replays a recorded game under `rules` until an action is illegal or the game ends.
pub fn replay(record: &LudiiGame, rules: Rules) -> Replay {
    let mut game = Game::new(rules);
    let mut first_capture_difference = None;
    let mut stop = None;
    for (i, (&action, marks)) in record.actions.iter().zip(&record.captures).enumerate() {
        let ply = i + 1;
        if let Some(outcome) = game.outcome() {
            stop = Some(Stop::Ended { ply: i, outcome });
            break;
        }
        match game.play(action) {
            Err(reason) => {
                stop = Some(Stop::Illegal {
                    ply,
                    action,
                    reason,
                });
                break;
            }
            Ok(captured) => {
                let ours = sorted(captured);
                let theirs = sorted(marks.captured.iter().copied());
                if first_capture_difference.is_none() && ours != theirs {
                    first_capture_difference = Some((ply, capture_cause(action, &ours, &theirs)));
                }
            }
        }
    }
    Replay {
        game: record.index + 1,
        plies: record.actions.len(),
        result: record.result,
        first_capture_difference,
        stop: stop.unwrap_or(Stop::Completed {
            outcome: game.outcome(),
        }),
    }
}

fn median(values: &mut [usize]) -> usize {
    values.sort_unstable();
    values[values.len() / 2]
}

/// The Markdown report: a summary grouped by reason, examples, and one row per game.
pub fn report(replays: &[Replay], rules: Rules) -> String {
    let mut groups: BTreeMap<String, Vec<&Replay>> = BTreeMap::new();
    for r in replays {
        groups.entry(r.reason()).or_default().push(r);
    }
    let mut groups: Vec<(String, Vec<&Replay>)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Replaying the {} recorded games under `{rules}`:\n",
        replays.len()
    );
    let _ = writeln!(
        out,
        "| how the replay stops under `{rules}` | games | at ply (min / median / max) | captures differed earlier |"
    );
    let _ = writeln!(out, "| --- | ---: | --- | ---: |");
    for (reason, members) in &groups {
        let mut plies: Vec<usize> = members.iter().map(|r| r.stop_ply()).collect();
        let earlier = members
            .iter()
            .filter(|r| {
                r.first_capture_difference
                    .is_some_and(|(p, _)| p < r.stop_ply())
            })
            .count();
        let (min, max) = (
            *plies.iter().min().unwrap_or(&0),
            *plies.iter().max().unwrap_or(&0),
        );
        let _ = writeln!(
            out,
            "| {reason} | {} | {min} / {} / {max} | {earlier} |",
            members.len(),
            median(&mut plies)
        );
    }
    let mut causes: BTreeMap<&str, (usize, Vec<usize>)> = BTreeMap::new();
    for r in replays {
        if let Some((ply, cause)) = r.first_capture_difference {
            let entry = causes.entry(cause).or_default();
            entry.0 += 1;
            entry.1.push(ply);
        }
    }
    let _ = writeln!(
        out,
        "\nThe first ply whose captures differ from Ludii's (in {} games):\n",
        causes.values().map(|c| c.0).sum::<usize>()
    );
    let _ = writeln!(out, "| why | games | at ply (min / median / max) |");
    let _ = writeln!(out, "| --- | ---: | --- |");
    for (cause, (count, plies)) in &mut causes {
        let (min, max) = (
            *plies.iter().min().unwrap_or(&0),
            *plies.iter().max().unwrap_or(&0),
        );
        let _ = writeln!(
            out,
            "| {cause} | {count} | {min} / {} / {max} |",
            median(plies)
        );
    }
    let _ = writeln!(out, "\nExamples (the first three games of each group):\n");
    for (reason, members) in &groups {
        let _ = writeln!(out, "- {reason}:");
        for r in members.iter().take(3) {
            let _ = writeln!(out, "  - {}", describe(r));
        }
    }
    let _ = writeln!(out, "\n<details><summary>Every game</summary>\n");
    let _ = writeln!(
        out,
        "| game | plies (Ludii) | result (Ludii) | stops at ply | why | first capture difference |"
    );
    let _ = writeln!(out, "| ---: | ---: | --- | ---: | --- | ---: |");
    for r in replays {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            r.game,
            r.plies,
            r.result,
            r.stop_ply(),
            detail(r),
            r.first_capture_difference
                .map_or("-".to_string(), |(p, _)| p.to_string())
        );
    }
    let _ = writeln!(out, "\n</details>");
    out
}

fn detail(r: &Replay) -> String {
    match &r.stop {
        Stop::Illegal { action, reason, .. } => format!("`{action}`: {reason}"),
        Stop::Ended { outcome, .. } => format!("{} {}", outcome.result, outcome.termination),
        Stop::Completed { outcome: Some(o) } => {
            format!("all legal; {} {}", o.result, o.termination)
        }
        Stop::Completed { outcome: None } => "all legal; not over".to_string(),
    }
}

fn describe(r: &Replay) -> String {
    let capture = match r.first_capture_difference {
        Some((p, cause)) if p < r.stop_ply() => {
            format!("; captures first differed at ply {p}: {cause}")
        }
        _ => String::new(),
    };
    format!(
        "game {} (Ludii: {} plies, {}): ply {}, {}{capture}",
        r.game,
        r.plies,
        r.result,
        r.stop_ply(),
        detail(r)
    )
}
