//! docs/agents.md, "Strength": a round robin of the built-in agents with Elo ratings, the
//! score of every pairing, and the project's strength goals checked against it.

use super::{command_listing, config_listing, Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{ranking, rating_of, ratings, ratings_prior};
use crate::markdown::{count, elo, number, percent, Table};
use crate::Result;
use agon_core::{GameResult, Termination};
use agon_selfplay::GameRow;

/// The section.
pub const SECTION: Section = Section {
    name: "round-robin",
    doc: "docs/agents.md",
    blocks: &[
        "round-robin-settings",
        "round-robin-ratings",
        "round-robin-scores",
        "round-robin-goals",
    ],
    about: "a round robin of the built-in agents: Elo ratings and every pairing's score",
    generate,
};

const CONFIG: &str = "scripts/docs/round-robin.toml";

/// A short column label for an agent: `ab d4`, `mcts 400`.
fn short(agent: &str) -> String {
    if let Some(depth) = agent.strip_prefix("alphabeta:depth=") {
        format!("ab d{depth}")
    } else if let Some(playouts) = agent.strip_prefix("mcts:playouts=") {
        format!("mcts {playouts}")
    } else {
        agent.to_string()
    }
}

/// What `agent` did against `opponent`: games, points, draws, and its wins and draws by
/// termination.
#[derive(Default)]
struct Head {
    games: u64,
    points: f64,
    draws: u64,
    plies: u64,
    wins: Vec<Termination>,
    losses: Vec<Termination>,
    drawn: Vec<Termination>,
}

impl Head {
    fn score(&self) -> f64 {
        self.points / self.games as f64
    }

    fn count(list: &[Termination], t: Termination) -> u64 {
        list.iter().filter(|&&x| x == t).count() as u64
    }
}

fn head(rows: &[GameRow], agent: &str, opponent: &str) -> Head {
    let mut h = Head::default();
    for r in rows {
        let white = if r.white == agent && r.black == opponent {
            true
        } else if r.black == agent && r.white == opponent {
            false
        } else {
            continue;
        };
        h.games += 1;
        h.plies += u64::from(r.plies);
        let won = match r.result {
            GameResult::WhiteWins => Some(white),
            GameResult::BlackWins => Some(!white),
            _ => None,
        };
        match won {
            Some(true) => {
                h.points += 1.0;
                h.wins.push(r.termination);
            }
            Some(false) => h.losses.push(r.termination),
            None => {
                h.points += 0.5;
                h.draws += 1;
                h.drawn.push(r.termination);
            }
        }
    }
    h
}

fn generate(ctx: &Context) -> Result<Generated> {
    let played = play(ctx, CONFIG, "round-robin")?;
    let experiment = &played.manifest.experiment;
    let rows = &played.rows;
    let ratings = ratings(&played.summary).ok_or("a tournament without ratings")?;
    let agents = experiment.agents();
    let settings = format!(
        "{}\n{}\nEvery pairing plays {} games ({} random openings, each played twice with \
         the colours swapped); {} games in all.\n",
        config_listing(ctx, CONFIG)?,
        command_listing(&played.command),
        count(experiment.games),
        count(experiment.pairs_per_block()),
        count(rows.len() as u64),
    );

    let mut table = Table::new(&["rank", "agent", ">Elo", ">95%", ">games", ">score"]);
    for (rank, agent) in ranking(ratings).iter().enumerate() {
        let (rating, error, games, score) =
            rating_of(ratings, agent).ok_or("an agent without a rating")?;
        table.row(vec![
            (rank + 1).to_string(),
            format!("`{agent}`"),
            elo(rating),
            format!("±{}", number(error, 0)),
            count(games),
            number(score, 3),
        ]);
    }
    let mut ratings_body = table.render();
    let prior = ratings_prior(ratings);
    if prior > 0.0 {
        ratings_body.push_str(&format!(
            "\nThe ratings' prior adds {} virtual draws to every pairing (docs/selfplay.md, \
             tournaments); the intervals are clustered by pair.\n",
            number(prior, 1)
        ));
    }

    let mut columns = vec![String::new()];
    columns.extend(agents.iter().map(|a| format!(">{}", short(a))));
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut scores = Table::new(&columns);
    for agent in &agents {
        let mut row = vec![short(agent)];
        for opponent in &agents {
            row.push(if agent == opponent {
                "-".into()
            } else {
                let h = head(rows, agent, opponent);
                format!("{} ({})", percent(h.score()), h.draws)
            });
        }
        scores.row(row);
    }

    Ok(Generated {
        bodies: vec![
            settings,
            ratings_body,
            scores.render(),
            goals(rows, &agents, ratings),
        ],
        images: Vec::new(),
        sources: format!("`{}`", played.command),
        played_at: vec![played.played_at().to_string()],
    })
}

/// The strength goals, each with the figures that decide it and whether it is met.
fn goals(rows: &[GameRow], agents: &[String], ratings: &agon_selfplay::ratings::Ratings) -> String {
    let has = |a: &str| agents.iter().any(|x| x == a);
    let met = |ok: bool| if ok { "met" } else { "**not met**" };
    let elo_of = |a: &str| rating_of(ratings, a).map(|r| r.0);
    let mut out = String::new();
    let (d2, d3, d4) = (
        "alphabeta:depth=2",
        "alphabeta:depth=3",
        "alphabeta:depth=4",
    );
    if has(d4) && has("random") {
        let h = head(rows, d4, "random");
        out.push_str(&format!(
            "- `{d4}` against `random`: **{}** (goal: at least 95%), {}; {} of its {} games \
             won by formation, {} plies per game on average.\n",
            percent(h.score()),
            met(h.score() >= 0.95),
            count(Head::count(&h.wins, Termination::Formation)),
            count(h.games),
            number(h.plies as f64 / h.games as f64, 0),
        ));
    }
    if has(d4) && has("greedy") {
        let h = head(rows, d4, "greedy");
        out.push_str(&format!(
            "- `{d4}` against `greedy`: **{}** (goal: at least 75%), {}. Of {} games: {} wins \
             by formation, {} by `no-moves`, {} by six guards; {} draws by repetition, {} \
             stopped at the ply limit; {} losses.\n",
            percent(h.score()),
            met(h.score() >= 0.75),
            count(h.games),
            count(Head::count(&h.wins, Termination::Formation)),
            count(Head::count(&h.wins, Termination::NoMoves)),
            count(Head::count(&h.wins, Termination::SixGuards)),
            count(Head::count(&h.drawn, Termination::Repetition)),
            count(Head::count(&h.drawn, Termination::MoveLimit)),
            count(h.losses.len() as u64),
        ));
    }
    if let (Some(e2), Some(e3), Some(e4)) = (elo_of(d2), elo_of(d3), elo_of(d4)) {
        let (s32, s43) = (head(rows, d3, d2).score(), head(rows, d4, d3).score());
        out.push_str(&format!(
            "- Strength rises with depth: {}, {}, {} Elo for depths 2, 3, 4; depth 3 scores {} \
             against depth 2, depth 4 {} against depth 3: {}.\n",
            elo(e2),
            elo(e3),
            elo(e4),
            percent(s32),
            percent(s43),
            met(e2 < e3 && e3 < e4 && s32 > 0.5 && s43 > 0.5),
        ));
    }
    let (m1, m4) = ("mcts:playouts=100", "mcts:playouts=400");
    if let (Some(e1), Some(e4)) = (elo_of(m1), elo_of(m4)) {
        let s = head(rows, m4, m1).score();
        out.push_str(&format!(
            "- Strength rises with the MCTS budget: {} Elo at 100 playouts, {} at 400, which \
             scores {} against 100: {}.\n",
            elo(e1),
            elo(e4),
            percent(s),
            met(e1 < e4 && s > 0.5),
        ));
    }
    let all = |t: Termination| rows.iter().filter(|r| r.termination == t).count() as u64;
    out.push_str(&format!(
        "\nOver all {} games: {} formations, {} move-limit draws, {} repetitions, {} losses \
         for lack of a move, {} six-guards losses.\n",
        count(rows.len() as u64),
        count(all(Termination::Formation)),
        count(all(Termination::MoveLimit)),
        count(all(Termination::Repetition)),
        count(all(Termination::NoMoves)),
        count(all(Termination::SixGuards)),
    ));
    out
}
