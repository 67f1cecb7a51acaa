//! External engines in the harness: any program that speaks the engine protocol
//! (`docs/protocol.md`) plays through an `engine:COMMAND[,key=value...]` spec, e.g.
//! `engine:./my-engine,movetime=100` or `engine:agon engine,depth=3`.
//!
//! The harness is the referee. Every action an engine sends is checked in the position it
//! was asked about; an illegal action, an exit, a line that is not a protocol message, or
//! no answer within the time limit loses the game for that side, with the termination
//! `illegal-move`, `crash` or `timeout` and the reason in the record. The engine's process
//! is then killed, and the next game starts a fresh one. Healthy processes are kept for the
//! next game on the same worker thread (one per spec and thread) and told `newgame`; when
//! the run ends they get `quit`, and every engine's process group is killed.
//!
//! [`Player`] hides the difference between an in-process agent and an engine from
//! [`crate::play`].

mod client;
mod group;
mod spec;

pub use client::{Engine, Failure, StartError};
pub use spec::{
    EngineSpec, EngineSpecError, EngineSpecProblem, DEFAULT_MOVETIME, GRACE, NO_CLOCK_TIMEOUT,
    PREFIX,
};

use crate::error::{Error, Result};
use agon_core::agents::{from_spec, Agent};
use agon_core::{Action, Game, Rules};
use std::cell::RefCell;

thread_local! {
    /// Engines between games, by canonical spec, on this worker thread.
    static IDLE: RefCell<Vec<(String, Engine)>> = const { RefCell::new(Vec::new()) };
}

/// Ends the engines waiting on this thread for a next game (`quit`, then a kill of each
/// process group). Run on every worker thread when a run ends: thread-local engines would
/// otherwise outlive the harness.
pub fn retire_idle_engines() {
    let idle = IDLE.with(|idle| std::mem::take(&mut *idle.borrow_mut()));
    drop(idle);
}

/// The canonical spec of an agent or engine, or a settings error naming the bad spec.
pub fn canonical_spec(spec: &str) -> Result<String> {
    match EngineSpec::parse(spec).map_err(|e| Error::Settings(e.to_string()))? {
        Some(engine) => Ok(engine.canonical()),
        None => from_spec(spec, 0)
            .map(|agent| agent.spec())
            .map_err(|e| Error::Settings(e.to_string())),
    }
}

/// One side of a game: an in-process agent or an external engine.
pub enum Player {
    /// An agent of agon-core.
    Agent(Box<dyn Agent>),
    /// An external engine, started (or taken from the idle ones) on its first action.
    Engine(Box<EnginePlayer>),
}

/// An external engine playing one game.
pub struct EnginePlayer {
    spec: EngineSpec,
    key: String,
    rules: Rules,
    seed: u64,
    engine: Option<Engine>,
    /// Whether the engine failed (then it is killed, not kept).
    failed: bool,
}

/// Why a player gave no action.
#[derive(Debug)]
pub enum Refusal {
    /// An engine failed: it loses the game.
    Forfeit(Failure),
    /// The harness cannot go on (an engine that cannot be started at all).
    Error(Error),
}

impl Player {
    /// The player a spec names, for one game under `rules`, seeded with `seed`.
    pub fn new(spec: &str, seed: u64, rules: Rules) -> Result<Player> {
        match EngineSpec::parse(spec).map_err(|e| Error::Settings(e.to_string()))? {
            Some(engine) => Ok(Player::Engine(Box::new(EnginePlayer {
                key: engine.canonical(),
                spec: engine,
                rules,
                seed,
                engine: None,
                failed: false,
            }))),
            None => from_spec(spec, seed)
                .map(Player::Agent)
                .map_err(|e| Error::Settings(e.to_string())),
        }
    }

    /// Whether this player's choices depend on the clock.
    pub fn is_time_limited(&self) -> bool {
        match self {
            Player::Agent(agent) => agent.is_time_limited(),
            Player::Engine(player) => player.spec.is_time_limited(),
        }
    }

    /// The score this player gave its last choice, from its own point of view, in the
    /// evaluation's units (see [`agon_core::agents::Agent::last_score`]); `None` when it
    /// reports none.
    pub fn last_score(&self) -> Option<i32> {
        match self {
            Player::Agent(agent) => agent.last_score(),
            Player::Engine(_) => None,
        }
    }

    /// The action of the deciding side of `game` (not over). An engine's action has been
    /// checked (legal, annotations right); an agent's is checked by the caller.
    pub fn choose(&mut self, game: &Game) -> std::result::Result<Action, Refusal> {
        match self {
            Player::Agent(agent) => Ok(agent.choose(game)),
            Player::Engine(player) => player.choose(game),
        }
    }
}

impl EnginePlayer {
    fn choose(&mut self, game: &Game) -> std::result::Result<Action, Refusal> {
        if self.engine.is_none() {
            let engine = self.ready().inspect_err(|refusal| {
                self.failed = matches!(refusal, Refusal::Forfeit(_));
            })?;
            self.engine = Some(engine);
        }
        let engine = self.engine.as_mut().expect("ready above");
        engine.choose(game).map_err(|failure| {
            self.failed = true;
            Refusal::Forfeit(failure)
        })
    }

    /// An idle engine of this spec, or a new one, prepared for this game.
    fn ready(&mut self) -> std::result::Result<Engine, Refusal> {
        let idle = IDLE.with(|idle| {
            let mut idle = idle.borrow_mut();
            let at = idle.iter().position(|(key, _)| *key == self.key)?;
            Some(idle.swap_remove(at).1)
        });
        let mut engine = match idle {
            Some(engine) => engine,
            None => Engine::start(&self.spec).map_err(|e| match e {
                StartError::Settings(message) => Refusal::Error(Error::Settings(message)),
                StartError::Failed(failure) => Refusal::Forfeit(failure),
            })?,
        };
        match engine.new_game(self.rules, self.seed) {
            Ok(()) => Ok(engine),
            Err(failure) => {
                client::kill(engine);
                Err(Refusal::Forfeit(failure))
            }
        }
    }
}

impl Drop for EnginePlayer {
    /// A healthy engine waits for the next game on this thread; a failed one is killed.
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            if self.failed {
                client::kill(engine);
            } else {
                let key = self.key.clone();
                IDLE.with(|idle| idle.borrow_mut().push((key, engine)));
            }
        }
    }
}
