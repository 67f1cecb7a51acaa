//! Setups: any arrangement of pieces, the unchecked input of [`Position::from_setup`], and
//! the typed refusal that lists everything wrong with one.
//!
//! A [`Setup`] holds whatever a caller builds or a parser reads: public fields, no rule
//! checked. A [`Position`] is always one that can arise in a game under its rules;
//! [`Position::from_setup`] is the only door between the two, and [`PositionError`] says
//! every reason it stays shut at once.
//!
//! ```
//! use agon_core::{Position, PositionErrorKinds, Rules, Setup, Side};
//! // One White guard on the throne and nothing else.
//! let setup = Setup::empty().with_pieces(Side::White, "Gf6")?;
//! let error = Position::from_setup(setup, Rules::STANDARD).unwrap_err();
//! assert_eq!(
//!     error.kinds(),
//!     PositionErrorKinds::PIECE_COUNT | PositionErrorKinds::GUARD_ON_THRONE
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::{Bitboard, Cell, ParseCellError, Piece, PieceKind, Position, Relocation, Rules, Side};
use std::collections::BTreeMap;
use std::fmt;

/// Any arrangement of pieces, pieces in hand, side to move and pass count: what a
/// [`Position`] is built from. Nothing here is checked; [`Position::from_setup`] checks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// What stands on each occupied cell.
    pub pieces: BTreeMap<Cell, Piece>,
    /// Pieces in hand: `in_hand[side.index()][kind.index()]` (placement openings only).
    pub in_hand: [[u8; 2]; 2],
    /// The side to move.
    pub to_move: Side,
    /// Consecutive passes just played (the `ludii` preset's double-pass draw reads it).
    pub passes: u8,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

impl Setup {
    /// An empty board, nothing in hand, White to move.
    pub fn empty() -> Setup {
        Setup {
            pieces: BTreeMap::new(),
            in_hand: [[0; 2]; 2],
            to_move: Side::White,
            passes: 0,
        }
    }

    /// This setup with `piece` on `cell` (replacing whatever stood there).
    pub fn with_piece(mut self, cell: Cell, piece: Piece) -> Setup {
        self.pieces.insert(cell, piece);
        self
    }

    /// This setup with pieces of `side` added from a list as docs/rules.md writes its
    /// examples: `Q` (queen) or `G` (guard), the cell, and `x` for a captured piece,
    /// separated by spaces or commas: `Qf6 Gd5 Ge4x`. Refuses a token that is not a
    /// piece and a cell that already holds one.
    ///
    /// ```
    /// use agon_core::{Cell, PieceKind, Setup, Side};
    /// let setup = Setup::empty()
    ///     .with_pieces(Side::White, "Qf6, Ge4x")?
    ///     .with_pieces(Side::Black, "Gd5")?;
    /// let e4 = setup.pieces[&Cell::parse("e4")?];
    /// assert_eq!((e4.side, e4.kind, e4.captured), (Side::White, PieceKind::Guard, true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_pieces(mut self, side: Side, list: &str) -> Result<Setup, ParsePiecesError> {
        for token in list
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let error = |kind: PiecesErrorKind| ParsePiecesError {
                token: token.to_string(),
                kind,
            };
            let (kind, rest) = match token.split_at_checked(1) {
                Some(("Q", rest)) => (PieceKind::Queen, rest),
                Some(("G", rest)) => (PieceKind::Guard, rest),
                _ => return Err(error(PiecesErrorKind::NotAPiece)),
            };
            let (name, captured) = match rest.strip_suffix('x') {
                Some(name) => (name, true),
                None => (rest, false),
            };
            let cell = Cell::parse(name).map_err(|e| error(PiecesErrorKind::Cell(e)))?;
            if self.pieces.contains_key(&cell) {
                return Err(error(PiecesErrorKind::CellTaken(cell)));
            }
            self.pieces.insert(
                cell,
                Piece {
                    side,
                    kind,
                    captured,
                },
            );
        }
        Ok(self)
    }

    /// This setup with `side` to move.
    pub fn with_to_move(mut self, side: Side) -> Setup {
        self.to_move = side;
        self
    }

    /// This setup with `count` pieces of `kind` in `side`'s hand.
    pub fn with_in_hand(mut self, side: Side, kind: PieceKind, count: u8) -> Setup {
        self.in_hand[side.index()][kind.index()] = count;
        self
    }

    /// This setup with `passes` consecutive passes just played.
    pub fn with_passes(mut self, passes: u8) -> Setup {
        self.passes = passes;
        self
    }

    /// Pieces of `kind` in `side`'s hand.
    pub fn in_hand(&self, side: Side, kind: PieceKind) -> u8 {
        self.in_hand[side.index()][kind.index()]
    }

    /// The cells holding pieces of `side` and `kind` (captured or not).
    fn cells_of(&self, side: Side, kind: PieceKind) -> Bitboard {
        self.pieces
            .iter()
            .filter(|(_, p)| p.side == side && p.kind == kind)
            .map(|(&cell, _)| cell)
            .collect()
    }

    /// Pieces a side has placed so far in a placement opening (queen and guards).
    fn placed(&self, side: Side) -> u8 {
        let in_hand: u8 = self.in_hand[side.index()].iter().sum();
        (PieceKind::Queen.count_per_side() + PieceKind::Guard.count_per_side())
            .saturating_sub(in_hand)
    }

    /// Whether pieces may be missing: under `relocation=removed`, where captured pieces
    /// leave the board, once nothing is in hand (a placement opening captures nothing).
    fn pieces_may_be_missing(&self, rules: Rules) -> bool {
        rules.relocation() == Relocation::Removed && self.in_hand.iter().flatten().all(|&n| n == 0)
    }

    /// Whether `side` has the wrong number of pieces of `kind`, on the board and in hand:
    /// one queen and six guards, or at most that many when pieces may be missing.
    fn wrong_count(&self, rules: Rules, side: Side, kind: PieceKind) -> bool {
        let total = self.cells_of(side, kind).count() + u32::from(self.in_hand(side, kind));
        let expected = u32::from(kind.count_per_side());
        total > expected || (total < expected && !self.pieces_may_be_missing(rules))
    }

    /// Everything that keeps this setup from being a position under `rules`.
    pub(crate) fn problems(&self, rules: Rules) -> PositionErrorKinds {
        let mut kinds = PositionErrorKinds::empty();
        for side in Side::BOTH {
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                if self.wrong_count(rules, side, kind) {
                    kinds |= PositionErrorKinds::PIECE_COUNT;
                }
            }
        }
        if self
            .pieces
            .get(&Cell::THRONE)
            .is_some_and(|p| p.kind == PieceKind::Guard)
        {
            kinds |= PositionErrorKinds::GUARD_ON_THRONE;
        }
        if rules.relocation() == Relocation::Removed {
            if self.pieces.values().any(|p| p.captured) {
                kinds |= PositionErrorKinds::CAPTURED_UNDER_REMOVED;
            }
            if self.queen_lost_on_own_turn(rules) {
                kinds |= PositionErrorKinds::QUEEN_LOST_BY_MOVER;
            }
        }
        let in_hand_total: u16 = self.in_hand.iter().flatten().map(|&n| u16::from(n)).sum();
        if in_hand_total == 0 {
            return kinds;
        }
        if !rules.has_placement() {
            // The placement checks below would only repeat this one.
            return kinds | PositionErrorKinds::HAND_WITHOUT_PLACEMENT;
        }
        if self.pieces.values().any(|p| p.captured) {
            kinds |= PositionErrorKinds::CAPTURED_DURING_PLACEMENT;
        }
        if self.pieces.keys().any(|c| c.ring() != 5) {
            kinds |= PositionErrorKinds::OFF_OUTER_RING_DURING_PLACEMENT;
        }
        if self.placement_mover() != Some(self.to_move) {
            kinds |= PositionErrorKinds::PLACEMENT_TURN;
        }
        if Side::BOTH.into_iter().any(|side| {
            self.in_hand(side, PieceKind::Queen) > 0
                && self.in_hand(side, PieceKind::Guard) < PieceKind::Guard.count_per_side()
        }) {
            kinds |= PositionErrorKinds::GUARD_BEFORE_QUEEN;
        }
        if rules.opening() == crate::Opening::PlacementOpposed {
            let white = self.cells_of(Side::White, PieceKind::Queen).first();
            let black = self.cells_of(Side::Black, PieceKind::Queen).first();
            if let (Some(w), Some(b)) = (white, black) {
                if b != w.opposite() {
                    kinds |= PositionErrorKinds::PLACEMENT_OPPOSED;
                }
            }
        }
        if self.passes > 0 {
            kinds |= PositionErrorKinds::PASS_DURING_PLACEMENT;
        }
        kinds
    }

    /// Whether the side that moved last has no queen without the suicide rule, the only
    /// way a side loses its queen on its own turn (under `relocation=removed`).
    fn queen_lost_on_own_turn(&self, rules: Rules) -> bool {
        let mover = !self.to_move;
        rules.intervention() != crate::Intervention::Suicide
            && self.cells_of(mover, PieceKind::Queen).is_empty()
            && self.in_hand(mover, PieceKind::Queen) == 0
    }

    /// Who places next, if the counts of placed pieces can arise (placements alternate
    /// from White).
    fn placement_mover(&self) -> Option<Side> {
        let (w, b) = (self.placed(Side::White), self.placed(Side::Black));
        if w == b {
            Some(Side::White)
        } else if w == b + 1 {
            Some(Side::Black)
        } else {
            None
        }
    }
}

/// Why a piece list ([`Setup::with_pieces`]) does not parse: the token and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePiecesError {
    /// The token that failed.
    pub token: String,
    /// What was wrong with it.
    pub kind: PiecesErrorKind,
}

/// What is wrong with a token of a piece list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PiecesErrorKind {
    /// It does not start with `Q` or `G`.
    NotAPiece,
    /// Its cell is not a cell.
    Cell(ParseCellError),
    /// The cell already holds a piece of the setup.
    CellTaken(Cell),
}

impl fmt::Display for ParsePiecesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a piece: ", self.token)?;
        match &self.kind {
            PiecesErrorKind::NotAPiece => f.write_str(
                "expected Q (queen) or G (guard), a cell and an optional x (captured), like \
                 `Qf6` or `Ge4x`",
            ),
            PiecesErrorKind::Cell(e) => write!(f, "{e}"),
            PiecesErrorKind::CellTaken(cell) => write!(f, "{cell} already holds a piece"),
        }
    }
}

impl std::error::Error for ParsePiecesError {}

bitflags::bitflags! {
    /// The reasons a [`Setup`] is not a [`Position`] under a rule set (any number at once).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct PositionErrorKinds: u16 {
        /// A side does not have one queen and six guards, on the board and in hand.
        const PIECE_COUNT = 1 << 0;
        /// A guard stands on the throne, where only a queen may.
        const GUARD_ON_THRONE = 1 << 1;
        /// Pieces in hand under rules without a placement opening.
        const HAND_WITHOUT_PLACEMENT = 1 << 2;
        /// A captured piece while pieces are in hand (placements never capture).
        const CAPTURED_DURING_PLACEMENT = 1 << 3;
        /// A piece off the outer ring while pieces are in hand (placements go there).
        const OFF_OUTER_RING_DURING_PLACEMENT = 1 << 4;
        /// The numbers placed do not fit placements alternating from White, or the other
        /// side is to move.
        const PLACEMENT_TURN = 1 << 5;
        /// A side placed a guard while its queen was still in hand.
        const GUARD_BEFORE_QUEEN = 1 << 6;
        /// Under `opening=placement-opposed`, Black's queen is not opposite White's.
        const PLACEMENT_OPPOSED = 1 << 7;
        /// A pass counted during the placement opening, where no pass is possible.
        const PASS_DURING_PLACEMENT = 1 << 8;
        /// A captured piece under `relocation=removed`, where captured pieces leave the
        /// board.
        const CAPTURED_UNDER_REMOVED = 1 << 9;
        /// Under `relocation=removed`, the side that moved last has no queen, which only
        /// the suicide rule can do to a side on its own turn.
        const QUEEN_LOST_BY_MOVER = 1 << 10;
    }
}

/// Why a [`Setup`] is not a position under a rule set: every reason at once
/// ([`PositionError::kinds`]), with the setup handed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    setup: Setup,
    rules: Rules,
    kinds: PositionErrorKinds,
}

impl PositionError {
    /// Every reason found.
    pub fn kinds(&self) -> PositionErrorKinds {
        self.kinds
    }

    /// The setup that was refused.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The setup that was refused, handed back.
    pub fn into_setup(self) -> Setup {
        self.setup
    }

    /// The rules it was checked under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Each reason in words, in the order of [`PositionErrorKinds`].
    pub fn problems(&self) -> Vec<String> {
        let setup = &self.setup;
        let mut problems = Vec::new();
        for kind in self.kinds.iter() {
            match kind {
                PositionErrorKinds::PIECE_COUNT => {
                    let up_to = if setup.pieces_may_be_missing(self.rules) {
                        "at most "
                    } else {
                        ""
                    };
                    for side in Side::BOTH {
                        for kind in [PieceKind::Queen, PieceKind::Guard] {
                            if setup.wrong_count(self.rules, side, kind) {
                                let on_board = setup.cells_of(side, kind).count();
                                let in_hand = setup.in_hand(side, kind);
                                problems.push(format!(
                                    "{side} has {on_board} {}{} on the board and {in_hand} in \
                                     hand; expected {up_to}{} in all",
                                    kind.name(),
                                    if on_board == 1 { "" } else { "s" },
                                    kind.count_per_side()
                                ));
                            }
                        }
                    }
                }
                PositionErrorKinds::GUARD_ON_THRONE => {
                    problems.push("a guard on the throne f6: only a queen may stand there".into())
                }
                PositionErrorKinds::HAND_WITHOUT_PLACEMENT => problems.push(format!(
                    "pieces in hand need a placement opening, but the rules are `{}`",
                    self.rules
                )),
                PositionErrorKinds::CAPTURED_DURING_PLACEMENT => {
                    problems.push("no piece can be captured during the placement opening".into())
                }
                PositionErrorKinds::OFF_OUTER_RING_DURING_PLACEMENT => problems
                    .push("during the placement opening every piece is on the outer ring".into()),
                PositionErrorKinds::PLACEMENT_TURN => {
                    let (w, b) = (setup.placed(Side::White), setup.placed(Side::Black));
                    problems.push(match setup.placement_mover() {
                        Some(mover) => format!(
                            "placements alternate from White: with {w} White and {b} Black \
                             pieces placed, {mover} is to move"
                        ),
                        None => format!(
                            "placements alternate from White: {w} White and {b} Black pieces \
                             cannot have been placed"
                        ),
                    });
                }
                PositionErrorKinds::GUARD_BEFORE_QUEEN => {
                    for side in Side::BOTH {
                        if setup.in_hand(side, PieceKind::Queen) > 0
                            && setup.in_hand(side, PieceKind::Guard)
                                < PieceKind::Guard.count_per_side()
                        {
                            problems.push(format!("{side} placed a guard before its queen"));
                        }
                    }
                }
                PositionErrorKinds::PLACEMENT_OPPOSED => problems.push(
                    "with opening=placement-opposed Black's queen stands opposite White's".into(),
                ),
                PositionErrorKinds::PASS_DURING_PLACEMENT => {
                    problems.push("no pass is possible during the placement opening".into())
                }
                PositionErrorKinds::CAPTURED_UNDER_REMOVED => problems.push(
                    "with relocation=removed captured pieces leave the board, so none stands \
                     captured"
                        .into(),
                ),
                PositionErrorKinds::QUEEN_LOST_BY_MOVER => problems.push(format!(
                    "{} moved last and has no queen, but without intervention=suicide a side \
                     cannot lose its queen on its own turn",
                    !setup.to_move
                )),
                _ => {}
            }
        }
        problems
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems().join("; "))
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The position a setup describes under `rules`, if it can arise in a game: one queen
    /// and six guards per side (on the board or in hand), no guard on the throne, pieces
    /// in hand only during a placement opening (then nothing captured, everything on the
    /// outer ring, placements alternating from White, each queen placed first, no pass).
    /// Under `relocation=removed` pieces may be missing once nothing is in hand, none
    /// stands captured, and the side that moved last has its queen unless
    /// `intervention=suicide` (a side without its queen has lost: the game is over).
    /// Otherwise every problem at once, with the setup handed back.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let kinds = setup.problems(rules);
        if !kinds.is_empty() {
            return Err(PositionError {
                setup,
                rules,
                kinds,
            });
        }
        Ok(Position::from_checked_setup(&setup, rules))
    }

    /// The setup of this position: its pieces, pieces in hand, side to move and passes
    /// (the rules are not part of it).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty()
            .with_to_move(self.to_move())
            .with_passes(self.passes());
        for cell in self.occupied() {
            if let Some(piece) = self.piece_at(cell) {
                setup.pieces.insert(cell, piece);
            }
        }
        for side in Side::BOTH {
            for kind in [PieceKind::Queen, PieceKind::Guard] {
                setup.in_hand[side.index()][kind.index()] = self.in_hand(side, kind);
            }
        }
        setup
    }
}
