//! The transposition table: one entry per slot, indexed by the position's Zobrist hash,
//! replaced when the new result searched at least as deep or the slot holds another
//! position.

use crate::{Action, Cell, PieceKind, Position};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// At least this much (the search failed high).
    Lower,
    /// At most this much (the search failed low).
    Upper,
}

/// One stored search result, packed into a word beside its key: score (32 bits), action
/// (16), depth (8), bound (8: 0 empty, 1 exact, 2 lower, 3 upper).
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: i32,
    action: u16,
    depth: u8,
    bound: u8,
}

impl Entry {
    #[inline]
    fn pack(self) -> u64 {
        (self.score as u32 as u64) << 32
            | (self.action as u64) << 16
            | (self.depth as u64) << 8
            | self.bound as u64
    }

    #[inline]
    fn unpack(word: u64) -> Entry {
        Entry {
            score: (word >> 32) as u32 as i32,
            action: (word >> 16) as u16,
            depth: (word >> 8) as u8,
            bound: word as u8,
        }
    }
}

/// A hit: the stored best action, depth, bound and score (relative to the position's
/// decider, mate scores relative to the position).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub action: Option<Action>,
    pub depth: u8,
    pub bound: Bound,
    pub score: i32,
}

/// A fixed-size table of search results: `words[2i]` is the key of slot `i` (mixed with
/// the table's salt) and `words[2i+1]` its packed entry. All zero means empty, so a new
/// table is zeroed memory that the system hands out lazily.
///
/// Clearing changes the salt instead of writing the memory: an entry stored under another
/// salt never matches a key again (but with the odds of a 64-bit collision), and
/// [`Table::store`] treats a slot holding another key exactly as an empty one, so a
/// cleared table searches exactly like a new one, at no cost.
pub(crate) struct Table {
    words: Vec<u64>,
    mask: usize,
    salt: u64,
}

impl Table {
    /// A table of about `megabytes` MB (a power of two number of 16-byte slots).
    pub(crate) fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / 16;
        let size = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            words: vec![0; 2 * size],
            mask: size - 1,
            salt: 0,
        }
    }

    /// Empties the table (in constant time: see [`Table`]).
    pub(crate) fn clear(&mut self) {
        self.salt = next_salt(self.salt);
    }

    /// The key of a position: its hash, with the pass counter mixed in (it matters for the
    /// double-pass draw under `ludii`).
    #[inline]
    pub(crate) fn key(position: &Position) -> u64 {
        position.hash() ^ (position.passes() as u64).wrapping_mul(0xA076_1D64_78BD_642F)
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        2 * (key as usize & self.mask)
    }

    /// The stored result for a key, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let slot = self.slot(key);
        let e = Entry::unpack(self.words[slot + 1]);
        if e.bound == 0 || self.words[slot] != key ^ self.salt {
            return None;
        }
        Some(Hit {
            action: decode(e.action),
            depth: e.depth,
            bound: match e.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            score: e.score,
        })
    }

    /// Stores a result.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: u8,
        bound: Bound,
        score: i32,
        action: Option<Action>,
    ) {
        let slot = self.slot(key);
        let same = self.words[slot] == key ^ self.salt;
        let old = Entry::unpack(self.words[slot + 1]);
        if old.bound != 0 && same && old.depth > depth && bound != Bound::Exact {
            return;
        }
        let action = match action {
            Some(a) => encode(a),
            None if same => old.action,
            None => 0,
        };
        let entry = Entry {
            score,
            action,
            depth,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
        };
        self.words[slot] = key ^ self.salt;
        self.words[slot + 1] = entry.pack();
    }
}

/// The salt after `salt`: a fixed odd step, so that salts never repeat within 2^64
/// clears and never come back to 0 (a new table's) before that.
#[inline]
pub(crate) fn next_salt(salt: u64) -> u64 {
    salt.wrapping_add(0x9E37_79B9_7F4A_7C15)
}

/// Packs an action into 16 bits: a 2-bit kind and two 7-bit cell indices. 0 is "none".
#[inline]
pub(crate) fn encode(action: Action) -> u16 {
    let (kind, a, b) = match action {
        Action::Step { from, to } => (1, from.index(), to.index()),
        Action::Relocate { from, to } => (2, from.index(), to.index()),
        Action::Place { kind, to } => (3, kind.index(), to.index()),
        Action::Pass => (0, 127, 127),
    };
    (kind << 14 | a << 7 | b) as u16
}

/// Unpacks [`encode`].
#[inline]
pub(crate) fn decode(code: u16) -> Option<Action> {
    let (kind, a, b) = (code >> 14, (code >> 7 & 127) as u8, (code & 127) as u8);
    let cell = |i: u8| Cell::from_index(i);
    match kind {
        1 => Some(Action::Step {
            from: cell(a)?,
            to: cell(b)?,
        }),
        2 => Some(Action::Relocate {
            from: cell(a)?,
            to: cell(b)?,
        }),
        3 => Some(Action::Place {
            kind: if a == 0 {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            },
            to: cell(b)?,
        }),
        _ if a == 127 && b == 127 => Some(Action::Pass),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_the_encoding() {
        for text in ["b1-c1", "d9@a5", "Q@f1", "G@b1", "pass", "f5-f6"] {
            let a: Action = text.parse().unwrap();
            assert_eq!(decode(encode(a)), Some(a), "{text}");
        }
        assert_eq!(decode(0), None);
    }

    #[test]
    fn deeper_results_are_kept() {
        let mut t = Table::new(1);
        let pass = Some(Action::Pass);
        t.store(12345, 5, Bound::Lower, 10, pass);
        t.store(12345, 3, Bound::Upper, -4, None);
        let hit = t.probe(12345).unwrap();
        assert_eq!((hit.depth, hit.bound, hit.score), (5, Bound::Lower, 10));
        t.store(12345, 6, Bound::Exact, 7, None);
        let hit = t.probe(12345).unwrap();
        assert_eq!(
            (hit.depth, hit.bound, hit.score, hit.action),
            (6, Bound::Exact, 7, pass)
        );
        assert!(t.probe(54321).is_none());
    }

    #[test]
    fn a_cleared_table_is_as_empty_as_a_new_one() {
        let mut t = Table::new(1);
        t.store(777, 9, Bound::Exact, 42, Some(Action::Pass));
        t.clear();
        assert!(t.probe(777).is_none());
        // A shallow result replaces the old deep one as it would fill an empty slot, and
        // keeps no action of it.
        t.store(777, 1, Bound::Upper, -3, None);
        let hit = t.probe(777).unwrap();
        assert_eq!(
            (hit.depth, hit.bound, hit.score, hit.action),
            (1, Bound::Upper, -3, None)
        );
    }
}
