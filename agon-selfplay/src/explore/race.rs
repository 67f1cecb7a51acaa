//! The race: rounds of games, each giving every live rule set more pairs, with the rule
//! sets whose verdicts are settled leaving after each round.
//!
//! Round `r` brings every live rule set to `first_pairs · 2^r` pairs (at most
//! `max_pairs`). When the budget cannot pay for that, the last round shares what is left
//! equally among the live rule sets. A rule set leaves the race when its verdicts are
//! settled ([`Verdicts::settled`]) or when it reached `max_pairs`; the race ends when no
//! rule set is live or the budget cannot give each live rule set one more pair.
//!
//! The whole state of the race is a function of the spec and of the games played:
//! [`Race::replay`] recomputes it from the games, round by round, judging each round on
//! exactly the pairs the rounds so far planned. That makes a race resumable after any
//! interruption, splittable into shards on any machines, and the same at any thread
//! count.

use super::spec::ExploreSpec;
use super::verdict::{judge, Verdicts};
use crate::experiment::Experiment;
use crate::sample::{PairRecord, Samples};
use serde::Serialize;
use std::ops::Range;

/// The pairs a round gives one rule set: `from..to` (pair numbers within its block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Allotment {
    /// The rule set's block (its place in the spec's list).
    pub block: usize,
    /// The first pair.
    pub from: u64,
    /// One past the last pair.
    pub to: u64,
}

/// What one round plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundPlan {
    /// The round's number, from 0.
    pub number: usize,
    /// Pairs per live rule set, in block order.
    pub allotments: Vec<Allotment>,
}

impl RoundPlan {
    /// The game indices of the round, as ranges of the race's experiment.
    pub fn ranges(&self, experiment: &Experiment) -> Vec<Range<u64>> {
        self.allotments
            .iter()
            .map(|a| {
                let start = a.block as u64 * experiment.games;
                start + 2 * a.from..start + 2 * a.to
            })
            .collect()
    }

    /// Games the round plays.
    pub fn games(&self) -> u64 {
        self.allotments.iter().map(|a| 2 * (a.to - a.from)).sum()
    }
}

/// A round that was played: its plan and who left after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundRecord {
    /// The plan.
    #[serde(flatten)]
    pub plan: RoundPlan,
    /// Rule sets in the race when it started.
    pub live: usize,
    /// Games it played.
    pub games: u64,
    /// The rule sets (block numbers) that left after it.
    pub left: Vec<usize>,
}

/// Where a rule set stands in the race.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// Pairs the race gave it.
    pub pairs: u64,
    /// Its verdicts over those pairs (`None` before its first round).
    pub verdicts: Option<Verdicts>,
    /// The round after which it left the race (`None`: still in it, or in it at the end).
    pub left_after: Option<usize>,
    /// Why it left: `favours-white`, `favours-black`, `balanced`, `drawish` or
    /// `max-pairs`.
    pub reason: Option<String>,
}

/// The race's state: the rounds played, the standings, and the next round, if any.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Race {
    /// Rounds whose games are all in.
    pub rounds: Vec<RoundRecord>,
    /// Per rule set (block order).
    pub standings: Vec<Standing>,
    /// The round to play next (`None`: the race is over).
    pub next: Option<RoundPlan>,
    /// Games of the completed rounds.
    pub games: u64,
}

impl Race {
    /// The state of the race given the games in `samples` (the race experiment's pairs).
    pub fn replay(spec: &ExploreSpec, samples: &Samples) -> Race {
        let n = spec.rule_sets.len();
        let mut standings = vec![
            Standing {
                pairs: 0,
                verdicts: None,
                left_after: None,
                reason: None,
            };
            n
        ];
        let mut live: Vec<usize> = (0..n).collect();
        let mut left_budget = spec.budget_pairs();
        let mut rounds = Vec::new();
        let mut games = 0;
        let next = loop {
            let number = rounds.len();
            let Some(plan) = plan_round(spec, number, &live, &standings, left_budget) else {
                break None;
            };
            let complete = plan.allotments.iter().all(|a| {
                let pairs = &samples.blocks[a.block];
                (a.from..a.to).all(|p| pairs.get(p as usize).is_some_and(PairRecord::complete))
            });
            if !complete {
                break Some(plan);
            }
            let played = plan.games();
            let mut left = Vec::new();
            for a in &plan.allotments {
                let standing = &mut standings[a.block];
                standing.pairs = a.to;
                left_budget -= a.to - a.from;
                let verdicts = judge(&spec.tests, &samples.blocks[a.block][..a.to as usize]);
                let reason = if verdicts.settled() {
                    Some(verdicts.reason().to_string())
                } else if a.to >= spec.max_pairs {
                    Some("max-pairs".to_string())
                } else {
                    None
                };
                if reason.is_some() {
                    standing.left_after = Some(number);
                    standing.reason = reason;
                    left.push(a.block);
                }
                standing.verdicts = Some(verdicts);
            }
            live.retain(|b| !left.contains(b));
            games += played;
            rounds.push(RoundRecord {
                live: plan.allotments.len(),
                games: played,
                plan,
                left,
            });
        };
        Race {
            rounds,
            standings,
            next,
            games,
        }
    }

    /// Whether the race is over.
    pub fn finished(&self) -> bool {
        self.next.is_none()
    }

    /// The rule sets (blocks) still in the race at its end that were not found unfair or
    /// drawish: those whose fairness is `balanced` or still `open`, and not drawish.
    pub fn survivors(&self) -> Vec<usize> {
        self.standings
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.verdicts.as_ref().is_some_and(|v| {
                    use super::verdict::{Decisiveness, Fairness};
                    v.decisiveness != Decisiveness::Drawish
                        && matches!(v.fairness, Fairness::Balanced | Fairness::Open)
                })
            })
            .map(|(b, _)| b)
            .collect()
    }

    /// Each rule set's pairs as the race planned them (for the statistics).
    pub fn pairs_of(&self, block: usize) -> u64 {
        self.standings[block].pairs
    }
}

/// The plan of round `number` for the `live` rule sets, or `None` when the race is over.
fn plan_round(
    spec: &ExploreSpec,
    number: usize,
    live: &[usize],
    standings: &[Standing],
    left_budget: u64,
) -> Option<RoundPlan> {
    let target = spec
        .first_pairs
        .saturating_mul(1u64.checked_shl(number as u32)?)
        .min(spec.max_pairs);
    let need: Vec<(usize, u64)> = live
        .iter()
        .map(|&b| (b, target.saturating_sub(standings[b].pairs)))
        .collect();
    let demand: u64 = need.iter().map(|(_, k)| k).sum();
    if live.is_empty() || demand == 0 {
        return None;
    }
    let share = if demand <= left_budget {
        u64::MAX
    } else {
        left_budget / live.len() as u64
    };
    if share == 0 {
        return None;
    }
    let allotments: Vec<Allotment> = need
        .iter()
        .map(|&(block, k)| {
            let from = standings[block].pairs;
            Allotment {
                block,
                from,
                to: from + k.min(share),
            }
        })
        .filter(|a| a.to > a.from)
        .collect();
    (!allotments.is_empty()).then_some(RoundPlan { number, allotments })
}

#[cfg(test)]
mod tests {
    use super::super::family::Family;
    use super::super::verdict::Tests;
    use super::*;
    use crate::adjudication::Adjudication;
    use crate::row::test_row;
    use agon_core::{GameResult, Termination};

    fn spec(budget: u64, first: Option<u64>) -> ExploreSpec {
        let family = Family::new(
            &[
                "capture=line,ring".to_string(),
                "intervention=forbidden,suicide".to_string(),
            ],
            false,
            None,
        )
        .unwrap();
        ExploreSpec::new(
            family,
            "random",
            budget,
            None,
            first,
            (0, 100, 1),
            Adjudication::default(),
            None,
            Tests::default(),
            None,
        )
        .unwrap()
    }

    /// Plays every game of a plan: in rule set 0 (standard) White always wins, rule set 1
    /// (capture=ring) is always drawn, in rule set 2 each side wins one game of every pair,
    /// and in rule set 3 pairs go to White, to Black, and split twice, in turn (balanced,
    /// but with too much variance to show it within the budget).
    fn play(spec: &ExploreSpec, plan: &RoundPlan, rows: &mut Vec<crate::GameRow>) {
        let e = spec.experiment().unwrap();
        for range in plan.ranges(&e) {
            for index in range {
                let block = e.block_of(index) as u64;
                let pair = index % e.games / 2;
                let white = (GameResult::WhiteWins, Termination::Formation);
                let black = (GameResult::BlackWins, Termination::Formation);
                let (result, termination) = match (block, pair % 4, index % 2) {
                    (0, _, _) => white,
                    (1, _, _) => (GameResult::Draw, Termination::Repetition),
                    (3, 0, _) => white,
                    (3, 1, _) => black,
                    (_, _, 0) => white,
                    _ => black,
                };
                rows.push(test_row(&e, index, result, termination));
            }
        }
    }

    #[test]
    fn rounds_double_and_settled_rule_sets_leave() {
        let spec = spec(2000, Some(6));
        let e = spec.experiment().unwrap();
        let mut rows = Vec::new();
        let mut plans = Vec::new();
        let race = loop {
            let race = Race::replay(&spec, &Samples::of_rows(&e, &rows));
            match &race.next {
                Some(plan) => {
                    plans.push(plan.clone());
                    play(&spec, plan, &mut rows);
                }
                None => break race,
            }
        };
        // Round 0: 6 pairs each; round 1: up to 12; each round doubles.
        assert_eq!(plans[0].allotments.len(), 4);
        assert!(plans[0].allotments.iter().all(|a| (a.from, a.to) == (0, 6)));
        assert!(plans[1]
            .allotments
            .iter()
            .all(|a| a.from == 6 && a.to == 12));
        // White's sweeps leave as favouring White, the drawn rule set as drawish.
        let reason = |b: usize| race.standings[b].reason.clone();
        assert_eq!(reason(0).as_deref(), Some("favours-white"));
        assert_eq!(reason(1).as_deref(), Some("drawish"));
        // Split pairs show balance; rule set 3 stays open until the budget ends the race.
        assert_eq!(reason(2).as_deref(), Some("balanced"));
        assert_eq!(reason(3), None);
        assert!(race.standings[3].pairs > race.standings[2].pairs);
        assert_eq!(race.survivors(), [2, 3]);
        let total: u64 = race.standings.iter().map(|s| 2 * s.pairs).sum();
        assert_eq!(total, race.games);
        assert!(
            race.games <= spec.budget,
            "{} > {}",
            race.games,
            spec.budget
        );
        assert_eq!(race.games, rows.len() as u64);
        // Replaying the finished race from all its games gives the same state.
        assert_eq!(Race::replay(&spec, &Samples::of_rows(&e, &rows)), race);
    }

    #[test]
    fn an_incomplete_round_is_the_next_one() {
        let spec = spec(400, None);
        let e = spec.experiment().unwrap();
        let race = Race::replay(&spec, &Samples::of_rows(&e, &[]));
        let plan = race.next.clone().unwrap();
        assert_eq!(plan.number, 0);
        let mut rows = Vec::new();
        play(&spec, &plan, &mut rows);
        rows.pop();
        let race = Race::replay(&spec, &Samples::of_rows(&e, &rows));
        assert_eq!(race.next, Some(plan));
        assert!(race.rounds.is_empty());
    }

    #[test]
    fn the_last_round_shares_what_is_left() {
        // 4 rule sets, 100 pairs: first round 6 each (24), then 12 (24 more), then 24
        // would need 48 of the 52 left, then 48 would need 96: the last round shares 4.
        let spec = spec(200, Some(6));
        let left_budget = 200 / 2 - 24 - 24 - 48;
        let standings: Vec<Standing> = (0..4)
            .map(|_| Standing {
                pairs: 24,
                verdicts: None,
                left_after: None,
                reason: None,
            })
            .collect();
        let plan = plan_round(&spec, 3, &[0, 1, 2, 3], &standings, left_budget).unwrap();
        assert!(plan.allotments.iter().all(|a| a.to - a.from == 1));
        assert_eq!(plan_round(&spec, 4, &[0, 1, 2, 3], &standings, 3), None);
    }
}
