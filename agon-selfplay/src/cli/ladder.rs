//! `agon-selfplay ladder`: skill ladders of rule sets (docs/explore.md).

use super::{lock_fresh, play_and_report, print, threads, AnalysisOptions, GameOptions};
use agon_selfplay::charts::ladder::write_ladder;
use agon_selfplay::config::Settings;
use agon_selfplay::ladder::{ladders, Ladder, LadderSpec, DEFAULT_GAMES};
use agon_selfplay::store::{lock_output, write_atomically};
use agon_selfplay::table::{percent, percents, signed, Table};
use agon_selfplay::{Error, Experiment, Kind, Manifest, Result};
use clap::Args;
use serde::Serialize;

/// Arguments of `ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
    /// Level 0: an `mcts` agent (playouts double) or an `alphabeta` agent (depth grows by
    /// one ply, or nodes double), e.g. `mcts:playouts=50`.
    #[arg(long, value_name = "SPEC")]
    agent: Option<String>,
    /// Levels (at least 2): level k+1 has twice the budget of level k and plays it.
    #[arg(long, value_name = "L")]
    levels: Option<u32>,
    #[command(flatten)]
    games: GameOptions,
    #[command(flatten)]
    analysis: AnalysisOptions,
    /// Print the ladders as JSON.
    #[arg(long)]
    json: bool,
}

/// `ladder.json`.
const LADDER_JSON: &str = "ladder.json";

#[derive(Serialize)]
struct Output<'a> {
    tool: &'static str,
    experiment: &'a Experiment,
    ladders: &'a [Ladder],
}

fn table(ladder: &Ladder) -> String {
    let mut out = format!(
        "\nSkill ladder of {}: depth {} of {} step(s) (a step: the level with twice the budget \
         scores at least 55%, 95% interval above 50%)\n",
        ladder.variant,
        ladder.depth,
        ladder.steps.len()
    );
    let mut t = Table::new(
        &["stronger", "weaker", "games", "score", "95%", "Elo", "step"],
        2,
    );
    for s in &ladder.steps {
        t.push(vec![
            s.stronger.clone(),
            s.weaker.clone(),
            s.games.to_string(),
            percent(s.score),
            percents(s.interval),
            s.elo.map_or("-".into(), |e| signed(e.round())),
            if s.significant { "yes" } else { "no" }.into(),
        ]);
    }
    out.push_str(&t.render());
    out
}

pub fn ladder(args: LadderArgs) -> Result<()> {
    let Some(out) = args.games.out.clone() else {
        return Err(Error::Settings("ladder needs --out DIR".into()));
    };
    let cli = args.games.settings().overlaid(args.analysis.settings());
    let settings = args.games.combined(cli)?;
    let analysis = settings.analysis()?;
    let defines = settings.defines_experiment() || args.agent.is_some() || args.levels.is_some();
    // Held until the reports are written: no other process writes this directory meanwhile.
    let _lock = if args.games.resume {
        // The usual error for a directory that holds no run, before creating anything.
        Manifest::read(&out)?;
        lock_output(&out)?
    } else {
        lock_fresh(&out, "continue it with --resume, or choose another --out")?
    };
    let manifest = if args.games.resume && !defines {
        Manifest::read(&out)?
    } else {
        let experiment = ladder_experiment(&args, &settings)?;
        Manifest::new(experiment, args.games.shard)
    };
    if manifest.experiment.kind != Kind::Tournament {
        return Err(Error::Settings(
            "that directory holds a `run` experiment, not a ladder".into(),
        ));
    }
    let threads = threads(&settings)?;
    let (outcome, summary) =
        play_and_report(&manifest, &out, args.games.resume, threads, &analysis)?;
    let ladders = ladders(&summary);
    let agent = manifest
        .experiment
        .pairings
        .first()
        .map_or(String::new(), |p| p.second.clone());
    let subject = format!(
        "level 0: {agent}; {} games a step, in colour-swapped pairs",
        manifest.experiment.games
    );
    for l in &ladders {
        write_ladder(&out, l, &subject)?;
    }
    let json = serde_json::to_string_pretty(&Output {
        tool: "agon-selfplay",
        experiment: &manifest.experiment,
        ladders: &ladders,
    })
    .expect("ladders serialise")
        + "\n";
    write_atomically(&out.join(LADDER_JSON), json.as_bytes())?;
    if args.json {
        print(&json)
    } else {
        let text: String = ladders.iter().map(table).collect();
        print(&format!(
            "agon-selfplay ladder: {} game(s), {} levels from {agent}; charts ladder-*.svg/png \
             in {}\n{text}",
            outcome.games,
            manifest.experiment.pairings.len() + 1,
            out.display(),
        ))
    }
}

/// The ladder experiment the options describe.
fn ladder_experiment(args: &LadderArgs, settings: &Settings) -> Result<Experiment> {
    if settings.agent.is_some() || settings.agents.is_some() || settings.white.is_some() {
        return Err(Error::Settings(
            "a ladder takes its agent from --agent and --levels".into(),
        ));
    }
    let agent = args.agent.as_deref().ok_or_else(|| {
        Error::Settings("ladder needs --agent SPEC (level 0), e.g. mcts:playouts=50".into())
    })?;
    let levels = args
        .levels
        .ok_or_else(|| Error::Settings("ladder needs --levels L (at least 2)".into()))?;
    let spec = LadderSpec::new(agent, levels, settings.games.unwrap_or(DEFAULT_GAMES))?;
    let openings = settings.opening_suite()?;
    let mut experiment = spec.experiment(
        settings.variant_names("standard"),
        agon_selfplay::config::opening_plies(settings.opening_plies, openings.as_ref()),
        settings
            .max_plies
            .unwrap_or(agon_selfplay::config::DEFAULT_MAX_PLIES),
        settings.seed.unwrap_or(agon_selfplay::config::DEFAULT_SEED),
        settings.adjudication()?,
        openings,
    )?;
    experiment.sprt = match &settings.sprt {
        Some(text) => Some(text.parse().map_err(Error::Settings)?),
        None => None,
    };
    Ok(experiment)
}
