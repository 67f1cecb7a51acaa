//! `Setup` -> `Position`: the one door between any arrangement and a position that can
//! arise in a game (docs/rules.md sections 2, 7 and 8), with every refusal typed and named.

mod common;

use agon_core::{Game, PieceKind, Position, PositionErrorKinds as Kinds, Rng, Rules, Setup, Side};
use common::{cell, rules};

fn refusal(setup: Setup, rules_name: &str) -> (Kinds, String) {
    match Position::from_setup(setup.clone(), rules(rules_name)) {
        Ok(position) => panic!("accepted under {rules_name}:\n{position}"),
        Err(e) => {
            assert_eq!(e.setup(), &setup, "the error hands the setup back");
            assert_eq!(e.rules(), rules(rules_name));
            (e.kinds(), e.to_string())
        }
    }
}

/// A placement game after some placements (`Q@a1 ...`), as a setup to break.
fn placement_setup(rules_name: &str, actions: &str) -> Setup {
    let mut game = Game::new(rules(rules_name));
    common::play_all(&mut game, actions);
    game.position().to_setup()
}

#[test]
fn a_lone_guard_on_the_throne_is_refused_with_every_reason() {
    let setup = Setup::empty().with_pieces(Side::White, "Gf6").unwrap();
    let (kinds, message) = refusal(setup, "standard");
    assert_eq!(kinds, Kinds::PIECE_COUNT | Kinds::GUARD_ON_THRONE);
    assert_eq!(
        message,
        "White has 0 queens on the board and 0 in hand; expected 1 in all; \
         White has 1 guard on the board and 0 in hand; expected 6 in all; \
         Black has 0 queens on the board and 0 in hand; expected 1 in all; \
         Black has 0 guards on the board and 0 in hand; expected 6 in all; \
         a guard on the throne f6: only a queen may stand there"
    );
}

#[test]
fn pieces_in_hand_need_a_placement_opening() {
    let mut setup = Position::start(Rules::STANDARD).to_setup();
    setup.pieces.remove(&cell("b1"));
    let setup = setup.with_in_hand(Side::White, PieceKind::Guard, 1);
    let (kinds, message) = refusal(setup.clone(), "standard");
    assert_eq!(kinds, Kinds::HAND_WITHOUT_PLACEMENT);
    assert_eq!(
        message,
        "pieces in hand need a placement opening, but the rules are `standard`"
    );
    // Too many in hand is a count problem as well.
    let (kinds, _) = refusal(
        setup.with_in_hand(Side::White, PieceKind::Guard, 2),
        "ludii",
    );
    assert_eq!(kinds, Kinds::PIECE_COUNT | Kinds::HAND_WITHOUT_PLACEMENT);
}

#[test]
fn placement_positions_follow_the_placement_rules() {
    let rules_name = "opening=placement";
    let after_two = placement_setup(rules_name, "Q@a1 Q@l6");
    assert!(Position::from_setup(after_two.clone(), rules(rules_name)).is_ok());

    let mut captured = after_two.clone();
    captured.pieces.get_mut(&cell("a1")).unwrap().captured = true;
    assert_eq!(
        refusal(captured, rules_name),
        (
            Kinds::CAPTURED_DURING_PLACEMENT,
            "no piece can be captured during the placement opening".into()
        )
    );

    let mut inside = after_two.clone();
    let queen = inside.pieces.remove(&cell("a1")).unwrap();
    inside.pieces.insert(cell("c3"), queen);
    assert_eq!(
        refusal(inside, rules_name).0,
        Kinds::OFF_OUTER_RING_DURING_PLACEMENT
    );

    assert_eq!(
        refusal(after_two.clone().with_to_move(Side::Black), rules_name),
        (
            Kinds::PLACEMENT_TURN,
            "placements alternate from White: with 1 White and 1 Black pieces placed, White \
             is to move"
                .into()
        )
    );

    let guard_first = Setup::empty()
        .with_pieces(Side::White, "Gb1")
        .unwrap()
        .with_in_hand(Side::White, PieceKind::Queen, 1)
        .with_in_hand(Side::White, PieceKind::Guard, 5)
        .with_in_hand(Side::Black, PieceKind::Queen, 1)
        .with_in_hand(Side::Black, PieceKind::Guard, 6)
        .with_to_move(Side::Black);
    assert_eq!(
        refusal(guard_first, rules_name),
        (
            Kinds::GUARD_BEFORE_QUEEN,
            "White placed a guard before its queen".into()
        )
    );

    assert_eq!(
        refusal(after_two.clone().with_passes(1), rules_name),
        (
            Kinds::PASS_DURING_PLACEMENT,
            "no pass is possible during the placement opening".into()
        )
    );

    // Under placement-opposed Black's queen goes opposite White's, never next to her.
    let opposed = "opening=placement-opposed";
    let a1 = cell("a1");
    let next_to = placement_setup(rules_name, "Q@a1 Q@b1");
    assert_eq!(
        refusal(next_to, opposed),
        (
            Kinds::PLACEMENT_OPPOSED,
            "with opening=placement-opposed Black's queen stands opposite White's".into()
        )
    );
    let right = placement_setup(opposed, &format!("Q@a1 Q@{}", a1.opposite()));
    assert!(Position::from_setup(right, rules(opposed)).is_ok());
}

/// Every position of random games, under every single-switch rule set and `ludii`, goes
/// through its setup and back unchanged (hash included).
#[test]
fn positions_of_games_survive_their_setup() {
    let mut sets = Rules::single_switch_variants();
    sets.push(Rules::LUDII);
    let mut positions = 0;
    for rules in sets {
        for seed in 0..6 {
            let mut game = Game::new(rules);
            agon_core::random_playout(&mut game, &mut Rng::new(seed), 300);
            for i in 0..=game.ply_count() {
                let position = *game.position_before(i).unwrap();
                let again = Position::from_setup(position.to_setup(), rules)
                    .unwrap_or_else(|e| panic!("{rules}: {e}\n{position}"));
                assert_eq!(again, position);
                assert_eq!(again.hash(), position.hash());
                assert_eq!(again.passes(), position.passes());
                positions += 1;
            }
        }
    }
    assert!(positions > 5_000, "{positions}");
}

#[test]
fn piece_lists_name_what_is_wrong() {
    let error = |list: &str| {
        Setup::empty()
            .with_pieces(Side::White, list)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("Qf6 Kd5"),
        "`Kd5` is not a piece: expected Q (queen) or G (guard), a cell and an optional x \
         (captured), like `Qf6` or `Ge4x`"
    );
    assert_eq!(
        error("Qf6 Gf6"),
        "`Gf6` is not a piece: f6 already holds a piece"
    );
    assert!(
        error("Gz9").starts_with("`Gz9` is not a piece: "),
        "{}",
        error("Gz9")
    );
    let setup = Setup::empty()
        .with_pieces(Side::Black, "Qf11, Ga1x")
        .unwrap();
    assert_eq!(setup.pieces.len(), 2);
    assert!(setup.pieces[&cell("a1")].captured);
}
