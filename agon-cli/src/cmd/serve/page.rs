//! The page: one HTML file, one script and one style sheet, compiled into the binary (no
//! CDN, no build step). The script is plain JavaScript that draws the board as SVG from
//! `/api/geometry` and asks the API for everything about the game.

use axum::http::{header, HeaderName};
use axum::response::IntoResponse;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/app.css");
const ICON: &str = include_str!("page/favicon.svg");

/// Only the server's own files: no inline script, nothing from elsewhere.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; \
    script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
    form-action 'none'";

fn file(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    let headers: [(HeaderName, &'static str); 4] = [
        (header::CONTENT_TYPE, content_type),
        (header::CACHE_CONTROL, "no-cache"),
        (header::CONTENT_SECURITY_POLICY, POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ];
    (headers, body)
}

/// `/`: the page.
pub async fn index() -> impl IntoResponse {
    file("text/html; charset=utf-8", INDEX)
}

/// `/app.js`.
pub async fn script() -> impl IntoResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `/app.css`.
pub async fn style() -> impl IntoResponse {
    file("text/css; charset=utf-8", STYLE)
}

/// `/favicon.svg`.
pub async fn icon() -> impl IntoResponse {
    file("image/svg+xml", ICON)
}
