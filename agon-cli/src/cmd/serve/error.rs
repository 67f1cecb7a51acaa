//! Errors of the API: a status and a message in the CLI's words, sent as
//! `{"error": MESSAGE}`; and the JSON body extractor that turns every bad request (not
//! JSON, wrong fields, too large) into such an error instead of axum's plain-text one.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// An API error: the HTTP status and the message shown to the user.
#[derive(Debug)]
pub struct ApiError {
    /// 4xx for bad requests, 5xx for the server's own trouble.
    pub status: StatusCode,
    /// What went wrong, in the words the CLI uses.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 422: the request is well-formed but the game, action or position in it is not
    /// valid (an illegal action, a bad rule set, a bad position string).
    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }

    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 409: the request conflicts with what exists (a file to save over).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }

    /// 500: the server could not do what was asked (a file could not be written).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }

    /// 503: the server is busy or stopping.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: &self.message,
        };
        (self.status, axum::Json(body)).into_response()
    }
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body whose rejections are [`ApiError`]s with a clear message.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(describe(rejection)),
        }
    }
}

/// The message for a body that could not be read.
fn describe(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match &rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "the request body must be JSON, sent with `Content-Type: application/json`".to_string()
        }
        JsonRejection::JsonSyntaxError(e) => format!("the request body is not JSON: {}", inner(e)),
        JsonRejection::JsonDataError(e) => format!("the request body is not valid: {}", inner(e)),
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => format!(
            "the request body is too large (at most {} bytes here)",
            super::app::BODY_LIMIT
        ),
        other => format!("cannot read the request body: {}", other.body_text()),
    };
    ApiError { status, message }
}

/// The innermost cause of a rejection (serde's own message, with line and column).
fn inner(error: &dyn std::error::Error) -> String {
    let mut cause: &dyn std::error::Error = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}
