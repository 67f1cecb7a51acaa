//! Hand-built positions for tests, written as docs/rules.md writes its examples.

use agon_core::{Position, Rules, Setup, Side};

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
