//! Sides and piece kinds.

use std::fmt;
use std::ops::Not;

/// One of the two players. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The first player.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Side {
    /// Both sides, White first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side's name as written in prose: `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// Parses `white`/`w` or `black`/`b` (case-insensitive).
    pub fn parse(text: &str) -> Option<Side> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Side::White),
            "black" | "b" => Some(Side::Black),
            _ => None,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The two kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// The queen: the only piece that may enter the throne.
    Queen = 0,
    /// One of the six guards.
    Guard = 1,
}

impl PieceKind {
    /// 0 for the queen, 1 for a guard.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter used in notation: `Q` or `G`.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Queen => 'Q',
            PieceKind::Guard => 'G',
        }
    }

    /// The word used in prose: `queen` or `guard`.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Queen => "queen",
            PieceKind::Guard => "guard",
        }
    }

    /// How many pieces of this kind each side owns.
    pub const fn count_per_side(self) -> u8 {
        match self {
            PieceKind::Queen => 1,
            PieceKind::Guard => 6,
        }
    }
}

/// A piece on a cell: its side, its kind and whether it is captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub side: Side,
    /// Queen or guard.
    pub kind: PieceKind,
    /// A captured piece stays on its cell as an inert obstacle until relocated.
    pub captured: bool,
}
