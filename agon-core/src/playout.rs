//! Uniformly random playouts: the simplest player, the engine's throughput benchmark and
//! a source of random positions for tests.

use crate::hot::{with_fixed_rules, HotRules};
use crate::movegen::Drawn;
use crate::repetition::RepetitionTable;
use crate::{Action, Game, GameResult, LegalActions, Outcome, Position, Rng, Rules, Termination};

/// Plays uniformly random legal actions until the game ends or `max_plies` plies have been
/// played in total (then the game is adjudicated a `move-limit` draw). Returns the number
/// of plies played by this call.
pub fn random_playout(game: &mut Game, rng: &mut Rng, max_plies: usize) -> usize {
    let mut played = 0;
    while !game.is_over() {
        if game.ply_count() >= max_plies {
            game.adjudicate_move_limit();
            break;
        }
        let action = game
            .legal()
            .random(rng)
            .expect("a game that is not over has a legal action");
        game.play_unchecked(action);
        played += 1;
    }
    played
}

/// What a batch of random games added up to. Every field is a sum, a minimum or a maximum,
/// so tallies of any split of a run merge ([`PlayoutTally::merge`]) into the same numbers:
/// the totals of games `0..n` of a seed do not depend on how many threads played them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayoutTally {
    /// Games played.
    pub games: u64,
    /// Actions played in all of them.
    pub actions: u64,
    /// The fewest actions in one game (`u64::MAX` while no game was played).
    pub shortest: u64,
    /// The most actions in one game.
    pub longest: u64,
    /// How the games ended: counts by termination (in [`Termination::ALL`] order) and result
    /// (White won, Black won, draw).
    pub endings: [[u64; 3]; Termination::ALL.len()],
    /// The wrapping sum of the final positions' hashes: equal fingerprints say two runs
    /// played the same games.
    pub fingerprint: u64,
}

impl Default for PlayoutTally {
    fn default() -> PlayoutTally {
        PlayoutTally {
            games: 0,
            actions: 0,
            shortest: u64::MAX,
            longest: 0,
            endings: [[0; 3]; Termination::ALL.len()],
            fingerprint: 0,
        }
    }
}

impl PlayoutTally {
    /// Adds one finished game of `actions` plies.
    pub fn add(&mut self, game: &Game, actions: u64) {
        self.add_ending(game.outcome(), game.position(), actions);
    }

    /// Adds one game of `actions` plies that ended in `last` with `outcome`.
    fn add_ending(&mut self, outcome: Option<Outcome>, last: &Position, actions: u64) {
        self.games += 1;
        self.actions += actions;
        self.shortest = self.shortest.min(actions);
        self.longest = self.longest.max(actions);
        if let Some(outcome) = outcome {
            let column = match outcome.result {
                GameResult::WhiteWins => 0,
                GameResult::BlackWins => 1,
                _ => 2,
            };
            let row = Termination::ALL
                .iter()
                .position(|&t| t == outcome.termination)
                .unwrap_or(0);
            self.endings[row][column] += 1;
        }
        self.fingerprint = self.fingerprint.wrapping_add(last.hash());
    }

    /// Adds another tally's games.
    pub fn merge(&mut self, other: &PlayoutTally) {
        self.games += other.games;
        self.actions += other.actions;
        self.shortest = self.shortest.min(other.shortest);
        self.longest = self.longest.max(other.longest);
        for (mine, theirs) in self.endings.iter_mut().zip(&other.endings) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.fingerprint = self.fingerprint.wrapping_add(other.fingerprint);
    }

    /// The mean number of actions per game (0 when no game was played).
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.actions as f64 / self.games as f64
        }
    }

    /// The endings that occurred: termination, result and count, in a stable order.
    pub fn ending_counts(&self) -> impl Iterator<Item = (Termination, GameResult, u64)> + '_ {
        const RESULTS: [GameResult; 3] = [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ];
        Termination::ALL
            .iter()
            .zip(&self.endings)
            .flat_map(|(&termination, row)| {
                RESULTS
                    .iter()
                    .zip(row)
                    .filter(|(_, &n)| n > 0)
                    .map(move |(&result, &n)| (termination, result, n))
            })
    }
}

/// Plays games `indices` of a run of uniformly random games from the start position of
/// `rules`: game `i` draws its actions from [`Rng::for_stream`]`(seed, i)`, so a game is the
/// same whichever batch or thread plays it. Games still going after `max_plies` plies are
/// adjudicated `move-limit` draws.
///
/// The games are those [`random_playout`] plays, action for action, on a leaner path: no
/// [`Game`] record (no list of plies, no position kept per ply for undo), only the
/// position and a table of how often each position occurred.
pub fn random_games(
    rules: Rules,
    seed: u64,
    indices: std::ops::Range<u64>,
    max_plies: usize,
) -> PlayoutTally {
    let start = Position::start(rules);
    let mut occurred = RepetitionTable::new();
    let mut tally = PlayoutTally::default();
    for index in indices {
        let mut rng = Rng::for_stream(seed, index);
        let (outcome, last, actions) = lean_playout(start, &mut rng, max_plies, &mut occurred);
        tally.add_ending(Some(outcome), &last, actions as u64);
    }
    tally
}

/// One random game from `start` as [`random_playout`] plays it in a new [`Game`], without
/// the record: returns how it ended, its last position and its number of plies.
///
/// The adjudication is [`Game`]'s, in the same order: after each action the board's
/// endings and repetition ([`Position::outcome_after_action`]), then the no-move rule, then
/// the ply limit. Repetition counts positions by hash in `occurred` (a 64-bit Zobrist hash:
/// two different positions of one game sharing one is a chance of about 2^-64 per pair,
/// where [`Game`] would compare the positions).
fn lean_playout(
    start: Position,
    rng: &mut Rng,
    max_plies: usize,
    occurred: &mut RepetitionTable,
) -> (Outcome, Position, usize) {
    with_fixed_rules!(start.rules(), |fixed| lean_playout_in(
        fixed, start, rng, max_plies, occurred
    ))
}

/// [`lean_playout`] under the hot switches `hot` (those of `start`'s rules).
#[inline(never)]
fn lean_playout_in(
    hot: impl HotRules,
    start: Position,
    rng: &mut Rng,
    max_plies: usize,
    occurred: &mut RepetitionTable,
) -> (Outcome, Position, usize) {
    let limit = start.rules().repetition().limit().map(u32::from);
    occurred.clear();
    if limit.is_some() {
        occurred.add(start.hash());
    }
    let mut position = start;
    let mut plies = 0;
    // The start has occurred once: no repetition yet.
    let mut outcome = start.outcome_after_action(!start.to_move(), || false);
    while outcome.is_none() {
        // A step in normal play (nearly every ply); a pass, relocation or placement
        // otherwise, played by the general code.
        let (drawn, rare) = if position.in_normal_play() {
            (LegalActions::random_step_in(hot, &position, rng), None)
        } else {
            let action = LegalActions::random_rare(&position, rng);
            (Drawn::Nothing, action)
        };
        if drawn == Drawn::Nothing && rare.is_none() {
            outcome = Some(Outcome {
                result: GameResult::win_for(!position.to_move()),
                termination: Termination::NoMoves,
            });
            break;
        }
        if plies >= max_plies {
            outcome = Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::MoveLimit,
            });
            break;
        }
        let mover = position.to_move();
        match (drawn, rare) {
            (Drawn::Step { kind, from, to }, _) => position.play_step_of_in(hot, kind, from, to),
            (Drawn::Pass, _) => position.play_in(hot, Action::Pass),
            (Drawn::Nothing, action) => {
                position.play_in(hot, action.expect("a rare action was drawn"))
            }
        };
        plies += 1;
        let step_to = match drawn {
            Drawn::Step { to, .. } => Some(to),
            _ => None,
        };
        outcome = position.outcome_after_step_in(hot, mover, step_to, || {
            limit.is_some_and(|limit| occurred.add(position.hash()) >= limit)
        });
    }
    (
        outcome.expect("the loop ends with an outcome"),
        position,
        plies,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_of_any_split_merge_into_the_whole() {
        let whole = random_games(Rules::STANDARD, 5, 0..12, 2_000);
        let mut parts = random_games(Rules::STANDARD, 5, 7..12, 2_000);
        parts.merge(&random_games(Rules::STANDARD, 5, 0..3, 2_000));
        parts.merge(&random_games(Rules::STANDARD, 5, 3..7, 2_000));
        assert_eq!(parts, whole);
        assert_eq!(whole.games, 12);
        let ended: u64 = whole.ending_counts().map(|(_, _, n)| n).sum();
        assert_eq!(ended, 12);
        assert!(whole.shortest <= whole.longest);
    }

    #[test]
    fn a_tally_counts_each_game_as_played_alone() {
        let tally = random_games(Rules::STANDARD, 9, 4..5, 50);
        let mut game = Game::new(Rules::STANDARD);
        let actions = random_playout(&mut game, &mut Rng::for_stream(9, 4), 50);
        assert_eq!(tally.actions, actions as u64);
        assert_eq!(tally.fingerprint, game.position().hash());
        let (termination, result, n) = tally.ending_counts().next().unwrap();
        let outcome = game.outcome().unwrap();
        assert_eq!(
            (termination, result, n),
            (outcome.termination, outcome.result, 1)
        );
    }

    /// The lean path plays the games [`random_playout`] plays on a [`Game`], in every
    /// single-switch variant, the `ludii` preset and twofold repetition (so repetition
    /// draws come often): same length, ending and last position.
    #[test]
    fn lean_playouts_are_the_games_a_game_plays() {
        let mut variants = Rules::single_switch_variants();
        variants.push(Rules::LUDII);
        variants.push(
            Rules::STANDARD
                .with_repetition(crate::Repetition::times(2).expect("2 is a limit"))
                .expect("a rule set"),
        );
        let mut occurred = RepetitionTable::new();
        let mut repetitions = 0;
        for rules in variants {
            for index in 0..6 {
                let max_plies = [400, 20_000][index as usize % 2];
                let start = Position::start(rules);
                let mut game = Game::from_position(start);
                let played = random_playout(&mut game, &mut Rng::for_stream(3, index), max_plies);
                let (outcome, last, plies) = lean_playout(
                    start,
                    &mut Rng::for_stream(3, index),
                    max_plies,
                    &mut occurred,
                );
                assert_eq!(plies, played, "{rules} game {index}");
                assert_eq!(Some(outcome), game.outcome(), "{rules} game {index}");
                assert_eq!(last, *game.position(), "{rules} game {index}");
                assert_eq!(last.hash(), game.position().hash());
                repetitions += (outcome.termination == Termination::Repetition) as u32;
            }
        }
        assert!(repetitions > 10, "only {repetitions} repetition draws");
    }

    #[test]
    fn a_ply_limit_ends_games_as_move_limit_draws() {
        let tally = random_games(Rules::STANDARD, 1, 0..3, 10);
        assert_eq!(tally.actions, 30);
        let endings: Vec<_> = tally.ending_counts().collect();
        assert_eq!(endings, vec![(Termination::MoveLimit, GameResult::Draw, 3)]);
    }
}
