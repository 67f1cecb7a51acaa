//! Uniformly random playouts: the simplest player, the engine's throughput benchmark and
//! a source of random positions for tests.

use crate::{Game, GameResult, Position, Rng, Rules, Termination};

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
        self.games += 1;
        self.actions += actions;
        self.shortest = self.shortest.min(actions);
        self.longest = self.longest.max(actions);
        if let Some(outcome) = game.outcome() {
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
        self.fingerprint = self.fingerprint.wrapping_add(game.position().hash());
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
pub fn random_games(
    rules: Rules,
    seed: u64,
    indices: std::ops::Range<u64>,
    max_plies: usize,
) -> PlayoutTally {
    let start = Position::start(rules);
    let mut game = Game::from_position(start);
    let mut tally = PlayoutTally::default();
    for index in indices {
        game.restart(start);
        let mut rng = Rng::for_stream(seed, index);
        let actions = random_playout(&mut game, &mut rng, max_plies);
        tally.add(&game, actions as u64);
    }
    tally
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

    #[test]
    fn a_ply_limit_ends_games_as_move_limit_draws() {
        let tally = random_games(Rules::STANDARD, 1, 0..3, 10);
        assert_eq!(tally.actions, 30);
        let endings: Vec<_> = tally.ending_counts().collect();
        assert_eq!(endings, vec![(Termination::MoveLimit, GameResult::Draw, 3)]);
    }
}
