//! Conversions between the reference's values and the engine's public types, by cell name
//! (so that no geometry is shared).

use super::hex::Hex;
use super::position::{Board, Colour, Kind, Man, Move};
use agon_core::{Action, Cell, Outcome, PieceKind, Position, Side, Termination};

/// The engine cell of a reference cell.
pub fn cell(h: Hex) -> Cell {
    Cell::parse(&h.name()).expect("reference cells have engine names")
}

/// The reference cell of an engine cell.
pub fn hex(c: Cell) -> Hex {
    Hex::from_name(&c.to_string()).expect("engine cells have reference names")
}

fn colour(side: Side) -> Colour {
    match side {
        Side::White => Colour::White,
        Side::Black => Colour::Black,
    }
}

/// The engine side of a reference colour.
pub fn side(colour: Colour) -> Side {
    match colour {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    }
}

fn kind(kind: PieceKind) -> Kind {
    match kind {
        PieceKind::Queen => Kind::Queen,
        PieceKind::Guard => Kind::Guard,
    }
}

/// The engine action of a reference action.
pub fn action(mv: Move) -> Action {
    match mv {
        Move::Step(from, to) => Action::Step {
            from: cell(from),
            to: cell(to),
        },
        Move::Relocate(from, to) => Action::Relocate {
            from: cell(from),
            to: cell(to),
        },
        Move::Place(k, to) => Action::Place {
            kind: match k {
                Kind::Queen => PieceKind::Queen,
                Kind::Guard => PieceKind::Guard,
            },
            to: cell(to),
        },
        Move::Pass => Action::Pass,
    }
}

/// The reference action of an engine action.
pub fn reference_move(action: Action) -> Move {
    match action {
        Action::Step { from, to } => Move::Step(hex(from), hex(to)),
        Action::Relocate { from, to } => Move::Relocate(hex(from), hex(to)),
        Action::Place { kind: k, to } => Move::Place(kind(k), hex(to)),
        Action::Pass => Move::Pass,
    }
}

/// The reference board of an engine position (read through its public accessors).
pub fn board(position: &Position) -> Board {
    let mut board = Board::empty(colour(position.to_move()));
    for c in Cell::all() {
        if let Some(p) = position.piece_at(c) {
            board.set(
                hex(c),
                Some(Man {
                    colour: colour(p.side),
                    kind: kind(p.kind),
                    captured: p.captured,
                }),
            );
        }
    }
    for s in Side::BOTH {
        for k in [PieceKind::Queen, PieceKind::Guard] {
            board.set_in_hand(colour(s), kind(k), position.in_hand(s, k));
        }
    }
    board
}

/// The engine's outcome in the reference's words (`None` for a harness's move limit, which
/// the reference does not know).
pub fn outcome(outcome: Outcome) -> Option<(Option<Colour>, &'static str)> {
    if outcome.termination == Termination::MoveLimit {
        return None;
    }
    Some((
        outcome.result.winner().map(colour),
        outcome.termination.name(),
    ))
}
