//! Scores as analysis shows them, the score a ply lost, and its classification.
//!
//! Losses are measured in the evaluation's units (100 is about one guard stepping from the
//! outer ring to ring 1) after clipping both scores to ±[`CLIP`]: a forced result counts
//! as [`CLIP`], so throwing away a forced win is a blunder, while a forced win that takes a
//! little longer, or a lost position that stays lost, loses nothing. docs/cli.md gives the
//! reasoning behind the thresholds.

use agon_core::Side;
use serde::Serialize;
use std::fmt;

/// Scores beyond this size count as this size when losses are measured (10.00: a position
/// this far ahead is won in practice).
pub const CLIP: i32 = 1000;
/// The smallest loss that is an inaccuracy (`$6`, `?!`): half a guard's progress.
pub const INACCURACY: i32 = 50;
/// The smallest loss that is a mistake (`$2`, `?`): about a guard captured.
pub const MISTAKE: i32 = 100;
/// The smallest loss that is a blunder (`$4`, `??`): about two guards, or the throne.
pub const BLUNDER: i32 = 200;

/// An engine's judgement of a position, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Evaluation units (positive: White is better).
    Units(i32),
    /// A result the search sees as forced (or the game already over, `plies` 0).
    Forced {
        /// Who wins.
        #[serde(serialize_with = "side_name")]
        winner: Side,
        /// Plies to the end of the game.
        plies: u32,
    },
}

impl Score {
    /// The score of a search, `score` being from `decider`'s point of view and `forced`
    /// the plies to a forced end if the score means one (positive: `decider` wins).
    pub fn of_search(score: i32, forced: Option<i32>, decider: Side) -> Score {
        match forced {
            Some(plies) => Score::Forced {
                winner: if plies > 0 { decider } else { !decider },
                plies: plies.unsigned_abs(),
            },
            None if decider == Side::White => Score::Units(score),
            None => Score::Units(-score),
        }
    }

    /// The score of a finished game: its winner, or a draw.
    pub fn of_result(winner: Option<Side>) -> Score {
        match winner {
            Some(winner) => Score::Forced { winner, plies: 0 },
            None => Score::Units(0),
        }
    }

    /// The score from `side`'s point of view, clipped to ±[`CLIP`].
    pub fn clipped_for(self, side: Side) -> i32 {
        let white = match self {
            Score::Units(units) => units.clamp(-CLIP, CLIP),
            Score::Forced {
                winner: Side::White,
                ..
            } => CLIP,
            Score::Forced { .. } => -CLIP,
        };
        if side == Side::White {
            white
        } else {
            -white
        }
    }
}

/// `+0.35`, `-1.20`, `0.00` (hundreds of units, White's view); `#+5` / `#-5` for a win of
/// White / Black forced within 5 plies (`#+0`: White has just won).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Units(0) => f.write_str("0.00"),
            Score::Units(units) => {
                let sign = if units > 0 { '+' } else { '-' };
                let abs = units.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Score::Forced { winner, plies } => {
                let sign = if winner == Side::White { '+' } else { '-' };
                write!(f, "#{sign}{plies}")
            }
        }
    }
}

/// A side in JSON: `white` or `black`.
pub fn side_name<S: serde::Serializer>(side: &Side, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(match side {
        Side::White => "white",
        Side::Black => "black",
    })
}

/// How bad a ply was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Lost at least [`INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

impl Class {
    /// The class of a loss, if it is bad enough to have one.
    pub fn of_loss(loss: i32) -> Option<Class> {
        match loss {
            l if l >= BLUNDER => Some(Class::Blunder),
            l if l >= MISTAKE => Some(Class::Mistake),
            l if l >= INACCURACY => Some(Class::Inaccuracy),
            _ => None,
        }
    }

    /// The record annotation glyph (NAG) of the class: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> u8 {
        match self {
            Class::Inaccuracy => 6,
            Class::Mistake => 2,
            Class::Blunder => 4,
        }
    }
}

/// What the side deciding a ply lost by it: the score before (of the best action) less the
/// score after, both from that side's view and clipped; never negative (a deeper look
/// after the action may find more than the search before it did).
pub fn loss(before: Score, after: Score, side: Side) -> i32 {
    (before.clipped_for(side) - after.clipped_for(side)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_in_hundreds_from_whites_view() {
        assert_eq!(Score::of_search(35, None, Side::White).to_string(), "+0.35");
        assert_eq!(Score::of_search(35, None, Side::Black).to_string(), "-0.35");
        assert_eq!(Score::Units(-1205).to_string(), "-12.05");
        assert_eq!(Score::Units(0).to_string(), "0.00");
        assert_eq!(Score::of_search(0, Some(5), Side::Black).to_string(), "#-5");
        assert_eq!(
            Score::of_search(0, Some(-3), Side::Black).to_string(),
            "#+3"
        );
        assert_eq!(Score::of_result(Some(Side::White)).to_string(), "#+0");
        assert_eq!(Score::of_result(None), Score::Units(0));
    }

    #[test]
    fn the_thresholds_classify_losses() {
        assert_eq!(Class::of_loss(0), None);
        assert_eq!(Class::of_loss(INACCURACY - 1), None);
        assert_eq!(Class::of_loss(INACCURACY), Some(Class::Inaccuracy));
        assert_eq!(Class::of_loss(MISTAKE - 1), Some(Class::Inaccuracy));
        assert_eq!(Class::of_loss(MISTAKE), Some(Class::Mistake));
        assert_eq!(Class::of_loss(BLUNDER - 1), Some(Class::Mistake));
        assert_eq!(Class::of_loss(BLUNDER), Some(Class::Blunder));
        assert_eq!(Class::of_loss(2 * CLIP), Some(Class::Blunder));
        let nags: Vec<u8> = [Class::Inaccuracy, Class::Mistake, Class::Blunder]
            .iter()
            .map(|c| c.nag())
            .collect();
        assert_eq!(nags, [6, 2, 4]);
    }

    #[test]
    fn losses_are_clipped_and_never_negative() {
        let white_wins = Score::Forced {
            winner: Side::White,
            plies: 3,
        };
        // Black's view: from +0.40 for Black to +1.60 for White is 2.00 lost.
        assert_eq!(loss(Score::Units(-40), Score::Units(160), Side::Black), 200);
        // A better score after than before loses nothing.
        assert_eq!(loss(Score::Units(10), Score::Units(90), Side::White), 0);
        // A forced win thrown away down to +2.00 loses 8.00.
        assert_eq!(loss(white_wins, Score::Units(200), Side::White), 800);
        // Lost stays lost; won stays won (a longer win is no loss).
        assert_eq!(
            loss(white_wins, Score::of_result(Some(Side::White)), Side::Black),
            0
        );
        assert_eq!(loss(white_wins, white_wins, Side::White), 0);
        // Huge evaluations are clipped like forced results.
        assert_eq!(
            loss(Score::Units(5000), Score::Units(-5000), Side::White),
            2 * CLIP
        );
    }
}
