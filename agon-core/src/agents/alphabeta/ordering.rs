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
    /// Indexed by [`Ordering::history_index`] (fixed size: indices masked to it need no
    /// bounds check).
    history: Box<[i32; HISTORY_SLOTS]>,
}

/// Entries of the history table: side, then two cell indices of 7 bits.
const HISTORY_SLOTS: usize = 2 * 128 * 128;

impl Ordering {
    /// Empty tables for plies `0..max_ply`.
    pub(crate) fn new(max_ply: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; max_ply],
            history: vec![0; HISTORY_SLOTS]
                .into_boxed_slice()
                .try_into()
                .expect("the table's size"),
        }
    }

    /// Forgets the killers and ages the history before a new search.
    pub(crate) fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in self.history.iter_mut() {
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
        (side.index() << 14 | a << 7 | b) & (HISTORY_SLOTS - 1)
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

    /// Writes the [`Ordering::quiet_key`] of each of `actions` (of `side`) with the action
    /// into `keyed`: the search's sort of the quiet actions, written out for steps (the
    /// quiet actions of normal play).
    #[inline]
    pub(crate) fn quiet_keys(&self, side: Side, actions: &[Action], keyed: &mut [(i32, Action)]) {
        let history = &self.history[side.index() << 14..][..1 << 14];
        for (slot, &a) in keyed.iter_mut().zip(actions) {
            let key = match a {
                Action::Step { from, to } => {
                    let (f, t) = (from.index() & 127, to.index() & 127);
                    history[f << 7 | t] + RING4[f] - RING4[t]
                }
                _ => self.quiet_key(side, a),
            };
            *slot = (key, a);
        }
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

/// Four times the ring of each cell index (the embedding's cells off the board are never
/// read): [`inward`] of a step is `RING4[from] - RING4[to]`.
const RING4: [i32; 128] = {
    let mut table = [0; 128];
    let mut i = 0;
    while i < 128 {
        if let Some(cell) = Cell::from_index(i as u8) {
            table[i] = 4 * cell.ring() as i32;
        }
        i += 1;
    }
    table
};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ActionList, Game, Rng, Rules};

    #[test]
    fn quiet_keys_are_each_actions_quiet_key() {
        let mut ordering = Ordering::new(4);
        let mut list = ActionList::new();
        let mut keyed = [(0, Action::Pass); ActionList::CAPACITY];
        let mut rules = Rules::single_switch_variants();
        rules.push(Rules::LUDII);
        for (g, rules) in rules.into_iter().enumerate() {
            let mut rng = Rng::for_stream(7, g as u64);
            let mut game = Game::new(rules);
            while !game.is_over() && game.ply_count() < 200 {
                let side = game.position().to_move();
                game.position().legal().generate(&mut list);
                let actions = list.as_slice();
                ordering.quiet_keys(side, actions, &mut keyed);
                for (&a, &(key, b)) in actions.iter().zip(&keyed) {
                    assert_eq!((key, b), (ordering.quiet_key(side, a), a), "{rules} {a}");
                }
                let action = actions[rng.below(actions.len())];
                ordering.cutoff(side, action, 1, 1 + game.ply_count() as i32 % 7);
                game.play_unchecked(action);
            }
        }
    }
}
