//! A game: a start position, the actions played, repetition history and the outcome,
//! adjudicated after every action in the order of docs/rules.md section 6.

use crate::outcome::{GameResult, Outcome, Termination};
use crate::repetition::RepetitionTable;
use crate::{Action, Bitboard, IllegalAction, LegalActions, Position, Rules};

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
            .field("outcome", &self.outcome)
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
    outcome: Option<Outcome>,
    /// The legal actions of the current position, computed by the no-move check and kept
    /// for the caller: one move generation per ply (meaningless once the game is over).
    legal: LegalActions,
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
            outcome: None,
            legal: start.legal(),
        };
        // The start has occurred once: no repetition yet.
        game.outcome = start
            .outcome_after_action(!start.to_move(), || false)
            .or_else(|| game.no_move_outcome());
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
        self.outcome
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The result so far (`*` while the game goes on).
    pub fn result(&self) -> GameResult {
        self.outcome.map_or(GameResult::Unfinished, |o| o.result)
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
    pub fn play(&mut self, action: Action) -> Result<Bitboard, IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::GameOver);
        }
        if !self.current_legal().contains(action) {
            // The sets say no; ask the explaining check for the reason.
            self.position.check(action)?;
            unreachable!("{action} is legal by check() but not generated");
        }
        Ok(self.play_unchecked(action))
    }

    /// Plays an action known to be legal (the search fast path) and adjudicates.
    pub fn play_unchecked(&mut self, action: Action) -> Bitboard {
        debug_assert!(self.outcome.is_none());
        debug_assert!(self.position.legal().contains(action), "illegal {action}");
        let mover = self.position.to_move();
        self.before.push(self.position);
        let captures = self.position.play_unchecked(action);
        self.plies.push(Ply { action, captures });
        let count = self.occurred.add(self.position.hash());
        self.outcome = self
            .position
            .outcome_after_action(mover, || self.is_repetition_draw(count));
        if self.outcome.is_none() {
            self.legal = self.position.legal();
            self.outcome = self.no_move_outcome();
        }
        captures
    }

    /// The no-move outcome, if the kept legal actions are none.
    fn no_move_outcome(&self) -> Option<Outcome> {
        (!self.current_legal().any()).then(|| Outcome {
            result: GameResult::win_for(!self.position.to_move()),
            termination: Termination::NoMoves,
        })
    }

    /// The legal actions now, as sets of cells ([`LegalActions`]): count them, test one,
    /// list them or draw one at random. None once the game is over. Computed once per ply
    /// (by the no-move rule), so asking costs nothing.
    #[inline]
    pub fn legal(&self) -> &LegalActions {
        if self.outcome.is_some() {
            &LegalActions::NONE
        } else {
            &self.legal
        }
    }

    /// The legal actions of the current position (even once the game is over).
    #[inline]
    fn current_legal(&self) -> &LegalActions {
        &self.legal
    }

    /// Takes back the last ply. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.plies.pop()?;
        self.occurred.remove(self.position.hash());
        self.position = self.before.pop().expect("one position per ply");
        self.legal = self.position.legal();
        self.outcome = None;
        Some(ply)
    }

    /// Ends the game as a draw by a harness's ply limit (termination `move-limit`).
    pub fn adjudicate_move_limit(&mut self) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::MoveLimit,
            });
        }
    }

    /// Ends a game the rules have not ended with `result` by a harness's adjudication
    /// (termination `adjudication`: the players' scores said the game was decided or dead).
    /// Does nothing if the game is over or `result` is `*`.
    pub fn adjudicate(&mut self, result: GameResult) {
        if self.outcome.is_none() && result != GameResult::Unfinished {
            self.outcome = Some(Outcome {
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
        if self.outcome.is_none() && !termination.is_rule_ending() {
            self.outcome = Some(Outcome {
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
    fn is_repetition_draw(&self, count: u32) -> bool {
        self.position
            .rules()
            .repetition()
            .limit()
            .is_some_and(|limit| count >= limit as u32 && self.occurrences() >= limit as usize)
    }
}
