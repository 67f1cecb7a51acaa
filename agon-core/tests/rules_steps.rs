//! Steps (docs/rules.md section 3): to an adjacent empty cell on the same ring or one inward,
//! only a queen on the throne, and the refusals a player reads for every other try.

mod common;

use agon_core::{Position, Rules, Side};
use common::{legal, play, refusal, setup, steps_from};

/// The 27 first actions of the standard start (the same list as Ludii's divide files).
#[test]
fn the_first_actions_of_the_standard_start() {
    let start = Position::start(Rules::STANDARD);
    let mut expected: Vec<&str> = vec![
        "h9-g9", "h9-g10", "h9-i8", "h9-h8", "l5-k5", "l5-k6", "l5-l6", "l5-l4", "d9-c8", "d9-e10",
        "d9-e9", "d9-d8", "k1-i1", "k1-i2", "k1-k2", "k1-l1", "a5-a6", "a5-b6", "a5-b5", "a5-a4",
        "b1-a1", "b1-b2", "b1-c2", "b1-c1", "f1-e1", "f1-f2", "f1-g1",
    ];
    let mut actual = legal(&start);
    expected.sort();
    actual.sort();
    assert_eq!(actual, expected);
}

/// A piece moves sideways along its ring or one ring inward, never outward; only the
/// queen enters the throne.
#[test]
fn steps_go_sideways_or_inward() {
    let position = setup(
        "standard",
        Side::White,
        "Qe6 Gf2 Gl1 Gl2 Gl3 Gl4 Gk1",
        "Qf11 Gg10 Gd9 Gh9 Gc8 Gi8 Gb7",
    );
    // f2 (ring 4): g2 and e2 along ring 4, f3 inward; g1, f1, e1 are on ring 5.
    assert_eq!(steps_from(&position, "f2"), ["e2", "f3", "g2"]);
    // e6 (ring 1): e5 and f7 along ring 1, and the throne.
    assert_eq!(steps_from(&position, "e6"), ["e5", "f6", "f7"]);
    let (after, _) = play(&position, "e6-f6");
    assert!(steps_from(&after, "f6").is_empty());

    assert_eq!(
        refusal(&position, "f2-f1"),
        "pieces never step outward (f2 is on ring 4, f1 on ring 5)"
    );
    assert_eq!(refusal(&position, "f2-f4"), "f4 is not next to f2");
    assert_eq!(refusal(&position, "f2-f2"), "f2 is not next to f2");
    assert_eq!(refusal(&position, "l1-l2"), "l2 is occupied");
    assert_eq!(refusal(&position, "f6-f5"), "there is no piece on f6");
    assert_eq!(
        refusal(&position, "f11-e10"),
        "the piece on f11 belongs to the opponent"
    );
    assert_eq!(
        refusal(&position, "f2@a1"),
        "the piece on f2 is not captured, so it cannot be relocated"
    );
    assert_eq!(
        refusal(&position, "Q@a1"),
        "no piece is left in hand to place"
    );

    let guard_next_to_throne = setup(
        "standard",
        Side::White,
        "Qk1 Ge6 Gl1 Gl2 Gl3 Gl4 Gi1",
        "Qf11 Gg10 Gd9 Gh9 Gc8 Gi8 Gb7",
    );
    assert_eq!(steps_from(&guard_next_to_throne, "e6"), ["e5", "f7"]);
    assert_eq!(
        refusal(&guard_next_to_throne, "e6-f6"),
        "guards may not enter the throne"
    );
}
