//! A game: a start position, the actions played, repetition history and the outcome,
//! adjudicated after every action in the order of docs/rules.md section 6.

use crate::outcome::{GameResult, Outcome, Termination};
use crate::repetition::RepetitionTable;
use crate::{Action, Bitboard, IllegalAction, LegalActions, Position, Rules};
use std::sync::OnceLock;

/// One played action and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The action.
    pub action: Action,
    /// The pieces it captured (suicide included).
    pub captures: Bitboard,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("rules", &self.rules().to_string())
            .field("plies", &self.plies)
            .field("outcome", &self.outcome())
            .finish_non_exhaustive()
    }
}

/// A game in progress or finished.
#[derive(Clone)]
pub struct Game {
    start: Position,
    position: Position,
    /// The position before each ply, for undo and exact repetition checks (the legal
    /// actions are not kept: an undo recomputes them only if they are asked for, and the
    /// smaller history is cheaper to push and to scan).
    before: Vec<Position>,
    plies: Vec<Ply>,
    /// How often each position has occurred (by hash): the repetition rule in constant
    /// time per ply, whatever the game's length.
    occurred: RepetitionTable,
    /// The outcome decided by the last ply (or by a harness), the no-move rule aside: that
    /// one is decided from `legal` when the outcome is asked for.
    decided: Option<Outcome>,
    /// The legal actions of the current position, generated the first time they are asked
    /// for ([`Game::legal`], or the no-move rule by [`Game::outcome`]) and kept until the
    /// position changes (a `OnceLock`, so that a shared `&Game` may fill it).
    /// [`Game::play`] tests its action directly ([`LegalActions::allows`]) and never needs
    /// them (an action it allows proves there is one), so a game that is only played
    /// (validating a record) generates them once, when its outcome is asked; a loop that
    /// asks whether the game is over and then for the legal actions generates them once a
    /// ply, as before.
    legal: OnceLock<LegalActions>,
}

impl Game {
    /// A new game from the start position of a rule set.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A new game from a position (one that can arise in a game: see
    /// [`Position::from_setup`]). If the side that moved last already has a formation, or
    /// the side to move has no legal action, the game starts finished.
    pub fn from_position(start: Position) -> Game {
        Game::from_parts(
            start,
            Vec::with_capacity(256),
            Vec::with_capacity(256),
            RepetitionTable::new(),
        )
    }

    fn from_parts(
        start: Position,
        before: Vec<Position>,
        plies: Vec<Ply>,
        mut occurred: RepetitionTable,
    ) -> Game {
        occurred.add(start.hash());
        let mut game = Game {
            start,
            position: start,
            before,
            plies,
            occurred,
            decided: None,
            legal: OnceLock::new(),
        };
        // The start has occurred once: no repetition yet.
        game.decided = start.outcome_after_action(!start.to_move(), || false);
        game
    }

    /// Starts a new game from `start`, reusing this game's buffers (for playout loops).
    pub fn restart(&mut self, start: Position) {
        self.before.clear();
        self.plies.clear();
        self.occurred.clear();
        let fresh = Game::from_parts(
            start,
            std::mem::take(&mut self.before),
            std::mem::take(&mut self.plies),
            std::mem::replace(&mut self.occurred, RepetitionTable::empty()),
        );
        *self = fresh;
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.position.rules()
    }

    /// The plies played so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The number of plies played.
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }

    /// How the game ended, if it has.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.decided.or_else(|| self.no_move_outcome())
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The result so far (`*` while the game goes on).
    pub fn result(&self) -> GameResult {
        self.outcome().map_or(GameResult::Unfinished, |o| o.result)
    }

    /// The position before ply `index` (0-based); `index == ply_count()` is the current one.
    pub fn position_before(&self, index: usize) -> Option<&Position> {
        if index == self.plies.len() {
            Some(&self.position)
        } else {
            self.before.get(index)
        }
    }

    /// Checks and plays an action; returns the captured cells.
    #[inline]
    pub fn play(&mut self, action: Action) -> Result<Bitboard, IllegalAction> {
        if self.decided.is_some() {
            return Err(IllegalAction::GameOver);
        }
        if !LegalActions::allows(&self.position, action) {
            return Err(self.refusal(action));
        }
        Ok(self.advance(action))
    }

    /// Why [`Game::play`] refuses `action`: the game is over by the no-move rule, or the
    /// explaining check gives the reason (out of line: a record's actions are legal).
    #[cold]
    #[inline(never)]
    fn refusal(&self, action: Action) -> IllegalAction {
        if self.no_move_outcome().is_some() {
            return IllegalAction::GameOver;
        }
        match self.position.check(action) {
            Err(reason) => reason,
            Ok(()) => unreachable!("{action} is legal by check() but not allowed"),
        }
    }

    /// Plays an action known to be legal (the search fast path) and adjudicates.
    pub fn play_unchecked(&mut self, action: Action) -> Bitboard {
        debug_assert!(self.outcome().is_none());
        debug_assert!(self.position.legal().contains(action), "illegal {action}");
        self.advance(action)
    }

    /// Plays a legal action and adjudicates (the body of [`Game::play`] and
    /// [`Game::play_unchecked`], inlined in both: one call less per ply).
    #[inline(always)]
    fn advance(&mut self, action: Action) -> Bitboard {
        let mover = self.position.to_move();
        // Copied straight from the field into the history (a `push` of the value went
        // through a copy on the stack).
        self.before
            .extend_from_slice(std::slice::from_ref(&self.position));
        let captures = self.position.play_unchecked(action);
        self.plies.push(Ply { action, captures });
        let count = self.occurred.add(self.position.hash());
        self.decided = self.position.outcome_after_arrival_in(
            self.position.rules(),
            mover,
            action.arrival(),
            || self.is_repetition_draw(count),
        );
        self.legal = OnceLock::new();
        captures
    }

    /// The no-move outcome, if the current position has no legal action (generated once
    /// per position, and kept for [`Game::legal`]).
    #[inline]
    fn no_move_outcome(&self) -> Option<Outcome> {
        (!self.current_legal().any()).then(|| Outcome {
            result: GameResult::win_for(!self.position.to_move()),
            termination: Termination::NoMoves,
        })
    }

    /// The legal actions now, as sets of cells ([`LegalActions`]): count them, test one,
    /// list them or draw one at random. None once the game is over (by the no-move rule
    /// there is none anyway). Generated at the first call after each ply and kept, so
    /// asking again costs nothing.
    #[inline]
    pub fn legal(&self) -> &LegalActions {
        if self.decided.is_some() {
            &LegalActions::NONE
        } else {
            self.current_legal()
        }
    }

    /// The legal actions of the current position (even once the game is over), generated
    /// at the first call after each ply.
    #[inline]
    fn current_legal(&self) -> &LegalActions {
        self.legal.get_or_init(|| self.position.legal())
    }

    /// Takes back the last ply. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.plies.pop()?;
        self.occurred.remove(self.position.hash());
        self.position = self.before.pop().expect("one position per ply");
        self.legal = OnceLock::new();
        self.decided = None;
        Some(ply)
    }

    /// Ends the game as a draw by a harness's ply limit (termination `move-limit`).
    pub fn adjudicate_move_limit(&mut self) {
        if self.outcome().is_none() {
            self.decided = Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::MoveLimit,
            });
        }
    }

    /// Ends a game the rules have not ended with `result` by a harness's adjudication
    /// (termination `adjudication`: the players' scores said the game was decided or dead).
    /// Does nothing if the game is over or `result` is `*`.
    pub fn adjudicate(&mut self, result: GameResult) {
        if self.outcome().is_none() && result != GameResult::Unfinished {
            self.decided = Some(Outcome {
                result,
                termination: Termination::Adjudication,
            });
        }
    }

    /// Ends a game the rules have not ended with a loss for `loser`, for a reason outside
    /// the rules (`resignation`, `time-forfeit`, `illegal-move`, `crash`, `timeout`: a
    /// referee's decision). Does nothing if the game is over or `termination` is one the
    /// rules decide.
    pub fn forfeit(&mut self, loser: crate::Side, termination: Termination) {
        if self.outcome().is_none() && !termination.is_rule_ending() {
            self.decided = Some(Outcome {
                result: GameResult::win_for(!loser),
                termination,
            });
        }
    }

    /// How many times the current position has occurred in this game (itself included).
    pub fn occurrences(&self) -> usize {
        let now = &self.position;
        1 + self
            .before
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|p| *p == now)
            .count()
    }

    /// How often `position` has occurred in this game (0 if never), by hash: never below
    /// the true count ([`Game::occurrences_of`]), in constant time.
    pub(crate) fn occurrences_by_hash(&self, hash: u64) -> usize {
        self.occurred.count(hash) as usize
    }

    /// How often `position` has occurred in this game (0 if never), comparing positions.
    pub(crate) fn occurrences_of(&self, position: &Position) -> usize {
        self.before
            .iter()
            .chain(std::iter::once(&self.position))
            .filter(|p| *p == position)
            .count()
    }

    /// Whether the current position has now occurred as often as the rules' repetition
    /// limit. `count` is its count by hash, never below the true one: only a count at the
    /// limit (once per game, unless a search undoes) is confirmed by comparing positions.
    #[inline]
    fn is_repetition_draw(&self, count: u32) -> bool {
        self.position
            .rules()
            .repetition()
            .limit()
            .is_some_and(|limit| count >= limit as u32 && self.occurrences() >= limit as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Phase, PieceKind, Rng};

    /// Every action the direct tests may meet in `position`: steps between every cell and
    /// every cell within two of it (adjacent or not, outward, onto the throne), the pass,
    /// placements and relocations from and to every cell.
    fn candidate_actions() -> Vec<Action> {
        let mut actions = vec![Action::Pass];
        for from in Cell::all() {
            for to in Cell::all() {
                if from.distance(to) <= 2 {
                    actions.push(Action::Step { from, to });
                }
                if from.distance(to) <= 1 {
                    actions.push(Action::Relocate { from, to });
                }
            }
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                actions.push(Action::Place { kind, to: from });
            }
        }
        actions
    }

    /// [`LegalActions::allows`] (what [`Game::play`] uses) against the generated sets, in positions of random games of every
    /// single-switch variant and `ludii`, every phase included; and the games played
    /// through [`Game::play`] end as the generated sets say.
    #[test]
    fn direct_tests_agree_with_the_legal_actions() {
        let actions = candidate_actions();
        // In the relocation phase also relocations from and to every cell.
        let relocations_anywhere: Vec<Action> = Cell::all()
            .flat_map(|from| Cell::all().map(move |to| Action::Relocate { from, to }))
            .collect();
        let mut checked = 0;
        let mut relocations = 0;
        for rules in Rules::single_switch_variants()
            .into_iter()
            .chain([Rules::LUDII])
        {
            for seed in 0..3 {
                let mut game = Game::new(rules);
                let mut rng = Rng::for_stream(91, seed);
                while !game.is_over() && game.ply_count() < 400 {
                    let position = *game.position();
                    let legal = LegalActions::of(&position);
                    let relocation = position.phase() == Phase::Relocation;
                    if game.ply_count().is_multiple_of(5) || relocation {
                        let far: &[Action] = if relocation {
                            &relocations_anywhere
                        } else {
                            &[]
                        };
                        relocations += usize::from(relocation);
                        for &action in actions.iter().chain(far) {
                            assert_eq!(
                                LegalActions::allows(&position, action),
                                legal.contains(action),
                                "`{rules}` {action} in\n{position}"
                            );
                        }
                        checked += 1;
                    }
                    let action = legal.random(&mut rng).expect("the game goes on");
                    assert_eq!(game.legal().count(), legal.count());
                    game.play(action).expect("a generated action is legal");
                }
                if let Some(outcome) = game.outcome() {
                    let no_moves = outcome.termination == Termination::NoMoves;
                    assert_eq!(no_moves, !game.position().legal().any(), "`{rules}`");
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
        assert!(relocations > 100, "{relocations}");
    }

    /// Undo forgets the kept legal actions: they are those of the position taken back to.
    #[test]
    fn undo_gives_the_legal_actions_of_the_earlier_position() {
        let mut game = Game::new(Rules::STANDARD);
        let first = game.legal().to_vec();
        let action = first[0];
        game.play(action).expect("legal");
        assert_ne!(game.legal().to_vec(), first);
        game.undo();
        assert_eq!(game.legal().to_vec(), first);
    }
}
