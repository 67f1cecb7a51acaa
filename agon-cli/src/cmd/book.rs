//! `agon book`: an opening suite made from games: the first N plies of every game long
//! enough, de-duplicated, kept when frequent enough, most frequent first.

use crate::corpus::{each_game, with_output, CorpusArgs, GameFn, RecordWriter};
use crate::error::{CliError, CliResult};
use agon_core::Game;
use agon_notation::{format_position, GameRecord};
use clap::Args;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Examples shown after `agon book --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon book --plies 6 games.agn > book.agn          every distinct 6-ply opening
  agon book --plies 8 --min-count 3 --max 200 db/ -o book.agn
  agon book --plies 4 --positions games.agn > starts.txt
  agon-selfplay run --openings book.agn --variants all --out runs/book
Each game of at least --plies plies gives its first N plies; prefixes that end the game
are left out. Equal prefixes (same rule set, start and actions) count once each time they
occur; those seen fewer than --min-count times are dropped. The suite is printed most
frequent first (ties in order of first appearance) as records with a Count tag, or with
--positions as position strings (the position after the prefix), one per line: both are
what `agon-selfplay --openings` reads. Invalid games are reported on stderr (exit 1).";

/// Options of `agon book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(flatten)]
    pub input: CorpusArgs,

    /// Plies of each opening.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub plies: usize,

    /// Keep only openings that occur at least this many times.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub min_count: u64,

    /// Keep at most this many openings (the most frequent).
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,

    /// Print position strings, one per line, instead of records.
    #[arg(long)]
    pub positions: bool,

    /// Write the suite to this file (replaced atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// One opening: its record (with no tags yet) and the position after it.
struct Prefix {
    key: String,
    record: GameRecord,
    position: String,
}

/// The first `plies` plies of a game, unless the game is shorter or over by then.
fn prefix(game: &Game, plies: usize) -> Option<Prefix> {
    if game.ply_count() < plies {
        return None;
    }
    let mut opening = Game::from_position(*game.start());
    for ply in &game.plies()[..plies] {
        opening.play(ply.action).ok()?;
    }
    if opening.is_over() {
        return None;
    }
    let record = GameRecord::from_game(&opening, &[]);
    Some(Prefix {
        key: record.to_string(),
        position: format_position(opening.position()),
        record,
    })
}

/// Runs `agon book`.
pub fn run(args: &BookArgs) -> CliResult {
    if args.plies == 0 {
        return Err(CliError::new(
            "--plies takes a number of plies from 1 (0 would be the start position alone)",
        ));
    }
    let plies = args.plies;
    let map: GameFn<Option<Prefix>> = Arc::new(move |valid| prefix(&valid.game, plies));
    // Each distinct opening: its index of first appearance and its count.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut openings: Vec<(Prefix, u64)> = Vec::new();
    let tally = each_game(&args.input, map, |found| {
        if let Some(found) = found {
            match seen.get(&found.key) {
                Some(&k) => openings[k].1 += 1,
                None => {
                    seen.insert(found.key.clone(), openings.len());
                    openings.push((found, 1));
                }
            }
        }
        Ok(())
    })?;
    drop(seen);
    openings.retain(|(_, count)| *count >= args.min_count);
    // A stable sort keeps first appearances in order among equal counts.
    openings.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    openings.truncate(args.max.unwrap_or(usize::MAX));
    with_output(args.output.as_deref(), |out| {
        let mut writer = RecordWriter::default();
        for (prefix, count) in &mut openings {
            if args.positions {
                writeln!(out, "{}", prefix.position)
                    .map_err(|e| CliError::io("cannot write", e))?;
            } else {
                prefix.record.set_tag("Event", "agon book");
                prefix.record.set_tag("Count", &count.to_string());
                writer.write(out, &prefix.record.to_string())?;
            }
        }
        Ok(())
    })?;
    eprintln!(
        "agon book: {} opening{} of {plies} plies from {} game{}",
        openings.len(),
        crate::corpus::plural(openings.len() as u64),
        tally.games - tally.invalid,
        crate::corpus::plural(tally.games - tally.invalid)
    );
    Ok(tally.exit_code())
}
