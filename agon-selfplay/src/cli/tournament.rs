//! `agon-selfplay tournament`: a round robin (or gauntlet) with Elo ratings.

use super::{open_output, print, threads, AnalysisOptions, GameOptions};
use agon_selfplay::config::Settings;
use agon_selfplay::ratings::Ratings;
use agon_selfplay::report::{summarise, write_stored_reports};
use agon_selfplay::session::{run as run_session, RunOptions};
use agon_selfplay::table::{render_ratings, render_sprt};
use agon_selfplay::{Experiment, Kind, Manifest, Result};
use clap::Args;
use serde::Serialize;

/// Arguments of `tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// An agent (repeat for each, at least two), e.g. `--agent random --agent greedy`.
    #[arg(long = "agent", value_name = "SPEC")]
    agents: Vec<String>,
    /// The first agent meets each other agent (no games among the others).
    #[arg(long)]
    gauntlet: bool,
    #[command(flatten)]
    games: GameOptions,
    #[command(flatten)]
    analysis: AnalysisOptions,
    /// Print the ratings as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Output<'a> {
    tool: agon_selfplay::Tool,
    experiment: &'a Experiment,
    ratings: &'a Ratings,
    sprt: Vec<&'a agon_selfplay::sample::SprtResult>,
}

pub fn tournament(args: TournamentArgs) -> Result<()> {
    let cli = Settings {
        agents: (!args.agents.is_empty()).then(|| args.agents.clone()),
        gauntlet: args.gauntlet.then_some(true),
        ..args.games.settings()
    };
    let cli = cli.overlaid(args.analysis.settings());
    let settings = args.games.combined(cli)?;
    let analysis = settings.analysis()?;
    let out = args.games.out.clone();
    let threads = threads(&settings)?;
    let fresh = match args.games.resume {
        true => None,
        false => Some(Manifest::new(
            settings.tournament_experiment()?,
            args.games.shard,
        )),
    };
    // Held until the reports are written: no other process writes this directory meanwhile.
    let (_lock, manifest) = match &out {
        Some(dir) => {
            let (lock, manifest) = open_output(
                dir,
                fresh,
                &settings,
                args.games.shard,
                Kind::Tournament,
                Settings::tournament_experiment,
            )?;
            (Some(lock), manifest)
        }
        None => (None, fresh.expect("--resume requires --out")),
    };
    let options = RunOptions {
        out: out.clone(),
        resume: args.games.resume,
        threads,
        progress: true,
        only: None,
    };
    let outcome = run_session(&manifest, &options)?;
    eprintln!(
        "agon-selfplay: played {} game(s) in {:.1} s ({:.2} games/s, {} thread(s))",
        outcome.played_now,
        outcome.seconds,
        outcome.games_per_second(),
        threads
    );
    let summary = match &out {
        Some(dir) => write_stored_reports(dir, &manifest, &analysis)?,
        None => summarise(&manifest, &outcome.rows, &analysis)?.0,
    };
    let ratings = summary
        .ratings
        .as_ref()
        .expect("a tournament's summary has ratings");
    if args.json {
        let output = Output {
            tool: agon_selfplay::tool(),
            experiment: &manifest.experiment,
            ratings,
            sprt: summary
                .groups
                .iter()
                .filter_map(|g| g.sprt.as_ref())
                .collect(),
        };
        print(&(serde_json::to_string_pretty(&output).expect("serialisable") + "\n"))
    } else {
        print(&(render_ratings(ratings) + &render_sprt(&summary)))
    }
}
