//! Why an action is illegal, in words a player understands. This is the one place that
//! explains the rules; its verdicts always agree with [`Position::legal`].

use crate::position::Phase;
use crate::rules::{Opening, Relocation};
use crate::{
    Action, Bitboard, Cell, PieceKind, Position, QueenRelocatedBy, RelocateThrone, Side, TouchMove,
};
use std::fmt;

/// The reason an action is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalAction {
    /// The game is already over.
    GameOver,
    /// Pieces are still in hand: the action must be a placement.
    PlacementDue {
        /// The side to move.
        side: Side,
        /// The kind that must be placed next.
        kind: PieceKind,
    },
    /// A captured piece must be relocated first.
    RelocationDue {
        /// The side to move.
        side: Side,
        /// Where its captured piece (the queen, if she is captured) stands.
        cell: Cell,
        /// The kind of that piece.
        kind: PieceKind,
    },
    /// A placement was played when nothing is in hand.
    NothingInHand,
    /// The queen must be placed before any guard.
    QueenPlacedFirst,
    /// Placements go on empty outer-ring cells.
    PlacementOffOuterRing(Cell),
    /// Under `opening=placement-opposed`, Black's queen goes opposite White's.
    PlacementOpposed {
        /// The cell required.
        required: Cell,
    },
    /// Nothing stands on the cell.
    NoPiece(Cell),
    /// The piece on the cell belongs to the other side.
    NotYourPiece(Cell),
    /// The piece to relocate is not captured.
    NotCaptured(Cell),
    /// The destination is occupied.
    Occupied(Cell),
    /// Steps go to an adjacent cell.
    NotAdjacent {
        /// Origin.
        from: Cell,
        /// Destination.
        to: Cell,
    },
    /// Steps never go outward.
    Outward {
        /// Origin.
        from: Cell,
        /// Destination.
        to: Cell,
    },
    /// Only a queen may enter the throne.
    GuardOnThrone,
    /// The destination lies between two active enemy pieces.
    Intervention {
        /// Destination.
        to: Cell,
        /// The side whose pieces surround it.
        enemy: Side,
    },
    /// A captured guard is relocated to the outer ring only.
    GuardRelocationOffOuterRing(Cell),
    /// Under `relocation=next-ring`, a captured piece goes to one ring: the next ring
    /// outward with a legal cell.
    NotNextRing {
        /// Where the piece stands captured.
        from: Cell,
        /// The destination asked for.
        to: Cell,
        /// The ring it must go to.
        ring: u8,
    },
    /// Under `relocation=start-cell`, a captured piece goes back to a start cell of its
    /// side and kind.
    NotStartCell {
        /// The destination asked for.
        to: Cell,
        /// The piece's side.
        side: Side,
        /// The piece's kind.
        kind: PieceKind,
        /// The start cells it may go to.
        free: Bitboard,
    },
    /// Under `relocation=start-cell`, no start cell of the piece is legal, so it goes to
    /// the outer ring instead.
    StartCellsTaken {
        /// The destination asked for.
        to: Cell,
        /// The piece's side.
        side: Side,
        /// The piece's kind.
        kind: PieceKind,
    },
    /// `relocate-throne=forbidden`.
    RelocateToThroneForbidden,
    /// `queen-relocated-by=opponent`: the chooser may not put the queen between its pieces.
    ChooserSurrounds {
        /// Destination.
        to: Cell,
        /// The choosing side.
        chooser: Side,
    },
    /// Passing is not allowed now.
    PassNotAllowed,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalAction::*;
        match self {
            GameOver => write!(f, "the game is over"),
            PlacementDue { side, kind } => write!(
                f,
                "the placement opening is not finished: {side} must place its {} (like `{}@a1`)",
                kind.name(),
                kind.letter()
            ),
            RelocationDue { side, cell, kind } => write!(
                f,
                "a relocation is due: {side}'s captured {} on {cell} must be relocated first",
                kind.name()
            ),
            NothingInHand => write!(f, "no piece is left in hand to place"),
            QueenPlacedFirst => write!(f, "the queen must be placed before any guard"),
            PlacementOffOuterRing(c) => write!(
                f,
                "{c} is not an empty cell of the outer ring, where pieces are placed"
            ),
            PlacementOpposed { required } => write!(
                f,
                "with opening=placement-opposed Black's queen must go on {required}, opposite White's"
            ),
            NoPiece(c) => write!(f, "there is no piece on {c}"),
            NotYourPiece(c) => write!(f, "the piece on {c} belongs to the opponent"),
            NotCaptured(c) => write!(f, "the piece on {c} is not captured, so it cannot be relocated"),
            Occupied(c) => write!(f, "{c} is occupied"),
            NotAdjacent { from, to } => write!(f, "{to} is not next to {from}"),
            Outward { from, to } => write!(
                f,
                "pieces never step outward ({from} is on ring {}, {to} on ring {})",
                from.ring(),
                to.ring()
            ),
            GuardOnThrone => write!(f, "guards may not enter the throne"),
            Intervention { to, enemy } => write!(f, "{to} lies between two {enemy} pieces"),
            GuardRelocationOffOuterRing(c) => write!(
                f,
                "a captured guard is relocated to an empty outer-ring cell, and {c} is on ring {}",
                c.ring()
            ),
            NotNextRing { from, to, ring } => {
                let next = (from.ring() + 1).min(5);
                write!(
                    f,
                    "with relocation=next-ring the captured piece on {from} (ring {}) goes to ring \
                     {ring}",
                    from.ring()
                )?;
                if *ring > next {
                    let skipped = if *ring == next + 1 {
                        format!("ring {next} has")
                    } else {
                        format!("rings {next} to {} have", ring - 1)
                    };
                    write!(f, ", the next ring outward with a legal cell ({skipped} none)")?;
                }
                write!(f, ", and {to} is on ring {}", to.ring())
            }
            NotStartCell {
                to,
                side,
                kind,
                free,
            } => {
                let cells: Vec<String> = free.into_iter().map(|c| c.to_string()).collect();
                write!(
                    f,
                    "with relocation=start-cell a captured {side} {} goes back to a free start \
                     cell of its kind ({}), and {to} is not one",
                    kind.name(),
                    cells.join(", ")
                )
            }
            StartCellsTaken { to, side, kind } => write!(
                f,
                "with relocation=start-cell no start cell of a {side} {} is free, so it goes to \
                 the outer ring, and {to} is on ring {}",
                kind.name(),
                to.ring()
            ),
            RelocateToThroneForbidden => write!(
                f,
                "with relocate-throne=forbidden a relocated queen may not go on the throne"
            ),
            ChooserSurrounds { to, chooser } => write!(
                f,
                "{chooser} chooses where the queen goes and may not put her on {to}, between two {chooser} pieces"
            ),
            PassNotAllowed => write!(
                f,
                "passing is only allowed with touch-move=on, on a turn with no relocation due"
            ),
        }
    }
}

impl std::error::Error for IllegalAction {}

pub(crate) fn check(position: &Position, action: Action) -> Result<(), IllegalAction> {
    use IllegalAction::*;
    let rules = position.rules();
    let me = position.to_move();
    let opp = !me;
    let phase = position.phase();
    match (phase, action) {
        (Phase::Placement, Action::Place { kind, to }) => {
            if position.in_hand(me, kind) == 0 {
                return Err(NothingInHand);
            }
            if kind == PieceKind::Guard && position.in_hand(me, PieceKind::Queen) > 0 {
                return Err(QueenPlacedFirst);
            }
            if to.ring() != 5 || position.piece_at(to).is_some() {
                return Err(PlacementOffOuterRing(to));
            }
            if kind == PieceKind::Queen
                && me == Side::Black
                && rules.opening() == Opening::PlacementOpposed
            {
                if let Some(q) = position.queen(Side::White) {
                    if to != q.opposite() {
                        return Err(PlacementOpposed {
                            required: q.opposite(),
                        });
                    }
                }
            }
            Ok(())
        }
        (Phase::Placement, _) => Err(PlacementDue {
            side: me,
            kind: if position.in_hand(me, PieceKind::Queen) > 0 {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            },
        }),
        (_, Action::Place { .. }) => Err(NothingInHand),
        (Phase::Relocation, Action::Relocate { from, to }) => {
            let mine_captured = position.side_pieces(me) & position.captured();
            let due_queen = position.pieces(me, PieceKind::Queen) & mine_captured;
            let piece = position.piece_at(from).ok_or(NoPiece(from))?;
            if piece.side != me {
                return Err(NotYourPiece(from));
            }
            if !piece.captured {
                return Err(NotCaptured(from));
            }
            if let Some(q) = due_queen.first() {
                if q != from {
                    return Err(RelocationDue {
                        side: me,
                        cell: q,
                        kind: PieceKind::Queen,
                    });
                }
            }
            if position.piece_at(to).is_some() {
                return Err(Occupied(to));
            }
            let kind = piece.kind;
            if kind == PieceKind::Queen {
                if to == Cell::THRONE && rules.relocate_throne() == RelocateThrone::Forbidden {
                    return Err(RelocateToThroneForbidden);
                }
                let chooser = rules.queen_chooser(me);
                if rules.queen_relocated_by() == QueenRelocatedBy::Opponent
                    && position.between_pieces_of(chooser).contains(to)
                {
                    return Err(ChooserSurrounds { to, chooser });
                }
            }
            let open = position.relocation_open_cells(kind);
            let zone = position.relocation_zone(kind, from, open);
            if !zone.contains(to) {
                return Err(match rules.relocation() {
                    Relocation::NextRing => NotNextRing {
                        from,
                        to,
                        ring: zone.first().map_or(5, Cell::ring),
                    },
                    Relocation::StartCell if zone == Position::start_cells(me, kind) => {
                        NotStartCell {
                            to,
                            side: me,
                            kind,
                            free: zone & open,
                        }
                    }
                    Relocation::StartCell => StartCellsTaken { to, side: me, kind },
                    // Only a guard has a zone under outer-ring, and no relocation is ever
                    // due under removed.
                    Relocation::OuterRing | Relocation::Removed => GuardRelocationOffOuterRing(to),
                });
            }
            if position.relocation_intervention_cells(me).contains(to) {
                return Err(Intervention { to, enemy: opp });
            }
            Ok(())
        }
        (Phase::Relocation, _) => {
            let mine_captured = position.side_pieces(me) & position.captured();
            let queen = position.pieces(me, PieceKind::Queen) & mine_captured;
            let (cell, kind) = match queen.first() {
                Some(q) => (q, PieceKind::Queen),
                None => (
                    mine_captured.first().expect("relocation phase"),
                    PieceKind::Guard,
                ),
            };
            Err(RelocationDue {
                side: me,
                cell,
                kind,
            })
        }
        (Phase::Normal, Action::Relocate { from, .. }) => match position.piece_at(from) {
            None => Err(NoPiece(from)),
            Some(p) if p.side != me => Err(NotYourPiece(from)),
            Some(_) => Err(NotCaptured(from)),
        },
        (Phase::Normal, Action::Pass) => {
            if rules.touch_move() == TouchMove::On || position.legal().is_forced_pass() {
                Ok(())
            } else {
                Err(PassNotAllowed)
            }
        }
        (Phase::Normal, Action::Step { from, to }) => {
            let piece = position.piece_at(from).ok_or(NoPiece(from))?;
            if piece.side != me {
                return Err(NotYourPiece(from));
            }
            // A side with a captured piece is in the relocation phase, so `piece` is active.
            debug_assert!(!piece.captured);
            if from.distance(to) != 1 {
                return Err(NotAdjacent { from, to });
            }
            if to.ring() > from.ring() {
                return Err(Outward { from, to });
            }
            if position.piece_at(to).is_some() {
                return Err(Occupied(to));
            }
            if to == Cell::THRONE && piece.kind == PieceKind::Guard {
                return Err(GuardOnThrone);
            }
            if position.intervention_cells(me).contains(to) {
                return Err(Intervention { to, enemy: opp });
            }
            Ok(())
        }
    }
}
