//! The pieces of one side as a short list of cells, in the order the random draw numbers
//! them ([`crate::LegalActions::random`]): the queen first, then the guards in cell order.
//! Random playouts keep one list per side and a byte per cell up to date step by step
//! ([`TrackedPieces`]), so that a draw finds the piece of a slot with one load instead of
//! a search of the side's set, and tests a cell with one load instead of a set's bit.

use crate::movegen::UNLISTED;
use crate::{Bitboard, Cell, PieceKind, Position, Side};

/// The index that stands for no piece: it is off the board, so its step set
/// ([`Cell::step_set`]) is empty.
const NO_PIECE: u8 = 127;

/// The active pieces of one side in draw order: slot 0 the queen, slots 1 to 6 the guards
/// in increasing cell index, [`NO_PIECE`] where a side has fewer (and always in slot 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceList {
    cells: [u8; 8],
}

impl PieceList {
    /// The list of the active queen `queen` and the active guards `guards` (at most six).
    #[inline]
    pub(crate) fn from_sets(queen: Option<Cell>, guards: Bitboard) -> PieceList {
        let mut cells = [NO_PIECE; 8];
        if let Some(q) = queen {
            cells[0] = q.index() as u8;
        }
        // The two 64-bit halves one after the other: cheaper than a 128-bit iteration.
        let mut next = 1;
        for (half, base) in [(guards.0 as u64, 0), ((guards.0 >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 && next < 7 {
                cells[next] = (base + bits.trailing_zeros()) as u8;
                bits &= bits - 1;
                next += 1;
            }
        }
        PieceList { cells }
    }

    /// The list of `side`'s active pieces in `position`.
    #[inline]
    pub(crate) fn of(position: &Position, side: Side) -> PieceList {
        let active = position.active(side);
        let queens = position.pieces(side, PieceKind::Queen);
        PieceList::from_sets((active & queens).first(), active.and_not(queens))
    }

    /// The piece in slot `piece` (`piece < 8`): its kind and cell, or `None` where there is
    /// no piece. The cell of an empty slot is the off-board [`NO_PIECE`], whose step set
    /// is empty, so a caller that only looks at its steps needs no test.
    #[inline(always)]
    pub(crate) fn piece(&self, piece: usize) -> (PieceKind, Cell) {
        let kind = if piece == 0 {
            PieceKind::Queen
        } else {
            PieceKind::Guard
        };
        (kind, Cell::from_index_unchecked(self.cells[piece]))
    }

    /// Updates the list after the side's piece in place `piece` (or [`UNLISTED`]: found
    /// by its cell) stepped from `from` to `to` (nothing captured): the guards stay in cell
    /// order.
    #[inline(always)]
    pub(crate) fn stepped(&mut self, piece: u8, from: Cell, to: Cell) {
        let (from, to) = (from.index() as u8, to.index() as u8);
        let mut i = match piece {
            UNLISTED => self.place_of(from),
            listed => usize::from(listed) & 7,
        };
        debug_assert_eq!(self.cells[i], from);
        self.cells[i] = to;
        if i == 0 {
            return;
        }
        // A step changes the index by at most 12: the guard passes few others.
        while i > 1 && self.cells[i - 1] > to {
            self.cells.swap(i - 1, i);
            i -= 1;
        }
        while i < 6 && self.cells[i + 1] < to {
            self.cells.swap(i, i + 1);
            i += 1;
        }
    }

    /// The place of the piece on `cell` (which must be listed).
    #[inline(never)]
    fn place_of(&self, cell: u8) -> usize {
        self.cells
            .iter()
            .position(|&c| c == cell)
            .expect("the piece is listed")
    }
}

/// What random playouts keep up to date besides the position: the piece lists of both
/// sides and whether each cell holds a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TrackedPieces {
    lists: [PieceList; 2],
    occupied: [bool; 128],
}

impl TrackedPieces {
    /// The lists and cells of `position`.
    pub(crate) fn of(position: &Position) -> TrackedPieces {
        let mut occupied = [false; 128];
        for cell in position.occupied() {
            occupied[cell.index()] = true;
        }
        TrackedPieces {
            lists: Side::BOTH.map(|side| PieceList::of(position, side)),
            occupied,
        }
    }

    /// Brings the cells of `cells` up to date with `position` (after a capture, a
    /// relocation or a placement).
    #[inline(never)]
    pub(crate) fn refresh_cells(&mut self, position: &Position, cells: Bitboard) {
        let occupied = position.occupied();
        for cell in cells {
            self.occupied[cell.index()] = occupied.contains(cell);
        }
    }

    /// Rebuilds the list of `side` from `position` (after one of its pieces was captured,
    /// relocated or placed).
    #[inline(never)]
    pub(crate) fn refresh_list(&mut self, position: &Position, side: Side) {
        self.lists[side.index()] = PieceList::of(position, side);
    }

    /// The list of `side`'s active pieces.
    #[inline(always)]
    pub(crate) fn list(&self, side: Side) -> &PieceList {
        &self.lists[side.index()]
    }

    /// Whether `cell` is empty.
    #[inline(always)]
    pub(crate) fn is_empty(&self, cell: Cell) -> bool {
        // Cell indices are below 128: the mask only spares the bounds check.
        !self.occupied[cell.index() & 127]
    }

    /// Follows a step of `side`'s piece in place `piece` of its list (or [`UNLISTED`])
    /// from `from` to `to`.
    #[inline(always)]
    pub(crate) fn stepped(&mut self, side: Side, piece: u8, from: Cell, to: Cell) {
        self.occupied[from.index() & 127] = false;
        self.occupied[to.index() & 127] = true;
        self.lists[side.index()].stepped(piece, from, to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Phase;
    use crate::{Action, LegalActions};

    #[test]
    fn the_empty_slot_has_no_step() {
        let none = Cell::from_index_unchecked(NO_PIECE);
        assert!(none.step_set().is_empty());
        assert!(Cell::all().all(|cell| cell.index() != NO_PIECE as usize));
    }

    /// Every step of every random position, followed in the list and the tracked pieces,
    /// gives those of the position after it (when nothing was captured).
    #[test]
    fn a_followed_step_gives_the_list_of_the_next_position() {
        let mut followed = 0;
        for position in crate::test_positions::random_positions(31, 3, 400) {
            if position.phase() != Phase::Normal {
                continue;
            }
            let me = position.to_move();
            let list = PieceList::of(&position, me);
            LegalActions::of(&position).for_each(|action| {
                let Action::Step { from, to } = action else {
                    return;
                };
                let mut next = position;
                if next.play_unchecked(action).any() {
                    return;
                }
                let mut stepped = list;
                stepped.stepped(UNLISTED, from, to);
                assert_eq!(stepped, PieceList::of(&next, me), "{action} in {position}");
                let place = list.place_of(from.index() as u8) as u8;
                let mut tracked = TrackedPieces::of(&position);
                tracked.stepped(me, place, from, to);
                assert_eq!(tracked, TrackedPieces::of(&next), "{action} in {position}");
                followed += 1;
            });
        }
        assert!(followed > 20_000, "{followed}");
    }
}
