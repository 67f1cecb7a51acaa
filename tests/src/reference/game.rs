//! A game: the positions so far, and the end of the game in the order of docs/rules.md
//! section 6.

use super::position::{Board, Colour, Move};
use super::rules::{RefRelocation, RefRules};
use super::Hex;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// How a game ended, in the words of docs/rules.md section 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefOutcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Colour>,
    /// `formation`, `six-guards`, `queen-captured`, `no-moves`, `repetition` or
    /// `double-pass`.
    pub reason: &'static str,
}

#[derive(Clone)]
struct Snapshot {
    passes: u32,
    outcome: Option<RefOutcome>,
}

/// A game under the reference rules, with undo (for perft).
#[derive(Clone)]
pub struct RefGame {
    rules: RefRules,
    /// Every position of the game, the current one last.
    history: Vec<Board>,
    /// A hash of each position of `history`, to skip most comparisons.
    hashes: Vec<u64>,
    snapshots: Vec<Snapshot>,
    passes: u32,
    outcome: Option<RefOutcome>,
}

impl RefGame {
    /// A new game from the start of the rule set.
    pub fn new(rules: RefRules) -> RefGame {
        RefGame::from_board(rules, Board::start(&rules), 0)
    }

    /// A game from any position (`passes`: consecutive passes just played). It is over at
    /// once if the side that moved last has a formation or the side to move has no action.
    pub fn from_board(rules: RefRules, board: Board, passes: u32) -> RefGame {
        let mut game = RefGame {
            rules,
            hashes: vec![hash_of(&board)],
            history: vec![board],
            snapshots: Vec::new(),
            passes,
            outcome: None,
        };
        let last = game.board().to_move.other();
        game.outcome = game.board_outcome(last).or_else(|| game.no_move_outcome());
        game
    }

    /// The rules.
    pub fn rules(&self) -> &RefRules {
        &self.rules
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.history.last().expect("a position")
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<RefOutcome> {
        self.outcome
    }

    /// The legal actions (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.board().legal_moves(&self.rules)
    }

    /// Plays a legal action and adjudicates; returns the captured cells.
    pub fn play(&mut self, mv: Move) -> Vec<Hex> {
        let mover = self.board().to_move;
        self.snapshots.push(Snapshot {
            passes: self.passes,
            outcome: self.outcome,
        });
        let mut board = self.board().clone();
        let captures = board.play(&self.rules, mv);
        self.hashes.push(hash_of(&board));
        self.history.push(board);
        self.passes = if mv == Move::Pass { self.passes + 1 } else { 0 };
        self.outcome = self
            .board_outcome(mover)
            .or_else(|| self.repetition_outcome())
            .or_else(|| self.double_pass_outcome())
            .or_else(|| self.no_move_outcome());
        captures
    }

    /// Takes back the last action.
    pub fn undo(&mut self) {
        let snapshot = self.snapshots.pop().expect("an action to undo");
        self.history.pop();
        self.hashes.pop();
        self.passes = snapshot.passes;
        self.outcome = snapshot.outcome;
    }

    /// The ends that the position alone decides after `mover`'s action, in the order of
    /// docs/rules.md section 6: a lost queen (`removed`; the mover's captures first), the
    /// mover's formation, then (`removed`) the other side's formation.
    fn board_outcome(&self, mover: Colour) -> Option<RefOutcome> {
        let board = self.board();
        let removed = self.rules.relocation == RefRelocation::Removed;
        let win = |winner: Colour, reason| {
            Some(RefOutcome {
                winner: Some(winner),
                reason,
            })
        };
        if removed && !board.has_queen(mover.other()) {
            return win(mover, "queen-captured");
        }
        if removed && !board.has_queen(mover) {
            return win(mover.other(), "queen-captured");
        }
        match board.formation(&self.rules, mover) {
            Some(true) => return win(mover, "formation"),
            Some(false) => return win(mover.other(), "six-guards"),
            None => {}
        }
        if removed && board.formation(&self.rules, mover.other()) == Some(true) {
            return win(mover.other(), "formation");
        }
        None
    }

    fn repetition_outcome(&self) -> Option<RefOutcome> {
        let limit = self.rules.repetition?;
        let now = self.board();
        let hash = *self.hashes.last().expect("a position");
        let seen = self
            .history
            .iter()
            .zip(&self.hashes)
            .filter(|&(b, &h)| h == hash && b == now)
            .count();
        (seen >= limit).then_some(RefOutcome {
            winner: None,
            reason: "repetition",
        })
    }

    fn double_pass_outcome(&self) -> Option<RefOutcome> {
        (self.rules.ludii && self.passes >= 2).then_some(RefOutcome {
            winner: None,
            reason: "double-pass",
        })
    }

    fn no_move_outcome(&self) -> Option<RefOutcome> {
        self.board()
            .legal_moves(&self.rules)
            .is_empty()
            .then(|| RefOutcome {
                winner: Some(self.board().to_move.other()),
                reason: "no-moves",
            })
    }
}

fn hash_of(board: &Board) -> u64 {
    let mut hasher = DefaultHasher::new();
    board.hash(&mut hasher);
    hasher.finish()
}

/// Leaves of the game tree `depth` plies deep, as chess perft counts them (a finished game
/// has no actions).
pub fn ref_perft(game: &mut RefGame, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        game.play(mv);
        total += ref_perft(game, depth - 1);
        game.undo();
    }
    total
}
