//! The board as text: the hexagon of docs/rules.md section 1, every cell at its place with its
//! name, pieces written before the name (`Qf1`, `gd1`), captured pieces in parentheses
//! (`(G)d9`), the throne marked `^`.

use agon_core::{Bitboard, Cell, Piece, PieceKind, Position, Side};

/// How to draw: plain ASCII, or with ANSI colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextStyle {
    /// Use ANSI colours (only when stdout is a terminal and NO_COLOR is unset).
    pub colour: bool,
}

/// Cells to point out: the last action's origin and destination, and what it captured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Highlights {
    /// Origin and destination of the last action.
    pub moved: Bitboard,
    /// Pieces the last action captured.
    pub captured: Bitboard,
}

const RESET: &str = "\x1b[0m";
const DIM: &str = "\x1b[2m";
const WHITE_PIECE: &str = "\x1b[1;33m";
const BLACK_PIECE: &str = "\x1b[1;36m";
const CAPTURED: &str = "\x1b[31m";
const THRONE: &str = "\x1b[1;35m";
const UNDERLINE: &str = "\x1b[4m";

/// Left margin, so that the widest token of file a still fits.
const MARGIN: i32 = 2;

/// The 21 lines of the board picture (no trailing newline on the last).
pub fn board_lines(position: &Position, style: TextStyle, marks: Highlights) -> Vec<String> {
    let mut rows: Vec<Vec<(i32, String, String)>> = vec![Vec::new(); 21];
    for cell in Cell::all() {
        let (plain, styled) = token(position, cell, style, marks);
        let row = (2 * cell.r() + cell.q() + 10) as usize;
        let right = 4 * (cell.q() + 5) + 3 + MARGIN;
        let left = right + 1 - plain.chars().count() as i32;
        rows[row].push((left, plain, styled));
    }
    rows.into_iter()
        .map(|mut row| {
            row.sort_by_key(|t| t.0);
            let mut line = String::new();
            let mut col = 0;
            for (left, plain, styled) in row {
                while col < left {
                    line.push(' ');
                    col += 1;
                }
                line.push_str(&styled);
                col += plain.chars().count() as i32;
            }
            line
        })
        .collect()
}

/// The plain text of a cell and the same text with colours.
fn token(position: &Position, cell: Cell, style: TextStyle, marks: Highlights) -> (String, String) {
    let name = cell.to_string();
    let throne = if cell == Cell::THRONE { "^" } else { "" };
    let piece = position.piece_at(cell).map(symbol).unwrap_or_default();
    let plain = format!("{piece}{throne}{name}");
    if !style.colour {
        return (plain.clone(), plain);
    }
    let piece_colour = match position.piece_at(cell) {
        Some(Piece { captured: true, .. }) => CAPTURED,
        Some(Piece {
            side: Side::White, ..
        }) => WHITE_PIECE,
        Some(_) => BLACK_PIECE,
        None => "",
    };
    let mut styled = String::new();
    if !piece.is_empty() {
        styled.push_str(piece_colour);
        if marks.captured.contains(cell) {
            styled.push_str(UNDERLINE);
        }
        styled.push_str(&piece);
        styled.push_str(RESET);
    }
    if !throne.is_empty() {
        styled.push_str(THRONE);
        styled.push_str(throne);
        styled.push_str(RESET);
    }
    if marks.moved.contains(cell) {
        styled.push_str(UNDERLINE);
    } else {
        styled.push_str(DIM);
    }
    styled.push_str(&name);
    styled.push_str(RESET);
    (plain, styled)
}

/// The letter of a piece: upper case White, lower case Black, in parentheses if captured.
pub fn symbol(piece: Piece) -> String {
    let letter = match piece.kind {
        PieceKind::Queen => 'Q',
        PieceKind::Guard => 'G',
    };
    let letter = match piece.side {
        Side::White => letter,
        Side::Black => letter.to_ascii_lowercase(),
    };
    if piece.captured {
        format!("({letter})")
    } else {
        letter.to_string()
    }
}

/// One line explaining the symbols.
pub const LEGEND: &str = "Q G: White queen and guard   q g: Black   (G): captured   ^: throne f6";
