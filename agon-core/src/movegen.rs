//! Legal action generation. The legal actions of a position are computed once as a few sets
//! of cells ([`LegalActions`]), which can then be counted (perft's bulk counting), tested
//! for emptiness (the no-move rule), listed, or sampled uniformly (playouts) without
//! listing.

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
            Phase::Relocation => LegalActions::relocations(position),
            Phase::Normal => {
                let targets = empty & !position.intervention_cells(me);
                let active = position.active(me);
                let queens = position.pieces(me, PieceKind::Queen);
                let guards = active & !queens;
                let guard_targets = targets & !Bitboard::THRONE;
                let mut guard_to = [Bitboard::EMPTY; 6];
                for d in Direction::ALL {
                    guard_to[d.index()] = guards.step_targets(d) & guard_targets;
                }
                let queen = (active & queens).first();
                let queen_to = queen.map_or(Bitboard::EMPTY, |q| q.step_set() & targets);
                Kind::Normal {
                    guard_to,
                    queen,
                    queen_to,
                    pass: rules.touch_move() == TouchMove::On,
                    forced_pass: rules.forced_pass(),
                }
            }
        };
        LegalActions { kind }
    }

    /// The relocations due in `position` (out of line: the rare phase stays out of the
    /// hot path of normal play).
    #[inline(never)]
    fn relocations(position: &Position) -> Kind {
        let me = position.to_move();
        let mine_captured = position.side_pieces(me) & position.captured();
        let queen = mine_captured & position.pieces(me, PieceKind::Queen);
        // The queen first; otherwise any captured guard, the owner's choice.
        let (kind, from) = if queen.any() {
            (PieceKind::Queen, queen)
        } else {
            (PieceKind::Guard, mine_captured)
        };
        let open = position.relocation_open_cells(kind);
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
                next_ring: false,
            } => from.any() && to.any(),
            Kind::Relocation { from, to, .. } => from
                .into_iter()
                .map(|f| relocation_targets(f, to, true))
                .any(Bitboard::any),
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
        match (self.kind, action) {
            (Kind::Placement { kind, to }, Action::Place { kind: k, to: c }) => {
                kind == k && to.contains(c)
            }
            (
                Kind::Relocation {
                    from,
                    to,
                    next_ring,
                },
                Action::Relocate { from: f, to: c },
            ) => from.contains(f) && relocation_targets(f, to, next_ring).contains(c),
            (
                Kind::Normal {
                    guard_to,
                    queen,
                    queen_to,
                    ..
                },
                Action::Step { from, to },
            ) => {
                if queen == Some(from) {
                    queen_to.contains(to)
                } else {
                    // The guard sets are translated sources: `to` in direction d's set
                    // means a movable guard stands on `to - d`.
                    from.direction_to(to)
                        .is_some_and(|d| guard_to[d.index()].contains(to))
                }
            }
            (Kind::Normal { pass, .. }, Action::Pass) => pass || self.is_forced_pass(),
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
        self.generate_arriving::<true>(Bitboard::ALL, list);
        if list.is_empty() && self.forced_pass() {
            list.push(Action::Pass);
        }
    }

    /// Writes the legal actions that end on a cell of `cells` into `list` (cleared first):
    /// steps, relocations and placements, never a pass. Search uses it to list only the
    /// captures. The actions come in the order [`LegalActions::generate`] gives them.
    pub fn generate_to(&self, cells: Bitboard, list: &mut ActionList) {
        self.generate_arriving::<false>(cells, list);
    }

    /// Lists the actions arriving on `cells` (every action, the pass included, when `ALL`:
    /// then `cells` is not read, which keeps full generation free of the restriction).
    #[inline(always)]
    fn generate_arriving<const ALL: bool>(&self, cells: Bitboard, list: &mut ActionList) {
        let keep = |set: Bitboard| if ALL { set } else { set & cells };
        list.clear();
        match self.kind {
            Kind::Placement { kind, to } => {
                for to in keep(to) {
                    list.push(Action::Place { kind, to });
                }
            }
            Kind::Relocation {
                from,
                to,
                next_ring,
            } => {
                for from in from {
                    for to in keep(relocation_targets(from, to, next_ring)) {
                        list.push(Action::Relocate { from, to });
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
                        list.push(Action::Step { from: q, to });
                    }
                }
                for d in Direction::ALL {
                    let back = d.opposite();
                    for to in keep(guard_to[d.index()]) {
                        list.push(Action::Step {
                            from: to.step_unchecked(back),
                            to,
                        });
                    }
                }
                if pass && ALL {
                    list.push(Action::Pass);
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
            } => {
                let counts = guard_to.map(|b| b.count() as usize);
                let queen_count = queen_to.count() as usize;
                let total = queen_count + counts.iter().sum::<usize>() + pass as usize;
                if total == 0 {
                    None
                } else {
                    let mut k = rng.below(total);
                    if k < queen_count {
                        Some(Action::Step {
                            from: queen.expect("queen steps need a queen"),
                            to: queen_to.nth(k),
                        })
                    } else {
                        k -= queen_count;
                        let mut chosen = Action::Pass;
                        for d in Direction::ALL {
                            if k < counts[d.index()] {
                                let to = guard_to[d.index()].nth(k);
                                chosen = Action::Step {
                                    from: to.step_unchecked(d.opposite()),
                                    to,
                                };
                                break;
                            }
                            k -= counts[d.index()];
                        }
                        Some(chosen)
                    }
                }
            }
        };
        match action {
            None if self.forced_pass() => Some(Action::Pass),
            other => other,
        }
    }
}
