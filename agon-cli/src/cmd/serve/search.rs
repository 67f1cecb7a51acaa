//! Searches for the page: an agent's action (`/api/agent`) and the analysis of a position
//! (`/api/analyse`, streamed as the search deepens). Each runs on a thread of its own, at
//! most one per core at a time, ends at the server's time limit, and is stopped when its
//! client goes away (the request's future or the response stream is dropped) or the
//! server stops.

use super::error::{ApiError, ApiResult};
use crate::cmd::engine::thinking::{annotate, infos};
use agon_core::agents::{
    from_spec, Agent, AlphaBetaAgent, AlphaBetaConfig, SearchControl, SearchLimits, SearchReport,
};
use agon_core::{Action, Game};
use agon_notation::protocol::Score;
use axum::body::Bytes;
use serde::Serialize;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit, Semaphore};

/// The searches of one server.
pub struct Searches {
    /// One permit per search allowed at once.
    permits: Arc<Semaphore>,
    /// The longest a search may run.
    pub limit: Duration,
    /// The stop flags of running searches.
    active: Mutex<Vec<Weak<AtomicBool>>>,
    /// Set when the server stops: no search starts, running ones end.
    stopping: AtomicBool,
}

/// Sets a stop flag when dropped: a search whose client is gone ends soon.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Searches {
    /// At most `threads` searches at once, each at most `limit` long.
    pub fn new(threads: usize, limit: Duration) -> Searches {
        Searches {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            limit,
            active: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
        }
    }

    /// A new stop flag, remembered so that [`Searches::stop_all`] can set it.
    fn stop_flag(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(self.stopping.load(Ordering::SeqCst)));
        let mut active = self.active.lock().unwrap_or_else(|e| e.into_inner());
        active.retain(|f| f.strong_count() > 0);
        active.push(Arc::downgrade(&flag));
        flag
    }

    /// Ends every running search and refuses new ones (the server is stopping).
    pub fn stop_all(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let active = self.active.lock().unwrap_or_else(|e| e.into_inner());
        for flag in active.iter().filter_map(Weak::upgrade) {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Waits for a free search slot.
    async fn permit(&self) -> ApiResult<OwnedSemaphorePermit> {
        if self.stopping.load(Ordering::SeqCst) {
            return Err(ApiError::unavailable("the server is stopping"));
        }
        Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| ApiError::unavailable("the server is stopping"))
    }
}

/// Builds an agent from its spec, with the CLI's message when the spec is wrong.
pub fn agent(spec: &str, seed: u64) -> ApiResult<Box<dyn Agent>> {
    from_spec(spec.trim(), seed).map_err(|e| ApiError::invalid(format!("agent: {e}")))
}

/// The refusal for a game that is over.
pub fn over(game: &Game) -> Option<ApiError> {
    game.outcome().map(|outcome| {
        ApiError::invalid(format!(
            "the game is over ({}, {}): no action can follow",
            outcome.result, outcome.termination
        ))
    })
}

/// An agent's choice.
pub struct Choice {
    /// The action.
    pub action: Action,
    /// How long the agent took.
    pub elapsed: Duration,
    /// Whether the server's time limit cut the search short.
    pub cut: bool,
}

/// Asks an agent for the action of the side that decides in `game` (not over). The search
/// ends at the server's limit, and when the caller's future is dropped (the client left).
pub async fn choose(
    searches: &Searches,
    mut agent: Box<dyn Agent>,
    game: Game,
) -> ApiResult<Choice> {
    if let Some(error) = over(&game) {
        return Err(error);
    }
    let permit = searches.permit().await?;
    let stop = searches.stop_flag();
    let _stop_when_dropped = StopOnDrop(Arc::clone(&stop));
    let (tx, rx) = oneshot::channel();
    let thread_stop = Arc::clone(&stop);
    let start = Instant::now();
    std::thread::spawn(move || {
        let mut control = SearchControl {
            limits: None,
            stop: Some(thread_stop),
            on_iteration: None,
        };
        let action = agent.choose_with(&game, &mut control);
        drop(permit);
        let _ = tx.send((action, game));
    });
    let mut rx = rx;
    let mut cut = false;
    let (action, game) = match tokio::time::timeout(searches.limit, &mut rx).await {
        Ok(answer) => answer,
        Err(_) => {
            cut = true;
            stop.store(true, Ordering::SeqCst);
            rx.await
        }
    }
    .map_err(|_| ApiError::internal("the agent's search failed"))?;
    if !game.position().legal().contains(action) {
        return Err(ApiError::internal(format!(
            "the agent chose an illegal action `{action}`"
        )));
    }
    Ok(Choice {
        action,
        elapsed: start.elapsed(),
        cut,
    })
}

/// One line of an analysis stream.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Line {
    /// A completed iteration.
    Iteration(IterationLine),
    /// The search is still running (sent every second, so that a client that left is
    /// noticed even during a long iteration).
    Tick { time_ms: u64 },
    /// The search ended.
    Done {
        /// The best action found, with its capture annotation.
        best: Option<String>,
        /// Why it ended: `limit` (depth, nodes or time asked for), `stopped` (the server's
        /// time limit, or the server stopping) or `forced` (one legal action).
        reason: &'static str,
        /// The last iteration (also sent when no iteration completed, e.g. a forced action).
        last: Option<IterationLine>,
    },
}

/// A completed iteration of the analysis.
#[derive(Clone, Serialize)]
struct IterationLine {
    depth: u32,
    /// `{"units": N}`, `{"win": PLIES}` or `{"loss": PLIES}`, for the side in `side`.
    score: ScoreView,
    /// The side the score is for (the side that decides now).
    side: String,
    /// The score from White's point of view in units (forced results as ±1,000,000 less
    /// the plies), for a sign the page can colour.
    white: i64,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    /// The principal variation, with capture annotations.
    pv: Vec<String>,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "lowercase")]
enum ScoreView {
    Units(i64),
    Win(u32),
    Loss(u32),
}

fn iteration_line(report: &SearchReport, game: &Game) -> IterationLine {
    let root = game.position();
    // The principal line: the first of a multi-PV search's lines is the best one.
    let info = infos(report, root).swap_remove(0);
    let decider = root.decider();
    let white_sign = if decider == agon_core::Side::White {
        1
    } else {
        -1
    };
    IterationLine {
        depth: report.depth,
        score: match info.score {
            Some(Score::Win(n)) => ScoreView::Win(n),
            Some(Score::Loss(n)) => ScoreView::Loss(n),
            Some(Score::Units(n)) => ScoreView::Units(n),
            None => ScoreView::Units(0),
        },
        side: decider.name().to_ascii_lowercase(),
        white: white_sign * i64::from(report.score),
        nodes: report.nodes,
        nps: info.nps.unwrap_or(0),
        time_ms: info.time.unwrap_or(0),
        pv: annotate(root, &report.pv),
    }
}

fn encode(line: &Line) -> Bytes {
    let mut text = serde_json::to_vec(line).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}

/// What to search for in an analysis.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalysisLimits {
    /// Deepest iteration (1-64).
    pub depth: Option<u32>,
    /// Time budget (at most the server's limit).
    pub time: Option<Duration>,
}

/// The stream of an analysis: one JSON object per line (NDJSON).
pub struct AnalysisStream {
    lines: mpsc::UnboundedReceiver<Bytes>,
    tick: tokio::time::Interval,
    start: Instant,
    /// Stops the search when the stream is dropped (the client left).
    _stop: StopOnDrop,
}

impl futures_core::Stream for AnalysisStream {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Poll::Ready(line) = self.lines.poll_recv(cx) {
            return Poll::Ready(line.map(Ok));
        }
        if self.tick.poll_tick(cx).is_ready() {
            let time_ms = self.start.elapsed().as_millis() as u64;
            return Poll::Ready(Some(Ok(encode(&Line::Tick { time_ms }))));
        }
        Poll::Pending
    }
}

/// Starts analysing the current position of `game` (not over) with the alpha-beta agent;
/// the lines arrive as iterations complete.
pub fn analyse(
    searches: Arc<Searches>,
    game: Game,
    limits: AnalysisLimits,
) -> ApiResult<AnalysisStream> {
    if let Some(error) = over(&game) {
        return Err(error);
    }
    let stop = searches.stop_flag();
    let (tx, rx) = mpsc::unbounded_channel();
    let time = limits
        .time
        .map_or(searches.limit, |t| t.min(searches.limit));
    let thread_stop = Arc::clone(&stop);
    tokio::spawn(async move {
        let Ok(permit) = searches.permit().await else {
            return;
        };
        if thread_stop.load(Ordering::SeqCst) {
            return;
        }
        std::thread::spawn(move || {
            let mut agent = AlphaBetaAgent::new(AlphaBetaConfig::with_depth(64, 0));
            let mut send = |report: &SearchReport| {
                if tx
                    .send(encode(&Line::Iteration(iteration_line(report, &game))))
                    .is_err()
                {
                    // The client left: nobody reads the lines any more.
                    thread_stop.store(true, Ordering::SeqCst);
                }
            };
            let mut control = SearchControl {
                limits: Some(SearchLimits {
                    depth: Some(limits.depth.unwrap_or(64).clamp(1, 64)),
                    nodes: None,
                    time: Some(time),
                }),
                stop: Some(Arc::clone(&thread_stop)),
                on_iteration: Some(&mut send),
            };
            let action = agent.choose_with(&game, &mut control);
            drop(permit);
            let last = agent.last_report().map(|r| iteration_line(r, &game));
            let forced = game.position().legal().count() == 1;
            let reason = if forced {
                "forced"
            } else if thread_stop.load(Ordering::SeqCst) {
                "stopped"
            } else {
                "limit"
            };
            let best = annotate(game.position(), &[action]).pop();
            let _ = tx.send(encode(&Line::Done { best, reason, last }));
        });
    });
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick fires at once; the page does not need it.
    tick.reset();
    Ok(AnalysisStream {
        lines: rx,
        tick,
        start: Instant::now(),
        _stop: StopOnDrop(stop),
    })
}
