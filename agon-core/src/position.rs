//! The position: pieces on cells, captured marks, pieces in hand, side to move, rules.
//!
//! A [`Position`] is always one that can arise in a game under its rules: build one with
//! [`Position::start`], by playing actions, or from a [`Setup`] with
//! [`Position::from_setup`], which refuses anything else. It is a small `Copy` value (a
//! few `u128` sets), so search can copy it freely.
//! It knows every rule that depends on the board alone: legal actions, applying an action
//! with its captures, and formations. Rules that need the game's history (repetition) live
//! in [`crate::Game`].

use crate::hot::HotRules;
use crate::illegal::IllegalAction;
use crate::lookup16::bits_at;
use crate::movegen::LegalActions;
use crate::rules::{CaptureMode, Intervention, QueenRelocatedBy, RelocateThrone, Relocation};
use crate::setup::Setup;
use crate::zobrist::{hand_key, piece_key, side_key};
use crate::{
    Action, Bitboard, Cell, GameResult, Outcome, Piece, PieceKind, Rules, Side, Termination,
};
use std::fmt;

/// The standard start, `[side][kind]` (see [`Position::start_cells`]).
const START_CELLS: [[Bitboard; 2]; 2] = {
    const fn cells(names: &[(u8, i32)]) -> Bitboard {
        let mut bits = 0;
        let mut i = 0;
        while i < names.len() {
            bits |= Cell::named(names[i].0, names[i].1).bit().0;
            i += 1;
        }
        Bitboard(bits)
    }
    [
        [
            cells(&[(b'f', 1)]),
            cells(&[
                (b'b', 1),
                (b'k', 1),
                (b'a', 5),
                (b'l', 5),
                (b'd', 9),
                (b'h', 9),
            ]),
        ],
        [
            cells(&[(b'f', 11)]),
            cells(&[
                (b'd', 1),
                (b'h', 1),
                (b'a', 2),
                (b'l', 2),
                (b'b', 7),
                (b'k', 7),
            ]),
        ],
    ]
};

/// A position of Agon under a rule set.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Every piece of each side, captured or not.
    sides: [Bitboard; 2],
    /// The queens of both sides.
    queens: Bitboard,
    /// Captured pieces of both sides.
    captured: Bitboard,
    /// Pieces in hand: `[side][kind]`.
    in_hand: [[u8; 2]; 2],
    to_move: Side,
    /// Consecutive passes just played (for the `ludii` double-pass draw).
    passes: u8,
    rules: Rules,
    hash: u64,
}

/// Equality is the repetition rule's: every cell's content, pieces in hand and the side to
/// move. Rules and the pass counter are not compared.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.sides == other.sides
            && self.queens == other.queens
            && self.captured == other.captured
            && self.in_hand == other.in_hand
            && self.to_move == other.to_move
    }
}

impl Eq for Position {}

/// Where a side's six guards and queen stand with respect to the formation
/// (docs/rules.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Formation {
    /// The side's active guards do not close ring 1.
    None,
    /// Six active guards on ring 1 and the active queen on the throne: the side wins
    /// (termination `formation`).
    Won,
    /// Six active guards on ring 1 without the queen on the throne: the side loses
    /// (termination `six-guards`).
    SixGuards,
}

/// What the side to move must do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Place a piece from hand (placement openings).
    Placement,
    /// Relocate a captured piece.
    Relocation,
    /// Step (or pass where the rules allow).
    Normal,
}

impl Position {
    /// The start position of a rule set: the standard start, or an empty board with every
    /// piece in hand for the placement openings.
    pub fn start(rules: Rules) -> Position {
        let mut position = Position::empty(rules, Side::White);
        for side in Side::BOTH {
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                if rules.has_placement() {
                    position.set_in_hand(side, kind, kind.count_per_side());
                } else {
                    for cell in Position::start_cells(side, kind) {
                        position.put(cell, side, kind, false);
                    }
                }
            }
        }
        position
    }

    /// The cells of `side`'s pieces of `kind` in the standard start (docs/rules.md section
    /// 2): White's queen f1, guards b1 k1 a5 l5 d9 h9; Black's queen f11, guards d1 h1 a2
    /// l2 b7 k7. Under `relocation=start-cell` captured pieces go back to them.
    #[inline]
    pub const fn start_cells(side: Side, kind: PieceKind) -> Bitboard {
        START_CELLS[side.index()][kind.index()]
    }

    /// The position of a setup that [`Position::from_setup`] has checked.
    pub(crate) fn from_checked_setup(setup: &Setup, rules: Rules) -> Position {
        let mut position = Position::empty(rules, setup.to_move);
        for (&cell, piece) in &setup.pieces {
            position.put(cell, piece.side, piece.kind, piece.captured);
        }
        for side in Side::BOTH {
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                position.set_in_hand(side, kind, setup.in_hand(side, kind));
            }
        }
        position.passes = setup.passes;
        position
    }

    /// An empty board with nothing in hand (not a position of any game: only a start for
    /// building one).
    fn empty(rules: Rules, to_move: Side) -> Position {
        let mut position = Position {
            sides: [Bitboard::EMPTY; 2],
            queens: Bitboard::EMPTY,
            captured: Bitboard::EMPTY,
            in_hand: [[0; 2]; 2],
            to_move: Side::White,
            passes: 0,
            rules,
            hash: 0,
        };
        if to_move == Side::Black {
            position.to_move = Side::Black;
            position.hash ^= side_key();
        }
        position
    }

    /// Puts a piece on an empty cell.
    fn put(&mut self, cell: Cell, side: Side, kind: PieceKind, captured: bool) {
        debug_assert!(self.piece_at(cell).is_none());
        self.sides[side.index()] |= cell.bit();
        if kind == PieceKind::Queen {
            self.queens |= cell.bit();
        }
        if captured {
            self.captured |= cell.bit();
        }
        self.hash ^= piece_key(side, kind, captured, cell);
    }

    /// Sets how many pieces of a kind a side holds in hand (at most 7, the hash's range).
    fn set_in_hand(&mut self, side: Side, kind: PieceKind, count: u8) {
        let slot = &mut self.in_hand[side.index()][kind.index()];
        self.hash ^= hand_key(side, kind, *slot) ^ hand_key(side, kind, count.min(7));
        *slot = count.min(7);
    }

    // ----- reading -----

    /// The rule set.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The Zobrist hash (equal positions have equal hashes).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Consecutive passes just played.
    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The piece on a cell, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let side = if self.sides[0].contains(cell) {
            Side::White
        } else if self.sides[1].contains(cell) {
            Side::Black
        } else {
            return None;
        };
        Some(Piece {
            side,
            kind: if self.queens.contains(cell) {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            },
            captured: self.captured.contains(cell),
        })
    }

    /// All pieces of a side, captured or not.
    #[inline]
    pub fn side_pieces(&self, side: Side) -> Bitboard {
        self.sides[side.index()]
    }

    /// Pieces of a side and kind on the board, captured or not.
    #[inline]
    pub fn pieces(&self, side: Side, kind: PieceKind) -> Bitboard {
        match kind {
            PieceKind::Queen => self.sides[side.index()] & self.queens,
            PieceKind::Guard => self.sides[side.index()].and_not(self.queens),
        }
    }

    /// Active (not captured) pieces of a side.
    #[inline]
    pub fn active(&self, side: Side) -> Bitboard {
        self.sides[side.index()].and_not(self.captured)
    }

    /// Captured pieces of both sides.
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.sides[0] | self.sides[1]
    }

    /// Every empty cell.
    #[inline]
    pub fn empty_cells(&self) -> Bitboard {
        !self.occupied()
    }

    /// The cell of a side's queen, if she is on the board.
    pub fn queen(&self, side: Side) -> Option<Cell> {
        self.pieces(side, PieceKind::Queen).first()
    }

    /// Pieces of a kind a side still holds in hand.
    #[inline]
    pub fn in_hand(&self, side: Side, kind: PieceKind) -> u8 {
        self.in_hand[side.index()][kind.index()]
    }

    /// Whether the side to move is in normal play: `self.phase() == Phase::Normal`, with a
    /// quick answer for the common case of no captured piece and nothing in hand.
    #[inline(always)]
    pub(crate) fn in_normal_play(&self) -> bool {
        (self.captured.is_empty() && self.in_hand == [[0; 2]; 2]) || self.phase() == Phase::Normal
    }

    /// What the side to move must do now.
    pub fn phase(&self) -> Phase {
        let me = self.to_move.index();
        if self.in_hand[me][0] + self.in_hand[me][1] > 0 {
            Phase::Placement
        } else if (self.sides[me] & self.captured).any() {
            Phase::Relocation
        } else {
            Phase::Normal
        }
    }

    /// The side that chooses the current action: the side to move, except when its captured
    /// queen is due for relocation under `queen-relocated-by=opponent`.
    pub fn decider(&self) -> Side {
        if self.queen_relocation_due() {
            self.rules.queen_chooser(self.to_move)
        } else {
            self.to_move
        }
    }

    fn queen_relocation_due(&self) -> bool {
        self.phase() == Phase::Relocation
            && (self.sides[self.to_move.index()] & self.captured & self.queens).any()
    }

    /// Cells between two cells of `ends`, under the rule set's capture geometry.
    #[inline]
    pub fn between(&self, ends: Bitboard) -> Bitboard {
        self.between_in(self.rules, ends)
    }

    /// [`Position::between`] under the hot switches `rules` (those of this position).
    #[inline(always)]
    pub(crate) fn between_in(&self, rules: impl HotRules, ends: Bitboard) -> Bitboard {
        match rules.capture() {
            CaptureMode::Line => Bitboard::between_on_lines(ends),
            CaptureMode::Ring => Bitboard::between_on_rings(ends),
        }
    }

    /// The pieces of `side` that flank: the ends of a "between" triple, for captures, the
    /// intervention rule and the suicide rule. Its active pieces, and its captured ones
    /// too under `ludii`. (The one statement of which pieces count.)
    #[inline]
    pub fn flankers(&self, side: Side) -> Bitboard {
        self.flankers_in(self.rules, side)
    }

    /// [`Position::flankers`] under the hot switches `rules` (those of this position).
    #[inline(always)]
    pub(crate) fn flankers_in(&self, rules: impl HotRules, side: Side) -> Bitboard {
        if rules.ludii() {
            self.sides[side.index()]
        } else {
            self.active(side)
        }
    }

    /// The cells between two flankers of `side` ([`Position::flankers`]).
    #[inline]
    pub fn between_pieces_of(&self, side: Side) -> Bitboard {
        self.between_pieces_of_in(self.rules, side)
    }

    /// [`Position::between_pieces_of`] under the hot switches `rules`.
    #[inline(always)]
    pub(crate) fn between_pieces_of_in(&self, rules: impl HotRules, side: Side) -> Bitboard {
        self.between_in(rules, self.flankers_in(rules, side))
    }

    /// The cells where a step of `side` may not end because of the intervention rule:
    /// between two flankers of the other side under `intervention=forbidden`, none
    /// otherwise.
    #[inline]
    pub fn intervention_cells(&self, side: Side) -> Bitboard {
        self.intervention_cells_in(self.rules, side)
    }

    /// [`Position::intervention_cells`] under the hot switches `rules`.
    #[inline(always)]
    pub(crate) fn intervention_cells_in(&self, rules: impl HotRules, side: Side) -> Bitboard {
        if rules.intervention() == Intervention::Forbidden {
            self.between_pieces_of_in(rules, !side)
        } else {
            Bitboard::EMPTY
        }
    }

    /// The cells a step of `side` may end on as far as the cells go: empty and allowed by
    /// the intervention rule (where each piece may step besides is its own geometry).
    #[inline(always)]
    pub(crate) fn step_open_cells_in(&self, rules: impl HotRules, side: Side) -> Bitboard {
        self.empty_cells()
            .and_not(self.intervention_cells_in(rules, side))
    }

    /// The cells where a relocation of `side` may not end because of the intervention
    /// rule: those of a step ([`Position::intervention_cells`]) when relocations interact,
    /// none under `ludii`, whose relocations neither capture nor obey the rule.
    #[inline]
    pub fn relocation_intervention_cells(&self, side: Side) -> Bitboard {
        self.relocation_intervention_cells_in(self.rules, side)
    }

    /// [`Position::relocation_intervention_cells`] under the hot switches `rules`.
    #[inline(always)]
    fn relocation_intervention_cells_in(&self, rules: impl HotRules, side: Side) -> Bitboard {
        if rules.relocations_interact() {
            self.intervention_cells_in(rules, side)
        } else {
            Bitboard::EMPTY
        }
    }

    /// The cells where a captured piece of `kind` of the side to move may be relocated as
    /// far as every rule but the `relocation` switch's zone goes: empty cells the
    /// intervention rule allows ([`Position::relocation_intervention_cells`]) and, for a
    /// queen, none refused by `relocate-throne=forbidden` or, under
    /// `queen-relocated-by=opponent`, between two pieces of her chooser (whatever the
    /// intervention setting).
    #[inline]
    pub fn relocation_open_cells(&self, kind: PieceKind) -> Bitboard {
        self.relocation_open_cells_in(self.rules, kind)
    }

    /// [`Position::relocation_open_cells`] under the hot switches `rules`.
    #[inline(always)]
    pub(crate) fn relocation_open_cells_in(
        &self,
        rules: impl HotRules,
        kind: PieceKind,
    ) -> Bitboard {
        let me = self.to_move;
        let mut open = self
            .empty_cells()
            .and_not(self.relocation_intervention_cells_in(rules, me));
        if kind == PieceKind::Queen {
            if self.rules.relocate_throne() == RelocateThrone::Forbidden {
                open &= !Bitboard::THRONE;
            }
            if self.rules.queen_relocated_by() == QueenRelocatedBy::Opponent {
                open &= !self.between_pieces_of(self.rules.queen_chooser(me));
            }
        }
        open
    }

    /// The zone of the `relocation` switch for a captured piece of `kind` (of the side to
    /// move) on `from`: every cell for a queen and the outer ring for a guard
    /// (`outer-ring`); one ring ([`Position::next_ring_zone`], `next-ring`); the start cells
    /// of its side and kind, or the outer ring when none of them is open (`start-cell`).
    /// `open` are its open cells ([`Position::relocation_open_cells`]): the fallbacks are
    /// decided on them. Its destinations are `open & zone`.
    pub fn relocation_zone(&self, kind: PieceKind, from: Cell, open: Bitboard) -> Bitboard {
        match self.rules.relocation() {
            Relocation::OuterRing => match kind {
                PieceKind::Queen => Bitboard::ALL,
                PieceKind::Guard => Bitboard::OUTER,
            },
            Relocation::NextRing => Position::next_ring_zone(open, from),
            Relocation::StartCell => {
                let start = Position::start_cells(self.to_move, kind);
                if (open & start).any() {
                    start
                } else {
                    Bitboard::OUTER
                }
            }
            Relocation::Removed => Bitboard::EMPTY,
        }
    }

    /// Under `relocation=next-ring`, the ring a piece captured on `from` goes to: the ring
    /// just outside `from`'s (the outer ring for a piece on it), or, if that ring has no
    /// cell of `open`, the next ring outward that has one (the outer ring if none has, and
    /// then the piece has nowhere to go).
    #[inline]
    pub fn next_ring_zone(open: Bitboard, from: Cell) -> Bitboard {
        let mut ring = (from.ring() as usize + 1).min(5);
        while ring < 5 && (open & Bitboard::ring(ring)).is_empty() {
            ring += 1;
        }
        Bitboard::ring(ring)
    }

    /// Where the captured piece on `from` may be relocated when its turn comes (a captured
    /// queen goes first): its open cells within its zone
    /// ([`Position::relocation_zone`]). Empty unless `from` holds a captured piece of the
    /// side to move.
    pub fn relocation_destinations(&self, from: Cell) -> Bitboard {
        if !(self.sides[self.to_move.index()] & self.captured).contains(from) {
            return Bitboard::EMPTY;
        }
        let kind = self.kind_at(from);
        let open = self.relocation_open_cells(kind);
        open & self.relocation_zone(kind, from, open)
    }

    /// The formation of `side`: whether its six active guards close ring 1, with or without
    /// its active queen on the throne. Under `relocation=removed` a side wins with fewer
    /// guards too: its queen on the throne and every guard it still has on ring 1.
    #[inline]
    pub fn formation(&self, side: Side) -> Formation {
        if HotRules::removed(self.rules) {
            self.formation_with_guards_left(side)
        } else {
            self.formation_of_six(side)
        }
    }

    /// The formation with six active guards (every value of `relocation` but `removed`,
    /// where it is also the six-guards loss).
    #[inline]
    fn formation_of_six(&self, side: Side) -> Formation {
        let guards = self.active(side).and_not(self.queens);
        if guards & Bitboard::RING1 != Bitboard::RING1 {
            Formation::None
        } else if (self.active(side) & self.queens & Bitboard::THRONE).any() {
            Formation::Won
        } else {
            Formation::SixGuards
        }
    }

    /// The formation under `relocation=removed`: the queen on the throne with every guard
    /// left on ring 1 wins; six guards on ring 1 without her lose.
    fn formation_with_guards_left(&self, side: Side) -> Formation {
        let guards = self.active(side).and_not(self.queens);
        let on_throne = (self.active(side) & self.queens & Bitboard::THRONE).any();
        if on_throne && guards.and_not(Bitboard::RING1).is_empty() {
            Formation::Won
        } else {
            self.formation_of_six(side)
        }
    }

    /// Whether `side` still has its queen, on the board or in hand (under
    /// `relocation=removed` a captured queen leaves the game, and her side has lost).
    #[inline]
    pub fn has_queen(&self, side: Side) -> bool {
        self.pieces(side, PieceKind::Queen).any() || self.in_hand(side, PieceKind::Queen) > 0
    }

    /// How many pieces of `side` have left play (only under `relocation=removed`, where
    /// captured pieces are taken off the board; 0 otherwise).
    pub fn removed_count(&self, side: Side) -> u8 {
        let total = PieceKind::Queen.count_per_side() + PieceKind::Guard.count_per_side();
        let on_board = self.side_pieces(side).count() as u8;
        let in_hand = self.in_hand(side, PieceKind::Queen) + self.in_hand(side, PieceKind::Guard);
        total.saturating_sub(on_board + in_hand)
    }

    /// How the rules end the game after an action of `mover` produced this position, in the
    /// order of docs/rules.md section 6 up to the no-move rule (which needs the next side's
    /// legal actions and is the caller's): under `relocation=removed` a captured queen
    /// (`queen-captured`; the mover's captures come first, so if both queens fell the
    /// mover wins), the mover's formation or six guards, under `relocation=removed` the
    /// other side's formation (a capture can remove its last outlying guard), repetition
    /// (`repeated` says whether the position has now occurred often enough; it is asked
    /// only when nothing before decides), the `ludii` double pass. The one statement of
    /// this order: the start of a game, perft's general bulk path and the MCTS playouts
    /// ask it directly; [`crate::Game`], the random playouts, perft's walk and the agents'
    /// judging through the arrival shortcut of `outcome_after_arrival_in`, which may skip the
    /// board's tests.
    #[inline]
    pub fn outcome_after_action(
        &self,
        mover: Side,
        repeated: impl FnOnce() -> bool,
    ) -> Option<Outcome> {
        self.outcome_after_action_in(self.rules, mover, repeated)
    }

    /// [`Position::outcome_after_action`] under the hot switches `rules`.
    #[inline(always)]
    pub(crate) fn outcome_after_action_in(
        &self,
        rules: impl HotRules,
        mover: Side,
        repeated: impl FnOnce() -> bool,
    ) -> Option<Outcome> {
        self.outcome_after_in(rules, mover, true, repeated)
    }

    /// [`Position::outcome_after_action_in`] after an action of `mover` that was a step or
    /// a relocation arriving on `arrived_on`, or another action (`None`). The mover's
    /// formation had not formed before (the game would have ended), and the other side's
    /// actions neither bring the mover's pieces in nor put them back in play. After a step
    /// or a relocation it can only have formed if the piece arrived on ring 1 or the
    /// throne: steps never leave them (they go inward or along a ring), and a relocated
    /// piece farther out changes neither the mover's guards on ring 1 nor its queen on the
    /// throne (captures only take the other side's pieces). So an arrival farther out skips
    /// the formation test. Under `relocation=removed` every test is made (a capture can
    /// decide the game there).
    #[inline(always)]
    pub(crate) fn outcome_after_arrival_in(
        &self,
        rules: impl HotRules,
        mover: Side,
        arrived_on: Option<Cell>,
        repeated: impl FnOnce() -> bool,
    ) -> Option<Outcome> {
        let board_may_decide = rules.removed() || arrived_on.is_none_or(|to| to.ring() <= 1);
        debug_assert!(board_may_decide || self.formation_of_six(mover) == Formation::None);
        self.outcome_after_in(rules, mover, board_may_decide, repeated)
    }

    /// [`Position::outcome_after_action_in`], testing the board's endings only if
    /// `board_may_decide`.
    #[inline(always)]
    fn outcome_after_in(
        &self,
        rules: impl HotRules,
        mover: Side,
        board_may_decide: bool,
        repeated: impl FnOnce() -> bool,
    ) -> Option<Outcome> {
        let decided = if !board_may_decide {
            None
        } else if rules.removed() {
            self.outcome_with_pieces_removed(mover)
        } else {
            Position::formation_outcome(mover, self.formation_of_six(mover))
        };
        let (result, termination) = match decided {
            Some(outcome) => return Some(outcome),
            None if repeated() => (GameResult::Draw, Termination::Repetition),
            None if rules.ludii() && self.passes >= 2 => {
                (GameResult::Draw, Termination::DoublePass)
            }
            None => return None,
        };
        Some(Outcome {
            result,
            termination,
        })
    }

    /// What `mover`'s formation decides: a win, a loss by six guards, or nothing.
    #[inline]
    fn formation_outcome(mover: Side, formation: Formation) -> Option<Outcome> {
        let (result, termination) = match formation {
            Formation::Won => (GameResult::win_for(mover), Termination::Formation),
            Formation::SixGuards => (GameResult::win_for(!mover), Termination::SixGuards),
            Formation::None => return None,
        };
        Some(Outcome {
            result,
            termination,
        })
    }

    /// The ends that the board decides under `relocation=removed`, in order: a lost queen
    /// (the mover's captures first), the mover's formation, the other side's formation.
    fn outcome_with_pieces_removed(&self, mover: Side) -> Option<Outcome> {
        let lost_queen = if !self.has_queen(!mover) {
            Some(GameResult::win_for(mover))
        } else if !self.has_queen(mover) {
            Some(GameResult::win_for(!mover))
        } else {
            None
        };
        if let Some(result) = lost_queen {
            return Some(Outcome {
                result,
                termination: Termination::QueenCaptured,
            });
        }
        Position::formation_outcome(mover, self.formation_with_guards_left(mover)).or_else(|| {
            (self.formation_with_guards_left(!mover) == Formation::Won).then(|| Outcome {
                result: GameResult::win_for(!mover),
                termination: Termination::Formation,
            })
        })
    }

    // ----- legal actions -----

    /// The legal actions as sets of cells: count them, test one, list them or draw one at
    /// random (see [`LegalActions`]; [`crate::Game::legal`] is the same, game-over aware).
    #[inline]
    pub fn legal(&self) -> LegalActions {
        LegalActions::of(self)
    }

    /// Checks an action, explaining in words why it is illegal (its verdict is always
    /// that of `self.legal().contains(action)`).
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        crate::illegal::check(self, action)
    }

    // ----- playing -----

    /// Plays a legal action and returns the cells of the pieces it captured (including the
    /// arriving piece itself under the suicide rule). The action must be legal
    /// (`self.legal().contains(action)`); this fast path does not check it.
    #[inline]
    pub fn play_unchecked(&mut self, action: Action) -> Bitboard {
        self.play_in(self.rules, action)
    }

    /// [`Position::play_unchecked`] under the hot switches `rules` (those of this
    /// position).
    #[inline(always)]
    pub(crate) fn play_in(&mut self, rules: impl HotRules, action: Action) -> Bitboard {
        match action {
            Action::Step { from, to } => self.play_step_in(rules, from, to),
            other => {
                let captures = self.play_rare(rules, other);
                self.pass_turn();
                captures
            }
        }
    }

    /// Plays the legal step `from`-`to` of the side to move under the hot switches `rules`
    /// (those of this position): [`Position::play_unchecked`]'s common case.
    #[inline(always)]
    pub(crate) fn play_step_in(&mut self, rules: impl HotRules, from: Cell, to: Cell) -> Bitboard {
        self.play_step_of_in(rules, self.kind_at(from), from, to)
    }

    /// [`Position::play_step_in`] of the side's piece of `kind` on `from`.
    #[inline(always)]
    pub(crate) fn play_step_of_in(
        &mut self,
        rules: impl HotRules,
        kind: PieceKind,
        from: Cell,
        to: Cell,
    ) -> Bitboard {
        debug_assert_eq!(kind, self.kind_at(from));
        self.move_piece(rules, self.to_move, kind, from, to);
        self.passes = 0;
        let captures = self.resolve_arrival(rules, to);
        self.pass_turn();
        captures
    }

    /// Gives the turn to the other side.
    #[inline(always)]
    fn pass_turn(&mut self) {
        self.to_move = !self.to_move;
        self.hash ^= side_key();
    }

    /// A relocation, placement or pass of the side to move, under the hot switches `rules`
    /// (out of line: rare in play; in the search's midgame, where captured pieces wait, it
    /// plays most children).
    #[inline(never)]
    fn play_rare(&mut self, rules: impl HotRules, action: Action) -> Bitboard {
        let me = self.to_move;
        let mut captures = Bitboard::EMPTY;
        match action {
            Action::Step { .. } => unreachable!("play_unchecked plays steps itself"),
            Action::Relocate { from, to } => {
                let kind = self.kind_at(from);
                self.hash ^= piece_key(me, kind, true, from) ^ piece_key(me, kind, false, from);
                self.captured = self.captured.and_not(from.bit());
                self.move_piece(rules, me, kind, from, to);
                if rules.relocations_interact() {
                    captures = self.resolve_arrival(rules, to);
                }
                self.passes = 0;
            }
            Action::Place { kind, to } => {
                self.put(to, me, kind, false);
                let left = self.in_hand(me, kind) - 1;
                self.set_in_hand(me, kind, left);
                self.passes = 0;
            }
            Action::Pass => {
                self.passes = self.passes.saturating_add(1);
            }
        }
        captures
    }

    /// The hash of the position after the side to move relocates its piece captured on
    /// `from` to `to` ([`Position::play_unchecked`]), if that relocation surely captures
    /// nothing: no piece of the other side, captured or not, stands next to `to` (every
    /// capture takes a neighbour of the arriving piece, and the suicide rule needs two
    /// flankers next to it). `None` otherwise. The relocation must be legal. The search
    /// judges such a child by its hash, without playing it, when that is all it needs.
    #[inline(always)]
    pub(crate) fn quiet_relocation_hash(&self, from: Cell, to: Cell) -> Option<u64> {
        let me = self.to_move;
        if (to.neighbor_set() & self.sides[(!me).index()]).any() {
            return None;
        }
        let kind = self.kind_at(from);
        Some(
            self.hash
                ^ piece_key(me, kind, true, from)
                ^ piece_key(me, kind, false, to)
                ^ side_key(),
        )
    }

    /// Relocates the side to move's piece captured on `from` to `to`, a relocation whose
    /// [`Position::quiet_relocation_hash`] is `hash`: what [`Position::play_unchecked`]
    /// does, without looking for captures (there are none).
    #[inline(always)]
    pub(crate) fn relocate_quietly(&mut self, from: Cell, to: Cell, hash: u64) {
        #[cfg(debug_assertions)]
        let played = {
            let mut played = *self;
            played.play_unchecked(Action::Relocate { from, to });
            played
        };
        let change = from.bit() | to.bit();
        self.sides[self.to_move.index()] ^= change;
        if self.queens.contains(from) {
            self.queens ^= change;
        }
        self.captured = self.captured.and_not(from.bit());
        self.passes = 0;
        self.to_move = !self.to_move;
        self.hash = hash;
        #[cfg(debug_assertions)]
        {
            assert_eq!(*self, played);
            assert_eq!(self.hash, self.hash_from_scratch());
        }
    }

    /// The kind of the piece on `cell` (a guard if it holds no queen).
    #[inline]
    pub(crate) fn kind_at(&self, cell: Cell) -> PieceKind {
        if self.queens.contains(cell) {
            PieceKind::Queen
        } else {
            PieceKind::Guard
        }
    }

    /// Moves `side`'s piece of `kind` from `from` to `to` (sets and hash).
    #[inline]
    fn move_piece(
        &mut self,
        rules: impl HotRules,
        side: Side,
        kind: PieceKind,
        from: Cell,
        to: Cell,
    ) {
        let change = from.bit() | to.bit();
        self.sides[side.index()] ^= change;
        let queen = kind == PieceKind::Queen;
        if rules.branch_free() {
            // Which piece steps is as random as the draw in the playouts.
            self.queens ^= Bitboard(change.0 * queen as u128);
        } else if queen {
            self.queens ^= change;
        }
        self.hash ^= piece_key(side, kind, false, from) ^ piece_key(side, kind, false, to);
    }

    /// Captures the piece on `cell`: marks it captured, or under `relocation=removed` takes
    /// it off the board.
    #[inline]
    fn capture(&mut self, rules: impl HotRules, cell: Cell) {
        let side = if self.sides[0].contains(cell) {
            Side::White
        } else {
            Side::Black
        };
        let kind = self.kind_at(cell);
        self.hash ^= piece_key(side, kind, false, cell);
        if rules.removed() {
            self.sides[side.index()] &= !cell.bit();
            self.queens &= !cell.bit();
        } else {
            self.captured |= cell.bit();
            self.hash ^= piece_key(side, kind, true, cell);
        }
    }

    /// Captures made by the piece that just arrived on `at`, then the suicide rule.
    ///
    /// An enemy piece `x` is captured when `at`, `x` and a flanker `y` of the mover form a
    /// "between" triple (a straight line of three, or three consecutive cells of a ring).
    /// Two ways to find them, with the same result (the random playouts are replayed in a
    /// [`crate::Game`] by the tests): by default a quick necessary condition first (a
    /// flanker among the far ends that can close a triple from `at`, and an enemy piece
    /// next to it), which skips the rest in most plies, then the middle of `at` and each
    /// such end; without the pre-test ([`HotRules::branch_free`], the random
    /// playouts), one lookup of the enemy pieces and one of the flankers on the table of
    /// triples ([`Cell::capture_pairs`]), without a branch that a random game would make
    /// mispredict.
    #[inline(always)]
    fn resolve_arrival(&mut self, rules: impl HotRules, at: Cell) -> Bitboard {
        let me = self.to_move;
        let mut captures = Bitboard::EMPTY;
        if !rules.branch_free() {
            let (reach, link) = match rules.capture() {
                CaptureMode::Line => (at.line_reach(), at.neighbor_set()),
                CaptureMode::Ring => (at.ring_reach(), at.ring_link()),
            };
            let ends = self.flankers_in(rules, me) & reach;
            if ends.any() && (link & self.active(!me)).any() {
                let victims = Position::middles(rules, at, ends) & self.active(!me);
                if victims.any() {
                    self.capture_all(rules, victims);
                    captures = victims;
                }
            }
        } else {
            let pairs = at.capture_pairs(rules.capture());
            let middles = bits_at(self.active(!me).0, pairs);
            let ends = bits_at(self.flankers_in(rules, me).0, pairs);
            let triples = middles & ends >> 8 & 0xFF;
            if triples != 0 {
                let victims = (0..8)
                    .filter(|j| triples >> j & 1 == 1)
                    .map(|j| Cell::from_index_unchecked(pairs[j]))
                    .collect();
                self.capture_all(rules, victims);
                captures = victims;
            }
        }
        if rules.intervention() == Intervention::Suicide {
            captures |= self.suicide(rules, at);
        }
        captures
    }

    /// The middles of the triples from `at` to each cell of `ends` (cells of its
    /// [`Cell::line_reach`] or [`Cell::ring_reach`], by the capture geometry): on a line,
    /// the cell whose index is halfway (a direction's index offset, twice, leads from `at`
    /// to the end); along a ring, the ring neighbour the two ends share.
    #[inline(always)]
    fn middles(rules: impl HotRules, at: Cell, ends: Bitboard) -> Bitboard {
        let mut middles = Bitboard::EMPTY;
        for end in ends {
            middles |= match rules.capture() {
                CaptureMode::Line => {
                    Cell::from_index_unchecked(((at.index() + end.index()) / 2) as u8).bit()
                }
                CaptureMode::Ring => end.ring_link() & at.ring_link(),
            };
        }
        middles
    }

    /// Captures the pieces of `victims` (out of line: few arrivals capture).
    #[inline(never)]
    fn capture_all(&mut self, rules: impl HotRules, victims: Bitboard) {
        for x in victims {
            self.capture(rules, x);
        }
    }

    /// The suicide rule: the piece that arrived on `at` is captured if it stands between
    /// two enemy flankers (after its own captures).
    #[inline(never)]
    fn suicide(&mut self, rules: impl HotRules, at: Cell) -> Bitboard {
        if self.between_pieces_of_in(rules, !self.to_move).contains(at) {
            self.capture(rules, at);
            at.bit()
        } else {
            Bitboard::EMPTY
        }
    }

    /// Recomputes the hash from scratch (the incremental hash must always equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for cell in self.occupied() {
            let piece = self.piece_at(cell).expect("occupied");
            hash ^= piece_key(piece.side, piece.kind, piece.captured, cell);
        }
        for side in Side::BOTH {
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                hash ^= hand_key(side, kind, self.in_hand(side, kind));
            }
        }
        if self.to_move == Side::Black {
            hash ^= side_key();
        }
        hash
    }

    /// The position turned by a half turn about the throne with the colours swapped: the
    /// mirror image that the symmetric start maps to itself. A tool for symmetry tests:
    /// during a placement opening the image has Black placing first, which no game has
    /// ([`Position::from_setup`] would refuse it).
    pub fn mirrored(&self) -> Position {
        let mut mirror = Position::empty(self.rules, !self.to_move);
        for cell in self.occupied() {
            let piece = self.piece_at(cell).expect("occupied");
            mirror.put(cell.opposite(), !piece.side, piece.kind, piece.captured);
        }
        for side in Side::BOTH {
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                mirror.set_in_hand(!side, kind, self.in_hand(side, kind));
            }
        }
        mirror.passes = self.passes;
        mirror
    }
}

impl fmt::Display for Position {
    /// A plain picture of the board (the notation crate has the canonical string form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (1..=11).rev() {
            let mut line = String::new();
            for file in crate::cell::FILE_LETTERS {
                let name = format!("{}{}", file as char, rank);
                match Cell::parse(&name) {
                    Ok(cell) => {
                        let symbol = match self.piece_at(cell) {
                            None if cell == Cell::THRONE => '^',
                            None => '.',
                            Some(p) => {
                                let c = p.kind.letter();
                                match (p.side, p.captured) {
                                    (Side::White, false) => c,
                                    (Side::Black, false) => c.to_ascii_lowercase(),
                                    (Side::White, true) => 'X',
                                    (Side::Black, true) => 'x',
                                }
                            }
                        };
                        line.push(symbol);
                    }
                    Err(_) => line.push(' '),
                }
                line.push(' ');
            }
            writeln!(f, "{:>2} {}", rank, line.trim_end())?;
        }
        write!(f, "   a b c d e f g h i k l   {} to move", self.to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcuts of the playout loop against the general tests they stand for, after
    /// every legal action of random positions of every rule set: the quick normal-play test
    /// against [`Position::phase`], and the outcome after a step (which skips the formation
    /// test far from the throne) against [`Position::outcome_after_action`].
    /// A relocation that the search may judge by its hash alone
    /// ([`Position::quiet_relocation_hash`]) captures nothing, and its hash and
    /// [`Position::relocate_quietly`] child are those of the played child; one refused has
    /// a piece of the other side next to its destination. Random positions of every
    /// single-switch variant and `ludii`.
    #[test]
    fn quiet_relocations_give_the_played_children() {
        let (mut quiet, mut refused) = (0, 0);
        for position in crate::test_positions::random_positions(43, 6, 400) {
            let foes = position.side_pieces(!position.to_move());
            position.legal().for_each(|action| {
                let Action::Relocate { from, to } = action else {
                    return;
                };
                let mut played = position;
                let captured = played.play_unchecked(action);
                match position.quiet_relocation_hash(from, to) {
                    Some(hash) => {
                        assert!(captured.is_empty(), "{action} in {position}");
                        assert_eq!(hash, played.hash(), "{action} in {position}");
                        let mut child = position;
                        child.relocate_quietly(from, to, hash);
                        assert_eq!(child, played, "{action} in {position}");
                        assert_eq!(child.hash(), played.hash_from_scratch());
                        assert_eq!(child.passes(), played.passes());
                        assert_eq!(child.rules(), played.rules());
                        quiet += 1;
                    }
                    None => {
                        assert!((to.neighbor_set() & foes).any(), "{action} in {position}");
                        refused += 1;
                    }
                }
            });
        }
        assert!(quiet > 5_000 && refused > 500, "{quiet} {refused}");
    }

    #[test]
    fn the_playout_shortcuts_agree_with_the_general_tests() {
        let (mut decided, mut skipped) = (0, 0);
        for position in crate::test_positions::random_positions(41, 4, 500) {
            assert_eq!(
                position.in_normal_play(),
                position.phase() == Phase::Normal,
                "{position}"
            );
            let mover = position.to_move();
            let rules = position.rules();
            position.legal().for_each(|action| {
                let mut next = position;
                next.play_unchecked(action);
                let arrived_on = action.arrival();
                for repeated in [false, true] {
                    let general = next.outcome_after_action(mover, || repeated);
                    let shortcut =
                        next.outcome_after_arrival_in(rules, mover, arrived_on, || repeated);
                    assert_eq!(shortcut, general, "{action} in {position}");
                    decided += (general.is_some() && !repeated) as u32;
                }
                skipped += arrived_on.is_some_and(|to| to.ring() > 1) as u32;
            });
        }
        assert!(decided > 100 && skipped > 10_000, "{decided} {skipped}");
    }
}
