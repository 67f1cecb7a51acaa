//! The placement openings (docs/rules.md section 8, variation 1) and touch-move passes
//! (variation 3).

mod common;

use agon_core::{Action, Game, Phase, PieceKind, Position, Side};
use common::{legal, play, play_all, refusal, rules, sorted, OUTER_RING};

fn placements(kind: &str, cells: &[String]) -> Vec<String> {
    cells.iter().map(|c| format!("{kind}@{c}")).collect()
}

#[test]
fn placement_starts_empty_with_every_piece_in_hand_and_queens_first() {
    let start = Position::start(rules("opening=placement"));
    assert!(common::survives_from_setup(&start));
    assert!(start.occupied().is_empty());
    for side in Side::BOTH {
        assert_eq!(start.in_hand(side, PieceKind::Queen), 1);
        assert_eq!(start.in_hand(side, PieceKind::Guard), 6);
    }
    assert_eq!(start.phase(), Phase::Placement);
    assert_eq!(start.decider(), Side::White);
    assert_eq!(legal(&start), placements("Q", &sorted(OUTER_RING)));
    assert_eq!(
        refusal(&start, "G@a1"),
        "the queen must be placed before any guard"
    );
    assert_eq!(
        refusal(&start, "Q@f6"),
        "f6 is not an empty cell of the outer ring, where pieces are placed"
    );
    let due = "the placement opening is not finished: White must place its queen (like `Q@a1`)";
    assert_eq!(refusal(&start, "f1-e1"), due);
    assert_eq!(refusal(&start, "pass"), due);
    assert_eq!(refusal(&start, "d9@a5"), due);

    let (after, captured) = play(&start, "Q@f1");
    assert!(captured.is_empty());
    let rest: Vec<String> = sorted(OUTER_RING)
        .into_iter()
        .filter(|c| c != "f1")
        .collect();
    assert_eq!(legal(&after), placements("Q", &rest));
    assert_eq!(
        refusal(&after, "Q@f1"),
        "f1 is not an empty cell of the outer ring, where pieces are placed"
    );
    let (after, _) = play(&after, "Q@a1");
    assert_eq!(
        legal(&after),
        placements(
            "G",
            &rest.into_iter().filter(|c| c != "a1").collect::<Vec<_>>()
        )
    );
    assert_eq!(refusal(&after, "Q@b1"), "no piece is left in hand to place");
}

#[test]
fn placement_opposed_puts_blacks_queen_opposite_whites() {
    let start = Position::start(rules("opening=placement-opposed"));
    assert_eq!(legal(&start).len(), 30);
    for (white, black) in [("f1", "f11"), ("a1", "l6"), ("b1", "k7"), ("a4", "l3")] {
        let (after, _) = play(&start, &format!("Q@{white}"));
        assert_eq!(legal(&after), [format!("Q@{black}")]);
    }
    let (after, _) = play(&start, "Q@f1");
    assert_eq!(
        refusal(&after, "Q@e10"),
        "with opening=placement-opposed Black's queen must go on f11, opposite White's"
    );
    // Guards go anywhere on the outer ring afterwards.
    let (after, _) = play(&after, "Q@f11");
    assert_eq!(legal(&after).len(), 28);
}

/// Placements never capture and are never captured, even between two enemies under the
/// suicide rule; after 14 placements White makes the first step.
#[test]
fn placements_neither_capture_nor_are_captured_and_white_steps_first() {
    let mut game = Game::new(rules(
        "intervention=suicide,opening=placement,touch-move=on",
    ));
    // c1 goes between b1 and d1; f1 flanks e1 with d1 beyond.
    play_all(
        &mut game,
        "Q@b1 Q@a6 G@d1 G@c1 G@k1 G@e1 G@f1 G@g10 G@l1 G@h9 G@l2 G@i8 G@l3",
    );
    assert!(game.plies().iter().all(|p| p.captures.is_empty()));
    assert_eq!(game.position().to_move(), Side::Black);
    assert_eq!(game.position().phase(), Phase::Placement);
    assert!(!legal(game.position()).contains(&"pass".to_string()));
    play_all(&mut game, "G@k7");
    let position = *game.position();
    assert!(common::survives_from_setup(&position));
    assert!(position.captured().is_empty());
    for side in Side::BOTH {
        assert_eq!(position.in_hand(side, PieceKind::Guard), 0);
    }
    assert_eq!(position.to_move(), Side::White);
    assert_eq!(position.phase(), Phase::Normal);
    let actions = position.legal().to_vec();
    assert_eq!(actions.last(), Some(&Action::Pass));
    assert!(actions[..actions.len() - 1]
        .iter()
        .all(|a| matches!(a, Action::Step { .. })));
    assert_eq!(
        refusal(&position, "G@a2"),
        "no piece is left in hand to place"
    );
}

/// Touch-move: on a turn of normal play with no relocation due a side may pass, even
/// when it has steps. (Passes during placement or with a relocation due are refused: see
/// the placement test above and rules_relocation.rs.)
#[test]
fn touch_move_allows_a_pass_beside_the_steps() {
    let start = Position::start(rules("touch-move=on"));
    let actions = legal(&start);
    assert_eq!(actions.len(), 28);
    assert_eq!(actions.last().map(String::as_str), Some("pass"));
    let (after, captured) = play(&start, "pass");
    assert!(captured.is_empty());
    assert_eq!(after.to_move(), Side::Black);
    assert_eq!(after.occupied(), start.occupied());
    assert_eq!(after.passes(), 1);

    let standard = Position::start(rules("standard"));
    assert_eq!(
        refusal(&standard, "pass"),
        "passing is only allowed with touch-move=on, on a turn with no relocation due"
    );
}
