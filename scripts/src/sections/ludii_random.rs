//! docs/selfplay.md, "Random play under `ludii`": our random games under the `ludii`
//! preset beside the 200 random games recorded from Ludii.

use super::ludii_conformance::ludii_games;
use super::{Generated, Section};
use crate::context::Context;
use crate::experiments::play;
use crate::figures::{first_move_elo, games_ended_by, mean_length, wilson, Estimate};
use crate::markdown::{count, elo, elo_interval, number, percent, percent_interval, Table, NONE};
use crate::Result;
use agon_core::{GameResult, Termination};

/// The section.
pub const SECTION: Section = Section {
    name: "ludii-random",
    doc: "docs/selfplay.md",
    blocks: &["ludii-random"],
    about: "random play under the `ludii` preset beside Ludii's recorded random games",
    generate,
};

const CONFIG: &str = "scripts/docs/ludii-random.toml";

/// `k of n (x%, Wilson [a, b])`.
fn share(k: u64, n: u64) -> String {
    match wilson(k, n) {
        Some(Estimate { value, low, high }) => format!(
            "{} of {} ({}, [{}])",
            count(k),
            count(n),
            percent(value),
            percent_interval(low, high)
                .trim_start_matches('[')
                .trim_end_matches(']')
        ),
        None => NONE.into(),
    }
}

fn generate(ctx: &Context) -> Result<Generated> {
    let played = play(ctx, CONFIG, "ludii-random")?;
    let summary = &played.summary;
    let ours = summary
        .groups
        .first()
        .ok_or("the ludii experiment has no group")?;
    let theirs = ludii_games()?;
    let n_theirs = theirs.len() as u64;
    let result_count = |r: GameResult| theirs.iter().filter(|(g, _)| g.result == r).count() as u64;
    let (first, second) = (
        result_count(GameResult::WhiteWins),
        result_count(GameResult::BlackWins),
    );
    let unfinished = result_count(GameResult::Unfinished);
    let their_plies: usize = theirs.iter().map(|(g, _)| g.actions.len()).sum();
    let their_double_passes = theirs
        .iter()
        .filter(|(_, o)| o.is_some_and(|o| o.termination == Termination::DoublePass))
        .count() as u64;
    let n = ours.games;
    let limit = summary.experiment.max_plies;
    let mut t = Table::new(&["", "Ludii (its recorded games)", "agon-selfplay"]);
    t.row(vec!["games".into(), count(n_theirs), count(n)]);
    t.row(vec![
        "mean plies per game".into(),
        number(their_plies as f64 / n_theirs as f64, 1),
        mean_length(ours).map_or(NONE.into(), |m| number(m, 1)),
    ]);
    t.row(vec![
        "first player wins".into(),
        share(first, n_theirs),
        share(ours.white_wins, n),
    ]);
    t.row(vec![
        "second player wins".into(),
        share(second, n_theirs),
        share(ours.black_wins, n),
    ]);
    t.row(vec![
        format!("stopped at {} plies", count(u64::from(limit))),
        share(unfinished, n_theirs),
        share(games_ended_by(ours, Termination::MoveLimit), n),
    ]);
    t.row(vec![
        "drawn by two passes".into(),
        count(their_double_passes),
        count(games_ended_by(ours, Termination::DoublePass)),
    ]);
    t.row(vec![
        "the first player's share of decided games".into(),
        share(first, first + second),
        share(ours.white_wins, ours.white_wins + ours.black_wins),
    ]);
    let formations = games_ended_by(ours, Termination::Formation);
    let six_guards = games_ended_by(ours, Termination::SixGuards);
    let no_moves = games_ended_by(ours, Termination::NoMoves);
    let advantage = first_move_elo(ours).map_or(NONE.into(), |e| {
        format!("{} {}", elo(e.value), elo_interval(e.low, e.high))
    });
    let body = format!(
        "{}\nOur {} games end by formation ({}), six guards ({}) or `no-moves` ({}); \
         White's score (draws and unfinished games as half) is {}, a first-move advantage of \
         {} Elo (95%).\n",
        t.render(),
        count(n),
        count(formations),
        count(six_guards),
        count(no_moves),
        ours.white_score.map_or(NONE.into(), |s| number(s, 3)),
        advantage,
    );
    Ok(Generated {
        bodies: vec![body],
        images: Vec::new(),
        sources: format!(
            "`{}` and the recorded games in `tests/data/ludii`",
            played.command
        ),
        played_at: vec![played.played_at().to_string()],
    })
}
