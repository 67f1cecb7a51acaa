//! Uniformly random playouts: the simplest player, the engine's throughput benchmark and
//! a source of random positions for tests.

use crate::hot::{with_fixed_rules, BranchFree, HotRules};
use crate::repetition::RepetitionTable;
#[cfg(target_arch = "x86_64")]
use crate::step_slots::Pdep;
use crate::step_slots::{ByTable, SelectBit, SlotAction, StepSlots};
use crate::{
    Action, Game, GameResult, LegalActions, Outcome, Position, Rng, Rules, Termination, TouchMove,
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
/// The games are uniformly random like [`random_playout`]'s, on a leaner path: no
/// [`Game`] record (no list of plies, no position kept per ply for undo), only the
/// position, a table of how often each position occurred, and the pieces in slots that
/// number the legal steps (`step_slots`). That numbering is not [`LegalActions`]'s, so the
/// same seed gives other games than [`random_playout`] on a [`Game`].
pub fn random_games(
    rules: Rules,
    seed: u64,
    indices: std::ops::Range<u64>,
    max_plies: usize,
) -> PlayoutTally {
    let start = Position::start(rules);
    let mut occurred = RepetitionTable::sparse();
    let mut tally = PlayoutTally::default();
    for index in indices {
        let mut rng = Rng::for_stream(seed, index);
        let (outcome, last, actions) =
            lean_playout(start, &mut rng, max_plies, &mut occurred, |_| {});
        tally.add_ending(Some(outcome), &last, actions as u64);
    }
    tally
}

/// What the playout loop drew: a step or pass numbered by the slots, or a relocation or
/// placement drawn by the general code.
#[derive(Clone, Copy)]
enum Drawn {
    Slot(SlotAction),
    Rare(Action),
}

/// One uniformly random game from `start` without a [`Game`] record: returns how it ended,
/// its last position and its number of plies. `on_action` sees every action played (the
/// tests replay them in a [`Game`]; the playouts pass a closure that does nothing).
///
/// The adjudication is [`Game`]'s, in the same order: after each action the board's
/// endings and repetition ([`Position::outcome_after_action`]), then the no-move rule, then
/// the ply limit. Repetition counts positions by hash in `occurred` (a 64-bit Zobrist hash:
/// two different positions of one game sharing one is a chance of about 2^-64 per pair,
/// where [`Game`] would compare the positions).
///
/// In normal play the legal actions are numbered by [`StepSlots`] (each side's pieces in
/// slots that follow them as they step), so a game draws its actions in another order
/// than [`random_playout`] does with the same generator: both are uniform over the legal
/// actions, and a game here is the same for a seed and index on every run and thread.
fn lean_playout(
    start: Position,
    rng: &mut Rng,
    max_plies: usize,
    occurred: &mut RepetitionTable,
    on_action: impl FnMut(Action),
) -> (Outcome, Position, usize) {
    let run = Run {
        start,
        rng,
        max_plies,
        occurred,
    };
    #[cfg(target_arch = "x86_64")]
    if let Some(pdep) = Pdep::detect() {
        return with_fixed_rules!(start.rules(), |fixed| {
            // SAFETY: `lean_playout_bmi2` needs BMI2, which `Pdep::detect` found on this
            // processor.
            #[allow(unsafe_code)]
            unsafe {
                lean_playout_bmi2(BranchFree(fixed), pdep, run, on_action)
            }
        });
    }
    with_fixed_rules!(start.rules(), |fixed| lean_playout_by_table(
        BranchFree(fixed),
        run,
        on_action
    ))
}

/// What a lean playout plays from: its start, its generator, its ply limit and the table it
/// counts positions in.
struct Run<'a> {
    start: Position,
    rng: &'a mut Rng,
    max_plies: usize,
    occurred: &'a mut RepetitionTable,
}

/// [`lean_playout`] under the hot switches `hot` (those of the start's rules), finding the
/// drawn bit by table.
#[inline(never)]
fn lean_playout_by_table(
    hot: impl HotRules,
    run: Run<'_>,
    on_action: impl FnMut(Action),
) -> (Outcome, Position, usize) {
    lean_playout_in(hot, ByTable, run, on_action)
}

/// [`lean_playout`] compiled for processors with BMI2, finding the drawn bit with `pdep`
/// (about 18% more actions per second than the table's way on the machine of
/// docs/performance.md: the drawn bit is on the chain from ply to ply).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
#[inline(never)]
fn lean_playout_bmi2(
    hot: impl HotRules,
    pdep: Pdep,
    run: Run<'_>,
    on_action: impl FnMut(Action),
) -> (Outcome, Position, usize) {
    lean_playout_in(hot, pdep, run, on_action)
}

/// The playout loop (see [`lean_playout`]), with `select` finding the drawn action's bit.
#[inline(always)]
fn lean_playout_in(
    hot: impl HotRules,
    select: impl SelectBit,
    run: Run<'_>,
    mut on_action: impl FnMut(Action),
) -> (Outcome, Position, usize) {
    let Run {
        start,
        rng,
        max_plies,
        occurred,
    } = run;
    let rules = start.rules();
    let limit = rules.repetition().limit().map(u32::from);
    let pass = rules.touch_move() == TouchMove::On;
    occurred.clear();
    if limit.is_some() {
        occurred.add(start.hash());
    }
    let mut position = start;
    let mut plies = 0;
    // The slots follow the position's active pieces through every action.
    let mut slots = StepSlots::of(&position);
    // The start has occurred once: no repetition yet.
    let mut outcome = start.outcome_after_action(!start.to_move(), || false);
    while outcome.is_none() {
        let mover = position.to_move();
        // Debug builds and the tests (in release builds too) check the slots at every ply.
        if cfg!(any(test, debug_assertions)) {
            assert!(
                slots.describe(&position),
                "slots out of step at ply {plies}"
            );
        }
        // A step in normal play (nearly every ply); a relocation or placement otherwise,
        // played by the general code.
        let drawn = if position.in_normal_play() {
            let open = StepSlots::open_cells(position.step_open_cells_in(hot, mover), pass);
            let legal = slots.legal(mover, open);
            if legal != 0 {
                let k = rng.below(legal.count_ones() as usize) as u32;
                Some(Drawn::Slot(slots.action(mover, select.select(legal, k))))
            } else if hot.ludii() {
                // The forced pass of the `ludii` preset.
                Some(Drawn::Slot(SlotAction::Pass))
            } else {
                None
            }
        } else {
            LegalActions::random_rare(&position, rng).map(Drawn::Rare)
        };
        let Some(drawn) = drawn else {
            outcome = Some(Outcome {
                result: GameResult::win_for(!mover),
                termination: Termination::NoMoves,
            });
            break;
        };
        if plies >= max_plies {
            outcome = Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::MoveLimit,
            });
            break;
        }
        let step_to = match drawn {
            Drawn::Slot(SlotAction::Step {
                slot,
                kind,
                from,
                to,
            }) => {
                on_action(Action::Step { from, to });
                let captures = position.play_step_of_in(hot, kind, from, to);
                slots.moved(mover, slot, kind, to);
                if captures.any() {
                    slots.captured(captures);
                }
                Some(to)
            }
            Drawn::Slot(SlotAction::Pass) => {
                on_action(Action::Pass);
                position.play_in(hot, Action::Pass);
                None
            }
            Drawn::Rare(action) => {
                on_action(action);
                let captures = position.play_in(hot, action);
                if let Action::Relocate { to, .. } | Action::Place { to, .. } = action {
                    slots.entered(mover, position.kind_at(to), to);
                }
                if captures.any() {
                    slots.captured(captures);
                }
                None
            }
        };
        plies += 1;
        outcome = position.outcome_after_arrival_in(hot, mover, step_to, || {
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

    /// Replays in a [`Game`] the game that [`lean_playout`] plays from `start` with stream
    /// `index` of seed 3: every action must be legal there, and the game must end as the
    /// lean one did (outcome, last position, hash, length). Returns the outcome.
    fn replay_lean_game(
        start: Position,
        index: u64,
        max_plies: usize,
        occurred: &mut RepetitionTable,
    ) -> Outcome {
        let rules = start.rules();
        let mut actions = Vec::new();
        let (outcome, last, plies) = lean_playout(
            start,
            &mut Rng::for_stream(3, index),
            max_plies,
            occurred,
            |action| actions.push(action),
        );
        assert_eq!(actions.len(), plies, "{rules} game {index}");
        let mut game = Game::from_position(start);
        for (ply, &action) in actions.iter().enumerate() {
            assert!(
                !game.is_over(),
                "{rules} game {index}: over before ply {ply}"
            );
            if let Err(error) = game.play(action) {
                panic!("{rules} game {index}, ply {ply}: {action} is illegal: {error}");
            }
        }
        if !game.is_over() {
            assert_eq!(plies, max_plies, "{rules} game {index}: not over");
            game.adjudicate_move_limit();
        }
        assert_eq!(Some(outcome), game.outcome(), "{rules} game {index}");
        assert_eq!(last, *game.position(), "{rules} game {index}");
        assert_eq!(last.hash(), game.position().hash());
        outcome
    }

    #[test]
    fn a_tally_counts_each_game_as_played_alone() {
        let tally = random_games(Rules::STANDARD, 9, 4..5, 50);
        let mut actions = 0;
        let (outcome, last, plies) = lean_playout(
            Position::start(Rules::STANDARD),
            &mut Rng::for_stream(9, 4),
            50,
            &mut RepetitionTable::new(),
            |_| actions += 1,
        );
        assert_eq!(tally.actions, plies as u64);
        assert_eq!(actions, plies);
        assert_eq!(tally.fingerprint, last.hash());
        let (termination, result, n) = tally.ending_counts().next().unwrap();
        assert_eq!(
            (termination, result, n),
            (outcome.termination, outcome.result, 1)
        );
    }

    /// The two ways of finding the drawn bit play the same games: `lean_playout` (with
    /// `pdep` where this processor has it fast) and the table's way, action for action, in
    /// every single-switch variant and `ludii`.
    #[test]
    fn pdep_and_the_table_play_the_same_games() {
        let mut variants = Rules::single_switch_variants();
        variants.push(Rules::LUDII);
        let mut occurred = RepetitionTable::sparse();
        let mut total = 0;
        for rules in variants {
            for index in 0..4 {
                let start = Position::start(rules);
                let mut detected = Vec::new();
                let ending = lean_playout(
                    start,
                    &mut Rng::for_stream(12, index),
                    2_000,
                    &mut occurred,
                    |a| detected.push(a),
                );
                let mut by_table = Vec::new();
                let run = Run {
                    start,
                    rng: &mut Rng::for_stream(12, index),
                    max_plies: 2_000,
                    occurred: &mut occurred,
                };
                let table_ending = with_fixed_rules!(rules, |fixed| lean_playout_by_table(
                    BranchFree(fixed),
                    run,
                    |a| by_table.push(a)
                ));
                assert_eq!(detected, by_table, "{rules} game {index}");
                assert_eq!(ending.0, table_ending.0, "{rules} game {index}");
                total += detected.len();
            }
        }
        assert!(total > 10_000, "{total} actions");
    }

    /// The lean games are games of the rules: replayed action by action in a [`Game`] they
    /// are legal and end the same way, in every single-switch variant, the `ludii` preset
    /// and twofold repetition (so repetition draws come often).
    #[test]
    fn lean_playouts_are_legal_games_that_end_as_a_game_ends() {
        let mut variants = Rules::single_switch_variants();
        variants.push(Rules::LUDII);
        variants.push(
            Rules::STANDARD
                .with_repetition(crate::Repetition::times(2).expect("2 is a limit"))
                .expect("a rule set"),
        );
        let mut occurred = RepetitionTable::new();
        let mut endings = std::collections::BTreeSet::new();
        for rules in variants {
            for index in 0..6 {
                let max_plies = [400, 20_000][index as usize % 2];
                let outcome =
                    replay_lean_game(Position::start(rules), index, max_plies, &mut occurred);
                endings.insert(outcome.termination.to_string());
            }
        }
        for termination in ["repetition", "move-limit", "formation", "no-moves"] {
            assert!(
                endings.contains(termination),
                "no {termination} in {endings:?}"
            );
        }
    }

    /// The lean games are uniform over the legal actions: from the start, the first action
    /// of 27,000 games takes each of the 27 legal actions about equally often (a chi-square
    /// test at the 0.1% level: 26 degrees of freedom, 54.05).
    #[test]
    fn the_first_action_is_uniform_over_the_legal_actions() {
        let start = Position::start(Rules::STANDARD);
        let legal = start.legal().to_vec();
        assert_eq!(legal.len(), 27);
        let mut counts = std::collections::HashMap::new();
        let games = 1_000 * legal.len() as u64;
        let mut occurred = RepetitionTable::new();
        for index in 0..games {
            let mut first = None;
            lean_playout(
                start,
                &mut Rng::for_stream(5, index),
                1,
                &mut occurred,
                |a| {
                    first.get_or_insert(a);
                },
            );
            *counts.entry(first.expect("an action")).or_insert(0u64) += 1;
        }
        assert_eq!(counts.len(), legal.len());
        let expected = games as f64 / legal.len() as f64;
        let chi2: f64 = counts
            .values()
            .map(|&n| (n as f64 - expected).powi(2) / expected)
            .sum();
        assert!(
            chi2 < 54.05,
            "chi-square {chi2} over {} actions",
            legal.len()
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
