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
    /// CPU seconds (user + system) the `agon-selfplay` process of this call took, when
    /// the platform tells (`None` on other systems than Linux).
    pub cpu_seconds: Option<f64>,
}

/// Settings given on the command line over a config file's.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// One variant instead of the config's list (`--variant`).
    pub variant: Option<String>,
    /// A draw adjudication (`--draw-adjudication`).
    pub draw_adjudication: Option<String>,
    /// Play from scratch even when the folder holds this experiment (for figures that
    /// time the run).
    pub afresh: bool,
}

impl Overrides {
    /// The command-line arguments.
    fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if let Some(v) = &self.variant {
            args.extend(["--variant".to_string(), v.clone()]);
        }
        if let Some(a) = &self.draw_adjudication {
            args.extend(["--draw-adjudication".to_string(), a.clone()]);
        }
        args
    }

    fn apply(&self, settings: &mut Settings) {
        if let Some(v) = &self.variant {
            settings.variants = Some(vec![v.clone()]);
        }
        if let Some(a) = &self.draw_adjudication {
            settings.draw_adjudication = Some(a.clone());
        }
    }
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
    play_with(ctx, config, name, &Overrides::default())
}

/// [`play`] with settings given on the command line over the config's.
pub fn play_with(ctx: &Context, config: &str, name: &str, overrides: &Overrides) -> Result<Played> {
    let path = ctx.root.join(config);
    let mut settings = Settings::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    overrides.apply(&mut settings);
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
        Ok(stored)
            if !overrides.afresh && stored.experiment == expected && reusable(ctx, &stored) =>
        {
            true
        }
        Ok(_) => {
            // Another experiment, or games of another build: play again from scratch.
            std::fs::remove_dir_all(&dir)
                .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
            false
        }
        Err(_) => {
            ensure_empty(&dir, "an agon-selfplay run")?;
            false
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
        .arg(ctx.threads.to_string())
        .args(overrides.args());
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
    let (status, cpu_seconds) = timed(command.stdout(std::process::Stdio::null()), |c| c.status())
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
    let mut command = format!("agon-selfplay {subcommand} --config {config}");
    for arg in overrides.args() {
        command.push(' ');
        command.push_str(&arg);
    }
    command.push_str(&format!(" --out {}", out.display()));
    Ok(Played {
        dir,
        manifest,
        rows,
        summary,
        command,
        cpu_seconds,
    })
}

/// Runs `command` through `run` (`status` or `output`) and measures the CPU seconds
/// (user + system) the child took: the growth of this process's children's CPU time,
/// which counts a child once it has been waited for.
pub fn timed<T>(
    command: &mut Command,
    run: impl FnOnce(&mut Command) -> std::io::Result<T>,
) -> std::io::Result<(T, Option<f64>)> {
    let before = children_cpu_seconds();
    let result = run(command)?;
    let after = children_cpu_seconds();
    let cpu = match (before, after) {
        (Some(b), Some(a)) => Some(a - b),
        _ => None,
    };
    Ok((result, cpu))
}

/// CPU seconds (user + system) of this process's waited-for children, from
/// `/proc/self/stat` (Linux; `None` elsewhere).
fn children_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name's `)`: state is field 3, cutime 16, cstime 17.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    // The kernel counts in clock ticks of 1/100 s on every common configuration.
    Some(ticks as f64 / 100.0)
}

/// Refuses a folder that holds something (of another kind than `what`); creates nothing.
pub fn ensure_empty(dir: &Path, what: &str) -> Result<()> {
    if is_empty_or_missing(dir) {
        Ok(())
    } else {
        Err(format!(
            "{} holds something else than {what}; move it away or choose another --work",
            dir.display()
        )
        .into())
    }
}

/// Whether games already in a folder may stand for this run: played by this very commit,
/// or by any known commit when `--reuse` says so (the blocks then name that commit).
pub fn reusable(ctx: &Context, stored: &Manifest) -> bool {
    stored.tool.commit_is_known() && (stored.tool.commit == ctx.commit || ctx.reuse)
}

fn is_empty_or_missing(dir: &Path) -> bool {
    std::fs::read_dir(dir).map_or(true, |mut entries| entries.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_reach_both_the_command_line_and_the_expected_settings() {
        let overrides = Overrides {
            variant: Some("capture=ring".into()),
            draw_adjudication: Some("movenumber=150,movecount=50,score=100".into()),
            afresh: true,
        };
        assert_eq!(
            overrides.args(),
            [
                "--variant",
                "capture=ring",
                "--draw-adjudication",
                "movenumber=150,movecount=50,score=100"
            ]
        );
        let mut settings = Settings {
            variants: Some(vec!["standard".into(), "capture=ring".into()]),
            ..Settings::default()
        };
        overrides.apply(&mut settings);
        assert_eq!(settings.variants, Some(vec!["capture=ring".to_string()]));
        assert_eq!(
            settings.draw_adjudication.as_deref(),
            Some("movenumber=150,movecount=50,score=100")
        );
        assert!(Overrides::default().args().is_empty());
    }
}
