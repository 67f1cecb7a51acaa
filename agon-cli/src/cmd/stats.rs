//! `agon stats`: counts of results, terminations, lengths and captures per rule set over a
//! corpus, as a table, JSON or CSV.

use crate::corpus::{captures, each_game, termination, CorpusArgs, GameFn};
use crate::error::{CliError, CliResult};
use crate::output::Out;
use agon_core::{GameResult, Termination};
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

/// Examples shown after `agon stats --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon stats games.agn                        a table per rule set
  agon stats --json records/ | jq '.variants[] | {variant, games}'
  agon stats --csv runs/*/games.agn > stats.csv
  agon filter --min-plies 20 big.agn | agon stats
Per rule set (in order of first appearance): games; results (1-0, 0-1, 1/2-1/2, *);
terminations (the Termination tag, else how the rules ended the game; `none` for
unfinished games); length in plies (min, mean, median, max); pieces captured (suicides
included; total, mean per game). Invalid games are reported on stderr and not counted
(exit 1). --json prints one object; --csv one row per rule set with a column per result
and per termination.";

/// Options of `agon stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: CorpusArgs,

    /// One JSON object instead of tables.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// CSV, one row per rule set, instead of tables.
    #[arg(long)]
    pub csv: bool,
}

/// What one game adds to the statistics.
struct GameFacts {
    variant: String,
    result: GameResult,
    termination: Option<Termination>,
    plies: u64,
    captures: u64,
}

/// The statistics of one rule set.
#[derive(Default)]
struct VariantStats {
    games: u64,
    results: [u64; 4],
    terminations: BTreeMap<&'static str, u64>,
    /// Games per length in plies.
    lengths: BTreeMap<u64, u64>,
    plies: u64,
    captures: u64,
}

const RESULTS: [GameResult; 4] = [
    GameResult::WhiteWins,
    GameResult::BlackWins,
    GameResult::Draw,
    GameResult::Unfinished,
];

fn result_slot(result: GameResult) -> usize {
    RESULTS.iter().position(|r| *r == result).unwrap_or(3)
}

/// The names of the terminations, in the order of the rules' list, then `none`.
fn termination_names() -> impl Iterator<Item = &'static str> {
    Termination::ALL
        .into_iter()
        .map(Termination::name)
        .chain(["none"])
}

impl VariantStats {
    fn add(&mut self, game: &GameFacts) {
        self.games += 1;
        self.results[result_slot(game.result)] += 1;
        let name = game.termination.map_or("none", Termination::name);
        *self.terminations.entry(name).or_insert(0) += 1;
        *self.lengths.entry(game.plies).or_insert(0) += 1;
        self.plies += game.plies;
        self.captures += game.captures;
    }

    /// The median length (the middle game's, or the mean of the middle two).
    fn median(&self) -> f64 {
        let at = |rank: u64| {
            let mut seen = 0;
            for (&length, &count) in &self.lengths {
                seen += count;
                if seen > rank {
                    return length as f64;
                }
            }
            0.0
        };
        match self.games {
            0 => 0.0,
            n if n % 2 == 1 => at(n / 2),
            n => (at(n / 2 - 1) + at(n / 2)) / 2.0,
        }
    }

    fn mean(total: u64, games: u64) -> f64 {
        if games == 0 {
            0.0
        } else {
            total as f64 / games as f64
        }
    }

    fn report(&self, variant: &str) -> VariantReport {
        VariantReport {
            variant: variant.to_string(),
            games: self.games,
            results: RESULTS
                .iter()
                .zip(self.results)
                .map(|(r, n)| (r.to_string(), n))
                .collect(),
            terminations: termination_names()
                .filter_map(|name| self.terminations.get(name).map(|&n| (name.to_string(), n)))
                .collect(),
            plies: Lengths {
                min: self.lengths.keys().next().copied().unwrap_or(0),
                mean: Self::mean(self.plies, self.games),
                median: self.median(),
                max: self.lengths.keys().next_back().copied().unwrap_or(0),
                total: self.plies,
            },
            captures: Captures {
                total: self.captures,
                mean: Self::mean(self.captures, self.games),
            },
        }
    }
}

/// The JSON of `agon stats`.
#[derive(Serialize)]
struct StatsReport {
    /// Games read, valid or not.
    games: u64,
    /// Invalid games (not counted below).
    invalid: u64,
    variants: Vec<VariantReport>,
}

#[derive(Serialize)]
struct VariantReport {
    variant: String,
    games: u64,
    /// Games per result token, all four always present.
    results: BTreeMap<String, u64>,
    /// Games per termination that occurred.
    terminations: BTreeMap<String, u64>,
    plies: Lengths,
    captures: Captures,
}

#[derive(Serialize)]
struct Lengths {
    min: u64,
    mean: f64,
    median: f64,
    max: u64,
    total: u64,
}

#[derive(Serialize)]
struct Captures {
    total: u64,
    mean: f64,
}

/// Runs `agon stats`.
pub fn run(args: &StatsArgs) -> CliResult {
    let map: GameFn<GameFacts> = Arc::new(|valid| GameFacts {
        variant: valid.record.rules.to_string(),
        result: valid.record.result,
        termination: termination(valid),
        plies: valid.record.plies.len() as u64,
        captures: captures(valid),
    });
    let mut order: Vec<String> = Vec::new();
    let mut by_variant: BTreeMap<String, VariantStats> = BTreeMap::new();
    let tally = each_game(&args.input, map, |game| {
        if !by_variant.contains_key(&game.variant) {
            order.push(game.variant.clone());
        }
        by_variant
            .entry(game.variant.clone())
            .or_default()
            .add(&game);
        Ok(())
    })?;
    let report = StatsReport {
        games: tally.games,
        invalid: tally.invalid,
        variants: order
            .iter()
            .filter_map(|v| by_variant.get(v).map(|s| s.report(v)))
            .collect(),
    };
    let mut out = Out::new();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else if args.csv {
        write_csv(&mut out, &report)?;
    } else {
        write_tables(&mut out, &report)?;
    }
    out.flush()?;
    Ok(tally.exit_code())
}

fn write_csv(out: &mut dyn Write, report: &StatsReport) -> Result<(), CliError> {
    let mut header = vec![
        "variant",
        "games",
        "white_wins",
        "black_wins",
        "draws",
        "unfinished",
        "plies_min",
        "plies_mean",
        "plies_median",
        "plies_max",
        "captures_total",
        "captures_mean",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    header.extend(termination_names().map(|t| format!("termination_{}", t.replace('-', "_"))));
    writeln!(out, "{}", header.join(","))?;
    for v in &report.variants {
        let result = |r: GameResult| v.results.get(&r.to_string()).copied().unwrap_or(0);
        let mut row = vec![
            csv_field(&v.variant),
            v.games.to_string(),
            result(GameResult::WhiteWins).to_string(),
            result(GameResult::BlackWins).to_string(),
            result(GameResult::Draw).to_string(),
            result(GameResult::Unfinished).to_string(),
            v.plies.min.to_string(),
            format!("{:.3}", v.plies.mean),
            format!("{:.1}", v.plies.median),
            v.plies.max.to_string(),
            v.captures.total.to_string(),
            format!("{:.3}", v.captures.mean),
        ];
        row.extend(
            termination_names().map(|t| v.terminations.get(t).copied().unwrap_or(0).to_string()),
        );
        writeln!(out, "{}", row.join(","))?;
    }
    Ok(())
}

/// A CSV field, quoted when it holds a comma or a quote (rule sets with switches do).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn write_tables(out: &mut dyn Write, report: &StatsReport) -> Result<(), CliError> {
    let valid = report.games - report.invalid;
    write!(out, "{valid} valid game{}", crate::corpus::plural(valid))?;
    if report.invalid > 0 {
        write!(out, " ({} invalid, not counted)", report.invalid)?;
    }
    writeln!(out)?;
    for v in &report.variants {
        let percent = |n: u64| 100.0 * n as f64 / v.games.max(1) as f64;
        writeln!(
            out,
            "\n{}: {} game{}",
            v.variant,
            v.games,
            crate::corpus::plural(v.games)
        )?;
        writeln!(out, "  results")?;
        for (token, label) in [
            ("1-0", "White wins"),
            ("0-1", "Black wins"),
            ("1/2-1/2", "draws"),
            ("*", "unfinished"),
        ] {
            let n = v.results.get(token).copied().unwrap_or(0);
            writeln!(
                out,
                "    {token:<8} {label:<12} {n:>8} {:>6.1}%",
                percent(n)
            )?;
        }
        writeln!(out, "  terminations")?;
        for name in termination_names() {
            if let Some(&n) = v.terminations.get(name) {
                writeln!(out, "    {name:<21} {n:>8} {:>6.1}%", percent(n))?;
            }
        }
        writeln!(
            out,
            "  plies     min {}  mean {:.1}  median {:.1}  max {}",
            v.plies.min, v.plies.mean, v.plies.median, v.plies.max
        )?;
        writeln!(
            out,
            "  captures  total {}  mean {:.2} per game",
            v.captures.total, v.captures.mean
        )?;
    }
    Ok(())
}
