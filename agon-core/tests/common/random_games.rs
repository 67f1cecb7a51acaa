// Games from random play: the one definition shared by agon-core's integration tests
// (`common/mod.rs`) and its agents' unit tests (`src/agents/mod.rs`), which both
// `include!` this file, as a unit test cannot link the helpers of `tests/`. It names
// `ActionList`, `Game`, `Rng` and `Rules` as the including module imports them. The
// pinned searches of tests/data/search/ depend on its exact random sequence.

/// `count` games under `rules`, game `i` played at random from the start with the stream
/// `i` of `seed` and stopped after a random number of plies below `max_plies`; the games
/// that ended are left out.
pub fn random_games(rules: Rules, count: u64, seed: u64, max_plies: usize) -> Vec<Game> {
    let mut games = Vec::new();
    let mut list = ActionList::new();
    for i in 0..count {
        let mut rng = Rng::for_stream(seed, i);
        let mut game = Game::new(rules);
        let plies = rng.below(max_plies);
        while !game.is_over() && game.ply_count() < plies {
            game.position().legal().generate(&mut list);
            game.play_unchecked(list[rng.below(list.len())]);
        }
        if !game.is_over() {
            games.push(game);
        }
    }
    games
}
