//! Uniformly random playouts: the simplest player, the engine's throughput benchmark and
//! a source of random positions for tests.

use crate::hot::{with_fixed_rules, HotRules};
use crate::movegen::{Drawn, PieceSteps};
use crate::pieces::PieceCells;
use crate::repetition::RepetitionTable;
use crate::{
    Action, Game, GameResult, LegalActions, Outcome, Position, Rng, Rules, Side, Termination,
};

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
/// The games are uniformly random as [`random_playout`]'s, adjudicated as a [`Game`]
/// adjudicates them, on a leaner path: no [`Game`] record (no list of plies, no position
/// kept per ply for undo), only the position, a table of how often each position occurred
/// and the lists of both sides' pieces. They are not the games [`random_playout`] plays
/// with the same generator: the lean path numbers the legal steps piece by piece, in the
/// order of its lists ([`crate::movegen::PieceSteps`]), where [`LegalActions::random`]
/// numbers them direction by direction.
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

/// One uniformly random game from `start`, adjudicated as a new [`Game`] would adjudicate
/// it, without the record: returns how it ended, its last position and its number of
/// plies.
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
        fixed,
        start,
        rng,
        max_plies,
        occurred,
        &mut |_| {}
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
    record: &mut impl FnMut(Action),
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
    let mut pieces = [PieceCells::of(&position, Side::White); 2];
    let mut listed = false;
    while outcome.is_none() {
        // One copy of the ply for each mover, so that every side index in it is a constant.
        outcome = match position.to_move() {
            Side::White => lean_ply(
                hot,
                Side::White,
                &mut position,
                &mut pieces,
                &mut listed,
                rng,
                &mut plies,
                max_plies,
                limit,
                occurred,
                record,
            ),
            Side::Black => lean_ply(
                hot,
                Side::Black,
                &mut position,
                &mut pieces,
                &mut listed,
                rng,
                &mut plies,
                max_plies,
                limit,
                occurred,
                record,
            ),
        };
    }
    (
        outcome.expect("the loop ends with an outcome"),
        position,
        plies,
    )
}

/// The ending of a game cut at its ply limit.
const MOVE_LIMIT: Outcome = Outcome {
    result: GameResult::Draw,
    termination: Termination::MoveLimit,
};

/// One ply of [`lean_playout_in`] with `me` to move: the outcome if the game ended.
///
/// While no piece is captured and none is in hand (nearly every ply), the step is drawn
/// from the lists of both sides' pieces in `pieces` ([`PieceSteps`]), which the ply keeps
/// up to date; `listed` says whether they are. Otherwise the general code plays the ply
/// (on a copy of the position for the rare actions, so that `position` can stay in
/// registers) and the lists are made again when the board is settled once more.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn lean_ply(
    hot: impl HotRules,
    me: Side,
    position: &mut Position,
    pieces: &mut [PieceCells; 2],
    listed: &mut bool,
    rng: &mut Rng,
    plies: &mut usize,
    max_plies: usize,
    limit: Option<u32>,
    occurred: &mut RepetitionTable,
    record: &mut impl FnMut(Action),
) -> Option<Outcome> {
    position.know_to_move(me);
    // While the lists are kept, the board stays settled: they are dropped at every
    // capture and every ply that is not played from them.
    debug_assert!(!*listed || position.is_settled());
    debug_assert!(
        !*listed
            || pieces.map(|list| list.sets())
                == [Side::White, Side::Black].map(|side| PieceCells::of(position, side).sets()),
        "the piece lists are the board's"
    );
    let (drawn, slot, rare) = if *listed || position.is_settled() {
        if !*listed {
            *pieces = [Side::White, Side::Black].map(|side| PieceCells::of(position, side));
            *listed = true;
        }
        let (drawn, slot) = PieceSteps::of_in(hot, position, &pieces[me.index()]).random(rng);
        // The common case played here, apart from the general one below, so that the
        // drawn step goes straight from the draw to the board.
        if let Drawn::Step { kind, from, to } = drawn {
            if *plies >= max_plies {
                return Some(MOVE_LIMIT);
            }
            record(Action::Step { from, to });
            if position.play_step_of_in(hot, kind, from, to).any() {
                *listed = false;
            } else {
                pieces[me.index()].moved(slot, to);
            }
            *plies += 1;
            return position.outcome_after_step_in(hot, me, Some(to), || {
                limit.is_some_and(|limit| occurred.add(position.hash()) >= limit)
            });
        }
        (drawn, slot, None)
    } else if position.in_normal_play() {
        *listed = false;
        let drawn = LegalActions::random_step_in(hot, position, rng);
        (drawn, PieceCells::SLOTS, None)
    } else {
        *listed = false;
        let action = LegalActions::random_rare(&{ *position }, rng);
        (Drawn::Nothing, PieceCells::SLOTS, action)
    };
    if drawn == Drawn::Nothing && rare.is_none() {
        return Some(Outcome {
            result: GameResult::win_for(!me),
            termination: Termination::NoMoves,
        });
    }
    if *plies >= max_plies {
        return Some(MOVE_LIMIT);
    }
    record(match (drawn, rare) {
        (Drawn::Step { from, to, .. }, _) => Action::Step { from, to },
        (Drawn::Pass, _) => Action::Pass,
        (Drawn::Nothing, action) => action.expect("a rare action was drawn"),
    });
    let step_to = match (drawn, rare) {
        (Drawn::Step { kind, from, to }, _) => {
            let captures = position.play_step_of_in(hot, kind, from, to);
            if captures.any() {
                *listed = false;
            } else if slot < PieceCells::SLOTS {
                pieces[me.index()].moved(slot, to);
            }
            Some(to)
        }
        (Drawn::Pass, _) => {
            let mut copy = *position;
            copy.play_in(hot, Action::Pass);
            *position = copy;
            None
        }
        (Drawn::Nothing, action) => {
            let mut copy = *position;
            copy.play_in(hot, action.expect("a rare action was drawn"));
            *position = copy;
            None
        }
    };
    *plies += 1;
    position.outcome_after_step_in(hot, me, step_to, || {
        limit.is_some_and(|limit| occurred.add(position.hash()) >= limit)
    })
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

    /// [`lean_playout`] with the actions it played.
    fn recorded_playout(
        start: Position,
        rng: &mut Rng,
        max_plies: usize,
        occurred: &mut RepetitionTable,
    ) -> (Outcome, Position, usize, Vec<Action>) {
        let mut actions = Vec::new();
        let (outcome, last, plies) = with_fixed_rules!(start.rules(), |fixed| lean_playout_in(
            fixed,
            start,
            rng,
            max_plies,
            occurred,
            &mut |action| actions.push(action)
        ));
        (outcome, last, plies, actions)
    }

    #[test]
    fn a_tally_counts_each_game_as_played_alone() {
        let tally = random_games(Rules::STANDARD, 9, 4..5, 50);
        let start = Position::start(Rules::STANDARD);
        let (outcome, last, plies) = lean_playout(
            start,
            &mut Rng::for_stream(9, 4),
            50,
            &mut RepetitionTable::new(),
        );
        assert_eq!(tally.actions, plies as u64);
        assert_eq!(tally.fingerprint, last.hash());
        let (termination, result, n) = tally.ending_counts().next().unwrap();
        assert_eq!(
            (termination, result, n),
            (outcome.termination, outcome.result, 1)
        );
    }

    /// Every action of the lean path is legal, and a [`Game`] that plays them ends the game
    /// where and as the lean path did, in every single-switch variant, the `ludii` preset
    /// and twofold repetition (so repetition draws come often): same length, ending and
    /// last position. (The debug build also checks the piece lists against the board at
    /// every ply.)
    #[test]
    fn a_game_adjudicates_the_lean_playouts_alike() {
        let mut variants = Rules::single_switch_variants();
        variants.push(Rules::LUDII);
        variants.push(
            Rules::STANDARD
                .with_repetition(crate::Repetition::times(2).expect("2 is a limit"))
                .expect("a rule set"),
        );
        let mut occurred = RepetitionTable::new();
        let mut repetitions = 0;
        let mut captures = 0;
        for rules in variants {
            for index in 0..6 {
                let max_plies = [400, 20_000][index as usize % 2];
                let start = Position::start(rules);
                let (outcome, last, plies, actions) = recorded_playout(
                    start,
                    &mut Rng::for_stream(3, index),
                    max_plies,
                    &mut occurred,
                );
                assert_eq!(actions.len(), plies, "{rules} game {index}");
                let mut game = Game::from_position(start);
                for (ply, &action) in actions.iter().enumerate() {
                    assert!(
                        !game.is_over(),
                        "{rules} game {index}: over before ply {ply}"
                    );
                    assert!(
                        game.legal().contains(action),
                        "{rules} game {index}: {action} at ply {ply} is illegal"
                    );
                    captures += game.play_unchecked(action).count();
                }
                if outcome.termination == Termination::MoveLimit {
                    assert!(!game.is_over(), "{rules} game {index}");
                    game.adjudicate_move_limit();
                }
                assert_eq!(Some(outcome), game.outcome(), "{rules} game {index}");
                assert_eq!(last, *game.position(), "{rules} game {index}");
                assert_eq!(last.hash(), game.position().hash());
                repetitions += (outcome.termination == Termination::Repetition) as u32;
            }
        }
        assert!(repetitions > 10, "only {repetitions} repetition draws");
        assert!(captures > 100, "only {captures} captures");
    }

    #[test]
    fn a_ply_limit_ends_games_as_move_limit_draws() {
        let tally = random_games(Rules::STANDARD, 1, 0..3, 10);
        assert_eq!(tally.actions, 30);
        let endings: Vec<_> = tally.ending_counts().collect();
        assert_eq!(endings, vec![(Termination::MoveLimit, GameResult::Draw, 3)]);
    }
}
