//! The engine's messages: what an engine prints in answer to the controller.

use super::{
    number, one_line, Found, LineKind, OptionProblem, OptionValueError, OptionValueKind,
    ProtocolError,
};
use std::fmt;
use std::str::FromStr;

/// Every message word, in the order of `docs/protocol.md`.
pub const MESSAGES: [&str; 8] = [
    "id", "option", "agonok", "readyok", "info", "bestmove", "eval", "error",
];

/// One line from the engine to the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name TEXT` or `id author TEXT` (handshake).
    Id(IdField, String),
    /// `option name NAME type ...` (handshake): an option `setoption` may set.
    Option(EngineOption),
    /// `agonok`: the handshake is complete.
    AgonOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `info ...`: progress while thinking.
    Info(Info),
    /// `bestmove ACTION`: the answer to `go`. The token is kept as sent; the controller
    /// checks it in the position it asked about.
    BestMove(String),
    /// `eval term ...` / `eval total ...`: the answer to `eval`.
    Eval(EvalLine),
    /// `error TEXT`: the engine could not accept a command; the text says what it expected.
    Error(String),
}

/// The fields of an `id` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdField {
    /// `id name`: the engine's name and version.
    Name,
    /// `id author`: who wrote it.
    Author,
}

/// An option declared in the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name (may hold spaces, but not the word `type`).
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// The type of an option, with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type spin default D min A max B`: a whole number in `min..=max`.
    Spin {
        /// Default value.
        default: i128,
        /// Smallest value.
        min: i128,
        /// Largest value.
        max: i128,
    },
    /// `type check default true|false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// `type string default TEXT` (`<empty>` for the empty string).
    String {
        /// Default value.
        default: String,
    },
}

/// How an `info` line writes the empty string default of a string option, as UCI does.
pub(super) const EMPTY: &str = "<empty>";

impl EngineOption {
    /// Checks a value for this option; says what the option takes if it does not fit.
    pub fn check_value(&self, value: &str) -> Result<(), OptionValueError> {
        let expected = match self.kind {
            OptionKind::Spin { min, max, .. } => match value.parse::<i128>() {
                Ok(n) if (min..=max).contains(&n) => return Ok(()),
                _ => OptionValueKind::Number { min, max },
            },
            OptionKind::Check { .. } => match value {
                "true" | "false" => return Ok(()),
                _ => OptionValueKind::Boolean,
            },
            OptionKind::String { .. } => return Ok(()),
        };
        Err(OptionValueError {
            name: self.name.clone(),
            expected,
            value: value.to_string(),
        })
    }
}

/// An engine's score, from the point of view of the side that decides the action searched
/// (the side to move, except for a queen relocation under `queen-relocated-by=opponent`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score units N`: the engine's evaluation (for `agon engine`, 100 is about one guard
    /// stepping from the outer ring to ring 1).
    Units(i64),
    /// `score win N`: a forced win that ends the game `N` plies from now.
    Win(u32),
    /// `score loss N`: a forced loss that ends the game `N` plies from now.
    Loss(u32),
}

/// One line of the answer to `eval`: the static evaluation of the current position, each
/// term for each side, then the totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalLine {
    /// `eval term NAME white W black B`: one term (a word such as `progress`) for each side.
    Term {
        /// The term's name (one word).
        name: String,
        /// White's part.
        white: i64,
        /// Black's part.
        black: i64,
    },
    /// `eval total white W black B score SCORE`: each side's sum of the terms, and the
    /// evaluation from the point of view of the side that decides (White's total less
    /// Black's, turned round when Black decides), in the units of `info` scores.
    Total {
        /// White's total.
        white: i64,
        /// Black's total.
        black: i64,
        /// The evaluation for the deciding side.
        score: Score,
    },
}

/// The fields of an `info` line, each optional; written in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth N`: the deepest completed iteration.
    pub depth: Option<u32>,
    /// `multipv K`: this line is the `K`-th best action (1 the best), when the engine
    /// reports several lines (the `MultiPV` option of `agon engine`).
    pub multipv: Option<u32>,
    /// `score units N | win N | loss N`.
    pub score: Option<Score>,
    /// `nodes N`: nodes searched so far.
    pub nodes: Option<u64>,
    /// `nps N`: nodes per second.
    pub nps: Option<u64>,
    /// `time MS`: milliseconds since `go`.
    pub time: Option<u64>,
    /// `pv A B ...`: the principal variation, as action tokens (runs to the end of the
    /// line or to `string`).
    pub pv: Vec<String>,
    /// `string TEXT`: free text for people (always last; runs to the end of the line).
    pub string: Option<String>,
}

impl EngineMessage {
    /// Parses one line (surrounding white space ignored). Control characters separate
    /// words like white space, as the printed form writes them as spaces.
    pub fn parse(line: &str) -> Result<EngineMessage, ProtocolError> {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c.is_control())
            .filter(|word| !word.is_empty())
            .collect();
        let Some((&word, rest)) = words.split_first() else {
            return Err(ProtocolError::EmptyLine {
                of: LineKind::Message,
            });
        };
        let Some(head) = MESSAGES.into_iter().find(|&message| message == word) else {
            return Err(ProtocolError::UnknownWord {
                of: LineKind::Message,
                word: word.to_string(),
            });
        };
        let bare = |message: EngineMessage| {
            if rest.is_empty() {
                Ok(message)
            } else {
                Err(ProtocolError::Arguments {
                    command: head,
                    found: rest.join(" "),
                })
            }
        };
        match head {
            "agonok" => bare(EngineMessage::AgonOk),
            "readyok" => bare(EngineMessage::ReadyOk),
            "id" => parse_id(rest),
            "option" => parse_option(rest).map(EngineMessage::Option),
            "info" => parse_info(rest).map(EngineMessage::Info),
            "eval" => parse_eval(rest).map(EngineMessage::Eval),
            "bestmove" => match rest {
                [token] => Ok(EngineMessage::BestMove(token.to_string())),
                [] => Err(one_action(Found::EndOfLine)),
                _ => Err(one_action(Found::Word(rest.join(" ")))),
            },
            "error" => Ok(EngineMessage::Error(rest.join(" "))),
            // Every word of MESSAGES has an arm above; this one only keeps the match total.
            other => Err(ProtocolError::UnknownWord {
                of: LineKind::Message,
                word: other.to_string(),
            }),
        }
    }
}

impl FromStr for EngineMessage {
    type Err = ProtocolError;
    fn from_str(line: &str) -> Result<EngineMessage, ProtocolError> {
        EngineMessage::parse(line)
    }
}

/// `bestmove` without exactly one action.
fn one_action(found: Found) -> ProtocolError {
    ProtocolError::Malformed {
        command: "bestmove",
        expected: "one action".to_string(),
        found,
    }
}

fn parse_id(rest: &[&str]) -> Result<EngineMessage, ProtocolError> {
    let field = match rest.first() {
        Some(&"name") => IdField::Name,
        Some(&"author") => IdField::Author,
        _ => {
            return Err(ProtocolError::Malformed {
                command: "id",
                expected: "`id name TEXT` or `id author TEXT`".to_string(),
                found: Found::Unspecified,
            })
        }
    };
    if rest.len() < 2 {
        return Err(ProtocolError::Malformed {
            command: "id",
            expected: format!("text after `id {}`", rest[0]),
            found: Found::Unspecified,
        });
    }
    Ok(EngineMessage::Id(field, rest[1..].join(" ")))
}

fn parse_option(rest: &[&str]) -> Result<EngineOption, ProtocolError> {
    let usage = |found: Found| ProtocolError::Malformed {
        command: "option",
        expected: "`option name NAME type spin|check|string default VALUE` (spin also `min A \
                   max B`)"
            .to_string(),
        found,
    };
    if rest.first() != Some(&"name") {
        return Err(usage(Found::Unspecified));
    }
    let Some(at) = rest.iter().position(|&w| w == "type") else {
        return Err(usage(Found::Missing("`type`")));
    };
    let name = rest[1..at].join(" ");
    if name.is_empty() {
        return Err(usage(Found::Missing("the name")));
    }
    let problem = |problem: OptionProblem| ProtocolError::Option {
        name: name.clone(),
        problem,
    };
    let kind = rest.get(at + 1).copied();
    let fields = &rest[(at + 2).min(rest.len())..];
    let kind = match kind {
        Some("spin") => {
            let mut values = [None; 3];
            let mut words = fields.iter().copied();
            while let Some(key) = words.next() {
                let slot = match key {
                    "default" => 0,
                    "min" => 1,
                    "max" => 2,
                    other => {
                        return Err(ProtocolError::UnknownField {
                            command: "option",
                            what: "spin field",
                            word: other.to_string(),
                            expected: "default, min and max",
                        })
                    }
                };
                if values[slot].is_some() {
                    return Err(ProtocolError::Repeated {
                        command: "option",
                        key: key.to_string(),
                    });
                }
                values[slot] = Some(number("option", key, words.next(), i128::MIN, i128::MAX)?);
            }
            let [Some(default), Some(min), Some(max)] = values else {
                return Err(problem(OptionProblem::SpinIncomplete));
            };
            if !(min <= default && default <= max) {
                return Err(problem(OptionProblem::SpinOrder { default, min, max }));
            }
            OptionKind::Spin { default, min, max }
        }
        Some("check") => match fields {
            ["default", "true"] => OptionKind::Check { default: true },
            ["default", "false"] => OptionKind::Check { default: false },
            _ => return Err(problem(OptionProblem::CheckDefault)),
        },
        Some("string") => match fields {
            ["default", value @ ..] if !value.is_empty() => OptionKind::String {
                default: match value {
                    [v] if *v == EMPTY => String::new(),
                    _ => value.join(" "),
                },
            },
            _ => return Err(problem(OptionProblem::StringDefault)),
        },
        other => {
            return Err(problem(OptionProblem::UnknownType(
                other.unwrap_or("").to_string(),
            )))
        }
    };
    Ok(EngineOption { name, kind })
}

fn parse_info(rest: &[&str]) -> Result<Info, ProtocolError> {
    let mut info = Info::default();
    let mut i = 0;
    let twice = |key: &str, given: bool| {
        if given {
            Err(ProtocolError::Repeated {
                command: "info",
                key: key.to_string(),
            })
        } else {
            Ok(())
        }
    };
    while i < rest.len() {
        let key = rest[i];
        let next = rest.get(i + 1).copied();
        i += 2;
        match key {
            "depth" => {
                twice(key, info.depth.is_some())?;
                info.depth = Some(number("info", key, next, 0, u32::MAX)?);
            }
            "multipv" => {
                twice(key, info.multipv.is_some())?;
                info.multipv = Some(number("info", key, next, 1, u32::MAX)?);
            }
            "nodes" => {
                twice(key, info.nodes.is_some())?;
                info.nodes = Some(number("info", key, next, 0, u64::MAX)?);
            }
            "nps" => {
                twice(key, info.nps.is_some())?;
                info.nps = Some(number("info", key, next, 0, u64::MAX)?);
            }
            "time" => {
                twice(key, info.time.is_some())?;
                info.time = Some(number("info", key, next, 0, u64::MAX)?);
            }
            "score" => {
                twice(key, info.score.is_some())?;
                let value = rest.get(i).copied();
                i += 1;
                info.score = Some(parse_score("info", next, value)?);
            }
            "pv" => {
                twice(key, !info.pv.is_empty())?;
                i -= 1;
                let end = rest[i..]
                    .iter()
                    .position(|&w| w == "string")
                    .map_or(rest.len(), |k| i + k);
                if end == i {
                    return Err(ProtocolError::Malformed {
                        command: "info",
                        expected: "at least one action after `pv`".to_string(),
                        found: Found::Unspecified,
                    });
                }
                info.pv = rest[i..end].iter().map(|w| w.to_string()).collect();
                i = end;
            }
            "string" => {
                info.string = Some(rest[i - 1..].join(" "));
                break;
            }
            other => {
                return Err(ProtocolError::UnknownField {
                    command: "info",
                    what: "field",
                    word: other.to_string(),
                    expected: "depth, multipv, score, nodes, nps, time, pv or string",
                })
            }
        }
    }
    Ok(info)
}

/// `units N`, `win N` or `loss N` after the word `score` of a `command` line.
fn parse_score(
    command: &'static str,
    kind: Option<&str>,
    value: Option<&str>,
) -> Result<Score, ProtocolError> {
    Ok(match kind {
        Some("units") => Score::Units(number(command, "score units", value, i64::MIN, i64::MAX)?),
        Some("win") => Score::Win(number(command, "score win", value, 0, u32::MAX)?),
        Some("loss") => Score::Loss(number(command, "score loss", value, 0, u32::MAX)?),
        _ => {
            return Err(ProtocolError::Malformed {
                command,
                expected: "`score units N`, `score win N` or `score loss N`".to_string(),
                found: Found::Unspecified,
            })
        }
    })
}

fn parse_eval(rest: &[&str]) -> Result<EvalLine, ProtocolError> {
    let side = |key: &str, word: Option<&&str>, value: Option<&&str>| {
        if word != Some(&key) {
            return Err(ProtocolError::Malformed {
                command: "eval",
                expected: format!("`{key} N`"),
                found: Found::Word(word.copied().unwrap_or("").to_string()),
            });
        }
        number("eval", key, value.copied(), i64::MIN, i64::MAX)
    };
    match rest.first() {
        Some(&"term") if rest.len() == 6 => Ok(EvalLine::Term {
            name: rest[1].to_string(),
            white: side("white", rest.get(2), rest.get(3))?,
            black: side("black", rest.get(4), rest.get(5))?,
        }),
        Some(&"total") if rest.len() == 8 && rest[5] == "score" => Ok(EvalLine::Total {
            white: side("white", rest.get(1), rest.get(2))?,
            black: side("black", rest.get(3), rest.get(4))?,
            score: parse_score("eval", Some(rest[6]), Some(rest[7]))?,
        }),
        _ => Err(ProtocolError::Malformed {
            command: "eval",
            expected: "`eval term NAME white N black N` or `eval total white N black N score \
                       units N`"
                .to_string(),
            found: Found::Unspecified,
        }),
    }
}

impl fmt::Display for EvalLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalLine::Term { name, white, black } => {
                write!(
                    f,
                    "eval term {} white {white} black {black}",
                    one_line(name)
                )
            }
            EvalLine::Total {
                white,
                black,
                score,
            } => write!(f, "eval total white {white} black {black} score {score}"),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Units(n) => write!(f, "units {n}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.nps {
            write!(f, " nps {n}")?;
        }
        if let Some(t) = self.time {
            write!(f, " time {t}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(s) = &self.string {
            write!(f, " string {}", one_line(s))?;
        }
        Ok(())
    }
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::String { default } if default.is_empty() => {
                write!(f, "string default {EMPTY}")
            }
            OptionKind::String { default } => write!(f, "string default {}", one_line(default)),
        }
    }
}

impl fmt::Display for EngineMessage {
    /// The canonical line (without the line break); free text is kept on one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::Id(IdField::Name, text) => write!(f, "id name {}", one_line(text)),
            EngineMessage::Id(IdField::Author, text) => write!(f, "id author {}", one_line(text)),
            EngineMessage::Option(option) => option.fmt(f),
            EngineMessage::AgonOk => f.write_str("agonok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::Info(info) => info.fmt(f),
            EngineMessage::BestMove(token) => write!(f, "bestmove {token}"),
            EngineMessage::Eval(line) => line.fmt(f),
            EngineMessage::Error(text) => write!(f, "error {}", one_line(text)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: &str) -> String {
        match EngineMessage::parse(line) {
            Ok(m) => panic!("`{line}` parsed as {m:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn canonical_lines_round_trip() {
        for line in [
            "id name agon 0.1.0",
            "id author the agon authors",
            "option name Agent type string default alphabeta",
            "option name Notes type string default <empty>",
            "option name Seed type spin default 0 min 0 max 18446744073709551615",
            "option name Contempt type spin default -5 min -100 max 100",
            "option name Ponder type check default false",
            "agonok",
            "readyok",
            "info depth 3 score units -35 nodes 1234 nps 56000 time 22 pv h9-g9 b7-c7 g9-g8",
            "info score win 3",
            "info score loss 0 string the end is near",
            "info depth 1 pv c1-c2xd1 string two words",
            "info depth 6 multipv 2 score units 12 pv h9-g9",
            "info",
            "eval term progress white 520 black -4",
            "eval total white 640 black 600 score units -40",
            "eval total white 0 black 0 score loss 0",
            "bestmove c1-c2xd1",
            "bestmove pass",
            "error go: unknown limit `deep`",
        ] {
            let message = EngineMessage::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(message.to_string(), line);
        }
    }

    #[test]
    fn bad_eval_and_multipv_lines_say_what_was_expected() {
        assert_eq!(
            error("eval term progress white 5"),
            "eval: expected `eval term NAME white N black N` or `eval total white N black N \
             score units N`"
        );
        assert_eq!(
            error("eval term progress white 5 blue 4"),
            "eval: expected `black N`, found `blue`"
        );
        assert_eq!(
            error("eval total white 1 black x score units 1"),
            "eval: `black` needs a whole number from -9223372036854775808 to \
             9223372036854775807, found `x`"
        );
        assert_eq!(
            error("eval total white 1 black 2 score big 1"),
            "eval: expected `score units N`, `score win N` or `score loss N`"
        );
        assert_eq!(
            error("info multipv 0"),
            "info: `multipv` needs a whole number from 1 to 4294967295, found `0`"
        );
    }

    #[test]
    fn fields_parse_in_any_order() {
        // `pv` runs to the end of the line (or to `string`): what follows are its tokens.
        let EngineMessage::Info(info) = EngineMessage::parse("info pv a1-a2 nodes 5").unwrap()
        else {
            panic!("not info")
        };
        assert_eq!(info.pv, ["a1-a2", "nodes", "5"]);
        assert_eq!(info.nodes, None);
        let m = EngineMessage::parse("info nodes 5 depth 2").unwrap();
        assert_eq!(m.to_string(), "info depth 2 nodes 5");
        let m = EngineMessage::parse("option name Seed type spin max 9 min 0 default 1").unwrap();
        assert_eq!(
            m.to_string(),
            "option name Seed type spin default 1 min 0 max 9"
        );
    }

    #[test]
    fn malformed_lines_say_what_was_expected() {
        assert_eq!(
            error("hello there"),
            "unknown message `hello`; expected one of id, option, agonok, readyok, info, \
             bestmove, eval, error"
        );
        assert_eq!(
            error("bestmove"),
            "bestmove: expected one action, found the end of the line"
        );
        assert_eq!(
            error("bestmove a b"),
            "bestmove: expected one action, found `a b`"
        );
        assert_eq!(
            error("readyok now"),
            "readyok: takes no arguments, found `now`"
        );
        assert_eq!(
            error("id version 3"),
            "id: expected `id name TEXT` or `id author TEXT`"
        );
        assert_eq!(error("id name"), "id: expected text after `id name`");
        assert_eq!(
            error("info depth x"),
            "info: `depth` needs a whole number from 0 to 4294967295, found `x`"
        );
        assert_eq!(
            error("info score cp 5"),
            "info: expected `score units N`, `score win N` or `score loss N`"
        );
        assert_eq!(
            error("info seldepth 5"),
            "info: unknown field `seldepth`; expected depth, multipv, score, nodes, nps, time, \
             pv or string"
        );
        assert_eq!(
            error("info pv"),
            "info: expected at least one action after `pv`"
        );
        assert_eq!(
            error("info depth 1 depth 2"),
            "info: `depth` is given twice"
        );
        assert_eq!(
            error("option name Seed type spin default 5 min 0"),
            "option `Seed`: a spin option needs default, min and max"
        );
        assert_eq!(
            error("option name Seed type spin default 50 min 0 max 9"),
            "option `Seed`: expected min <= default <= max, found 0, 50, 9"
        );
        assert_eq!(
            error("option name X type combo default a"),
            "option `X`: unknown type `combo`; expected spin, check or string"
        );
        assert_eq!(
            error("option name X spin"),
            "option: expected `option name NAME type spin|check|string default VALUE` (spin \
             also `min A max B`); `type` is missing"
        );
    }

    #[test]
    fn option_values_are_checked_against_the_declaration() {
        let spin = EngineOption {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: 16,
                min: 1,
                max: 4096,
            },
        };
        assert!(spin.check_value("64").is_ok());
        let e = spin.check_value("0").unwrap_err();
        assert_eq!(
            e,
            OptionValueError {
                name: "Hash".into(),
                expected: OptionValueKind::Number { min: 1, max: 4096 },
                value: "0".into(),
            }
        );
        assert_eq!(
            e.to_string(),
            "option `Hash` takes a whole number from 1 to 4096, not `0`"
        );
        let check = EngineOption {
            name: "Ponder".into(),
            kind: OptionKind::Check { default: false },
        };
        assert!(check.check_value("true").is_ok());
        assert_eq!(
            check.check_value("yes").unwrap_err().to_string(),
            "option `Ponder` takes `true` or `false`, not `yes`"
        );
    }

    #[test]
    fn free_text_stays_on_one_line() {
        let m = EngineMessage::Error("bad\nline".into());
        assert_eq!(m.to_string(), "error bad line");
    }

    /// Found by the `protocol` fuzz target: a control character inside free text printed
    /// as a space, so the printed line parsed to other text.
    #[test]
    fn control_characters_separate_words_so_messages_round_trip() {
        let m = EngineMessage::parse("error \u{2}4").unwrap();
        assert_eq!(m, EngineMessage::Error("4".into()));
        assert_eq!(EngineMessage::parse(&m.to_string()).unwrap(), m);
    }
}
