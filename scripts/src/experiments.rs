//! Playing the experiments behind the figures: `agon-selfplay` run on the committed config
//! files, each into its own folder of the work directory, and read back through the
//! `agon_selfplay` library.

use crate::context::Context;
use crate::Result;
use agon_selfplay::config::Settings;
use agon_selfplay::report::summarise;
use agon_selfplay::store::read_games;
use agon_selfplay::{GameRow, Manifest, Summary};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Games per (variant, pairing) in `--quick` mode.
pub const QUICK_GAMES: u64 = 2;
/// The ply limit in `--quick` mode: a few plies of the agents after the random opening.
pub const QUICK_MAX_PLIES: u32 = 20;

/// An experiment, played and read back.
pub struct Played {
    /// Its output directory.
    pub dir: PathBuf,
    /// `experiment.json`.
    pub manifest: Manifest,
    /// Its games, sorted by index.
    pub rows: Vec<GameRow>,
    /// Its statistics, computed by this build of the library.
    pub summary: Summary,
    /// The command a reader types to play it (`agon-selfplay run --config ...`).
    pub command: String,
}

impl Played {
    /// The commit of the build that played the games (from `experiment.json`).
    pub fn played_at(&self) -> &str {
        &self.manifest.tool.commit
    }
}

/// Plays the experiment of the config file `config` (relative to the workspace root) into
/// the work directory's folder `name`, or reuses that folder when it already holds this
/// experiment played by this commit (an interrupted run is continued with `--resume`).
pub fn play(ctx: &Context, config: &str, name: &str) -> Result<Played> {
    let path = ctx.root.join(config);
    let mut settings = Settings::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let tournament = settings.agents.is_some();
    let subcommand = if tournament { "tournament" } else { "run" };
    if ctx.quick {
        settings.games = Some(QUICK_GAMES);
        settings.max_plies = Some(QUICK_MAX_PLIES);
    }
    let expected = if tournament {
        settings.tournament_experiment()
    } else {
        settings.run_experiment()
    }
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = ctx.work.join(name);
    let resume = match Manifest::read(&dir) {
        Ok(stored) if stored.experiment == expected && reusable(ctx, &stored) => true,
        Ok(_) => {
            // Another experiment, or games of another build: play again from scratch.
            std::fs::remove_dir_all(&dir)
                .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
            false
        }
        Err(_) if is_empty_or_missing(&dir) => false,
        Err(_) => {
            return Err(format!(
                "{} holds something else than an agon-selfplay run; move it away or choose \
                 another --work",
                dir.display()
            )
            .into())
        }
    };
    let mut command = Command::new(&ctx.selfplay);
    command
        .arg(subcommand)
        .arg("--config")
        .arg(&path)
        .arg("--out")
        .arg(&dir)
        .arg("--threads")
        .arg(ctx.threads.to_string());
    if ctx.quick {
        command
            .args(["--games", &QUICK_GAMES.to_string()])
            .args(["--max-plies", &QUICK_MAX_PLIES.to_string()]);
    }
    if resume {
        command.arg("--resume");
    }
    eprintln!(
        "xtask docs: {} {name} ({config})",
        if resume { "continuing" } else { "playing" }
    );
    let status = command
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", ctx.selfplay.display()))?;
    if !status.success() {
        return Err(format!("agon-selfplay failed on {config} ({status})").into());
    }
    let (manifest, rows) = read_games(&dir).map_err(|e| e.to_string())?;
    let analysis = settings
        .analysis()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (summary, _) = summarise(&manifest, &rows, &analysis).map_err(|e| e.to_string())?;
    let out = Path::new("results/docs").join(name);
    let command = format!(
        "agon-selfplay {subcommand} --config {config} --out {}",
        out.display()
    );
    Ok(Played {
        dir,
        manifest,
        rows,
        summary,
        command,
    })
}

/// Whether games already in a folder may stand for this run: played by this very commit,
/// or by any known commit when `--reuse` says so (the blocks then name that commit).
fn reusable(ctx: &Context, stored: &Manifest) -> bool {
    stored.tool.commit_is_known() && (stored.tool.commit == ctx.commit || ctx.reuse)
}

fn is_empty_or_missing(dir: &Path) -> bool {
    std::fs::read_dir(dir).map_or(true, |mut entries| entries.next().is_none())
}
