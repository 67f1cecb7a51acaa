//! Statistics of finished games, per variant and agent pairing: outcomes with confidence
//! intervals, the first-player advantage in Elo, lengths, activity, and Ludii's metrics.
//! Computed from `games.csv` rows sorted by game index, so the numbers never depend on the
//! order in which games finished.

use crate::experiment::Experiment;
use crate::row::GameRow;
use crate::stats::{
    elo_from_score, quantile, two_sided_p, wilson, Interval, Pentanomial, Trinomial, Z95,
};
use agon_core::{GameResult, Termination};
use serde::Serialize;
use std::collections::BTreeMap;

/// The label of the per-variant group that pools every pairing (only when there are
/// several).
pub const ALL_PAIRINGS: &str = "all pairings";

/// Every (result, termination) combination that self-play can produce, in report order.
pub const OUTCOME_KINDS: [(GameResult, Termination); 8] = [
    (GameResult::WhiteWins, Termination::Formation),
    (GameResult::WhiteWins, Termination::SixGuards),
    (GameResult::WhiteWins, Termination::NoMoves),
    (GameResult::BlackWins, Termination::Formation),
    (GameResult::BlackWins, Termination::SixGuards),
    (GameResult::BlackWins, Termination::NoMoves),
    (GameResult::Draw, Termination::Repetition),
    (GameResult::Draw, Termination::DoublePass),
];

/// The whole report of an output directory.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Always `agon-selfplay`.
    pub tool: String,
    /// The experiment the games come from.
    pub experiment: Experiment,
    /// Games this directory should hold (all of the experiment, or one shard's share).
    pub games_expected: u64,
    /// Games it holds.
    pub games_played: u64,
    /// Games in which an agent's choices depended on the clock (not reproducible).
    pub time_limited_games: u64,
    /// One group per (variant, pairing), then per variant over all pairings when there
    /// are several.
    pub groups: Vec<GroupSummary>,
}

/// Statistics of one variant and pairing.
#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    /// Canonical rule-set name.
    pub variant: String,
    /// `A vs B` (the agents' specs), or [`ALL_PAIRINGS`].
    pub pairing: String,
    /// Finished games.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Draws of every kind (rule draws and ply-limit draws).
    pub draws: u64,
    /// Games by result and termination.
    pub by_termination: Vec<TerminationCount>,
    /// White's mean score (win 1, draw 1/2).
    pub white_score: Option<f64>,
    /// 95% Wilson interval of White's score, game by game.
    pub white_score_wilson: Option<Interval>,
    /// White's scores over colour-swapped pairs (complete pairs only).
    pub pairs: PairStats,
    /// The first-player advantage in Elo.
    pub first_player_elo: EloEstimate,
    /// Draws / games.
    pub draw_rate: Option<f64>,
    /// 95% Wilson interval of the draw rate.
    pub draw_rate_wilson: Option<Interval>,
    /// Move-limit (adjudicated) draws / games.
    pub move_limit_rate: Option<f64>,
    /// Game length in plies.
    pub length: LengthStats,
    /// Mean pieces captured per game.
    pub captures_per_game: Option<f64>,
    /// Mean relocations per game.
    pub relocations_per_game: Option<f64>,
    /// Score of the pairing's first agent (both colours), when two different agents meet.
    pub first_agent: Option<AgentScore>,
    /// Ludii's balance metrics, computed as Ludii computes them.
    pub ludii: LudiiMetrics,
}

/// Games of one (result, termination) combination.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TerminationCount {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// Why the games ended.
    pub termination: Termination,
    /// How many.
    pub games: u64,
}

/// White's score over colour-swapped pairs (the pentanomial model).
#[derive(Clone, Debug, Serialize)]
pub struct PairStats {
    /// Complete pairs (both games finished).
    pub complete: u64,
    /// Pairs in which White scored 0, 1/2, 1, 3/2, 2 points over the two games.
    pub pentanomial: [u64; 5],
    /// Mean score per game over complete pairs.
    pub white_score: Option<f64>,
    /// 95% interval from the pentanomial variance.
    pub interval: Option<Interval>,
}

/// An Elo difference with its 95% interval and a two-sided test against 0.
#[derive(Clone, Debug, Serialize)]
pub struct EloEstimate {
    /// The estimate (`None` when the score is 0 or 1).
    pub elo: Option<f64>,
    /// Elo of the interval's lower end.
    pub low: Option<f64>,
    /// Elo of the interval's upper end.
    pub high: Option<f64>,
    /// Which variance the interval uses: `pentanomial` (pairs) or `trinomial` (games).
    pub model: String,
    /// `(score - 1/2) / SE`.
    pub z: Option<f64>,
    /// Two-sided p-value of no advantage.
    pub p_value: Option<f64>,
    /// Whether `p < 0.05`.
    pub significant: bool,
    /// Whether the advantage stays significant at 5% after Holm's correction for testing
    /// every (variant, pairing) group of the report at once.
    pub significant_holm: bool,
}

/// Game length in plies.
#[derive(Clone, Debug, Serialize)]
pub struct LengthStats {
    /// Mean.
    pub mean: Option<f64>,
    /// Lower quartile.
    pub q1: Option<f64>,
    /// Median.
    pub median: Option<f64>,
    /// Upper quartile.
    pub q3: Option<f64>,
    /// Shortest.
    pub min: Option<f64>,
    /// Longest.
    pub max: Option<f64>,
}

/// An agent's score against its partner in a pairing.
#[derive(Clone, Debug, Serialize)]
pub struct AgentScore {
    /// The agent's spec.
    pub agent: String,
    /// Mean score over both colours.
    pub score: f64,
    /// 95% Wilson interval.
    pub wilson: Option<Interval>,
    /// Elo difference to the partner.
    pub elo: Option<f64>,
}

/// The metrics Ludii's evaluation publishes for every game, computed the way its code
/// does (see docs/selfplay.md for each definition).
#[derive(Clone, Debug, Serialize)]
pub struct LudiiMetrics {
    /// Mean of (utility of player 1 + 1)/2: wins 1, draws and unfinished games 1/2.
    pub advantage_p1: Option<f64>,
    /// 1 - |win rate of player 1 - win rate of player 2| (draws as half wins).
    pub balance: Option<f64>,
    /// Games with a winner / games.
    pub completion: Option<f64>,
    /// Rule draws (not ply-limit draws) / games.
    pub drawishness: Option<f64>,
    /// Mean plies per game.
    pub duration: Option<f64>,
    /// Mean over games of the mean number of legal actions per ply.
    pub branching_factor: Option<f64>,
    /// Mean over games of the share of plies with more than one legal action.
    pub decision_moves: Option<f64>,
}

impl Summary {
    /// Summarises `rows` (any order; sorted by index here) of `experiment`.
    pub fn new(experiment: &Experiment, rows: &[GameRow], games_expected: u64) -> Summary {
        let mut sorted: Vec<&GameRow> = rows.iter().collect();
        sorted.sort_by_key(|r| r.index);
        let mut blocks: Vec<Vec<&GameRow>> = vec![Vec::new(); experiment.blocks()];
        for row in &sorted {
            let block = experiment.block_of(row.index);
            if let Some(list) = blocks.get_mut(block) {
                list.push(row);
            }
        }
        let mut groups = Vec::new();
        for (b, rows) in blocks.iter().enumerate() {
            let (variant, pairing) = experiment.block(b);
            let first = (pairing.first != pairing.second).then_some(pairing.first.as_str());
            groups.push(GroupSummary::new(variant, &pairing.label(), first, rows));
        }
        holm(&mut groups);
        if experiment.pairings.len() > 1 {
            let per_variant = experiment.pairings.len();
            for (v, variant) in experiment.variants.iter().enumerate() {
                let pooled: Vec<&GameRow> = blocks[v * per_variant..(v + 1) * per_variant]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                groups.push(GroupSummary::new(variant, ALL_PAIRINGS, None, &pooled));
            }
        }
        Summary {
            tool: "agon-selfplay".into(),
            experiment: experiment.clone(),
            games_expected,
            games_played: rows.len() as u64,
            time_limited_games: rows.iter().filter(|r| r.time_limited).count() as u64,
            groups,
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| sum / n as f64)
}

fn ratio(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

impl GroupSummary {
    /// Statistics of `rows` (sorted by index). `first` names the agent whose score to
    /// report when two different agents meet.
    pub fn new(variant: &str, pairing: &str, first: Option<&str>, rows: &[&GameRow]) -> Self {
        let n = rows.len() as u64;
        let count = |result: GameResult| rows.iter().filter(|r| r.result == result).count() as u64;
        let white = Trinomial {
            wins: count(GameResult::WhiteWins),
            draws: count(GameResult::Draw),
            losses: count(GameResult::BlackWins),
        };
        let mut by_termination = Vec::new();
        let mut kinds: Vec<(GameResult, Termination)> = OUTCOME_KINDS.to_vec();
        kinds.push((GameResult::Draw, Termination::MoveLimit));
        for r in rows {
            if !kinds.contains(&(r.result, r.termination)) {
                kinds.push((r.result, r.termination));
            }
        }
        for (result, termination) in kinds {
            let games = rows
                .iter()
                .filter(|r| r.result == result && r.termination == termination)
                .count() as u64;
            if games > 0 {
                by_termination.push(TerminationCount {
                    result,
                    termination,
                    games,
                });
            }
        }
        let white_score = white.score();
        let score_sum = white.wins as f64 + 0.5 * white.draws as f64;
        let pairs = pair_stats(rows);
        let first_player_elo = elo_estimate(&white, &pairs);
        let mut lengths: Vec<f64> = rows.iter().map(|r| f64::from(r.plies)).collect();
        lengths.sort_by(f64::total_cmp);
        let rule_draws = rows
            .iter()
            .filter(|r| r.result == GameResult::Draw && r.termination.is_rule_ending())
            .count() as u64;
        let move_limit = rows
            .iter()
            .filter(|r| r.termination == Termination::MoveLimit)
            .count() as u64;
        let first_agent = first.map(|agent| {
            let mut t = Trinomial::default();
            for r in rows {
                let s = r.white_score();
                let s = if r.white == agent { s } else { 1.0 - s };
                match s {
                    x if x > 0.75 => t.wins += 1,
                    x if x < 0.25 => t.losses += 1,
                    _ => t.draws += 1,
                }
            }
            let score = t.score().unwrap_or(0.5);
            AgentScore {
                agent: agent.to_string(),
                score,
                wilson: wilson(t.wins as f64 + 0.5 * t.draws as f64, t.games(), Z95),
                elo: elo_from_score(score),
            }
        });
        let per_ply = |part: fn(&GameRow) -> f64| {
            mean(
                rows.iter()
                    .filter(|r| r.plies > 0)
                    .map(|r| part(r) / f64::from(r.plies)),
            )
        };
        GroupSummary {
            variant: variant.to_string(),
            pairing: pairing.to_string(),
            games: n,
            white_wins: white.wins,
            black_wins: white.losses,
            draws: white.draws,
            by_termination,
            white_score,
            white_score_wilson: wilson(score_sum, n, Z95),
            pairs,
            first_player_elo,
            draw_rate: ratio(white.draws, n),
            draw_rate_wilson: wilson(white.draws as f64, n, Z95),
            move_limit_rate: ratio(move_limit, n),
            length: LengthStats {
                mean: mean(lengths.iter().copied()),
                q1: quantile(&lengths, 0.25),
                median: quantile(&lengths, 0.5),
                q3: quantile(&lengths, 0.75),
                min: lengths.first().copied(),
                max: lengths.last().copied(),
            },
            captures_per_game: mean(rows.iter().map(|r| f64::from(r.captures))),
            relocations_per_game: mean(rows.iter().map(|r| f64::from(r.relocations))),
            first_agent,
            ludii: LudiiMetrics {
                advantage_p1: white_score,
                balance: white_score.map(|s| 1.0 - (s - (1.0 - s)).abs()),
                completion: ratio(white.wins + white.losses, n),
                drawishness: ratio(rule_draws, n),
                duration: mean(rows.iter().map(|r| f64::from(r.plies))),
                branching_factor: per_ply(|r| r.legal_actions as f64),
                decision_moves: per_ply(|r| f64::from(r.decision_plies)),
            },
        }
    }

    /// Games of a (result, termination) combination.
    pub fn terminations(&self, result: GameResult, termination: Termination) -> u64 {
        self.by_termination
            .iter()
            .find(|t| t.result == result && t.termination == termination)
            .map_or(0, |t| t.games)
    }
}

/// White's pentanomial over the complete pairs among `rows`.
fn pair_stats(rows: &[&GameRow]) -> PairStats {
    let mut by_pair: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for r in rows {
        by_pair.entry(r.pair).or_default().push(r.white_score());
    }
    let mut penta = Pentanomial::default();
    for scores in by_pair.values() {
        if let [a, b] = scores[..] {
            penta.add(a, b);
        }
    }
    PairStats {
        complete: penta.pairs(),
        pentanomial: penta.counts,
        white_score: penta.score(),
        interval: penta.interval(Z95),
    }
}

/// The first-player advantage: Elo of White's score, the interval from the pentanomial
/// standard error when there are at least two complete pairs (else the per-game trinomial
/// one), mapped through the Elo formula, and `z = (s - 1/2)/SE`.
fn elo_estimate(white: &Trinomial, pairs: &PairStats) -> EloEstimate {
    let penta = Pentanomial {
        counts: pairs.pentanomial,
    };
    let (model, score, se) = match (penta.score(), penta.std_error()) {
        (Some(s), Some(se)) => ("pentanomial", Some(s), Some(se)),
        _ => ("trinomial", white.score(), white.std_error()),
    };
    let z = match (score, se) {
        (Some(s), Some(se)) if se > 0.0 => Some((s - 0.5) / se),
        _ => None,
    };
    let p_value = z.map(two_sided_p);
    let end = |sign: f64| match (score, se) {
        (Some(s), Some(se)) => elo_from_score((s + sign * Z95 * se).clamp(0.0, 1.0)),
        _ => None,
    };
    EloEstimate {
        elo: score.and_then(elo_from_score),
        low: end(-1.0),
        high: end(1.0),
        model: model.to_string(),
        z,
        p_value,
        significant: p_value.is_some_and(|p| p < 0.05),
        significant_holm: false,
    }
}

/// Holm's step-down correction at 5% over the given groups: sort their p-values
/// ascending; the k-th smallest (k = 0, 1, ...) is significant while `p ≤ 0.05/(m - k)`,
/// and every test after the first one that fails is not.
fn holm(groups: &mut [GroupSummary]) {
    let mut order: Vec<(f64, usize)> = groups
        .iter()
        .enumerate()
        .filter_map(|(i, g)| g.first_player_elo.p_value.map(|p| (p, i)))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let m = order.len();
    for (k, &(p, i)) in order.iter().enumerate() {
        if p > 0.05 / (m - k) as f64 {
            break;
        }
        groups[i].first_player_elo.significant_holm = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Kind, Pairing};

    fn row(index: u64, result: GameResult, termination: Termination, plies: u32) -> GameRow {
        GameRow {
            index,
            variant: "standard".into(),
            white: "random".into(),
            black: "random".into(),
            pair: index / 2,
            opening: String::new(),
            result,
            termination,
            plies,
            captures: 2,
            relocations: 1,
            passes: 0,
            decision_plies: plies / 2,
            legal_actions: u64::from(plies) * 10,
            seed: 1,
            time_limited: false,
            duration_ms: 0.0,
        }
    }

    fn experiment() -> Experiment {
        Experiment {
            kind: Kind::Run,
            variants: vec!["standard".into()],
            pairings: vec![Pairing {
                first: "random".into(),
                second: "random".into(),
            }],
            games: 6,
            opening_plies: 0,
            max_plies: 1000,
            seed: 1,
        }
    }

    #[test]
    fn counts_rates_and_ludii_metrics_by_hand() {
        use GameResult::*;
        use Termination::*;
        // Pairs: (1-0, 1-0) 2 points, (1-0, draw) 3/2, (0-1, draw) 1/2.
        let rows = vec![
            row(5, Draw, MoveLimit, 1000),
            row(0, WhiteWins, Formation, 100),
            row(1, WhiteWins, NoMoves, 200),
            row(2, WhiteWins, Formation, 300),
            row(3, Draw, Repetition, 400),
            row(4, BlackWins, SixGuards, 500),
        ];
        let s = Summary::new(&experiment(), &rows, 6);
        let g = &s.groups[0];
        assert_eq!((g.games, g.white_wins, g.black_wins, g.draws), (6, 3, 1, 2));
        assert_eq!(g.terminations(WhiteWins, Formation), 2);
        assert_eq!(g.terminations(Draw, MoveLimit), 1);
        // White score (3 + 1) / 6.
        assert!((g.white_score.unwrap() - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(g.pairs.pentanomial, [0, 1, 0, 1, 1]);
        assert_eq!(g.pairs.complete, 3);
        assert_eq!(g.first_player_elo.model, "pentanomial");
        assert_eq!(g.length.median, Some(350.0));
        assert_eq!(g.length.q1, Some(225.0));
        assert_eq!(g.length.mean, Some(2500.0 / 6.0));
        assert_eq!(g.ludii.completion, Some(4.0 / 6.0));
        assert_eq!(g.ludii.drawishness, Some(1.0 / 6.0));
        assert_eq!(g.move_limit_rate, Some(1.0 / 6.0));
        assert!((g.ludii.balance.unwrap() - (1.0 - 2.0 / 6.0)).abs() < 1e-12);
        assert!((g.ludii.branching_factor.unwrap() - 10.0).abs() < 1e-12);
        assert!((g.ludii.decision_moves.unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(g.captures_per_game, Some(2.0));
        assert!(g.first_agent.is_none());
    }

    #[test]
    fn elo_interval_uses_pairs() {
        use GameResult::*;
        use Termination::*;
        let mut rows = Vec::new();
        // 8 pairs: White wins both games in 4 pairs, splits in 4: mean 0.75.
        for p in 0..8u64 {
            rows.push(row(2 * p, WhiteWins, Formation, 50));
            let second = if p < 4 { WhiteWins } else { BlackWins };
            rows.push(row(2 * p + 1, second, Formation, 50));
        }
        let mut e = experiment();
        e.games = 16;
        let g = &Summary::new(&e, &rows, 16).groups[0];
        assert_eq!(g.pairs.pentanomial, [0, 0, 4, 0, 4]);
        // Per-pair values 1 and 0.5: var = 0.0625, SE = sqrt(0.0625/8).
        let se = (0.0625f64 / 8.0).sqrt();
        let e = &g.first_player_elo;
        assert!((e.elo.unwrap() - elo_from_score(0.75).unwrap()).abs() < 1e-9);
        assert!((e.low.unwrap() - elo_from_score(0.75 - Z95 * se).unwrap()).abs() < 1e-9);
        assert!((e.z.unwrap() - 0.25 / se).abs() < 1e-9);
        assert!(e.significant);
        assert!(e.significant_holm, "one test: Holm is the plain test");
    }

    #[test]
    fn holm_steps_down() {
        let mut groups: Vec<GroupSummary> = [0.04, 0.01, 0.03, 0.2]
            .iter()
            .map(|&p| {
                let mut g = GroupSummary::new("standard", "x", None, &[]);
                g.first_player_elo.p_value = Some(p);
                g
            })
            .collect();
        holm(&mut groups);
        // Sorted: 0.01 <= 0.05/4 yes; 0.03 <= 0.05/3 no: stop.
        let flags: Vec<bool> = groups
            .iter()
            .map(|g| g.first_player_elo.significant_holm)
            .collect();
        assert_eq!(flags, [false, true, false, false]);
    }
}
