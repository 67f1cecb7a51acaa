//! `agon engine`: this toolkit's agents behind the engine protocol (`docs/protocol.md`),
//! so that harnesses and GUIs can play them like any other engine.
//!
//! The main thread reads commands; each `go` starts a search thread ([`thinking`]) that
//! prints `info` and `bestmove` lines, so `stop`, `isready` and `quit` are read and
//! answered while the engine thinks. Every line on stdout is a protocol message; a line
//! that is not a valid command gets one `error` line saying what was expected.

mod evaluation;
mod options;
pub(crate) mod thinking;

pub(crate) use thinking::annotate;

use crate::error::{CliError, CliResult};
use agon_core::agents::Agent;
use agon_core::{Game, Rules};
use agon_notation::protocol::{read_line, Command, EngineMessage, IdField, Line, MAX_LINE};
use clap::Args;
use options::Settings;
use std::fmt::Display;
use std::io::{self, Write};
use thinking::Thinking;

/// Examples shown after `agon engine --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon engine                                 speak the protocol on stdin and stdout
  printf 'agon\\nposition startpos moves h9-g9\\ngo depth 3\\n' | agon engine
  agon engine --agent mcts:playouts=2000      another agent behind the protocol
  agon-selfplay run --white 'engine:agon engine,depth=3' --black alphabeta:depth=3 --out d
Commands: agon, setoption, newgame, variant, position, go, stop, eval, isready, quit.
The protocol, with a full example session, is in docs/protocol.md.";

/// Options of `agon engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The agent that thinks (an agent spec: `alphabeta`, `alphabeta:noise=5`,
    /// `mcts:playouts=2000`); `setoption name Agent` changes it.
    #[arg(long, value_name = "SPEC", default_value = "alphabeta")]
    pub agent: String,

    /// The alpha-beta transposition table in MB (`setoption name Hash`).
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: u64,

    /// The agent's seed (`setoption name Seed`).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
}

/// Writes one protocol line to stdout, whole, and flushes it. Errors (the controller went
/// away) are ignored: the end of stdin ends the engine.
fn send(message: impl Display) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{message}").and_then(|()| out.flush());
}

fn send_error(message: impl Display) {
    send(EngineMessage::Error(message.to_string()));
}

/// Whether to go on reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The engine's state between commands.
struct Engine {
    settings: Settings,
    rules: Rules,
    /// The position to search (`None` after a `position` command that failed).
    game: Option<Game>,
    /// The agent, built on the first `go` after a new game or a changed option.
    agent: Option<Box<dyn Agent>>,
    thinking: Option<Thinking>,
}

/// Runs `agon engine` until `quit` or the end of stdin.
pub fn run(args: &EngineArgs) -> CliResult {
    let settings = Settings::new(&args.agent, args.hash, args.seed).map_err(|e| {
        CliError::with_hint(
            e,
            "`agon engine --agent SPEC` takes an agent such as `alphabeta` or `mcts:playouts=500`",
        )
    })?;
    let mut engine = Engine {
        settings,
        rules: Rules::STANDARD,
        game: Some(Game::new(Rules::STANDARD)),
        agent: None,
        thinking: None,
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    loop {
        let line = match read_line(&mut input, MAX_LINE) {
            Ok(Some(Line::Text(line))) => line,
            Ok(Some(Line::TooLong(length))) => {
                send_error(format!(
                    "a line of {length} bytes is longer than the limit of {MAX_LINE}; ignored"
                ));
                continue;
            }
            Ok(None) | Err(_) => {
                engine.finish();
                return Ok(0);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let flow = match Command::parse(&line) {
            Ok(command) => engine.handle(command),
            Err(e) => {
                // A `position` that does not even parse fails like one that does not
                // replay: there is no position afterwards (docs/protocol.md).
                if line.split_whitespace().next() == Some("position") {
                    engine.game = None;
                }
                send_error(e);
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            if let Some(thinking) = engine.thinking.take() {
                thinking.abandon();
            }
            return Ok(0);
        }
    }
}

impl Engine {
    fn handle(&mut self, command: Command) -> Flow {
        if let Some(thinking) = &self.thinking {
            match command {
                Command::Stop => {
                    thinking.stop();
                    return Flow::Continue;
                }
                Command::IsReady => {
                    send(EngineMessage::ReadyOk);
                    return Flow::Continue;
                }
                Command::Quit => return Flow::Quit,
                _ if thinking.stop_requested() || thinking.is_over() => self.collect(),
                other => {
                    if matches!(other, Command::Position(_)) {
                        // Refused, so failed: no position for the next `go`.
                        self.game = None;
                    }
                    send_error(format!(
                        "{}: busy thinking; send `stop` or wait for `bestmove` first",
                        word(&other)
                    ));
                    return Flow::Continue;
                }
            }
        }
        match command {
            Command::Agon => self.handshake(),
            Command::SetOption { name, value } => {
                match self.settings.set(&name, value.as_deref()) {
                    Ok(()) => self.agent = None,
                    Err(e) => send_error(e),
                }
            }
            Command::NewGame => {
                self.agent = None;
                self.game = Some(Game::new(self.rules));
            }
            Command::Variant(rules) => {
                self.rules = rules;
                self.game = Some(Game::new(rules));
            }
            Command::Position(position) => match position.game(self.rules) {
                Ok(game) => self.game = Some(game),
                Err(e) => {
                    self.game = None;
                    send_error(e);
                }
            },
            Command::Go(go) => self.go(go),
            Command::Eval => self.eval(),
            Command::Stop => {}
            Command::IsReady => send(EngineMessage::ReadyOk),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn handshake(&self) {
        send(EngineMessage::Id(
            IdField::Name,
            format!("agon {}", env!("CARGO_PKG_VERSION")),
        ));
        send(EngineMessage::Id(
            IdField::Author,
            "the agon authors".into(),
        ));
        for option in self.settings.declared() {
            send(EngineMessage::Option(option));
        }
        send(EngineMessage::AgonOk);
    }

    fn go(&mut self, go: agon_notation::protocol::Go) {
        let Some(game) = &self.game else {
            send_error("go: no position (the last `position` command failed); send one first");
            return;
        };
        if let Some(outcome) = game.outcome() {
            send_error(format!(
                "go: the game is over ({} by {}); there is no action to choose",
                outcome.result, outcome.termination
            ));
            return;
        }
        let agent = match self.agent.take() {
            Some(agent) => agent,
            None => match self.settings.build() {
                Ok(agent) => agent,
                Err(e) => {
                    send_error(format!("go: {e}"));
                    return;
                }
            },
        };
        self.thinking = Some(Thinking::start(agent, game.clone(), go));
    }

    /// `eval`: the static evaluation of the current position, term by term.
    fn eval(&self) {
        let Some(game) = &self.game else {
            send_error("eval: no position (the last `position` command failed); send one first");
            return;
        };
        if let Some(outcome) = game.outcome() {
            send_error(format!(
                "eval: the game is over ({} by {}); there is nothing to evaluate",
                outcome.result, outcome.termination
            ));
            return;
        }
        for line in evaluation::lines(game.position()) {
            send(EngineMessage::Eval(line));
        }
    }

    /// Waits for the search thread (which has answered or been told to) and takes the
    /// agent back.
    fn collect(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            self.agent = thinking.join();
            if self.agent.is_none() {
                send_error("go: the search failed; the agent is rebuilt for the next `go`");
            }
        }
    }

    /// At the end of stdin: a search still running answers (`go infinite` is stopped).
    fn finish(&mut self) {
        if let Some(thinking) = &self.thinking {
            thinking.stop_if_infinite();
        }
        self.collect();
    }
}

/// The command word of a command, for error messages.
fn word(command: &Command) -> String {
    command
        .to_string()
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}
