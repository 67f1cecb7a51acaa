//! A set of game indices stored as bits: the games a directory holds (a resume's kept
//! games, the duplicate check of a scan) cost about one bit each where a `BTreeSet<u64>`
//! or a list of indices costs 8 to 20 bytes, so the memory of `run --resume` and `merge`
//! hardly grows with the number of games.
//!
//! The bits are kept in 64-bit words keyed by `index / 64` in an ordered map, so a set of
//! a few indices scattered over a huge experiment (`--games 1000000000000 --only ...`)
//! stays small too.

use std::collections::BTreeMap;

/// A set of game indices (one bit per index in each 64-index word that holds any).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexSet {
    words: BTreeMap<u64, u64>,
    len: u64,
}

impl IndexSet {
    /// An empty set.
    pub fn new() -> IndexSet {
        IndexSet::default()
    }

    /// Adds `index`; returns whether it was not in the set yet.
    pub fn insert(&mut self, index: u64) -> bool {
        let word = self.words.entry(index / 64).or_insert(0);
        let bit = 1u64 << (index % 64);
        let fresh = *word & bit == 0;
        *word |= bit;
        self.len += u64::from(fresh);
        fresh
    }

    /// Whether `index` is in the set.
    pub fn contains(&self, index: u64) -> bool {
        self.words
            .get(&(index / 64))
            .is_some_and(|word| word & (1u64 << (index % 64)) != 0)
    }

    /// How many indices the set holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The indices, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().flat_map(|(&key, &word)| {
            (0..64u64)
                .filter(move |bit| word & (1u64 << bit) != 0)
                .map(move |bit| key * 64 + bit)
        })
    }
}

impl FromIterator<u64> for IndexSet {
    fn from_iter<I: IntoIterator<Item = u64>>(indices: I) -> IndexSet {
        let mut set = IndexSet::new();
        for index in indices {
            set.insert(index);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The set against a `BTreeSet` on dense runs, word edges and far-apart indices.
    #[test]
    fn agrees_with_a_btree_set() {
        let indices = (0..300)
            .chain([
                63,
                64,
                127,
                128,
                1 << 40,
                (1 << 40) + 63,
                u64::MAX - 1,
                u64::MAX,
            ])
            .chain((1000..5000).step_by(7));
        let mut set = IndexSet::new();
        let mut truth = BTreeSet::new();
        for index in indices {
            assert_eq!(set.insert(index), truth.insert(index), "{index}");
        }
        assert_eq!(set.len(), truth.len() as u64);
        assert!(set.iter().eq(truth.iter().copied()));
        for probe in [
            0,
            1,
            299,
            300,
            301,
            1001,
            1007,
            1 << 40,
            (1 << 40) + 1,
            u64::MAX,
        ] {
            assert_eq!(set.contains(probe), truth.contains(&probe), "{probe}");
        }
        assert!(!IndexSet::new().contains(5) && IndexSet::new().is_empty());
    }

    /// A dense million indices take a few hundred kilobytes, not megabytes: one map entry
    /// (two words and the tree's share) per 64 indices.
    #[test]
    fn a_million_indices_take_one_entry_per_64() {
        let set: IndexSet = (0..1_000_000).collect();
        assert_eq!(set.len(), 1_000_000);
        assert_eq!(set.words.len(), 1_000_000_usize.div_ceil(64));
    }
}
