//! `agon play`: a game in the terminal between humans and agents. Interactive on a
//! terminal; when stdin is not a terminal, actions and commands are read line by line, so
//! a game can be scripted.

use crate::board_text::TextStyle;
use crate::cmd::moves::{annotated, legal_with_captures};
use crate::cmd::show::write_board;
use crate::error::{CliError, CliResult};
use crate::output::{colour_wanted, stdin_is_terminal, Out};
use crate::select::{read_action, PositionArgs};
use agon_core::agents::{from_spec, Agent};
use agon_core::{Cell, Game, GameResult, Outcome, Side, Termination};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::io::{Lines as StdLines, StdinLock};
use std::path::PathBuf;

/// Examples shown after `agon play --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon play                                  two humans at one terminal
  agon play --black random                   you are White, the computer Black
  agon play --white greedy --black human --save game.agn
  agon play --white random --black random --seed 7 --save selfplay.agn
  printf 'h9-g9\\nb7-c7\\nundo\\nresign\\n' | agon play --save out.agn
At the prompt (line editing and history with the arrow keys) type an action (`h9-g9`,
also `H9-G9`, `h9g9` or `h9 g9`; `d9@a5`, `Q@f1`, `pass`) or a command:
  moves   list the legal actions        h9      list the actions of the piece on h9
  hint    ask the hint agent            undo    take back your last action
  board   draw the board again          save [FILE]  write the game record
  resign  give up                       quit    stop (the record says `*`)
When stdin is not a terminal, each line is an action or command; an illegal one stops
with exit code 2 and the line number. Lines starting with # are comments.";

/// Options of `agon play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Who plays White: `human` or an agent spec (`random`, `greedy`, `alphabeta:depth=3`).
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    pub white: String,

    /// Who plays Black: `human` or an agent spec.
    #[arg(long, value_name = "PLAYER", default_value = "human")]
    pub black: String,

    /// Seed for the agents (default: from the clock, printed so the game can be repeated).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Write the game record to FILE when the game ends (and on `save`).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,

    /// The agent that answers `hint` (default: greedy).
    #[arg(long, value_name = "AGENT")]
    pub hint_agent: Option<String>,

    /// Stop the game as a `move-limit` draw after this many plies.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_plies: usize,

    /// Draw the board after every action even when stdin is not a terminal.
    #[arg(long)]
    pub show_board: bool,

    /// Plain ASCII board without colour.
    #[arg(long)]
    pub ascii: bool,

    #[command(flatten)]
    pub position: PositionArgs,
}

enum Player {
    Human,
    Agent(Box<dyn Agent>),
}

impl Player {
    fn name(&self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Agent(agent) => agent.spec(),
        }
    }
}

/// A game being played, with its players and where its record goes.
struct Session {
    game: Game,
    players: [Player; 2],
    hint: Option<Box<dyn Agent>>,
    hint_error: Option<String>,
    /// A result the rules did not produce (resignation).
    ended: Option<Outcome>,
    save: Option<PathBuf>,
    interactive: bool,
    show_board: bool,
    style: TextStyle,
    seed: u64,
    max_plies: usize,
}

/// What a line of input asked for.
enum Step {
    Continue,
    Stop,
}

fn build_player(spec: &str, seed: u64, colour: &str) -> Result<Player, CliError> {
    if spec.eq_ignore_ascii_case("human") {
        return Ok(Player::Human);
    }
    from_spec(spec, seed).map(Player::Agent).map_err(|e| {
        CliError::with_hint(
            format!("--{colour}: {e}"),
            "use `human` or an agent such as `random`; `agon play --help` has examples",
        )
    })
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

/// Runs `agon play`.
pub fn run(args: &PlayArgs) -> CliResult {
    let game = args.position.select()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let players = [
        build_player(&args.white, seed.wrapping_mul(2), "white")?,
        build_player(&args.black, seed.wrapping_mul(2).wrapping_add(1), "black")?,
    ];
    let (hint, hint_error) = match &args.hint_agent {
        Some(spec) => match from_spec(spec, seed ^ 0x5eed) {
            Ok(agent) => (Some(agent), None),
            Err(e) => {
                return Err(CliError::new(format!("--hint-agent: {e}")));
            }
        },
        None => match from_spec("greedy", seed ^ 0x5eed).or_else(|_| from_spec("random", seed)) {
            Ok(agent) => (Some(agent), None),
            Err(e) => (None, Some(e.to_string())),
        },
    };
    let interactive = stdin_is_terminal();
    let mut session = Session {
        game,
        players,
        hint,
        hint_error,
        ended: None,
        save: args.save.clone(),
        interactive,
        show_board: interactive || args.show_board,
        style: TextStyle {
            colour: !args.ascii && colour_wanted(),
        },
        seed,
        max_plies: args.max_plies,
    };
    let mut out = Out::new();
    session.play(&mut out)?;
    out.flush()?;
    Ok(0)
}

impl Session {
    fn play(&mut self, out: &mut Out) -> Result<(), CliError> {
        if self.interactive {
            writeln!(
                out,
                "Agon: {} (White) against {} (Black), rules {}{}. Type `help` for commands.",
                self.players[0].name(),
                self.players[1].name(),
                self.game.rules(),
                if self.has_agent() {
                    format!(", seed {}", self.seed)
                } else {
                    String::new()
                }
            )?;
        }
        if self.show_board {
            self.board(out)?;
            writeln!(out, "{}", crate::board_text::LEGEND)?;
        }
        let mut lines = Lines::new(self.interactive);
        let mut line_number = 0usize;
        loop {
            if self.finished().is_some() {
                break;
            }
            if self.game.ply_count() >= self.max_plies {
                self.game.adjudicate_move_limit();
                break;
            }
            let decider = self.game.position().decider();
            if let Player::Agent(agent) = &mut self.players[decider.index()] {
                let action = agent.choose(&self.game);
                self.play_action(out, action)?;
                continue;
            }
            out.flush()?;
            let label = self.move_label(self.game.ply_count() + 1);
            let prompt = format!("{label} {decider}> ");
            let Some(line) = lines.next(out, &prompt)? else {
                if self.interactive {
                    writeln!(out)?;
                }
                break;
            };
            line_number += 1;
            match self.command(out, line.trim()) {
                Ok(Step::Continue) => {}
                Ok(Step::Stop) => break,
                Err(message) if self.interactive => writeln!(out, "{message}")?,
                Err(message) => return Err(CliError::with_hint(
                    format!("line {line_number}: {message}"),
                    "each line of input is an action such as `h9-g9` or a command such as `undo`",
                )),
            }
        }
        self.finish(out)
    }

    /// The number a record gives ply `ply` (1-based): `3.` for a White ply, `3...` for a
    /// Black one (sides alternate from the start's side to move, as in the movetext).
    fn move_label(&self, ply: usize) -> String {
        let first = self.game.start().to_move();
        let number = agon_notation::move_number(ply as u64, first);
        let side = if ply % 2 == 1 { first } else { !first };
        match side {
            Side::White => format!("{number}."),
            Side::Black => format!("{number}..."),
        }
    }

    fn has_agent(&self) -> bool {
        self.players.iter().any(|p| matches!(p, Player::Agent(_)))
    }

    /// How the game ended: by the rules, by resignation, or not yet.
    fn finished(&self) -> Option<Outcome> {
        self.ended.or(self.game.outcome())
    }

    fn board(&self, out: &mut Out) -> std::io::Result<()> {
        writeln!(out)?;
        write_board(out, &self.game, self.style, false)
    }

    /// Handles one line of input. `Err` carries a message for the user.
    fn command(&mut self, out: &mut Out, line: &str) -> Result<Step, String> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Ok(Step::Continue);
        };
        if word.starts_with('#') {
            return Ok(Step::Continue);
        }
        let rest: Vec<&str> = words.collect();
        let io = |e: std::io::Error| e.to_string();
        match word.to_ascii_lowercase().as_str() {
            "help" | "?" => {
                writeln!(out, "{}", help_text()).map_err(io)?;
            }
            "board" | "show" => self.board(out).map_err(io)?,
            "moves" | "m" => {
                let list: Vec<String> = legal_with_captures(&self.game)
                    .into_iter()
                    .map(|(a, c)| annotated(a, c))
                    .collect();
                writeln!(out, "{}", wrap(&list)).map_err(io)?;
            }
            "hint" => match &mut self.hint {
                Some(agent) => {
                    let action = agent.choose(&self.game);
                    writeln!(out, "hint: {action}").map_err(io)?;
                }
                None => {
                    return Err(format!(
                        "no hint agent is available: {}",
                        self.hint_error.clone().unwrap_or_default()
                    ))
                }
            },
            "undo" => self.undo(out).map_err(io)?,
            "save" => {
                let path = match rest.first() {
                    Some(p) => PathBuf::from(p),
                    None => self
                        .save
                        .clone()
                        .ok_or("save where? type `save FILE` (or start with --save FILE)")?,
                };
                self.save_to(&path).map_err(|e| e.to_string())?;
                writeln!(out, "saved {}", path.display()).map_err(io)?;
            }
            "resign" => {
                let side = self.game.position().decider();
                self.ended = Some(Outcome {
                    result: GameResult::win_for(!side),
                    termination: Termination::Resignation,
                });
                return Ok(Step::Stop);
            }
            "quit" | "exit" | "q" => return Ok(Step::Stop),
            _ => self.human_action(out, &crate::typed::canonical_line(line))?,
        }
        Ok(Step::Continue)
    }

    fn human_action(&mut self, out: &mut Out, token: &str) -> Result<(), String> {
        if let Ok(cell) = token.parse::<Cell>() {
            let text = self.actions_of_cell(cell);
            writeln!(out, "{text}").map_err(|e| e.to_string())?;
            return Ok(());
        }
        let action = read_action(&self.game, token).map_err(|e| {
            if self.interactive {
                format!("{e}\n(type `moves` for the legal actions, `help` for the commands)")
            } else {
                e
            }
        })?;
        self.play_action(out, action).map_err(|e| e.to_string())
    }

    /// The legal actions of the piece on a cell (or placements onto it), or why it has none.
    fn actions_of_cell(&self, cell: Cell) -> String {
        let list: Vec<String> = legal_with_captures(&self.game)
            .into_iter()
            .filter(|(a, _)| match a.origin() {
                Some(from) => from == cell,
                None => a.destination() == Some(cell),
            })
            .map(|(a, c)| annotated(a, c))
            .collect();
        if !list.is_empty() {
            return wrap(&[&[format!("actions of {cell}:")], list.as_slice()].concat());
        }
        let position = self.game.position();
        let decider = position.decider();
        match position.piece_at(cell) {
            None => format!("{cell} is empty"),
            Some(piece) if piece.side != position.to_move() => {
                format!("the piece on {cell} is {}'s", piece.side)
            }
            Some(_) if decider != position.to_move() => {
                format!(
                    "{decider} chooses now, for {}'s captured queen",
                    position.to_move()
                )
            }
            Some(_) => format!("the piece on {cell} has no legal action now"),
        }
    }

    fn play_action(&mut self, out: &mut Out, action: agon_core::Action) -> Result<(), CliError> {
        let mover = self.game.position().decider();
        let side_to_move = self.game.position().to_move();
        let captures = self.game.play(action).map_err(|e| {
            CliError::new(format!(
                "the {} player chose an illegal action `{action}`: {e}",
                mover
            ))
        })?;
        let label = self.move_label(self.game.ply_count());
        let who = if mover != side_to_move {
            format!("{side_to_move} (chosen by {mover})")
        } else {
            side_to_move.to_string()
        };
        writeln!(out, "{label} {who} {}", annotated(action, captures))?;
        // Draw the board when a person is to decide next (not between an action and the
        // agent's immediate reply), when only agents play, and at the end.
        let next_is_person = !self.decider_is_agent();
        let only_agents = self.players.iter().all(|p| matches!(p, Player::Agent(_)));
        if self.show_board && (next_is_person || only_agents || self.game.is_over()) {
            self.board(out)?;
        }
        Ok(())
    }

    /// Takes back the last ply, and then any agent plies, so that a human is to decide.
    fn undo(&mut self, out: &mut Out) -> std::io::Result<()> {
        let Some(ply) = self.game.undo() else {
            return writeln!(out, "nothing to undo");
        };
        let mut taken = vec![ply.action.to_string()];
        while self.game.ply_count() > 0 && self.decider_is_agent() {
            if let Some(ply) = self.game.undo() {
                taken.push(ply.action.to_string());
            }
        }
        writeln!(out, "undone: {}", taken.join(", "))?;
        if self.show_board {
            self.board(out)?;
        }
        Ok(())
    }

    fn decider_is_agent(&self) -> bool {
        matches!(
            self.players[self.game.position().decider().index()],
            Player::Agent(_)
        )
    }

    fn finish(&mut self, out: &mut Out) -> Result<(), CliError> {
        match self.finished() {
            Some(outcome) => {
                let winner = match outcome.result.winner() {
                    Some(Side::White) => "White wins",
                    Some(Side::Black) => "Black wins",
                    None => "draw",
                };
                writeln!(
                    out,
                    "Result: {} ({winner}, {})",
                    outcome.result,
                    crate::status::describe_termination(outcome.termination)
                )?;
            }
            None => writeln!(out, "Result: * (unfinished)")?,
        }
        if let Some(path) = self.save.clone() {
            self.save_to(&path)?;
            if self.interactive {
                writeln!(out, "saved {}", path.display())?;
            }
        }
        Ok(())
    }

    fn save_to(&self, path: &std::path::Path) -> Result<(), CliError> {
        let mut tags = vec![
            ("Event".to_string(), "agon play".to_string()),
            ("White".to_string(), self.players[0].name()),
            ("Black".to_string(), self.players[1].name()),
        ];
        if self.has_agent() {
            tags.push(("Seed".to_string(), self.seed.to_string()));
        }
        crate::records::save_game(path, &self.game, self.ended, &tags)
    }
}

fn help_text() -> &'static str {
    "Type an action: a step `h9-g9`, a relocation `d9@a5`, a placement `Q@f1`, or `pass`.\n\
     Commands: moves (list legal actions), CELL (actions of one piece, e.g. `h9`), hint,\n\
     undo, board, save [FILE], resign, quit."
}

/// Joins words into lines of at most 78 characters.
fn wrap(words: &[String]) -> String {
    let mut text = String::new();
    let mut width = 0;
    for word in words {
        if width > 0 && width + 1 + word.len() > 78 {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text.push_str(word);
        width += word.len();
    }
    text
}

/// Where the lines typed at the prompt come from: on a terminal, rustyline (line editing,
/// history with the arrow keys, Ctrl-R search); otherwise, or if the terminal cannot be
/// set up, plain lines of stdin (scripts, pipes, tests).
enum Lines {
    Editor(Box<rustyline::DefaultEditor>),
    Plain(StdLines<StdinLock<'static>>),
}

impl Lines {
    fn new(interactive: bool) -> Lines {
        if interactive {
            if let Ok(editor) = rustyline::DefaultEditor::new() {
                return Lines::Editor(Box::new(editor));
            }
        }
        Lines::Plain(std::io::stdin().lock().lines())
    }

    /// The next line, `None` at the end of input (Ctrl-D, or Ctrl-C on a terminal: the
    /// game then ends as if `quit` were typed, and its record is saved).
    fn next(&mut self, out: &mut Out, prompt: &str) -> Result<Option<String>, CliError> {
        match self {
            Lines::Editor(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    Ok(Some(line))
                }
                Err(
                    rustyline::error::ReadlineError::Eof
                    | rustyline::error::ReadlineError::Interrupted,
                ) => Ok(None),
                Err(e) => Err(CliError::new(format!("cannot read the terminal: {e}"))),
            },
            Lines::Plain(lines) => {
                if std::io::stdin().is_terminal() {
                    write!(out, "{prompt}")?;
                    out.flush()?;
                }
                lines
                    .next()
                    .transpose()
                    .map_err(|e| CliError::io("cannot read stdin", e))
            }
        }
    }
}
