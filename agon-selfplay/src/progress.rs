//! The progress bar on stderr: games done, games per second, time left, and White's
//! running score per variant. Shown only when stderr is a terminal.

use crate::row::GameRow;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// Progress of a run.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// (variant, White's points, games) in experiment order.
    scores: Vec<(String, f64, u64)>,
}

impl Progress {
    /// A bar for `total` games of which `done` are already played; hidden unless stderr
    /// is a terminal.
    pub fn new(total: u64, done: &[GameRow], variants: &[String]) -> Progress {
        let enabled = std::io::stderr().is_terminal();
        Progress::with_target(enabled, total, done, variants)
    }

    /// A bar that is drawn or not as told (tests use `false`).
    pub fn with_target(enabled: bool, total: u64, done: &[GameRow], variants: &[String]) -> Self {
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:25}] {pos}/{len} games, {rate}, ETA {eta} | \
                     White's score: {wide_msg}",
                )
                .expect("valid template")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.1} games/s", state.per_sec());
                    },
                )
                .progress_chars("=> "),
            );
            bar.set_position(done.len() as u64);
            bar.reset_eta();
            bar
        });
        let mut progress = Progress {
            bar,
            scores: variants.iter().map(|v| (v.clone(), 0.0, 0)).collect(),
        };
        for row in done {
            progress.tally(row);
        }
        progress.redraw();
        progress
    }

    fn tally(&mut self, row: &GameRow) {
        if let Some(entry) = self.scores.iter_mut().find(|(v, _, _)| *v == row.variant) {
            entry.1 += row.white_score();
            entry.2 += 1;
        }
    }

    fn redraw(&self) {
        if let Some(bar) = &self.bar {
            let text: Vec<String> = self
                .scores
                .iter()
                .filter(|(_, _, n)| *n > 0)
                .map(|(v, s, n)| format!("{v} {:.3}", s / *n as f64))
                .collect();
            bar.set_message(text.join(" | "));
        }
    }

    /// Counts a game played before this session (a resumed run's), without redrawing for
    /// each: the bar shows them all at once when the first game of this session finishes.
    pub fn already_done(&mut self, row: &GameRow) {
        self.tally(row);
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.reset_eta();
        }
    }

    /// Counts a finished game.
    pub fn game_done(&mut self, row: &GameRow) {
        self.tally(row);
        self.redraw();
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
