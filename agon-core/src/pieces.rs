//! Each side's pieces as a list of cells, kept up to date by the random playouts (a step
//! moves one entry), so that a random step is drawn from seven small sets, one per piece
//! and each a table load ([`crate::movegen::PieceSteps`]), instead of six shifted direction
//! sets of the whole board.

use crate::cell::GEOMETRY;
use crate::{Bitboard, Cell, PieceKind, Position, Side};

/// The index of no cell: its step set in the geometry tables is empty, so an empty slot of
/// a [`PieceCells`] list has no step.
const NO_PIECE: u8 = 127;

/// The cells of one side's active pieces: the queen in slot 0, the guards in slots 1 to 6
/// (in no fixed order once steps have moved them); [`NO_PIECE`] where the side has no
/// such piece (a queen or guards taken off the board under `relocation=removed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceCells {
    cells: [u8; 7],
}

impl PieceCells {
    /// The number of slots: a queen and six guards.
    pub(crate) const SLOTS: usize = 7;

    /// The active pieces of `side` in `position`: the queen first, then the guards in cell
    /// order.
    pub(crate) fn of(position: &Position, side: Side) -> PieceCells {
        let active = position.active(side);
        let queens = position.pieces(side, PieceKind::Queen);
        let mut cells = [NO_PIECE; Self::SLOTS];
        if let Some(queen) = (active & queens).first() {
            cells[0] = queen.index() as u8;
        }
        for (slot, guard) in (1..Self::SLOTS).zip(active.and_not(queens)) {
            cells[slot] = guard.index() as u8;
        }
        PieceCells { cells }
    }

    /// The cell index of the piece in `slot` ([`NO_PIECE`] for an empty slot).
    #[inline(always)]
    pub(crate) fn index(&self, slot: usize) -> u8 {
        self.cells[slot]
    }

    /// Where the piece in `slot` may step as far as the board goes (the neighbours that
    /// are not farther out); empty for an empty slot.
    #[inline(always)]
    pub(crate) fn step_set(&self, slot: usize) -> Bitboard {
        Bitboard(GEOMETRY.step_mask[self.cells[slot] as usize])
    }

    /// The piece in `slot` stepped to `to`.
    #[inline(always)]
    pub(crate) fn moved(&mut self, slot: usize, to: Cell) {
        self.cells[slot] = to.index() as u8;
    }

    /// The same pieces with the guards' slots rotated by one (tests of orders other than
    /// the start's).
    #[cfg(test)]
    pub(crate) fn rotate_guards(&mut self) {
        self.cells[1..].rotate_left(1);
    }

    /// The occupied slots' cells as a set, with the queen's apart: `(queen, guards)` (the
    /// playouts' debug check of the lists against the board).
    pub(crate) fn sets(&self) -> (Bitboard, Bitboard) {
        let set = |cells: &[u8]| {
            cells
                .iter()
                .filter(|&&i| i != NO_PIECE)
                .map(|&i| Cell::from_index_unchecked(i))
                .collect::<Bitboard>()
        };
        (set(&self.cells[..1]), set(&self.cells[1..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_slot_has_no_step() {
        assert!(GEOMETRY.all & (1u128 << NO_PIECE) == 0);
        let start = Position::start(crate::Rules::STANDARD);
        let mut pieces = PieceCells::of(&start, Side::White);
        pieces.cells[3] = NO_PIECE;
        assert_eq!(pieces.step_set(3), Bitboard::EMPTY);
    }

    #[test]
    fn the_lists_of_the_start_hold_its_pieces() {
        let start = Position::start(crate::Rules::STANDARD);
        for side in [Side::White, Side::Black] {
            let (queen, guards) = PieceCells::of(&start, side).sets();
            assert_eq!(queen, start.pieces(side, PieceKind::Queen));
            assert_eq!(guards, start.pieces(side, PieceKind::Guard));
            assert_eq!(guards.count(), 6);
        }
    }
}
