//! What a record says about its plies besides the actions: comments, NAGs, move suffixes
//! and variations (alternative lines), kept per ply so that a record reads and writes
//! without loss.
//!
//! Every line of play (the game's own, or a variation) has [`Annotations`] indexed by ply:
//! index 0 holds what stands before its first ply, index `n` what follows its `n`-th ply.
//! A [`Variation`] at index `n` is an alternative to ply `n`: it starts from the position
//! before that ply.
//!
//! ```
//! use agon_notation::{GameRecord, Nag, Suffix};
//! let mut record: GameRecord = "1. h9-g9 b7-c7 *".parse().unwrap();
//! let after_first = record.annotations.get_mut(1);
//! after_first.suffix = Some(Suffix::Good);
//! after_first.nags.push(Nag(14));
//! after_first.comments.push("+0.35/6 best: d9-d8".into());
//! assert_eq!(
//!     record.to_string().lines().last().unwrap(),
//!     "1. h9-g9! $14 {+0.35/6 best: d9-d8} 1... b7-c7 *"
//! );
//! let again: GameRecord = record.to_string().parse().unwrap();
//! assert_eq!(again, record);
//! ```

use agon_core::Ply;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// The deepest nesting of variations a record may have (a variation inside a variation
/// is depth 2). Deeper input is refused by the text and JSON readers, which keeps every
/// recursive walk over a record shallow.
pub const MAX_VARIATION_DEPTH: usize = 16;

/// A move suffix written right after an action: `!`, `?`, `!!`, `??`, `!?`, `?!`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `!` (NAG 1).
    Good,
    /// `?` (NAG 2).
    Mistake,
    /// `!!` (NAG 3).
    Brilliant,
    /// `??` (NAG 4).
    Blunder,
    /// `!?` (NAG 5).
    Speculative,
    /// `?!` (NAG 6).
    Dubious,
}

impl Suffix {
    /// Every suffix, in NAG order.
    pub const ALL: [Suffix; 6] = [
        Suffix::Good,
        Suffix::Mistake,
        Suffix::Brilliant,
        Suffix::Blunder,
        Suffix::Speculative,
        Suffix::Dubious,
    ];

    /// How it is written: `!`, `?`, `!!`, `??`, `!?` or `?!`.
    pub fn token(self) -> &'static str {
        match self {
            Suffix::Good => "!",
            Suffix::Mistake => "?",
            Suffix::Brilliant => "!!",
            Suffix::Blunder => "??",
            Suffix::Speculative => "!?",
            Suffix::Dubious => "?!",
        }
    }

    /// The NAG with the same meaning (`$1` to `$6`).
    pub fn nag(self) -> Nag {
        Nag(self as u8 + 1)
    }

    /// The suffix written as `token`, if it is one.
    pub fn from_token(token: &[u8]) -> Option<Suffix> {
        Suffix::ALL
            .into_iter()
            .find(|s| s.token().as_bytes() == token)
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A numeric annotation glyph, `$0` to `$255` (PGN's meanings: `$1` good move, `$2`
/// mistake, `$4` blunder, `$6` dubious, `$14` White is slightly better, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// Why a text is not a NAG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseNagError {
    /// It does not start with `$` followed by digits.
    Syntax,
    /// The number is above 255.
    TooLarge,
}

impl fmt::Display for ParseNagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseNagError::Syntax => f.write_str("a NAG is `$` followed by digits, like `$1`"),
            ParseNagError::TooLarge => f.write_str("a NAG is at most $255"),
        }
    }
}

impl std::error::Error for ParseNagError {}

impl FromStr for Nag {
    type Err = ParseNagError;

    /// Reads `$n` (`n` from 0 to 255).
    fn from_str(text: &str) -> Result<Nag, ParseNagError> {
        let digits = text.strip_prefix('$').ok_or(ParseNagError::Syntax)?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseNagError::Syntax);
        }
        let value = digits.trim_start_matches('0');
        if value.len() > 3 {
            return Err(ParseNagError::TooLarge);
        }
        let n: u16 = value.parse().unwrap_or(0);
        u8::try_from(n)
            .map(Nag)
            .map_err(|_| ParseNagError::TooLarge)
    }
}

/// What a record says at one place of a line: after a ply (or, at index 0, before the
/// first one). The canonical writer prints, after the ply's action, the suffix, the NAGs,
/// the comments and the variations, in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// The move suffix (`!`, `?`, ...); always `None` at index 0 (a suffix there is kept
    /// as its NAG).
    pub suffix: Option<Suffix>,
    /// NAGs in the order written.
    pub nags: Vec<Nag>,
    /// Comment texts in the order written, without `{ }` or `;`, trimmed. The writer
    /// prints a comment as `{text}`, or as `; text` to the end of the line if the text
    /// holds a `}`.
    ///
    /// A text that the record syntax cannot hold (a `}` together with a line break, or a
    /// line starting with `[`) is printed with `}` as `)` and such lines indented by a
    /// space; the readers never produce one.
    pub comments: Vec<String>,
    /// Alternatives to the ply this annotation follows (empty at index 0): each starts
    /// from the position before that ply.
    pub variations: Vec<Variation>,
}

/// A comment of a game's own line, with where it stands among the actions (see
/// [`crate::GameRecord::comments`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The number of actions before it: 0 in the tag section or before the first action,
    /// `n` right after the `n`-th action.
    pub ply: u64,
    /// The text without the `{ }` or `;`, trimmed (cut to [`crate::MAX_COMMENT`] bytes).
    pub text: String,
}

/// The empty annotation, handed out for plies that have none.
static EMPTY: Annotation = Annotation {
    suffix: None,
    nags: Vec::new(),
    comments: Vec::new(),
    variations: Vec::new(),
};

impl Annotation {
    /// Whether it says nothing.
    pub fn is_empty(&self) -> bool {
        self.suffix.is_none()
            && self.nags.is_empty()
            && self.comments.is_empty()
            && self.variations.is_empty()
    }
}

/// The annotations of one line of play, by ply: index 0 before the first ply, `n` after
/// the `n`-th. Stored sparsely (memory grows with what is said, not with the plies);
/// equality ignores empty places (an empty annotation equals a missing one).
#[derive(Clone, Debug, Default)]
pub struct Annotations(BTreeMap<usize, Annotation>);

impl Annotations {
    /// No annotations.
    pub fn new() -> Annotations {
        Annotations(BTreeMap::new())
    }

    /// The annotation at `index` (empty if there is none).
    pub fn get(&self, index: usize) -> &Annotation {
        self.0.get(&index).unwrap_or(&EMPTY)
    }

    /// The annotation at `index`, to change (created empty if missing).
    pub fn get_mut(&mut self, index: usize) -> &mut Annotation {
        self.0.entry(index).or_default()
    }

    /// Whether there is no annotation at all.
    pub fn is_empty(&self) -> bool {
        self.0.values().all(Annotation::is_empty)
    }

    /// The places with an annotation, in order, with their index.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Annotation)> {
        self.0
            .iter()
            .filter(|(_, a)| !a.is_empty())
            .map(|(&i, a)| (i, a))
    }

    /// Every annotation, to change, in order, with its index.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (usize, &mut Annotation)> {
        self.0.iter_mut().map(|(&i, a)| (i, a))
    }

    /// Drops the annotations after ply `plies` (for a line cut to that many plies).
    pub fn truncate(&mut self, plies: usize) {
        self.0.retain(|&i, _| i <= plies);
    }

    /// The index of the last place with an annotation (0 if there is none).
    pub fn last_index(&self) -> usize {
        self.iter().last().map_or(0, |(i, _)| i)
    }

    /// The deepest nesting of variations below this line (0 for none).
    pub fn depth(&self) -> usize {
        self.0
            .values()
            .flat_map(|a| &a.variations)
            .map(|v| 1 + v.annotations.depth())
            .max()
            .unwrap_or(0)
    }
}

impl PartialEq for Annotations {
    fn eq(&self, other: &Annotations) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Annotations {}

/// An alternative line: plies from a branch point (the position before the ply whose
/// annotation holds it), with their own annotations (index 0: comments before its first
/// ply).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The plies of the line with what they captured.
    pub plies: Vec<Ply>,
    /// The line's annotations (see [`Annotations`]).
    pub annotations: Annotations,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_name_their_nags() {
        let nags: Vec<u8> = Suffix::ALL.iter().map(|s| s.nag().0).collect();
        assert_eq!(nags, [1, 2, 3, 4, 5, 6]);
        for s in Suffix::ALL {
            assert_eq!(Suffix::from_token(s.token().as_bytes()), Some(s));
        }
        assert_eq!(Suffix::from_token(b"!!!"), None);
    }

    #[test]
    fn nags_parse_from_0_to_255() {
        assert_eq!("$0".parse(), Ok(Nag(0)));
        assert_eq!("$255".parse(), Ok(Nag(255)));
        assert_eq!("$000014".parse(), Ok(Nag(14)));
        assert_eq!("$256".parse::<Nag>(), Err(ParseNagError::TooLarge));
        assert_eq!(
            "$99999999999999".parse::<Nag>(),
            Err(ParseNagError::TooLarge)
        );
        assert_eq!("$".parse::<Nag>(), Err(ParseNagError::Syntax));
        assert_eq!("14".parse::<Nag>(), Err(ParseNagError::Syntax));
        assert_eq!(Nag(14).to_string(), "$14");
    }

    #[test]
    fn empty_places_do_not_count() {
        let mut a = Annotations::new();
        let b = Annotations::new();
        a.get_mut(5);
        assert_eq!(a, b);
        assert!(a.is_empty());
        a.get_mut(2).nags.push(Nag(1));
        assert_ne!(a, b);
        assert_eq!(a.iter().map(|(i, _)| i).collect::<Vec<_>>(), [2]);
        assert_eq!(a.get(9), &Annotation::default());
    }
}
