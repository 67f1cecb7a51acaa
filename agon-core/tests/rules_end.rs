//! The end of the game (docs/rules.md section 6): formation, six guards, no move, repetition
//! (and the `repetition` switch), the `ludii` passes, and a harness's move limit.

mod common;

use agon_core::{perft, Game, GameResult, Outcome, Position, Rules, Side, Termination};
use common::{act, play_all, rules, setup};

fn outcome(result: GameResult, termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result,
        termination,
    })
}

const FORMATION_BLACK: &str = "Qf11 Gg10 Gd9 Gh9 Gc8 Gi8 Gb7";

#[test]
fn formation_queen_on_the_throne_and_six_guards_around_wins() {
    let start = setup(
        "standard",
        Side::White,
        "Qf6 Ge5 Ge6 Gf7 Gg6 Gg5 Gf4",
        FORMATION_BLACK,
    );
    let mut game = Game::from_position(start);
    assert!(!game.is_over());
    play_all(&mut game, "f4-f5");
    assert_eq!(
        game.outcome(),
        outcome(GameResult::WhiteWins, Termination::Formation)
    );
    assert_eq!(game.result().token(), "1-0");
    assert_eq!(
        game.play(act("f11-e10")).unwrap_err().to_string(),
        "the game is over"
    );
    assert_eq!(perft(&mut game, 1), 0);
}

#[test]
fn six_guards_around_an_empty_throne_lose() {
    let start = setup(
        "standard",
        Side::White,
        "Qd4 Ge5 Ge6 Gf7 Gg6 Gg5 Gf4",
        FORMATION_BLACK,
    );
    let mut game = Game::from_position(start);
    play_all(&mut game, "f4-f5");
    assert_eq!(
        game.outcome(),
        outcome(GameResult::BlackWins, Termination::SixGuards)
    );
}

/// The same for Black, on the mirrored positions.
#[test]
fn formations_for_black() {
    let win = setup(
        "standard",
        Side::White,
        "Qf6 Ge5 Ge6 Gf7 Gg6 Gg5 Gf4",
        FORMATION_BLACK,
    )
    .mirrored();
    let mut game = Game::from_position(win);
    play_all(&mut game, "f8-f7");
    assert_eq!(
        game.outcome(),
        outcome(GameResult::BlackWins, Termination::Formation)
    );
}

/// A game set up where the side that moved last already has its formation is over.
#[test]
fn a_position_with_a_finished_formation_starts_finished() {
    let done = setup(
        "standard",
        Side::Black,
        "Qf6 Ge5 Ge6 Gf7 Gg6 Gg5 Gf5",
        FORMATION_BLACK,
    );
    assert_eq!(
        Game::from_position(done).outcome(),
        outcome(GameResult::WhiteWins, Termination::Formation)
    );
}

/// White's e8-f8 leaves Black no step: every empty neighbour of a Black piece is farther
/// out, or the throne (guards only; Black's queen on d5 is not next to it).
fn no_move_position(rules_name: &str) -> Position {
    setup(
        rules_name,
        Side::White,
        "Ga1 Gd4 Qd7 Ge5 Gf5 Ge8 Gh6",
        "Qd5 Gd6 Ge6 Ge7 Gf7 Gg5 Gg6",
    )
}

#[test]
fn a_side_without_a_legal_action_loses() {
    let position = no_move_position("standard");
    let before_black = common::edited(&position, |s| s.with_to_move(Side::Black));
    assert_eq!(common::legal(&before_black), ["e7-f8"]);

    let mut game = Game::from_position(position);
    play_all(&mut game, "e8-f8");
    assert!(game.position().legal().to_vec().is_empty());
    assert_eq!(
        game.outcome(),
        outcome(GameResult::WhiteWins, Termination::NoMoves)
    );
}

/// With touch-move a side can always pass on a turn of normal play, so it never runs out of
/// actions; under `ludii` a side without an action must pass.
#[test]
fn passing_instead_of_losing() {
    for rules_name in ["touch-move=on", "ludii"] {
        let mut game = Game::from_position(no_move_position(rules_name));
        play_all(&mut game, "e8-f8");
        assert!(!game.is_over(), "{rules_name}");
        assert_eq!(common::legal(game.position()), ["pass"], "{rules_name}");
        play_all(&mut game, "pass");
        assert!(!game.is_over(), "{rules_name}");
        assert_eq!(game.position().passes(), 1);
    }
    // Under ludii the pass is forced: with a step available, it is refused.
    let ludii = no_move_position("ludii");
    assert_eq!(
        ludii.check(act("pass")).unwrap_err().to_string(),
        "passing is only allowed with touch-move=on, on a turn with no relocation due"
    );
}

/// Two passes in a row draw a `ludii` game. Both sides stuck at once is rare (no random game
/// found one), so the position is built as if White had just been forced to pass.
#[test]
fn ludii_two_passes_in_a_row_draw() {
    let stuck = common::edited(&no_move_position("ludii"), |mut s| {
        let guard = s.pieces.remove(&common::cell("e8")).expect("a guard on e8");
        s.pieces.insert(common::cell("f8"), guard);
        s.with_to_move(Side::Black).with_passes(1)
    });
    let mut game = Game::from_position(stuck);
    assert!(!game.is_over());
    play_all(&mut game, "pass");
    assert_eq!(
        game.outcome(),
        outcome(GameResult::Draw, Termination::DoublePass)
    );
}

/// The queens shuffle f1-e1 and f11-e10 and back: the start position occurs again after
/// plies 4, 8, 12, 16; the start itself counts as the first occurrence.
const SHUFFLE: &str = "f1-e1 f11-e10 e1-f1 e10-f11";

fn shuffle(rules_name: &str, rounds: usize) -> Game {
    let mut game = Game::new(rules(rules_name));
    for _ in 0..rounds {
        play_all(&mut game, SHUFFLE);
    }
    game
}

#[test]
fn threefold_repetition_counts_the_start_position() {
    let mut game = shuffle("standard", 1);
    assert_eq!(game.occurrences(), 2);
    play_all(&mut game, "f1-e1 f11-e10 e1-f1");
    assert!(!game.is_over());
    play_all(&mut game, "e10-f11");
    assert_eq!(game.ply_count(), 8);
    assert_eq!(game.occurrences(), 3);
    assert_eq!(
        game.outcome(),
        outcome(GameResult::Draw, Termination::Repetition)
    );
    assert_eq!(game.position(), &Position::start(Rules::STANDARD));
}

#[test]
fn the_repetition_switch() {
    let game = shuffle("repetition=2", 1);
    assert_eq!(game.ply_count(), 4);
    assert_eq!(game.outcome().unwrap().termination, Termination::Repetition);

    let mut game = shuffle("repetition=5", 3);
    play_all(&mut game, "f1-e1 f11-e10 e1-f1");
    assert!(!game.is_over(), "4 occurrences so far");
    play_all(&mut game, "e10-f11");
    assert_eq!(game.ply_count(), 16);
    assert_eq!(game.outcome().unwrap().termination, Termination::Repetition);

    for name in ["repetition=off", "ludii"] {
        let game = shuffle(name, 10);
        assert_eq!(game.occurrences(), 11, "{name}");
        assert!(!game.is_over(), "{name}");
    }
}

/// A position is the board, pieces in hand and the side to move: with touch-move, two
/// passes give back the start (White to move), and the board after one pass (Black to
/// move) is another position.
#[test]
fn repetition_includes_the_side_to_move() {
    let mut game = Game::new(rules("touch-move=on"));
    play_all(&mut game, "pass pass pass");
    assert_eq!(game.occurrences(), 2);
    assert!(!game.is_over());
    play_all(&mut game, "pass");
    assert_eq!(
        game.outcome(),
        outcome(GameResult::Draw, Termination::Repetition)
    );
}

/// A harness may stop a game: a draw of its own kind, not a rule ending.
#[test]
fn a_move_limit_is_an_adjudicated_draw() {
    let mut game = Game::new(Rules::STANDARD);
    play_all(&mut game, "f1-e1");
    game.adjudicate_move_limit();
    assert_eq!(
        game.outcome(),
        outcome(GameResult::Draw, Termination::MoveLimit)
    );
    assert!(!Termination::MoveLimit.is_rule_ending());
    assert!(Termination::Repetition.is_rule_ending());
    // Undo reopens the game.
    game.undo();
    assert!(!game.is_over());
    assert_eq!(game.ply_count(), 0);
}
