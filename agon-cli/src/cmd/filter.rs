//! `agon filter`: the games of a corpus that match every condition given, in canonical
//! form, in input order.

use crate::corpus::{each_game, with_output, CorpusArgs, GameFn, RecordWriter};
use crate::error::{CliError, CliResult};
use agon_core::{Action, GameResult, Position, Rules, Termination};
use agon_notation::{parse_position, ValidGame};
use clap::Args;
use regex::Regex;
use std::path::PathBuf;
use std::sync::Arc;

/// Examples shown after `agon filter --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon filter --result 1-0 games.agn              White's wins
  agon filter --variant ludii --min-plies 40 records/
  agon filter --tag White=alphabeta:depth=4 --termination formation games.agn
  agon filter --tag-regex 'Event=^club' --count records/
  agon filter --contains h9-g9 games.agn          games that play h9-g9 at some ply
  agon filter --reaches \"$(agon show --json --moves 'h9-g9 b7-c7' | jq -r .notation)\" c.agn
  cat *.agn | agon filter --termination repetition -o drawn.agn
A game is printed (canonical form, input order) when it matches every condition given;
repeat --tag/--tag-regex to require several. --invert prints the others. Invalid games are
reported on stderr as `validate` reports them and never printed (exit 1); exit 2 when an
input cannot be read. With -o the file is replaced only when the whole run succeeds.";

/// Options of `agon filter`.
#[derive(Args, Debug)]
pub struct FilterArgs {
    #[command(flatten)]
    pub input: CorpusArgs,

    /// A tag with exactly this value: `NAME=VALUE` (engine tags too: Result, Variant,
    /// Termination, Position).
    #[arg(long = "tag", value_name = "NAME=VALUE")]
    pub tags: Vec<String>,

    /// A tag whose value matches a regular expression (Rust `regex` syntax, unanchored):
    /// `NAME=REGEX`.
    #[arg(long = "tag-regex", value_name = "NAME=REGEX")]
    pub tag_regexes: Vec<String>,

    /// Games under this rule set (`standard`, `ludii`, or switches such as
    /// `intervention=suicide`; any spelling of the same rules matches).
    #[arg(long, value_name = "RULES")]
    pub variant: Option<String>,

    /// Games with this result: 1-0, 0-1, 1/2-1/2 or *.
    #[arg(long, value_name = "RESULT")]
    pub result: Option<String>,

    /// Games that ended this way (formation, six-guards, no-moves, repetition, ...;
    /// `none` for games without a termination).
    #[arg(long, value_name = "TERMINATION")]
    pub termination: Option<String>,

    /// Games of at least N plies.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<usize>,

    /// Games of at most N plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,

    /// Games that reach this position (a position string, as `agon show --json` gives in
    /// `notation`; compared as the repetition rule does: cells, hands, side to move).
    #[arg(long, value_name = "POSITION")]
    pub reaches: Option<String>,

    /// Games that play this action at some ply (`h9-g9`; capture annotations ignored).
    #[arg(long, value_name = "ACTION")]
    pub contains: Option<String>,

    /// Print the games that do not match instead.
    #[arg(short = 'v', long)]
    pub invert: bool,

    /// Print only the number of matching games.
    #[arg(short, long)]
    pub count: bool,

    /// Write the games to this file (replaced atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Every condition of a filter, checked on the worker threads.
#[derive(Debug, Default)]
pub struct Conditions {
    tags: Vec<(String, String)>,
    tag_regexes: Vec<(String, Regex)>,
    variant: Option<Rules>,
    result: Option<GameResult>,
    termination: Option<Option<Termination>>,
    min_plies: Option<usize>,
    max_plies: Option<usize>,
    reaches: Option<String>,
    contains: Option<Action>,
}

fn name_value<'a>(option: &str, text: &'a str) -> Result<(&'a str, &'a str), CliError> {
    text.split_once('=').ok_or_else(|| {
        CliError::with_hint(
            format!("{option} takes NAME=VALUE, not `{text}`"),
            format!("for example {option} Event=club"),
        )
    })
}

impl Conditions {
    /// The conditions of the command line, each checked for errors.
    pub fn from_args(args: &FilterArgs) -> Result<Conditions, CliError> {
        let mut conditions = Conditions::default();
        for text in &args.tags {
            let (name, value) = name_value("--tag", text)?;
            conditions.tags.push((name.to_string(), value.to_string()));
        }
        for text in &args.tag_regexes {
            let (name, pattern) = name_value("--tag-regex", text)?;
            let regex = Regex::new(pattern).map_err(|e| {
                CliError::new(format!(
                    "--tag-regex: `{pattern}` is not a regular expression: {e}"
                ))
            })?;
            conditions.tag_regexes.push((name.to_string(), regex));
        }
        if let Some(text) = &args.variant {
            conditions.variant = Some(
                text.parse()
                    .map_err(|e| CliError::new(format!("--variant: {e}")))?,
            );
        }
        if let Some(text) = &args.result {
            conditions.result = Some(
                text.parse()
                    .map_err(|e| CliError::new(format!("--result: {e}")))?,
            );
        }
        if let Some(text) = &args.termination {
            conditions.termination = Some(if text == "none" {
                None
            } else {
                Some(
                    text.parse()
                        .map_err(|e| CliError::new(format!("--termination: {e} or none")))?,
                )
            });
        }
        if let (Some(min), Some(max)) = (args.min_plies, args.max_plies) {
            if min > max {
                return Err(CliError::new(format!(
                    "--min-plies {min} is more than --max-plies {max}: no game can match"
                )));
            }
        }
        conditions.min_plies = args.min_plies;
        conditions.max_plies = args.max_plies;
        if let Some(text) = &args.reaches {
            // Checked once here (under the rules it names, else the standard ones), then
            // read under each game's own rules.
            let rules = conditions.variant.unwrap_or(Rules::STANDARD);
            parse_position(text, rules).map_err(|e| CliError::new(format!("--reaches: {e}")))?;
            conditions.reaches = Some(text.clone());
        }
        if let Some(text) = &args.contains {
            let bare = text.split('x').next().unwrap_or(text);
            conditions.contains = Some(bare.parse().map_err(|e| {
                CliError::new(format!("--contains: `{text}` is not an action: {e}"))
            })?);
        }
        Ok(conditions)
    }

    /// Whether a game meets every condition.
    pub fn matches(&self, valid: &ValidGame) -> bool {
        let record = &valid.record;
        let tag_is = |name: &str, test: &dyn Fn(&str) -> bool| {
            record.tag(name).is_some_and(|value| test(&value))
        };
        self.tags
            .iter()
            .all(|(name, want)| tag_is(name, &|value| value == want))
            && self
                .tag_regexes
                .iter()
                .all(|(name, regex)| tag_is(name, &|value| regex.is_match(value)))
            && self.variant.is_none_or(|rules| record.rules == rules)
            && self.result.is_none_or(|result| record.result == result)
            && self
                .termination
                .is_none_or(|want| crate::corpus::termination(valid) == want)
            && self.min_plies.is_none_or(|min| record.plies.len() >= min)
            && self.max_plies.is_none_or(|max| record.plies.len() <= max)
            && self
                .contains
                .is_none_or(|action| record.plies.iter().any(|ply| ply.action == action))
            && self
                .reaches
                .as_ref()
                .is_none_or(|text| reaches(valid, text))
    }
}

/// Whether some position of the game (the start and after every ply) equals the one given.
fn reaches(valid: &ValidGame, text: &str) -> bool {
    let Ok(target): Result<Position, _> = parse_position(text, valid.record.rules) else {
        return false;
    };
    (0..=valid.game.ply_count()).any(|ply| valid.game.position_before(ply) == Some(&target))
}

/// Runs `agon filter`.
pub fn run(args: &FilterArgs) -> CliResult {
    let conditions = Arc::new(Conditions::from_args(args)?);
    let (invert, text_wanted) = (args.invert, !args.count);
    let map: GameFn<Option<String>> = Arc::new(move |valid| {
        (conditions.matches(valid) != invert).then(|| {
            if text_wanted {
                valid.record.to_string()
            } else {
                String::new()
            }
        })
    });
    let output = if args.count {
        None
    } else {
        args.output.as_deref()
    };
    let tally = with_output(output, |out| {
        let mut writer = RecordWriter::default();
        let mut matched = 0u64;
        let tally = each_game(&args.input, map, |text| {
            match text {
                Some(_) if args.count => matched += 1,
                Some(text) => writer.write(out, &text)?,
                None => {}
            }
            Ok(())
        })?;
        if args.count {
            writeln!(out, "{matched}").map_err(|e| CliError::io("cannot write", e))?;
        }
        Ok(tally)
    })?;
    Ok(tally.exit_code())
}
