//! Elo ratings of agents from a round robin: the maximum-likelihood Bradley-Terry ratings
//! (draws as half a win), with 95% error bars from the inverse Fisher information. Ratings
//! are centred on a mean of 0.

use crate::row::GameRow;
use crate::stats::{elo_from_score, Z95};
use serde::Serialize;

/// Natural-log scale of one Elo point: `ln(10)/400`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// The ratings of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct Ratings {
    /// Agents, strongest first.
    pub agents: Vec<AgentRating>,
    /// Games rated.
    pub games: u64,
    /// Virtual draws added to every pairing that played (1 when some agent won or lost
    /// every game against the rest, where maximum likelihood has no finite answer; else 0).
    pub prior_draws_per_pairing: f64,
    /// Every pairing's result, from each side.
    pub cross: Vec<CrossResult>,
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
    /// Its rating (mean of all ratings is 0).
    pub elo: f64,
    /// Half-width of the 95% interval: `1.96 · sqrt(C_ii)`.
    pub error95: f64,
}

/// One agent's result against one opponent.
#[derive(Clone, Debug, Serialize)]
pub struct CrossResult {
    /// The agent.
    pub agent: String,
    /// The opponent.
    pub opponent: String,
    /// Games between them.
    pub games: u64,
    /// The agent's mean score.
    pub score: f64,
    /// The Elo difference that score means.
    pub elo_difference: Option<f64>,
}

/// Rates `agents` from the games among them (games involving other agents are ignored).
pub fn rate(agents: &[String], rows: &[GameRow]) -> Ratings {
    let k = agents.len();
    let mut n = vec![vec![0.0f64; k]; k];
    let mut s = vec![vec![0.0f64; k]; k];
    let mut games = 0;
    for row in rows {
        let (Some(w), Some(b)) = (
            agents.iter().position(|a| *a == row.white),
            agents.iter().position(|a| *a == row.black),
        ) else {
            continue;
        };
        if w == b {
            continue;
        }
        let score = row.white_score();
        n[w][b] += 1.0;
        n[b][w] += 1.0;
        s[w][b] += score;
        s[b][w] += 1.0 - score;
        games += 1;
    }
    let mut cross = Vec::new();
    for i in 0..k {
        for j in 0..k {
            if i != j && n[i][j] > 0.0 {
                let score = s[i][j] / n[i][j];
                cross.push(CrossResult {
                    agent: agents[i].clone(),
                    opponent: agents[j].clone(),
                    games: n[i][j] as u64,
                    score,
                    elo_difference: elo_from_score(score),
                });
            }
        }
    }
    let prior = if strongly_connected(&s) { 0.0 } else { 1.0 };
    let (mut fit_n, mut fit_s) = (n.clone(), s.clone());
    for i in 0..k {
        for j in 0..k {
            if i != j && n[i][j] > 0.0 {
                fit_n[i][j] += prior;
                fit_s[i][j] += prior / 2.0;
            }
        }
    }
    let elo = fit(&fit_n, &fit_s);
    let cov = covariance(&fit_n, &elo);
    let mut rated: Vec<AgentRating> = (0..k)
        .map(|i| {
            let played: f64 = n[i].iter().sum();
            let points: f64 = s[i].iter().sum();
            AgentRating {
                agent: agents[i].clone(),
                games: played as u64,
                score: if played > 0.0 { points / played } else { 0.5 },
                elo: elo[i],
                error95: Z95 * cov[i][i].max(0.0).sqrt(),
            }
        })
        .collect();
    rated.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ratings {
        agents: rated,
        games,
        prior_draws_per_pairing: prior,
        cross,
    }
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

/// Covariance of the centred ratings (Elo²): the pseudo-inverse of the Fisher information
/// `F_ii = Σ_j n_ij p_ij(1-p_ij)·C²`, `F_ij = -n_ij p_ij(1-p_ij)·C²` with `C = ln(10)/400`,
/// computed as `(F + J/k)⁻¹ - J/k`.
fn covariance(n: &[Vec<f64>], elo: &[f64]) -> Vec<Vec<f64>> {
    let k = n.len();
    let mut f = vec![vec![0.0f64; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j && n[i][j] > 0.0 {
                let p = 1.0 / (1.0 + (-(elo[i] - elo[j]) * C).exp());
                let w = n[i][j] * p * (1.0 - p) * C * C;
                f[i][j] -= w;
                f[i][i] += w;
            }
        }
    }
    let shift = 1.0 / k as f64;
    for row in &mut f {
        for x in row.iter_mut() {
            *x += shift;
        }
    }
    let mut inv = invert(f).unwrap_or_else(|| vec![vec![f64::INFINITY; k]; k]);
    for row in &mut inv {
        for x in row.iter_mut() {
            *x -= shift;
        }
    }
    inv
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
    use agon_core::{GameResult, Termination};

    fn game(white: &str, black: &str, result: GameResult) -> GameRow {
        GameRow {
            index: 0,
            variant: "standard".into(),
            white: white.into(),
            black: black.into(),
            pair: 0,
            opening: String::new(),
            result,
            termination: Termination::Formation,
            plies: 10,
            captures: 0,
            relocations: 0,
            passes: 0,
            decision_plies: 0,
            legal_actions: 0,
            seed: 0,
            time_limited: false,
            duration_ms: 0.0,
        }
    }

    fn agents(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn two_agents_match_the_elo_formula_and_delta_method() {
        // a scores 30 + 10/2 = 35 of 50 against b: s = 0.7.
        let mut rows = Vec::new();
        for k in 0..50 {
            let (w, b) = if k % 2 == 0 { ("a", "b") } else { ("b", "a") };
            let a_result = if k < 30 {
                1.0
            } else if k < 40 {
                0.5
            } else {
                0.0
            };
            let white_score = if w == "a" { a_result } else { 1.0 - a_result };
            let result = if white_score > 0.75 {
                GameResult::WhiteWins
            } else if white_score < 0.25 {
                GameResult::BlackWins
            } else {
                GameResult::Draw
            };
            rows.push(game(w, b, result));
        }
        let r = rate(&agents(&["a", "b"]), &rows);
        assert_eq!(r.prior_draws_per_pairing, 0.0);
        let d = elo_from_score(0.7).unwrap();
        assert_eq!(r.agents[0].agent, "a");
        assert!(
            (r.agents[0].elo - d / 2.0).abs() < 1e-6,
            "{}",
            r.agents[0].elo
        );
        assert!((r.agents[1].elo + d / 2.0).abs() < 1e-6);
        // Var(r_a) = 1 / (4 n p (1-p) C²) with p = 0.7.
        let var = 1.0 / (4.0 * 50.0 * 0.21 * C * C);
        assert!((r.agents[0].error95 - Z95 * var.sqrt()).abs() < 1e-6);
        assert_eq!(r.games, 50);
        assert_eq!(r.cross.len(), 2);
        assert!((r.cross[0].score - 0.7).abs() < 1e-12);
    }

    #[test]
    fn a_perfect_score_uses_the_prior() {
        let rows = vec![
            game("a", "b", GameResult::WhiteWins),
            game("b", "a", GameResult::BlackWins),
        ];
        let r = rate(&agents(&["a", "b"]), &rows);
        assert_eq!(r.prior_draws_per_pairing, 1.0);
        // With one virtual draw: a scores 2.5 of 3.
        let d = elo_from_score(2.5 / 3.0).unwrap();
        assert!((r.agents[0].elo - r.agents[1].elo - d).abs() < 1e-6);
        assert!(r.agents[0].error95.is_finite());
    }

    #[test]
    fn three_agents_are_ordered_and_centred() {
        let mut rows = Vec::new();
        let mut add = |w: &str, b: &str, white_wins: usize, black_wins: usize| {
            for _ in 0..white_wins {
                rows.push(game(w, b, GameResult::WhiteWins));
            }
            for _ in 0..black_wins {
                rows.push(game(w, b, GameResult::BlackWins));
            }
        };
        add("strong", "mid", 15, 5);
        add("mid", "weak", 14, 6);
        add("strong", "weak", 18, 2);
        let r = rate(&agents(&["weak", "mid", "strong"]), &rows);
        let names: Vec<&str> = r.agents.iter().map(|a| a.agent.as_str()).collect();
        assert_eq!(names, ["strong", "mid", "weak"]);
        let total: f64 = r.agents.iter().map(|a| a.elo).sum();
        assert!(total.abs() < 1e-6);
        // The likelihood equations hold: each agent's expected points equal its points.
        for a in &r.agents {
            let expected: f64 = r
                .cross
                .iter()
                .filter(|c| c.agent == a.agent)
                .map(|c| {
                    let opp = r.agents.iter().find(|o| o.agent == c.opponent).unwrap();
                    c.games as f64 * crate::stats::score_from_elo(a.elo - opp.elo)
                })
                .sum();
            assert!((expected - a.score * a.games as f64).abs() < 1e-6);
        }
    }
}
