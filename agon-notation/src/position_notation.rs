//! The one-line position notation (FEN-like): every cell, captured marks, pieces in hand,
//! the side to move, and (under `ludii` only) a pending pass.
//!
//! ```text
//! 1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w -
//! ```
//!
//! Fields, separated by single spaces:
//! 1. the board: the eleven files `a` to `l`, separated by `/`, each listed from rank 1
//!    upward; `Q`/`G` are White's queen and guards, `q`/`g` Black's, a `*` after a letter
//!    marks the piece captured, and a number (1 to 11) stands for that many empty cells;
//! 2. the side to move: `w` or `b`;
//! 3. pieces in hand: `-`, or White's then Black's, queen before guards, one letter per
//!    piece (`QGGGGGGqgggggg` at the start of a placement opening);
//! 4. only under `ludii`, and only right after a pass: `1`, the number of consecutive passes
//!    just played (a second pass would draw the game).
//!
//! Reading is two steps, as for chess's FEN in shakmaty: [`parse_setup`] reads the syntax
//! into an [`agon_core::Setup`] (any arrangement), and [`parse_position`] adds the rule set
//! and asks [`Position::from_setup`] whether the setup can arise in a game.
//!
//! The rule set is not part of the string: a position string is always read under a known
//! rule set (a record's `Variant` tag, a `--rules` option), and keeping it out keeps the
//! string short and free of the commas and `=` signs of rule-set names.
//! The writer's output is the only string the strict parser accepts for a position, so
//! equal positions have equal strings.

use agon_core::{
    Cell, Piece, PieceKind, Position, PositionErrorKinds, Rules, Setup, Side, FILE_LETTERS,
};
use std::fmt;

/// The standard start position in position notation.
pub const START_POSITION: &str = "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w -";

/// The start of the placement openings: an empty board and every piece in hand.
pub const PLACEMENT_START_POSITION: &str = "6/7/8/9/10/11/10/9/8/7/6 w QGGGGGGqgggggg";

/// Why a text is not a position string: the 1-based column (in characters) where the
/// problem was found, and what it is. Displayed as `column C: ` and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// 1-based column of the offending character (one past the end for a missing part;
    /// for a rule problem, the field it concerns).
    pub column: usize,
    /// What was wrong.
    pub problem: PositionProblem,
}

/// What is wrong with a position string: a syntax problem with the text found, or (as
/// [`PositionProblem::Illegal`]) agon-core's refusal of the setup it describes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionProblem {
    /// The text is empty.
    Empty,
    /// A file is not followed by `/`.
    MissingSlash {
        /// The file letter.
        file: char,
        /// Its number of cells.
        cells: usize,
        /// What stands there instead (`None`: the end of the text).
        found: Option<char>,
    },
    /// A `/` after the eleventh file.
    TwelfthFile,
    /// A field is not preceded by a space.
    MissingSpace {
        /// The field expected next.
        field: PositionField,
        /// What stands there instead (`None`: the end of the text).
        found: Option<char>,
    },
    /// Two spaces between fields.
    DoubleSpace,
    /// The side to move is not `w` or `b`.
    UnknownSide {
        /// What stands there instead (`None`: the end of the text).
        found: Option<char>,
    },
    /// A pass count other than `1`.
    PassCount {
        /// What stands there instead (`None`: the end of the text).
        found: Option<char>,
    },
    /// Text after the last field.
    Trailing {
        /// The first character after it.
        found: char,
    },
    /// A run of empty cells written with a leading zero.
    LeadingZero,
    /// A run of empty cells that goes past the end of its file.
    RunPastEnd {
        /// The file letter.
        file: char,
        /// Its number of cells.
        cells: usize,
        /// The run as written.
        run: String,
        /// The cells described before it.
        filled: usize,
    },
    /// A character on the board that is neither a piece, `*` nor a number.
    UnknownPiece {
        /// The character.
        found: char,
    },
    /// A piece after the last cell of its file.
    PieceOffBoard {
        /// The file letter.
        file: char,
        /// Its number of cells.
        cells: usize,
    },
    /// A file that describes fewer cells than it has.
    ShortFile {
        /// The file letter.
        file: char,
        /// Its number of cells.
        cells: usize,
        /// The cells described.
        filled: usize,
        /// What stands after them (`None`: the end of the text).
        found: Option<char>,
    },
    /// A character in the pieces in hand that is no piece.
    UnknownPieceInHand {
        /// The character.
        found: char,
    },
    /// Pieces in hand out of their order (White's then Black's, queen before guards).
    HandOrder,
    /// The pieces-in-hand field is empty.
    MissingHand,
    /// A pass count under rules that never write one.
    PassCountUnderRules {
        /// The rules the string was read under.
        rules: Rules,
    },
    /// The setup is well written but cannot arise in a game ([`Position::from_setup`]).
    Illegal(agon_core::PositionError),
}

/// A field of a position string after the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionField {
    /// The side to move.
    Side,
    /// The pieces in hand.
    Hand,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.problem)
    }
}

impl std::error::Error for PositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.problem.source()
    }
}

/// A character found, or the end of the text, as messages name it.
struct Found(Option<char>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(c) => write!(f, "`{c}`"),
            None => f.write_str("the end"),
        }
    }
}

impl fmt::Display for PositionField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionField::Side => "the side to move (`w` or `b`)",
            PositionField::Hand => "the pieces in hand (`-` or letters like `QGGGGGGqgggggg`)",
        })
    }
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionProblem::*;
        match self {
            Empty => write!(
                f,
                "empty position string; expected a board like `{START_POSITION}`"
            ),
            MissingSlash { file, cells, found } => write!(
                f,
                "expected `/` after file {file} ({cells} cells), found {}",
                Found(*found)
            ),
            TwelfthFile => f.write_str("the board has 11 files (a to l); found a 12th `/`"),
            MissingSpace { field, found } => write!(
                f,
                "expected a space and then {field}, found {}",
                Found(*found)
            ),
            DoubleSpace => f.write_str("fields are separated by a single space"),
            UnknownSide { found } => {
                write!(f, "unknown side {}: expected `w` or `b`", Found(*found))
            }
            PassCount { found } => write!(
                f,
                "unexpected {}: the only pass count is `1` (a pass was just played); omit it \
                 otherwise",
                Found(*found)
            ),
            Trailing { found } => {
                write!(f, "unexpected {} after the last field", Found(Some(*found)))
            }
            LeadingZero => {
                f.write_str("a run of empty cells is a number from 1 to 11 without leading zero")
            }
            RunPastEnd {
                file,
                cells,
                run,
                filled,
            } => write!(
                f,
                "file {file} has {cells} cells ({file}1 to {file}{cells}); {run} empty cells \
                 after {filled} go past its end"
            ),
            UnknownPiece { found } => write!(
                f,
                "unknown piece `{found}`: expected Q, G (White), q, g (Black), a `*` after a \
                 piece for captured, or a number of empty cells"
            ),
            PieceOffBoard { file, cells } => write!(
                f,
                "file {file} has {cells} cells ({file}1 to {file}{cells}); this piece would be \
                 off the board"
            ),
            ShortFile {
                file,
                cells,
                filled,
                found,
            } => write!(
                f,
                "file {file} has {cells} cells, but only {filled} are described; expected a \
                 piece or a number, found {}",
                Found(*found)
            ),
            UnknownPieceInHand { found } => write!(
                f,
                "unknown piece `{found}` in hand: expected Q, G, q or g, or `-` for none"
            ),
            HandOrder => f.write_str(
                "pieces in hand are listed White's then Black's, queen before guards (like \
                 `QGGGGGGqgggggg`)",
            ),
            MissingHand => {
                f.write_str("expected the pieces in hand: `-` or letters like `QGGGGGGqgggggg`")
            }
            PassCountUnderRules { rules } => write!(
                f,
                "unexpected `1`: a pass count is only written under `ludii`, and the rules are \
                 `{rules}`"
            ),
            Illegal(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for PositionProblem {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionProblem::Illegal(error) => Some(error),
            _ => None,
        }
    }
}

/// Writes a position in position notation (the canonical string: one position, one string).
pub fn format_position(position: &Position) -> String {
    let mut out = String::with_capacity(64);
    for (file_index, _) in FILE_LETTERS.iter().enumerate() {
        if file_index > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in file_cells(file_index) {
            match position.piece_at(cell) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece_letter(piece.side, piece.kind));
                    if piece.captured {
                        out.push('*');
                    }
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push(' ');
    out.push(side_letter(position.to_move()));
    out.push(' ');
    let hand_start = out.len();
    for side in Side::BOTH {
        for kind in [PieceKind::Queen, PieceKind::Guard] {
            for _ in 0..position.in_hand(side, kind) {
                out.push(piece_letter(side, kind));
            }
        }
    }
    if out.len() == hand_start {
        out.push('-');
    }
    if position.rules().forced_pass() && position.passes() > 0 {
        out.push_str(&format!(" {}", position.passes()));
    }
    out
}

/// Parses a position string under a rule set, strictly: only the canonical form written by
/// [`format_position`] is accepted ([`parse_setup`]), and the position must be one that can
/// arise in a game under `rules` ([`Position::from_setup`]: piece counts, no guard on the
/// throne, pieces in hand only during a placement opening, ...). A rule problem is reported
/// at the column of the field it concerns, with every problem in the message.
///
/// ```
/// use agon_core::{Position, Rules};
/// use agon_notation::{format_position, parse_position, START_POSITION};
/// let start = parse_position(START_POSITION, Rules::STANDARD).unwrap();
/// assert_eq!(start, Position::start(Rules::STANDARD));
/// assert_eq!(format_position(&start), START_POSITION);
/// let error = parse_position("1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 x -", Rules::STANDARD);
/// assert_eq!(error.unwrap_err().column, 43);
/// ```
pub fn parse_position(text: &str, rules: Rules) -> Result<Position, PositionError> {
    let fields = Parser::new(text).fields()?;
    if let Some(column) = fields.pass_column {
        if !rules.forced_pass() {
            return Err(PositionError {
                column,
                problem: PositionProblem::PassCountUnderRules { rules },
            });
        }
    }
    let columns = fields.columns();
    Position::from_setup(fields.setup, rules).map_err(|e| PositionError {
        column: columns(e.kinds()),
        problem: PositionProblem::Illegal(e),
    })
}

/// Reads the syntax of a position string into a [`Setup`], strictly (only the canonical
/// form written by [`format_position`]), without asking whether the arrangement can arise
/// in a game: that is [`Position::from_setup`]'s business ([`parse_position`] does both).
///
/// ```
/// use agon_core::{Position, PositionErrorKinds, Rules};
/// use agon_notation::parse_setup;
/// // Syntax is fine: a lone White guard on the throne.
/// let setup = parse_setup("6/7/8/9/10/5G5/10/9/8/7/6 w -").unwrap();
/// assert_eq!(setup.pieces.len(), 1);
/// let error = Position::from_setup(setup, Rules::STANDARD).unwrap_err();
/// assert!(error.kinds().contains(PositionErrorKinds::GUARD_ON_THRONE));
/// ```
pub fn parse_setup(text: &str) -> Result<Setup, PositionError> {
    Parser::new(text).fields().map(|fields| fields.setup)
}

/// A parsed position string: the setup, and where its fields stand (1-based columns) for
/// pointing at rule problems.
struct Fields {
    setup: Setup,
    /// The column of the piece on the throne, if any.
    throne_column: Option<usize>,
    /// The column of the pieces in hand.
    hand_column: usize,
    /// The column of the pass count, if written.
    pass_column: Option<usize>,
}

impl Fields {
    /// The column of the first field (in the text) that a set of rule problems concerns.
    fn columns(&self) -> impl Fn(PositionErrorKinds) -> usize {
        let (throne, hand, pass) = (self.throne_column, self.hand_column, self.pass_column);
        move |kinds| {
            kinds
                .iter()
                .map(|kind| match kind {
                    PositionErrorKinds::GUARD_ON_THRONE => throne.unwrap_or(hand),
                    PositionErrorKinds::PASS_DURING_PLACEMENT => pass.unwrap_or(hand),
                    _ => hand,
                })
                .min()
                .unwrap_or(hand)
        }
    }
}

/// The cells of a file (0 = `a`), from rank 1 upward.
fn file_cells(file_index: usize) -> impl Iterator<Item = Cell> {
    let q = file_index as i32 - 5;
    (-5..=5)
        .rev()
        .filter_map(move |r| Cell::from_axial(q, r))
        .filter(move |c| c.q() == q)
}

fn piece_letter(side: Side, kind: PieceKind) -> char {
    match side {
        Side::White => kind.letter(),
        Side::Black => kind.letter().to_ascii_lowercase(),
    }
}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'w',
        Side::Black => 'b',
    }
}

struct Parser<'a> {
    chars: Vec<(usize, char)>,
    /// Index into `chars`.
    at: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn new(text: &str) -> Parser<'_> {
        Parser {
            chars: text.char_indices().collect(),
            at: 0,
            text,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|&(_, c)| c)
    }

    fn column(&self) -> usize {
        self.at + 1
    }

    fn error<T>(&self, column: usize, problem: PositionProblem) -> Result<T, PositionError> {
        Err(PositionError { column, problem })
    }

    fn fields(mut self) -> Result<Fields, PositionError> {
        if self.text.is_empty() {
            return self.error(1, PositionProblem::Empty);
        }
        let mut setup = Setup::empty();
        let mut throne_column = None;
        for file_index in 0..FILE_LETTERS.len() {
            if file_index > 0 {
                match self.peek() {
                    Some('/') => self.at += 1,
                    _ => {
                        let problem = PositionProblem::MissingSlash {
                            file: FILE_LETTERS[file_index - 1] as char,
                            cells: file_cells(file_index - 1).count(),
                            found: self.peek(),
                        };
                        return self.error(self.column(), problem);
                    }
                }
            }
            self.file(file_index, &mut setup, &mut throne_column)?;
        }
        if self.peek() == Some('/') {
            return self.error(self.column(), PositionProblem::TwelfthFile);
        }
        self.space(PositionField::Side)?;
        let side_column = self.column();
        let side = match self.peek() {
            Some('w') => Side::White,
            Some('b') => Side::Black,
            found => return self.error(side_column, PositionProblem::UnknownSide { found }),
        };
        self.at += 1;
        setup.to_move = side;
        self.space(PositionField::Hand)?;
        let hand_column = self.column();
        self.hand(&mut setup)?;
        let mut pass_column = None;
        if self.peek() == Some(' ') {
            self.at += 1;
            let column = self.column();
            match self.peek() {
                Some('1') => {
                    self.at += 1;
                    setup.passes = 1;
                    pass_column = Some(column);
                }
                found => return self.error(column, PositionProblem::PassCount { found }),
            }
        }
        if let Some(found) = self.peek() {
            return self.error(self.column(), PositionProblem::Trailing { found });
        }
        Ok(Fields {
            setup,
            throne_column,
            hand_column,
            pass_column,
        })
    }

    fn space(&mut self, field: PositionField) -> Result<(), PositionError> {
        if self.peek() == Some(' ') {
            self.at += 1;
            if self.peek() == Some(' ') {
                return self.error(self.column(), PositionProblem::DoubleSpace);
            }
            Ok(())
        } else {
            let found = self.peek();
            self.error(
                self.column(),
                PositionProblem::MissingSpace { field, found },
            )
        }
    }

    fn file(
        &mut self,
        file_index: usize,
        setup: &mut Setup,
        throne_column: &mut Option<usize>,
    ) -> Result<(), PositionError> {
        let cells: Vec<Cell> = file_cells(file_index).collect();
        let letter = FILE_LETTERS[file_index] as char;
        let mut filled = 0;
        while filled < cells.len() || matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric()) {
            let column = self.column();
            let Some(c) = self.peek() else { break };
            if c.is_ascii_digit() {
                let mut n = 0usize;
                let start = self.at;
                while let Some(d) = self.peek().filter(char::is_ascii_digit) {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(d as usize - '0' as usize);
                    self.at += 1;
                }
                if self.chars[start].1 == '0' {
                    return self.error(column, PositionProblem::LeadingZero);
                }
                if filled.saturating_add(n) > cells.len() {
                    // The run as written (`n` saturates on absurdly long runs of digits).
                    let run = self.chars[start..self.at].iter().map(|c| c.1).collect();
                    let problem = PositionProblem::RunPastEnd {
                        file: letter,
                        cells: cells.len(),
                        run,
                        filled,
                    };
                    return self.error(column, problem);
                }
                filled += n;
                continue;
            }
            let (side, kind) = match c {
                'Q' => (Side::White, PieceKind::Queen),
                'G' => (Side::White, PieceKind::Guard),
                'q' => (Side::Black, PieceKind::Queen),
                'g' => (Side::Black, PieceKind::Guard),
                '/' | ' ' => break,
                found => return self.error(column, PositionProblem::UnknownPiece { found }),
            };
            if filled >= cells.len() {
                let problem = PositionProblem::PieceOffBoard {
                    file: letter,
                    cells: cells.len(),
                };
                return self.error(column, problem);
            }
            let cell = cells[filled];
            self.at += 1;
            let captured = self.peek() == Some('*');
            if captured {
                self.at += 1;
            }
            if cell == Cell::THRONE {
                *throne_column = Some(column);
            }
            setup.pieces.insert(
                cell,
                Piece {
                    side,
                    kind,
                    captured,
                },
            );
            filled += 1;
        }
        if filled < cells.len() {
            let problem = PositionProblem::ShortFile {
                file: letter,
                cells: cells.len(),
                filled,
                found: self.peek(),
            };
            return self.error(self.column(), problem);
        }
        Ok(())
    }

    fn hand(&mut self, setup: &mut Setup) -> Result<(), PositionError> {
        if self.peek() == Some('-') {
            self.at += 1;
            return Ok(());
        }
        let start = self.column();
        let order = ['Q', 'G', 'q', 'g'];
        let mut counts = [0u8; 4];
        let mut last = 0;
        while let Some(c) = self.peek() {
            if c == ' ' {
                break;
            }
            let Some(slot) = order.iter().position(|&o| o == c) else {
                return self.error(
                    self.column(),
                    PositionProblem::UnknownPieceInHand { found: c },
                );
            };
            if slot < last {
                return self.error(self.column(), PositionProblem::HandOrder);
            }
            last = slot;
            counts[slot] = counts[slot].saturating_add(1);
            self.at += 1;
        }
        if self.column() == start {
            return self.error(start, PositionProblem::MissingHand);
        }
        setup.in_hand = [[counts[0], counts[1]], [counts[2], counts[3]]];
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for rules in Rules::single_switch_variants() {
            let start = Position::start(rules);
            let text = format_position(&start);
            let expected = if rules.has_placement() {
                PLACEMENT_START_POSITION
            } else {
                START_POSITION
            };
            assert_eq!(text, expected);
            assert_eq!(parse_position(&text, rules).unwrap(), start);
        }
    }

    /// The examples of docs/notation.md.
    #[test]
    fn errors_point_at_the_column() {
        let error = |text: &str, rules: Rules| {
            let e = parse_position(text, rules).unwrap_err();
            (e.column, e.problem.to_string())
        };
        let s = Rules::STANDARD;
        assert_eq!(
            error("1g4G/6g/8/g8/4GG4/4GQ1G2q/4GG4/g8/8/6g/1g4 w -", s),
            (
                4,
                "file a has 6 cells (a1 to a6); this piece would be off the board".into()
            )
        );
        // Rule problems (Position::from_setup) at the column of the field they concern,
        // the earliest first, every problem in the message.
        assert_eq!(
            error("1g4/6g/8/g8/4GG4/4GQ1GQ1q/4GG4/g8/8/6g/1g4 w -", s),
            (
                46,
                "White has 2 queens on the board and 0 in hand; expected 1 in all".into()
            )
        );
        assert_eq!(
            error("1g4/6g/8/g8/4GG4/Q3GG1G2q/4GG4/g8/8/6g/1g4 w -", s),
            (
                21,
                "White has 7 guards on the board and 0 in hand; expected 6 in all; a guard on \
                 the throne f6: only a queen may stand there"
                    .into()
            )
        );
        assert_eq!(
            error(&format!("{PLACEMENT_START_POSITION} 1"), Rules::LUDII),
            (
                28,
                "pieces in hand need a placement opening, but the rules are `ludii`".into()
            )
        );
        let placement = "opening=placement".parse().unwrap();
        assert_eq!(
            error(&format!("{PLACEMENT_START_POSITION} 1"), placement),
            (
                43,
                "unexpected `1`: a pass count is only written under `ludii`, and the rules are \
                 `opening=placement`"
                    .into()
            )
        );
        assert_eq!(
            error("1g4/6g/8/g8/4GG4/4G2G2q/4GG4/g8/8/6g/1g4 w -", s),
            (
                44,
                "White has 0 queens on the board and 0 in hand; expected 1 in all".into()
            )
        );
        assert_eq!(
            error(&format!("{START_POSITION} 1"), s),
            (
                47,
                "unexpected `1`: a pass count is only written under `ludii`, and the rules are \
                 `standard`"
                    .into()
            )
        );
        assert_eq!(
            error("1g2G/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w -", s),
            (
                5,
                "file a has 6 cells, but only 5 are described; expected a piece or a number, \
                 found `/`"
                    .into()
            )
        );
        assert_eq!(error(&format!("{START_POSITION} 0"), Rules::LUDII).0, 47);
        assert!(parse_position(&format!("{START_POSITION} 1"), Rules::LUDII).is_ok());
        assert_eq!(
            error("1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1  w -", s),
            (43, "fields are separated by a single space".into())
        );
        assert_eq!(
            error("1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w gq", s),
            (
                46,
                "pieces in hand are listed White's then Black's, queen before guards (like \
                 `QGGGGGGqgggggg`)"
                    .into()
            )
        );
    }

    /// Syntax problems carry what was found; rule problems carry agon-core's error as
    /// their source.
    #[test]
    fn errors_carry_the_problem_as_data() {
        use std::error::Error;
        let e = parse_position(
            "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 x -",
            Rules::STANDARD,
        )
        .unwrap_err();
        assert_eq!(e.column, 43);
        assert_eq!(e.problem, PositionProblem::UnknownSide { found: Some('x') });
        assert!(e.source().is_none());
        let e = parse_position(
            "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w",
            Rules::STANDARD,
        )
        .unwrap_err();
        assert_eq!(
            e.problem,
            PositionProblem::MissingSpace {
                field: PositionField::Hand,
                found: None
            }
        );
        assert_eq!(
            e.to_string(),
            "column 44: expected a space and then the pieces in hand (`-` or letters like \
             `QGGGGGGqgggggg`), found the end"
        );
        let e = parse_position("6/7/8/9/10/5G5/10/9/8/7/6 w -", Rules::STANDARD).unwrap_err();
        let PositionProblem::Illegal(core) = &e.problem else {
            panic!("{e:?}")
        };
        assert!(core.kinds().contains(PositionErrorKinds::GUARD_ON_THRONE));
        assert_eq!(e.source().unwrap().to_string(), core.to_string());
        assert_eq!(e.to_string(), format!("column 13: {core}"));
    }

    #[test]
    fn a_huge_run_of_empty_cells_is_named_as_written() {
        let e = parse_position("99999999999999999999999/x w -", Rules::STANDARD).unwrap_err();
        assert_eq!(
            e.to_string(),
            "column 1: file a has 6 cells (a1 to a6); 99999999999999999999999 empty cells \
             after 0 go past its end"
        );
    }

    /// Found by the `position` fuzz target: a saturated run after pieces overflowed the
    /// count of filled cells.
    #[test]
    fn a_huge_run_after_pieces_is_named_as_written() {
        let e = parse_position("QQ44333333333338444433", Rules::STANDARD).unwrap_err();
        assert_eq!(
            e.to_string(),
            "column 3: file a has 6 cells (a1 to a6); 44333333333338444433 empty cells after \
             2 go past its end"
        );
    }

    #[test]
    fn file_cells_are_in_rank_order() {
        let names: Vec<String> = file_cells(0).map(|c| c.to_string()).collect();
        assert_eq!(names, ["a1", "a2", "a3", "a4", "a5", "a6"]);
        assert_eq!(file_cells(5).count(), 11);
        assert_eq!(file_cells(5).last().unwrap().to_string(), "f11");
    }
}
