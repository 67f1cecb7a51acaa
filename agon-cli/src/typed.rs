//! What a person types at `agon play`'s prompt, in the spellings people use: `H9-G9`,
//! `h9g9` and `h9 g9` all mean the step `h9-g9`. Everything is brought to the record's
//! spelling before agon-notation reads it, so there is one canonical form and one parser.

use agon_core::Cell;

/// The record spelling of a typed line: cells in lower case; two cells side by side
/// (`h9g9`, `f10 f11`, `H9 G9`) joined by `-`; a placement's piece letter (`Q@f1`, `g@b1`)
/// in upper case; capture annotations kept (`h9g9xg8` is `h9-g9xg8`). A line that is none
/// of these (a command, a typo) comes back trimmed and in lower case, for the caller's
/// message.
pub fn canonical_line(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [from, to] if cell(from).is_some() && to_cell_with_captures(to).is_some() => {
            format!(
                "{}-{}",
                cell(from).unwrap_or_default(),
                to.to_ascii_lowercase()
            )
        }
        [word] => canonical_word(word),
        _ => line.trim().to_ascii_lowercase(),
    }
}

fn canonical_word(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    if let Some((piece, rest)) = lower.split_once('@') {
        // A placement's piece letter is upper case (`Q@f1`); a relocation starts with a
        // cell (`d9@a5`).
        return if piece.len() == 1 {
            format!("{}@{rest}", piece.to_ascii_uppercase())
        } else {
            lower
        };
    }
    if lower.contains('-') || cell(&lower).is_some() {
        return lower;
    }
    // Two cells run together: `h9g9`, `f10f11`, `h9g9xg8`.
    let (step, captures) = match lower.find('x') {
        Some(at) => lower.split_at(at),
        None => (lower.as_str(), ""),
    };
    (2..step.len())
        .filter(|&at| step.is_char_boundary(at))
        .find_map(|at| {
            let (from, to) = step.split_at(at);
            Some(format!("{}-{}{captures}", cell(from)?, cell(to)?))
        })
        .unwrap_or(lower)
}

/// The cell a word names, in its canonical spelling.
fn cell(word: &str) -> Option<String> {
    word.to_ascii_lowercase()
        .parse::<Cell>()
        .ok()
        .map(|c| c.to_string())
}

/// A destination cell with capture annotations after it (`g9`, `g9xg8`).
fn to_cell_with_captures(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let target = lower.split('x').next()?;
    cell(target)
}

#[cfg(test)]
mod tests {
    use super::canonical_line;

    #[test]
    fn every_spelling_of_a_step_is_the_record_one() {
        for typed in [
            "h9-g9",
            "H9-G9",
            "h9g9",
            "H9G9",
            "h9 g9",
            "  H9   g9 ",
            "h9-G9",
        ] {
            assert_eq!(canonical_line(typed), "h9-g9", "{typed}");
        }
        assert_eq!(canonical_line("f10f11"), "f10-f11");
        assert_eq!(canonical_line("E9 e10"), "e9-e10");
        assert_eq!(canonical_line("C1D2xE3"), "c1-d2xe3");
        assert_eq!(canonical_line("c1 d2xe3"), "c1-d2xe3");
    }

    #[test]
    fn placements_relocations_and_commands_keep_their_meaning() {
        assert_eq!(canonical_line("q@F1"), "Q@f1");
        assert_eq!(canonical_line("G@b1"), "G@b1");
        assert_eq!(canonical_line("D9@A5"), "d9@a5");
        assert_eq!(canonical_line("PASS"), "pass");
        assert_eq!(canonical_line("Moves"), "moves");
        assert_eq!(canonical_line("H9"), "h9");
        // Not two cells: left for the parser's own message.
        assert_eq!(canonical_line("h9z9"), "h9z9");
        assert_eq!(canonical_line("j1k1"), "j1k1");
    }
}
