//! Sentences about a game's state, shared by `show` and `play`.

use crate::board_text::symbol;
use agon_core::{Game, Phase, PieceKind, Relocation, Side};

/// Who is to do what: "White to move: 27 legal actions", "Black must relocate ...", or how
/// the game ended.
pub fn turn_line(game: &Game) -> String {
    if let Some(outcome) = game.outcome() {
        let winner = match outcome.result.winner() {
            Some(side) => format!("{side} wins"),
            None => "draw".into(),
        };
        return format!(
            "Game over: {} ({winner}, {})",
            outcome.result,
            describe_termination(outcome.termination)
        );
    }
    let position = game.position();
    let side = position.to_move();
    let count = position.legal().count();
    let actions = if count == 1 {
        // A forced action (such as a relocation to the only free start cell) is still
        // typed and recorded: offer it.
        match position.legal().to_vec().first() {
            Some(only) => format!("1 legal action, {only}"),
            None => "1 legal action".to_string(),
        }
    } else {
        format!("{count} legal actions")
    };
    match position.phase() {
        Phase::Placement => {
            let kind = if position.in_hand(side, PieceKind::Queen) > 0 {
                "queen"
            } else {
                "a guard"
            };
            let left =
                position.in_hand(side, PieceKind::Queen) + position.in_hand(side, PieceKind::Guard);
            format!("{side} to place {kind} ({left} in hand): {actions}")
        }
        Phase::Relocation => {
            let captured = position.side_pieces(side) & position.captured();
            let queen = position.pieces(side, PieceKind::Queen) & captured;
            let cells = |set: agon_core::Bitboard| {
                set.into_iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let decider = position.decider();
            if let Some(cell) = queen.first() {
                if decider != side {
                    return format!(
                        "{side}'s captured queen on {cell} must be relocated, and {decider} chooses where ({cell}@CELL): {actions}"
                    );
                }
                return format!("{side} must relocate its captured queen ({cell}@CELL): {actions}");
            }
            if captured.count() == 1 {
                let cell = cells(captured);
                format!("{side} must relocate its captured guard ({cell}@CELL): {actions}")
            } else {
                format!(
                    "{side} must relocate one of its captured guards on {}: {actions}",
                    cells(captured)
                )
            }
        }
        Phase::Normal => format!("{side} to move: {actions}"),
    }
}

/// A termination in words.
pub fn describe_termination(termination: agon_core::Termination) -> &'static str {
    use agon_core::Termination::*;
    match termination {
        Formation => "formation: queen on the throne ringed by her guards",
        SixGuards => "six guards closed the ring without their queen on the throne",
        QueenCaptured => "the queen was captured and left play",
        NoMoves => "the side to move had no legal action",
        Repetition => "repetition of the position",
        DoublePass => "two passes in a row",
        MoveLimit => "move limit reached",
        Resignation => "resignation",
        TimeForfeit => "time forfeit",
        Agreement => "agreement",
        IllegalMove => "an engine sent an illegal action",
        Crash => "an engine crashed or broke the protocol",
        Timeout => "an engine did not answer in time",
        Adjudication => "adjudicated from the players' search scores",
    }
}

/// The captured pieces of both sides, like `White (G)d9; Black none`.
pub fn captured_line(game: &Game) -> Option<String> {
    let position = game.position();
    if position.captured().is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    for side in Side::BOTH {
        let cells: Vec<String> = (position.side_pieces(side) & position.captured())
            .into_iter()
            .map(|c| {
                let piece = position.piece_at(c).expect("captured piece");
                format!("{}{c}", symbol(piece))
            })
            .collect();
        if !cells.is_empty() {
            parts.push(format!("{side} {}", cells.join(" ")));
        }
    }
    Some(format!("Captured: {}", parts.join("; ")))
}

/// The last action, who played it and what it captured.
pub fn last_action_line(game: &Game) -> Option<String> {
    let ply = game.plies().last()?;
    let n = game.ply_count();
    let mover = game.position_before(n - 1)?.to_move();
    let captures: Vec<String> = ply.captures.into_iter().map(|c| c.to_string()).collect();
    let captured = if captures.is_empty() {
        String::new()
    } else {
        format!(", capturing {}", captures.join(" "))
    };
    Some(format!(
        "Last action: ply {n}, {mover} {}{captured}",
        ply.action
    ))
}

/// How many pieces each side has lost for good (`relocation=removed`), like `Removed from
/// play: White 2; Black 0`; `None` under rules that keep captured pieces.
pub fn removed_line(game: &Game) -> Option<String> {
    let position = game.position();
    if position.rules().relocation() != Relocation::Removed {
        return None;
    }
    let counts: Vec<String> = Side::BOTH
        .into_iter()
        .map(|side| format!("{side} {}", position.removed_count(side)))
        .collect();
    Some(format!("Removed from play: {}", counts.join("; ")))
}

/// Pieces still in hand (placement openings).
pub fn in_hand_line(game: &Game) -> Option<String> {
    let position = game.position();
    let mut parts = Vec::new();
    for side in Side::BOTH {
        let q = position.in_hand(side, PieceKind::Queen);
        let g = position.in_hand(side, PieceKind::Guard);
        if q + g > 0 {
            parts.push(format!("{side} {q} queen, {g} guards"));
        }
    }
    (!parts.is_empty()).then(|| format!("In hand: {}", parts.join("; ")))
}
