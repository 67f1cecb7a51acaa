//! Playing one game of an experiment: the random opening shared by a pair, then the agents
//! (asking the agent of the side that decides, which is not always the side to move).

use crate::adjudication::{Adjudication, Judge};
use crate::error::{Error, Result};
use crate::experiment::GameSpec;
use crate::external::{Player, Refusal};
use agon_core::{Action, ActionList, Game, Rng, Side};
use std::time::Instant;

/// How many times an opening is redrawn when random plies happen to end the game.
const OPENING_ATTEMPTS: usize = 100;

/// A finished game with what the statistics need.
pub struct PlayedGame {
    /// The game, from the start position.
    pub game: Game,
    /// The random opening plies played before the agents took over.
    pub opening: Vec<Action>,
    /// Counts over every ply of the game.
    pub counts: PlyCounts,
    /// Whether either agent's choices depended on the clock.
    pub time_limited: bool,
    /// When an external engine lost by the referee's decision (`illegal-move`, `crash`,
    /// `timeout`): which side and what it did.
    pub forfeit: Option<String>,
    /// Wall-clock time of the game, in milliseconds.
    pub duration_ms: f64,
}

/// Counts over the plies of one game (opening included), for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyCounts {
    /// Pieces captured (a suicide counts as a capture).
    pub captures: u32,
    /// Relocation actions.
    pub relocations: u32,
    /// Pass actions.
    pub passes: u32,
    /// Plies played in a position with more than one legal action (Ludii's DecisionMoves).
    pub decision_plies: u32,
    /// Sum over plies of the number of legal actions (Ludii's branching factor).
    pub legal_actions: u64,
}

impl PlyCounts {
    /// Counts the plies of a game.
    pub fn of(game: &Game) -> PlyCounts {
        let mut counts = PlyCounts::default();
        for (k, ply) in game.plies().iter().enumerate() {
            let before = game.position_before(k).expect("one position per ply");
            let legal = before.legal().count();
            counts.legal_actions += legal as u64;
            counts.decision_plies += u32::from(legal > 1);
            counts.captures += ply.captures.count();
            match ply.action {
                Action::Relocate { .. } => counts.relocations += 1,
                Action::Pass => counts.passes += 1,
                _ => {}
            }
        }
        counts
    }
}

/// The opening of a pair: its suite opening if the experiment has one (else the start),
/// then `plies` uniformly random actions. Redrawn
/// (from the same stream) when the random plies end the game, so that agents play every
/// game; after `OPENING_ATTEMPTS` tries the last draw is kept.
pub fn random_opening(spec: &GameSpec, plies: u32) -> Game {
    let mut rng = Rng::new(spec.opening_seed);
    let mut list = ActionList::new();
    // The suite opening was checked when the experiment was: it starts a game.
    let start = || match &spec.suite_opening {
        Some((_, opening)) => opening
            .game(spec.rules)
            .unwrap_or_else(|_| Game::new(spec.rules)),
        None => Game::new(spec.rules),
    };
    let mut game = start();
    for _ in 0..OPENING_ATTEMPTS {
        game = start();
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            game.position().legal().generate(&mut list);
            game.play_unchecked(list[rng.below(list.len())]);
        }
        if !game.is_over() {
            break;
        }
    }
    game
}

/// Plays game `spec`: its opening, then the agents until the rules end the game,
/// `max_plies` plies have been played (an adjudicated `move-limit` draw), or the
/// adjudication rules end it from the agents' scores (termination `adjudication`).
pub fn play(
    spec: &GameSpec,
    opening_plies: u32,
    max_plies: u32,
    adjudication: Adjudication,
) -> Result<PlayedGame> {
    let started = Instant::now();
    let mut agents = [
        Player::new(&spec.white, spec.white_seed, spec.rules)?,
        Player::new(&spec.black, spec.black_seed, spec.rules)?,
    ];
    let time_limited = agents.iter().any(|a| a.is_time_limited());
    let mut forfeit = None;
    let mut game = random_opening(spec, opening_plies);
    let opening: Vec<Action> = game.plies().iter().map(|p| p.action).collect();
    let mut judge = (!adjudication.is_empty()).then(|| Judge::new(adjudication));
    while !game.is_over() {
        if game.ply_count() >= max_plies as usize {
            game.adjudicate_move_limit();
            break;
        }
        let decider = game.position().decider();
        let action = match agents[decider.index()].choose(&game) {
            Ok(action) => action,
            Err(Refusal::Forfeit(failure)) => {
                game.forfeit(decider, failure.termination);
                forfeit = Some(format!("{decider}: {}", failure.reason));
                break;
            }
            Err(Refusal::Error(e)) => return Err(e),
        };
        let captured = match game.play(action) {
            Ok(captured) => captured,
            Err(why) => {
                let name = match decider {
                    Side::White => &spec.white,
                    Side::Black => &spec.black,
                };
                return Err(Error::Agent(format!(
                    "`{name}` chose the illegal action {action} at ply {} of game {} ({}): {why}",
                    game.ply_count() + 1,
                    spec.index,
                    spec.rules
                )));
            }
        };
        if let Some(judge) = judge.as_mut().filter(|_| !game.is_over()) {
            let score = agents[decider.index()].last_score();
            let captured = captured.count() > 0;
            if let Some(result) = judge.after_choice(decider, score, captured, game.ply_count()) {
                game.adjudicate(result);
            }
        }
    }
    Ok(PlayedGame {
        counts: PlyCounts::of(&game),
        game,
        opening,
        time_limited,
        forfeit,
        duration_ms: started.elapsed().as_secs_f64() * 1000.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Experiment, Kind, Pairing};

    fn experiment() -> Experiment {
        Experiment {
            kind: Kind::Run,
            variants: vec!["standard".into()],
            pairings: vec![Pairing {
                first: "random".into(),
                second: "random".into(),
            }],
            games: 4,
            opening_plies: 6,
            max_plies: 300,
            seed: 3,
            sprt: None,
            adjudication: Default::default(),
            openings: None,
        }
        .validated()
        .unwrap()
    }

    #[test]
    fn a_game_is_a_function_of_its_spec() {
        let e = experiment();
        let a = play(&e.game(2), 6, 300, Adjudication::default()).unwrap();
        let b = play(&e.game(2), 6, 300, Adjudication::default()).unwrap();
        assert_eq!(a.game.plies(), b.game.plies());
        assert_eq!(a.counts, b.counts);
        assert!(a.game.is_over());
        assert!(a.game.ply_count() <= 300);
    }

    #[test]
    fn both_games_of_a_pair_start_with_the_same_opening() {
        let e = experiment();
        let a = play(&e.game(0), 6, 300, Adjudication::default()).unwrap();
        let b = play(&e.game(1), 6, 300, Adjudication::default()).unwrap();
        assert_eq!(a.opening.len(), 6);
        assert_eq!(a.opening, b.opening);
        assert_eq!(
            &a.game.plies()[..6]
                .iter()
                .map(|p| p.action)
                .collect::<Vec<_>>(),
            &a.opening
        );
    }

    #[test]
    fn the_ply_limit_adjudicates_a_draw() {
        let e = experiment();
        let a = play(&e.game(0), 6, 7, Adjudication::default()).unwrap();
        assert_eq!(a.game.ply_count(), 7);
        let outcome = a.game.outcome().unwrap();
        assert_eq!(outcome.termination, agon_core::Termination::MoveLimit);
    }

    #[test]
    fn counts_match_the_plies() {
        let e = experiment();
        let a = play(&e.game(3), 6, 300, Adjudication::default()).unwrap();
        let plies = a.game.ply_count() as u32;
        assert!(a.counts.decision_plies <= plies);
        assert!(a.counts.legal_actions >= u64::from(plies));
        let captured: u32 = a.game.plies().iter().map(|p| p.captures.count()).sum();
        assert_eq!(a.counts.captures, captured);
    }
}
