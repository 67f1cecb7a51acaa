//! The verdicts of the race, each a sequential test of the statistics module (the
//! pentanomial generalised SPRT of [`crate::stats::sprt`], run over the prefix of pairs in
//! index order by [`crate::sample::sprt_over_prefix`]), so that a verdict depends only on
//! the pairs before the point where it was reached, never on how the pairs were split into
//! rounds, shards or threads.
//!
//! - **Fairness** is two one-sided tests of White's pair score (in logistic Elo, `E` the
//!   Elo of `1/2 + margin`): `0` against `+E` ("White's advantage") and `-E` against `0`
//!   ("Black's advantage"). Accepting `+E` gives *favours White*; accepting `-E` gives
//!   *favours Black*; accepting `0` in both gives *balanced* (within about ±margin).
//! - **Decisiveness** tests the share of decisive games: a pair counts its decisive games
//!   (0, 1 or 2, the same 0..4 half-point scale with mean equal to the decisive rate),
//!   rate `D/2` against rate `D` (`D` = `--drawish`). Accepting `D/2` gives *drawish*,
//!   accepting `D` gives *decisive*.
//!
//! Each test has error rates `alpha` (a false *favours*, a false *drawish* ... for the
//! hypothesis it accepts wrongly) and `beta`.

use crate::sample::{sprt_over_prefix, PairRecord, SprtResult};
use crate::stats::sprt::{Hypothesis, SprtSpec};
use crate::stats::{elo_from_score, score_from_elo};
use serde::{Deserialize, Serialize};

/// The parameters of the race's tests.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tests {
    /// Balanced means White's score within `1/2 ± margin`.
    pub margin: f64,
    /// Drawish means fewer than this share of the games decisive (tested against half of it).
    pub drawish: f64,
    /// The chance of accepting an alternative wrongly.
    pub alpha: f64,
    /// The chance of rejecting it wrongly.
    pub beta: f64,
}

impl Eq for Tests {}

/// The default margin of balance (the statistics' default equivalence margin).
pub const DEFAULT_MARGIN: f64 = crate::summary::DEFAULT_MARGIN;
/// The default drawish threshold: fewer than 10% decisive games.
pub const DEFAULT_DRAWISH: f64 = 0.10;
/// The default error rates.
pub const DEFAULT_ALPHA: f64 = 0.05;

impl Default for Tests {
    fn default() -> Tests {
        Tests {
            margin: DEFAULT_MARGIN,
            drawish: DEFAULT_DRAWISH,
            alpha: DEFAULT_ALPHA,
            beta: DEFAULT_ALPHA,
        }
    }
}

impl Tests {
    /// Checks the parameters.
    pub fn checked(self) -> Result<Tests, String> {
        if !(self.margin > 0.0 && self.margin < 0.5) {
            return Err(format!(
                "--margin must lie strictly between 0 and 0.5 (a share of points), not {}",
                self.margin
            ));
        }
        if !(self.drawish > 0.0 && self.drawish < 1.0) {
            return Err(format!(
                "--drawish must lie strictly between 0 and 1 (a share of games), not {}",
                self.drawish
            ));
        }
        for (name, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!(
                    "--{name} must lie strictly between 0 and 0.5, not {v}"
                ));
            }
        }
        Ok(self)
    }

    /// `E`: the Elo of a White score of `1/2 + margin`.
    pub fn margin_elo(&self) -> f64 {
        elo_from_score(0.5 + self.margin).expect("a margin below 1/2")
    }

    fn spec(&self, elo0: f64, elo1: f64) -> SprtSpec {
        SprtSpec {
            elo0,
            elo1,
            alpha: self.alpha,
            beta: self.beta,
        }
    }

    /// The test of White's advantage: `0` against `+E`.
    pub fn white_test(&self) -> SprtSpec {
        self.spec(0.0, self.margin_elo())
    }

    /// The test of Black's advantage: `-E` against `0`.
    pub fn black_test(&self) -> SprtSpec {
        self.spec(-self.margin_elo(), 0.0)
    }

    /// The test of drawishness: decisive rate `D/2` against `D`.
    pub fn drawish_test(&self) -> SprtSpec {
        let elo = |rate: f64| elo_from_score(rate).expect("a rate strictly inside (0, 1)");
        self.spec(elo(self.drawish / 2.0), elo(self.drawish))
    }
}

/// Whether the first move decides, as far as the pairs tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fairness {
    /// White's score is at least `1/2 + margin`.
    FavoursWhite,
    /// White's score is at most `1/2 - margin`.
    FavoursBlack,
    /// White's score is within the margin of 1/2.
    Balanced,
    /// Not decided yet.
    Open,
}

/// Whether games end with a winner, as far as the pairs tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decisiveness {
    /// At most `D/2` of the games decisive.
    Drawish,
    /// At least `D` of the games decisive.
    Decisive,
    /// Not decided yet.
    Open,
}

impl Fairness {
    /// The verdict in words (`favours-white`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Fairness::FavoursWhite => "favours-white",
            Fairness::FavoursBlack => "favours-black",
            Fairness::Balanced => "balanced",
            Fairness::Open => "open",
        }
    }
}

impl Decisiveness {
    /// The verdict in words (`drawish`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Decisiveness::Drawish => "drawish",
            Decisiveness::Decisive => "decisive",
            Decisiveness::Open => "open",
        }
    }
}

/// A rule set's verdicts after a prefix of its pairs, with the tests behind them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdicts {
    /// Fairness.
    pub fairness: Fairness,
    /// Decisiveness.
    pub decisiveness: Decisiveness,
    /// The test of White's advantage.
    pub white_test: SprtResult,
    /// The test of Black's advantage.
    pub black_test: SprtResult,
    /// The test of drawishness.
    pub drawish_test: SprtResult,
}

impl Verdicts {
    /// Whether the verdicts take the rule set out of the race: its fairness is decided,
    /// or it is drawish.
    pub fn settled(&self) -> bool {
        self.fairness != Fairness::Open || self.decisiveness == Decisiveness::Drawish
    }

    /// Why a settled rule set left the race, in words (drawish first: the balance of a
    /// game that is nearly always drawn says little).
    pub fn reason(&self) -> &'static str {
        if self.decisiveness == Decisiveness::Drawish {
            "drawish"
        } else {
            self.fairness.name()
        }
    }
}

/// A pair's decisive games on the half-point scale: 0, 2 or 4 (mean: the decisive rate).
fn decisive_half_points(pair: &PairRecord) -> Option<u8> {
    pair.complete()
        .then(|| 2 * pair.played().filter(|g| g.decisive()).count() as u8)
}

/// The verdicts of a rule set over its pairs (a prefix in index order; the tests stop at
/// the first incomplete pair).
pub fn judge(tests: &Tests, pairs: &[PairRecord]) -> Verdicts {
    let white_points = || pairs.iter().map(PairRecord::white_half_points);
    let white_test = sprt_over_prefix(&tests.white_test(), white_points());
    let black_test = sprt_over_prefix(&tests.black_test(), white_points());
    let drawish_test = sprt_over_prefix(
        &tests.drawish_test(),
        pairs.iter().map(decisive_half_points),
    );
    let fairness = match (white_test.decision, black_test.decision) {
        (Some(Hypothesis::H1), Some(Hypothesis::H0)) => {
            // Both advantages accepted: the one reached first stands.
            if white_test.pairs <= black_test.pairs {
                Fairness::FavoursWhite
            } else {
                Fairness::FavoursBlack
            }
        }
        (Some(Hypothesis::H1), _) => Fairness::FavoursWhite,
        (_, Some(Hypothesis::H0)) => Fairness::FavoursBlack,
        (Some(Hypothesis::H0), Some(Hypothesis::H1)) => Fairness::Balanced,
        _ => Fairness::Open,
    };
    let decisiveness = match drawish_test.decision {
        Some(Hypothesis::H0) => Decisiveness::Drawish,
        Some(Hypothesis::H1) => Decisiveness::Decisive,
        None => Decisiveness::Open,
    };
    Verdicts {
        fairness,
        decisiveness,
        white_test,
        black_test,
        drawish_test,
    }
}

/// The decisive rate a drawish test's hypotheses stand for (for reports): `(D/2, D)`.
pub fn drawish_rates(tests: &Tests) -> (f64, f64) {
    let spec = tests.drawish_test();
    (score_from_elo(spec.elo0), score_from_elo(spec.elo1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::GameStat;
    use agon_core::{GameResult, Termination};

    fn game(result: GameResult) -> Option<GameStat> {
        let termination = match result {
            GameResult::Draw => Termination::Repetition,
            _ => Termination::Formation,
        };
        Some(GameStat {
            result,
            termination,
            plies: 100,
            captures: 0,
            relocations: 0,
            decision_plies: 0,
            legal_actions: 0,
        })
    }

    fn pairs(n: usize, a: GameResult, b: GameResult) -> Vec<PairRecord> {
        vec![
            PairRecord {
                games: [game(a), game(b)]
            };
            n
        ]
    }

    #[test]
    fn white_sweeps_favour_white_and_are_not_drawish() {
        use GameResult::*;
        let v = judge(&Tests::default(), &pairs(200, WhiteWins, WhiteWins));
        assert_eq!(v.fairness, Fairness::FavoursWhite);
        assert_eq!(v.decisiveness, Decisiveness::Decisive);
        assert!(v.settled());
        assert_eq!(v.reason(), "favours-white");
        // The test stops at its decision: fewer pairs than given.
        assert!(v.white_test.pairs < 200, "{}", v.white_test.pairs);
        let v = judge(&Tests::default(), &pairs(200, BlackWins, BlackWins));
        assert_eq!(v.fairness, Fairness::FavoursBlack);
    }

    #[test]
    fn all_draws_are_drawish_and_balanced() {
        use GameResult::*;
        let v = judge(&Tests::default(), &pairs(300, Draw, Draw));
        assert_eq!(v.decisiveness, Decisiveness::Drawish);
        assert_eq!(v.reason(), "drawish");
        assert_eq!(v.fairness, Fairness::Balanced);
        // Too few pairs decide nothing.
        let v = judge(&Tests::default(), &pairs(2, Draw, Draw));
        assert_eq!(
            (v.fairness, v.decisiveness),
            (Fairness::Open, Decisiveness::Open)
        );
        assert!(!v.settled());
    }

    #[test]
    fn split_pairs_are_balanced_only_with_enough_evidence() {
        use GameResult::*;
        // Every pair split 1-1: White's pair score is exactly 1/2 with no variance.
        let v = judge(&Tests::default(), &pairs(3, WhiteWins, BlackWins));
        assert_eq!(v.fairness, Fairness::Open);
        let v = judge(&Tests::default(), &pairs(3000, WhiteWins, BlackWins));
        assert_eq!(v.fairness, Fairness::Balanced);
        assert_eq!(v.decisiveness, Decisiveness::Decisive);
    }

    #[test]
    fn verdicts_depend_on_the_prefix_only() {
        use GameResult::*;
        let mut p = pairs(100, WhiteWins, WhiteWins);
        let decided = judge(&Tests::default(), &p);
        // Pairs after the decision do not change it, whatever they hold.
        p.extend(pairs(100, BlackWins, BlackWins));
        assert_eq!(judge(&Tests::default(), &p), decided);
    }

    #[test]
    fn parameters_are_checked() {
        let bad = [
            Tests {
                margin: 0.0,
                ..Tests::default()
            },
            Tests {
                drawish: 1.0,
                ..Tests::default()
            },
            Tests {
                alpha: 0.5,
                ..Tests::default()
            },
        ];
        for t in bad {
            assert!(t.checked().is_err(), "{t:?}");
        }
        let (low, high) = drawish_rates(&Tests::default());
        assert!((low - 0.05).abs() < 1e-12 && (high - 0.10).abs() < 1e-12);
        // E for a 2-point margin: 400 log10(0.52/0.48) = 13.9 Elo.
        assert!((Tests::default().margin_elo() - 13.905).abs() < 1e-3);
    }
}
