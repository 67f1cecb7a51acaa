//! `agon-selfplay run`.

use super::{
    open_output, play_and_report, print_summary, threads, AnalysisOptions, FormatOptions,
    GameOptions,
};
use agon_selfplay::config::Settings;
use agon_selfplay::{Error, Kind, Manifest, Result};
use clap::Args;

/// Arguments of `run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    games: GameOptions,
    /// The agent of both sides, e.g. `alphabeta:depth=3`.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["white", "black"])]
    agent: Option<String>,
    /// White's agent in the first game of each pair (the colours swap in the second).
    #[arg(long, value_name = "SPEC")]
    white: Option<String>,
    /// Black's agent in the first game of each pair.
    #[arg(long, value_name = "SPEC")]
    black: Option<String>,
    #[command(flatten)]
    analysis: AnalysisOptions,
    #[command(flatten)]
    format: FormatOptions,
}

pub fn run(args: RunArgs) -> Result<()> {
    let Some(out) = args.games.out.clone() else {
        return Err(Error::Settings("run needs --out DIR".into()));
    };
    let cli = Settings {
        agent: args.agent.clone(),
        white: args.white.clone(),
        black: args.black.clone(),
        ..args.games.settings()
    };
    let cli = cli.overlaid(args.analysis.settings());
    let settings = args.games.combined(cli)?;
    let analysis = settings.analysis()?;
    let threads = threads(&settings)?;
    let fresh = match args.games.resume {
        true => None,
        false => Some(Manifest::new(settings.run_experiment()?, args.games.shard)),
    };
    // Held until the reports are written: no other process writes this directory meanwhile.
    let (_lock, manifest) = open_output(
        &out,
        fresh,
        &settings,
        args.games.shard,
        Kind::Run,
        Settings::run_experiment,
    )?;
    let (_, summary) = play_and_report(&manifest, &out, args.games.resume, threads, &analysis)?;
    print_summary(&summary, args.format)
}
