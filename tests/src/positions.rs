//! Positions and games for tests: hand-built positions written as docs/rules.md writes its
//! examples, and games after a few moves.

use agon_core::{Game, Position, Rules, Setup, Side};

/// The position under `rules` with White's and Black's pieces listed as in the rule book
/// (`Qf6 Gd5 Ge4x`: see [`Setup::with_pieces`]) and `to_move` to move. Panics, naming the
/// problem, unless it is a position that can arise in a game ([`Position::from_setup`]).
pub fn position(rules: Rules, to_move: Side, white: &str, black: &str) -> Position {
    let setup = Setup::empty()
        .with_to_move(to_move)
        .with_pieces(Side::White, white)
        .and_then(|s| s.with_pieces(Side::Black, black))
        .unwrap_or_else(|e| panic!("{e}"));
    Position::from_setup(setup, rules).unwrap_or_else(|e| panic!("invalid test position: {e}"))
}

/// The standard game after `moves` (each must be legal).
pub fn game_of(moves: &[&str]) -> Game {
    let mut game = Game::new(Rules::STANDARD);
    for m in moves {
        let action = m.parse().unwrap_or_else(|e| panic!("{e}"));
        game.play(action).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}
