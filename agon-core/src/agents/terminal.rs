//! How the search judges the position an action has just produced, in the order of
//! docs/rules.md section 6: the mover's formation, repetition, the double pass. (The last check,
//! "the side to move has no legal action", is made where the actions are generated.)

use super::history::History;
use crate::hot::HotRules;
use crate::{Action, Position, Side};

/// A finished game as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Terminal {
    /// This side has won.
    Win(Side),
    /// Drawn (by the rules, or a repetition on the search path).
    Draw,
}

/// Whether the game ends with `position`, just reached by `action` of `mover`.
#[inline]
pub(crate) fn judge(
    position: &Position,
    mover: Side,
    action: Action,
    history: &History,
) -> Option<Terminal> {
    judge_in(position.rules(), position, mover, action, history)
}

/// [`judge`] under the hot switches `hot` (those of the position's rules). After a step
/// or a relocation that ends beyond ring 1 the mover's formation is not tested: it cannot
/// have formed ([`Position::outcome_after_arrival_in`]).
#[inline(always)]
pub(crate) fn judge_in(
    hot: impl HotRules,
    position: &Position,
    mover: Side,
    action: Action,
    history: &History,
) -> Option<Terminal> {
    let arrived_on = action.arrival();
    let outcome =
        position.outcome_after_arrival_in(hot, mover, arrived_on, || history.is_draw(position))?;
    Some(match outcome.result.winner() {
        Some(side) => Terminal::Win(side),
        None => Terminal::Draw,
    })
}
