//! The canonical movetext: move numbers, actions with every capture, suffixes, NAGs,
//! comments and variations, wrapped at [`LINE_WIDTH`] columns.

use crate::annotation::{Annotation, Annotations};
use crate::error::move_number;
use crate::reader::MAX_COMMENT;
use crate::record::LINE_WIDTH;
use agon_core::{Ply, Side};
use std::borrow::Cow;
use std::fmt::{self, Write as _};

/// One unbreakable piece of movetext.
struct Unit {
    text: String,
    /// A `;` comment: nothing may follow it on its line.
    ends_line: bool,
}

impl Unit {
    fn new(text: String) -> Unit {
        Unit {
            text,
            ends_line: false,
        }
    }
}

/// Writes the movetext of a line of `plies` played from the game's start (`first` moves
/// first) and the result token, then a newline.
pub(crate) fn write_movetext(
    f: &mut fmt::Formatter<'_>,
    first: Side,
    plies: &[Ply],
    annotations: &Annotations,
    result: &str,
) -> fmt::Result {
    let mut units = Vec::with_capacity(plies.len() + 1);
    line_units(&mut units, first, 1, plies, annotations);
    units.push(Unit::new(result.to_string()));
    wrap(f, &units)
}

/// The units of a line whose first ply is ply `start` (1-based) of a game that `first`
/// began.
fn line_units(
    out: &mut Vec<Unit>,
    first: Side,
    start: u64,
    plies: &[Ply],
    annotations: &Annotations,
) {
    let before = annotations.get(0);
    annotation_units(out, first, start, before);
    // A Black ply is numbered (`12...`) at the start of a line and after a comment or a
    // variation, as PGN writers do.
    let mut numbered = true;
    for (index, ply) in plies.iter().enumerate() {
        let ply_number = start + index as u64;
        let side = if ply_number % 2 == 1 { first } else { !first };
        let mut text = String::with_capacity(24);
        let number = move_number(ply_number, first);
        if side == Side::White {
            let _ = write!(text, "{number}. ");
        } else if numbered {
            let _ = write!(text, "{number}... ");
        }
        let _ = write!(text, "{}", ply.action);
        for cell in ply.captures {
            let _ = write!(text, "x{cell}");
        }
        let annotation = annotations.get(index + 1);
        if let Some(suffix) = annotation.suffix {
            text.push_str(suffix.token());
        }
        out.push(Unit::new(text));
        annotation_units(out, first, ply_number, annotation);
        numbered = !annotation.comments.is_empty() || !annotation.variations.is_empty();
    }
}

/// The NAGs, comments and variations of an annotation that follows ply `ply` (0: the
/// line's start; its variations, if any, are alternatives to that ply).
fn annotation_units(out: &mut Vec<Unit>, first: Side, ply: u64, annotation: &Annotation) {
    for nag in &annotation.nags {
        out.push(Unit::new(nag.to_string()));
    }
    for text in &annotation.comments {
        out.push(comment_unit(text));
    }
    for variation in &annotation.variations {
        let mut inner = Vec::new();
        line_units(
            &mut inner,
            first,
            ply.max(1),
            &variation.plies,
            &variation.annotations,
        );
        match inner.first_mut() {
            None => out.push(Unit::new("()".to_string())),
            Some(head) => {
                head.text.insert(0, '(');
                let closes_apart = inner.last().is_some_and(|u| u.ends_line);
                if let (false, Some(last)) = (closes_apart, inner.last_mut()) {
                    last.text.push(')');
                }
                out.append(&mut inner);
                if closes_apart {
                    out.push(Unit::new(")".to_string()));
                }
            }
        }
    }
}

/// A comment as the reader will read it back: `{text}`, or `; text` if the text holds a
/// `}` (and no line break). See [`Annotation::comments`].
fn comment_unit(text: &str) -> Unit {
    let text = printable_comment(text);
    if !text.contains('}') {
        return Unit::new(format!("{{{text}}}"));
    }
    if !text.contains('\n') {
        return Unit {
            text: format!("; {text}"),
            ends_line: true,
        };
    }
    Unit::new(format!("{{{}}}", text.replace('}', ")")))
}

/// The comment text as the reader keeps it: trimmed, without carriage returns, cut to
/// [`MAX_COMMENT`] bytes, and with no line that starts with `[` (it would start a game).
pub(crate) fn printable_comment(text: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(text.trim());
    if text.contains('\r') || text.contains("\n[") {
        text = Cow::Owned(text.replace('\r', "").replace("\n[", "\n ["));
    }
    if text.len() > MAX_COMMENT {
        let mut end = MAX_COMMENT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text = Cow::Owned(text[..end].trim().to_string());
    }
    text
}

/// Writes units separated by spaces, in lines of at most [`LINE_WIDTH`] columns (a unit
/// longer than that stands alone), then a newline.
fn wrap(f: &mut fmt::Formatter<'_>, units: &[Unit]) -> fmt::Result {
    let mut line = String::with_capacity(LINE_WIDTH + 16);
    let mut must_break = false;
    for unit in units {
        if !line.is_empty() && (must_break || line.len() + 1 + unit.text.len() > LINE_WIDTH) {
            f.write_str(&line)?;
            f.write_str("\n")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&unit.text);
        must_break = unit.ends_line;
    }
    f.write_str(&line)?;
    f.write_str("\n")
}
