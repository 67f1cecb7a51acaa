//! How the search judges the position an action has just produced, in the order of
//! docs/rules.md section 6: the mover's formation, repetition, the double pass. (The last check,
//! "the side to move has no legal action", is made where the actions are generated.)

use super::history::History;
use crate::hot::HotRules;
use crate::{Position, Side};

/// A finished game as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Terminal {
    /// This side has won.
    Win(Side),
    /// Drawn (by the rules, or a repetition on the search path).
    Draw,
}

/// Whether the game ends with `position`, just reached by an action of `mover`.
#[inline]
pub(crate) fn judge(position: &Position, mover: Side, history: &History) -> Option<Terminal> {
    judge_in(position.rules(), position, mover, history)
}

/// [`judge`] under the hot switches `hot` (those of the position's rules).
#[inline(always)]
pub(crate) fn judge_in(
    hot: impl HotRules,
    position: &Position,
    mover: Side,
    history: &History,
) -> Option<Terminal> {
    let outcome = position.outcome_after_action_in(hot, mover, || history.is_draw(position))?;
    Some(match outcome.result.winner() {
        Some(side) => Terminal::Win(side),
        None => Terminal::Draw,
    })
}
