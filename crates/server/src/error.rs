//! JSON error bodies with the right status, everywhere.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use predmarket_core::{ErrorBody, ErrorCode};
use serde_json::{Value, json};

/// The wire code of a 401.
pub const INVALID_API_KEY: &str = "INVALID_API_KEY";

/// The codes this server sends, one per failure it answers with.
pub const SENT: [ErrorCode; 7] = [
    ErrorCode::ValidationError,
    ErrorCode::InvalidCursor,
    ErrorCode::Unauthorized,
    ErrorCode::NotFound,
    ErrorCode::RateLimited,
    ErrorCode::InternalError,
    ErrorCode::PlatformUnavailable,
];

/// `error.code` of a failure on the wire.
pub fn wire_code(code: ErrorCode) -> &'static str {
    match code {
        // The public service's documented 401 code
        // (docs/spec/where-the-spec-is-silent.md, "Errors").
        ErrorCode::Unauthorized => INVALID_API_KEY,
        other => other.as_str(),
    }
}

#[derive(Debug, Clone)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    pub details: Option<Value>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            details: None,
        }
    }

    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    pub fn unauthorized(message: &str) -> Self {
        Self::new(ErrorCode::Unauthorized, message)
    }

    pub fn not_found(what: &str, id: &str) -> Self {
        Self::new(ErrorCode::NotFound, format!("{what} not found"))
            .with_details(json!({ "id": id }))
    }

    pub fn invalid(parameter: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        Self::new(
            ErrorCode::ValidationError,
            format!("invalid `{parameter}`: {message}"),
        )
        .with_details(json!({ "parameter": parameter, "reason": message }))
    }

    pub fn invalid_cursor(error: crate::cursor::CursorError) -> Self {
        Self::new(ErrorCode::InvalidCursor, error.message())
            .with_details(json!({ "parameter": "cursor", "reason": error.reason() }))
    }

    pub fn platform_unavailable(platform: &str) -> Self {
        Self::new(
            ErrorCode::PlatformUnavailable,
            format!("{platform} is unavailable"),
        )
        .with_details(json!({ "platform": platform }))
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InternalError, message)
    }

    pub fn rate_limited(limit: u32, retry_after_secs: u64) -> Self {
        Self::new(
            ErrorCode::RateLimited,
            format!("more than {limit} requests per minute"),
        )
        .with_details(json!({ "limit": limit, "retry_after_seconds": retry_after_secs }))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.code.http_status())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut body = ErrorBody::new(self.code, self.message);
        body.error.code = Some(wire_code(self.code).to_owned());
        body.error.details = self.details;
        body.error.timestamp = Some(crate::data::time::now_iso8601());
        let mut value = serde_json::to_value(&body).unwrap_or_else(|_| json!({}));
        if self.code != ErrorCode::Unauthorized {
            value["meta"] = json!({ "request_time": 0 });
        }
        (status, Json(value)).into_response()
    }
}

/// Any path that is no operation.
pub async fn not_found_fallback(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        ErrorCode::NotFound,
        format!("no operation at {}", uri.path()),
    )
}

/// A method other than GET (and HEAD, OPTIONS) on an operation's path.
pub async fn method_not_allowed_fallback(method: axum::http::Method) -> Response {
    let mut response = ApiError::new(
        ErrorCode::ValidationError,
        format!("method {method} is not allowed; every operation is a GET"),
    )
    .with_details(json!({ "allowed": ["GET"] }))
    .into_response();
    *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    response.headers_mut().insert(
        axum::http::header::ALLOW,
        axum::http::HeaderValue::from_static("GET"),
    );
    response
}

/// A panic in a handler: a JSON 500 instead of a dropped connection.
pub fn panic_response(_panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    // The panic payload may hold request data; it stays out of the answer.
    ApiError::internal("internal error").into_response()
}
