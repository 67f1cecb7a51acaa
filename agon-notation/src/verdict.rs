//! Whether a record's result and termination fit its game (docs/notation.md).
//!
//! A game the rules ended must carry that result (and, if it names one, that termination).
//! A game the rules did not end may stop with `*`, with a decisive result and `Termination`
//! `resignation` or `time-forfeit` (or a referee's `illegal-move`, `crash` or `timeout`, when
//! an external engine failed), with `1/2-1/2` and `agreement` or `move-limit`, or with any
//! result and `adjudication` (a harness judged the game from the players' scores).

use crate::error::ErrorKind;
use agon_core::{GameResult, Outcome, Termination};
use std::fmt;

/// A result or termination that does not fit the game: what the rules say, what the
/// record claims, and how many plies were played. `Display` writes the explanation;
/// [`VerdictError::kind`] says which [`ErrorKind`] it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerdictError {
    /// The rules ended the game with another result.
    RuleResult {
        /// How the rules ended the game.
        outcome: Outcome,
        /// The plies played.
        plies: usize,
        /// The result the record claims.
        result: GameResult,
    },
    /// The rules ended the game with another termination than the tag names.
    RuleTermination {
        /// How the rules ended the game.
        outcome: Outcome,
        /// The plies played.
        plies: usize,
        /// The termination the record names.
        termination: Termination,
    },
    /// A termination with the result `*` (unfinished).
    TerminationOfUnfinished {
        /// The termination the record names.
        termination: Termination,
    },
    /// A termination only the rules can give (formation, repetition...), but they did not
    /// end the game.
    RuleEndingNotReached {
        /// The plies played.
        plies: usize,
        /// The termination the record names.
        termination: Termination,
    },
    /// A result that the termination does not allow ([`allowed_results`]).
    ResultNotAllowed {
        /// The termination the record names.
        termination: Termination,
        /// The result the record claims.
        result: GameResult,
    },
    /// A decisive result or a draw, with no termination, for a game the rules did not end.
    MissingTermination {
        /// The plies played.
        plies: usize,
        /// The result the record claims.
        result: GameResult,
    },
}

impl VerdictError {
    /// The kind of record defect: [`ErrorKind::Result`] or [`ErrorKind::Termination`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            VerdictError::RuleResult { .. }
            | VerdictError::ResultNotAllowed { .. }
            | VerdictError::MissingTermination { .. } => ErrorKind::Result,
            VerdictError::RuleTermination { .. }
            | VerdictError::TerminationOfUnfinished { .. }
            | VerdictError::RuleEndingNotReached { .. } => ErrorKind::Termination,
        }
    }
}

impl fmt::Display for VerdictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ended = |f: &mut fmt::Formatter<'_>, outcome: &Outcome, plies: &usize| {
            write!(
                f,
                "the rules ended the game after ply {plies} by {} ({})",
                outcome.termination,
                describe(outcome.result)
            )
        };
        let open = |f: &mut fmt::Formatter<'_>, plies: &usize| {
            write!(f, "the rules have not ended the game after ply {plies}")
        };
        match self {
            VerdictError::RuleResult {
                outcome,
                plies,
                result,
            } => {
                ended(f, outcome, plies)?;
                write!(
                    f,
                    ", so the result must be {}, not {result}",
                    outcome.result
                )
            }
            VerdictError::RuleTermination {
                outcome,
                plies,
                termination,
            } => {
                ended(f, outcome, plies)?;
                write!(f, ", but the Termination tag says `{termination}`")
            }
            VerdictError::TerminationOfUnfinished { termination } => write!(
                f,
                "the Termination tag says `{termination}`, but the result is `*` (unfinished)"
            ),
            VerdictError::RuleEndingNotReached { plies, termination } => {
                write!(f, "the Termination tag says `{termination}`, but ")?;
                open(f, plies)
            }
            VerdictError::ResultNotAllowed {
                termination,
                result,
            } => {
                let allowed: Vec<&str> = allowed_results(*termination)
                    .iter()
                    .map(|r| r.token())
                    .collect();
                write!(
                    f,
                    "a game stopped by {termination} ends {}, not {result}",
                    allowed.join(" or ")
                )
            }
            VerdictError::MissingTermination { plies, result } => {
                open(f, plies)?;
                if *result == GameResult::Draw {
                    f.write_str(
                        ", so the draw 1/2-1/2 needs [Termination \"agreement\"] or \
                         [Termination \"move-limit\"] (or the result `*`)",
                    )
                } else {
                    write!(
                        f,
                        ", so the result {result} needs [Termination \"resignation\"] or \
                         [Termination \"time-forfeit\"] (or the result `*`)"
                    )
                }
            }
        }
    }
}

impl std::error::Error for VerdictError {}

/// The terminations a record may give for a game the rules did not end, and the results
/// each allows.
pub fn allowed_results(termination: Termination) -> &'static [GameResult] {
    match termination {
        Termination::Resignation
        | Termination::TimeForfeit
        | Termination::IllegalMove
        | Termination::Crash
        | Termination::Timeout => &[GameResult::WhiteWins, GameResult::BlackWins],
        Termination::Agreement | Termination::MoveLimit => &[GameResult::Draw],
        Termination::Adjudication => &[
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ],
        _ => &[],
    }
}

/// Checks a claimed result and termination against the outcome the rules gave the game
/// (`None` if the rules have not ended it) after `plies` plies.
pub fn check_result(
    rule_outcome: Option<Outcome>,
    plies: usize,
    result: GameResult,
    termination: Option<Termination>,
) -> Result<(), VerdictError> {
    if let Some(outcome) = rule_outcome.filter(|o| o.termination.is_rule_ending()) {
        if result != outcome.result {
            return Err(VerdictError::RuleResult {
                outcome,
                plies,
                result,
            });
        }
        if let Some(termination) = termination.filter(|&t| t != outcome.termination) {
            return Err(VerdictError::RuleTermination {
                outcome,
                plies,
                termination,
            });
        }
        return Ok(());
    }
    match (result, termination) {
        (GameResult::Unfinished, None) => Ok(()),
        (GameResult::Unfinished, Some(termination)) => {
            Err(VerdictError::TerminationOfUnfinished { termination })
        }
        (_, Some(termination)) if termination.is_rule_ending() => {
            Err(VerdictError::RuleEndingNotReached { plies, termination })
        }
        (_, Some(t)) if allowed_results(t).contains(&result) => Ok(()),
        (_, Some(termination)) => Err(VerdictError::ResultNotAllowed {
            termination,
            result,
        }),
        (_, None) => Err(VerdictError::MissingTermination { plies, result }),
    }
}

fn describe(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "drawn",
        GameResult::Unfinished => "unfinished",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMATION: Outcome = Outcome {
        result: GameResult::WhiteWins,
        termination: Termination::Formation,
    };

    #[test]
    fn rule_endings_fix_the_result() {
        assert!(check_result(Some(FORMATION), 40, GameResult::WhiteWins, None).is_ok());
        let e = check_result(Some(FORMATION), 40, GameResult::Unfinished, None).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Result);
        assert_eq!(
            e,
            VerdictError::RuleResult {
                outcome: FORMATION,
                plies: 40,
                result: GameResult::Unfinished
            }
        );
        let as_error: &dyn std::error::Error = &e;
        assert_eq!(
            as_error.to_string(),
            "the rules ended the game after ply 40 by formation (White wins), so the result \
             must be 1-0, not *"
        );
        let e = check_result(
            Some(FORMATION),
            40,
            GameResult::WhiteWins,
            Some(Termination::Resignation),
        )
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Termination);
    }

    /// Every case's message, from its data.
    #[test]
    fn each_verdict_says_what_the_record_should_carry() {
        use GameResult::*;
        use Termination::*;
        let message = |outcome, result, termination| {
            check_result(outcome, 12, result, termination)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            message(Some(FORMATION), WhiteWins, Some(Repetition)),
            "the rules ended the game after ply 12 by formation (White wins), but the \
             Termination tag says `repetition`"
        );
        assert_eq!(
            message(None, Unfinished, Some(Agreement)),
            "the Termination tag says `agreement`, but the result is `*` (unfinished)"
        );
        assert_eq!(
            message(None, Draw, Some(Resignation)),
            "a game stopped by resignation ends 1-0 or 0-1, not 1/2-1/2"
        );
        assert_eq!(
            message(None, Draw, None),
            "the rules have not ended the game after ply 12, so the draw 1/2-1/2 needs \
             [Termination \"agreement\"] or [Termination \"move-limit\"] (or the result `*`)"
        );
        assert_eq!(
            message(None, BlackWins, None),
            "the rules have not ended the game after ply 12, so the result 0-1 needs \
             [Termination \"resignation\"] or [Termination \"time-forfeit\"] (or the result `*`)"
        );
        assert_eq!(
            check_result(None, 12, WhiteWins, Some(MoveLimit)),
            Err(VerdictError::ResultNotAllowed {
                termination: MoveLimit,
                result: WhiteWins
            })
        );
    }

    #[test]
    fn stopped_games_need_a_fitting_termination() {
        use GameResult::*;
        use Termination::*;
        let ok = |r, t| check_result(None, 10, r, t).is_ok();
        assert!(ok(Unfinished, None));
        assert!(ok(WhiteWins, Some(Resignation)));
        assert!(ok(BlackWins, Some(TimeForfeit)));
        assert!(ok(WhiteWins, Some(IllegalMove)));
        assert!(ok(BlackWins, Some(Crash)));
        assert!(ok(WhiteWins, Some(Timeout)));
        assert!(!ok(Draw, Some(Timeout)));
        assert!(ok(Draw, Some(Agreement)));
        assert!(ok(Draw, Some(MoveLimit)));
        assert!(ok(Draw, Some(Adjudication)));
        assert!(ok(WhiteWins, Some(Adjudication)));
        assert!(ok(BlackWins, Some(Adjudication)));
        assert!(!ok(Unfinished, Some(Adjudication)));
        assert!(!ok(Draw, Some(Resignation)));
        assert!(!ok(WhiteWins, Some(MoveLimit)));
        assert!(!ok(WhiteWins, None));
        assert!(!ok(Draw, None));
        assert!(!ok(Unfinished, Some(Agreement)));
        assert!(!ok(WhiteWins, Some(Formation)));
        let e = check_result(None, 10, Draw, Some(Repetition)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Termination);
        assert_eq!(
            e.to_string(),
            "the Termination tag says `repetition`, but the rules have not ended the game after ply 10"
        );
    }
}
