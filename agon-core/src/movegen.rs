//! Legal action generation. The legal actions of a position are computed once as a few sets
//! of cells ([`LegalActions`]), which can then be counted (perft's bulk counting), tested
//! for emptiness (the no-move rule), listed, or sampled uniformly (playouts) without
//! listing.

use crate::hot::HotRules;
use crate::position::Phase;
use crate::rules::{Opening, Relocation, TouchMove};
use crate::{Action, ActionList, Bitboard, Cell, Direction, PieceKind, Position, Rng, Side};

/// The legal actions of one position, as sets of cells (128 bytes: cheap to keep).
#[derive(Clone, Copy, Debug)]
pub struct LegalActions {
    kind: Kind,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Placement {
        kind: PieceKind,
        to: Bitboard,
    },
    Relocation {
        from: Bitboard,
        /// Where every piece of `from` may go; or, when `next_ring`, the open cells that
        /// each piece narrows to its own ring ([`Position::next_ring_zone`]).
        to: Bitboard,
        next_ring: bool,
    },
    Normal {
        /// Destinations of guard steps in each direction.
        guard_to: [Bitboard; 6],
        queen: Option<Cell>,
        queen_to: Bitboard,
        pass: bool,
        /// A pass is forced when nothing else is legal (`ludii`). Only normal play can
        /// run out of actions: relocations and placements always have an empty cell.
        forced_pass: bool,
    },
}

/// The destinations of the captured piece on `from` in a relocation phase whose sets are
/// `to` and `next_ring` (see [`Kind::Relocation`]).
#[inline]
fn relocation_targets(from: Cell, to: Bitboard, next_ring: bool) -> Bitboard {
    if next_ring {
        to & Position::next_ring_zone(to, from)
    } else {
        to
    }
}

/// The relocations due in a position, as the sets of [`Kind::Relocation`].
#[derive(Clone, Copy)]
struct Relocations {
    /// The captured pieces that may be relocated now.
    from: Bitboard,
    /// Their destinations, or their open cells when `next_ring` (see [`Kind::Relocation`]).
    to: Bitboard,
    next_ring: bool,
}

impl Relocations {
    /// The relocations of `position`, whose side to move is in a relocation phase, under
    /// the hot switches `hot` (those of the position).
    #[inline(always)]
    fn of_in(hot: impl HotRules, position: &Position) -> Relocations {
        let me = position.to_move();
        let mine_captured = position.side_pieces(me) & position.captured();
        let queen = mine_captured & position.pieces(me, PieceKind::Queen);
        // The queen first; otherwise any captured guard, the owner's choice.
        let (kind, from) = if queen.any() {
            (PieceKind::Queen, queen)
        } else {
            (PieceKind::Guard, mine_captured)
        };
        let open = position.relocation_open_cells_in(hot, kind);
        let next_ring = position.rules().relocation() == Relocation::NextRing;
        let to = if next_ring {
            open
        } else {
            // One zone for every piece of `from`, whichever cell it stands on.
            let any = from
                .first()
                .expect("the relocation phase has a captured piece");
            open & position.relocation_zone(kind, any, open)
        };
        Relocations {
            from,
            to,
            next_ring,
        }
    }

    /// Whether there is a relocation.
    #[inline(always)]
    fn any(self) -> bool {
        if self.next_ring {
            let to = self.to;
            self.from
                .into_iter()
                .map(|f| relocation_targets(f, to, true))
                .any(Bitboard::any)
        } else {
            self.from.any() && self.to.any()
        }
    }
}

/// The steps of normal play as the few sets they come from, small enough to stay in
/// registers: [`LegalActions::of`] spreads them into [`Kind::Normal`], and the fast paths
/// ([`LegalActions::count_of`] for perft's bulk count, [`LegalActions::random_of`] for one
/// random action) count and draw from them without building a [`LegalActions`].
#[derive(Clone, Copy)]
struct Steps {
    /// The guards of the side to move that are not captured.
    guards: Bitboard,
    /// The cells a guard may step to: empty, allowed by the intervention rule, not the
    /// throne.
    guard_targets: Bitboard,
    /// The side's active queen.
    queen: Option<Cell>,
    /// Where she may step.
    queen_to: Bitboard,
    /// Whether the side may pass (`touch-move=on`).
    pass: bool,
    /// Whether a pass is forced when nothing else is legal (`ludii`).
    forced_pass: bool,
}

impl Steps {
    /// The steps of `position`, whose side to move is in normal play.
    ///
    /// The hot switches come from `hot` (those of the position: its rules, or the same
    /// switches fixed at compile time).
    #[inline(always)]
    fn of_in(hot: impl HotRules, position: &Position) -> Steps {
        let rules = position.rules();
        let me = position.to_move();
        let targets = position.step_open_cells_in(hot, me);
        let active = position.active(me);
        let queens = position.pieces(me, PieceKind::Queen);
        let queen = (active & queens).first();
        Steps {
            guards: active.and_not(queens),
            guard_targets: targets.and_not(Bitboard::THRONE),
            queen,
            queen_to: queen.map_or(Bitboard::EMPTY, |q| q.step_set() & targets),
            pass: rules.touch_move() == TouchMove::On,
            forced_pass: hot.ludii(),
        }
    }

    /// Where the guards may step in `direction` (the arrival cells).
    #[inline(always)]
    fn guard_to(&self, direction: Direction) -> Bitboard {
        self.guards.step_targets(direction) & self.guard_targets
    }

    /// [`Steps::guard_to`] of each direction, written out: `Direction::ALL.map` was left as
    /// a loop of variable shifts in some callers (the quiescence search's, about 190
    /// instructions a call).
    #[inline(always)]
    fn guard_sets(&self) -> [Bitboard; 6] {
        let [d0, d1, d2, d3, d4, d5] = Direction::ALL;
        [
            self.guard_to(d0),
            self.guard_to(d1),
            self.guard_to(d2),
            self.guard_to(d3),
            self.guard_to(d4),
            self.guard_to(d5),
        ]
    }

    /// Whether there is a legal action: a step, a pass where the rules allow one, or the
    /// forced pass (stops at the first direction with a step).
    #[inline(always)]
    fn any(&self) -> bool {
        self.forced_pass
            || self.pass
            || self.queen_to.any()
            || Direction::ALL.iter().any(|&d| self.guard_to(d).any())
    }

    /// The number of legal actions: the steps, a pass where the rules allow one, or the
    /// forced pass when nothing else is legal.
    #[inline(always)]
    fn count(&self) -> usize {
        let mut n = self.queen_to.count() as usize + self.pass as usize;
        for d in Direction::ALL {
            n += self.guard_to(d).count() as usize;
        }
        if n == 0 && self.forced_pass {
            1
        } else {
            n
        }
    }
}

/// How many steps of one side arrive on each cell, as three bit planes (a count of 0 to 7:
/// six guards and the queen), for a side in normal play whose pieces stay put while the
/// other side moves. Its number of steps in a position is then the weights of the cells
/// that are open to it there ([`StepWeights::count`]): three masks and popcounts per
/// position instead of a move generation (perft's last ply).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepWeights {
    planes: [Bitboard; 3],
}

impl StepWeights {
    /// The weights of `side`'s active pieces in `position`: each guard counts on the cells
    /// it may step to but the throne, the queen on hers.
    pub(crate) fn of(position: &Position, side: Side) -> StepWeights {
        let active = position.active(side);
        let queens = position.pieces(side, PieceKind::Queen);
        let guards = active.and_not(queens);
        let mut weights = StepWeights {
            planes: [Bitboard::EMPTY; 3],
        };
        for d in Direction::ALL {
            weights.add(guards.step_targets(d).and_not(Bitboard::THRONE));
        }
        if let Some(queen) = (active & queens).first() {
            weights.add(queen.step_set());
        }
        weights
    }

    /// Adds one to the weight of every cell of `cells` (a bit-sliced increment).
    fn add(&mut self, cells: Bitboard) {
        let [w0, w1, w2] = &mut self.planes;
        let carry0 = *w0 & cells;
        *w0 ^= cells;
        let carry1 = *w1 & carry0;
        *w1 ^= carry0;
        *w2 ^= carry1;
    }

    /// The number of steps onto `open`: the sum of the weights of its cells. With `open`
    /// the empty cells the intervention rule leaves to the side, this is
    /// `Steps::of(position).count()` without the pass.
    #[inline(always)]
    pub(crate) fn count(&self, open: Bitboard) -> usize {
        let [w0, w1, w2] = self.planes;
        (open & w0).count() as usize
            + 2 * (open & w1).count() as usize
            + 4 * (open & w2).count() as usize
    }
}

/// A uniformly random action among the steps `guard_to` (by direction), the queen's
/// `queen_to` and a pass where `pass`; `None` when there is none (a forced pass is the
/// caller's). One draw of `rng` when there is an action: `k` below their
/// number picks, in order, the queen's steps, the guards' direction by direction, the
/// pass. The one statement of the draw, shared by [`LegalActions::random`] and
/// [`LegalActions::random_of`], so both play the same games.
#[inline(always)]
fn draw_step(
    guard_to: [Bitboard; 6],
    queen: Option<Cell>,
    queen_to: Bitboard,
    pass: bool,
    rng: &mut Rng,
) -> Option<Action> {
    // The seven sets in draw order.
    let sets = [
        queen_to,
        guard_to[0],
        guard_to[1],
        guard_to[2],
        guard_to[3],
        guard_to[4],
        guard_to[5],
    ];
    // `starts[j]`: the number of the first action of set `j`; `starts[7]`, of the pass.
    let mut starts = [0; 8];
    for (j, set) in sets.iter().enumerate() {
        starts[j + 1] = starts[j] + set.count() as usize;
    }
    let total = starts[7] + pass as usize;
    if total == 0 {
        return None;
    }
    let k = rng.below(total);
    // The set that holds action `k` is the number of sets after the first that start at or
    // before it. Counted without a branch: which set it is, is as random as the draw, so a
    // branch per set would be mispredicted about once per draw.
    let set = starts[1..]
        .iter()
        .map(|&start| (start <= k) as usize)
        .sum::<usize>();
    if set == sets.len() {
        return Some(Action::Pass);
    }
    let to = sets[set].nth_small(k - starts[set]);
    // A guard came from the cell behind `to` in its set's direction; the queen from hers
    // (chosen by a mask, not a branch).
    const BACK: [u8; 7] = {
        let mut back = [0; 7];
        let mut d = 0;
        while d < 6 {
            back[d + 1] = Direction::ALL[d].offset() as u8;
            d += 1;
        }
        back
    };
    let is_queen = set == 0;
    let guard_from = (to.index() as u8).wrapping_sub(BACK[set]);
    let queen_from = queen.map_or(0, |q| q.index() as u8);
    let queen_mask = 0u8.wrapping_sub(is_queen as u8);
    Some(Action::Step {
        from: Cell::from_index_unchecked((queen_from & queen_mask) | (guard_from & !queen_mask)),
        to,
    })
}

impl LegalActions {
    /// No action at all (what [`crate::Game::legal`] gives once the game is over).
    pub const NONE: LegalActions = LegalActions {
        kind: Kind::Placement {
            kind: PieceKind::Queen,
            to: Bitboard::EMPTY,
        },
    };

    /// Computes the legal actions of a position.
    #[inline]
    pub fn of(position: &Position) -> LegalActions {
        LegalActions::of_in(position.rules(), position)
    }

    /// [`LegalActions::of`] under the hot switches `hot` (those of the position).
    #[inline(always)]
    pub(crate) fn of_in(hot: impl HotRules, position: &Position) -> LegalActions {
        let rules = position.rules();
        let me = position.to_move();
        let empty = position.empty_cells();
        let kind = match position.phase() {
            Phase::Placement => {
                let kind = if position.in_hand(me, PieceKind::Queen) > 0 {
                    PieceKind::Queen
                } else {
                    PieceKind::Guard
                };
                let mut to = empty & Bitboard::OUTER;
                if kind == PieceKind::Queen
                    && me == Side::Black
                    && rules.opening() == Opening::PlacementOpposed
                {
                    to &= match position.queen(Side::White) {
                        Some(q) => q.opposite().bit(),
                        None => Bitboard::EMPTY,
                    };
                }
                Kind::Placement { kind, to }
            }
            Phase::Relocation => LegalActions::relocations(hot, position),
            Phase::Normal => {
                let steps = Steps::of_in(hot, position);
                Kind::Normal {
                    guard_to: steps.guard_sets(),
                    queen: steps.queen,
                    queen_to: steps.queen_to,
                    pass: steps.pass,
                    forced_pass: steps.forced_pass,
                }
            }
        };
        LegalActions { kind }
    }

    /// The number of legal actions of `position`: `LegalActions::of(position).count()`,
    /// computed in registers in normal play (perft's bulk count: no [`LegalActions`] value,
    /// no per-action work).
    #[inline(always)]
    pub fn count_of(position: &Position) -> usize {
        LegalActions::count_of_in(position.rules(), position)
    }

    /// [`LegalActions::count_of`] under the hot switches `hot` (those of the position).
    #[inline(always)]
    pub(crate) fn count_of_in(hot: impl HotRules, position: &Position) -> usize {
        if position.phase() == Phase::Normal {
            Steps::of_in(hot, position).count()
        } else {
            LegalActions::count_rare(position)
        }
    }

    /// Whether `position` has a legal action (`LegalActions::of(position).any()`), under
    /// the hot switches `hot` (those of the position): in normal play from the sets in
    /// registers, stopping at the first step found (the no-move rule's test).
    #[inline(always)]
    pub(crate) fn any_of_in(hot: impl HotRules, position: &Position) -> bool {
        match position.phase() {
            Phase::Normal => Steps::of_in(hot, position).any(),
            Phase::Relocation => LegalActions::any_relocation(hot, position),
            Phase::Placement => LegalActions::any_rare(hot, position),
        }
    }

    /// [`LegalActions::any_of_in`] in a relocation phase, from the relocations' sets
    /// (out of line).
    #[inline(never)]
    fn any_relocation(hot: impl HotRules, position: &Position) -> bool {
        Relocations::of_in(hot, position).any()
    }

    /// [`LegalActions::any_of_in`] in a placement phase (out of line).
    #[inline(never)]
    fn any_rare(hot: impl HotRules, position: &Position) -> bool {
        LegalActions::of_in(hot, position).any()
    }

    /// [`LegalActions::count_of`] in a placement or relocation phase (out of line).
    #[inline(never)]
    fn count_rare(position: &Position) -> usize {
        LegalActions::of(position).count()
    }

    /// A uniformly random legal action of `position`, the one
    /// `LegalActions::of(position).random(rng)` draws (the same draws of `rng`), computed in
    /// registers in normal play; `None` when there is none.
    #[inline(always)]
    pub fn random_of(position: &Position, rng: &mut Rng) -> Option<Action> {
        if position.phase() != Phase::Normal {
            return LegalActions::random_rare(position, rng);
        }
        LegalActions::random_step_in(position.rules(), position, rng)
    }

    /// [`LegalActions::random_of`] of a position in normal play under the hot switches
    /// `hot` (those of the position).
    #[inline(always)]
    pub(crate) fn random_step_in(
        hot: impl HotRules,
        position: &Position,
        rng: &mut Rng,
    ) -> Option<Action> {
        debug_assert_eq!(position.phase(), Phase::Normal);
        let steps = Steps::of_in(hot, position);
        let guard_to = steps.guard_sets();
        match draw_step(guard_to, steps.queen, steps.queen_to, steps.pass, rng) {
            None if steps.forced_pass => Some(Action::Pass),
            other => other,
        }
    }

    /// [`LegalActions::random_of`] in a placement or relocation phase (out of line).
    #[inline(never)]
    pub(crate) fn random_rare(position: &Position, rng: &mut Rng) -> Option<Action> {
        LegalActions::of(position).random(rng)
    }

    /// The relocations due in `position`, under the hot switches `hot` (out of line: the
    /// rare phase stays out of the hot path of normal play).
    #[inline(never)]
    fn relocations(hot: impl HotRules, position: &Position) -> Kind {
        let Relocations {
            from,
            to,
            next_ring,
        } = Relocations::of_in(hot, position);
        Kind::Relocation {
            from,
            to,
            next_ring,
        }
    }

    /// Whether the rules would force a pass if nothing else were legal.
    #[inline]
    fn forced_pass(&self) -> bool {
        matches!(
            self.kind,
            Kind::Normal {
                forced_pass: true,
                ..
            }
        )
    }

    /// The number of actions, not counting a forced pass.
    #[inline]
    fn count_unforced(&self) -> usize {
        match self.kind {
            Kind::Placement { to, .. } => to.count() as usize,
            Kind::Relocation {
                from,
                to,
                next_ring: false,
            } => from.count() as usize * to.count() as usize,
            Kind::Relocation { from, to, .. } => from
                .into_iter()
                .map(|f| relocation_targets(f, to, true).count() as usize)
                .sum(),
            Kind::Normal {
                guard_to,
                queen_to,
                pass,
                ..
            } => {
                guard_to.iter().map(|b| b.count() as usize).sum::<usize>()
                    + queen_to.count() as usize
                    + pass as usize
            }
        }
    }

    /// Whether the only legal action is a forced pass (`ludii`, nothing else possible).
    #[inline]
    pub fn is_forced_pass(&self) -> bool {
        self.forced_pass() && !self.any_unforced()
    }

    #[inline]
    fn any_unforced(&self) -> bool {
        match self.kind {
            Kind::Placement { to, .. } => to.any(),
            Kind::Relocation {
                from,
                to,
                next_ring,
            } => Relocations {
                from,
                to,
                next_ring,
            }
            .any(),
            Kind::Normal {
                guard_to,
                queen_to,
                pass,
                ..
            } => pass || queen_to.any() || guard_to.iter().any(|b| b.any()),
        }
    }

    /// The number of legal actions.
    #[inline]
    pub fn count(&self) -> usize {
        match self.count_unforced() {
            0 if self.forced_pass() => 1,
            n => n,
        }
    }

    /// Whether there is at least one legal action.
    #[inline]
    pub fn any(&self) -> bool {
        self.forced_pass() || self.any_unforced()
    }

    /// Whether an action is legal: a membership test on the sets, far cheaper than
    /// [`Position::check`] (which agrees with it and explains refusals).
    pub fn contains(&self, action: Action) -> bool {
        // Matched by reference: a match on a copy of the sets moved them all to the stack
        // before testing one.
        match (&self.kind, action) {
            (Kind::Placement { kind, to }, Action::Place { kind: k, to: c }) => {
                *kind == k && to.contains(c)
            }
            (
                Kind::Relocation {
                    from,
                    to,
                    next_ring,
                },
                Action::Relocate { from: f, to: c },
            ) => from.contains(f) && relocation_targets(f, *to, *next_ring).contains(c),
            (
                Kind::Normal {
                    guard_to,
                    queen,
                    queen_to,
                    ..
                },
                Action::Step { from, to },
            ) => {
                if *queen == Some(from) {
                    queen_to.contains(to)
                } else {
                    // The guard sets are translated sources: `to` in direction d's set
                    // means a movable guard stands on `to - d`.
                    from.direction_to(to)
                        .is_some_and(|d| guard_to[d.index()].contains(to))
                }
            }
            (Kind::Normal { pass, .. }, Action::Pass) => *pass || self.is_forced_pass(),
            _ => false,
        }
    }

    /// Every legal action, in (kind, cells) order (allocates; [`LegalActions::generate`]
    /// is the fast path).
    pub fn to_vec(&self) -> Vec<Action> {
        let mut list = ActionList::new();
        self.generate(&mut list);
        let mut actions = list.to_vec();
        actions.sort();
        actions
    }

    /// Writes every legal action into `list` (cleared first).
    pub fn generate(&self, list: &mut ActionList) {
        list.clear();
        self.for_each(|action| list.push(action));
    }

    /// Calls `visit` with every legal action, in the order of [`LegalActions::generate`],
    /// without listing them (perft walks its children so).
    #[inline(always)]
    pub(crate) fn for_each(&self, mut visit: impl FnMut(Action)) {
        let mut any = false;
        self.visit_arriving::<true>(Bitboard::ALL, |action| {
            any = true;
            visit(action);
        });
        if !any && self.forced_pass() {
            visit(Action::Pass);
        }
    }

    /// Writes the legal actions that end on a cell of `cells` into `list` (cleared first):
    /// steps, relocations and placements, never a pass. Search uses it to list only the
    /// captures. The actions come in the order [`LegalActions::generate`] gives them.
    pub fn generate_to(&self, cells: Bitboard, list: &mut ActionList) {
        list.clear();
        self.visit_arriving::<false>(cells, |action| list.push(action));
    }

    /// Visits the actions arriving on `cells` (every action, the pass included, when `ALL`:
    /// then `cells` is not read, which keeps full generation free of the restriction).
    #[inline(always)]
    fn visit_arriving<const ALL: bool>(&self, cells: Bitboard, mut visit: impl FnMut(Action)) {
        let keep = |set: Bitboard| if ALL { set } else { set & cells };
        match self.kind {
            Kind::Placement { kind, to } => {
                for to in keep(to) {
                    visit(Action::Place { kind, to });
                }
            }
            Kind::Relocation {
                from,
                to,
                next_ring,
            } => {
                for from in from {
                    for to in keep(relocation_targets(from, to, next_ring)) {
                        visit(Action::Relocate { from, to });
                    }
                }
            }
            Kind::Normal {
                guard_to,
                queen,
                queen_to,
                pass,
                ..
            } => {
                if let Some(q) = queen {
                    for to in keep(queen_to) {
                        visit(Action::Step { from: q, to });
                    }
                }
                for d in Direction::ALL {
                    let back = d.opposite();
                    for to in keep(guard_to[d.index()]) {
                        visit(Action::Step {
                            from: to.step_unchecked(back),
                            to,
                        });
                    }
                }
                if pass && ALL {
                    visit(Action::Pass);
                }
            }
        }
    }

    /// A uniformly random legal action, drawn without listing them (the playout fast path);
    /// `None` when there is none.
    pub fn random(&self, rng: &mut Rng) -> Option<Action> {
        let action = match self.kind {
            Kind::Placement { kind, to } => {
                let n = to.count() as usize;
                (n > 0).then(|| Action::Place {
                    kind,
                    to: to.nth(rng.below(n)),
                })
            }
            Kind::Relocation {
                from,
                to,
                next_ring: false,
            } => {
                let (nf, nt) = (from.count() as usize, to.count() as usize);
                (nf * nt > 0).then(|| {
                    let k = rng.below(nf * nt);
                    Action::Relocate {
                        from: from.nth(k / nt),
                        to: to.nth(k % nt),
                    }
                })
            }
            Kind::Relocation { from, to, .. } => {
                let total = self.count_unforced();
                (total > 0).then(|| {
                    let mut k = rng.below(total);
                    let mut chosen = None;
                    for f in from {
                        let targets = relocation_targets(f, to, true);
                        let n = targets.count() as usize;
                        if k < n {
                            chosen = Some(Action::Relocate {
                                from: f,
                                to: targets.nth(k),
                            });
                            break;
                        }
                        k -= n;
                    }
                    chosen.expect("k is below the number of relocations")
                })
            }
            Kind::Normal {
                guard_to,
                queen,
                queen_to,
                pass,
                ..
            } => draw_step(guard_to, queen, queen_to, pass, rng),
        };
        match action {
            None if self.forced_pass() => Some(Action::Pass),
            other => other,
        }
    }

    /// Whether `action` is legal in `position`: the verdict of
    /// `LegalActions::of(position).contains(action)`, tested directly for a step in normal
    /// play (an active piece of the side to move, a neighbour not farther out, empty, not
    /// the throne for a guard, not forbidden by the intervention rule) without generating
    /// the legal actions ([`crate::Game::play`]'s check); other actions go through the sets.
    #[inline]
    pub fn allows(position: &Position, action: Action) -> bool {
        match action {
            Action::Step { from, to } if position.in_normal_play() => {
                let me = position.to_move();
                let guard = !position.pieces(me, PieceKind::Queen).contains(from);
                position.active(me).contains(from)
                    && (from.step_set() & position.empty_cells()).contains(to)
                    && !(guard && to == Cell::THRONE)
                    && !LegalActions::intervention_forbids(position, me, to)
            }
            _ => LegalActions::of(position).contains(action),
        }
    }

    /// Whether the intervention rule forbids a step of `me` to `to`: `to` is one of
    /// [`Position::intervention_cells`], found from the other side's flankers next to it
    /// (the ends of any triple whose middle is `to` are neighbours of `to`).
    #[inline(always)]
    fn intervention_forbids(position: &Position, me: Side, to: Cell) -> bool {
        if position.rules().intervention() != crate::Intervention::Forbidden {
            return false;
        }
        let near = position.flankers(!me) & to.neighbor_set();
        near.count() >= 2 && position.between(near).contains(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions the fast paths are checked in.
    fn random_positions() -> Vec<Position> {
        crate::test_positions::random_positions(77, 4, 600)
    }

    /// The register fast paths against the `LegalActions` value they stand for: the same
    /// count, and the same action drawn with the same draws of the generator.
    #[test]
    fn fast_paths_agree_with_the_legal_actions() {
        let mut phases = [0; 3];
        for position in random_positions() {
            let legal = LegalActions::of(&position);
            assert_eq!(
                LegalActions::count_of(&position),
                legal.count(),
                "{position}"
            );
            let mut rng = Rng::new(position.hash());
            let mut same = rng.clone();
            assert_eq!(
                LegalActions::random_of(&position, &mut rng),
                legal.random(&mut same),
                "{position}"
            );
            assert_eq!(rng.next_u64(), same.next_u64());
            phases[position.phase() as usize] += 1;
        }
        assert!(phases.iter().all(|&n| n > 100), "{phases:?}");
    }

    /// The fast paths under the rule set's switches fixed at compile time (what playouts
    /// and perft run) against the `LegalActions` value: the same count, the same verdict
    /// of the no-move test, the same action drawn; and every legal action played so gives
    /// the position and captures of [`Position::play_unchecked`].
    #[test]
    fn fixed_rule_paths_agree_with_the_general_code() {
        let (mut no_moves, mut captures) = (0, 0);
        for (i, position) in random_positions().into_iter().enumerate() {
            let legal = LegalActions::of(&position);
            let rules = position.rules();
            let (count, any) = crate::hot::with_fixed_rules!(rules, |hot| (
                LegalActions::count_of_in(hot, &position),
                LegalActions::any_of_in(hot, &position)
            ));
            assert_eq!((count, any), (legal.count(), legal.any()), "{position}");
            no_moves += !any as u32;
            if position.phase() == Phase::Normal {
                let mut rng = Rng::new(position.hash());
                let mut same = rng.clone();
                let drawn = crate::hot::with_fixed_rules!(rules, |hot| {
                    LegalActions::random_step_in(hot, &position, &mut rng)
                });
                assert_eq!(drawn, legal.random(&mut same), "{position}");
                assert_eq!(rng.next_u64(), same.next_u64());
            }
            if i % 3 == 0 {
                legal.for_each(|action| {
                    let mut general = position;
                    let taken = general.play_unchecked(action);
                    let mut fixed = position;
                    let fixed_taken =
                        crate::hot::with_fixed_rules!(rules, |hot| fixed.play_in(hot, action));
                    assert_eq!(
                        (fixed, fixed.hash(), fixed_taken),
                        (general, general.hash(), taken),
                        "{action} in {position}"
                    );
                    captures += taken.any() as u32;
                });
            }
        }
        assert!(captures > 1_000, "{captures} captures");
        assert!(no_moves > 0, "no position without an action");
    }

    /// Steps counted by cell weights (perft's last ply) against the generated steps, in
    /// every position of normal play (perft's tests check them after the other side's
    /// steps, where they are used).
    #[test]
    fn step_weights_count_the_steps() {
        let mut checked = 0;
        for position in random_positions() {
            if position.phase() != Phase::Normal {
                continue;
            }
            let me = position.to_move();
            let weights = StepWeights::of(&position, me);
            let open = position
                .empty_cells()
                .and_not(position.intervention_cells(me));
            let steps = Steps::of_in(position.rules(), &position);
            let expected = steps.count() - steps.pass as usize;
            if expected > 0 || !steps.forced_pass {
                assert_eq!(weights.count(open), expected, "{position}");
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
