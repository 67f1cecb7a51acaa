//! Sets of cells as one `u128`, with whole-board translations.

use crate::cell::{Cell, Direction, GEOMETRY};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells: bit `i` is the cell with index `i` (see [`Cell::index`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 91 cells.
    pub const ALL: Bitboard = Bitboard(GEOMETRY.all);
    /// The throne alone.
    pub const THRONE: Bitboard = Bitboard(GEOMETRY.rings[0]);
    /// The six cells around the throne.
    pub const RING1: Bitboard = Bitboard(GEOMETRY.rings[1]);
    /// The 30 cells of the outer ring.
    pub const OUTER: Bitboard = Bitboard(GEOMETRY.rings[5]);

    /// The cells of ring `k` (0..=5).
    pub const fn ring(k: usize) -> Bitboard {
        Bitboard(GEOMETRY.rings[k])
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of cells in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the cell is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.index() & 1 != 0
    }

    /// The set with the cell added.
    #[inline]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | 1u128 << cell.index())
    }

    /// The set with the cell removed.
    #[inline]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !(1u128 << cell.index()))
    }

    /// The lowest cell of the set (in (file, rank) order).
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Every cell moved one step in `direction`; cells that would leave the board vanish.
    #[inline]
    pub fn translate(self, direction: Direction) -> Bitboard {
        let offset = direction.offset();
        let moved = if offset >= 0 {
            self.0 << offset
        } else {
            self.0 >> -offset
        };
        Bitboard(moved & GEOMETRY.translate_dest[direction.index()])
    }

    /// Cells that stand between two cells of `ends` on a straight line of three.
    #[inline]
    pub fn between_on_lines(ends: Bitboard) -> Bitboard {
        let mut result = Bitboard::EMPTY;
        for axis in 0..3 {
            let d = Direction::ALL[axis];
            result |= ends.translate(d) & ends.translate(d.opposite());
        }
        result
    }

    /// Cells (ring >= 1) whose two neighbours along their ring are both in `ends`.
    #[inline]
    pub fn between_on_rings(ends: Bitboard) -> Bitboard {
        let mut once = 0u128;
        let mut twice = 0u128;
        for d in Direction::ALL {
            let hit = ends.translate(d.opposite()).0 & GEOMETRY.same_ring[d.index()];
            twice |= once & hit;
            once |= hit;
        }
        Bitboard(twice)
    }

    /// Cells `c` whose neighbour in `direction` exists and is on the same or an inner ring:
    /// the cells from which a step in that direction is not outward.
    #[inline]
    pub(crate) fn step_sources(direction: Direction) -> Bitboard {
        Bitboard(GEOMETRY.step_source[direction.index()])
    }
}

impl Iterator for Bitboard {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell::from_index_unchecked(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Cell> for Bitboard {
    fn from(cell: Cell) -> Bitboard {
        cell.bit()
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, other: Bitboard) -> Bitboard {
                Bitboard(self.0 $op other.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, other: Bitboard) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the board (never holds off-board bits).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & GEOMETRY.all)
    }
}
