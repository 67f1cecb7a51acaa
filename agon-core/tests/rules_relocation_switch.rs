//! The `relocation` switch (docs/rules.md section 8, "The `relocation` switch"): every
//! worked example of the rule book, and each decision (R3 to R14) on a hand-built position.
//!
//! The rule book writes its examples with only the pieces that matter. Under every value
//! but `removed` a position has all seven pieces of each side, so the positions here add
//! the missing guards ("fillers") where they change nothing the example counts: off the
//! target ring, off the outer ring when the example counts outer-ring cells, and never
//! where they would flank a counted cell. The counts themselves are asserted, so a filler
//! that mattered would fail the test.

mod common;

use agon_core::{
    Bitboard, Game, GameResult, Outcome, Phase, Position, Relocation, Rules, RulesError, Side,
    Termination,
};
use common::{cell, empty_outer_except, legal, names, play, play_all, refusal, rules, setup};

/// The destinations of the legal relocations (the only actions of a relocation turn).
fn destinations(position: &Position) -> Vec<String> {
    assert_eq!(position.phase(), Phase::Relocation, "{position}");
    names(
        position
            .legal()
            .to_vec()
            .into_iter()
            .map(|a| a.destination().expect("relocations have a destination")),
    )
}

fn outcome(result: GameResult, termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result,
        termination,
    })
}

/// The position after `actions` from the start of `rules_name`.
fn after(rules_name: &str, actions: &str) -> Game {
    let mut game = Game::new(rules(rules_name));
    play_all(&mut game, actions);
    game
}

// ----- next-ring -----

/// Example 1 (fillers: White guards on i7 and k6, Black guards on k2-k5, all on ring 4).
const NEXT_RING_1: (&str, &str) = (
    "Qf1 Gd4 Ge7 Gc4 Gc6 Gi7 Gk6",
    "Qf11 Gd5 Gb7 Gk2 Gk3 Gk4 Gk5",
);

#[test]
fn next_ring_a_guard_goes_one_ring_out() {
    let start = |name| setup(name, Side::White, NEXT_RING_1.0, NEXT_RING_1.1);
    let (position, captured) = play(&start("relocation=next-ring"), "e7-d6");
    assert_eq!(captured, ["d5"]);
    assert_eq!(cell("d5").ring(), 2);
    let ring3 = "c3 d3 d7 e3 e8 f3 f9 g3 g8 h3 h7 i3 i4 i5 i6";
    assert_eq!(destinations(&position), common::sorted(ring3));
    assert_eq!(legal(&position).len(), 15);
    assert_eq!(
        refusal(&position, "d5@a1"),
        "with relocation=next-ring the captured piece on d5 (ring 2) goes to ring 3, and a1 \
         is on ring 5"
    );
    assert_eq!(
        refusal(&position, "d5@e7"),
        "with relocation=next-ring the captured piece on d5 (ring 2) goes to ring 3, and e7 \
         is on ring 2"
    );
    assert_eq!(
        refusal(&position, "d5@c5"),
        "c5 lies between two White pieces"
    );
    assert_eq!(refusal(&position, "d5@c4"), "c4 is occupied");

    // Under intervention=safe, c5 (between c4 and c6) is allowed too.
    let (safe, _) = play(&start("intervention=safe,relocation=next-ring"), "e7-d6");
    assert_eq!(destinations(&safe).len(), 16);
    assert!(destinations(&safe).contains(&"c5".to_string()));

    // Under the default outer-ring, the same guard has the 27 free outer-ring cells.
    let (outer, _) = play(&start("standard"), "e7-d6");
    assert_eq!(destinations(&outer), empty_outer_except(&outer, ""));
    assert_eq!(destinations(&outer).len(), 27);
}

/// Example 2 (fillers: White guards on l1 l3 l4, Black guards on a1 a3 a4 a6).
const QUEEN_ON_THRONE: (&str, &str) =
    ("Qf1 Gf5 Gf8 Gd5 Gl1 Gl3 Gl4", "Qf6 Ge5 Gk7 Ga1 Ga3 Ga4 Ga6");

#[test]
fn next_ring_a_queen_captured_on_the_throne_goes_to_ring_1() {
    let start = |name| setup(name, Side::White, QUEEN_ON_THRONE.0, QUEEN_ON_THRONE.1);
    let (position, captured) = play(&start("relocation=next-ring"), "f8-f7");
    assert_eq!(captured, ["f6"]);
    // e5, f5 and f7 are occupied; e6 lies between d5 and f7.
    assert_eq!(legal(&position), ["f6@g5", "f6@g6"]);
    assert_eq!(position.decider(), Side::Black);
    assert_eq!(
        refusal(&position, "f6@e6"),
        "e6 lies between two White pieces"
    );
    assert_eq!(
        refusal(&position, "f6@e4"),
        "with relocation=next-ring the captured piece on f6 (ring 0) goes to ring 1, and e4 \
         is on ring 2"
    );

    // With queen-relocated-by=opponent White chooses, between the same two cells.
    let (opponent, _) = play(
        &start("relocation=next-ring,queen-relocated-by=opponent"),
        "f8-f7",
    );
    assert_eq!(opponent.to_move(), Side::Black);
    assert_eq!(opponent.decider(), Side::White);
    assert_eq!(legal(&opponent), ["f6@g5", "f6@g6"]);
}

/// Example 3 (fillers: White guards on a1 a2 a3, Black guards on l1 l3).
#[test]
fn next_ring_falls_back_to_the_next_ring_outward() {
    let position = setup(
        "relocation=next-ring",
        Side::Black,
        "Qf6 Gg5 Gg6 Ga5 Ga1 Ga2 Ga3",
        "Qf11 Ge5 Ge6 Gf5 Gf8 Gl1 Gl3",
    );
    let (position, captured) = play(&position, "f8-f7");
    assert_eq!(captured, ["f6"]);
    // Ring 1 is full (e5 e6 f5 f7 Black, g5 g6 White): all twelve cells of ring 2.
    let ring2 = "d4 d5 d6 e4 e7 f4 f8 g4 g7 h4 h5 h6";
    assert_eq!(destinations(&position), common::sorted(ring2));
    assert_eq!(
        destinations(&position),
        names(Bitboard::ring(2) & position.empty_cells())
    );
    let capturing: Vec<String> = position
        .legal()
        .to_vec()
        .into_iter()
        .filter_map(|a| {
            let (_, captured) = play(&position, &a.to_string());
            (!captured.is_empty()).then(|| format!("{a}x{}", captured.join("x")))
        })
        .collect();
    assert_eq!(capturing, ["f6@e4xf5", "f6@e7xf7"]);
    assert_eq!(
        refusal(&position, "f6@a4"),
        "with relocation=next-ring the captured piece on f6 (ring 0) goes to ring 2, the next \
         ring outward with a legal cell (ring 1 has none), and a4 is on ring 5"
    );
}

/// Example 4 (fillers: White guards on e5 e6 f5 f7, Black guards on h4 h5 h6 g4).
#[test]
fn next_ring_a_guard_captured_on_the_outer_ring_stays_there() {
    let position = setup(
        "relocation=next-ring",
        Side::White,
        "Qf1 Ga1 Ga4 Ge5 Ge6 Gf5 Gf7",
        "Qf11 Ga2 Gl2 Gh4 Gh5 Gh6 Gg4",
    );
    let (position, captured) = play(&position, "a4-a3");
    assert_eq!(captured, ["a2"]);
    // Any empty outer-ring cell: the guard leaves its own.
    assert_eq!(destinations(&position), empty_outer_except(&position, ""));
    assert_eq!(destinations(&position).len(), 24);
    assert_eq!(refusal(&position, "a2@a2"), "a2 is occupied");
}

/// R4 for a queen, and R14: the chooser's restriction replaces the intervention setting
/// and the fallback is decided after it. A White guard on h5 puts g5 (f5-h5) and g6
/// (f7-h5) between White pieces, like e6 (d5-f7).
#[test]
fn next_ring_fallbacks_are_decided_on_the_cells_allowed_to_the_chooser() {
    let white = "Qf1 Gf5 Gf8 Gd5 Gh5 Gl3 Gl4";
    let start = |name| play(&setup(name, Side::White, white, QUEEN_ON_THRONE.1), "f8-f7").0;
    // Ring 1 has no legal cell: ring 2, less its cells between two White pieces.
    let owner = start("relocation=next-ring");
    let ring2_open =
        Bitboard::ring(2) & owner.empty_cells() & !owner.between_pieces_of(Side::White);
    assert_eq!(destinations(&owner), names(ring2_open));
    assert!(destinations(&owner).iter().all(|c| cell(c).ring() == 2));
    // Under intervention=safe the owner may put her between White pieces: ring 1.
    let safe = start("intervention=safe,relocation=next-ring");
    assert_eq!(destinations(&safe), ["e6", "g5", "g6"]);
    // The chooser (White) may not, even under intervention=safe: ring 2 again.
    for name in [
        "intervention=safe,relocation=next-ring,queen-relocated-by=opponent",
        "intervention=suicide,relocation=next-ring,queen-relocated-by=opponent",
    ] {
        let chosen = start(name);
        assert_eq!(chosen.decider(), Side::White, "{name}");
        assert_eq!(destinations(&chosen), names(ring2_open), "{name}");
        assert_eq!(
            refusal(&chosen, "f6@g5"),
            "White chooses where the queen goes and may not put her on g5, between two White \
             pieces"
        );
    }
}

/// R3 from the start: the guard captured on c7 (ring 4) goes to ring 5, the same cells
/// as under the default outer-ring.
#[test]
fn next_ring_from_the_start_a_guard_on_ring_4_goes_to_the_outer_ring() {
    let actions = "a5-b6 b7-c7 d9-d8";
    let position = *after("relocation=next-ring", actions).position();
    let from = cell("c7");
    assert_eq!(from.ring(), 4);
    let ring5 = Bitboard::OUTER & position.empty_cells() & !position.between_pieces_of(Side::White);
    assert_eq!(names(position.relocation_destinations(from)), names(ring5));
    assert_eq!(destinations(&position), names(ring5));
    assert_eq!(
        destinations(&position),
        destinations(after("standard", actions).position())
    );
}

/// R13: under `intervention=suicide` a relocated piece can be captured again at once, and
/// is then relocated from its new cell, one ring further out.
#[test]
fn next_ring_a_piece_captured_again_goes_out_again() {
    let position = setup(
        "intervention=suicide,relocation=next-ring",
        Side::White,
        "Qf1 Gd5x Gl1 Gl2 Gl3 Gl4 Gk1",
        "Qf11 Gc4 Gc6 Gb7 Ga1 Ga2 Ga3",
    );
    assert!(destinations(&position).iter().all(|c| cell(c).ring() == 3));
    let (position, captured) = play(&position, "d5@c5");
    assert_eq!(
        captured,
        ["c5"],
        "the suicide rule captures the relocated guard"
    );
    let (position, _) = play(&position, "f11-f10");
    assert_eq!(cell("c5").ring(), 3);
    assert!(destinations(&position).iter().all(|c| cell(c).ring() == 4));
    assert!(!destinations(&position).is_empty());
}

// ----- start-cell -----

#[test]
fn start_cell_a_forced_relocation_is_still_played() {
    let mut game = after("relocation=start-cell", "a5-b6 b7-c7");
    play_all(&mut game, "d9-d8");
    assert_eq!(
        game.plies().last().map(|p| names(p.captures)),
        Some(vec!["c7".into()])
    );
    // b7 is the only free start cell of a Black guard.
    assert_eq!(legal(game.position()), ["c7@b7"]);
    assert_eq!(
        refusal(game.position(), "c7@a1"),
        "with relocation=start-cell a captured Black guard goes back to a free start cell of \
         its kind (b7), and a1 is not one"
    );
    play_all(&mut game, "c7@b7");
    assert_eq!(game.ply_count(), 4);
    assert_eq!(game.position().phase(), Phase::Normal);
    assert_eq!(game.position().to_move(), Side::White);
}

#[test]
fn start_cell_the_owner_chooses_among_its_free_start_cells() {
    let game = after("relocation=start-cell", "a5-b6 b7-c7 l5-l4 h1-h2 d9-d8");
    assert_eq!(legal(game.position()), ["c7@b7", "c7@h1"]);
    // Under the default, the same guard could go to any free outer-ring cell.
    let outer = after("standard", "a5-b6 b7-c7 l5-l4 h1-h2 d9-d8");
    assert_eq!(
        destinations(outer.position()),
        empty_outer_except(outer.position(), "")
    );
}

/// Example 3 (fillers: Black guards on g7 g8 h7 h6).
#[test]
fn start_cell_falls_back_to_the_outer_ring() {
    let white = "Qf1 Gk1 Ga5 Gl5 Gd9 Gh9 Ge5x";
    let black = "Qf11 Ga1 Gc1 Gg7 Gg8 Gh7 Gh6";
    let position = setup("relocation=start-cell", Side::White, white, black);
    // b1, White's only free guard start cell, lies between a1 and c1.
    let expected = empty_outer_except(&position, "b1");
    assert_eq!(expected.len(), 20);
    assert_eq!(destinations(&position), expected);
    assert_eq!(
        refusal(&position, "e5@b1"),
        "b1 lies between two Black pieces"
    );
    assert_eq!(
        refusal(&position, "e5@e4"),
        "with relocation=start-cell no start cell of a White guard is free, so it goes to the \
         outer ring, and e4 is on ring 2"
    );
    // Under intervention=safe, b1 is legal, so it is the only destination.
    let safe = setup(
        "intervention=safe,relocation=start-cell",
        Side::White,
        white,
        black,
    );
    assert_eq!(legal(&safe), ["e5@b1"]);
}

/// Example 3, the queen (fillers: White guards on b2 c2 b3 c3 d2, Black guards on e7 e8 d7
/// d8).
#[test]
fn start_cell_a_queen_whose_start_cell_is_taken_goes_to_the_outer_ring() {
    let position = setup(
        "relocation=start-cell",
        Side::White,
        "Qe5x Gd1 Gb2 Gc2 Gb3 Gc3 Gd2",
        "Qf11 Gf1 Gh1 Ge7 Ge8 Gd7 Gd8",
    );
    // f1 is taken; g1 lies between f1 and h1.
    let expected = empty_outer_except(&position, "g1");
    assert_eq!(destinations(&position), expected);
    assert_eq!(expected.len(), 25);
    assert_eq!(
        refusal(&position, "e5@f6"),
        "with relocation=start-cell no start cell of a White queen is free, so it goes to the \
         outer ring, and f6 is on ring 0"
    );
}

/// R7: a piece captured on one of its own start cells may not stay there; its other
/// start cells remain.
#[test]
fn start_cell_a_piece_captured_on_a_start_cell_leaves_it() {
    let position = setup(
        "relocation=start-cell",
        Side::White,
        "Qf1 Gb1x Gk1 Ga5 Gl5 Gd9 Ge5",
        "Qf11 Gd1 Gh1 Ga2 Gl2 Gb7 Gk7",
    );
    // h9 is White's only other free guard start cell.
    assert_eq!(legal(&position), ["b1@h9"]);
    assert_eq!(refusal(&position, "b1@b1"), "b1 is occupied");
}

/// R14 with start-cell: the chooser's restriction comes first (under capture=ring, f1 lies
/// between e1 and g1 on the ring, so Black may not put White's queen back on it, even
/// under intervention=safe) and the fallback is decided after it.
#[test]
fn start_cell_the_opponent_chooses_from_the_same_cells() {
    let white = "Qd4x Gb2 Gc2 Gb3 Gc3 Gd2 Gk3";
    let black = "Qf11 Ge1 Gg1 Gh4 Gh5 Gh6 Gg4";
    let name = "intervention=safe,capture=ring,relocation=start-cell,queen-relocated-by=opponent";
    let chosen = setup(name, Side::White, white, black);
    assert_eq!(chosen.decider(), Side::Black);
    let open = Bitboard::OUTER & chosen.empty_cells() & !chosen.between_pieces_of(Side::Black);
    assert!(!open.contains(cell("f1")));
    assert_eq!(destinations(&chosen), names(open));
    // The owner, under intervention=safe, goes back to f1.
    let owner = setup(
        "intervention=safe,capture=ring,relocation=start-cell",
        Side::White,
        white,
        black,
    );
    assert_eq!(legal(&owner), ["d4@f1"]);
}

// ----- removed -----

#[test]
fn removed_a_captured_guard_leaves_play_and_its_side_moves_on() {
    let mut game = after("relocation=removed", "a5-b6 b7-c7");
    play_all(&mut game, "d9-d8");
    let position = *game.position();
    assert_eq!(
        game.plies().last().map(|p| names(p.captures)),
        Some(vec!["c7".into()])
    );
    assert_eq!(position.piece_at(cell("c7")), None);
    assert_eq!(position.phase(), Phase::Normal);
    assert_eq!(position.removed_count(Side::Black), 1);
    assert_eq!(position.removed_count(Side::White), 0);
    assert_eq!(position.side_pieces(Side::Black).count(), 6);
    assert_eq!(position.hash(), position.hash_from_scratch());
    play_all(&mut game, "k7-i8");
    assert!(!game.is_over());
    assert_eq!(refusal(&position, "c7@b7"), "there is no piece on c7");
}

#[test]
fn removed_a_captured_queen_loses_the_game() {
    let position = setup(
        "relocation=removed",
        Side::White,
        "Qf1 Gf5 Gf8 Gd5",
        "Qf6 Ge5 Gk7",
    );
    let mut game = Game::from_position(position);
    assert_eq!(
        game.play(common::act("f8-f7")).map(names),
        Ok(vec!["f6".into()])
    );
    assert_eq!(
        game.outcome(),
        outcome(GameResult::WhiteWins, Termination::QueenCaptured)
    );
    assert_eq!(game.position().queen(Side::Black), None);
    assert!(game.legal().to_vec().is_empty());
    // The finished position is one of the game: it survives its setup, and a game started
    // from it is over at once.
    let end = *game.position();
    assert_eq!(Position::from_setup(end.to_setup(), end.rules()), Ok(end));
    assert_eq!(
        Game::from_position(end).outcome(),
        outcome(GameResult::WhiteWins, Termination::QueenCaptured)
    );
}

/// R10: the mover's captures come first, so capturing the enemy queen wins even when the
/// suicide rule then takes the mover's own queen.
#[test]
fn removed_the_movers_capture_comes_before_the_suicide_of_its_queen() {
    let position = setup(
        "intervention=suicide,relocation=removed",
        Side::White,
        "Qb5 Ge5 Ga1",
        "Qd5 Gc4 Gc6",
    );
    let mut game = Game::from_position(position);
    play_all(&mut game, "b5-c5");
    assert_eq!(
        game.plies().last().map(|p| names(p.captures)),
        Some(vec!["c5".into(), "d5".into()])
    );
    assert_eq!(
        game.outcome(),
        outcome(GameResult::WhiteWins, Termination::QueenCaptured)
    );
    assert!(!game.position().has_queen(Side::White) && !game.position().has_queen(Side::Black));
    // A suicide alone loses: White's queen dies between c4 and c6, capturing nothing.
    let alone = setup(
        "intervention=suicide,relocation=removed",
        Side::White,
        "Qb5 Gk1",
        "Qf11 Gc4 Gc6",
    );
    let mut game = Game::from_position(alone);
    play_all(&mut game, "b5-c5");
    assert_eq!(
        game.outcome(),
        outcome(GameResult::BlackWins, Termination::QueenCaptured)
    );
    // R9: a guard taken by the suicide rule leaves the board too (annotated b5-c5xc5).
    let guard = setup(
        "intervention=suicide,relocation=removed",
        Side::White,
        "Qk1 Gb5",
        "Qf11 Gc4 Gc6",
    );
    let (after, captured) = play(&guard, "b5-c5");
    assert_eq!(captured, ["c5"]);
    assert_eq!(after.piece_at(cell("c5")), None);
    assert_eq!(after.removed_count(Side::White), 6);
    assert_eq!(after.phase(), Phase::Normal);
}

/// R11: the queen on the throne wins with every guard she has left on ring 1, none
/// included.
#[test]
fn removed_a_formation_needs_every_remaining_guard_on_ring_1() {
    let win = |white: &str, action: &str| {
        let mut game =
            Game::from_position(setup("relocation=removed", Side::White, white, "Qf11 Gb7"));
        play_all(&mut game, action);
        game.outcome()
    };
    let formation = outcome(GameResult::WhiteWins, Termination::Formation);
    assert_eq!(win("Qg6 Ge5 Ge6 Gf5 Gf7 Gg5", "g6-f6"), formation);
    assert_eq!(win("Qe5", "e5-f6"), formation);
    // A guard left outside ring 1 keeps the formation open.
    assert_eq!(win("Qg6 Ge5 Ge6 Gf5 Gf7 Gg5 Ga1", "g6-f6"), None);
    // Five guards on ring 1 without the queen on the throne: the game goes on; six lose.
    assert_eq!(win("Qa1 Ge5 Ge6 Gf5 Gf7 Gg7", "g7-g6"), None);
    assert_eq!(
        win("Qa1 Ge5 Ge6 Gf5 Gf7 Gg7 Gg5", "g7-g6"),
        outcome(GameResult::BlackWins, Termination::SixGuards)
    );
}

/// R11: a capture that removes the other side's last outlying guard completes its
/// formation, and the other side wins.
#[test]
fn removed_a_capture_can_complete_the_other_sides_formation() {
    let position = setup(
        "relocation=removed",
        Side::Black,
        "Qf6 Ge5 Ge6 Gf5 Gf7 Gg5 Ga3",
        "Qf11 Ga2 Ga5",
    );
    let mut game = Game::from_position(position);
    assert!(!game.is_over());
    play_all(&mut game, "a5-a4");
    assert_eq!(
        game.plies().last().map(|p| names(p.captures)),
        Some(vec!["a3".into()])
    );
    assert_eq!(
        game.outcome(),
        outcome(GameResult::WhiteWins, Termination::Formation)
    );
}

/// R13: with touch-move=on, no relocation is ever due under removed, so a pass is open on
/// every turn of normal play, also right after a capture.
#[test]
fn removed_with_touch_move_a_side_may_pass_after_losing_a_piece() {
    let game = after("touch-move=on,relocation=removed", "a5-b6 b7-c7 d9-d8");
    assert!(game.legal().contains(common::act("pass")));
}

// ----- positions, names and refused combinations -----

#[test]
fn removed_positions_may_lack_pieces_but_hold_no_captured_one() {
    use agon_core::{PositionErrorKinds as Kinds, Setup};
    let check = |name: &str, white: &str, black: &str, to_move: Side| {
        let setup = Setup::empty()
            .with_to_move(to_move)
            .with_pieces(Side::White, white)
            .and_then(|s| s.with_pieces(Side::Black, black))
            .unwrap();
        Position::from_setup(setup, rules(name)).map_err(|e| (e.kinds(), e.to_string()))
    };
    assert!(check("relocation=removed", "Qf1 Gb1", "Qf11", Side::White).is_ok());
    // The same under the other values: six guards are missing.
    for name in ["standard", "relocation=next-ring", "relocation=start-cell"] {
        let (kinds, _) = check(name, "Qf1 Gb1", "Qf11", Side::White).unwrap_err();
        assert_eq!(kinds, Kinds::PIECE_COUNT, "{name}");
    }
    assert_eq!(
        check("relocation=removed", "Qf1 Gb1x", "Qf11", Side::White),
        Err((
            Kinds::CAPTURED_UNDER_REMOVED,
            "with relocation=removed captured pieces leave the board, so none stands captured"
                .into()
        ))
    );
    assert_eq!(
        check(
            "relocation=removed",
            "Qf1 Gb1 Gb2 Gb3 Gb4 Gb5 Gb6 Ga1",
            "Qf11",
            Side::White
        ),
        Err((
            Kinds::PIECE_COUNT,
            "White has 7 guards on the board and 0 in hand; expected at most 6 in all".into()
        ))
    );
    // Black to move without a queen: White captured her, the game is over.
    assert!(check("relocation=removed", "Qf1", "Gb7", Side::Black).is_ok());
    // Black moved last and has no queen: only the suicide rule does that.
    assert_eq!(
        check("relocation=removed", "Qf1", "Gb7", Side::White),
        Err((
            Kinds::QUEEN_LOST_BY_MOVER,
            "Black moved last and has no queen, but without intervention=suicide a side cannot \
             lose its queen on its own turn"
                .into()
        ))
    );
    assert!(check(
        "intervention=suicide,relocation=removed",
        "Qf1",
        "Gb7",
        Side::White
    )
    .is_ok());
}

#[test]
fn the_switch_is_named_parsed_and_listed() {
    assert_eq!(
        Relocation::ALL.map(Relocation::name),
        ["outer-ring", "next-ring", "start-cell", "removed"]
    );
    let removed: Rules = "relocation=removed".parse().unwrap();
    assert_eq!(removed.relocation(), Relocation::Removed);
    assert_eq!(removed.to_string(), "relocation=removed");
    assert_eq!(
        "relocation=outer-ring".parse::<Rules>(),
        Ok(Rules::STANDARD),
        "the default is never written"
    );
    let all: Rules = "queen-relocated-by=opponent,relocation=next-ring,touch-move=on"
        .parse()
        .unwrap();
    assert_eq!(
        all.to_string(),
        "touch-move=on,relocation=next-ring,queen-relocated-by=opponent"
    );
}

#[test]
fn refused_combinations_name_the_conflict() {
    let refused = [
        (
            "relocation=next-ring,relocate-throne=forbidden",
            "`relocation=next-ring` cannot be combined with `relocate-throne=forbidden`: a \
             captured queen goes to rings 1 to 5 there, never to the throne, so \
             relocate-throne=forbidden would change nothing",
        ),
        (
            "relocate-throne=forbidden,relocation=start-cell",
            "`relocation=start-cell` cannot be combined with `relocate-throne=forbidden`: a \
             captured queen goes to her start cell or the outer ring there, never to the \
             throne, so relocate-throne=forbidden would change nothing",
        ),
        (
            "relocation=removed,relocate-throne=forbidden",
            "`relocation=removed` cannot be combined with `relocate-throne=forbidden`: \
             captured pieces leave the board there and are never relocated, so \
             relocate-throne=forbidden would change nothing",
        ),
        (
            "queen-relocated-by=opponent,relocation=removed",
            "`relocation=removed` cannot be combined with `queen-relocated-by=opponent`: \
             captured pieces leave the board there, so no one ever chooses where a captured \
             queen goes",
        ),
        (
            "relocation=start-cell,opening=placement",
            "`opening=placement` cannot be combined with `relocation=start-cell`: a placement \
             game has no start cells to send a captured piece back to",
        ),
        (
            "opening=placement-opposed,relocation=start-cell",
            "`opening=placement-opposed` cannot be combined with `relocation=start-cell`: a \
             placement game has no start cells to send a captured piece back to",
        ),
    ];
    for (name, reason) in refused {
        let error = name.parse::<Rules>().unwrap_err();
        assert!(matches!(error.kind, RulesError::Conflict { .. }), "{name}");
        assert_eq!(error.kind.to_string(), reason, "{name}");
        assert_eq!(
            error.to_string(),
            format!("`{name}` is not a rule set: {reason}")
        );
    }
    // The builders refuse the same, whichever switch comes last.
    let next_ring = Rules::STANDARD
        .with_relocation(Relocation::NextRing)
        .unwrap();
    assert!(next_ring
        .with_relocate_throne(agon_core::RelocateThrone::Forbidden)
        .is_err());
    let forbidden = Rules::STANDARD
        .with_relocate_throne(agon_core::RelocateThrone::Forbidden)
        .unwrap();
    assert!(forbidden.with_relocation(Relocation::NextRing).is_err());
    assert!(forbidden.with_relocation(Relocation::OuterRing).is_ok());
    // Everything else combines (R13).
    for name in [
        "intervention=suicide,capture=ring,opening=placement,touch-move=on,relocation=removed,repetition=5",
        "opening=placement-opposed,relocation=next-ring,queen-relocated-by=opponent",
        "intervention=safe,relocation=start-cell,queen-relocated-by=opponent,repetition=off",
    ] {
        let rules: Rules = name.parse().unwrap();
        assert_eq!(rules.to_string(), name);
    }
    // Rules::all() skips what is refused.
    let refused = |r: &Rules| {
        (r.relocation() == Relocation::StartCell && r.has_placement())
            || (r.relocation() == Relocation::Removed
                && r.queen_relocated_by() == agon_core::QueenRelocatedBy::Opponent)
    };
    assert!(!Rules::all().iter().any(refused));
}
