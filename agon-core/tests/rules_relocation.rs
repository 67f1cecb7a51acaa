//! Relocation of captured pieces (docs/rules.md sections 3 and 5, and the relocation switches
//! of section 8): queen first, guards to the outer ring, captures and intervention as for
//! a step, `relocate-throne=forbidden` and `queen-relocated-by=opponent`.

mod common;

use agon_core::{Cell, Phase, Position, Side};
use common::{cell, empty_outer_except, legal, play, refusal, setup, sorted, steps_from};

/// Every empty cell of a position except `except`.
fn empty_except(position: &Position, except: &str) -> Vec<String> {
    let except = sorted(except);
    common::names(position.empty_cells())
        .into_iter()
        .filter(|c| !except.contains(c))
        .collect()
}

fn relocations(from: &[&str], to: &[String]) -> Vec<String> {
    let mut all: Vec<(Cell, Cell)> = from
        .iter()
        .flat_map(|f| to.iter().map(move |t| (cell(f), cell(t))))
        .collect();
    all.sort();
    all.iter().map(|(f, t)| format!("{f}@{t}")).collect()
}

/// White's queen (d4) and a guard (g7) are captured. Black's c5 and e5 surround d5, and
/// its d9 and f11 surround e10.
const QUEEN_AND_GUARD: (&str, &str) = (
    "Qd4x Gg7x Gl1 Gl2 Gl3 Gl4 Gk1",
    "Qf11 Gc5 Ge5 Gg10 Gd9 Gh9 Gc8",
);

fn queen_and_guard(rules_name: &str) -> Position {
    setup(
        rules_name,
        Side::White,
        QUEEN_AND_GUARD.0,
        QUEEN_AND_GUARD.1,
    )
}

#[test]
fn the_captured_queen_is_relocated_first_to_any_empty_cell() {
    let position = queen_and_guard("standard");
    assert_eq!(position.phase(), Phase::Relocation);
    assert_eq!(position.decider(), Side::White);
    let expected = relocations(&["d4"], &empty_except(&position, "d5 e10"));
    assert_eq!(expected.len(), 75);
    assert_eq!(legal(&position), expected);
    // The throne is open to a relocated queen under the standard rules.
    assert!(expected.contains(&"d4@f6".to_string()));
    let due = "a relocation is due: White's captured queen on d4 must be relocated first";
    assert_eq!(refusal(&position, "g7@a1"), due);
    assert_eq!(refusal(&position, "k1-i1"), due);
    assert_eq!(refusal(&position, "pass"), due);
    assert_eq!(refusal(&queen_and_guard("touch-move=on"), "pass"), due);
    assert_eq!(
        refusal(&position, "d4@d5"),
        "d5 lies between two Black pieces"
    );
    assert_eq!(refusal(&position, "d4@c5"), "c5 is occupied");
    assert_eq!(refusal(&position, "d4@d4"), "d4 is occupied");

    // The guard comes next, on White's following turn.
    let (after, _) = play(&position, "d4@f6");
    let (after, _) = play(&after, "f11-e10");
    assert_eq!(after.phase(), Phase::Relocation);
    assert!(legal(&after).iter().all(|a| a.starts_with("g7@")));
    assert_eq!(
        refusal(&after, "k1-i1"),
        "a relocation is due: White's captured guard on g7 must be relocated first"
    );
}

/// Captured guards go to empty outer-ring cells, one per turn in the owner's chosen order,
/// and like steps may not land between two active enemy pieces (c1, between b1 and d1).
#[test]
fn captured_guards_go_to_the_outer_ring() {
    let position = setup(
        "standard",
        Side::White,
        "Qk1 Gg7x Ge3x Gl1 Gl2 Gl3 Gl4",
        "Qf11 Gb1 Gd1 Gg10 Gd9 Gh9 Gc8",
    );
    let outer = empty_outer_except(&position, "c1 e10");
    assert_eq!(outer.len(), 16);
    assert_eq!(legal(&position), relocations(&["e3", "g7"], &outer));
    assert_eq!(
        refusal(&position, "g7@f7"),
        "a captured guard is relocated to an empty outer-ring cell, and f7 is on ring 1"
    );
    assert_eq!(
        refusal(&position, "g7@c1"),
        "c1 lies between two Black pieces"
    );
    assert_eq!(refusal(&position, "g7@f11"), "f11 is occupied");
    assert_eq!(
        refusal(&position, "l1@a1"),
        "the piece on l1 is not captured, so it cannot be relocated"
    );
    assert_eq!(
        refusal(&position, "b1@a1"),
        "the piece on b1 belongs to the opponent"
    );
    assert_eq!(refusal(&position, "a3@a1"), "there is no piece on a3");
}

/// A relocation captures exactly like a step; "between" is judged before its captures.
#[test]
fn relocations_capture_and_obey_intervention() {
    let white = "Qk1 Gg7x Ga1 Ge1 Gl1 Gl2 Gl3";
    let black = "Qf11 Gb1 Gd1 Gg10 Gd9 Gh9 Gc8";
    // c1 would capture b1 and d1 (a1 and e1 beyond), but lies between them.
    assert_eq!(
        refusal(&setup("standard", Side::White, white, black), "g7@c1"),
        "c1 lies between two Black pieces"
    );
    for rules in ["intervention=suicide", "intervention=safe"] {
        let (after, captured) = play(&setup(rules, Side::White, white, black), "g7@c1");
        assert_eq!(captured, ["b1", "d1"], "{rules}");
        assert!(!after.piece_at(cell("c1")).unwrap().captured, "{rules}");
    }
    // Without the flankers, suicide captures the relocated guard itself.
    let lonely = setup(
        "intervention=suicide",
        Side::White,
        "Qk1 Gg7x Gl1 Gl2 Gl3 Gl4 Gi1",
        black,
    );
    assert_eq!(play(&lonely, "g7@c1").1, ["c1"]);
    // A queen relocation captures too: on e6 she flanks e5 with the guard on e4.
    let queen = setup(
        "standard",
        Side::White,
        "Qd4x Ge4 Gl1 Gl2 Gl3 Gl4 Gk1",
        QUEEN_AND_GUARD.1,
    );
    let (after, captured) = play(&queen, "d4@e6");
    assert_eq!(captured, ["e5"]);
    assert_eq!(after.to_move(), Side::Black);
    assert_eq!(after.phase(), Phase::Relocation);
}

/// `relocate-throne=forbidden`: a relocated queen may not go on the throne; a queen may
/// still step onto it.
#[test]
fn relocate_throne_forbidden() {
    let position = queen_and_guard("relocate-throne=forbidden");
    assert_eq!(
        legal(&position),
        relocations(&["d4"], &empty_except(&position, "d5 e10 f6"))
    );
    assert_eq!(
        refusal(&position, "d4@f6"),
        "with relocate-throne=forbidden a relocated queen may not go on the throne"
    );
    let stepping = setup(
        "relocate-throne=forbidden",
        Side::White,
        "Qe6 Gk1 Gl1 Gl2 Gl3 Gl4 Gi1",
        "Qf11 Gg10 Gd9 Gh9 Gc8 Gi8 Gb7",
    );
    assert!(steps_from(&stepping, "e6").contains(&"f6".to_string()));
}

/// `queen-relocated-by=opponent`: Black decides where White's captured queen goes (the
/// turn is still White's), and may never put her between two active Black pieces,
/// whatever the intervention setting.
#[test]
fn queen_relocated_by_the_opponent() {
    let position = queen_and_guard("queen-relocated-by=opponent");
    assert_eq!(position.to_move(), Side::White);
    assert_eq!(position.decider(), Side::Black);
    let allowed = relocations(&["d4"], &empty_except(&position, "d5 e10"));
    assert_eq!(legal(&position), allowed);
    assert_eq!(
        refusal(&position, "d4@d5"),
        "Black chooses where the queen goes and may not put her on d5, between two Black pieces"
    );
    for rules in [
        "intervention=safe,queen-relocated-by=opponent",
        "intervention=suicide,queen-relocated-by=opponent",
    ] {
        let position = queen_and_guard(rules);
        assert_eq!(legal(&position), allowed, "{rules}");
        assert_eq!(position.decider(), Side::Black);
    }
    // The same cells are open to White itself under intervention=safe.
    let owner = queen_and_guard("intervention=safe");
    assert_eq!(owner.decider(), Side::White);
    assert_eq!(
        legal(&owner),
        relocations(&["d4"], &empty_except(&owner, ""))
    );

    // After the queen, White relocates its guard and decides itself.
    let (after, _) = play(&position, "d4@a3");
    assert_eq!(after.to_move(), Side::Black);
    assert_eq!(after.decider(), Side::Black);
    let (after, _) = play(&after, "f11-e10");
    assert_eq!(after.phase(), Phase::Relocation);
    assert_eq!(after.decider(), Side::White);

    // The relocation still captures like a step, even a piece of the side that chose.
    let capturing = setup(
        "queen-relocated-by=opponent",
        Side::White,
        "Qd4x Ge4 Gl1 Gl2 Gl3 Gl4 Gk1",
        QUEEN_AND_GUARD.1,
    );
    assert_eq!(play(&capturing, "d4@e6").1, ["e5"]);
}

/// Black's queen and the decider from Black's side, on a mirrored position.
#[test]
fn queen_relocated_by_the_opponent_for_black() {
    let position = queen_and_guard("queen-relocated-by=opponent").mirrored();
    assert_eq!(position.to_move(), Side::Black);
    assert_eq!(position.decider(), Side::White);
    assert_eq!(position.legal().count(), 75);
    assert_eq!(
        refusal(&position, "h6@h5"),
        "White chooses where the queen goes and may not put her on h5, between two White pieces"
    );
}
