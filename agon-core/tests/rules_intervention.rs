//! Intervention (docs/rules.md section 4, and `intervention=suicide|safe` of section 8): may a
//! piece end between two active enemy pieces, when is that judged, and what happens.

mod common;

use agon_core::{Game, Phase, Position, Side};
use common::{cell, names, play, play_all, refusal, setup, steps_from};

const WHITE: &str = "Qk1 Ge4 Gc5 Gg4 Gl1 Gl2 Gl3";
const BLACK: &str = "Qf11 Gd5 Gf5 Ge10 Gg10 Gd9 Gh9";

/// e5 lies between d5 and f5 (both Black). White's e4-e5 would capture both (c5 and g4
/// are beyond them), but "between" is judged before the action's own captures.
fn surrounded(rules_name: &str) -> Position {
    setup(rules_name, Side::White, WHITE, BLACK)
}

#[test]
fn forbidden_a_step_may_not_end_between_two_active_enemies() {
    let position = surrounded("standard");
    assert_eq!(steps_from(&position, "e4"), ["d4", "f4"]);
    assert_eq!(
        refusal(&position, "e4-e5"),
        "e5 lies between two Black pieces"
    );
}

#[test]
fn suicide_captures_first_and_then_spares_a_piece_no_longer_between() {
    let position = surrounded("intervention=suicide");
    assert_eq!(steps_from(&position, "e4"), ["d4", "e5", "f4"]);
    let (after, captured) = play(&position, "e4-e5");
    assert_eq!(captured, ["d5", "f5"]);
    assert!(!after.piece_at(cell("e5")).unwrap().captured);
}

#[test]
fn safe_allows_the_step_and_captures_as_usual() {
    let position = surrounded("intervention=safe");
    let (after, captured) = play(&position, "e4-e5");
    assert_eq!(captured, ["d5", "f5"]);
    assert!(!after.piece_at(cell("e5")).unwrap().captured);
}

/// Under suicide a piece still between two active enemies after its own captures is
/// captured, and the capture lists its own cell (the notation writes `e6-e5xe4xe5`).
#[test]
fn suicide_captures_the_arriving_piece_and_lists_it() {
    let position = setup(
        "intervention=suicide",
        Side::White,
        "Qk1 Ge6 Ge3 Gl1 Gl2 Gl3 Gl4",
        "Qf11 Gd5 Gf5 Ge4 Gg10 Gd9 Gh9",
    );
    // e4 is flanked (e3 beyond) and falls, but d5 and f5 still surround e5.
    let (after, captured) = play(&position, "e6-e5");
    assert_eq!(captured, ["e4", "e5"]);
    assert!(after.piece_at(cell("e5")).unwrap().captured);
    assert!(after.piece_at(cell("e4")).unwrap().captured);
    // Both sides now have a captured piece; Black relocates first, then White.
    assert_eq!(after.phase(), Phase::Relocation);
    assert_eq!(after.to_move(), Side::Black);

    // Without the flanker on e3 only the arriving piece falls.
    let alone = setup(
        "intervention=suicide",
        Side::White,
        "Qk1 Ge6 Gl1 Gl2 Gl3 Gl4 Gi1",
        "Qf11 Gd5 Gf5 Ge4 Gg10 Gd9 Gh9",
    );
    assert_eq!(play(&alone, "e6-e5").1, ["e5"]);
}

/// Under `intervention=safe` a piece may rest between two enemies; it is captured only
/// when an enemy piece arrives next to it with another beyond (the arriving piece must be
/// a flanker), not by unrelated actions.
#[test]
fn safe_a_piece_between_two_enemies_falls_only_to_an_arriving_flanker() {
    let start = setup(
        "intervention=safe",
        Side::White,
        "Qk1 Ge4 Gl1 Gl2 Gl3 Gl4 Gi1",
        "Qf11 Gd5 Gf5 Gc5 Gg10 Gd9 Gh9",
    );
    let mut game = Game::from_position(start);
    // e5 between d5 and f5; then Black plays elsewhere; d5 steps away and c5 arrives on d5.
    play_all(&mut game, "e4-e5 f11-e10 k1-k2 d5-d4 l1-k1 c5-d5");
    let captures: Vec<Vec<String>> = game.plies().iter().map(|p| names(p.captures)).collect();
    let nothing: Vec<String> = Vec::new();
    assert_eq!(
        captures,
        [
            nothing.clone(),
            nothing.clone(),
            nothing.clone(),
            nothing.clone(),
            nothing,
            vec!["e5".to_string()]
        ]
    );
    assert_eq!(game.position().phase(), Phase::Relocation);
}

/// A queen may not enter the throne between two enemy pieces either.
#[test]
fn the_throne_between_two_enemies_is_closed_to_the_queen() {
    let position = setup(
        "standard",
        Side::White,
        "Qf5 Gk1 Gl1 Gl2 Gl3 Gl4 Gi1",
        "Qf11 Ge5 Gg6 Gg10 Gd9 Gh9 Gc8",
    );
    assert_eq!(steps_from(&position, "f5"), ["g5"]);
    assert_eq!(
        refusal(&position, "f5-f6"),
        "f6 lies between two Black pieces"
    );
}

/// With `capture=ring`, "between" follows the ring: e5 (ring 1) is between its ring
/// neighbours f5 and e6, not between e4 and e6 on a line across rings.
#[test]
fn ring_geometry_decides_between_for_intervention_too() {
    let across = "Qf11 Ge4 Ge6 Gg10 Gd9 Gh9 Gc8";
    let along = "Qf11 Gf5 Ge6 Gg10 Gd9 Gh9 Gc8";
    let white = "Qk1 Gd5 Gl1 Gl2 Gl3 Gl4 Gi1";
    let line = |black| setup("standard", Side::White, white, black);
    let ring = |black| setup("capture=ring", Side::White, white, black);
    assert_eq!(
        refusal(&line(across), "d5-e5"),
        "e5 lies between two Black pieces"
    );
    assert!(steps_from(&ring(across), "d5").contains(&"e5".to_string()));
    assert!(steps_from(&line(along), "d5").contains(&"e5".to_string()));
    assert_eq!(
        refusal(&ring(along), "d5-e5"),
        "e5 lies between two Black pieces"
    );
}

/// The three settings side by side on the same step, as a table.
#[test]
fn the_three_settings_on_one_step() {
    let position = |name: &str| {
        setup(
            name,
            Side::White,
            "Qk1 Ge4 Gl1 Gl2 Gl3 Gl4 Gi1",
            "Qf11 Gd5 Gf5 Ge10 Gg10 Gd9 Gh9",
        )
    };
    assert_eq!(
        refusal(&position("standard"), "e4-e5"),
        "e5 lies between two Black pieces"
    );
    assert_eq!(play(&position("intervention=suicide"), "e4-e5").1, ["e5"]);
    assert!(play(&position("intervention=safe"), "e4-e5").1.is_empty());
}
