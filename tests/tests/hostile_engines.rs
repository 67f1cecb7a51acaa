//! External engines that attack the harness (`src/bin/broken_engine.rs`): one that floods
//! `info` lines, one that ignores `quit`, engines with a child process that holds their
//! output, and one that answers twice. Each loses the game it breaks with the right
//! termination, within its time limit and in bounded memory, and no engine process or
//! child outlives the run. Every run is watched: a harness that hangs or grows is killed
//! and the test fails instead of hanging.

use agon_tests::scratch::ScratchDir;
use agon_tests::selfplay::{binary, read, scratch, tags, watched_command, Watched};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs three games (the engine is White, Black, White) against `alphabeta:depth=1`, the
/// engine misbehaving as `mode` says at the third `go` of each of its processes. Returns
/// the scratch directory (removed when dropped, so the caller keeps it while it reads), the
/// output directory inside it, what the run did, and the pids the engines reported.
fn run(mode: &str, options: &str) -> (ScratchDir, PathBuf, Watched, Vec<u32>) {
    let dir = scratch(&format!("hostile-engine-{mode}"));
    let pids = dir.join("pids");
    let out = dir.join("out");
    let engine = format!(
        "engine:{} {mode} 3,{options}",
        env!("CARGO_BIN_EXE_broken_engine")
    );
    let mut command = Command::new(binary());
    command
        .args(["run", "--white", &engine, "--black", "alphabeta:depth=1"])
        .args([
            "--games",
            "3",
            "--opening-plies",
            "2",
            "--seed",
            "3",
            "--threads",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .env("AGON_BROKEN_PIDS", &pids);
    let watched = watched_command(command, 60, 300_000, || false);
    let pids = std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect();
    (dir, out, watched, pids)
}

/// Whether a process is alive (not gone, not a zombie). Linux.
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
        Err(_) => false,
    }
}

/// Asserts that every pid is dead (waiting a little for the system to finish killing),
/// then kills any survivor so that a failing run leaves nothing behind.
#[track_caller]
fn assert_all_dead(pids: &[u32]) {
    let started = Instant::now();
    while pids.iter().any(|&p| alive(p)) && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survivors: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    for pid in &survivors {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(
        survivors.is_empty(),
        "still running after the run: {survivors:?}"
    );
}

/// The run ended normally and the engine lost every game as `termination` with `reason`,
/// after `plies` plies.
#[track_caller]
fn check(out: &Path, run: &Watched, termination: &str, reason: &str, plies: [&str; 3]) {
    assert_eq!(run.killed, None, "peak {} kB; {}", run.peak_kb, run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let agn = read(out, "games.agn");
    assert_eq!(tags(&agn, "Result"), ["0-1", "1-0", "0-1"], "{agn}");
    assert_eq!(tags(&agn, "Termination"), [termination; 3], "{agn}");
    assert_eq!(tags(&agn, "PlyCount"), plies, "{agn}");
    assert_eq!(
        tags(&agn, "Forfeit"),
        [
            format!("White: {reason}"),
            format!("Black: {reason}"),
            format!("White: {reason}"),
        ]
    );
}

#[test]
fn an_engine_flooding_info_lines_loses_by_timeout_in_bounded_memory() {
    let (_dir, out, run, pids) = run("flood", "depth=1,timeout=500");
    check(
        &out,
        &run,
        "timeout",
        "sent no `bestmove` within 500 ms",
        ["6", "7", "6"],
    );
    assert!(run.peak_kb < 100_000, "peak {} kB", run.peak_kb);
    assert_all_dead(&pids);
}

#[test]
fn an_engine_that_ignores_quit_is_killed_when_the_run_ends() {
    let (_dir, out, run, pids) = run("noquit", "depth=1");
    assert_eq!(run.killed, None, "{}", run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        tags(&read(&out, "games.agn"), "Forfeit"),
        Vec::<String>::new()
    );
    // Two worker threads: one or two engine processes, each kept between its games.
    assert!(!pids.is_empty() && pids.len() <= 2, "{pids:?}");
    assert_all_dead(&pids);
}

#[test]
fn a_hung_engine_is_killed_with_its_children() {
    let (_dir, out, run, pids) = run("child-hang", "depth=1,timeout=300");
    check(
        &out,
        &run,
        "timeout",
        "sent no `bestmove` within 300 ms",
        ["6", "7", "6"],
    );
    // Three engines (a fresh one per game after each failure), each with a child.
    assert_eq!(pids.len(), 6, "{pids:?}");
    assert_all_dead(&pids);
}

/// The engine exits while its child still holds the pipe: that is a crash (its exit status
/// is known), not a timeout.
#[test]
fn an_engine_that_exits_is_a_crash_even_when_a_child_holds_its_output() {
    let (_dir, out, run, pids) = run("child-crash", "depth=1,timeout=5000");
    check(
        &out,
        &run,
        "crash",
        "exited with code 3 while the harness waited for `bestmove`",
        ["6", "7", "6"],
    );
    assert_all_dead(&pids);
}

/// A second `bestmove` for one `go` is a protocol error (`crash`), found when the harness
/// checks the engine is ready before its next `go`, never taken for the next answer.
#[test]
fn two_bestmoves_for_one_go_lose_by_crash() {
    let (_dir, out, run, pids) = run("twice", "depth=1,timeout=5000");
    let agn = read(&out, "games.agn");
    let forfeit = tags(&agn, "Forfeit");
    assert_eq!(tags(&agn, "Termination"), ["crash"; 3], "{agn}");
    assert_eq!(tags(&agn, "PlyCount"), ["8", "9", "8"], "{agn}");
    assert_eq!(forfeit.len(), 3, "{agn}");
    for (record, side) in forfeit.iter().zip(["White", "Black", "White"]) {
        assert!(
            record.starts_with(&format!("{side}: sent a second `bestmove ")),
            "{record}"
        );
        assert!(record.ends_with("` for one `go`"), "{record}");
    }
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_all_dead(&pids);
}
