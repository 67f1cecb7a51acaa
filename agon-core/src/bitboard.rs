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
        self.0 & cell.bit().0 != 0
    }

    /// The set with the cell added.
    #[inline]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | cell.bit().0)
    }

    /// The set with the cell removed.
    #[inline]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !cell.bit().0)
    }

    /// The cells of `self` that are not in `other`: `self & !other` without the mask of
    /// the board that `!` applies (`self` holds no off-board cell, so neither does this).
    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
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

    /// The `k`-th cell of the set in (file, rank) order (`k < count()`).
    #[inline]
    pub fn nth(self, k: usize) -> Cell {
        debug_assert!(k < self.count() as usize);
        let (mut word, mut k, base) = self.word_holding(k);
        while k > 0 {
            word &= word - 1;
            k -= 1;
        }
        Cell::from_index_unchecked((base + word.trailing_zeros()) as u8)
    }

    /// The 64-bit half of the set that holds its `k`-th cell, the rank of that cell within
    /// the half and the half's first index (the first step of [`Bitboard::nth`] and
    /// [`Bitboard::nth_small`]).
    #[inline(always)]
    fn word_holding(self, k: usize) -> (u64, usize, u32) {
        let low = self.0 as u64;
        let low_count = low.count_ones() as usize;
        if k < low_count {
            (low, k, 0)
        } else {
            ((self.0 >> 64) as u64, k - low_count, 64)
        }
    }

    /// [`Bitboard::nth`] for the small sets of a draw (usually three cells or fewer): the
    /// same cell, chosen without a branch that depends on `k` below 3 (a draw's `k` is
    /// random, so such branches would be mispredicted about half the time).
    #[inline(always)]
    pub(crate) fn nth_small(self, k: usize) -> Cell {
        debug_assert!(k < self.count() as usize);
        let (mut word, k, base) = self.word_holding(k);
        // Clears the lowest cell when `k` exceeds `skipped` (a mask, not a branch).
        let skip = |word: u64, skipped: usize| {
            word ^ (word & word.wrapping_neg() & 0u64.wrapping_sub((k > skipped) as u64))
        };
        word = skip(skip(word, 0), 1);
        for _ in 2..k {
            word &= word - 1;
        }
        Cell::from_index_unchecked((base + word.trailing_zeros()) as u8)
    }

    /// Every cell moved one step in `direction`; cells that would leave the board vanish.
    ///
    /// Always inlined: called with a constant direction (the loops over
    /// [`Direction::ALL`] unroll), the shift becomes a constant shift.
    #[inline(always)]
    pub fn translate(self, direction: Direction) -> Bitboard {
        let offset = direction.offset();
        let moved = if offset >= 0 {
            self.0 << offset
        } else {
            self.0 >> -offset
        };
        Bitboard(moved & GEOMETRY.translate_dest[direction.index()])
    }

    /// Every bit moved by the index offset of `direction`, without removing bits that
    /// wrap around the embedding: only for sets already restricted to cells whose
    /// neighbour in that direction exists, or when the result is masked afterwards.
    #[inline(always)]
    fn shift_raw(self, direction: Direction) -> u128 {
        let offset = direction.offset();
        if offset >= 0 {
            self.0 << offset
        } else {
            self.0 >> -offset
        }
    }

    /// Cells that stand between two cells of `ends` on a straight line of three.
    #[inline(always)]
    pub fn between_on_lines(ends: Bitboard) -> Bitboard {
        let mut result = 0;
        for d in &Direction::ALL[..3] {
            result |= ends.shift_raw(*d) & ends.shift_raw(d.opposite());
        }
        // A board cell shifted off the board never lands on another board cell (see
        // `shifts_never_wrap_onto_the_board`), so only off-board bits need removing.
        Bitboard(result & GEOMETRY.all)
    }

    /// Cells (ring >= 1) whose two neighbours along their ring are both in `ends`.
    #[inline(always)]
    pub fn between_on_rings(ends: Bitboard) -> Bitboard {
        let mut once = 0u128;
        let mut twice = 0u128;
        for d in Direction::ALL {
            // `same_ring` keeps only cells whose true neighbour in `d` is on their ring.
            let hit = ends.shift_raw(d.opposite()) & GEOMETRY.same_ring[d.index()];
            twice |= once & hit;
            once |= hit;
        }
        Bitboard(twice)
    }

    /// The cells of this set from which a step in `direction` is possible (the neighbour
    /// exists and is not farther out), moved one step in that direction.
    #[inline(always)]
    pub fn step_targets(self, direction: Direction) -> Bitboard {
        let sources = Bitboard(self.0 & GEOMETRY.step_source[direction.index()]);
        // Sources all have a true neighbour in `direction`: nothing can wrap.
        Bitboard(sources.shift_raw(direction))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What `between_on_lines` and `step_targets` rely on: shifting a board cell by a
    /// direction's offset lands on its neighbour, or off the board, never on another cell.
    #[test]
    fn shifts_never_wrap_onto_the_board() {
        for cell in Cell::all() {
            for direction in Direction::ALL {
                let on_board = Bitboard(cell.bit().shift_raw(direction)) & Bitboard::ALL;
                let expected = cell.neighbor(direction).map_or(Bitboard::EMPTY, Cell::bit);
                assert_eq!(on_board, expected, "{cell} {direction:?}");
            }
        }
    }

    #[test]
    fn between_on_lines_is_the_middle_of_three_in_a_row() {
        for a in Cell::all() {
            for b in Cell::all() {
                let ends = a.bit() | b.bit();
                let expected: Bitboard = Cell::all()
                    .filter(|&x| {
                        Direction::ALL.iter().any(|&d| {
                            x.neighbor(d) == Some(a) && x.neighbor(d.opposite()) == Some(b)
                        })
                    })
                    .collect();
                assert_eq!(Bitboard::between_on_lines(ends), expected, "{a} {b}");
            }
        }
    }

    /// `nth_small` is `nth` for every `k` of sets of up to seven cells spread over both
    /// words of the embedding (the branch-free skips, the loop past them, the high word).
    #[test]
    fn nth_small_is_nth() {
        let cells: Vec<Cell> = Cell::all().collect();
        let mut rng = crate::Rng::for_stream(17, 0);
        for _ in 0..5_000 {
            let size = 1 + rng.below(7);
            let set: Bitboard = (0..size).map(|_| cells[rng.below(cells.len())]).collect();
            for k in 0..set.count() as usize {
                assert_eq!(set.nth_small(k), set.nth(k), "{set:?} {k}");
            }
        }
    }
}
