//! A deliberately broken engine for the harness's tests (`tests/tests/engine_broken.rs`).
//!
//! It speaks the engine protocol and answers every `go` with the first legal action (in
//! agon-core's order), except at its N-th `go` since it started, where it misbehaves as
//! MODE says:
//! - `illegal`: answers `bestmove f6-f7`, never legal (the throne is empty, or holds a
//!   queen, who can no longer step);
//! - `crash`: exits with code 3;
//! - `hang`: sleeps for 1000 seconds without answering;
//! - `garbage`: prints `hello, world` instead of an answer;
//! - `fine`: never misbehaves.
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (mode, n) = match args.as_slice() {
        [_, mode, n] => (mode.clone(), n.parse::<u64>().unwrap_or(1)),
        _ => ("fine".to_string(), 0),
    };
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
                send(EngineMessage::Error(e.message));
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
                Err(e) => send(EngineMessage::Error(e.message)),
            },
            Command::IsReady => send(EngineMessage::ReadyOk),
            Command::Go(_) => {
                gos += 1;
                if gos == n {
                    match mode.as_str() {
                        "illegal" => {
                            send(EngineMessage::BestMove("f6-f7".into()));
                            continue;
                        }
                        "crash" => std::process::exit(3),
                        "hang" => {
                            std::thread::sleep(Duration::from_secs(1000));
                            continue;
                        }
                        "garbage" => {
                            println!("hello, world");
                            continue;
                        }
                        _ => {}
                    }
                }
                let action = game.legal().to_vec()[0];
                let mut after = *game.position();
                let captured = after.play_unchecked(action);
                send(EngineMessage::BestMove(format_annotated(action, captured)));
            }
            Command::Quit => return,
            Command::SetOption { .. } | Command::Stop => {}
        }
    }
}
