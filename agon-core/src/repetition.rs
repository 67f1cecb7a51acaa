//! How often each position has occurred, counted by Zobrist hash for the repetition rule:
//! an open-addressing table, so counting costs the same at ply 10 and at ply 10,000.
//!
//! Equal positions have equal hashes, so a count here is never below the true number of
//! occurrences: a count under the rules' limit proves there is no repetition draw. Only a
//! count at the limit needs confirming by comparing positions ([`crate::Game`] does; the
//! random playouts, which keep no positions, take the 64-bit hash's word for it).

/// One slot: a hash and its count, live only in the table's current generation.
#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    generation: u32,
    count: u32,
}

/// Occurrence counts by position hash.
#[derive(Clone)]
pub(crate) struct RepetitionTable {
    /// A power of two of slots, at most one in `spread` of them live.
    slots: Vec<Slot>,
    /// Slots per live hash at least: 2, or 8 in the playouts' sparse table.
    spread: usize,
    /// Slots of another generation are empty: clearing the table is one increment.
    generation: u32,
    /// Live slots.
    live: usize,
}

impl RepetitionTable {
    /// 256 slots of 16 bytes: 4 KB per [`crate::Game`], enough for games of up to 128
    /// distinct positions before the first doubling (analysis and search make many short
    /// games; a long game doubles its table a few times, once).
    const INITIAL_SLOTS: usize = 256;

    /// An empty table, at most half full.
    pub(crate) fn new() -> RepetitionTable {
        RepetitionTable::spread(2)
    }

    /// An empty table at most an eighth full: the random playouts', where the branch on a
    /// probe's first slot (empty or not) is as random as the game, and a sparser table
    /// takes it the same way more often (0.72 -> 0.64 mispredicted branches per random
    /// action in cachegrind's model, c7a3305), for 4 times the memory (2 MB after a game of 16,000
    /// distinct positions).
    pub(crate) fn sparse() -> RepetitionTable {
        RepetitionTable::spread(8)
    }

    /// An empty table with at least `spread` slots per live hash.
    fn spread(spread: usize) -> RepetitionTable {
        RepetitionTable {
            slots: vec![Slot::default(); RepetitionTable::INITIAL_SLOTS],
            spread,
            generation: 1,
            live: 0,
        }
    }

    /// A table without storage, only a placeholder while buffers move: never count in it.
    pub(crate) fn empty() -> RepetitionTable {
        RepetitionTable {
            slots: Vec::new(),
            spread: 2,
            generation: 1,
            live: 0,
        }
    }

    /// Forgets every count (constant time; the storage is kept for the next game).
    pub(crate) fn clear(&mut self) {
        self.live = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Generation 0 marks never-used slots: after 2^32 clears, wipe them for real.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// The slot of `hash`, or the empty slot where it would go.
    #[inline]
    fn find(&self, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        // Zobrist hashes are uniformly random: their low bits make a good index.
        let mut i = hash as usize & mask;
        loop {
            let slot = &self.slots[i];
            if slot.generation != self.generation || slot.hash == hash {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Counts one more occurrence of `hash` and returns its count.
    #[inline]
    pub(crate) fn add(&mut self, hash: u64) -> u32 {
        if self.spread * (self.live + 1) > self.slots.len() {
            self.grow();
        }
        let generation = self.generation;
        let mask = self.slots.len() - 1;
        // One probe sequence that ends at the hash's slot or at the empty slot for it
        // (`find`'s, with the slot in hand: one bounds check and one test per probe).
        let mut i = hash as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.generation != generation {
                *slot = Slot {
                    hash,
                    generation,
                    count: 1,
                };
                self.live += 1;
                return 1;
            }
            if slot.hash == hash {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// Takes back one occurrence of `hash` (counted by [`RepetitionTable::add`]). Its slot
    /// stays, at count 0, so that no other hash's probe sequence is cut.
    pub(crate) fn remove(&mut self, hash: u64) {
        let i = self.find(hash);
        let slot = &mut self.slots[i];
        if slot.generation == self.generation {
            slot.count = slot.count.saturating_sub(1);
        }
    }

    /// The count of `hash`.
    #[inline]
    pub(crate) fn count(&self, hash: u64) -> u32 {
        let slot = &self.slots[self.find(hash)];
        if slot.generation == self.generation {
            slot.count
        } else {
            0
        }
    }

    /// Doubles the slots, moving the live ones.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![Slot::default(); 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let generation = self.generation;
        for slot in old.into_iter().filter(|s| s.generation == generation) {
            let i = self.find(slot.hash);
            self.slots[i] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;
    use std::collections::HashMap;

    /// The table against a `HashMap` under random adds, removes and clears, with few
    /// distinct hashes (so counts climb) and colliding low bits (so probes run long), past
    /// several growths.
    #[test]
    fn counts_agree_with_a_hash_map() {
        counts_agree_with_a_hash_map_in(RepetitionTable::new());
        counts_agree_with_a_hash_map_in(RepetitionTable::sparse());
    }

    fn counts_agree_with_a_hash_map_in(mut table: RepetitionTable) {
        let mut rng = Rng::new(17);
        let mut truth: HashMap<u64, u32> = HashMap::new();
        let mut added = Vec::new();
        for step in 0..60_000 {
            match rng.below(100) {
                0 if step % 7 == 0 => {
                    table.clear();
                    truth.clear();
                    added.clear();
                }
                1..=20 if !added.is_empty() => {
                    let hash = added.swap_remove(rng.below(added.len()));
                    table.remove(hash);
                    *truth.get_mut(&hash).expect("added before") -= 1;
                }
                _ => {
                    // Low bits from a small set: many hashes share a home slot.
                    let hash = (rng.below(3000) as u64) << 20 | rng.below(4) as u64;
                    added.push(hash);
                    let count = truth.entry(hash).or_default();
                    *count += 1;
                    assert_eq!(table.add(hash), *count);
                }
            }
            let probe = (rng.below(3000) as u64) << 20 | rng.below(4) as u64;
            assert_eq!(table.count(probe), truth.get(&probe).copied().unwrap_or(0));
        }
        assert!(table.slots.len() > RepetitionTable::INITIAL_SLOTS);
        assert!(table.spread * table.live <= table.slots.len());
    }

    #[test]
    fn a_cleared_table_counts_from_zero() {
        let mut table = RepetitionTable::new();
        assert_eq!(table.add(5), 1);
        assert_eq!(table.add(5), 2);
        table.clear();
        assert_eq!(table.count(5), 0);
        assert_eq!(table.add(5), 1);
    }
}
