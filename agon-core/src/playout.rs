//! Uniformly random playouts: the simplest player, the engine's throughput benchmark and
//! a source of random positions for tests.

use crate::{Game, Rng};

/// Plays uniformly random legal actions until the game ends or `max_plies` plies have been
/// played in total (then the game is adjudicated a `move-limit` draw). Returns the number
/// of plies played by this call.
pub fn random_playout(game: &mut Game, rng: &mut Rng, max_plies: usize) -> usize {
    let mut played = 0;
    while !game.is_over() {
        if game.ply_count() >= max_plies {
            game.adjudicate_move_limit();
            break;
        }
        let action = game
            .legal()
            .random(rng)
            .expect("a game that is not over has a legal action");
        game.play_unchecked(action);
        played += 1;
    }
    played
}
