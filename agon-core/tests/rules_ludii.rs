//! The `ludii` preset (docs/rules.md section 8) on hand-built positions: how it differs from the
//! standard rules. (Ludii's own data is replayed in tests/tests/ludii_conformance.rs.)

mod common;

use agon_core::Side;
use common::{cell, play, refusal, setup, steps_from};

/// Relocations are never restricted by intervention and never capture.
#[test]
fn relocations_land_anywhere_and_capture_nothing() {
    let white = "Qk1 Gg7x Ga1 Ge1 Gl1 Gl2 Gl3";
    let black = "Qf11 Gb1 Gd1 Gg10 Gd9 Gh9 Gc8";
    assert_eq!(
        refusal(&setup("standard", Side::White, white, black), "g7@c1"),
        "c1 lies between two Black pieces"
    );
    let (after, captured) = play(&setup("ludii", Side::White, white, black), "g7@c1");
    assert!(captured.is_empty());
    assert!(!after.piece_at(cell("b1")).unwrap().captured);
    assert!(!after.piece_at(cell("c1")).unwrap().captured);
}

/// Captured pieces still count for "between": e5 lies between the active f5 and the
/// captured d5, which closes it under `ludii` and not under the standard rules. Flanking
/// the captured d5 again (c5 beyond) changes nothing and is not listed.
#[test]
fn captured_pieces_still_surround_and_are_not_captured_again() {
    let white = "Qk1 Ge4 Gc5 Gg4 Gl1 Gl2 Gl3";
    let black = "Qf11 Gd5x Gf5 Ge10 Gg10 Gd9 Gh9";
    let ludii = setup("ludii", Side::White, white, black);
    assert_eq!(steps_from(&ludii, "e4"), ["d4", "f4"]);
    assert_eq!(refusal(&ludii, "e4-e5"), "e5 lies between two Black pieces");
    let standard = setup("standard", Side::White, white, black);
    assert_eq!(steps_from(&standard, "e4"), ["d4", "e5", "f4"]);

    // e6 flanks the captured d5 with c4 beyond: nothing changes (Ludii's data marks such
    // a ply `(re:d5)`), and the captures list stays empty.
    let flank = setup("ludii", Side::White, "Qk1 Gd6 Gc4 Gg4 Gl1 Gl2 Gl3", black);
    let (after, captured) = play(&flank, "d6-e6");
    assert!(captured.is_empty());
    assert!(after.piece_at(cell("d5")).unwrap().captured);
}
