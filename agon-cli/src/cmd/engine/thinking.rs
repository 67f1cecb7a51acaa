//! The search thread of `agon engine`: one per `go`. It owns the agent while it thinks,
//! prints `info` lines after each completed iteration and `bestmove` at the end, and hands
//! the agent back when joined. The reader thread stops it through a shared flag.

use super::send;
use agon_core::agents::{Agent, SearchControl, SearchLimits, SearchReport};
use agon_core::{Action, Game, Position};
use agon_notation::format_annotated;
use agon_notation::protocol::{EngineMessage, Go, Info, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// A search running on its own thread.
pub struct Thinking {
    handle: JoinHandle<Box<dyn Agent>>,
    /// Set to end the search (and, for `go infinite`, to let it answer).
    stop: Arc<AtomicBool>,
    /// Set to end the search without answering (`quit`).
    quiet: Arc<AtomicBool>,
    /// Set by the search thread just before it answers: from then on it only ends.
    answered: Arc<AtomicBool>,
    /// Whether this is `go infinite` (which answers only after `stop`).
    infinite: bool,
}

impl Thinking {
    /// Starts searching `game` (not over) with `agent` under the limits of `go`.
    pub fn start(mut agent: Box<dyn Agent>, game: Game, go: Go) -> Thinking {
        let stop = Arc::new(AtomicBool::new(false));
        let quiet = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (thread_stop, thread_quiet) = (stop.clone(), quiet.clone());
        let thread_answered = answered.clone();
        let handle = thread::spawn(move || {
            let root = *game.position();
            let mut report = |r: &SearchReport| {
                for line in infos(r, &root) {
                    send(EngineMessage::Info(line));
                }
            };
            let mut control = SearchControl {
                limits: limits(&go),
                stop: Some(thread_stop.clone()),
                on_iteration: Some(&mut report),
            };
            let action = agent.choose_with(&game, &mut control);
            if go.infinite {
                // `go infinite` answers only after `stop`, even when the search ends early.
                while !thread_stop.load(Ordering::SeqCst) {
                    thread::park();
                }
            }
            thread_answered.store(true, Ordering::SeqCst);
            if !thread_quiet.load(Ordering::SeqCst) {
                let token = annotate(&root, &[action]).pop();
                send(EngineMessage::BestMove(
                    token.unwrap_or_else(|| action.to_string()),
                ));
            }
            agent
        });
        Thinking {
            handle,
            stop,
            quiet,
            answered,
            infinite: go.infinite,
        }
    }

    /// Asks the search to end and answer.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.thread().unpark();
    }

    /// Stops a `go infinite` search (others end by their limits).
    pub fn stop_if_infinite(&self) {
        if self.infinite {
            self.stop();
        }
    }

    /// Whether `stop` has been asked for.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Whether the search is over (its answer is written or being written), so that
    /// joining it does not wait for a search.
    pub fn is_over(&self) -> bool {
        self.answered.load(Ordering::SeqCst) || self.handle.is_finished()
    }

    /// Waits for the thread and takes the agent back (`None` if the search panicked).
    pub fn join(self) -> Option<Box<dyn Agent>> {
        self.handle.join().ok()
    }

    /// Ends the search without an answer and waits for the thread.
    pub fn abandon(self) {
        self.quiet.store(true, Ordering::SeqCst);
        self.stop();
        let _ = self.handle.join();
    }
}

/// The search limits of a `go` command: `None` (the agent's own) for a bare `go`, no limit
/// at all for `go infinite`.
fn limits(go: &Go) -> Option<SearchLimits> {
    if go.infinite {
        return Some(SearchLimits::default());
    }
    if go.depth.is_none() && go.nodes.is_none() && go.movetime.is_none() {
        return None;
    }
    Some(SearchLimits {
        depth: go.depth,
        nodes: go.nodes,
        time: go.movetime.map(Duration::from_millis),
    })
}

/// The `info` lines of a completed iteration: one, or one per line (`multipv K`, best
/// first) when the search reports several.
pub(crate) fn infos(report: &SearchReport, root: &Position) -> Vec<Info> {
    let micros = report.elapsed.as_micros().max(1);
    let nps = u128::from(report.nodes) * 1_000_000 / micros;
    let info = |multipv: Option<u32>, score: i32, forced: Option<i32>, pv: &[Action]| Info {
        depth: Some(report.depth),
        multipv,
        score: Some(match forced {
            Some(plies) if plies > 0 => Score::Win(plies.unsigned_abs()),
            Some(plies) => Score::Loss(plies.unsigned_abs()),
            None => Score::Units(i64::from(score)),
        }),
        nodes: Some(report.nodes),
        nps: Some(u64::try_from(nps).unwrap_or(u64::MAX)),
        time: Some(u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX)),
        pv: annotate(root, pv),
        string: None,
    };
    if report.lines.len() <= 1 {
        return vec![info(None, report.score, report.forced_end(), &report.pv)];
    }
    report
        .lines
        .iter()
        .zip(1..)
        .map(|(line, k)| info(Some(k), line.score, line.forced_end(), &line.pv))
        .collect()
}

/// Actions played in turn from `root`, written with their capture annotations (stops at
/// the first action that is not legal).
pub(crate) fn annotate(root: &Position, actions: &[Action]) -> Vec<String> {
    let mut position = *root;
    let mut out = Vec::new();
    for &action in actions {
        if !position.legal().contains(action) {
            break;
        }
        let captured = position.play_unchecked(action);
        out.push(format_annotated(action, captured));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_core::Rules;

    #[test]
    fn go_limits_map_to_search_limits() {
        assert_eq!(limits(&Go::default()), None);
        let infinite = Go {
            infinite: true,
            ..Go::default()
        };
        assert_eq!(limits(&infinite), Some(SearchLimits::default()));
        let go = Go {
            depth: Some(3),
            movetime: Some(40),
            ..Go::default()
        };
        assert_eq!(
            limits(&go),
            Some(SearchLimits {
                depth: Some(3),
                nodes: None,
                time: Some(Duration::from_millis(40)),
            })
        );
    }

    #[test]
    fn principal_variations_carry_capture_annotations() {
        let root = Position::start(Rules::STANDARD);
        let pv: Vec<Action> = ["h9-g9", "b7-c7", "pass"]
            .iter()
            .map(|a| a.parse().unwrap())
            .collect();
        // `pass` is not legal under the standard rules: the line stops there.
        assert_eq!(annotate(&root, &pv), ["h9-g9", "b7-c7"]);
    }
}
