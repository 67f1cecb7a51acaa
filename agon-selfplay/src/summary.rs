//! Statistics of finished games, per variant and agent pairing: outcomes with move-limit
//! (undecided) games kept apart from draws by the rules, the first-player advantage with
//! an exact test, equivalence, the smallest detectable effect, the SPRT, bootstrap
//! intervals, Ludii's metrics, contrasts against a baseline variant, and a tournament's
//! ratings. Computed from the compact per-pair records of [`crate::sample`], so the
//! numbers never depend on the order in which games finished.

use crate::by_opening::{by_opening, OpeningSummary};
use crate::contrasts::{contrasts, Contrast};
use crate::error::{Error, Result};
use crate::experiment::{Experiment, Kind};
use crate::ratings::{rate, RatingOptions, Ratings};
use crate::row::GameRow;
use crate::sample::sums::*;
use crate::sample::{GameStat, PairRecord, Samples, SprtResult};
use crate::stats::bootstrap::{percentile_intervals, RESAMPLES};
use crate::stats::contrast::holm;
use crate::stats::pairs::{IntervalMethod, Tost};
use crate::stats::{elo_from_score, quantile_of, wilson, Interval, Pentanomial, Z95};
use agon_core::{GameResult, Rng, Termination};
use agon_provenance::Tool;
use serde::Serialize;

/// The label of the per-variant group that pools every pairing (only when there are
/// several).
pub const ALL_PAIRINGS: &str = "all pairings";
/// Groups with fewer complete pairs are flagged "too few pairs": below 6 pairs no outcome
/// can reach p < 0.05 in the exact test (its smallest p-value is `2/2^N`).
pub const MIN_PAIRS: u64 = 6;
/// A group whose games hit the ply limit more often than this is flagged "mostly
/// undecided".
pub const MOSTLY_UNDECIDED: f64 = 0.5;
/// The default equivalence margin of White's score.
pub const DEFAULT_MARGIN: f64 = 0.02;
/// The variant contrasts compare with by default, when the experiment has it.
pub const DEFAULT_BASELINE: &str = "standard";
/// Significance level of every test.
pub const ALPHA: f64 = 0.05;
/// Power at which the smallest detectable effect is stated.
pub const POWER: f64 = 0.8;

/// Every (result, termination) combination that self-play can produce, in report order.
pub const OUTCOME_KINDS: [(GameResult, Termination); 14] = [
    (GameResult::WhiteWins, Termination::Formation),
    (GameResult::WhiteWins, Termination::SixGuards),
    (GameResult::WhiteWins, Termination::QueenCaptured),
    (GameResult::WhiteWins, Termination::NoMoves),
    (GameResult::BlackWins, Termination::Formation),
    (GameResult::BlackWins, Termination::SixGuards),
    (GameResult::BlackWins, Termination::QueenCaptured),
    (GameResult::BlackWins, Termination::NoMoves),
    (GameResult::Draw, Termination::Repetition),
    (GameResult::Draw, Termination::DoublePass),
    (GameResult::Draw, Termination::MoveLimit),
    (GameResult::WhiteWins, Termination::Adjudication),
    (GameResult::BlackWins, Termination::Adjudication),
    (GameResult::Draw, Termination::Adjudication),
];

/// Report options: what the statistics compare with and test for.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The variant the others are compared with (`None`: `standard` when present).
    pub baseline: Option<String>,
    /// The equivalence margin of White's score.
    pub margin: f64,
    /// How a tournament's agents are rated.
    pub ratings: RatingOptions,
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis {
            baseline: None,
            margin: DEFAULT_MARGIN,
            ratings: RatingOptions::default(),
        }
    }
}

impl Analysis {
    /// Options from their textual forms, checked.
    pub fn new(
        baseline: Option<String>,
        margin: Option<f64>,
        anchor: Option<&str>,
        prior: Option<f64>,
    ) -> Result<Analysis> {
        let margin = margin.unwrap_or(DEFAULT_MARGIN);
        if !(margin > 0.0 && margin < 0.5) {
            return Err(Error::Settings(format!(
                "--margin must lie strictly between 0 and 0.5 (a share of points), not {margin}"
            )));
        }
        let anchor = match anchor {
            Some(text) => {
                let bad = || {
                    Error::Settings(format!(
                        "--anchor takes AGENT=ELO, e.g. random=0, not `{text}`"
                    ))
                };
                let (agent, elo) = text.rsplit_once('=').ok_or_else(bad)?;
                let elo: f64 = elo.trim().parse().map_err(|_| bad())?;
                if !elo.is_finite() {
                    return Err(bad());
                }
                Some((crate::experiment::canonical_spec(agent.trim())?, elo))
            }
            None => None,
        };
        let baseline = match baseline {
            Some(name) => Some(
                name.parse::<agon_core::Rules>()
                    .map_err(|e| Error::Settings(format!("--baseline: {e}")))?
                    .to_string(),
            ),
            None => None,
        };
        Ok(Analysis {
            baseline,
            margin,
            ratings: RatingOptions {
                prior: prior.unwrap_or(crate::ratings::DEFAULT_PRIOR),
                anchor,
            },
        })
    }
}

/// The whole report of an output directory.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The build of `agon-selfplay` that computed these statistics (name, version,
    /// commit); the build that played the games is in `experiment.json`.
    pub tool: Tool,
    /// The experiment the games come from.
    pub experiment: Experiment,
    /// Games this directory should hold (all of the experiment, or one shard's share).
    pub games_expected: u64,
    /// Games it holds.
    pub games_played: u64,
    /// Games the statistics use: all of them, less those played after an SPRT decided.
    pub games_used: u64,
    /// Games in which an agent's choices depended on the clock (not reproducible).
    pub time_limited_games: u64,
    /// The settings of the statistics.
    pub analysis: AnalysisInfo,
    /// One group per (variant, pairing), then per variant over all pairings when there
    /// are several.
    pub groups: Vec<GroupSummary>,
    /// Each variant against the baseline (same pairing).
    pub contrasts: Vec<Contrast>,
    /// A tournament's ratings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Ratings>,
    /// Results by suite opening, when the experiment played a suite of several
    /// (`--openings`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub openings: Vec<OpeningSummary>,
}

/// The settings the statistics used.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisInfo {
    /// The variant of the contrasts (none when the experiment lacks it).
    pub baseline: Option<String>,
    /// The equivalence margin of White's score.
    pub margin: f64,
    /// Significance level of every test.
    pub alpha: f64,
    /// Power of the stated detectable effects.
    pub power: f64,
    /// Fewer complete pairs than this are flagged.
    pub min_pairs: u64,
    /// Bootstrap resamples per interval.
    pub bootstrap_resamples: usize,
}

/// Statistics of one variant and pairing.
#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    /// Canonical rule-set name.
    pub variant: String,
    /// `A vs B` (the agents' specs), or [`ALL_PAIRINGS`].
    pub pairing: String,
    /// Finished games (used by the statistics).
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Draws by the rules (repetition, double pass).
    pub draws: u64,
    /// Games stopped at the ply limit without a result by the rules (scored 1/2).
    pub undecided: u64,
    /// Games ended by adjudication from the agents' scores (draws and wins; the wins are
    /// also among `white_wins` and `black_wins`, the draws in no other count).
    pub adjudicated: u64,
    /// Of those, the draws.
    pub adjudicated_draws: u64,
    /// Games by result and termination.
    pub by_termination: Vec<TerminationCount>,
    /// Warnings: `too few pairs`, `mostly undecided`.
    pub flags: Vec<String>,
    /// Games won by either side / games, with its 95% Wilson interval.
    pub decisive_rate: Rate,
    /// Rule draws / games.
    pub draw_rate: Rate,
    /// Move-limit games / games.
    pub undecided_rate: Rate,
    /// Adjudicated games / games.
    pub adjudicated_rate: Rate,
    /// White's wins / decisive games.
    pub white_share_of_decisive: Rate,
    /// White's mean score per game (win 1, draw or undecided 1/2).
    pub white_score: Option<f64>,
    /// 95% Wilson interval of White's score, game by game (ignores the pairing).
    pub white_score_wilson: Option<Interval>,
    /// White's scores over colour-swapped pairs (complete pairs only).
    pub pairs: PairStats,
    /// The first-player advantage in Elo, with the exact test.
    pub first_player_elo: EloEstimate,
    /// Normalized Elo of the first-player advantage (fishtest's definition).
    pub normalized_elo: Option<Estimate>,
    /// "Balanced within ± margin": the two one-sided tests.
    pub equivalence: Option<Tost>,
    /// The smallest first-move advantage (in White's score) the pairs could detect with
    /// probability `analysis.power` at level `analysis.alpha`.
    pub detectable_effect: Option<f64>,
    /// The sequential test of this block, when the experiment has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtResult>,
    /// Game length in plies.
    pub length: LengthStats,
    /// Mean pieces captured per game, with a bootstrap interval.
    pub captures_per_game: Estimate,
    /// Mean relocations per game, with a bootstrap interval.
    pub relocations_per_game: Estimate,
    /// Score of the pairing's first agent (both colours), when two different agents meet.
    pub first_agent: Option<AgentScore>,
    /// Ludii's metrics, computed as Ludii's code computes them.
    pub ludii: LudiiMetrics,
    /// Bootstrap 95% intervals of Ludii's metrics.
    pub ludii_intervals: LudiiIntervals,
}

/// A proportion with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Rate {
    /// The count.
    pub count: u64,
    /// Out of.
    pub of: u64,
    /// `count / of`.
    pub rate: Option<f64>,
    /// Its 95% Wilson interval.
    pub interval: Option<Interval>,
}

impl Rate {
    /// `count` of `of`, with its interval.
    pub fn new(count: u64, of: u64) -> Rate {
        Rate {
            count,
            of,
            rate: (of > 0).then(|| count as f64 / of as f64),
            interval: wilson(count as f64, of, Z95),
        }
    }
}

/// A value with a 95% interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Estimate {
    /// The value.
    pub value: Option<f64>,
    /// Its interval.
    pub interval: Option<Interval>,
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
    /// Its 95% interval, never of zero width.
    pub interval: Option<Interval>,
    /// How the interval was computed.
    pub interval_method: Option<IntervalMethod>,
}

/// The first-player advantage in Elo with its 95% interval and the exact test.
#[derive(Clone, Debug, Serialize)]
pub struct EloEstimate {
    /// The estimate (`None` when White's pair score is 0 or 1: no finite Elo).
    pub elo: Option<f64>,
    /// Elo of the interval's lower end (`None`: unbounded below).
    pub low: Option<f64>,
    /// Elo of the interval's upper end (`None`: unbounded above).
    pub high: Option<f64>,
    /// The test: `sign-flip` (exact, over complete pairs).
    pub test: String,
    /// Two-sided p-value of no advantage.
    pub p_value: Option<f64>,
    /// Whether `p < 0.05`.
    pub significant: bool,
    /// Whether the advantage stays significant at 5% after Holm's correction for testing
    /// every (variant, pairing) group of the report at once.
    pub significant_holm: bool,
}

/// Lengths in plies: mean (with its bootstrap interval) and five-number summary.
#[derive(Clone, Debug, Serialize)]
pub struct LengthStats {
    /// Mean.
    pub mean: Option<f64>,
    /// Bootstrap 95% interval of the mean.
    pub mean_interval: Option<Interval>,
    /// Shortest game.
    pub min: Option<f64>,
    /// First quartile.
    pub q1: Option<f64>,
    /// Median.
    pub median: Option<f64>,
    /// Third quartile.
    pub q3: Option<f64>,
    /// Longest game.
    pub max: Option<f64>,
}

/// The score of a pairing's first agent over both colours.
#[derive(Clone, Debug, Serialize)]
pub struct AgentScore {
    /// The agent's spec.
    pub agent: String,
    /// Mean score over both colours.
    pub score: f64,
    /// 95% interval over complete pairs (Wilson over games when there are none).
    pub interval: Option<Interval>,
    /// Elo difference to the partner.
    pub elo: Option<f64>,
}

/// The metrics Ludii's evaluation publishes for every game, computed the way its code
/// does (see docs/selfplay.md for each definition).
#[derive(Clone, Debug, Default, Serialize)]
pub struct LudiiMetrics {
    /// Mean of (utility of player 1 + 1)/2: wins 1, draws and unfinished games 1/2.
    pub advantage_p1: Option<f64>,
    /// 1 - |win rate of player 1 - win rate of player 2| (draws as half wins).
    pub balance: Option<f64>,
    /// Games with a winner / games.
    pub completion: Option<f64>,
    /// Games without a winner / games: Ludii's code counts games stopped at the ply limit
    /// too (its test is `turns ≤ limit`).
    pub drawishness: Option<f64>,
    /// Draws by the rules / games: Drawishness as Ludii's description states it ("not
    /// including timeouts").
    pub drawishness_described: Option<f64>,
    /// Games stopped at the ply limit / games.
    pub timeouts: Option<f64>,
    /// Mean plies per game.
    pub duration: Option<f64>,
    /// Mean over games of the mean number of legal actions per ply.
    pub branching_factor: Option<f64>,
    /// Mean over games of the share of plies with more than one legal action.
    pub decision_moves: Option<f64>,
}

/// Bootstrap 95% intervals (over pairs) of [`LudiiMetrics`].
#[derive(Clone, Debug, Default, Serialize)]
pub struct LudiiIntervals {
    /// AdvantageP1.
    pub advantage_p1: Option<Interval>,
    /// Balance.
    pub balance: Option<Interval>,
    /// Completion.
    pub completion: Option<Interval>,
    /// Drawishness (code).
    pub drawishness: Option<Interval>,
    /// Drawishness (description).
    pub drawishness_described: Option<Interval>,
    /// Timeouts.
    pub timeouts: Option<Interval>,
    /// Duration.
    pub duration: Option<Interval>,
    /// BranchingFactor.
    pub branching_factor: Option<Interval>,
    /// DecisionMoves.
    pub decision_moves: Option<Interval>,
}

/// Separates the random streams of the bootstrap from the games'.
const BOOTSTRAP_SALT: u64 = 0x626F_6F74_7374_7270;

impl Summary {
    /// Summarises `rows` (any order) of `experiment` with the default analysis.
    pub fn new(experiment: &Experiment, rows: &[GameRow], games_expected: u64) -> Summary {
        let samples = Samples::of_rows(experiment, rows);
        Summary::of_samples(
            experiment,
            &samples,
            games_expected,
            rows.len() as u64,
            &Analysis::default(),
        )
        .expect("the default analysis always applies")
    }

    /// Summarises the samples of `experiment`; `games_played` counts every game held
    /// (also those after an SPRT decision).
    pub fn of_samples(
        experiment: &Experiment,
        samples: &Samples,
        games_expected: u64,
        games_played: u64,
        analysis: &Analysis,
    ) -> Result<Summary> {
        let mut groups = Vec::new();
        for (b, pairs) in samples.blocks.iter().enumerate() {
            let (variant, pairing) = experiment.block(b);
            let first = (pairing.first != pairing.second).then_some(pairing.first.as_str());
            let mut g = GroupSummary::new(
                variant,
                &pairing.label(),
                first,
                &[pairs],
                group_seed(experiment.seed, b),
            );
            g.sprt = samples.sprt[b].clone();
            groups.push(g);
        }
        let flags = holm(
            &groups
                .iter()
                .map(|g| g.first_player_elo.p_value)
                .collect::<Vec<_>>(),
            ALPHA,
        );
        for (g, flag) in groups.iter_mut().zip(flags) {
            g.first_player_elo.significant_holm = flag;
        }
        if experiment.pairings.len() > 1 {
            let per_variant = experiment.pairings.len();
            for (v, variant) in experiment.variants.iter().enumerate() {
                let pooled: Vec<&[PairRecord]> = samples.blocks
                    [v * per_variant..(v + 1) * per_variant]
                    .iter()
                    .map(Vec::as_slice)
                    .collect();
                let seed = group_seed(experiment.seed, samples.blocks.len() + v);
                groups.push(GroupSummary::new(
                    variant,
                    ALL_PAIRINGS,
                    None,
                    &pooled,
                    seed,
                ));
            }
        }
        let baseline = analysis.baseline.clone().or_else(|| {
            experiment
                .variants
                .iter()
                .any(|v| v == DEFAULT_BASELINE)
                .then(|| DEFAULT_BASELINE.to_string())
        });
        if let Some(name) = &baseline {
            if !experiment.variants.contains(name) {
                return Err(Error::Settings(format!(
                    "--baseline {name}: the experiment has no such variant (variants: {})",
                    experiment.variants.join(", ")
                )));
            }
        }
        let contrasts = match &baseline {
            Some(name) => contrasts(experiment, samples, name),
            None => Vec::new(),
        };
        let ratings = match experiment.kind {
            Kind::Tournament => Some(rate(experiment, samples, &analysis.ratings)?),
            Kind::Run => None,
        };
        for g in &mut groups {
            g.equivalence = Pentanomial {
                counts: g.pairs.pentanomial,
            }
            .tost(analysis.margin, ALPHA);
        }
        Ok(Summary {
            tool: crate::tool(),
            experiment: experiment.clone(),
            games_expected,
            games_played,
            games_used: samples.games(),
            time_limited_games: samples.time_limited_games,
            analysis: AnalysisInfo {
                baseline,
                margin: analysis.margin,
                alpha: ALPHA,
                power: POWER,
                min_pairs: MIN_PAIRS,
                bootstrap_resamples: RESAMPLES,
            },
            groups,
            contrasts,
            ratings,
            openings: by_opening(experiment, samples),
        })
    }
}

/// The seed of a group's resampling: the experiment's seed and the group's number.
fn group_seed(seed: u64, group: usize) -> u64 {
    Rng::for_stream(seed ^ BOOTSTRAP_SALT, group as u64).next_u64()
}

/// The bootstrapped values, from weighted sums: mean length, captures, relocations, then
/// the nine Ludii metrics.
fn resampled_values(t: &[f64; SUMS]) -> [Option<f64>; 12] {
    let per_game = |k: usize| (t[GAMES] > 0.0).then(|| t[k] / t[GAMES]);
    let per_measured = |k: usize| (t[MEASURED] > 0.0).then(|| t[k] / t[MEASURED]);
    let advantage = per_game(WHITE_POINTS);
    [
        per_game(PLIES),
        per_game(CAPTURES),
        per_game(RELOCATIONS),
        advantage,
        advantage.map(|s| 1.0 - (2.0 * s - 1.0).abs()),
        per_game(DECISIVE),
        per_game(NO_WINNER),
        per_game(RULE_DRAWS),
        per_game(UNDECIDED),
        per_game(PLIES),
        per_measured(BRANCHING),
        per_measured(DECISIONS),
    ]
}

impl GroupSummary {
    /// Statistics of a group's pairs (one slice per block it pools). `first` names the
    /// agent whose score to report when two different agents meet; `seed` drives the
    /// bootstrap. Reads the pairs in place; only the lengths and the bootstrap's
    /// single-precision sums are copied.
    pub fn new(
        variant: &str,
        pairing: &str,
        first: Option<&str>,
        blocks: &[&[PairRecord]],
        seed: u64,
    ) -> Self {
        let pairs = || blocks.iter().flat_map(|b| b.iter());
        let games = || pairs().flat_map(PairRecord::played);
        let n = games().count() as u64;
        let count = |f: fn(&GameStat) -> bool| games().filter(|g| f(g)).count() as u64;
        let white_wins = count(|g| g.result == GameResult::WhiteWins);
        let black_wins = count(|g| g.result == GameResult::BlackWins);
        let draws = count(GameStat::rule_draw);
        let undecided = count(GameStat::undecided);
        let adjudicated = count(GameStat::adjudicated);
        let adjudicated_draws = count(|g| g.adjudicated() && !g.decisive());
        let mut kinds: Vec<(GameResult, Termination)> = OUTCOME_KINDS.to_vec();
        for g in games() {
            if !kinds.contains(&(g.result, g.termination)) {
                kinds.push((g.result, g.termination));
            }
        }
        let by_termination = kinds
            .into_iter()
            .map(|(result, termination)| TerminationCount {
                result,
                termination,
                games: games()
                    .filter(|g| g.result == result && g.termination == termination)
                    .count() as u64,
            })
            .filter(|t| t.games > 0)
            .collect();

        let mut white = Pentanomial::default();
        let mut first_pairs = Pentanomial::default();
        for pair in pairs() {
            if let Some(k) = pair.white_half_points() {
                white.add_half_points(k);
            }
            if let Some(k) = pair.first_half_points() {
                first_pairs.add_half_points(k);
            }
        }
        let complete = white.pairs();
        let interval = white.interval(0.95);
        let p_value = white.sign_flip_p();
        let score = white.score();
        let elo_end = |end: Option<f64>| end.and_then(elo_from_score);
        let first_player_elo = EloEstimate {
            elo: score.and_then(elo_from_score),
            low: elo_end(interval.map(|(i, _)| i.low)),
            high: elo_end(interval.map(|(i, _)| i.high)),
            test: "sign-flip".into(),
            p_value,
            significant: p_value.is_some_and(|p| p < ALPHA),
            significant_holm: false,
        };
        let mut flags = Vec::new();
        if complete < MIN_PAIRS {
            flags.push("too few pairs".to_string());
        }
        if n > 0 && undecided as f64 / n as f64 > MOSTLY_UNDECIDED {
            flags.push("mostly undecided".to_string());
        }

        let white_points: f64 = games()
            .map(|g| f64::from(g.white_half_points()) / 2.0)
            .sum();
        let white_score = (n > 0).then(|| white_points / n as f64);
        let mut lengths: Vec<u32> = games().map(|g| g.plies).collect();
        lengths.sort_unstable();
        let length_quantile = |q: f64| quantile_of(lengths.len(), q, |i| f64::from(lengths[i]));

        let first_agent = first.map(|agent| {
            let points: f64 = pairs()
                .flat_map(|p| {
                    p.games.iter().enumerate().filter_map(|(slot, g)| {
                        let w = f64::from(g.as_ref()?.white_half_points()) / 2.0;
                        Some(if slot == 0 { w } else { 1.0 - w })
                    })
                })
                .sum();
            let score = if n > 0 { points / n as f64 } else { 0.5 };
            let interval = first_pairs
                .interval(0.95)
                .map(|(i, _)| i)
                .or_else(|| wilson(points, n, Z95));
            AgentScore {
                agent: agent.to_string(),
                score,
                interval,
                elo: elo_from_score(score),
            }
        });

        // The bootstrap resamples the pairs that hold a game, from their sums kept in
        // single precision (24 bytes a game while the report is computed); the point
        // values come from the exact sums.
        let played = || pairs().filter(|p| p.played().next().is_some());
        let mut total = [0.0; SUMS];
        for pair in played() {
            for (t, v) in total.iter_mut().zip(pair.sums()) {
                *t += v;
            }
        }
        let point = resampled_values(&total);
        let compact: Vec<[f32; SUMS]> = played().map(|p| p.sums().map(|v| v as f32)).collect();
        let intervals = percentile_intervals(compact.len(), RESAMPLES, seed, 0.95, |weights| {
            let mut t = [0.0; SUMS];
            for (&w, sums) in weights.iter().zip(&compact) {
                if w > 0 {
                    let w = f64::from(w);
                    for (total, &value) in t.iter_mut().zip(sums) {
                        *total += w * f64::from(value);
                    }
                }
            }
            resampled_values(&t)
        });

        GroupSummary {
            variant: variant.to_string(),
            pairing: pairing.to_string(),
            games: n,
            white_wins,
            black_wins,
            draws,
            undecided,
            adjudicated,
            adjudicated_draws,
            by_termination,
            flags,
            decisive_rate: Rate::new(white_wins + black_wins, n),
            draw_rate: Rate::new(draws, n),
            undecided_rate: Rate::new(undecided, n),
            adjudicated_rate: Rate::new(adjudicated, n),
            white_share_of_decisive: Rate::new(white_wins, white_wins + black_wins),
            white_score,
            white_score_wilson: wilson(white_points, n, Z95),
            pairs: PairStats {
                complete,
                pentanomial: white.counts,
                white_score: score,
                interval: interval.map(|(i, _)| i),
                interval_method: interval.map(|(_, m)| m),
            },
            first_player_elo,
            normalized_elo: white
                .normalized_elo(0.95)
                .map(|(value, interval)| Estimate {
                    value: Some(value),
                    interval: Some(interval),
                }),
            equivalence: None,
            detectable_effect: white.detectable_effect(ALPHA, POWER),
            sprt: None,
            length: LengthStats {
                mean: point[0],
                mean_interval: intervals[0],
                q1: length_quantile(0.25),
                median: length_quantile(0.5),
                q3: length_quantile(0.75),
                min: lengths.first().map(|&x| f64::from(x)),
                max: lengths.last().map(|&x| f64::from(x)),
            },
            captures_per_game: Estimate {
                value: point[1],
                interval: intervals[1],
            },
            relocations_per_game: Estimate {
                value: point[2],
                interval: intervals[2],
            },
            first_agent,
            ludii: LudiiMetrics {
                advantage_p1: point[3],
                balance: point[4],
                completion: point[5],
                drawishness: point[6],
                drawishness_described: point[7],
                timeouts: point[8],
                duration: point[9],
                branching_factor: point[10],
                decision_moves: point[11],
            },
            ludii_intervals: LudiiIntervals {
                advantage_p1: intervals[3],
                balance: intervals[4],
                completion: intervals[5],
                drawishness: intervals[6],
                drawishness_described: intervals[7],
                timeouts: intervals[8],
                duration: intervals[9],
                branching_factor: intervals[10],
                decision_moves: intervals[11],
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

    /// Whether the group carries a flag.
    pub fn flagged(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

/// The audit's examples, pinned: a handful of games, a clean sweep, all draws, and a
/// variant whose games mostly hit the ply limit.
#[cfg(test)]
mod audit_examples {
    use super::*;
    use crate::experiment::Pairing;
    use crate::table::render_summary;

    fn experiment(variants: &[&str], games: u64) -> Experiment {
        Experiment {
            kind: Kind::Run,
            variants: variants.iter().map(|v| v.to_string()).collect(),
            pairings: vec![Pairing {
                first: "random".into(),
                second: "random".into(),
            }],
            games,
            opening_plies: 0,
            max_plies: 1000,
            seed: 1,
            sprt: None,
            adjudication: Default::default(),
            openings: None,
        }
    }

    fn row(e: &Experiment, index: u64, result: GameResult, termination: Termination) -> GameRow {
        let mut row = crate::row::test_row(e, index, result, termination);
        row.plies = if termination == Termination::MoveLimit {
            1000
        } else {
            100 + index as u32 % 7
        };
        (
            row.captures,
            row.relocations,
            row.decision_plies,
            row.legal_actions,
        ) = (3, 1, 50, 1000);
        row
    }

    fn white_wins(e: &Experiment, n: u64) -> Vec<GameRow> {
        (0..n)
            .map(|i| row(e, i, GameResult::WhiteWins, Termination::Formation))
            .collect()
    }

    /// No `-0`, `inf` or `NaN` anywhere in the tables, JSON or CSV.
    fn assert_clean(summary: &Summary) {
        let text = render_summary(summary);
        let json = crate::report::summary_json(summary);
        let csv = String::from_utf8(crate::report::summary_csv(summary).unwrap()).unwrap();
        for (name, out) in [("table", &text), ("json", &json), ("csv", &csv)] {
            for bad in ["inf", "NaN", " -0 ", "[-0,", " -0.0 ", ",-0,", "-0%"] {
                assert!(!out.contains(bad), "{name} contains `{bad}`:\n{out}");
            }
        }
    }

    #[test]
    fn report_options_are_checked() {
        let a = Analysis::new(
            Some("touch-move=on".into()),
            Some(0.05),
            Some("random=100"),
            Some(1.0),
        )
        .unwrap();
        assert_eq!(a.baseline.as_deref(), Some("touch-move=on"));
        assert_eq!(a.ratings.anchor, Some(("random".to_string(), 100.0)));
        for (margin, anchor) in [
            (Some(0.0), None),
            (Some(0.6), None),
            (None, Some("random")),
            (None, Some("x=1")),
        ] {
            assert!(
                Analysis::new(None, margin, anchor, None).is_err(),
                "{margin:?} {anchor:?}"
            );
        }
        assert!(Analysis::new(Some("capture=square".into()), None, None, None).is_err());
        // A baseline the experiment lacks is an error naming the variants.
        let e = experiment(&["standard", "capture=ring"], 4);
        let samples = Samples::of_rows(&e, &[]);
        let analysis = Analysis::new(Some("touch-move=on".into()), None, None, None).unwrap();
        let err = Summary::of_samples(&e, &samples, 8, 0, &analysis)
            .unwrap_err()
            .to_string();
        assert!(err.contains("standard, capture=ring"), "{err}");
        // Without `standard`, no contrasts unless asked for.
        let e = experiment(&["capture=ring", "touch-move=on"], 4);
        let s = Summary::new(&e, &white_wins(&e, 8), 8);
        assert!(s.contrasts.is_empty() && s.analysis.baseline.is_none());
    }

    #[test]
    fn seven_games_are_too_few_for_significance() {
        let e = experiment(&["standard"], 7);
        let s = Summary::new(&e, &white_wins(&e, 7), 7);
        let g = &s.groups[0];
        assert_eq!(g.pairs.complete, 3);
        // Exact: 2 of the 8 sign patterns of 3 pairs are as extreme. (The old normal
        // approximation printed 9.6e-7 here.)
        assert_eq!(g.first_player_elo.p_value, Some(0.25));
        assert!(!g.first_player_elo.significant && !g.first_player_elo.significant_holm);
        assert!(g.flagged("too few pairs"));
        let interval = g.pairs.interval.unwrap();
        assert_eq!(g.pairs.interval_method, Some(IntervalMethod::ExactBound));
        assert!((interval.low - 0.025f64.powf(1.0 / 3.0)).abs() < 1e-12);
        assert_eq!(interval.high, 1.0);
        assert_eq!(
            g.first_player_elo.elo, None,
            "a perfect score has no finite Elo"
        );
        assert_eq!(g.first_player_elo.high, None);
        assert!(render_summary(&s).contains("too few pairs"));
        assert_clean(&s);
    }

    #[test]
    fn twenty_white_wins_get_an_exact_p_value_and_a_real_interval() {
        let e = experiment(&["standard"], 20);
        let s = Summary::new(&e, &white_wins(&e, 20), 20);
        let g = &s.groups[0];
        assert_eq!(g.first_player_elo.p_value, Some(2.0 / 1024.0));
        assert!(g.first_player_elo.significant && g.first_player_elo.significant_holm);
        assert!(g.flags.is_empty(), "{:?}", g.flags);
        let interval = g.pairs.interval.unwrap();
        assert!((interval.low - 0.025f64.powf(0.1)).abs() < 1e-12);
        assert!(
            interval.high - interval.low > 0.3,
            "not presented as certain"
        );
        let low_elo = elo_from_score(0.025f64.powf(0.1)).unwrap();
        assert!((g.first_player_elo.low.unwrap() - low_elo).abs() < 1e-9);
        let text = render_summary(&s);
        assert!(text.contains("above +140"), "{text}");
        assert!(text.contains("0.002"), "{text}");
        assert_eq!(g.white_share_of_decisive.rate, Some(1.0));
        assert_clean(&s);
    }

    #[test]
    fn all_draws_are_no_evidence_either_way() {
        let e = experiment(&["standard"], 20);
        let rows: Vec<GameRow> = (0..20)
            .map(|i| row(&e, i, GameResult::Draw, Termination::Repetition))
            .collect();
        let s = Summary::new(&e, &rows, 20);
        let g = &s.groups[0];
        assert_eq!(g.first_player_elo.p_value, Some(1.0));
        assert_eq!(g.first_player_elo.elo, Some(0.0));
        let q = 0.025f64.powf(0.1);
        let interval = g.pairs.interval.unwrap();
        assert!(
            (interval.low - q / 2.0).abs() < 1e-12
                && (interval.high - (1.0 - q / 2.0)).abs() < 1e-12
        );
        // Ten drawn pairs do not show balance within ±2 points: p = 0.96^10.
        let tost = g.equivalence.unwrap();
        assert!(!tost.equivalent);
        assert!((tost.p_value - 0.96f64.powi(10)).abs() < 1e-12);
        assert_eq!(g.normalized_elo, None);
        assert_eq!(g.decisive_rate.rate, Some(0.0));
        assert_eq!(g.white_share_of_decisive.rate, None);
        assert_eq!(
            (g.ludii.drawishness, g.ludii.drawishness_described),
            (Some(1.0), Some(1.0))
        );
        let text = render_summary(&s);
        assert!(text.contains("not shown"), "{text}");
        assert_clean(&s);
    }

    #[test]
    fn a_mostly_undecided_variant_is_flagged_and_read_by_its_decisive_games() {
        // capture=ring in the audit: 1 000 games, 20 decisive (11 to White), 770 stopped
        // at the ply limit, 210 drawn by repetition; against a standard baseline.
        let e = experiment(&["standard", "capture=ring"], 1000);
        let mut rows = Vec::new();
        for i in 0..1000 {
            let (r, t) = match i % 4 {
                0 | 1 => (GameResult::WhiteWins, Termination::Formation),
                2 => (GameResult::BlackWins, Termination::Formation),
                _ => (GameResult::Draw, Termination::Repetition),
            };
            rows.push(row(&e, i, r, t));
        }
        for k in 0..1000u64 {
            let i = 1000 + k;
            let (r, t) = if k < 11 {
                (GameResult::WhiteWins, Termination::Formation)
            } else if k < 20 {
                (GameResult::BlackWins, Termination::SixGuards)
            } else if k < 230 {
                (GameResult::Draw, Termination::Repetition)
            } else {
                (GameResult::Draw, Termination::MoveLimit)
            };
            rows.push(row(&e, i, r, t));
        }
        let s = Summary::new(&e, &rows, 2000);
        let ring = s
            .groups
            .iter()
            .find(|g| g.variant == "capture=ring")
            .unwrap();
        assert!(ring.flagged("mostly undecided"));
        assert_eq!((ring.draws, ring.undecided), (210, 770));
        assert_eq!(ring.decisive_rate.rate, Some(0.02));
        assert_eq!(ring.white_share_of_decisive.count, 11);
        assert_eq!(ring.white_share_of_decisive.of, 20);
        let share = ring.white_share_of_decisive.interval.unwrap();
        let wilson = wilson(11.0, 20, Z95).unwrap();
        assert_eq!(share, wilson);
        assert!(
            share.high - share.low > 0.35,
            "20 decisive games say little"
        );
        assert_eq!(ring.ludii.drawishness, Some(0.98));
        assert_eq!(ring.ludii.drawishness_described, Some(0.21));
        assert_eq!(ring.ludii.timeouts, Some(0.77));
        assert_eq!(ring.ludii.completion, Some(0.02));
        // The contrast with standard: far fewer decisive games.
        assert_eq!(s.analysis.baseline.as_deref(), Some("standard"));
        let c = &s.contrasts[0];
        assert_eq!(c.variant, "capture=ring");
        let decisive = c.decisive_rate.as_ref().unwrap();
        assert!((decisive.difference - (0.02 - 0.75)).abs() < 1e-12);
        assert!(decisive.significant_holm);
        let text = render_summary(&s);
        assert!(text.contains("mostly undecided"), "{text}");
        // Its pairs are mostly one point apiece, so TOST "shows" balance; the table does
        // not claim it.
        assert!(ring.equivalence.unwrap().equivalent);
        assert!(text.contains("(undecided)"), "{text}");
        assert_clean(&s);
    }
}
