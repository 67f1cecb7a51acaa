//! A running external engine: its process, a thread that reads its output line by line,
//! and the protocol exchanges the harness needs (handshake, new game, one action), each
//! with a time limit. Every answer is checked; whatever breaks the protocol becomes a
//! [`Failure`] that loses the game.
//!
//! Hostile engines are expected: the queue of lines read is bounded (an engine that floods
//! `info` lines blocks on its own output and cannot grow the harness), every wait ends at
//! its deadline however much the engine writes, an engine that exits is seen as such even
//! when a child of it still holds its output, and the engine runs in a process group of its
//! own that is killed whole, so no child of it outlives the harness.

use super::spec::EngineSpec;
use agon_core::{Action, Game, Rules, Termination};
use agon_notation::parse_action;
use agon_notation::protocol::{
    read_line, Command, EngineMessage, EngineOption, Line, OptionKind, PositionCommand, MAX_LINE,
};
use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The shortest wait for the handshake and for `readyok` (engines may load tables first).
const SETUP_LIMIT: Duration = Duration::from_secs(10);
/// How long an engine has to exit after `quit` before it is killed.
const QUIT_LIMIT: Duration = Duration::from_millis(500);
/// Lines read from an engine and not yet handled; the reader thread (and so the engine,
/// once its pipe is full) waits when the queue is full. Lines are at most [`MAX_LINE`].
const QUEUE_LINES: usize = 32;
/// How often a wait checks whether the engine process has exited (its output may stay
/// open when a child of it holds it).
const EXIT_POLL: Duration = Duration::from_millis(50);

/// Why an engine loses a game: the record's termination and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `illegal-move`, `crash` or `timeout`.
    pub termination: Termination,
    /// What the engine did, for the record.
    pub reason: String,
}

impl Failure {
    fn crash(reason: impl Into<String>) -> Failure {
        Failure {
            termination: Termination::Crash,
            reason: reason.into(),
        }
    }
}

/// Why an engine could not be started at all (a settings problem, not the engine's loss).
#[derive(Debug)]
pub enum StartError {
    /// The program could not be run, or the spec asks for an option it does not have.
    Settings(String),
    /// The engine started but failed the handshake.
    Failed(Failure),
}

impl std::fmt::Display for Failure {
    /// The reason and the termination it leads to: `timeout: no answer within 5 s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.termination, self.reason)
    }
}

impl std::error::Error for Failure {}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Settings(message) => f.write_str(message),
            StartError::Failed(failure) => failure.fmt(f),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Settings(_) => None,
            StartError::Failed(failure) => Some(failure),
        }
    }
}

/// What the reader thread passes on.
enum Event {
    Line(Line),
    Closed,
}

/// A running engine that has completed the handshake.
pub struct Engine {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    options: Vec<EngineOption>,
    /// The answer to the last `go`, once received (a second one is a protocol error).
    answered: Option<String>,
}

impl Engine {
    /// Starts the program of `spec`, completes the handshake and sets the spec's options.
    pub fn start(spec: &EngineSpec) -> Result<Engine, StartError> {
        let mut command = Process::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // A process group of its own, so that it is killed with its children.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| {
            StartError::Settings(format!(
                "cannot start engine `{}`: {}",
                spec.program,
                describe_io(&e)
            ))
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, events) = mpsc::sync_channel(QUEUE_LINES);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(line)) = read_line(&mut reader, MAX_LINE) {
                if sender.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = sender.send(Event::Closed);
        });
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            events,
            options: Vec::new(),
            answered: None,
        };
        engine.handshake().map_err(StartError::Failed)?;
        for (name, value) in &spec.options {
            let Some(option) = engine
                .options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name))
            else {
                let names: Vec<&str> = engine.options.iter().map(|o| o.name.as_str()).collect();
                return Err(StartError::Settings(format!(
                    "engine `{}` has no option `{name}` (it declares: {})",
                    spec.program,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )));
            };
            option
                .check_value(value)
                .map_err(|e| StartError::Settings(format!("engine `{}`: {e}", spec.program)))?;
            let command = Command::SetOption {
                name: option.name.clone(),
                value: Some(value.clone()),
            };
            engine.send(&command).map_err(StartError::Failed)?;
        }
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), Failure> {
        self.send(&Command::Agon)?;
        let deadline = Instant::now() + self.spec.time_limit().max(SETUP_LIMIT);
        loop {
            match self.receive(deadline, "agonok")? {
                EngineMessage::Option(option) => self.options.push(option),
                EngineMessage::AgonOk => return Ok(()),
                EngineMessage::BestMove(token) => {
                    return Err(Failure::crash(format!(
                        "sent `bestmove {token}` without being asked"
                    )))
                }
                EngineMessage::Error(text) => {
                    return Err(Failure::crash(format!(
                        "answered `agon` with `error {text}`"
                    )))
                }
                _ => {}
            }
        }
    }

    /// Prepares a new game: `Seed` (if the engine declares it) set to `seed`, reduced into
    /// its range; `newgame`; `variant`; and `isready`, answered by `readyok`.
    pub fn new_game(&mut self, rules: Rules, seed: u64) -> Result<(), Failure> {
        let seed_option = self.options.iter().find_map(|o| match o.kind {
            OptionKind::Spin { min, max, .. } if o.name.eq_ignore_ascii_case("seed") => {
                Some((o.name.clone(), min, max))
            }
            _ => None,
        });
        if let Some((name, min, max)) = seed_option {
            let span = (max - min).saturating_add(1).max(1);
            let value = min + i128::from(seed).rem_euclid(span);
            self.send(&Command::SetOption {
                name,
                value: Some(value.to_string()),
            })?;
        }
        self.answered = None;
        self.send(&Command::NewGame)?;
        self.send(&Command::Variant(rules))?;
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + self.spec.time_limit().max(SETUP_LIMIT);
        loop {
            match self.receive(deadline, "readyok")? {
                EngineMessage::ReadyOk => return Ok(()),
                EngineMessage::BestMove(token) => {
                    return Err(Failure::crash(format!(
                        "sent `bestmove {token}` without being asked"
                    )))
                }
                EngineMessage::Error(text) => {
                    return Err(Failure::crash(format!(
                        "answered the new game's setup with `error {text}`"
                    )))
                }
                _ => {}
            }
        }
    }

    /// Asks for the action of the deciding side of `game` (not over) and checks it.
    pub fn choose(&mut self, game: &Game) -> Result<Action, Failure> {
        self.sync()?;
        self.send(&Command::Position(PositionCommand::of_game(game)))?;
        self.send(&Command::Go(self.spec.go()))?;
        let deadline = Instant::now() + self.spec.time_limit();
        loop {
            match self.receive(deadline, "bestmove")? {
                EngineMessage::BestMove(token) => {
                    self.answered = Some(token.clone());
                    return parse_action(&token, game.position())
                        .map(|(action, _)| action)
                        .map_err(|e| Failure {
                            termination: Termination::IllegalMove,
                            reason: format!("sent `bestmove {token}`: {e}"),
                        });
                }
                EngineMessage::Error(text) => {
                    return Err(Failure::crash(format!("answered `go` with `error {text}`")))
                }
                _ => {}
            }
        }
    }

    /// Checks, before the next `position` and `go`, that the engine is idle and sent
    /// nothing wrong since its last answer: `isready`, then every line up to `readyok`
    /// must be a valid message other than `bestmove` (a second answer to one `go` would
    /// otherwise be taken for the next answer).
    fn sync(&mut self) -> Result<(), Failure> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + self.spec.time_limit();
        loop {
            match self.receive(deadline, "readyok")? {
                EngineMessage::ReadyOk => return Ok(()),
                EngineMessage::BestMove(token) => {
                    return Err(Failure::crash(match &self.answered {
                        Some(_) => format!("sent a second `bestmove {token}` for one `go`"),
                        None => format!("sent `bestmove {token}` without being asked"),
                    }))
                }
                EngineMessage::Error(text) => {
                    return Err(Failure::crash(format!(
                        "answered `isready` with `error {text}`"
                    )))
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, command: &Command) -> Result<(), Failure> {
        let line = format!("{command}\n");
        match self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
        {
            Ok(()) => Ok(()),
            Err(_) => Err(Failure::crash(format!(
                "{} before reading `{}`",
                self.exit_description(),
                first_word(&line)
            ))),
        }
    }

    /// The next message, or the failure that ends the wait: a line that is not a protocol
    /// message, the end of the engine's output or of its process, or the deadline (checked
    /// before every line, so that an engine writing without pause still times out).
    fn receive(&mut self, deadline: Instant, awaited: &str) -> Result<EngineMessage, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Failure {
                    termination: Termination::Timeout,
                    reason: format!(
                        "sent no `{awaited}` within {} ms",
                        self.wait_limit(awaited).as_millis()
                    ),
                });
            }
            match self.events.recv_timeout(left.min(EXIT_POLL)) {
                Ok(Event::Line(Line::Text(text))) if text.trim().is_empty() => {}
                Ok(Event::Line(Line::Text(text))) => {
                    return EngineMessage::parse(&text).map_err(|e| {
                        Failure::crash(format!(
                            "sent `{}`, which is not a protocol message ({e})",
                            clip(&text)
                        ))
                    })
                }
                Ok(Event::Line(Line::TooLong(length))) => {
                    return Err(Failure::crash(format!(
                        "sent a line of {length} bytes (the limit is {MAX_LINE})"
                    )))
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::crash(format!(
                        "{} while the harness waited for `{awaited}`",
                        self.exit_description()
                    )))
                }
                Err(RecvTimeoutError::Timeout) => {
                    // The process may have exited while a child of it keeps the pipe open.
                    if let Ok(Some(status)) = self.child.try_wait() {
                        return Err(Failure::crash(format!(
                            "{} while the harness waited for `{awaited}`",
                            describe_exit(status)
                        )));
                    }
                }
            }
        }
    }

    fn wait_limit(&self, awaited: &str) -> Duration {
        match awaited {
            "bestmove" => self.spec.time_limit(),
            _ => self.spec.time_limit().max(SETUP_LIMIT),
        }
    }

    /// How the process ended (it closed its output or its input): its exit status if it
    /// exits soon.
    fn exit_description(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output".into(),
            }
        }
    }
}

impl Drop for Engine {
    /// `quit`, then a kill if the engine has not exited in time; its process group is
    /// killed in any case (children it left behind).
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
        let until = Instant::now() + QUIT_LIMIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        kill_group(&mut self.child);
    }
}

/// Kills an engine at once (after a failure: there is nothing to say to it).
pub fn kill(mut engine: Engine) {
    kill_group(&mut engine.child);
    // Drop then finds the process gone.
}

/// Kills an engine's process group (the engine and every child it started that stayed in
/// the group), then reaps the engine.
fn kill_group(child: &mut Child) {
    super::group::kill(child.id());
    let _ = child.kill();
    let _ = child.wait();
}

fn describe_exit(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "was killed by a signal".into(),
    }
}

fn describe_io(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such program".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or_default()
}

/// At most 60 characters of a line, for a record.
fn clip(text: &str) -> String {
    const LIMIT: usize = 60;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(LIMIT).collect::<String>())
    }
}
