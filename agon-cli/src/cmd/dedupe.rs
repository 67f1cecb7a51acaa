//! `agon dedupe`: a corpus without its repeated games (the first of each kept), in input
//! order.

use crate::corpus::{each_game, plural, with_output, CorpusArgs, GameFn, RecordWriter};
use crate::error::CliResult;
use agon_notation::{format_position, ValidGame};
use clap::{Args, ValueEnum};
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;

/// Examples shown after `agon dedupe --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon dedupe games.agn > unique.agn              drop games that repeat an earlier one
  agon dedupe --by position records/ -o ends.agn  one game per final position
  cat a.agn b.agn | agon dedupe | agon stats
Two games are the same under --by actions (the default) when they have the same rules,
the same start and the same actions; tags, results and terminations are not compared.
Under --by position they end in the same position (cells, pieces in hand, side to move,
rules). The first game of each kind is printed, in input order; a summary goes to stderr.
Games are told apart by a 128-bit digest of what is compared (16 bytes of memory per
distinct game). Invalid games are reported on stderr and dropped (exit 1).";

/// What makes two games the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SameBy {
    /// Same rules, start and actions.
    Actions,
    /// Same final position (and rules).
    Position,
}

/// Options of `agon dedupe`.
#[derive(Args, Debug)]
pub struct DedupeArgs {
    #[command(flatten)]
    pub input: CorpusArgs,

    /// What makes two games the same.
    #[arg(long, value_enum, default_value_t = SameBy::Actions)]
    pub by: SameBy,

    /// Write the games to this file (replaced atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// No summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// A 128-bit digest: two SipHash runs (fixed keys, so the same on every run) over
/// differently salted input.
fn digest(feed: impl Fn(&mut DefaultHasher)) -> u128 {
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        salt.hash(&mut hasher);
        feed(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// The digest of what `by` compares in a game.
pub fn game_key(valid: &ValidGame, by: SameBy) -> u128 {
    let record = &valid.record;
    match by {
        SameBy::Actions => digest(|h| {
            record.rules.hash(h);
            record.start.as_ref().map(format_position).hash(h);
            for ply in &record.plies {
                ply.action.hash(h);
            }
        }),
        SameBy::Position => digest(|h| {
            record.rules.hash(h);
            let end = valid.game.position();
            let mut text = format_position(end);
            // The repetition rule's equality: the pass counter (written last, only after
            // a pass under `ludii`) is not compared.
            if end.passes() > 0 && end.rules().forced_pass() {
                if let Some((rest, _)) = text.rsplit_once(' ') {
                    text.truncate(rest.len());
                }
            }
            text.hash(h);
        }),
    }
}

/// Runs `agon dedupe`.
pub fn run(args: &DedupeArgs) -> CliResult {
    let by = args.by;
    let map: GameFn<(u128, String)> =
        Arc::new(move |valid| (game_key(valid, by), valid.record.to_string()));
    let (tally, kept) = with_output(args.output.as_deref(), |out| {
        let mut seen = HashSet::new();
        let mut writer = RecordWriter::default();
        let tally = each_game(&args.input, map, |(key, text)| {
            if seen.insert(key) {
                writer.write(out, &text)?;
            }
            Ok(())
        })?;
        Ok((tally, writer.written()))
    })?;
    if !args.quiet {
        let valid = tally.games - tally.invalid;
        eprintln!(
            "agon dedupe: {kept} unique game{} of {valid}, {} duplicate{} dropped",
            plural(kept),
            valid - kept,
            plural(valid - kept)
        );
    }
    Ok(tally.exit_code())
}
