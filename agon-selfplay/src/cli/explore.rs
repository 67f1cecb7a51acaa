//! `agon-selfplay explore`: a family of rule sets raced to a verdict (docs/explore.md).

use super::{lock_fresh, print, threads_given, OpeningsOptions, PlayOptions};
use agon_selfplay::config::Settings;
use agon_selfplay::explore::spec::SPEC_FILE;
use agon_selfplay::explore::store::{merge_round, play_shard, prepare, run, Workers};
use agon_selfplay::explore::{ExploreReport, ExploreSpec, Family, Phase, State, Tests};
use agon_selfplay::ladder::{LadderSpec, DEFAULT_GAMES as DEFAULT_LADDER_GAMES};
use agon_selfplay::openings::OpeningOrder;
use agon_selfplay::store::lock_output;
use agon_selfplay::{Error, Result, Shard};
use clap::Args;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Arguments of `explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// A switch and the values to explore, e.g. `capture=line,ring` (repeatable; `NAME=all`
    /// for every value). Switches not given keep their default value.
    #[arg(long = "switch", value_name = "NAME=V1,V2")]
    switch: Vec<String>,
    /// `all`: every value of every switch (but `repetition`, which --repetition sets).
    #[arg(long, value_name = "all", value_parser = ["all"])]
    switches: Option<String>,
    /// Values of the repetition switch, e.g. `3` or `3,5,off` (default: 3).
    #[arg(long, value_name = "LIST")]
    repetition: Option<String>,
    /// The agent of both sides, e.g. `alphabeta:depth=2,noise=10,hash=1`.
    #[arg(long, value_name = "SPEC")]
    agent: Option<String>,
    /// Games the race may play in all.
    #[arg(long, value_name = "GAMES")]
    budget: Option<u64>,
    /// Pairs one rule set may get at most (default: no limit but the budget).
    #[arg(long, value_name = "N")]
    max_pairs: Option<u64>,
    /// Pairs each rule set gets in the first round (default: about an eighth of the
    /// budget's share, at least 6); each later round doubles them.
    #[arg(long, value_name = "N")]
    first_pairs: Option<u64>,
    #[command(flatten)]
    play: PlayOptions,
    #[command(flatten)]
    openings: OpeningsOptions,
    /// Balanced means White's score within ±MARGIN of 1/2 (default 0.02).
    #[arg(long, value_name = "SHARE")]
    margin: Option<f64>,
    /// Drawish means fewer than this share of decisive games (tested against half of it;
    /// default 0.1).
    #[arg(long, value_name = "SHARE")]
    drawish: Option<f64>,
    /// Error rate of the verdicts' tests: a wrong verdict (default 0.05).
    #[arg(long, value_name = "P")]
    alpha: Option<f64>,
    /// Error rate of the verdicts' tests: a missed verdict (default 0.05).
    #[arg(long, value_name = "P")]
    beta: Option<f64>,
    /// Measure a skill ladder of this many levels for every rule set that survives.
    #[arg(long, value_name = "LEVELS")]
    ladder: Option<u32>,
    /// Games per ladder step (default 40).
    #[arg(long, value_name = "N")]
    ladder_games: Option<u64>,
    /// Level 0 of the ladders (default: the agent), e.g. `mcts:playouts=50`.
    #[arg(long, value_name = "SPEC")]
    ladder_agent: Option<String>,
    /// A config file (JSON, or TOML if named *.toml) holding any of these settings.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Continue the exploration in --out.
    #[arg(long)]
    resume: bool,
    /// With --shard: the round to play (one shard of it).
    #[arg(long, value_name = "R", requires = "shard")]
    round: Option<usize>,
    /// With --round: play only shard K of N of the round, into --out/rounds/R/K-of-N.
    #[arg(long, value_name = "K/N", requires = "round")]
    shard: Option<Shard>,
    /// Merge the shards of the current round; prints the next round, or `done`.
    #[arg(long, conflicts_with_all = ["round", "resume", "next_round"])]
    merge: bool,
    /// Print the round to play next, or `done`.
    #[arg(long, conflicts_with_all = ["round", "resume"])]
    next_round: bool,
    /// Create the exploration in --out and play nothing (then play rounds as shards).
    #[arg(long, conflicts_with_all = ["round", "resume", "merge", "next_round"])]
    prepare: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Every setting of an exploration, from a config file or the command line.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ExploreSettings {
    switch: Option<Vec<String>>,
    switches: Option<String>,
    repetition: Option<String>,
    agent: Option<String>,
    budget: Option<u64>,
    max_pairs: Option<u64>,
    first_pairs: Option<u64>,
    opening_plies: Option<u32>,
    max_plies: Option<u32>,
    seed: Option<u64>,
    draw_adjudication: Option<String>,
    resign_adjudication: Option<String>,
    openings: Option<String>,
    #[serde(alias = "openings_order")]
    openings_order: Option<OpeningOrder>,
    #[serde(alias = "openings_start")]
    openings_start: Option<u64>,
    margin: Option<f64>,
    drawish: Option<f64>,
    alpha: Option<f64>,
    beta: Option<f64>,
    ladder: Option<u32>,
    ladder_games: Option<u64>,
    ladder_agent: Option<String>,
    threads: Option<usize>,
}

macro_rules! overlay {
    ($file:expr, $cli:expr, $($field:ident),+) => {
        ExploreSettings { $( $field: $cli.$field.or($file.$field), )+ }
    };
}

impl ExploreSettings {
    fn of(args: &ExploreArgs) -> ExploreSettings {
        let openings = args.openings.settings();
        ExploreSettings {
            switch: (!args.switch.is_empty()).then(|| args.switch.clone()),
            switches: args.switches.clone(),
            repetition: args.repetition.clone(),
            agent: args.agent.clone(),
            budget: args.budget,
            max_pairs: args.max_pairs,
            first_pairs: args.first_pairs,
            opening_plies: args.play.opening_plies,
            max_plies: args.play.max_plies,
            seed: args.play.seed,
            draw_adjudication: args.play.draw_adjudication.clone(),
            resign_adjudication: args.play.resign_adjudication.clone(),
            openings: openings.openings,
            openings_order: openings.openings_order,
            openings_start: openings.openings_start,
            margin: args.margin,
            drawish: args.drawish,
            alpha: args.alpha,
            beta: args.beta,
            ladder: args.ladder,
            ladder_games: args.ladder_games,
            ladder_agent: args.ladder_agent.clone(),
            threads: args.threads,
        }
    }

    fn load(path: &Path) -> Result<ExploreSettings> {
        agon_selfplay::config::load_file(path)
    }

    fn overlaid(self, cli: ExploreSettings) -> ExploreSettings {
        overlay!(
            self,
            cli,
            switch,
            switches,
            repetition,
            agent,
            budget,
            max_pairs,
            first_pairs,
            opening_plies,
            max_plies,
            seed,
            draw_adjudication,
            resign_adjudication,
            openings,
            openings_order,
            openings_start,
            margin,
            drawish,
            alpha,
            beta,
            ladder,
            ladder_games,
            ladder_agent,
            threads
        )
    }

    /// Whether anything but the thread count is given.
    fn defines_exploration(&self) -> bool {
        ExploreSettings {
            threads: None,
            ..self.clone()
        } != ExploreSettings::default()
    }

    fn spec(&self) -> Result<ExploreSpec> {
        let family = Family::new(
            self.switch.as_deref().unwrap_or_default(),
            self.switches.as_deref().is_some_and(|s| s.trim() == "all"),
            self.repetition.as_deref(),
        )?;
        let agent = self.agent.clone().ok_or_else(|| {
            Error::Settings(
                "explore needs --agent SPEC, e.g. alphabeta:depth=2,noise=10,hash=1".into(),
            )
        })?;
        let budget = self.budget.ok_or_else(|| {
            Error::Settings("explore needs --budget GAMES: the games the race may play".into())
        })?;
        // Adjudication and the opening suite are read as `run` reads them.
        let shared = Settings {
            draw_adjudication: self.draw_adjudication.clone(),
            resign_adjudication: self.resign_adjudication.clone(),
            openings: self.openings.clone(),
            openings_order: self.openings_order,
            openings_start: self.openings_start,
            ..Settings::default()
        };
        let adjudication = shared.adjudication()?;
        let openings = shared.opening_suite()?;
        let defaults = Tests::default();
        let tests = Tests {
            margin: self.margin.unwrap_or(defaults.margin),
            drawish: self.drawish.unwrap_or(defaults.drawish),
            alpha: self.alpha.unwrap_or(defaults.alpha),
            beta: self.beta.unwrap_or(defaults.beta),
        };
        let ladder = match self.ladder {
            Some(levels) => Some(LadderSpec::new(
                self.ladder_agent.as_deref().unwrap_or(&agent),
                levels,
                self.ladder_games.unwrap_or(DEFAULT_LADDER_GAMES),
            )?),
            None if self.ladder_games.is_some() || self.ladder_agent.is_some() => {
                return Err(Error::Settings(
                    "--ladder-games and --ladder-agent go with --ladder LEVELS".into(),
                ))
            }
            None => None,
        };
        ExploreSpec::new(
            family,
            &agent,
            budget,
            self.max_pairs,
            self.first_pairs,
            (
                agon_selfplay::config::opening_plies(self.opening_plies, openings.as_ref()),
                self.max_plies
                    .unwrap_or(agon_selfplay::config::DEFAULT_MAX_PLIES),
                self.seed.unwrap_or(agon_selfplay::config::DEFAULT_SEED),
            ),
            adjudication,
            openings,
            tests,
            ladder,
        )
    }
}

/// The next round as the scripts read it: its number, or `done`.
fn next_round_text(phase: &Phase) -> String {
    phase.round().map_or("done".to_string(), |r| r.to_string())
}

/// Writes the reports of a finished (or, when asked, unfinished) exploration and prints
/// them.
fn report(dir: &Path, json: bool) -> Result<()> {
    let state = State::load(dir)?;
    let (report, summary, ladder) = ExploreReport::new(&state)?;
    report.write(dir, &summary, ladder.as_ref())?;
    if let Some(ladder_summary) = &ladder {
        let subject = format!(
            "skill ladders of {} playing itself",
            state.spec.ladder.as_ref().map_or("", |l| l.agent.as_str())
        );
        for l in agon_selfplay::ladder::ladders(ladder_summary) {
            agon_selfplay::charts::ladder::write_ladder(
                &dir.join(agon_selfplay::explore::store::LADDER_DIR),
                &l,
                &subject,
            )?;
        }
    }
    if json {
        print(&report.json())
    } else {
        print(&report.table())
    }
}

pub fn explore(args: ExploreArgs) -> Result<()> {
    let file = match &args.config {
        Some(path) => ExploreSettings::load(path)?,
        None => ExploreSettings::default(),
    };
    let settings = file.overlaid(ExploreSettings::of(&args));
    let dir = args.out.clone();
    let threads = threads_given(settings.threads)?;
    let options = Workers {
        threads,
        progress: true,
    };
    let uses_stored = args.resume || args.merge || args.next_round || args.round.is_some();
    if settings.defines_exploration() && uses_stored && !args.resume {
        return Err(Error::Settings(
            "--merge, --next-round and --round read the exploration from --out; give no \
             exploration options with them"
                .into(),
        ));
    }
    if args.next_round {
        let state = State::load(&dir)?;
        return print(&format!("{}\n", next_round_text(&state.phase())));
    }
    if let (Some(round), Some(shard)) = (args.round, args.shard) {
        let played = play_shard(&dir, round, shard, options)?;
        eprintln!(
            "agon-selfplay: played {played} game(s) of round {round}, shard {shard}, in {}",
            agon_selfplay::explore::store::shard_dir(&dir, round, shard).display()
        );
        return Ok(());
    }
    // The exploration the options describe, checked (its opening suite under every rule
    // set included) before anything is created; none when it is read from --out.
    let spec = if args.merge || (args.resume && !settings.defines_exploration()) {
        None
    } else {
        Some(settings.spec()?)
    };
    // Every step below writes the exploration's own files: one process at a time. (Shards
    // above lock their own directories, so a round's shards play side by side.)
    let _lock = if !(args.resume || args.merge || dir.join(SPEC_FILE).exists()) {
        lock_fresh(&dir, "choose another --out")?
    } else {
        // The usual error for a directory that holds no exploration, before creating
        // anything.
        ExploreSpec::read(&dir)?;
        lock_output(&dir)?
    };
    if args.merge {
        let merged = merge_round(&dir)?;
        eprintln!(
            "agon-selfplay: merged {} shard(s) of round {} into {}",
            merged.shards,
            merged.round,
            dir.display()
        );
        if merged.next == Phase::Finished {
            let state = State::load(&dir)?;
            let (report, summary, ladder) = ExploreReport::new(&state)?;
            report.write(&dir, &summary, ladder.as_ref())?;
        }
        let next = next_round_text(&merged.next);
        return if args.json {
            print(&format!(
                "{}\n",
                serde_json::json!({
                    "merged_round": merged.round,
                    "shards": merged.shards,
                    "next_round": merged.next.round(),
                })
            ))
        } else {
            print(&format!("{next}\n"))
        };
    }
    if let Some(spec) = &spec {
        prepare(&dir, spec, args.resume)?;
    }
    if args.prepare {
        let state = State::load(&dir)?;
        eprintln!(
            "agon-selfplay: prepared {} ({} rule sets); play round {} next",
            dir.display(),
            state.spec.rule_sets.len(),
            next_round_text(&state.phase())
        );
        return Ok(());
    }
    let started = std::time::Instant::now();
    let played = run(&dir, options)?;
    eprintln!(
        "agon-selfplay: played {played} game(s) in {:.1} s ({threads} thread(s)) in {}",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    report(&dir, args.json)
}
