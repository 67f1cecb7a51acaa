//! Results and the reasons games end.

use crate::Side;
use std::fmt;
use std::str::FromStr;

/// The result of a game, as written in records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: not over (or stopped without a result).
    Unfinished,
}

impl GameResult {
    /// The result in which `side` wins.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::WhiteWins => Some(Side::White),
            GameResult::BlackWins => Some(Side::Black),
            _ => None,
        }
    }

    /// The record token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// White's score: 1, 0 or 0.5 (`None` when unfinished).
    pub fn white_score(self) -> Option<f64> {
        match self {
            GameResult::WhiteWins => Some(1.0),
            GameResult::BlackWins => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::Unfinished => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A text that is not a result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a result; expected 1-0, 0-1, 1/2-1/2 or *",
            self.text
        )
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;
    fn from_str(text: &str) -> Result<GameResult, ParseResultError> {
        match text {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unfinished),
            _ => Err(ParseResultError {
                text: text.to_string(),
            }),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// A queen on the throne ringed by her six guards (under `relocation=removed`, by every
    /// guard she has left): that side wins.
    Formation,
    /// Six guards closed the ring without their queen on the throne: that side loses.
    SixGuards,
    /// Under `relocation=removed`, a side's queen was captured: that side loses.
    QueenCaptured,
    /// The side to move had no legal action and lost.
    NoMoves,
    /// The same position occurred the set number of times: draw.
    Repetition,
    /// Two passes in a row under `ludii`: draw.
    DoublePass,
    /// Stopped by a harness at a ply limit: adjudicated draw, not a rule draw.
    MoveLimit,
    /// A player resigned (records only; the rules did not end the game).
    Resignation,
    /// A player lost on time (records only).
    TimeForfeit,
    /// The players agreed a draw (records only).
    Agreement,
    /// A player (an external engine) sent an action that is not legal, or not an action:
    /// it loses (records only).
    IllegalMove,
    /// A player (an external engine) exited, closed its output or broke the protocol: it
    /// loses (records only).
    Crash,
    /// A player (an external engine) did not answer within its time limit: it loses
    /// (records only).
    Timeout,
    /// A harness ended the game early from the players' own search scores (a draw when
    /// both judged it level for long enough, or a win when one judged itself lost): an
    /// adjudication, not a result the rules reached (records only).
    Adjudication,
}

impl Termination {
    /// Every termination, in a stable order.
    pub const ALL: [Termination; 14] = [
        Termination::Formation,
        Termination::SixGuards,
        Termination::QueenCaptured,
        Termination::NoMoves,
        Termination::Repetition,
        Termination::DoublePass,
        Termination::MoveLimit,
        Termination::Resignation,
        Termination::TimeForfeit,
        Termination::Agreement,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Timeout,
        Termination::Adjudication,
    ];

    /// The name used in records and output: `formation`, `six-guards`, ...
    pub fn name(self) -> &'static str {
        match self {
            Termination::Formation => "formation",
            Termination::SixGuards => "six-guards",
            Termination::QueenCaptured => "queen-captured",
            Termination::NoMoves => "no-moves",
            Termination::Repetition => "repetition",
            Termination::DoublePass => "double-pass",
            Termination::MoveLimit => "move-limit",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Agreement => "agreement",
            Termination::IllegalMove => "illegal-move",
            Termination::Crash => "crash",
            Termination::Timeout => "timeout",
            Termination::Adjudication => "adjudication",
        }
    }

    /// Whether the rules themselves end a game this way (as opposed to a player or a
    /// harness stopping it).
    pub fn is_rule_ending(self) -> bool {
        matches!(
            self,
            Termination::Formation
                | Termination::SixGuards
                | Termination::QueenCaptured
                | Termination::NoMoves
                | Termination::Repetition
                | Termination::DoublePass
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no termination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTerminationError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for ParseTerminationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a termination; expected one of {}",
            self.text,
            Termination::ALL.map(Termination::name).join(", ")
        )
    }
}

impl std::error::Error for ParseTerminationError {}

impl FromStr for Termination {
    type Err = ParseTerminationError;
    fn from_str(text: &str) -> Result<Termination, ParseTerminationError> {
        Termination::ALL
            .into_iter()
            .find(|t| t.name() == text)
            .ok_or_else(|| ParseTerminationError {
                text: text.to_string(),
            })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// Why.
    pub termination: Termination,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_carry_the_text_and_list_what_is_valid() {
        assert_eq!("1/2-1/2".parse(), Ok(GameResult::Draw));
        let e = "2-0".parse::<GameResult>().unwrap_err();
        assert_eq!(e, ParseResultError { text: "2-0".into() });
        assert_eq!(
            e.to_string(),
            "`2-0` is not a result; expected 1-0, 0-1, 1/2-1/2 or *"
        );
        for t in Termination::ALL {
            assert_eq!(t.name().parse(), Ok(t));
        }
        let e = "checkmate".parse::<Termination>().unwrap_err();
        assert_eq!(e.text, "checkmate");
        assert!(e
            .to_string()
            .starts_with("`checkmate` is not a termination; expected one of formation, "));
        let _: &dyn std::error::Error = &e;
    }
}
