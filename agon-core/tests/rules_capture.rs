//! Captures (docs/rules.md sections 4 and 5, and `capture=ring` of section 8), each on a
//! hand-built position: what is captured, what is not, and what the captured side must do.

mod common;

use agon_core::{Cell, Formation, Phase, Piece, PieceKind, Side};
use common::{cell, empty_outer_except, legal, play, refusal, setup, sorted, steps_from};

/// Every relocation of the pieces on `from` to each of `to`, in the engine's order.
fn relocations(from: &[&str], to: &[String]) -> Vec<String> {
    let mut all: Vec<(Cell, Cell)> = from
        .iter()
        .flat_map(|f| to.iter().map(move |t| (cell(f), cell(t))))
        .collect();
    all.sort();
    all.iter().map(|(f, t)| format!("{f}@{t}")).collect()
}

fn guard(side: Side, captured: bool) -> Option<Piece> {
    Some(Piece {
        side,
        kind: PieceKind::Guard,
        captured,
    })
}

/// A step that ends next to an enemy piece with an own piece beyond captures it; the
/// captured piece stays on its cell and its owner must relocate it next.
#[test]
fn a_step_captures_along_a_line() {
    let position = setup(
        "standard",
        Side::White,
        "Qk1 Ge4 Gc5 Gl1 Gl2 Gl3 Gl4",
        "Qf11 Gd5 Ge10 Gg10 Gd9 Gh9 Gc8",
    );
    // e4 is on ring 2: it may step sideways (d4, f4) or inward (e5, f5), never out to ring 3.
    assert_eq!(steps_from(&position, "e4"), ["d4", "e5", "f4", "f5"]);
    assert_eq!(play(&position, "e4-e5").1, ["d5"]);
    // d4 is next to d5 too, but the cell beyond d5 (d6) is empty.
    assert!(play(&position, "e4-d4").1.is_empty());

    let (after, _) = play(&position, "e4-e5");
    assert_eq!(after.piece_at(cell("d5")), guard(Side::Black, true));
    assert_eq!(after.to_move(), Side::Black);
    assert_eq!(after.phase(), Phase::Relocation);
    // No White pair surrounds an empty outer-ring cell: d5 may go to any of them.
    assert_eq!(
        legal(&after),
        relocations(&["d5"], &empty_outer_except(&after, ""))
    );
}

/// One step can capture on several lines at once.
#[test]
fn one_step_captures_two_pieces() {
    let position = setup(
        "standard",
        Side::White,
        "Qk1 Ge6 Gc5 Ge3 Gl1 Gl2 Gl3",
        "Qf11 Gd5 Ge4 Ge10 Gg10 Gd9 Gh9",
    );
    assert_eq!(play(&position, "e6-e5").1, ["d5", "e4"]);
    let (after, _) = play(&position, "e6-e5");
    // Black relocates one captured guard per turn, in the order it chooses.
    let outer = empty_outer_except(&after, "");
    assert_eq!(outer.len(), 21);
    assert_eq!(legal(&after), relocations(&["d5", "e4"], &outer));
    let (later, captured) = play(&after, "e4@a1");
    assert!(captured.is_empty());
    assert_eq!(later.to_move(), Side::White);
    assert_eq!(later.piece_at(cell("e4")), None);
    assert_eq!(later.piece_at(cell("a1")), guard(Side::Black, false));
    // d5 is still captured: White steps, then Black relocates it.
    assert_eq!(later.phase(), Phase::Normal);
    assert_eq!(later.piece_at(cell("d5")), guard(Side::Black, true));
}

/// The queen on the throne is captured by two enemy pieces on opposite ring-1 cells, and
/// only then; on the throne she can no longer step.
#[test]
fn the_queen_is_captured_on_the_throne() {
    let position = setup(
        "standard",
        Side::White,
        "Qk1 Gg6 Gd4 Gf4 Gl1 Gl2 Gl3",
        "Qf6 Ge10 Gg10 Gd9 Gh9 Gc8 Gi8",
    );
    // e5 is opposite g6 across the throne; f5 is not.
    assert_eq!(play(&position, "d4-e5").1, ["f6"]);
    assert!(play(&position, "f4-f5").1.is_empty());
    // Under capture=ring the throne (ring 0) lies on no ring: its queen is never captured.
    let ring = setup(
        "capture=ring",
        Side::White,
        "Qk1 Gg6 Gd4 Gf4 Gl1 Gl2 Gl3",
        "Qf6 Ge10 Gg10 Gd9 Gh9 Gc8 Gi8",
    );
    assert!(play(&ring, "d4-e5").1.is_empty());

    let black_to_move = common::edited(&position, |s| s.with_to_move(Side::Black));
    assert!(steps_from(&black_to_move, "f6").is_empty());

    let (after, _) = play(&position, "d4-e5");
    assert_eq!(
        after.piece_at(cell("f6")),
        Some(Piece {
            side: Side::Black,
            kind: PieceKind::Queen,
            captured: true
        })
    );
    // The only White pair with a cell between them is g6 and e5, around f6 itself: the
    // queen may go to any of the 77 empty cells.
    let moves = legal(&after);
    assert_eq!(moves.len(), 91 - 14);
    assert!(moves.iter().all(|m| m.starts_with("f6@")));
    assert_eq!(refusal(&after, "f6@f6"), "f6 is occupied");
}

/// Up to six pieces fall to one action: here a queen relocation under
/// `intervention=safe` into the middle of six enemy guards, each with a White guard beyond.
/// Under the standard rules that cell is forbidden (it lies between enemies).
#[test]
fn one_action_captures_six_pieces() {
    let white = "Qk1x Gf7 Gf5 Gd3 Gb3 Gb5 Gd7";
    let black = "Qf11 Ge6 Ge5 Gd4 Gc4 Gc5 Gd6";
    let standard = setup("standard", Side::White, white, black);
    assert_eq!(
        refusal(&standard, "k1@d5"),
        "d5 lies between two Black pieces"
    );

    let safe = setup("intervention=safe", Side::White, white, black);
    let (after, captured) = play(&safe, "k1@d5");
    assert_eq!(captured, sorted("c4 c5 d4 d6 e5 e6"));
    // Black now has six captured guards, each to be relocated to one of the 29 empty
    // outer-ring cells (no White piece is on the outer ring to forbid any).
    assert_eq!(after.phase(), Phase::Relocation);
    let outer = empty_outer_except(&after, "");
    assert_eq!(outer.len(), 29);
    assert_eq!(
        legal(&after),
        relocations(&["c4", "c5", "d4", "d6", "e5", "e6"], &outer)
    );
    assert_eq!(after.legal().count(), 6 * 29);

    // Under suicide the queen captures all six first, so she no longer stands between two
    // active enemies and survives.
    let suicide = setup("intervention=suicide", Side::White, white, black);
    assert_eq!(play(&suicide, "k1@d5").1, sorted("c4 c5 d4 d6 e5 e6"));
}

/// `capture=ring`: "between" runs along a ring, so a capture turns a corner (b1 and a2
/// capture a1; ring-1 neighbours f5 and e6 capture e5), and straight lines across rings no
/// longer capture (d5 between e6 and c4).
#[test]
fn ring_captures_turn_corners_and_lines_no_longer_capture() {
    let white = "Qk1 Gc1 Ga2 Ge7 Gf5 Gc4 Gl1";
    let black = "Qf11 Ga1 Ge5 Gd5 Ge10 Gg10 Gd9";
    let ring = setup("capture=ring", Side::White, white, black);
    let line = setup("standard", Side::White, white, black);
    assert_eq!(play(&ring, "c1-b1").1, ["a1"]);
    assert!(play(&line, "c1-b1").1.is_empty());
    assert_eq!(play(&ring, "e7-e6").1, ["e5"]);
    assert_eq!(play(&line, "e7-e6").1, ["d5"]);
}

/// Along a straight stretch of one ring, both geometries capture.
#[test]
fn a_straight_stretch_of_the_outer_ring_captures_in_both_geometries() {
    let white = "Qk1 Gb1 Ge1 Gl1 Gl2 Gl3 Gl4";
    let black = "Qf11 Gc1 Ge10 Gg10 Gd9 Gh9 Gc8";
    for rules in ["standard", "capture=ring"] {
        let position = setup(rules, Side::White, white, black);
        assert_eq!(play(&position, "e1-d1").1, ["c1"], "{rules}");
    }
}

/// A captured piece does not flank: a relocation next to an enemy piece whose far side
/// holds an own captured piece captures nothing (with the flanker active, it would).
#[test]
fn captured_pieces_do_not_flank() {
    let black = "Qf11 Gc2 Ge10 Gg10 Gd9 Gh9 Gi8";
    let inert = setup(
        "standard",
        Side::White,
        "Qk1 Gc3x Gg7x Gl1 Gl2 Gl3 Gl4",
        black,
    );
    assert!(play(&inert, "g7@c1").1.is_empty());
    let active = setup(
        "standard",
        Side::White,
        "Qk1 Gc3 Gg7x Gl1 Gl2 Gl3 Gl4",
        black,
    );
    assert_eq!(play(&active, "g7@c1").1, ["c2"]);
}

/// A captured piece does not make a cell "between" (e5 lies between the active f5 and the
/// captured d5, and White may step there), and cannot be captured again (the step flanks
/// d5 with c5 and f5 with g4: only f5 is captured).
#[test]
fn captured_pieces_neither_surround_nor_are_captured_again() {
    let position = setup(
        "standard",
        Side::White,
        "Qk1 Ge4 Gc5 Gg4 Gl1 Gl2 Gl3",
        "Qf11 Gd5x Gf5 Ge10 Gg10 Gd9 Gh9",
    );
    assert!(steps_from(&position, "e4").contains(&"e5".to_string()));
    let (after, captured) = play(&position, "e4-e5");
    assert_eq!(captured, ["f5"]);
    assert_eq!(after.piece_at(cell("d5")), guard(Side::Black, true));
}

/// A captured piece still occupies its cell: nothing steps or is relocated onto it.
#[test]
fn captured_pieces_block_their_cell() {
    let position = setup(
        "standard",
        Side::White,
        "Qk1 Ge4 Gc5 Gg4 Gl1 Gl2 Gl3",
        "Qf11 Gd5x Gf5 Ge10 Gg10 Gd9 Gh9",
    );
    assert_eq!(steps_from(&position, "c5"), ["c4", "c6", "d6"]);
    assert_eq!(refusal(&position, "c5-d5"), "d5 is occupied");
}

/// Captured guards do not count toward a formation: a queen on the throne with five
/// active guards and a captured one around her has not won, nor has anyone lost.
#[test]
fn captured_pieces_do_not_count_in_formations() {
    let with_captured = setup(
        "standard",
        Side::Black,
        "Qf6 Ge5 Ge6 Gf7 Gg6 Gg5x Gf5",
        "Qf11 Ge10 Gg10 Gd9 Gh9 Gc8 Gi8",
    );
    assert_eq!(with_captured.formation(Side::White), Formation::None);
    let all_active = setup(
        "standard",
        Side::Black,
        "Qf6 Ge5 Ge6 Gf7 Gg6 Gg5 Gf5",
        "Qf11 Ge10 Gg10 Gd9 Gh9 Gc8 Gi8",
    );
    assert_eq!(all_active.formation(Side::White), Formation::Won);
}
