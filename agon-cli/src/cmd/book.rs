//! `agon book`: an opening suite made from games: the first N plies of every game long
//! enough, de-duplicated, kept when frequent enough (and, with `--balance`, when a quick
//! alpha-beta search finds them about equal), most frequent first.

use crate::cmd::analyse::judgement::Score;
use crate::corpus::{each_game, with_output, CorpusArgs, GameFn, RecordWriter};
use crate::error::{CliError, CliResult};
use agon_core::agents::{AlphaBetaAgent, AlphaBetaConfig};
use agon_core::Game;
use agon_notation::{format_position, GameRecord};
use clap::Args;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Examples shown after `agon book --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon book --plies 6 games.agn > book.agn          every distinct 6-ply opening
  agon book --plies 8 --min-count 3 --max 200 db/ -o book.agn
  agon book --plies 4 --positions games.agn > starts.txt
  agon book --plies 6 --balance depth=4,score=0.50 games.agn > balanced.agn
  agon-selfplay run --openings book.agn --variants all --out runs/book
Each game of at least --plies plies gives its first N plies; prefixes that end the game
are left out. Equal prefixes (same rule set, start and actions) count once each time they
occur; those seen fewer than --min-count times are dropped. The suite is printed most
frequent first (ties in order of first appearance) as records with a Count tag, or with
--positions as position strings (the position after the prefix), one per line: both are
what `agon-selfplay --openings` reads. With --balance, each distinct prefix that is frequent
enough is searched by the alpha-beta agent to depth D (no noise, draws worth 0) and kept
only if its score, from White's view in hundreds of evaluation units as `agon analyse`
prints them, lies within ±S (a forced result never does); records get a Balance tag with
the score and depth (`+0.12/4`). Invalid games are reported on stderr (exit 1).";

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

    /// Keep only openings a quick search finds about equal: `depth=D,score=S` searches
    /// each to D plies (1-12, default 4) with the alpha-beta agent and keeps those scored
    /// within ±S (default 0.50: half a guard's progress, in `agon analyse`'s units).
    #[arg(long, value_name = "depth=D,score=S")]
    pub balance: Option<String>,

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

/// The balance filter: search depth and the largest score kept, in evaluation units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balance {
    /// Plies of the search.
    pub depth: u32,
    /// Openings scored beyond ± this many units are dropped.
    pub units: i32,
}

/// The deepest search `--balance` allows (each opening is searched once; deeper searches
/// take seconds each).
pub const MAX_BALANCE_DEPTH: u32 = 12;

impl Balance {
    /// Parses `depth=D,score=S` (either part may be left out: depth 4, score 0.50).
    pub fn parse(text: &str) -> Result<Balance, CliError> {
        let hint = "--balance takes depth=D,score=S, e.g. depth=4,score=0.50 (D plies from 1 \
                    to 12; S in hundreds of evaluation units, as `agon analyse` prints scores)";
        let mut balance = Balance {
            depth: 4,
            units: 50,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || CliError::with_hint(format!("--balance: cannot read `{part}`"), hint);
            let (key, value) = part.split_once('=').ok_or_else(bad)?;
            match key.trim() {
                "depth" => {
                    balance.depth = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|d| (1..=MAX_BALANCE_DEPTH).contains(d))
                        .ok_or_else(bad)?;
                }
                "score" => {
                    let score: f64 = value.trim().parse().map_err(|_| bad())?;
                    if !(score.is_finite() && (0.0..=10.0).contains(&score)) {
                        return Err(bad());
                    }
                    balance.units = (score * 100.0).round() as i32;
                }
                _ => return Err(bad()),
            }
        }
        Ok(balance)
    }

    /// The score of the position an opening reaches, White's view: a fresh agent per
    /// opening (so the answer does not depend on the order or the threads), without noise,
    /// a draw worth 0 to either side.
    pub fn score(&self, game: &Game) -> Score {
        let mut config = AlphaBetaConfig::with_depth(self.depth, 0);
        config.contempt = 0;
        let report = AlphaBetaAgent::new(config).search(game);
        Score::of_search(report.score, report.forced_end(), game.position().decider())
    }

    /// Whether a score is within the bound (a forced result never is).
    pub fn keeps(&self, score: Score) -> bool {
        matches!(score, Score::Units(units) if units.abs() <= self.units)
    }
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
    let balance = args.balance.as_deref().map(Balance::parse).transpose()?;
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
    let frequent = openings.len();
    if let Some(balance) = balance {
        openings = balanced(openings, balance, args.input.threads)?;
    }
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
    let dropped = match balance {
        Some(b) => format!(
            " ({} of {frequent} dropped as scored beyond ±{}.{:02} at depth {})",
            frequent - openings.len(),
            b.units / 100,
            b.units % 100,
            b.depth
        ),
        None => String::new(),
    };
    eprintln!(
        "agon book: {} opening{} of {plies} plies from {} game{}{dropped}",
        openings.len(),
        crate::corpus::plural(openings.len() as u64),
        tally.games - tally.invalid,
        crate::corpus::plural(tally.games - tally.invalid)
    );
    Ok(tally.exit_code())
}

/// The openings a quick search finds balanced, in their order, each record tagged with its
/// score. The searches run in parallel on `threads` workers; the result does not depend on
/// their number.
fn balanced(
    openings: Vec<(Prefix, u64)>,
    balance: Balance,
    threads: Option<usize>,
) -> Result<Vec<(Prefix, u64)>, CliError> {
    let threads = crate::games::worker_threads(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::new(format!("cannot start {threads} worker threads: {e}")))?;
    let scores: Vec<Score> = pool.install(|| {
        openings
            .par_iter()
            .map(|(prefix, _)| {
                let game = prefix
                    .record
                    .to_game()
                    .expect("a prefix replays: it was played");
                balance.score(&game)
            })
            .collect()
    });
    Ok(openings
        .into_iter()
        .zip(scores)
        .filter(|(_, score)| balance.keeps(*score))
        .map(|((mut prefix, count), score)| {
            prefix
                .record
                .set_tag("Balance", &format!("{score}/{}", balance.depth));
            (prefix, count)
        })
        .collect())
}
