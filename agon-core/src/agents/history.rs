//! Repetition bookkeeping for search: the hashes of every position of the game so far and
//! of the current search path, with a small counting filter so that the exact scan runs
//! only when a repetition is possible.

use crate::{Game, Position, Rules};

/// The positions of a game and of the search path below its current position.
#[derive(Clone)]
pub(crate) struct History {
    hashes: Vec<u64>,
    /// Index of the current game position (the search root) in `hashes`.
    root: usize,
    counts: Box<[u8; History::SLOTS]>,
}

impl History {
    const SLOTS: usize = 1 << 14;

    /// An empty history.
    pub(crate) fn new() -> History {
        History {
            hashes: Vec::new(),
            root: 0,
            counts: Box::new([0; History::SLOTS]),
        }
    }

    /// Forgets everything and records every position of `game`, the current one last.
    pub(crate) fn reset(&mut self, game: &Game) {
        for &h in &self.hashes {
            self.counts[slot(h)] = 0;
        }
        self.hashes.clear();
        for i in 0..=game.ply_count() {
            let position = game.position_before(i).expect("one position per ply");
            self.push(position.hash());
        }
        self.root = self.hashes.len() - 1;
    }

    /// Enters a position of the search path.
    #[inline]
    pub(crate) fn push(&mut self, hash: u64) {
        let c = &mut self.counts[slot(hash)];
        *c = c.saturating_add(1);
        self.hashes.push(hash);
    }

    /// Leaves the last position of the search path.
    #[inline]
    pub(crate) fn pop(&mut self) {
        if let Some(h) = self.hashes.pop() {
            let c = &mut self.counts[slot(h)];
            *c = c.saturating_sub(1);
        }
    }

    /// Whether `position`, just reached by an action, ends the search as a draw: it
    /// completes the rules' n-fold repetition, or it repeats a position of the search path
    /// (the root included), which the side that repeated could keep doing.
    #[inline]
    pub(crate) fn is_draw(&self, position: &Position) -> bool {
        self.is_draw_of(position.hash(), position.rules())
    }

    /// [`History::is_draw`] of the position with the hash `hash` under `rules`, which the
    /// search need not have played.
    #[inline]
    pub(crate) fn is_draw_of(&self, hash: u64, rules: Rules) -> bool {
        if self.counts[slot(hash)] == 0 {
            return false;
        }
        if self.hashes[self.root..].contains(&hash) {
            return true;
        }
        match rules.repetition().limit() {
            Some(n) => self.hashes.iter().filter(|&&h| h == hash).count() + 1 >= n as usize,
            None => false,
        }
    }
}

#[inline]
fn slot(hash: u64) -> usize {
    (hash >> 40) as usize & (History::SLOTS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_repetitions_and_path_cycles_are_draws() {
        let mut game = Game::new(Rules::STANDARD);
        for a in ["b1-c1", "d1-e1", "c1-b1", "e1-d1"] {
            game.play(a.parse().unwrap()).unwrap();
        }
        // The start has occurred twice; a third time is the rules' draw.
        let mut history = History::new();
        history.reset(&game);
        let start = *game.start();
        assert!(history.is_draw(&start));
        // A position seen once in the game, off the search path, is not a draw yet.
        let mut next = start;
        next.play_unchecked("b1-c1".parse().unwrap());
        assert!(!history.is_draw(&next));
        // Once it is on the search path, reaching it again is.
        history.push(next.hash());
        assert!(history.is_draw(&next));
        history.pop();
        assert!(!history.is_draw(&next));
        // With repetition=off only path cycles count.
        let off: Rules = "repetition=off".parse().unwrap();
        let mut game = Game::new(off);
        for a in ["b1-c1", "d1-e1", "c1-b1", "e1-d1"] {
            game.play(a.parse().unwrap()).unwrap();
        }
        history.reset(&game);
        let start = *game.start();
        assert!(history.is_draw(&start), "the root itself is on the path");
        let mut next = start;
        next.play_unchecked("b1-c1".parse().unwrap());
        assert!(!history.is_draw(&next));
    }
}
