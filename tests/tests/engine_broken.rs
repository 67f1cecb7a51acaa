//! The harness referees external engines: a deliberately broken engine
//! (`src/bin/broken_engine.rs`) that sends an illegal action, exits, hangs or prints
//! garbage at its third `go` loses each game with the right termination and a `Forfeit`
//! tag saying what it did; the run finishes, every record validates, and every game starts
//! with a restarted engine (each one plays two good actions before failing again).

use agon_tests::selfplay::{csv_rows, read, scratch, selfplay, tags};

/// Runs three games (the engine is White, Black, White) against `alphabeta:depth=1`, the
/// engine failing as `mode` says at the third `go` of each of its processes.
fn run(mode: &str, options: &str) -> agon_tests::scratch::ScratchDir {
    let dir = scratch(&format!("broken-{mode}"));
    let engine = format!(
        "engine:{} {mode} 3,{options}",
        env!("CARGO_BIN_EXE_broken_engine")
    );
    selfplay(&[
        "run",
        "--white",
        &engine,
        "--black",
        "alphabeta:depth=1",
        "--games",
        "3",
        "--opening-plies",
        "2",
        "--seed",
        "3",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ])
    .ok();
    dir
}

#[track_caller]
fn check(mode: &str, options: &str, termination: &str, reason: &str) {
    let dir = run(mode, options);
    let agn = read(&dir, "games.agn");
    // The engine loses every game: as White in games 0 and 2, as Black in game 1.
    assert_eq!(tags(&agn, "Result"), ["0-1", "1-0", "0-1"], "{agn}");
    assert_eq!(tags(&agn, "Termination"), [termination; 3], "{agn}");
    // Two opening plies, two good actions of the engine (and its opponent's replies),
    // then the failure: every game had a fresh engine.
    assert_eq!(tags(&agn, "PlyCount"), ["6", "7", "6"], "{agn}");
    assert_eq!(
        tags(&agn, "Forfeit"),
        [
            format!("White: {reason}"),
            format!("Black: {reason}"),
            format!("White: {reason}"),
        ]
    );
    let rows = csv_rows(&read(&dir, "games.csv"));
    assert!(rows.iter().all(|r| r["termination"] == termination));
    let games = format!("{}/games.agn", dir.display());
    let validate = agon_tests::cli::agon(&["validate", &games]).code(0);
    assert!(
        validate.stdout.contains("3 valid, 0 invalid"),
        "{}",
        validate.stdout
    );
}

#[test]
fn an_illegal_action_loses_by_illegal_move() {
    check(
        "illegal",
        "depth=1",
        "illegal-move",
        "sent `bestmove f6-f7`: f6-f7 is not legal: there is no piece on f6",
    );
}

#[test]
fn an_exit_mid_game_loses_by_crash() {
    check(
        "crash",
        "depth=1",
        "crash",
        "exited with code 3 while the harness waited for `bestmove`",
    );
}

#[test]
fn garbage_loses_by_crash() {
    check(
        "garbage",
        "depth=1",
        "crash",
        "sent `hello, world`, which is not a protocol message (unknown message `hello,`; \
         expected one of id, option, agonok, readyok, info, bestmove, eval, error)",
    );
}

#[test]
fn a_hang_past_the_limit_loses_by_timeout() {
    check(
        "hang",
        "depth=1,timeout=1000",
        "timeout",
        "sent no `bestmove` within 1000 ms",
    );
}
