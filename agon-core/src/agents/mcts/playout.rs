//! The playout policy of the MCTS agent: random, but weighted toward captures, inward
//! steps and a winning formation, and away from closing the ring without the queen; cut
//! off after a few plies and scored by the evaluation.

use crate::agents::eval::{Evaluator, Verdict};
use crate::agents::features;
use crate::{Action, ActionList, Bitboard, Phase, PieceKind, Position, Rng, Side};

/// The result of a playout: White's expected score, 0 to 1.
pub(crate) type Reward = f64;

/// Evaluation units per factor e of the odds: a lead of `SCALE` is about a 73% chance.
const SCALE: f64 = 250.0;

/// White's score for a won game of `winner`.
#[inline]
pub(crate) fn win_for(winner: Side) -> Reward {
    match winner {
        Side::White => 1.0,
        Side::Black => 0.0,
    }
}

/// The evaluation of a position turned into White's expected score.
#[inline]
pub(crate) fn evaluate(eval: &Evaluator, pos: &Position) -> Reward {
    match eval.white(pos) {
        Verdict::NoMoves => win_for(!pos.to_move()),
        Verdict::Score(s) => 1.0 / (1.0 + (-(s as f64) / SCALE).exp()),
    }
}

/// The evaluation units whose expected score is `value` (the inverse of [`evaluate`]'s
/// logistic), kept below the size of a forced result: how a mean reward is reported as a
/// score.
pub(crate) fn units(value: f64) -> i32 {
    let limit = f64::from(crate::agents::FORCED_SCORE - 1);
    let value = value.clamp(0.0, 1.0);
    (SCALE * (value / (1.0 - value)).ln())
        .clamp(-limit, limit)
        .round() as i32
}

/// Plays up to `plies` policy actions from `pos` and returns White's expected score.
pub(crate) fn playout(
    eval: &Evaluator,
    pos: &Position,
    plies: u32,
    rng: &mut Rng,
    list: &mut ActionList,
) -> Reward {
    let mut pos = *pos;
    let mut weights = [0u32; ActionList::CAPACITY];
    for _ in 0..plies {
        pos.legal().generate(list);
        if list.is_empty() {
            return win_for(!pos.to_move());
        }
        let action = pick(&pos, list, &mut weights, rng);
        let mover = pos.to_move();
        pos.play_unchecked(action);
        // Repetition is not tracked in playouts.
        if let Some(outcome) = pos.outcome_after_action(mover, || false) {
            return outcome.result.winner().map_or(0.5, win_for);
        }
    }
    evaluate(eval, &pos)
}

/// Chooses an action with the policy's weights.
pub(crate) fn pick(
    pos: &Position,
    list: &ActionList,
    weights: &mut [u32; ActionList::CAPACITY],
    rng: &mut Rng,
) -> Action {
    if list.len() == 1 {
        return list[0];
    }
    let total = policy_weights(pos, list, weights);
    let mut r = rng.below(total as usize) as u32;
    for (i, &w) in weights[..list.len()].iter().enumerate() {
        if r < w {
            return list[i];
        }
        r -= w;
    }
    list[list.len() - 1]
}

/// Fills `weights` for the actions of `list` and returns their sum (always positive).
pub(crate) fn policy_weights(
    pos: &Position,
    list: &ActionList,
    weights: &mut [u32; ActionList::CAPACITY],
) -> u32 {
    let mover = pos.to_move();
    let phase = pos.phase();
    let mut total = 0;
    if phase == Phase::Placement {
        for w in &mut weights[..list.len()] {
            *w = 1;
        }
        return list.len() as u32;
    }
    if pos.decider() != mover {
        // The opponent places our queen: far out, and not where she captures.
        let cells = features::capture_cells(pos, mover);
        for (i, a) in list.iter().enumerate() {
            let to = a.destination().expect("a relocation");
            let w = if cells.contains(to) {
                1
            } else {
                2 + 2 * to.ring() as u32
            };
            weights[i] = w;
            total += w;
        }
        return total;
    }
    let can_capture = phase == Phase::Normal || pos.rules().relocations_interact();
    let cells = if can_capture {
        features::capture_cells(pos, mover)
    } else {
        Bitboard::EMPTY
    };
    let guards = features::active_guards(pos, mover);
    let queen_on_throne = (features::active_queen(pos, mover) & Bitboard::THRONE).any();
    let ring1 = (guards & Bitboard::RING1).count();
    let queens = pos.pieces(mover, PieceKind::Queen);
    for (i, &a) in list.iter().enumerate() {
        let w = match a {
            Action::Step { from, to } => {
                let is_guard = !queens.contains(from);
                let completes = to.ring() == 1 && from.ring() > 1 && is_guard && ring1 == 5;
                if completes && queen_on_throne || !is_guard && to.ring() == 0 && ring1 == 6 {
                    10_000
                } else if completes {
                    0
                } else {
                    let inward = from.ring() - to.ring();
                    let mut w = 2 + 6 * inward as u32;
                    if !is_guard {
                        w += 2 * inward as u32;
                    }
                    if cells.contains(to) {
                        w += 30;
                    }
                    w
                }
            }
            Action::Relocate { to, .. } => {
                let mut w = 1 + (5 - to.ring() as u32);
                if cells.contains(to) {
                    w += 20;
                }
                w
            }
            Action::Place { .. } => 1,
            Action::Pass => 1,
        };
        weights[i] = w;
        total += w;
    }
    if total == 0 {
        for w in &mut weights[..list.len()] {
            *w = 1;
        }
        total = list.len() as u32;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_turn_back_into_evaluation_units() {
        assert_eq!(units(0.5), 0);
        // The logistic of SCALE units is 1/(1 + e^-1).
        let lead = 1.0 / (1.0 + (-1.0f64).exp());
        assert_eq!(units(lead), SCALE as i32);
        assert_eq!(units(1.0 - lead), -(SCALE as i32));
        // Certainty is kept below a forced result's size.
        let limit = crate::agents::FORCED_SCORE - 1;
        assert_eq!((units(1.0), units(0.0)), (limit, -limit));
    }
}
