//! Cells of the 91-cell board, their names, cube coordinates, rings and neighbours.
//!
//! A cell is stored as its bit index in an 11x11 axial embedding:
//! `index = 11 * (q + 5) + (5 - r)`, with `q` the file (a..l = -5..5) and `r` the second
//! cube coordinate. Within a file the index grows with the rank, so the natural order of
//! indices is the (file, rank) order that notation uses. The six neighbour directions are
//! fixed offsets of the index, which lets [`crate::Bitboard`] move whole sets of cells with
//! one shift.

use crate::Bitboard;
use std::fmt;
use std::str::FromStr;

/// File letters, a..l without j, for q = -5..5.
pub const FILE_LETTERS: [u8; 11] = *b"abcdefghikl";

/// Width of the axial embedding.
const WIDTH: i32 = 11;

/// One cell of the board (always a real cell: there is no way to build an off-board one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// One of the six neighbour directions, in the order docs/rules.md lists them:
/// `(+1,-1,0) (+1,0,-1) (0,+1,-1) (-1,+1,0) (-1,0,+1) (0,-1,+1)` in cube coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Direction(u8);

impl Direction {
    /// All six directions; `ALL[i]` and `ALL[i + 3]` are opposite.
    pub const ALL: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];

    /// The index of the direction, 0..6.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction((self.0 + 3) % 6)
    }

    /// The cube offset `(dq, dr, ds)`.
    pub const fn cube(self) -> (i32, i32, i32) {
        match self.0 {
            0 => (1, -1, 0),
            1 => (1, 0, -1),
            2 => (0, 1, -1),
            3 => (-1, 1, 0),
            4 => (-1, 0, 1),
            _ => (0, -1, 1),
        }
    }

    /// The change of the cell index when stepping in this direction.
    #[inline(always)]
    pub const fn offset(self) -> i32 {
        const OFFSETS: [i32; 6] = [WIDTH + 1, WIDTH, -1, -WIDTH - 1, -WIDTH, 1];
        OFFSETS[self.0 as usize]
    }
}

const fn in_board(q: i32, r: i32) -> bool {
    let s = -q - r;
    q >= -5 && q <= 5 && r >= -5 && r <= 5 && s >= -5 && s <= 5
}

const fn abs(x: i32) -> i32 {
    if x < 0 {
        -x
    } else {
        x
    }
}

const fn max3(a: i32, b: i32, c: i32) -> i32 {
    let m = if a > b { a } else { b };
    if m > c {
        m
    } else {
        c
    }
}

/// Marker in the neighbour table for "no cell there".
const NONE: u8 = u8::MAX;

/// Precomputed geometry, built at compile time.
pub(crate) struct Geometry {
    /// Ring of every index (255 for off-board indices).
    pub ring: [u8; 128],
    /// Neighbour index in each direction, or `NONE`.
    pub neighbor: [[u8; 6]; 128],
    /// The two neighbours on the same ring (ring >= 1), or `NONE`.
    pub ring_neighbors: [[u8; 2]; 128],
    /// All 91 cells.
    pub all: u128,
    /// Cells of each ring.
    pub rings: [u128; 6],
    /// Cells `c` such that `c - d` is on the board: where a translated bit may land.
    pub translate_dest: [u128; 6],
    /// Cells `c` whose neighbour in direction `d` exists and is not farther out.
    pub step_source: [u128; 6],
    /// Cells `c` whose neighbour in direction `d` is on the same ring (ring >= 1).
    pub same_ring: [u128; 6],
    /// The single bit of each index (a load is cheaper than a variable 128-bit shift).
    pub bit: [u128; 128],
    /// All neighbours of each cell.
    pub neighbor_mask: [u128; 128],
    /// Neighbours of each cell that are not farther out (where a step may go).
    pub step_mask: [u128; 128],
    /// The two neighbours on the same ring of each cell of ring >= 1, as a set.
    pub ring_link: [u128; 128],
    /// The cells two steps away on a straight line: the far ends of the line triples that
    /// start at each cell.
    pub line_reach: [u128; 128],
    /// The cells two steps away along the cell's ring (ring >= 1): the far ends of the ring
    /// triples that start at each cell.
    pub ring_reach: [u128; 128],
    /// Where a piece of each kind (`[kind][index]`, queen first) may step as far as the
    /// board goes, as four cell indices in ascending order padded with
    /// [`NO_CELL`] (a cell has at most four neighbours that are not farther out:
    /// two on its ring and at most two inward); a guard's never include the throne. The
    /// four bytes are one little-endian `u32`, so that one store updates a piece's four.
    pub step_candidates: [[u32; 128]; 2],
    /// The capture triples that start at each cell, for [`crate::lookup16::bits_at`]:
    /// bytes 0-5 the middle cells (the neighbour in each direction), bytes 8-13 the far
    /// ends beyond them on the same line, [`NO_CELL`] where the board ends.
    pub line_pairs: [[u8; 16]; 128],
    /// The same along the cell's ring (`capture=ring`): bytes 0-1 its two ring neighbours,
    /// bytes 8-9 the ring cells beyond them; [`NO_CELL`] elsewhere (and for the throne).
    pub ring_pairs: [[u8; 16]; 128],
}

/// The index that pads [`Geometry::step_candidates`] and the capture triples: bit 127 of a
/// 128-bit set, never a cell (cell indices stop at 120).
pub(crate) const NO_CELL: u8 = 127;

const fn index_of(q: i32, r: i32) -> usize {
    (WIDTH * (q + 5) + (5 - r)) as usize
}

const fn build_geometry() -> Geometry {
    let mut g = Geometry {
        ring: [u8::MAX; 128],
        neighbor: [[NONE; 6]; 128],
        ring_neighbors: [[NONE; 2]; 128],
        all: 0,
        rings: [0; 6],
        translate_dest: [0; 6],
        step_source: [0; 6],
        same_ring: [0; 6],
        bit: [0; 128],
        neighbor_mask: [0; 128],
        step_mask: [0; 128],
        ring_link: [0; 128],
        line_reach: [0; 128],
        ring_reach: [0; 128],
        step_candidates: [[u32::from_le_bytes([NO_CELL; 4]); 128]; 2],
        line_pairs: [[NO_CELL; 16]; 128],
        ring_pairs: [[NO_CELL; 16]; 128],
    };
    let mut q = -5;
    while q <= 5 {
        let mut r = -5;
        while r <= 5 {
            if in_board(q, r) {
                let i = index_of(q, r);
                let ring = max3(abs(q), abs(r), abs(q + r));
                g.ring[i] = ring as u8;
                g.bit[i] = 1u128 << i;
                g.all |= 1u128 << i;
                g.rings[ring as usize] |= 1u128 << i;
            }
            r += 1;
        }
        q += 1;
    }
    let mut q = -5;
    while q <= 5 {
        let mut r = -5;
        while r <= 5 {
            if in_board(q, r) {
                let i = index_of(q, r);
                let mut d = 0;
                let mut k = 0;
                while d < 6 {
                    let (dq, dr, _) = Direction(d as u8).cube();
                    let (nq, nr) = (q + dq, r + dr);
                    if in_board(nq, nr) {
                        let n = index_of(nq, nr);
                        g.neighbor[i][d] = n as u8;
                        g.translate_dest[d] |= 1u128 << n;
                        g.neighbor_mask[i] |= 1u128 << n;
                        if g.ring[n] <= g.ring[i] {
                            g.step_source[d] |= 1u128 << i;
                            g.step_mask[i] |= 1u128 << n;
                        }
                        if g.ring[n] == g.ring[i] && g.ring[i] >= 1 {
                            g.same_ring[d] |= 1u128 << i;
                            g.ring_neighbors[i][k] = n as u8;
                            k += 1;
                        }
                    }
                    d += 1;
                }
            }
            r += 1;
        }
        q += 1;
    }
    let mut i = 0;
    while i < 128 {
        let mut d = 0;
        while d < 6 {
            let n = g.neighbor[i][d];
            if n != NONE && g.neighbor[n as usize][d] != NONE {
                g.line_reach[i] |= 1u128 << g.neighbor[n as usize][d];
            }
            d += 1;
        }
        let mut k = 0;
        while k < 2 {
            let n = g.ring_neighbors[i][k];
            if n != NONE {
                g.ring_link[i] |= 1u128 << n;
                let mut j = 0;
                while j < 2 {
                    let far = g.ring_neighbors[n as usize][j];
                    if far as usize != i {
                        g.ring_reach[i] |= 1u128 << far;
                    }
                    j += 1;
                }
            }
            k += 1;
        }
        i += 1;
    }
    let throne = index_of(0, 0);
    let mut i = 0;
    while i < 128 {
        let mut kind = 0;
        while kind < 2 {
            let mut bytes = [NO_CELL; 4];
            let mut k = 0;
            let mut n = 0;
            while n < 128 {
                let guard_on_throne = kind == 1 && n == throne;
                if g.step_mask[i] & (1u128 << n) != 0 && !guard_on_throne {
                    bytes[k] = n as u8;
                    k += 1;
                }
                n += 1;
            }
            g.step_candidates[kind][i] = u32::from_le_bytes(bytes);
            kind += 1;
        }
        let mut d = 0;
        while d < 6 {
            let n = g.neighbor[i][d];
            if n != NONE && g.neighbor[n as usize][d] != NONE {
                g.line_pairs[i][d] = n;
                g.line_pairs[i][8 + d] = g.neighbor[n as usize][d];
            }
            d += 1;
        }
        let mut k = 0;
        while k < 2 {
            let n = g.ring_neighbors[i][k];
            if n != NONE {
                let mut j = 0;
                while j < 2 {
                    let far = g.ring_neighbors[n as usize][j];
                    if far as usize != i {
                        g.ring_pairs[i][k] = n;
                        g.ring_pairs[i][8 + k] = far;
                    }
                    j += 1;
                }
            }
            k += 1;
        }
        i += 1;
    }
    g
}

pub(crate) static GEOMETRY: Geometry = build_geometry();

impl Cell {
    /// The throne, `f6`, the centre cell.
    pub const THRONE: Cell = Cell(index_of(0, 0) as u8);

    /// Every cell in (file, rank) order.
    pub fn all() -> impl Iterator<Item = Cell> {
        Bitboard::ALL.into_iter()
    }

    /// The cell at cube coordinates `(q, r, -q-r)`, if it is on the board.
    pub const fn from_axial(q: i32, r: i32) -> Option<Cell> {
        if in_board(q, r) {
            Some(Cell(index_of(q, r) as u8))
        } else {
            None
        }
    }

    /// The cell with this bit index, if it is a real cell.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Cell> {
        if index < 128 && GEOMETRY.ring[index as usize] != u8::MAX {
            Some(Cell(index))
        } else {
            None
        }
    }

    /// The cell one step from `self` in `direction`, which the caller knows to exist.
    #[inline(always)]
    pub(crate) const fn step_unchecked(self, direction: Direction) -> Cell {
        Cell((self.0 as i32 + direction.offset()) as u8)
    }

    /// Builds a cell from an index known to be valid (internal fast path).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Cell {
        Cell(index)
    }

    /// [`Cell::index`] as the geometry's 128-entry tables are indexed: every cell's index
    /// is below 128, and masking it so lets the compiler drop the bounds check of each
    /// lookup (one instruction instead of a compare and a branch).
    #[inline(always)]
    const fn table_index(self) -> usize {
        self.0 as usize & 127
    }

    /// The bit index of the cell in the 11x11 axial embedding (0..121, with holes).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The single-bit set holding this cell.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard(GEOMETRY.bit[self.table_index()])
    }

    /// The file coordinate `q` (-5 for file a, 5 for file l).
    pub const fn q(self) -> i32 {
        self.0 as i32 / WIDTH - 5
    }

    /// The cube coordinate `r`.
    pub const fn r(self) -> i32 {
        5 - self.0 as i32 % WIDTH
    }

    /// The cube coordinate `s = -q - r`.
    pub const fn s(self) -> i32 {
        -self.q() - self.r()
    }

    /// Cube coordinates `(q, r, s)`.
    pub const fn cube(self) -> (i32, i32, i32) {
        (self.q(), self.r(), self.s())
    }

    /// The file letter, `a`..`l` (no `j`).
    pub const fn file_letter(self) -> char {
        FILE_LETTERS[(self.q() + 5) as usize] as char
    }

    /// The rank, 1 at the bottom of the file.
    pub const fn rank(self) -> u8 {
        let q = self.q();
        let top = if 5 < 5 - q { 5 } else { 5 - q };
        (top - self.r() + 1) as u8
    }

    /// The ring: 0 for the throne, 5 for the outer ring.
    #[inline]
    pub const fn ring(self) -> u8 {
        GEOMETRY.ring[self.table_index()]
    }

    /// The neighbour in a direction, if there is one.
    #[inline]
    pub const fn neighbor(self, direction: Direction) -> Option<Cell> {
        let n = GEOMETRY.neighbor[self.table_index()][direction.0 as usize];
        if n == NONE {
            None
        } else {
            Some(Cell(n))
        }
    }

    /// All neighbours (2 to 6 of them).
    pub fn neighbors(self) -> impl Iterator<Item = Cell> {
        Direction::ALL
            .into_iter()
            .filter_map(move |d| self.neighbor(d))
    }

    /// All neighbours as a set.
    #[inline]
    pub const fn neighbor_set(self) -> Bitboard {
        Bitboard(GEOMETRY.neighbor_mask[self.table_index()])
    }

    /// The neighbours on the same ring (none for the throne), as a set.
    #[inline]
    pub(crate) const fn ring_link(self) -> Bitboard {
        Bitboard(GEOMETRY.ring_link[self.table_index()])
    }

    /// The capture triples that start at this cell under `capture` (see
    /// `Geometry::line_pairs` and `Geometry::ring_pairs`): middles in bytes 0-7, far ends in
    /// bytes 8-15.
    #[inline(always)]
    pub(crate) fn capture_pairs(self, capture: crate::rules::CaptureMode) -> [u8; 16] {
        match capture {
            crate::rules::CaptureMode::Line => GEOMETRY.line_pairs[self.table_index()],
            crate::rules::CaptureMode::Ring => GEOMETRY.ring_pairs[self.table_index()],
        }
    }

    /// The cells two steps away on a straight line, as a set.
    #[inline]
    pub(crate) const fn line_reach(self) -> Bitboard {
        Bitboard(GEOMETRY.line_reach[self.table_index()])
    }

    /// The cells two steps away along the cell's ring (none for the throne), as a set.
    #[inline]
    pub(crate) const fn ring_reach(self) -> Bitboard {
        Bitboard(GEOMETRY.ring_reach[self.table_index()])
    }

    /// The neighbours a piece on this cell may step to if they are empty (same ring or
    /// inward).
    #[inline]
    pub const fn step_set(self) -> Bitboard {
        Bitboard(GEOMETRY.step_mask[self.table_index()])
    }

    /// The direction from this cell to an adjacent cell.
    #[inline]
    pub fn direction_to(self, neighbor: Cell) -> Option<Direction> {
        // Index offsets of the six directions are -12, -11, -1, 1, 11, 12.
        const BY_OFFSET: [u8; 25] = {
            let mut t = [u8::MAX; 25];
            let mut d = 0;
            while d < 6 {
                t[(Direction(d).offset() + 12) as usize] = d;
                d += 1;
            }
            t
        };
        let offset = neighbor.0 as i32 - self.0 as i32;
        if !(-12..=12).contains(&offset) {
            return None;
        }
        let d = BY_OFFSET[(offset + 12) as usize];
        (d != u8::MAX && self.neighbor(Direction(d)) == Some(neighbor)).then_some(Direction(d))
    }

    /// The two neighbours on the same ring, for cells of ring 1 and beyond.
    pub fn ring_neighbors(self) -> Option<[Cell; 2]> {
        let [a, b] = GEOMETRY.ring_neighbors[self.table_index()];
        if a == NONE {
            None
        } else {
            Some([Cell(a), Cell(b)])
        }
    }

    /// The cell diametrically opposite (a half turn about the throne).
    pub const fn opposite(self) -> Cell {
        Cell(index_of(-self.q(), -self.r()) as u8)
    }

    /// The distance in steps between two cells, ignoring pieces and rings.
    pub const fn distance(self, other: Cell) -> u8 {
        max3(
            abs(self.q() - other.q()),
            abs(self.r() - other.r()),
            abs(self.s() - other.s()),
        ) as u8
    }

    /// The cell with a file letter (`b'a'`..`b'l'`) and rank, for names fixed at compile
    /// time (a name that is not a cell fails the build when used in a constant).
    pub(crate) const fn named(file: u8, rank: i32) -> Cell {
        let mut q = 0;
        while FILE_LETTERS[q] != file {
            q += 1;
        }
        let q = q as i32 - 5;
        let top = if 5 < 5 - q { 5 } else { 5 - q };
        match Cell::from_axial(q, top + 1 - rank) {
            Some(cell) => cell,
            None => panic!("not a cell"),
        }
    }

    /// Parses a cell name strictly: a lower-case file letter (`a`..`l`, no `j`) and a rank
    /// without leading zeros that exists in that file.
    pub fn parse(name: &str) -> Result<Cell, ParseCellError> {
        name.parse()
    }
}

/// Why a text is not a cell name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCellError {
    /// The offending text.
    pub text: String,
    /// What was wrong.
    pub reason: &'static str,
}

impl fmt::Display for ParseCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a cell: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseCellError {}

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(text: &str) -> Result<Cell, ParseCellError> {
        let error = |reason| ParseCellError {
            text: text.to_string(),
            reason,
        };
        let bytes = text.as_bytes();
        let Some((&file, digits)) = bytes.split_first() else {
            return Err(error("empty cell name"));
        };
        let Some(q) = FILE_LETTERS.iter().position(|&l| l == file) else {
            return Err(error(if file.is_ascii_uppercase() {
                "files are lower-case letters a-l"
            } else {
                "files are a b c d e f g h i k l (there is no j)"
            }));
        };
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(error("a rank is a number from 1 to 11"));
        }
        if digits[0] == b'0' {
            return Err(error("ranks start at 1 and have no leading zero"));
        }
        let rank: i32 = digits
            .iter()
            .fold(0, |acc, &d| acc * 10 + (d - b'0') as i32);
        let q = q as i32 - 5;
        let top = 5.min(5 - q);
        let r = top + 1 - rank;
        match Cell::from_axial(q, r) {
            Some(cell) => Ok(cell),
            None => Err(error(match FILE_LETTERS[(q + 5) as usize] {
                b'a' | b'l' => "files a and l have ranks 1-6",
                b'b' | b'k' => "files b and k have ranks 1-7",
                b'c' | b'i' => "files c and i have ranks 1-8",
                b'd' | b'h' => "files d and h have ranks 1-9",
                b'e' | b'g' => "files e and g have ranks 1-10",
                _ => "file f has ranks 1-11",
            })),
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_letter(), self.rank())
    }
}
