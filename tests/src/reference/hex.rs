//! Cube coordinates, written from docs/rules.md section 1 alone.

/// File letters for q = -5..5 (there is no `j`).
const FILES: [char; 11] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'k', 'l'];

/// The six neighbour directions `(dq, dr)` in the order docs/rules.md lists them
/// (`ds = -dq - dr`).
pub const DIRECTIONS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

/// A cell in cube coordinates `(q, r, s = -q - r)`. Any value may be built; use
/// [`Hex::on_board`] to know whether it is one of the 91 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    /// The file coordinate, -5 (file a) to 5 (file l).
    pub q: i32,
    /// The second cube coordinate.
    pub r: i32,
}

impl Hex {
    /// The throne `f6`.
    pub const THRONE: Hex = Hex { q: 0, r: 0 };

    /// A cell from `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// `max(|q|, |r|, |s|)`.
    pub fn ring(self) -> i32 {
        self.q.abs().max(self.r.abs()).max(self.s().abs())
    }

    /// Whether this is one of the 91 cells.
    pub fn on_board(self) -> bool {
        self.ring() <= 5
    }

    /// The cell one step away in direction `DIRECTIONS[d]` (maybe off the board).
    pub fn step(self, d: usize) -> Hex {
        let (dq, dr) = DIRECTIONS[d];
        Hex::new(self.q + dq, self.r + dr)
    }

    /// The neighbours that are on the board.
    pub fn neighbours(self) -> Vec<Hex> {
        (0..6)
            .map(|d| self.step(d))
            .filter(|h| h.on_board())
            .collect()
    }

    /// The half-turn image about the throne.
    pub fn opposite(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }

    /// Every cell of the board, by q then r.
    pub fn all() -> Vec<Hex> {
        let mut cells = Vec::new();
        for q in -5..=5 {
            for r in -5..=5 {
                let h = Hex::new(q, r);
                if h.on_board() {
                    cells.push(h);
                }
            }
        }
        cells
    }

    /// The cells of ring `k` in walking order around the ring (one full turn).
    pub fn ring_cycle(k: i32) -> Vec<Hex> {
        if k == 0 {
            return vec![Hex::THRONE];
        }
        // Start k steps out in direction 4 (-1, 0, +1), then walk k steps in each of the
        // six directions in turn: the walk goes once around the ring.
        let mut h = Hex::new(-k, 0);
        let mut cycle = Vec::new();
        for d in 0..6 {
            for _ in 0..k {
                cycle.push(h);
                h = h.step(d);
            }
        }
        cycle
    }

    /// The two neighbours of a cell along its ring (ring >= 1).
    pub fn ring_neighbours(self) -> Option<(Hex, Hex)> {
        let k = self.ring();
        if k == 0 || k > 5 {
            return None;
        }
        let cycle = Hex::ring_cycle(k);
        let i = cycle.iter().position(|&h| h == self)?;
        let n = cycle.len();
        Some((cycle[(i + n - 1) % n], cycle[(i + 1) % n]))
    }

    /// The name `f6`: the file letter of q, and rank `min(5, 5 - q) - r + 1`.
    pub fn name(self) -> String {
        let rank = 5.min(5 - self.q) - self.r + 1;
        format!("{}{}", FILES[(self.q + 5) as usize], rank)
    }

    /// The cell named `name` (the inverse of [`Hex::name`]), if it is on the board.
    pub fn from_name(name: &str) -> Option<Hex> {
        let mut chars = name.chars();
        let file = chars.next()?;
        let q = FILES.iter().position(|&f| f == file)? as i32 - 5;
        let rank: i32 = chars.as_str().parse().ok()?;
        let h = Hex::new(q, 5.min(5 - q) + 1 - rank);
        (h.on_board() && h.name() == name).then_some(h)
    }
}
