//! `agon-selfplay tournament`: a round robin with Elo ratings.

use super::{print, threads, GameOptions};
use agon_selfplay::config::Settings;
use agon_selfplay::ratings::{rate, Ratings};
use agon_selfplay::report::write_reports;
use agon_selfplay::session::{run as run_session, RunOptions};
use agon_selfplay::table::render_ratings;
use agon_selfplay::{Error, Experiment, Manifest, Result};
use clap::Args;
use serde::Serialize;

/// Arguments of `tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// An agent (repeat for each, at least two), e.g. `--agent random --agent greedy`.
    #[arg(long = "agent", value_name = "SPEC")]
    agents: Vec<String>,
    #[command(flatten)]
    games: GameOptions,
    /// Print the ratings as JSON.
    #[arg(long)]
    json: bool,
}

/// The agents of a tournament, in the order given.
pub fn agents_of(experiment: &Experiment) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    for p in &experiment.pairings {
        for a in [&p.first, &p.second] {
            if !agents.contains(a) {
                agents.push(a.clone());
            }
        }
    }
    agents
}

#[derive(Serialize)]
struct Output<'a> {
    experiment: &'a Experiment,
    ratings: &'a Ratings,
}

pub fn tournament(args: TournamentArgs) -> Result<()> {
    let cli = Settings {
        agents: (!args.agents.is_empty()).then(|| args.agents.clone()),
        ..args.games.settings()
    };
    let settings = args.games.combined(cli)?;
    let out = args.games.out.clone();
    let manifest = match &out {
        Some(dir) if args.games.resume && !settings.defines_experiment() => Manifest::read(dir)?,
        _ => Manifest::new(settings.tournament_experiment()?, args.games.shard),
    };
    if manifest.experiment.kind != agon_selfplay::Kind::Tournament {
        return Err(Error::Settings(
            "that directory holds a `run` experiment; continue it with `run --resume`".into(),
        ));
    }
    let threads = threads(&settings)?;
    let options = RunOptions {
        out: out.clone(),
        resume: args.games.resume,
        threads,
        progress: true,
    };
    let outcome = run_session(&manifest, &options)?;
    eprintln!(
        "agon-selfplay: played {} game(s) in {:.1} s ({:.2} games/s, {} thread(s))",
        outcome.played_now,
        outcome.seconds,
        outcome.games_per_second(),
        threads
    );
    if let Some(dir) = &out {
        write_reports(dir, &manifest, &outcome.rows)?;
    }
    let ratings = rate(&agents_of(&manifest.experiment), &outcome.rows);
    if args.json {
        let output = Output {
            experiment: &manifest.experiment,
            ratings: &ratings,
        };
        print(&(serde_json::to_string_pretty(&output).expect("serialisable") + "\n"))
    } else {
        print(&render_ratings(&ratings))
    }
}
