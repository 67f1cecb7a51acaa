//! Move ordering: the transposition-table action first, then captures, then the killer
//! actions of the ply, then the rest by their history score and by how far inward they go.

use crate::{Action, Bitboard, Cell, Side};

/// Ordering keys, highest first.
const TT_ACTION: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// History scores are kept below this.
const HISTORY_CAP: i32 = 1 << 24;

/// Killer actions (quiet actions that caused a cut-off at the same ply) and the history
/// table (how often an action caused a cut-off, weighted by depth).
pub(crate) struct Ordering {
    killers: Vec<[Option<Action>; 2]>,
    history: Vec<i32>,
}

impl Ordering {
    /// Empty tables for plies `0..max_ply`.
    pub(crate) fn new(max_ply: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; max_ply],
            history: vec![0; 2 * 128 * 128],
        }
    }

    /// Forgets the killers and ages the history before a new search.
    pub(crate) fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 4;
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    /// The history slot of an action: side, then its two cells (a placement's piece kind
    /// stands for its first cell).
    #[inline]
    fn history_index(side: Side, action: Action) -> usize {
        let (a, b) = match action {
            Action::Step { from, to } | Action::Relocate { from, to } => (from.index(), to.index()),
            Action::Place { kind, to } => (kind.index(), to.index()),
            Action::Pass => (127, 127),
        };
        side.index() << 14 | a << 7 | b
    }

    /// The ordering key of an action of `side` at `ply`. `capture_cells` are the cells
    /// where an arrival of `side` captures.
    #[inline]
    pub(crate) fn key(
        &self,
        side: Side,
        action: Action,
        ply: usize,
        tt_action: Option<Action>,
        capture_cells: Bitboard,
    ) -> i32 {
        if Some(action) == tt_action {
            return TT_ACTION;
        }
        let to = action.destination();
        if to.is_some_and(|c| capture_cells.contains(c)) {
            return CAPTURE + inward(action);
        }
        let [k0, k1] = self.killers[ply];
        if Some(action) == k0 {
            return KILLER + 1;
        }
        if Some(action) == k1 {
            return KILLER;
        }
        self.history[Ordering::history_index(side, action)] + inward(action)
    }

    /// The two killer actions of a ply.
    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [Option<Action>; 2] {
        self.killers[ply]
    }

    /// The ordering key of a quiet action: its history score, then how far inward it goes.
    #[inline]
    pub(crate) fn quiet_key(&self, side: Side, action: Action) -> i32 {
        self.history[Ordering::history_index(side, action)] + inward(action)
    }

    /// Records a quiet action of `side` that caused a cut-off at `ply` with `depth` left.
    #[inline]
    pub(crate) fn cutoff(&mut self, side: Side, action: Action, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(action) {
            killers[1] = killers[0];
            killers[0] = Some(action);
        }
        let h = &mut self.history[Ordering::history_index(side, action)];
        *h = (*h + depth * depth * 16).min(HISTORY_CAP);
    }
}

/// A small bonus for actions that move inward (a tie-break among actions without history).
#[inline]
fn inward(action: Action) -> i32 {
    match action {
        Action::Step { from, to } => (from.ring() as i32 - to.ring() as i32) * 4,
        Action::Relocate { to, .. } => 5 - ring(to),
        _ => 0,
    }
}

#[inline]
fn ring(cell: Cell) -> i32 {
    cell.ring() as i32
}
