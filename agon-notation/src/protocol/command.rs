//! The controller's commands: what a harness or GUI sends to an engine.

use super::{number, Found, LineKind, ProtocolError};
use crate::action_token::{format_annotated, AnnotatedAction};
use crate::position_notation::{format_position, parse_position};
use agon_core::{Game, Position, Rules};
use std::fmt;
use std::str::FromStr;

/// Every command word, in the order of `docs/protocol.md`.
pub const COMMANDS: [&str; 10] = [
    "agon",
    "setoption",
    "newgame",
    "variant",
    "position",
    "go",
    "stop",
    "eval",
    "isready",
    "quit",
];

/// The deepest `go depth` the protocol accepts (an engine may search less deep).
pub const MAX_DEPTH: u32 = 255;

/// One line from the controller to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `agon`: start the handshake; the engine answers `id` lines, `option` lines, then
    /// `agonok`.
    Agon,
    /// `setoption name NAME [value VALUE]`: set an option the engine declared. Words are
    /// joined by single spaces.
    SetOption {
        /// The option's name (engines compare names case-insensitively).
        name: String,
        /// Its new value (`None` when the line has no `value`).
        value: Option<String>,
    },
    /// `newgame`: the next position belongs to a new game (forget tables and trees).
    NewGame,
    /// `variant NAME`: the rule set of the following positions (a canonical or any
    /// accepted rule-set name; the default is `standard`).
    Variant(Rules),
    /// `position startpos|POSITION [moves A B ...]`.
    Position(PositionCommand),
    /// `go ...`: search the current position and answer `bestmove`.
    Go(Go),
    /// `stop`: answer `bestmove` now.
    Stop,
    /// `eval`: print the static evaluation of the current position, term by term
    /// (`eval term ...` lines, then `eval total ...`).
    Eval,
    /// `isready`: answer `readyok` once every earlier command is done.
    IsReady,
    /// `quit`: exit as soon as possible.
    Quit,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the start position of the current rule set (an empty board with every
    /// piece in hand under a placement opening).
    Startpos,
    /// A position string (see [`crate::parse_position`]), read under the current rule set.
    Position(String),
}

/// `position startpos|POSITION [moves A B ...]`: a start and the actions played since,
/// checked for syntax only; [`PositionCommand::game`] replays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start.
    pub start: Start,
    /// The actions played from the start, with or without capture annotations.
    pub moves: Vec<AnnotatedAction>,
}

/// The limits of a `go` command. Limits combine (the search stops at the first one
/// reached); none at all means the engine's own default budget; `infinite` means until
/// `stop`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N`: plies, 1 to [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// `nodes N`: a node budget (at least 1).
    pub nodes: Option<u64>,
    /// `movetime MS`: milliseconds for this action (at least 1).
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop` (alone, without other limits).
    pub infinite: bool,
}

impl PositionCommand {
    /// The command that describes a game: `startpos` when it began at its rule set's
    /// start, else its start as a position string; then every action, annotated.
    pub fn of_game(game: &Game) -> PositionCommand {
        let start = game.start();
        PositionCommand {
            start: if *start == Position::start(game.rules()) && start.passes() == 0 {
                Start::Startpos
            } else {
                Start::Position(format_position(start))
            },
            moves: game
                .plies()
                .iter()
                .map(|ply| AnnotatedAction {
                    action: ply.action,
                    marked: ply.captures,
                    annotated: ply.captures.any(),
                    repeated: None,
                })
                .collect(),
        }
    }

    /// Replays the command under a rule set: the start must be a position of that rule
    /// set, every action legal in turn (with correct annotations, if any), and the game
    /// not over before the last one.
    pub fn game(&self, rules: Rules) -> Result<Game, ProtocolError> {
        let start = match &self.start {
            Start::Startpos => Position::start(rules),
            Start::Position(text) => {
                parse_position(text, rules).map_err(|error| ProtocolError::Position {
                    text: text.clone(),
                    rules,
                    error,
                })?
            }
        };
        let mut game = Game::from_position(start);
        for (i, token) in self.moves.iter().enumerate() {
            if let Some(outcome) = game.outcome() {
                return Err(ProtocolError::GameOver {
                    number: i + 1,
                    action: token.action,
                    outcome,
                });
            }
            token
                .check(game.position())
                .map_err(|error| ProtocolError::Move {
                    number: i + 1,
                    error,
                })?;
            game.play_unchecked(token.action);
        }
        Ok(game)
    }
}

impl Command {
    /// Parses one line (surrounding white space ignored; words separated by any run of
    /// spaces or tabs).
    pub fn parse(line: &str) -> Result<Command, ProtocolError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&word, rest)) = words.split_first() else {
            return Err(ProtocolError::EmptyLine {
                of: LineKind::Command,
            });
        };
        let Some(head) = COMMANDS.into_iter().find(|&command| command == word) else {
            return Err(ProtocolError::UnknownWord {
                of: LineKind::Command,
                word: word.to_string(),
            });
        };
        let bare = |command: Command| {
            if rest.is_empty() {
                Ok(command)
            } else {
                Err(ProtocolError::Arguments {
                    command: head,
                    found: rest.join(" "),
                })
            }
        };
        match head {
            "agon" => bare(Command::Agon),
            "newgame" => bare(Command::NewGame),
            "stop" => bare(Command::Stop),
            "eval" => bare(Command::Eval),
            "isready" => bare(Command::IsReady),
            "quit" => bare(Command::Quit),
            "setoption" => parse_setoption(rest),
            "variant" => parse_variant(rest),
            "position" => parse_position_command(rest).map(Command::Position),
            "go" => parse_go(rest).map(Command::Go),
            // Every word of COMMANDS has an arm above; this one only keeps the match total.
            other => Err(ProtocolError::UnknownWord {
                of: LineKind::Command,
                word: other.to_string(),
            }),
        }
    }
}

impl FromStr for Command {
    type Err = ProtocolError;
    fn from_str(line: &str) -> Result<Command, ProtocolError> {
        Command::parse(line)
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ProtocolError> {
    let usage = |found: Found| ProtocolError::Malformed {
        command: "setoption",
        expected: "`setoption name NAME value VALUE`".to_string(),
        found,
    };
    if rest.first() != Some(&"name") {
        return Err(usage(Found::Unspecified));
    }
    let rest = &rest[1..];
    let (name, value) = match rest.iter().position(|&w| w == "value") {
        Some(at) => (&rest[..at], Some(rest[at + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(usage(Found::Missing("the name")));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_variant(rest: &[&str]) -> Result<Command, ProtocolError> {
    match rest {
        [name] => name
            .parse::<Rules>()
            .map(Command::Variant)
            .map_err(ProtocolError::Variant),
        [] => Err(ProtocolError::Malformed {
            command: "variant",
            expected: "a rule-set name such as `standard` or `capture=ring,touch-move=on`"
                .to_string(),
            found: Found::Unspecified,
        }),
        _ => Err(ProtocolError::Malformed {
            command: "variant",
            expected: "one rule-set name without spaces (switches joined by commas)".to_string(),
            found: Found::Word(rest.join(" ")),
        }),
    }
}

fn parse_position_command(rest: &[&str]) -> Result<PositionCommand, ProtocolError> {
    let (start, moves) = match rest.iter().position(|&w| w == "moves") {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let start = match start {
        [] => {
            return Err(ProtocolError::Malformed {
                command: "position",
                expected: "`startpos` or a position string, then optionally `moves` and actions"
                    .to_string(),
                found: Found::Unspecified,
            })
        }
        ["startpos"] => Start::Startpos,
        ["startpos", extra, ..] => {
            return Err(ProtocolError::Malformed {
                command: "position",
                expected: "`moves` or the end of the line after `startpos`".to_string(),
                found: Found::Word(extra.to_string()),
            })
        }
        words => Start::Position(words.join(" ")),
    };
    let moves = moves
        .iter()
        .enumerate()
        .map(|(i, token)| {
            AnnotatedAction::parse(token).map_err(|error| ProtocolError::Move {
                number: i + 1,
                error,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PositionCommand { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, ProtocolError> {
    let mut go = Go::default();
    let mut words = rest.iter().copied();
    while let Some(word) = words.next() {
        let twice = |given: bool| {
            if given {
                Err(ProtocolError::Repeated {
                    command: "go",
                    key: word.to_string(),
                })
            } else {
                Ok(())
            }
        };
        match word {
            "depth" => {
                twice(go.depth.is_some())?;
                go.depth = Some(number("go", word, words.next(), 1, MAX_DEPTH)?);
            }
            "nodes" => {
                twice(go.nodes.is_some())?;
                go.nodes = Some(number("go", word, words.next(), 1, u64::MAX)?);
            }
            "movetime" => {
                twice(go.movetime.is_some())?;
                go.movetime = Some(number("go", word, words.next(), 1, u64::MAX)?);
            }
            "infinite" => {
                twice(go.infinite)?;
                go.infinite = true;
            }
            other => {
                return Err(ProtocolError::UnknownField {
                    command: "go",
                    what: "limit",
                    word: other.to_string(),
                    expected: "depth N, nodes N, movetime MS or infinite",
                })
            }
        }
    }
    if go.infinite && (go.depth.is_some() || go.nodes.is_some() || go.movetime.is_some()) {
        return Err(ProtocolError::InfiniteWithLimit);
    }
    Ok(go)
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(ms) = self.movetime {
            write!(f, " movetime {ms}")?;
        }
        Ok(())
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("position ")?;
        match &self.start {
            Start::Startpos => f.write_str("startpos")?,
            Start::Position(text) => f.write_str(text)?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for token in &self.moves {
                write!(f, " {}", format_annotated(token.action, token.marked))?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    /// The canonical line (without the line break).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Agon => f.write_str("agon"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::NewGame => f.write_str("newgame"),
            Command::Variant(rules) => write!(f, "variant {rules}"),
            Command::Position(p) => p.fmt(f),
            Command::Go(go) => go.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::Eval => f.write_str("eval"),
            Command::IsReady => f.write_str("isready"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: &str) -> String {
        match Command::parse(line) {
            Ok(c) => panic!("`{line}` parsed as {c:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn canonical_lines_round_trip() {
        for line in [
            "agon",
            "setoption name Seed value 42",
            "setoption name Agent value alphabeta:depth=3,noise=5",
            "setoption name Clear Hash",
            "newgame",
            "variant standard",
            "variant capture=ring,touch-move=on",
            "position startpos",
            "position startpos moves h9-g9 b7-c7",
            "position 1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w - moves h9-g9",
            "go",
            "go depth 3",
            "go depth 3 nodes 1000 movetime 50",
            "go infinite",
            "stop",
            "eval",
            "isready",
            "quit",
        ] {
            let command = Command::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn white_space_is_free_and_values_keep_their_words() {
        assert_eq!(
            Command::parse("  setoption\tname  Multi Word   value  a  b \r").unwrap(),
            Command::SetOption {
                name: "Multi Word".into(),
                value: Some("a b".into())
            }
        );
        assert_eq!(
            Command::parse("go movetime 5 depth 2").unwrap().to_string(),
            "go depth 2 movetime 5"
        );
    }

    #[test]
    fn variants_are_canonicalised() {
        assert_eq!(
            Command::parse("variant touch-move=on,capture=ring")
                .unwrap()
                .to_string(),
            "variant capture=ring,touch-move=on"
        );
    }

    #[test]
    fn malformed_lines_say_what_was_expected() {
        assert_eq!(
            error(""),
            "empty line; expected a command: agon, setoption, newgame, variant, position, go, \
             stop, eval, isready, quit"
        );
        assert_eq!(
            Command::parse("uci"),
            Err(ProtocolError::UnknownWord {
                of: LineKind::Command,
                word: "uci".into()
            })
        );
        assert_eq!(
            error("uci"),
            "unknown command `uci`; expected one of agon, setoption, newgame, variant, \
             position, go, stop, eval, isready, quit"
        );
        assert_eq!(
            error("isready now"),
            "isready: takes no arguments, found `now`"
        );
        assert_eq!(
            error("setoption Seed 3"),
            "setoption: expected `setoption name NAME value VALUE`"
        );
        assert_eq!(
            error("setoption name value 3"),
            "setoption: expected `setoption name NAME value VALUE`; the name is missing"
        );
        assert!(error("variant capture=square")
            .starts_with("variant: `capture=square` is not a rule set: "));
        assert_eq!(
            error("variant capture=ring touch-move=on"),
            "variant: expected one rule-set name without spaces (switches joined by commas), \
             found `capture=ring touch-move=on`"
        );
        assert_eq!(
            error("position"),
            "position: expected `startpos` or a position string, then optionally `moves` and \
             actions"
        );
        assert_eq!(
            error("position startpos h9-g9"),
            "position: expected `moves` or the end of the line after `startpos`, found `h9-g9`"
        );
        let reason = "j1-j2".parse::<agon_core::Action>().unwrap_err();
        assert_eq!(
            error("position startpos moves h9-g9 j1-j2"),
            format!("position: move 2: {reason}")
        );
        assert_eq!(
            error("go depth"),
            "go: `depth` needs a whole number from 1 to 255, found the end of the line"
        );
        assert_eq!(
            error("go depth 0"),
            "go: `depth` needs a whole number from 1 to 255, found `0`"
        );
        assert_eq!(
            error("go nodes -5"),
            "go: `nodes` needs a whole number from 1 to 18446744073709551615, found `-5`"
        );
        assert_eq!(error("go depth 2 depth 3"), "go: `depth` is given twice");
        assert_eq!(
            error("go infinite depth 3"),
            "go: `infinite` takes no other limit (it searches until `stop`)"
        );
        assert_eq!(
            error(&format!("go {}", "x".repeat(100))),
            format!(
                "go: unknown limit `{}...`; expected depth N, nodes N, movetime MS or infinite",
                "x".repeat(40)
            )
        );
    }

    #[test]
    fn positions_replay_through_the_rules() {
        let command = Command::parse("position startpos moves h9-g9 b7-c7").unwrap();
        let Command::Position(p) = command else {
            panic!("not a position")
        };
        let game = p.game(Rules::STANDARD).unwrap();
        assert_eq!(game.ply_count(), 2);
        assert_eq!(PositionCommand::of_game(&game), p);

        let Command::Position(p) = Command::parse("position startpos moves h9-g9 h9-g9").unwrap()
        else {
            panic!()
        };
        let Err(e) = p.game(Rules::STANDARD) else {
            panic!("the position replayed")
        };
        assert!(matches!(e, ProtocolError::Move { number: 2, .. }), "{e:?}");
        let e = e.to_string();
        assert!(
            e.starts_with("position: move 2: h9-g9 is not legal: "),
            "{e}"
        );

        let Command::Position(p) = Command::parse("position 1g2G1/G5g w - moves h9-g9").unwrap()
        else {
            panic!()
        };
        let Err(e) = p.game(Rules::STANDARD) else {
            panic!("the position replayed")
        };
        let ProtocolError::Position { text, rules, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!((text.as_str(), *rules), ("1g2G1/G5g w -", Rules::STANDARD));
        let e = e.to_string();
        assert!(
            e.starts_with(
                "position: `1g2G1/G5g w -` is not a position under the rules `standard`: column"
            ),
            "{e}"
        );
    }

    #[test]
    fn games_that_did_not_start_at_the_start_are_sent_as_position_strings() {
        let mut start = Position::start(Rules::STANDARD);
        start.play_unchecked("h9-g9".parse().unwrap());
        let mut game = Game::from_position(start);
        game.play("b7-c7".parse().unwrap()).unwrap();
        let p = PositionCommand::of_game(&game);
        assert_eq!(
            p.to_string(),
            format!("position {} moves b7-c7", format_position(&start))
        );
        let again = Command::parse(&p.to_string()).unwrap();
        let Command::Position(again) = again else {
            panic!()
        };
        assert_eq!(
            again.game(Rules::STANDARD).unwrap().position(),
            game.position()
        );
    }
}
