//! Costs of the engine protocol, measured on the real `agon engine`: the round trip of one
//! action (`position` + `go depth 1` until `bestmove`) against the same search in process,
//! how soon `stop` ends `go infinite`, and parsing and replaying a long `position` line.
//!
//! `cargo bench -p agon-cli --bench engine`

use agon_core::agents::{AlphaBetaAgent, AlphaBetaConfig};
use agon_core::{Game, Rng, Rules};
use agon_notation::protocol::{Command, PositionCommand};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A seeded random game of up to `plies` plies that is not over (its last ply is taken
/// back if it ended the game).
fn random_game(rng: &mut Rng, plies: usize) -> Game {
    let mut game = Game::new(Rules::STANDARD);
    while game.ply_count() < plies {
        match game.legal().random(rng) {
            Some(action) => {
                game.play_unchecked(action);
            }
            None => break,
        }
    }
    if game.is_over() {
        game.undo();
    }
    game
}

/// Positions from seeded random games, stopped after 0 to 100 plies.
fn positions(count: usize) -> Vec<Game> {
    let mut rng = Rng::new(7);
    (0..count)
        .map(|_| {
            let plies = rng.below(100);
            random_game(&mut rng, plies)
        })
        .collect()
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Process::new(env!("CARGO_BIN_EXE_agon"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start agon engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn until(&self, prefix: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer");
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

fn main() {
    let games = positions(300);
    let mut engine = Engine::start();
    engine.send("agon");
    engine.until("agonok");

    // One action through the protocol, and the same search in process.
    let start = Instant::now();
    for game in &games {
        engine.send("newgame");
        engine.send(&Command::Position(PositionCommand::of_game(game)).to_string());
        engine.send("go depth 1");
        engine.until("bestmove");
    }
    let protocol = start.elapsed().as_secs_f64() / games.len() as f64;
    let start = Instant::now();
    for game in &games {
        let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(1, 0));
        agent.search(game);
    }
    let in_process = start.elapsed().as_secs_f64() / games.len() as f64;
    println!(
        "one action at depth 1 (new game, position, go, bestmove; {} positions):",
        games.len()
    );
    println!("  through the protocol: {:.0} us", protocol * 1e6);
    println!(
        "  in process (agent built, table allocated, searched): {:.0} us",
        in_process * 1e6
    );

    // A whole game at depth 1: what the harness does, one `position` and `go` per action.
    engine.send("newgame");
    let mut game = Game::new(Rules::STANDARD);
    let start = Instant::now();
    while !game.is_over() && game.ply_count() < 300 {
        engine.send(&Command::Position(PositionCommand::of_game(&game)).to_string());
        engine.send("go depth 1");
        let line = engine.until("bestmove");
        let token = line.strip_prefix("bestmove ").expect("an action");
        let (action, _) = agon_notation::parse_action(token, game.position()).expect("legal");
        game.play(action).expect("legal");
    }
    let protocol = start.elapsed().as_secs_f64() / game.ply_count() as f64;
    let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(1, 0));
    let mut replay = Game::new(Rules::STANDARD);
    let start = Instant::now();
    while replay.ply_count() < game.ply_count() {
        let action = agent.search(&replay).action;
        replay.play(action).expect("legal");
    }
    let in_process = start.elapsed().as_secs_f64() / replay.ply_count() as f64;
    assert_eq!(replay.plies(), game.plies(), "the same game");
    println!(
        "a game of {} actions at depth 1: {:.0} us per action through the protocol, {:.0} us \
         in process",
        game.ply_count(),
        protocol * 1e6,
        in_process * 1e6
    );

    // `stop` during `go infinite`, after the search reached depth 5.
    let mut delays = Vec::new();
    for game in games.iter().take(20) {
        engine.send(&Command::Position(PositionCommand::of_game(game)).to_string());
        engine.send("go infinite");
        engine.until("info depth 5 ");
        let start = Instant::now();
        engine.send("stop");
        engine.until("bestmove");
        delays.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    delays.sort_by(f64::total_cmp);
    println!(
        "stop during go infinite until bestmove ({} searches): median {:.2} ms, max {:.2} ms",
        delays.len(),
        delays[delays.len() / 2],
        delays[delays.len() - 1]
    );
    engine.send("quit");
    engine.child.wait().expect("agon engine exits");

    // Parsing and replaying a long `position` line.
    let long = random_game(&mut Rng::new(3), 2000);
    let line = Command::Position(PositionCommand::of_game(&long)).to_string();
    let rounds = 200;
    let start = Instant::now();
    for _ in 0..rounds {
        let Ok(Command::Position(p)) = Command::parse(&line) else {
            panic!("a position command")
        };
        p.game(Rules::STANDARD).expect("replays");
    }
    let seconds = start.elapsed().as_secs_f64() / rounds as f64;
    println!(
        "position with {} plies ({} bytes): parsed and replayed in {:.0} us ({:.2} us per ply)",
        long.ply_count(),
        line.len(),
        seconds * 1e6,
        seconds * 1e6 / long.ply_count().max(1) as f64
    );
}
