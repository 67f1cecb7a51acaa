//! Computer players. Every agent implements [`Agent`]; [`from_spec`] turns a spec string
//! such as `random` or `alphabeta:depth=4` into a configured agent.
//!
//! An agent is asked for the action of the side that *decides* the current turn
//! ([`crate::Position::decider`]), which under `queen-relocated-by=opponent` is not always
//! the side to move: agents must maximise for the decider.

mod random;
mod spec;

pub use random::RandomAgent;
pub use spec::{from_spec, AgentSpec, AgentSpecError};

use crate::{Action, Game};

/// A computer player.
pub trait Agent: Send {
    /// The canonical spec string of this agent (`random`, `alphabeta:depth=4`, ...).
    fn spec(&self) -> String;

    /// Chooses an action for the deciding side of a game that is not over. The action must
    /// be legal in `game.position()`.
    fn choose(&mut self, game: &Game) -> Action;

    /// Forgets anything learned from the previous game (trees, tables).
    fn new_game(&mut self) {}

    /// Whether this agent's choices depend on wall-clock time (and so are not reproducible
    /// from the seed alone).
    fn is_time_limited(&self) -> bool {
        false
    }
}
