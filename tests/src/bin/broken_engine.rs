//! A deliberately broken engine for the harness's tests (`tests/tests/engine_broken.rs`,
//! `tests/tests/hostile_engines.rs`).
//!
//! It speaks the engine protocol and answers every `go` with the first legal action (in
//! agon-core's order), except at its N-th `go` since it started, where it misbehaves as
//! MODE says:
//! - `illegal`: answers `bestmove f6-f7`, never legal (the throne is empty, or holds a
//!   queen, who can no longer step);
//! - `crash`: exits with code 3;
//! - `hang`: sleeps for 1000 seconds without answering;
//! - `garbage`: prints `hello, world` instead of an answer;
//! - `flood`: writes `info` lines for ever, thousands per write, and never answers;
//! - `twice`: answers, then 200 ms later sends a second `bestmove`;
//! - `child-hang`: like `hang`, with a child process (started with the engine) that holds
//!   the engine's output open;
//! - `child-crash`: like `crash`, with such a child;
//! - `noquit`: never misbehaves in a game, but ignores `quit` and the end of its input
//!   (it stays alive until killed);
//! - `fine`: never misbehaves.
//!
//! When the environment variable `AGON_BROKEN_PIDS` names a file, the engine appends its
//! pid (and its child's) to it, one per line, so that tests can check that none outlives
//! the harness.
//!
//! Usage: `broken_engine MODE N`.

use agon_core::{Game, Rules};
use agon_notation::format_annotated;
use agon_notation::protocol::{read_line, Command, EngineMessage, IdField, Line, MAX_LINE};
use std::io::{self, Write};
use std::time::Duration;

fn send(message: EngineMessage) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{message}").and_then(|()| out.flush());
}

/// Appends a pid to the file named by `AGON_BROKEN_PIDS`, if any.
fn note_pid(pid: u32) {
    if let Some(path) = std::env::var_os("AGON_BROKEN_PIDS") {
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            // One write of the whole line: with O_APPEND it cannot interleave with another
            // process's (`writeln!` may write the number and the newline apart).
            let _ = file.write_all(format!("{pid}\n").as_bytes());
        }
    }
}

/// Starts a copy of this program that sleeps, sharing our standard output. It is never
/// waited for: it is meant to outlive us unless the harness kills our process group.
#[allow(clippy::zombie_processes)]
fn start_child() {
    let exe = std::env::current_exe().expect("own path");
    let child = std::process::Command::new(exe)
        .arg("sleeper")
        .stdin(std::process::Stdio::null())
        .spawn()
        .expect("start the child");
    note_pid(child.id());
}

fn sleep_for_ever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(1000));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (mode, n) = match args.as_slice() {
        [_, mode, n] => (mode.clone(), n.parse::<u64>().unwrap_or(1)),
        [_, mode] => (mode.clone(), 0),
        _ => ("fine".to_string(), 0),
    };
    if mode == "sleeper" {
        sleep_for_ever();
    }
    note_pid(std::process::id());
    if mode.starts_with("child-") {
        start_child();
    }
    let mut rules = Rules::STANDARD;
    let mut game = Game::new(rules);
    let mut gos = 0u64;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    while let Ok(Some(line)) = read_line(&mut input, MAX_LINE) {
        let Line::Text(line) = line else { continue };
        if line.trim().is_empty() {
            continue;
        }
        let command = match Command::parse(&line) {
            Ok(command) => command,
            Err(e) => {
                send(EngineMessage::Error(e.to_string()));
                continue;
            }
        };
        match command {
            Command::Agon => {
                send(EngineMessage::Id(
                    IdField::Name,
                    format!("broken {mode} {n}"),
                ));
                send(EngineMessage::AgonOk);
            }
            Command::Variant(r) => {
                rules = r;
                game = Game::new(rules);
            }
            Command::NewGame => game = Game::new(rules),
            Command::Position(p) => match p.game(rules) {
                Ok(g) => game = g,
                Err(e) => send(EngineMessage::Error(e.to_string())),
            },
            Command::IsReady => send(EngineMessage::ReadyOk),
            Command::Go(_) => {
                gos += 1;
                let action = game.legal().to_vec()[0];
                let mut after = *game.position();
                let captured = after.play_unchecked(action);
                let answer = EngineMessage::BestMove(format_annotated(action, captured));
                if gos == n {
                    match mode.as_str() {
                        "illegal" => {
                            send(EngineMessage::BestMove("f6-f7".into()));
                            continue;
                        }
                        "crash" | "child-crash" => std::process::exit(3),
                        "hang" | "child-hang" => {
                            std::thread::sleep(Duration::from_secs(1000));
                            continue;
                        }
                        "garbage" => {
                            println!("hello, world");
                            continue;
                        }
                        "flood" => flood(),
                        "twice" => {
                            send(answer.clone());
                            std::thread::sleep(Duration::from_millis(200));
                            send(answer);
                            continue;
                        }
                        _ => {}
                    }
                }
                send(answer);
            }
            Command::Quit if mode == "noquit" => {}
            Command::Quit => return,
            Command::SetOption { .. } | Command::Stop | Command::Eval => {}
        }
    }
    if mode == "noquit" {
        sleep_for_ever();
    }
}

/// Writes `info` lines in bursts of 4096 per write until the output is closed.
fn flood() -> ! {
    let line = "info depth 1 score units 0 nodes 1 nps 1 time 0 pv a2-b2\n";
    let burst = line.repeat(4096);
    let mut out = io::stdout().lock();
    while out.write_all(burst.as_bytes()).is_ok() {}
    std::process::exit(0)
}
