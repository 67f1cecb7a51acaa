//! The routes: the page's files, and the JSON API under `/api/` (docs/serve.md). Each
//! handler reads its request, asks [`bridge`], [`super::library`] or [`search`], and answers
//! JSON; every failure is an [`ApiError`] with a status and a message.

use super::bridge::{self, GameSpec, SetupSpec};
use super::error::{ApiError, ApiResult, Body};
use super::library::Library;
use super::search::{self, AnalysisLimits, Searches};
use super::{geometry, page};
use agon_core::agents::AGENTS;
use agon_core::SWITCHES;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body accepted (a record file opened from the page is one body).
pub const BODY_LIMIT: usize = 8 << 20;

/// What every handler shares.
pub struct AppState {
    /// The records opened so far.
    pub library: Library,
    /// The searches running.
    pub searches: Arc<Searches>,
    /// Where Save writes records.
    pub save_dir: PathBuf,
    /// When bound to this machine only: the host names requests must use (a web page from
    /// elsewhere cannot reach the server through DNS rebinding).
    pub local_only: bool,
}

type Shared = State<Arc<AppState>>;

/// The router of the whole server.
pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/meta", get(meta))
        .route("/geometry", get(geometry_handler))
        .route("/games", get(games))
        .route("/games/{id}", get(game))
        .route("/open", post(open))
        .route("/validate", post(validate))
        .route("/state", post(state_handler))
        .route("/play", post(play))
        .route("/agent", post(agent))
        .route("/analyse", post(analyse))
        .route("/evaluate", post(evaluate))
        .route("/setup", post(setup))
        .route("/position", post(position))
        .route("/record", post(record))
        .route("/save", post(save))
        .fallback(api_not_found)
        .method_not_allowed_fallback(api_wrong_method);
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/app.css", get(page::style))
        .route("/favicon.svg", get(page::icon))
        .nest("/api", api)
        .fallback(page_not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            check_host,
        ))
        .with_state(state)
}

/// Refuses requests that name another host when the server serves this machine only.
async fn check_host(State(state): Shared, request: Request, next: Next) -> Response {
    if state.local_only {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !is_local_host(host) {
            return ApiError {
                status: StatusCode::FORBIDDEN,
                message: format!(
                    "the host `{host}` is not this machine; open the page as http://127.0.0.1:PORT/ or http://localhost:PORT/"
                ),
            }
            .into_response();
        }
    }
    next.run(request).await
}

/// Whether a `Host` header names this machine (`localhost`, `127.0.0.1`, `[::1]`, with
/// any port).
pub fn is_local_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    matches!(name, "localhost" | "127.0.0.1" | "::1")
}

async fn api_not_found(request: Request) -> ApiError {
    ApiError::not_found(format!(
        "no API endpoint /api{}; docs/serve.md lists them",
        request.uri().path()
    ))
}

async fn api_wrong_method(request: Request) -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!(
            "/api{} does not take {} requests; docs/serve.md says how to call it",
            request.uri().path(),
            request.method()
        ),
    }
}

async fn page_not_found() -> (StatusCode, &'static str) {
    (StatusCode::NOT_FOUND, "not found: the page is at /\n")
}

#[derive(Serialize)]
struct Switch {
    name: &'static str,
    /// The values a menu offers (the default first).
    choices: Vec<&'static str>,
    /// What the switch takes, in words.
    values: String,
}

#[derive(Serialize)]
struct Meta {
    version: &'static str,
    switches: Vec<Switch>,
    agents: Vec<(&'static str, &'static str)>,
    start: &'static str,
    save_dir: String,
    think_limit_ms: u64,
    games: usize,
}

async fn meta(State(state): Shared) -> Json<Meta> {
    Json(Meta {
        version: env!("CARGO_PKG_VERSION"),
        switches: SWITCHES
            .iter()
            .map(|switch| Switch {
                name: switch.name,
                choices: switch
                    .values
                    .iter()
                    .copied()
                    .filter(|v| !v.contains(' '))
                    .collect(),
                values: switch.values.join(", "),
            })
            .collect(),
        agents: AGENTS.to_vec(),
        start: agon_notation::START_POSITION,
        save_dir: state.save_dir.display().to_string(),
        think_limit_ms: state.searches.limit.as_millis() as u64,
        games: state.library.len(),
    })
}

async fn geometry_handler() -> Json<geometry::Geometry> {
    Json(geometry::geometry())
}

async fn games(State(state): Shared) -> Response {
    Json(state.library.summaries()).into_response()
}

async fn game(State(state): Shared, Path(id): Path<String>) -> ApiResult<Response> {
    let id: usize = id
        .parse()
        .map_err(|_| ApiError::bad_request(format!("`{id}` is not a game number")))?;
    Ok(Json(state.library.game(id)?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextRequest {
    /// A file name for verdicts.
    #[serde(default)]
    name: Option<String>,
    /// The text of a record file.
    text: String,
}

impl TextRequest {
    fn name(&self) -> String {
        match self.name.as_deref().map(str::trim) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => "<pasted>".to_string(),
        }
    }
}

async fn open(State(state): Shared, Body(request): Body<TextRequest>) -> ApiResult<Response> {
    let name = request.name();
    let state2 = Arc::clone(&state);
    let summaries =
        tokio::task::spawn_blocking(move || state2.library.open(&name, request.text.as_bytes()))
            .await
            .map_err(|_| ApiError::internal("reading the records failed"))??;
    if summaries.is_empty() {
        return Err(ApiError::invalid(
            "the text holds no game (a record starts with tags such as [Event \"...\"] or with movetext such as 1. h9-g9)",
        ));
    }
    Ok(Json(summaries).into_response())
}

#[derive(Serialize)]
struct ValidateView {
    /// One object per game, as `agon validate --json` prints them.
    games: Vec<serde_json::Value>,
    /// `agon validate`'s lines for the invalid games.
    lines: Vec<String>,
    /// `agon validate`'s summary line.
    summary: String,
    valid: usize,
    invalid: usize,
}

async fn validate(Body(request): Body<TextRequest>) -> ApiResult<Json<ValidateView>> {
    let name = request.name();
    let view = tokio::task::spawn_blocking(move || {
        let mut view = ValidateView {
            games: Vec::new(),
            lines: Vec::new(),
            summary: String::new(),
            valid: 0,
            invalid: 0,
        };
        for item in
            agon_notation::Records::new(request.text.as_bytes()).with_file_name(name.clone())
        {
            let report = crate::cmd::validate::report(&name, item.as_ref());
            if report.is_valid() {
                view.valid += 1;
            } else {
                view.invalid += 1;
                view.lines.push(report.text().to_string());
            }
            view.games
                .push(serde_json::to_value(&report).unwrap_or_default());
        }
        let total = view.valid + view.invalid;
        view.summary = format!(
            "{total} {}: {} valid, {} invalid",
            if total == 1 { "game" } else { "games" },
            view.valid,
            view.invalid
        );
        view
    })
    .await
    .map_err(|_| ApiError::internal("validation failed"))?;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    game: GameSpec,
}

async fn state_handler(Body(request): Body<GameRequest>) -> ApiResult<Response> {
    let game = request.game.replay()?;
    Ok(Json(bridge::state(&game, true)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    game: GameSpec,
    action: String,
}

#[derive(Serialize)]
struct PlayView {
    /// The ply just played.
    ply: bridge::PlyView,
    /// The position after it, with the legal actions.
    state: bridge::StateView,
}

fn played(game: &agon_core::Game) -> PlayView {
    let ply = bridge::plies(game)
        .pop()
        .expect("an action was just played");
    PlayView {
        ply,
        state: bridge::state(game, true),
    }
}

async fn play(Body(request): Body<PlayRequest>) -> ApiResult<Response> {
    let mut game = request.game.replay()?;
    bridge::play(&mut game, &request.action).map_err(ApiError::invalid)?;
    Ok(Json(played(&game)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentRequest {
    game: GameSpec,
    /// An agent spec, like `alphabeta:depth=3`.
    agent: String,
    /// The agent's seed (default 0).
    #[serde(default)]
    seed: u64,
}

#[derive(Serialize)]
struct AgentView {
    ply: bridge::PlyView,
    state: bridge::StateView,
    /// The agent's canonical spec.
    agent: String,
    /// How long it thought.
    elapsed_ms: u64,
    /// Whether the server's time limit cut its search short.
    cut: bool,
}

async fn agent(State(state): Shared, Body(request): Body<AgentRequest>) -> ApiResult<Response> {
    let mut game = request.game.replay()?;
    let agent = search::agent(&request.agent, request.seed)?;
    let spec = agent.spec();
    let choice = search::choose(&state.searches, agent, game.clone()).await?;
    game.play(choice.action)
        .map_err(|e| ApiError::internal(format!("the agent's action does not play: {e}")))?;
    let view = played(&game);
    Ok(Json(AgentView {
        ply: view.ply,
        state: view.state,
        agent: spec,
        elapsed_ms: choice.elapsed.as_millis() as u64,
        cut: choice.cut,
    })
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    game: GameSpec,
    /// Deepest iteration, 1-64 (default: until the time is up).
    #[serde(default)]
    depth: Option<u32>,
    /// Milliseconds (default and maximum: the server's think limit).
    #[serde(default)]
    ms: Option<u64>,
}

async fn analyse(State(state): Shared, Body(request): Body<AnalyseRequest>) -> ApiResult<Response> {
    let game = request.game.replay()?;
    if let Some(depth) = request.depth {
        if !(1..=64).contains(&depth) {
            return Err(ApiError::invalid(format!(
                "depth: {depth} is not from 1 to 64"
            )));
        }
    }
    let limits = AnalysisLimits {
        depth: request.depth,
        time: request.ms.map(Duration::from_millis),
    };
    let stream = search::analyse(Arc::clone(&state.searches), game, limits)?;
    let mut response = axum::body::Body::from_stream(stream).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[derive(Serialize)]
struct EvaluateView {
    /// The terms, or `null` when the side to move has no legal action.
    evaluation: Option<bridge::EvaluationView>,
}

async fn evaluate(Body(request): Body<GameRequest>) -> ApiResult<Json<EvaluateView>> {
    let game = request.game.replay()?;
    Ok(Json(EvaluateView {
        evaluation: bridge::evaluation(game.position()),
    }))
}

async fn setup(Body(request): Body<SetupSpec>) -> ApiResult<Json<bridge::SetupView>> {
    Ok(Json(bridge::setup(&request)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    #[serde(default)]
    rules: Option<String>,
    notation: String,
}

async fn position(Body(request): Body<PositionRequest>) -> ApiResult<Response> {
    let rules = bridge::rules(request.rules.as_deref())?;
    let position = bridge::position(&request.notation, rules)?;
    Ok(Json(bridge::position_view(&position)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordRequest {
    game: GameSpec,
    /// Tags such as White, Black, Event (engine tags are decided by the game).
    #[serde(default)]
    tags: Vec<(String, String)>,
    /// The side to decide resigned.
    #[serde(default)]
    resigned: bool,
}

#[derive(Serialize)]
struct RecordView {
    /// The canonical record.
    text: String,
}

fn record_of(request: &RecordRequest) -> ApiResult<String> {
    let game = request.game.replay()?;
    let ended = if request.resigned {
        if let Some(error) = search::over(&game) {
            return Err(error);
        }
        Some(bridge::resignation(&game))
    } else {
        None
    };
    Ok(bridge::record_text(&game, &request.tags, ended))
}

async fn record(Body(request): Body<RecordRequest>) -> ApiResult<Json<RecordView>> {
    Ok(Json(RecordView {
        text: record_of(&request)?,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    #[serde(flatten)]
    record: RecordRequest,
    /// A file name in the server's save folder (`.agn` is added when missing).
    name: String,
    /// Replace a file of that name.
    #[serde(default)]
    overwrite: bool,
}

#[derive(Serialize)]
struct SaveView {
    /// Where the record was written.
    path: String,
    text: String,
}

async fn save(State(state): Shared, Body(request): Body<SaveRequest>) -> ApiResult<Json<SaveView>> {
    let text = record_of(&request.record)?;
    let name = super::save::file_name(&request.name)?;
    let path = state.save_dir.join(&name);
    let written = path.clone();
    let overwrite = request.overwrite;
    let bytes = text.clone().into_bytes();
    tokio::task::spawn_blocking(move || super::save::write(&written, &bytes, overwrite))
        .await
        .map_err(|_| ApiError::internal("saving failed"))??;
    Ok(Json(SaveView {
        path: path.display().to_string(),
        text,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_hosts_are_recognised() {
        for host in [
            "localhost",
            "localhost:1842",
            "127.0.0.1:80",
            "[::1]:1842",
            "[::1]",
        ] {
            assert!(is_local_host(host), "{host}");
        }
        for host in [
            "evil.example",
            "127.0.0.1.evil.example:1842",
            "",
            "localhost.evil:1",
        ] {
            assert!(!is_local_host(host), "{host}");
        }
    }
}
