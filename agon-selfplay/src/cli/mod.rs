//! Command-line definitions (clap) and the shared pieces of the subcommands.

mod explore;
mod generate;
mod ladder;
mod merge;
mod plan;
mod report;
mod run;
mod tournament;

use agon_files::DirLock;
use agon_selfplay::config::Settings;
use agon_selfplay::runner::MAX_THREADS;
use agon_selfplay::store::{check_fresh, lock_output};
use agon_selfplay::{Error, Experiment, Kind, Manifest, Result, Shard};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

/// Parallel Agon self-play experiments, variant balance statistics and charts.
#[derive(Parser, Debug)]
#[command(name = "agon-selfplay", version = agon_provenance::LONG_VERSION, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play an experiment: every variant, a number of paired games each; write games,
    /// statistics and charts to --out as games finish.
    Run(run::RunArgs),
    /// Print (and rewrite) the statistics and charts of an output directory.
    Report(report::ReportArgs),
    /// Merge output directories of one experiment (e.g. shards) into one.
    Merge(merge::MergeArgs),
    /// Round robin (or gauntlet) between agents, colours swapped, with Elo ratings,
    /// pairwise differences and a crosstable.
    Tournament(tournament::TournamentArgs),
    /// Pairs needed to detect a first-move advantage (or show balance), or the smallest
    /// advantage a number of games detects.
    Plan(plan::PlanArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(generate::CompletionsArgs),
    /// Print the manual page (roff) of agon-selfplay, or of one subcommand.
    Man(generate::ManArgs),
    /// Race a family of rule sets to verdicts (fair? decisive? deep?) in rounds, and write
    /// report cards (explore.json, explore.csv, index.html).
    Explore(Box<explore::ExploreArgs>),
    /// A skill ladder: agents of doubling budget, each against the one below; the depth is
    /// the number of steps the stronger wins significantly.
    Ladder(ladder::LadderArgs),
}

/// Runs a parsed command line.
pub fn dispatch(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Report(args) => report::report(args),
        Command::Merge(args) => merge::merge(args),
        Command::Tournament(args) => tournament::tournament(args),
        Command::Plan(args) => plan::plan(args),
        Command::Completions(args) => generate::completions(args),
        Command::Man(args) => generate::man(args),
        Command::Explore(args) => explore::explore(*args),
        Command::Ladder(args) => ladder::ladder(args),
    }
}

/// Options shared by `run` and `tournament` that define how games are played.
#[derive(Args, Debug, Clone)]
pub struct GameOptions {
    /// A rule set by canonical name (repeatable; names may hold commas, e.g.
    /// `intervention=suicide,touch-move=on`).
    #[arg(long = "variant", value_name = "NAME")]
    variant: Vec<String>,
    /// `all`: the standard rules and every single-switch variant.
    #[arg(long = "variants", value_name = "all", value_parser = ["all"])]
    variants: Option<String>,
    /// Games per variant (and pairing); pairs of games share a random opening.
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    #[command(flatten)]
    play: PlayOptions,
    #[command(flatten)]
    openings: OpeningsOptions,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// A config file (JSON, or TOML if named *.toml) holding any of these settings;
    /// command-line options override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue the interrupted run in --out without repeating or losing a game.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play only the colour-swapped pairs whose number is K modulo N, both games of each
    /// (merge the shards afterwards).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A sequential test per variant (`run`: White's first-move advantage) or per pairing
    /// (`tournament`: the first agent's score), in logistic Elo, e.g.
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05`: a block stops at the pair where the test
    /// decides (alpha and beta default to 0.05).
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
}

/// An opening suite (shared by every command that plays experiments: `run`,
/// `tournament`, `ladder`, `explore`).
#[derive(Args, Debug, Clone, Default)]
pub struct OpeningsOptions {
    /// An opening suite: game records (each game's actions are an opening) or position
    /// strings, one per line. Each pair of games plays one opening, colours swapped; every
    /// rule set (and pairing) plays the same openings, and one that cannot play them all
    /// is refused. Stored with the experiment, so a resume keeps it. The random
    /// --opening-plies (default 0 with a suite) are played after the suite's opening.
    #[arg(long, value_name = "FILE")]
    pub(super) openings: Option<PathBuf>,
    /// In which order pairs take the suite's openings: `sequential` (the file's) or
    /// `random` (a permutation drawn from --seed).
    #[arg(long, value_name = "ORDER", value_parser = ["sequential", "random"])]
    pub(super) openings_order: Option<String>,
    /// The suite opening (0-based, in that order) of each block's first pair; the pairs
    /// after it take the next ones, wrapping around.
    #[arg(long, value_name = "N")]
    pub(super) openings_start: Option<u64>,
}

impl OpeningsOptions {
    /// These options as settings.
    fn settings(&self) -> Settings {
        Settings {
            openings: self.openings.as_ref().map(|p| p.display().to_string()),
            openings_order: self.openings_order.as_deref().and_then(|o| o.parse().ok()),
            openings_start: self.openings_start,
            ..Settings::default()
        }
    }
}

/// How each game is played: its opening, its limit, its seed, its adjudication (shared by
/// every command that plays games).
#[derive(Args, Debug, Clone, Default)]
pub struct PlayOptions {
    /// Uniformly random plies that open each pair of games (default 4).
    #[arg(long, value_name = "N")]
    pub(super) opening_plies: Option<u32>,
    /// Ply limit: a game still running after N plies is undecided, termination
    /// `move-limit` (default 1000).
    #[arg(long, value_name = "N")]
    pub(super) max_plies: Option<u32>,
    /// Seed: every game depends on (seed, its index) only (default 1).
    #[arg(long, value_name = "N")]
    pub(super) seed: Option<u64>,
    /// End a game as a draw once both sides scored it within ±S for C moves each, after
    /// move N (the agents' own search scores; agents without scores are never
    /// adjudicated), e.g. `movenumber=40,movecount=8,score=20`.
    #[arg(long, value_name = "movenumber=N,movecount=C,score=S")]
    pub(super) draw_adjudication: Option<String>,
    /// End a game as a loss for a side that scored itself at -S or below for C of its
    /// moves in a row, e.g. `movecount=4,score=1000`.
    #[arg(long, value_name = "movecount=C,score=S")]
    pub(super) resign_adjudication: Option<String>,
}

impl PlayOptions {
    /// These options as settings.
    fn settings(&self) -> Settings {
        Settings {
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            seed: self.seed,
            draw_adjudication: self.draw_adjudication.clone(),
            resign_adjudication: self.resign_adjudication.clone(),
            ..Settings::default()
        }
    }
}

impl GameOptions {
    /// The settings given on the command line (agents added by the caller).
    fn settings(&self) -> Settings {
        let mut variants = self.variant.clone();
        if self.variants.is_some() {
            variants.push("all".into());
        }
        Settings {
            variants: (!variants.is_empty()).then_some(variants),
            games: self.games,
            threads: self.threads,
            sprt: self.sprt.clone(),
            ..self.play.settings().overlaid(self.openings.settings())
        }
    }

    /// The config file's settings overlaid with the command line's.
    fn combined(&self, cli: Settings) -> Result<Settings> {
        let file = match &self.config {
            Some(path) => Settings::load(path)?,
            None => Settings::default(),
        };
        Ok(file.overlaid(cli))
    }
}

/// Options of the statistics (they change the reports, never the games).
#[derive(Args, Debug, Clone, Default)]
pub struct AnalysisOptions {
    /// The variant every other variant is compared with (default: `standard` when the
    /// experiment has it).
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// Equivalence margin of White's score: "balanced within ±MARGIN" is tested for
    /// every variant (two one-sided tests; default 0.02).
    #[arg(long, value_name = "SHARE")]
    margin: Option<f64>,
    /// Fix a tournament's scale: this agent's rating (others' intervals are then relative
    /// to it), e.g. `random=0`.
    #[arg(long, value_name = "AGENT=ELO")]
    anchor: Option<String>,
    /// Virtual draws per pairing in the ratings' prior (default 2; 0 for pure maximum
    /// likelihood).
    #[arg(long, value_name = "DRAWS")]
    prior: Option<f64>,
}

impl AnalysisOptions {
    /// These options as settings (to overlay on a config file's).
    fn settings(&self) -> Settings {
        Settings {
            baseline: self.baseline.clone(),
            margin: self.margin,
            anchor: self.anchor.clone(),
            prior: self.prior,
            ..Settings::default()
        }
    }
}

/// Plays the games of `manifest` not yet in `out` (all of them, or continuing an
/// interrupted run), says how it went on stderr, and writes the report files.
fn play_and_report(
    manifest: &agon_selfplay::Manifest,
    out: &std::path::Path,
    resume: bool,
    threads: usize,
    analysis: &agon_selfplay::summary::Analysis,
) -> Result<(agon_selfplay::session::RunOutcome, agon_selfplay::Summary)> {
    let options = agon_selfplay::session::RunOptions {
        out: Some(out.to_path_buf()),
        resume,
        threads,
        progress: true,
        only: None,
    };
    let outcome = agon_selfplay::session::run(manifest, &options)?;
    eprintln!(
        "agon-selfplay: played {} game(s) in {:.1} s ({:.2} games/s, {} thread(s)); {} of {} \
         in {}",
        outcome.played_now,
        outcome.seconds,
        outcome.games_per_second(),
        threads,
        outcome.games,
        manifest.expected(),
        out.display()
    );
    let summary = agon_selfplay::report::write_stored_reports(out, manifest, analysis)?;
    Ok((outcome, summary))
}

/// The number of worker threads: as given (1 to [`MAX_THREADS`]), else every core.
fn threads(settings: &Settings) -> Result<usize> {
    threads_given(settings.threads)
}

/// The number of worker threads of a `--threads` option: as given (1 to [`MAX_THREADS`]),
/// else every core.
fn threads_given(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        Some(n) => Err(Error::Settings(format!(
            "--threads takes a number from 1 to {MAX_THREADS}, not {n}"
        ))),
        None => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS)),
    }
}

/// Locks `out` for a new experiment: it must be new or empty (`hint` says what to do
/// otherwise).
fn lock_fresh(out: &Path, hint: &str) -> Result<DirLock> {
    // A directory some process locked is refused for that; any other is checked before a
    // lock file is made in it (and again under the lock).
    if out.is_dir() && !out.join(agon_files::LOCK_FILE).exists() {
        check_fresh(out, hint)?;
    }
    let lock = lock_output(out)?;
    check_fresh(out, hint)?;
    Ok(lock)
}

/// Locks the output directory of a new run (`fresh`, built from the settings before the
/// directory is touched) or of a resumed one, and returns the lock and the manifest to run.
/// A resumed run keeps its stored experiment; options given with `--resume` must equal the
/// stored ones, and each one that does not is named.
fn open_output(
    out: &Path,
    fresh: Option<Manifest>,
    settings: &Settings,
    shard: Option<Shard>,
    kind: Kind,
    build: impl Fn(&Settings) -> Result<Experiment>,
) -> Result<(DirLock, Manifest)> {
    if let Some(manifest) = fresh {
        let lock = lock_fresh(out, "continue it with --resume, or choose another --out")?;
        return Ok((lock, manifest));
    }
    // The usual error for a directory that holds no run, before creating anything.
    Manifest::read(out)?;
    let lock = lock_output(out)?;
    let stored = Manifest::read(out)?;
    note_other_build(out);
    if stored.experiment.kind != kind {
        let command = match stored.experiment.kind {
            Kind::Run => "run",
            Kind::Tournament => "tournament",
        };
        return Err(Error::Settings(format!(
            "{} holds a `{command}` experiment; continue it with `agon-selfplay {command} \
             --resume --out {}`",
            out.display(),
            out.display()
        )));
    }
    if !settings.defines_experiment() && shard.is_none() {
        return Ok((lock, stored));
    }
    let wanted = Settings::of_experiment(&stored.experiment).resumed_with(settings.clone());
    let wanted = Manifest::new(build(&wanted)?, shard.or(stored.shard));
    let differences = wanted.differences(&stored);
    if !differences.is_empty() {
        let command = match kind {
            Kind::Run => "run",
            Kind::Tournament => "tournament",
        };
        return Err(Error::Settings(format!(
            "{} holds another experiment: {}; continue it with `agon-selfplay {command} \
             --resume --out {}` and no experiment options",
            out.display(),
            differences.join(", "),
            out.display()
        )));
    }
    Ok((lock, stored))
}

/// Says on stderr when the games in `dir` were started by another build than this one
/// (after an update, a `--resume` or `merge` mixes games of two builds; they are the same
/// games only if the agents did not change between them).
fn note_other_build(dir: &std::path::Path) {
    let Ok(stored) = agon_selfplay::Manifest::read(dir) else {
        return;
    };
    let current = agon_selfplay::tool();
    if (&stored.tool.version, &stored.tool.commit) != (&current.version, &current.commit) {
        eprintln!(
            "agon-selfplay: note: the games in {} were started by {}; this is {}",
            dir.display(),
            stored.tool,
            current
        );
    }
}

/// Output formats of the reports.
#[derive(Args, Debug, Clone, Copy)]
pub struct FormatOptions {
    /// Print the summary as JSON instead of tables.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the summary as CSV instead of tables.
    #[arg(long)]
    csv: bool,
}

/// Writes to stdout; a closed pipe ends quietly.
fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::io(std::path::Path::new("<stdout>"), e))
        }
        _ => Ok(()),
    }
}

/// Prints a summary in the chosen format.
fn print_summary(summary: &agon_selfplay::Summary, format: FormatOptions) -> Result<()> {
    if format.json {
        print(&agon_selfplay::report::summary_json(summary))
    } else if format.csv {
        let bytes = agon_selfplay::report::summary_csv(summary)?;
        print(&String::from_utf8_lossy(&bytes))
    } else {
        print(&agon_selfplay::table::render_summary(summary))
    }
}
