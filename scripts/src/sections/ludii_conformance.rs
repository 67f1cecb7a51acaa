//! docs/ludii-conformance.md: how Ludii's 200 recorded random games end under `ludii`, and
//! where they stop under `standard`. No experiment: the recorded data (tests/data/ludii)
//! and the engine alone; `tests/tests/ludii_conformance.rs` fails when the replay block is
//! out of date.

use super::{Generated, Section};
use crate::context::Context;
use crate::markdown::count;
use crate::Result;
use agon_core::{GameResult, Outcome, Rules, Termination};
use agon_tests::ludii::{random_games, LudiiGame};
use agon_tests::standard_replay::{replay, report, Stop};

/// The section.
pub const SECTION: Section = Section {
    name: "ludii-conformance",
    doc: "docs/ludii-conformance.md",
    blocks: &["ludii-endings", "ludii-standard-replay"],
    about: "Ludii's recorded games: their endings under `ludii`, their replay under `standard`",
    generate,
};

/// The recorded games, each with how the engine ends it under `ludii` (`None`: not over,
/// stopped by Ludii's ply limit).
pub fn ludii_games() -> Result<Vec<(LudiiGame, Option<Outcome>)>> {
    let games = random_games()?;
    Ok(games
        .into_iter()
        .map(|g| {
            let outcome = match replay(&g, Rules::LUDII).stop {
                Stop::Completed { outcome } => outcome,
                // Never: the conformance tests replay every game whole under `ludii`.
                _ => None,
            };
            (g, outcome)
        })
        .collect())
}

fn generate(_ctx: &Context) -> Result<Generated> {
    let games = ludii_games()?;
    let ended = |result: GameResult, termination: Termination| {
        games
            .iter()
            .filter(|(_, o)| o.is_some_and(|o| o.result == result && o.termination == termination))
            .count() as u64
    };
    let formations = (
        ended(GameResult::WhiteWins, Termination::Formation),
        ended(GameResult::BlackWins, Termination::Formation),
    );
    // A six-guards ending is a loss for the side that closed the ring.
    let six_guards = (
        ended(GameResult::BlackWins, Termination::SixGuards),
        ended(GameResult::WhiteWins, Termination::SixGuards),
    );
    let double_pass = ended(GameResult::Draw, Termination::DoublePass);
    let not_over = games.iter().filter(|(_, o)| o.is_none()).count() as u64;
    let recorded_unfinished = games
        .iter()
        .filter(|(g, _)| g.result == GameResult::Unfinished)
        .count() as u64;
    let endings = format!(
        "The games' endings under `ludii`, as the engine replays them: {} formations ({} won \
         by White, the first player; {} by Black), {} six-guards losses ({} by White, {} by \
         Black), {} double passes, and {} games not over when Ludii's 2 500-ply limit stopped \
         them (Ludii recorded {} unfinished games).\n",
        count(formations.0 + formations.1),
        count(formations.0),
        count(formations.1),
        count(six_guards.0 + six_guards.1),
        count(six_guards.0),
        count(six_guards.1),
        count(double_pass),
        count(not_over),
        count(recorded_unfinished),
    );
    Ok(Generated {
        bodies: vec![endings, standard_replay_report()?],
        images: Vec::new(),
        sources: "the recorded games in `tests/data/ludii` (no experiment)".into(),
        played_at: Vec::new(),
    })
}

/// The report of the replay under `standard` (the block the conformance test checks).
pub fn standard_replay_report() -> Result<String> {
    let games = random_games()?;
    let replays: Vec<_> = games.iter().map(|g| replay(g, Rules::STANDARD)).collect();
    Ok(report(&replays, Rules::STANDARD))
}
