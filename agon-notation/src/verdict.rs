//! Whether a record's result and termination fit its game (docs/notation.md).
//!
//! A game the rules ended must carry that result (and, if it names one, that termination).
//! A game the rules did not end may stop with `*`, with a decisive result and `Termination`
//! `resignation` or `time-forfeit` (or a referee's `illegal-move`, `crash` or `timeout`, when
//! an external engine failed), with `1/2-1/2` and `agreement` or `move-limit`, or with any
//! result and `adjudication` (a harness judged the game from the players' scores).

use crate::error::ErrorKind;
use agon_core::{GameResult, Outcome, Termination};

/// A result that does not fit the game, with the kind of defect and an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictError {
    /// [`ErrorKind::Result`] or [`ErrorKind::Termination`].
    pub kind: ErrorKind,
    /// What the rules say and what the record should carry.
    pub message: String,
}

impl std::fmt::Display for VerdictError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
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
    let fail = |kind, message: String| Err(VerdictError { kind, message });
    if let Some(outcome) = rule_outcome.filter(|o| o.termination.is_rule_ending()) {
        let ended = format!(
            "the rules ended the game after ply {plies} by {} ({})",
            outcome.termination,
            describe(outcome.result)
        );
        if result != outcome.result {
            return fail(
                ErrorKind::Result,
                format!(
                    "{ended}, so the result must be {}, not {result}",
                    outcome.result
                ),
            );
        }
        if let Some(t) = termination.filter(|&t| t != outcome.termination) {
            return fail(
                ErrorKind::Termination,
                format!("{ended}, but the Termination tag says `{t}`"),
            );
        }
        return Ok(());
    }
    let open = format!("the rules have not ended the game after ply {plies}");
    match (result, termination) {
        (GameResult::Unfinished, None) => Ok(()),
        (GameResult::Unfinished, Some(t)) => fail(
            ErrorKind::Termination,
            format!("the Termination tag says `{t}`, but the result is `*` (unfinished)"),
        ),
        (_, Some(t)) if t.is_rule_ending() => fail(
            ErrorKind::Termination,
            format!("the Termination tag says `{t}`, but {open}"),
        ),
        (_, Some(t)) if allowed_results(t).contains(&result) => Ok(()),
        (_, Some(t)) => fail(
            ErrorKind::Result,
            format!(
                "a game stopped by {t} ends {}, not {result}",
                allowed_results(t)
                    .iter()
                    .map(|r| r.token())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ),
        (GameResult::Draw, None) => fail(
            ErrorKind::Result,
            format!(
                "{open}, so the draw 1/2-1/2 needs [Termination \"agreement\"] or \
                 [Termination \"move-limit\"] (or the result `*`)"
            ),
        ),
        (_, None) => fail(
            ErrorKind::Result,
            format!(
                "{open}, so the result {result} needs [Termination \"resignation\"] or \
                 [Termination \"time-forfeit\"] (or the result `*`)"
            ),
        ),
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
        assert_eq!(e.kind, ErrorKind::Result);
        let as_error: &dyn std::error::Error = &e;
        assert_eq!(as_error.to_string(), e.message);
        assert_eq!(
            e.message,
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
        assert_eq!(e.kind, ErrorKind::Termination);
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
        assert_eq!(e.kind, ErrorKind::Termination);
        assert_eq!(
            e.message,
            "the Termination tag says `repetition`, but the rules have not ended the game after ply 10"
        );
    }
}
