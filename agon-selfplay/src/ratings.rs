//! Elo ratings of agents from a tournament: Bradley-Terry ratings (a draw is half a win)
//! with a prior of virtual draws, error bars clustered by colour-swapped pair (a sandwich
//! estimator), a pairwise table (Elo difference with its interval and the likelihood of
//! superiority), a W/D/L crosstable, and an optional anchor that fixes the scale.
//!
//! Inputs are the compact per-pair records of [`crate::sample`]; games of every variant of
//! the tournament are pooled.

use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::sample::Samples;
use crate::stats::{normal_cdf, Z95};
use serde::Serialize;

/// Natural-log scale of one Elo point: `ln(10)/400`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// The virtual draws per pairing of the default prior (BayesElo's default).
pub const DEFAULT_PRIOR: f64 = 2.0;

/// How to rate.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingOptions {
    /// Virtual draws added to every pairing that played (0: pure maximum likelihood).
    pub prior: f64,
    /// An agent whose rating is fixed, and its rating.
    pub anchor: Option<(String, f64)>,
}

impl Default for RatingOptions {
    fn default() -> RatingOptions {
        RatingOptions {
            prior: DEFAULT_PRIOR,
            anchor: None,
        }
    }
}

/// The ratings of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct Ratings {
    /// Agents, strongest first.
    pub agents: Vec<AgentRating>,
    /// Games rated.
    pub games: u64,
    /// Virtual draws added to every pairing that played.
    pub prior_draws_per_pairing: f64,
    /// The agent whose rating is fixed, if any: the other agents' intervals are then
    /// relative to it; without an anchor ratings average 0 and intervals are relative to
    /// that average.
    pub anchor: Option<Anchor>,
    /// Every two agents that met: the difference of their ratings with its interval.
    pub pairwise: Vec<PairwiseResult>,
    /// Every agent's games against every opponent.
    pub crosstable: Vec<CrossResult>,
}

/// A fixed rating.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Anchor {
    /// The agent.
    pub agent: String,
    /// Its rating.
    pub elo: f64,
}

/// One agent's rating.
#[derive(Clone, Debug, Serialize)]
pub struct AgentRating {
    /// The agent's spec.
    pub agent: String,
    /// Games it played.
    pub games: u64,
    /// Its mean score.
    pub score: f64,
    /// Its rating.
    pub elo: f64,
    /// Half-width of the 95% interval (relative to the anchor, or to the average), from
    /// the pair-clustered covariance; 0 for the anchor.
    pub error95: f64,
}

/// The difference between two agents that met.
#[derive(Clone, Debug, Serialize)]
pub struct PairwiseResult {
    /// The agent.
    pub agent: String,
    /// The opponent.
    pub opponent: String,
    /// Games between them.
    pub games: u64,
    /// The agent's mean score against the opponent.
    pub score: f64,
    /// Rating of the agent minus rating of the opponent.
    pub elo_difference: f64,
    /// Lower end of its 95% interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Likelihood of superiority: `Φ(difference / sd)`, the chance the agent is the
    /// stronger given the games (normal approximation).
    pub los: f64,
}

/// One agent's games against one opponent.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CrossResult {
    /// The agent.
    pub agent: String,
    /// The opponent.
    pub opponent: String,
    /// Games it won.
    pub wins: u64,
    /// Draws by the rules.
    pub draws: u64,
    /// Games stopped at the ply limit (scored as draws).
    pub undecided: u64,
    /// Games it lost.
    pub losses: u64,
}

/// Per ordered pair of agents: games, points, and the pair-level sums of the sandwich.
struct Tally {
    n: Vec<Vec<f64>>,
    s: Vec<Vec<f64>>,
    /// Σ x², Σ x·m, Σ m² over the pairs of (i, j), x = i's points in the pair, m = games.
    moments: Vec<Vec<[f64; 3]>>,
    cross: Vec<Vec<[u64; 4]>>,
}

/// Rates the agents of a tournament from its samples.
pub fn rate(
    experiment: &Experiment,
    samples: &Samples,
    options: &RatingOptions,
) -> Result<Ratings> {
    let agents = experiment.agents();
    let k = agents.len();
    let index = |name: &str| agents.iter().position(|a| a == name);
    let mut t = Tally {
        n: vec![vec![0.0; k]; k],
        s: vec![vec![0.0; k]; k],
        moments: vec![vec![[0.0; 3]; k]; k],
        cross: vec![vec![[0; 4]; k]; k],
    };
    let mut games = 0;
    for (b, pairs) in samples.blocks.iter().enumerate() {
        let (_, pairing) = experiment.block(b);
        let (Some(i), Some(j)) = (index(&pairing.first), index(&pairing.second)) else {
            continue;
        };
        if i == j {
            continue;
        }
        for pair in pairs {
            let mut x = 0.0;
            let mut m = 0.0;
            for (slot, game) in pair.games.iter().enumerate() {
                let Some(game) = game else { continue };
                let white = f64::from(game.white_half_points()) / 2.0;
                let first = if slot == 0 { white } else { 1.0 - white };
                x += first;
                m += 1.0;
                games += 1;
                let kind = if first == 1.0 {
                    0
                } else if first == 0.0 {
                    3
                } else if game.undecided() {
                    2
                } else {
                    1
                };
                t.cross[i][j][kind] += 1;
                t.cross[j][i][3 - kind] += 1;
            }
            if m == 0.0 {
                continue;
            }
            t.n[i][j] += m;
            t.n[j][i] += m;
            t.s[i][j] += x;
            t.s[j][i] += m - x;
            for (a, b, points) in [(i, j, x), (j, i, m - x)] {
                let mm = &mut t.moments[a][b];
                mm[0] += points * points;
                mm[1] += points * m;
                mm[2] += m * m;
            }
        }
    }
    let prior = options.prior;
    if !(prior >= 0.0 && prior.is_finite()) {
        return Err(Error::Settings(format!(
            "--prior must be 0 or more, not {prior}"
        )));
    }
    if prior == 0.0 && !strongly_connected(&t.s) {
        return Err(Error::Settings(
            "an agent won or lost every game against the rest, so maximum-likelihood ratings \
             are infinite; rate with a prior (--prior 2, the default)"
                .into(),
        ));
    }
    let (mut fit_n, mut fit_s) = (t.n.clone(), t.s.clone());
    for i in 0..k {
        for j in 0..k {
            if i != j && t.n[i][j] > 0.0 {
                fit_n[i][j] += prior;
                fit_s[i][j] += prior / 2.0;
            }
        }
    }
    let mut elo = fit(&fit_n, &fit_s);
    let cov = clustered_covariance(&fit_n, &t.moments, &elo);
    let anchor = match &options.anchor {
        Some((name, value)) => {
            let a = index(name).ok_or_else(|| {
                Error::Settings(format!(
                    "--anchor {name}: no such agent in this tournament (agents: {})",
                    agents.join(", ")
                ))
            })?;
            let shift = value - elo[a];
            elo.iter_mut().for_each(|r| *r += shift);
            Some(a)
        }
        None => None,
    };
    let sd_difference =
        |i: usize, j: usize| (cov[i][i] + cov[j][j] - 2.0 * cov[i][j]).max(0.0).sqrt();
    let mut rated: Vec<AgentRating> = (0..k)
        .map(|i| {
            let played: f64 = t.n[i].iter().sum();
            let points: f64 = t.s[i].iter().sum();
            let sd = match anchor {
                Some(a) => sd_difference(i, a),
                None => cov[i][i].max(0.0).sqrt(),
            };
            AgentRating {
                agent: agents[i].clone(),
                games: played as u64,
                score: if played > 0.0 { points / played } else { 0.5 },
                elo: elo[i],
                error95: Z95 * sd,
            }
        })
        .collect();
    rated.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let mut pairwise = Vec::new();
    let mut crosstable = Vec::new();
    for i in 0..k {
        for j in 0..k {
            if i == j || t.n[i][j] == 0.0 {
                continue;
            }
            let d = elo[i] - elo[j];
            let sd = sd_difference(i, j);
            pairwise.push(PairwiseResult {
                agent: agents[i].clone(),
                opponent: agents[j].clone(),
                games: t.n[i][j] as u64,
                score: t.s[i][j] / t.n[i][j],
                elo_difference: d,
                low: d - Z95 * sd,
                high: d + Z95 * sd,
                los: if sd > 0.0 { normal_cdf(d / sd) } else { 0.5 },
            });
            let [wins, draws, undecided, losses] = t.cross[i][j];
            crosstable.push(CrossResult {
                agent: agents[i].clone(),
                opponent: agents[j].clone(),
                wins,
                draws,
                undecided,
                losses,
            });
        }
    }
    Ok(Ratings {
        agents: rated,
        games,
        prior_draws_per_pairing: prior,
        anchor: anchor.map(|a| Anchor {
            agent: agents[a].clone(),
            elo: elo[a],
        }),
        pairwise,
        crosstable,
    })
}

/// Whether every agent scored against every other through some chain (Ford's condition
/// for finite maximum-likelihood ratings).
fn strongly_connected(s: &[Vec<f64>]) -> bool {
    let k = s.len();
    let reach = |forward: bool| {
        let mut seen = vec![false; k];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..k {
                let edge = if forward { s[i][j] } else { s[j][i] };
                if !seen[j] && edge > 0.0 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|x| x)
    };
    k <= 1 || (reach(true) && reach(false))
}

/// Maximum-likelihood ratings by the minorisation-maximisation iteration
/// `γ_i ← W_i / Σ_j n_ij/(γ_i+γ_j)`, then `r_i = 400·log10 γ_i`, centred on 0.
fn fit(n: &[Vec<f64>], s: &[Vec<f64>]) -> Vec<f64> {
    let k = n.len();
    let mut gamma = vec![1.0f64; k];
    for _ in 0..100_000 {
        let mut change: f64 = 0.0;
        for i in 0..k {
            let wins: f64 = s[i].iter().sum();
            let denominator: f64 = (0..k)
                .filter(|&j| j != i && n[i][j] > 0.0)
                .map(|j| n[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denominator > 0.0 && wins > 0.0 {
                let next = wins / denominator;
                change = change.max((next.ln() - gamma[i].ln()).abs());
                gamma[i] = next;
            }
        }
        let mean_log = gamma.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        for g in &mut gamma {
            *g = (g.ln() - mean_log).exp();
        }
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// The pair-clustered covariance of the centred ratings (Elo²), a sandwich
/// `F⁺ M F⁺`: the bread `F⁺ = (F + J/k)⁻¹ - J/k` is the pseudo-inverse of the Fisher
/// information `F_ii = Σ_j n_ij p_ij(1-p_ij)·C²`, `F_ij = -n_ij p_ij(1-p_ij)·C²`
/// (`C = ln(10)/400`, prior included); the meat `M` sums, over colour-swapped pairs, the
/// outer products of each pair's score vector, whose entries are `±C·(x - m·p_ij)` for
/// the pair's points `x` over `m` games: `M_ii = Σ_j C² Σ_pairs (x - m p_ij)²`,
/// `M_ij = -C² Σ_pairs (x - m p_ij)²`. Draws and split pairs thus count for what they
/// are, instead of as independent coin flips.
fn clustered_covariance(n: &[Vec<f64>], moments: &[Vec<[f64; 3]>], elo: &[f64]) -> Vec<Vec<f64>> {
    let k = n.len();
    let mut f = vec![vec![0.0f64; k]; k];
    let mut meat = vec![vec![0.0f64; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j && n[i][j] > 0.0 {
                let p = 1.0 / (1.0 + (-(elo[i] - elo[j]) * C).exp());
                let w = n[i][j] * p * (1.0 - p) * C * C;
                f[i][j] -= w;
                f[i][i] += w;
                let [xx, xm, mm] = moments[i][j];
                let squares = (xx - 2.0 * p * xm + p * p * mm).max(0.0) * C * C;
                meat[i][i] += squares;
                meat[i][j] -= squares;
            }
        }
    }
    let shift = 1.0 / k as f64;
    for row in &mut f {
        for x in row.iter_mut() {
            *x += shift;
        }
    }
    let mut bread = invert(f).unwrap_or_else(|| vec![vec![f64::INFINITY; k]; k]);
    for row in &mut bread {
        for x in row.iter_mut() {
            *x -= shift;
        }
    }
    let product = |a: &[Vec<f64>], b: &[Vec<f64>]| -> Vec<Vec<f64>> {
        (0..k)
            .map(|i| {
                (0..k)
                    .map(|j| (0..k).map(|l| a[i][l] * b[l][j]).sum())
                    .collect()
            })
            .collect()
    };
    product(&product(&bread, &meat), &bread)
}

/// Gauss-Jordan inversion with partial pivoting; `None` if singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let k = a.len();
    let mut inv: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..k {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for i in 0..k {
            if i != col {
                let factor = a[i][col];
                if factor != 0.0 {
                    for j in 0..k {
                        a[i][j] -= factor * a[col][j];
                        inv[i][j] -= factor * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Kind, Pairing};
    use crate::row::GameRow;
    use agon_core::{GameResult, Termination};

    fn experiment(agents: &[&str], games: u64) -> Experiment {
        let mut pairings = Vec::new();
        for i in 0..agents.len() {
            for j in i + 1..agents.len() {
                pairings.push(Pairing {
                    first: agents[i].into(),
                    second: agents[j].into(),
                });
            }
        }
        Experiment {
            kind: Kind::Tournament,
            variants: vec!["standard".into()],
            pairings,
            games,
            opening_plies: 0,
            max_plies: 100,
            seed: 1,
            sprt: None,
            adjudication: Default::default(),
            openings: None,
        }
    }

    /// The games of block `block`: the first agent's score in each game, in index order
    /// (1 win, 0.5 draw, 0 loss; `u` for an undecided game).
    fn rows(e: &Experiment, block: u64, first_scores: &str) -> Vec<GameRow> {
        first_scores
            .split(' ')
            .enumerate()
            .map(|(k, score)| {
                let index = block * e.games + k as u64;
                let first_white = k % 2 == 0;
                let (result, termination) = match (score, first_white) {
                    ("1", true) | ("0", false) => (GameResult::WhiteWins, Termination::Formation),
                    ("0", true) | ("1", false) => (GameResult::BlackWins, Termination::Formation),
                    ("u", _) => (GameResult::Draw, Termination::MoveLimit),
                    _ => (GameResult::Draw, Termination::Repetition),
                };
                crate::row::test_row(e, index, result, termination)
            })
            .collect()
    }

    fn ratings(e: &Experiment, rows: &[GameRow], options: &RatingOptions) -> Ratings {
        rate(e, &Samples::of_rows(e, rows), options).unwrap()
    }

    #[test]
    fn two_agents_match_the_elo_formula_and_the_clustered_delta_method() {
        // a's points per pair: 2, 1.5, 1, 1, 0.5, 2, 1.5, 1.5 over 16 games: s = 11/16.
        let e = experiment(&["a", "b"], 16);
        let r = rows(&e, 0, "1 1 1 0.5 1 0 0.5 0.5 0 0.5 1 1 1 0.5 0.5 1");
        let plain = RatingOptions {
            prior: 0.0,
            anchor: None,
        };
        let out = ratings(&e, &r, &plain);
        let s: f64 = 11.0 / 16.0;
        let d = crate::stats::elo_from_score(s).unwrap();
        let p = &out.pairwise[0];
        assert_eq!((p.agent.as_str(), p.opponent.as_str()), ("a", "b"));
        assert!((p.elo_difference - d).abs() < 1e-6, "{}", p.elo_difference);
        // Clustered: var(s̄) = Σ (x_p - 2s)² / n², var(d) = var(s̄) / (C s (1-s))².
        let x = [2.0, 1.5, 1.0, 1.0, 0.5, 2.0, 1.5, 1.5];
        let var_s: f64 = x.iter().map(|x| (x - 2.0 * s).powi(2)).sum::<f64>() / 256.0;
        let sd = var_s.sqrt() / (C * s * (1.0 - s));
        assert!(
            (p.high - p.low - 2.0 * Z95 * sd).abs() < 1e-6,
            "{} vs {}",
            p.high - p.low,
            2.0 * Z95 * sd
        );
        assert!((p.los - normal_cdf(d / sd)).abs() < 1e-9);
        // Centred ratings: ±d/2.
        assert!((out.agents[0].elo - d / 2.0).abs() < 1e-6);
        assert_eq!(out.games, 16);
        assert_eq!(
            out.crosstable[0],
            CrossResult {
                agent: "a".into(),
                opponent: "b".into(),
                wins: 8,
                draws: 6,
                undecided: 0,
                losses: 2,
            }
        );
    }

    #[test]
    fn the_prior_is_continuous_and_monotone() {
        // The audit's case: turning random's only draw into a loss must lower its rating.
        let e = experiment(&["strong", "random"], 20);
        let with_draw = rows(&e, 0, "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0.5");
        let all_lost = rows(&e, 0, "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1");
        let options = RatingOptions::default();
        let random = |r: &Ratings| r.agents.iter().find(|a| a.agent == "random").unwrap().elo;
        let a = random(&ratings(&e, &with_draw, &options));
        let b = random(&ratings(&e, &all_lost, &options));
        assert!(b < a, "{b} should be below {a}");
        assert!(b.is_finite());
        // Two virtual draws: random scores (0.5 + 1) / 22 in the first case.
        let d = crate::stats::elo_from_score(1.5 / 22.0).unwrap();
        assert!((2.0 * a - d).abs() < 1e-6, "{a} vs {}", d / 2.0);
        // Without a prior, a perfect score has no finite rating: a clear error.
        let plain = RatingOptions {
            prior: 0.0,
            anchor: None,
        };
        let err = rate(&e, &Samples::of_rows(&e, &all_lost), &plain).unwrap_err();
        assert!(err.to_string().contains("--prior"), "{err}");
    }

    #[test]
    fn an_anchor_fixes_the_scale_and_the_intervals() {
        let e = experiment(&["a", "b", "c"], 8);
        let mut r = rows(&e, 0, "1 1 0.5 1 0 1 1 0.5");
        r.extend(rows(&e, 1, "1 0.5 1 1 1 0 1 1"));
        r.extend(rows(&e, 2, "0.5 0.5 1 0 1 u 0 1"));
        let free = ratings(&e, &r, &RatingOptions::default());
        let anchored = ratings(
            &e,
            &r,
            &RatingOptions {
                prior: 2.0,
                anchor: Some(("c".into(), 1000.0)),
            },
        );
        let elo = |r: &Ratings, n: &str| r.agents.iter().find(|a| a.agent == n).unwrap().clone();
        assert!((elo(&anchored, "c").elo - 1000.0).abs() < 1e-9);
        assert_eq!(elo(&anchored, "c").error95, 0.0);
        let diff = |r: &Ratings| elo(r, "a").elo - elo(r, "c").elo;
        assert!((diff(&free) - diff(&anchored)).abs() < 1e-9);
        // a's interval relative to c is the pairwise interval of a against c.
        let pair = anchored
            .pairwise
            .iter()
            .find(|p| p.agent == "a" && p.opponent == "c")
            .unwrap();
        assert!((elo(&anchored, "a").error95 - (pair.high - pair.low) / 2.0).abs() < 1e-9);
        let total: f64 = free.agents.iter().map(|a| a.elo).sum();
        assert!(total.abs() < 1e-6, "free ratings average 0");
        let cross = anchored
            .crosstable
            .iter()
            .find(|c| c.agent == "b" && c.opponent == "c")
            .unwrap();
        assert_eq!(
            (cross.wins, cross.draws, cross.undecided, cross.losses),
            (3, 2, 1, 2)
        );
    }
}
