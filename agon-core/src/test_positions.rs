//! Positions for the unit tests: random games of every rule set a fast path must agree on.

use crate::{Game, Position, Rng, Rules};

/// The positions of `games` random games (streams `0..games` of seed `seed`) in every
/// single-switch variant and the `ludii` preset, each game cut at `max_plies`: every phase
/// included (placements, relocations, normal play, forced passes), and each game's last
/// position (some without any action).
pub(crate) fn random_positions(seed: u64, games: u64, max_plies: usize) -> Vec<Position> {
    let mut positions = Vec::new();
    for rules in Rules::single_switch_variants()
        .into_iter()
        .chain([Rules::LUDII])
    {
        for stream in 0..games {
            let mut game = Game::new(rules);
            let mut rng = Rng::for_stream(seed, stream);
            while !game.is_over() && game.ply_count() < max_plies {
                positions.push(*game.position());
                let action = game.legal().random(&mut rng).expect("the game goes on");
                game.play_unchecked(action);
            }
            positions.push(*game.position());
        }
    }
    positions
}
