//! The board state and the rules that depend on it alone (docs/rules.md sections 3-5 and 8),
//! written for clarity, not speed: every question is answered by looking at cells.

use super::hex::Hex;
use super::rules::{RefIntervention, RefRelocation, RefRules};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Colour {
    /// The other side.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The queen.
    Queen,
    /// A guard.
    Guard,
}

impl Kind {
    fn index(self) -> usize {
        match self {
            Kind::Queen => 0,
            Kind::Guard => 1,
        }
    }
}

/// A piece on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    /// Owner.
    pub colour: Colour,
    /// Queen or guard.
    pub kind: Kind,
    /// Captured pieces stay on their cell until relocated.
    pub captured: bool,
}

/// One action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A step to an adjacent cell.
    Step(Hex, Hex),
    /// A captured piece put back on the board.
    Relocate(Hex, Hex),
    /// A piece from hand placed on the outer ring.
    Place(Kind, Hex),
    /// Nothing.
    Pass,
}

/// The cells of a side's pieces of a kind in the standard start (docs/rules.md section 2).
pub fn start_cells(colour: Colour, kind: Kind) -> Vec<Hex> {
    let names: &[&str] = match (colour, kind) {
        (Colour::White, Kind::Queen) => &["f1"],
        (Colour::White, Kind::Guard) => &["b1", "k1", "a5", "l5", "d9", "h9"],
        (Colour::Black, Kind::Queen) => &["f11"],
        (Colour::Black, Kind::Guard) => &["d1", "h1", "a2", "l2", "b7", "k7"],
    };
    names
        .iter()
        .map(|n| Hex::from_name(n).expect("start cell"))
        .collect()
}

fn slot(h: Hex) -> usize {
    ((h.q + 5) * 11 + (h.r + 5)) as usize
}

/// A position: what every cell holds, pieces in hand, and the side to move. Two positions
/// are equal exactly when the repetition rule calls them the same.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Man>; 121],
    /// Pieces in hand, `[colour][kind]`.
    pub hand: [[u8; 2]; 2],
    /// The side to move.
    pub to_move: Colour,
}

impl Board {
    /// An empty board, nothing in hand.
    pub fn empty(to_move: Colour) -> Board {
        Board {
            cells: [None; 121],
            hand: [[0; 2]; 2],
            to_move,
        }
    }

    /// The start of a rule set: docs/rules.md section 2, or every piece in hand for placement.
    pub fn start(rules: &RefRules) -> Board {
        let mut board = Board::empty(Colour::White);
        if rules.placement {
            board.hand = [[1, 6], [1, 6]];
            return board;
        }
        for colour in [Colour::White, Colour::Black] {
            for kind in [Kind::Queen, Kind::Guard] {
                for &h in &start_cells(colour, kind) {
                    board.set(
                        h,
                        Some(Man {
                            colour,
                            kind,
                            captured: false,
                        }),
                    );
                }
            }
        }
        board
    }

    /// What stands on a cell (`None` off the board too).
    pub fn get(&self, h: Hex) -> Option<Man> {
        if h.on_board() {
            self.cells[slot(h)]
        } else {
            None
        }
    }

    /// Sets what stands on a cell.
    pub fn set(&mut self, h: Hex, man: Option<Man>) {
        assert!(h.on_board(), "{h:?} is off the board");
        self.cells[slot(h)] = man;
    }

    /// Pieces in hand of a colour and kind.
    pub fn in_hand(&self, colour: Colour, kind: Kind) -> u8 {
        self.hand[colour.index()][kind.index()]
    }

    /// Sets the pieces in hand of a colour and kind.
    pub fn set_in_hand(&mut self, colour: Colour, kind: Kind, count: u8) {
        self.hand[colour.index()][kind.index()] = count;
    }

    /// Every occupied cell with its piece.
    pub fn men(&self) -> Vec<(Hex, Man)> {
        let mut men = Vec::with_capacity(14);
        for q in -5..=5 {
            for r in -5..=5 {
                let h = Hex::new(q, r);
                if let Some(m) = self.get(h) {
                    men.push((h, m));
                }
            }
        }
        men
    }

    fn is_empty(&self, h: Hex) -> bool {
        h.on_board() && self.get(h).is_none()
    }

    /// Whether `x` lies between two cells that satisfy `end` (straight lines, or the ring
    /// under `capture=ring`).
    pub fn between(&self, rules: &RefRules, x: Hex, end: impl Fn(Hex) -> bool) -> bool {
        if rules.ring_capture {
            match x.ring_neighbours() {
                Some((a, b)) => end(a) && end(b),
                None => false,
            }
        } else {
            (0..3).any(|d| {
                let (a, b) = (x.step(d), x.step(d + 3));
                a.on_board() && b.on_board() && end(a) && end(b)
            })
        }
    }

    fn holds(&self, h: Hex, colour: Colour, active_only: bool) -> bool {
        match self.get(h) {
            Some(m) => m.colour == colour && (!active_only || !m.captured),
            None => false,
        }
    }

    /// Whether `x` lies between two active pieces of `colour`.
    pub fn between_active(&self, rules: &RefRules, x: Hex, colour: Colour) -> bool {
        self.between(rules, x, |h| self.holds(h, colour, true))
    }

    /// Whether `x` lies between two pieces of `colour`, captured or not.
    fn between_any(&self, rules: &RefRules, x: Hex, colour: Colour) -> bool {
        self.between(rules, x, |h| self.holds(h, colour, false))
    }

    /// The captured pieces of a colour.
    pub fn captured_of(&self, colour: Colour) -> Vec<(Hex, Man)> {
        self.men()
            .into_iter()
            .filter(|(_, m)| m.colour == colour && m.captured)
            .collect()
    }

    /// The side that chooses the next action: the opponent when a captured queen is due
    /// for relocation under `queen-relocated-by=opponent`, else the side to move.
    pub fn decider(&self, rules: &RefRules) -> Colour {
        let me = self.to_move;
        let placing = self.in_hand(me, Kind::Queen) + self.in_hand(me, Kind::Guard) > 0;
        let queen_due = self
            .captured_of(me)
            .iter()
            .any(|(_, m)| m.kind == Kind::Queen);
        if rules.queen_by_opponent && queen_due && !placing {
            me.other()
        } else {
            me
        }
    }

    /// The legal actions, in no particular order. Under `ludii` a side with no other
    /// action has the forced pass.
    pub fn legal_moves(&self, rules: &RefRules) -> Vec<Move> {
        let mut moves = self.unforced_moves(rules);
        if moves.is_empty() && rules.ludii {
            moves.push(Move::Pass);
        }
        moves
    }

    fn unforced_moves(&self, rules: &RefRules) -> Vec<Move> {
        let me = self.to_move;
        let them = me.other();
        let mut moves = Vec::new();
        let outer: Vec<Hex> = Hex::ring_cycle(5);
        // Placement opening: pieces in hand are placed, queen first.
        if self.in_hand(me, Kind::Queen) + self.in_hand(me, Kind::Guard) > 0 {
            let kind = if self.in_hand(me, Kind::Queen) > 0 {
                Kind::Queen
            } else {
                Kind::Guard
            };
            for &h in &outer {
                if !self.is_empty(h) {
                    continue;
                }
                if rules.opposed && kind == Kind::Queen && me == Colour::Black {
                    let white_queen = self
                        .men()
                        .into_iter()
                        .find(|(_, m)| m.colour == Colour::White && m.kind == Kind::Queen);
                    match white_queen {
                        Some((q, _)) if q.opposite() == h => {}
                        _ => continue,
                    }
                }
                moves.push(Move::Place(kind, h));
            }
            return moves;
        }
        // Relocation: captured queen first, else any captured guard.
        let captured = self.captured_of(me);
        if !captured.is_empty() {
            let queen = captured.iter().find(|(_, m)| m.kind == Kind::Queen);
            let sources: Vec<Hex> = match queen {
                Some(&(q, _)) => vec![q],
                None => captured.iter().map(|&(h, _)| h).collect(),
            };
            for from in sources {
                for to in self.relocation_cells(rules, from) {
                    moves.push(Move::Relocate(from, to));
                }
            }
            return moves;
        }
        // Normal play: steps, and a pass under touch-move.
        for (from, man) in self.men() {
            if man.colour != me || man.captured {
                continue;
            }
            for to in from.neighbours() {
                if !self.is_empty(to) || to.ring() > from.ring() {
                    continue;
                }
                if to == Hex::THRONE && man.kind != Kind::Queen {
                    continue;
                }
                if rules.intervention == RefIntervention::Forbidden {
                    let surrounded = if rules.ludii {
                        self.between_any(rules, to, them)
                    } else {
                        self.between_active(rules, to, them)
                    };
                    if surrounded {
                        continue;
                    }
                }
                moves.push(Move::Step(from, to));
            }
        }
        if rules.touch_move {
            moves.push(Move::Pass);
        }
        moves
    }

    /// Whether the captured piece on `from` may be relocated to `to` as far as emptiness,
    /// the throne rule, the chooser's restriction and the intervention rule go.
    fn may_relocate_to(&self, rules: &RefRules, from: Hex, to: Hex) -> bool {
        let man = self.get(from).expect("a captured piece");
        let them = man.colour.other();
        let is_queen = man.kind == Kind::Queen;
        if !self.is_empty(to) {
            return false;
        }
        if is_queen && rules.throne_forbidden && to == Hex::THRONE {
            return false;
        }
        // The opponent chooses the queen's cell and may not put her between two of its
        // own active pieces.
        if is_queen && rules.queen_by_opponent && self.between_active(rules, to, them) {
            return false;
        }
        !(!rules.ludii
            && rules.intervention == RefIntervention::Forbidden
            && self.between_active(rules, to, them))
    }

    /// Where the captured piece on `from` may go, by the `relocation` switch: the outer
    /// ring (a guard) or anywhere (the queen); the first ring outward from its own, from
    /// the next one, that has a cell it may go to; its side's start cells of its kind, or
    /// the outer ring if it may go to none of them.
    fn relocation_cells(&self, rules: &RefRules, from: Hex) -> Vec<Hex> {
        let man = self.get(from).expect("a captured piece");
        let allowed = |cells: Vec<Hex>| -> Vec<Hex> {
            cells
                .into_iter()
                .filter(|&to| self.may_relocate_to(rules, from, to))
                .collect()
        };
        match rules.relocation {
            RefRelocation::OuterRing if man.kind == Kind::Queen => allowed(Hex::all()),
            RefRelocation::OuterRing => allowed(Hex::ring_cycle(5)),
            RefRelocation::NextRing => {
                let mut ring = (from.ring() + 1).min(5);
                loop {
                    let cells = allowed(Hex::ring_cycle(ring));
                    if !cells.is_empty() || ring == 5 {
                        return cells;
                    }
                    ring += 1;
                }
            }
            RefRelocation::StartCell => {
                let home = allowed(start_cells(man.colour, man.kind));
                if home.is_empty() {
                    allowed(Hex::ring_cycle(5))
                } else {
                    home
                }
            }
            RefRelocation::Removed => Vec::new(),
        }
    }

    /// Plays a legal action; returns the cells whose pieces it captured (the arriving piece
    /// too under the suicide rule).
    pub fn play(&mut self, rules: &RefRules, mv: Move) -> Vec<Hex> {
        let me = self.to_move;
        let mut captures = Vec::new();
        match mv {
            Move::Step(from, to) => {
                let man = self.get(from).expect("a piece to step");
                self.set(from, None);
                self.set(to, Some(man));
                captures = self.arrive(rules, to);
            }
            Move::Relocate(from, to) => {
                let man = self.get(from).expect("a piece to relocate");
                self.set(from, None);
                self.set(
                    to,
                    Some(Man {
                        captured: false,
                        ..man
                    }),
                );
                if !rules.ludii {
                    captures = self.arrive(rules, to);
                }
            }
            Move::Place(kind, to) => {
                self.set(
                    to,
                    Some(Man {
                        colour: me,
                        kind,
                        captured: false,
                    }),
                );
                let left = self.in_hand(me, kind) - 1;
                self.set_in_hand(me, kind, left);
            }
            Move::Pass => {}
        }
        self.to_move = me.other();
        captures.sort();
        captures
    }

    /// The captures made by the piece that just arrived on `at`, then the suicide rule.
    fn arrive(&mut self, rules: &RefRules, at: Hex) -> Vec<Hex> {
        let me = self.to_move;
        let them = me.other();
        let flanker = |b: &Board, h: Hex| b.holds(h, me, !rules.ludii);
        let mut victims = Vec::new();
        if rules.ring_capture {
            if let Some((a, b)) = at.ring_neighbours() {
                for x in [a, b] {
                    if !self.holds(x, them, true) {
                        continue;
                    }
                    let (xa, xb) = x.ring_neighbours().expect("same ring");
                    let beyond = if xa == at { xb } else { xa };
                    if flanker(self, beyond) {
                        victims.push(x);
                    }
                }
            }
        } else {
            for d in 0..6 {
                let x = at.step(d);
                if self.holds(x, them, true) && flanker(self, x.step(d)) {
                    victims.push(x);
                }
            }
        }
        for &x in &victims {
            self.take(rules, x);
        }
        if rules.intervention == RefIntervention::Suicide && self.between_active(rules, at, them) {
            self.take(rules, at);
            victims.push(at);
        }
        victims
    }

    /// A capture: the piece is marked captured, or leaves the board under `removed`.
    fn take(&mut self, rules: &RefRules, x: Hex) {
        if rules.relocation == RefRelocation::Removed {
            self.set(x, None);
        } else {
            let mut man = self.get(x).expect("victim");
            man.captured = true;
            self.set(x, Some(man));
        }
    }

    /// Whether a side still has its queen, on the board or in hand.
    pub fn has_queen(&self, colour: Colour) -> bool {
        self.in_hand(colour, Kind::Queen) > 0
            || self
                .men()
                .iter()
                .any(|(_, m)| m.colour == colour && m.kind == Kind::Queen)
    }

    /// Whether `colour`'s six active guards fill ring 1: `Some(true)` with its active queen
    /// on the throne (a win), `Some(false)` with its queen elsewhere (a loss). Under
    /// `removed`, also `Some(true)` when its queen is on the throne and every guard it has
    /// left stands on ring 1.
    pub fn formation(&self, rules: &RefRules, colour: Colour) -> Option<bool> {
        let ring1 = Hex::ring_cycle(1);
        let guard = Man {
            colour,
            kind: Kind::Guard,
            captured: false,
        };
        let queen_on_throne = self.get(Hex::THRONE)
            == Some(Man {
                colour,
                kind: Kind::Queen,
                captured: false,
            });
        if ring1.iter().all(|&h| self.get(h) == Some(guard)) {
            return Some(queen_on_throne);
        }
        let guards_home = self
            .men()
            .iter()
            .filter(|(_, m)| m.colour == colour && m.kind == Kind::Guard)
            .all(|(h, _)| h.ring() == 1);
        (rules.relocation == RefRelocation::Removed && queen_on_throne && guards_home)
            .then_some(true)
    }
}
