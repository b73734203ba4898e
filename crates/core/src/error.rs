//! The error model shared by the client, the JS library and the server.
//!
//! Wire shape (from `where-the-spec-is-silent.md`):
//! `{"error": {"code", "message", "details", "timestamp"}, "meta": {"request_time"}}`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The stable codes of every failure, as JS users see them in `err.code`.
/// The first seven are the service's own wire codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// A parameter failed a check, on the client before sending or on the server (400).
    ValidationError,
    /// The cursor is unknown, tampered with, expired or belongs to other filters (400).
    InvalidCursor,
    /// Missing or unknown API key (401).
    Unauthorized,
    /// Unknown id (404).
    NotFound,
    /// Too many requests (429).
    RateLimited,
    /// The service failed (500 and other 5xx).
    InternalError,
    /// A platform behind the service is unavailable (503).
    PlatformUnavailable,
    /// The request never got an HTTP answer.
    NetworkError,
    /// No answer within the configured time.
    Timeout,
    /// The caller cancelled the request.
    Aborted,
    /// An answer arrived but is not the JSON the operation promises.
    DecodeError,
    /// Pagination stopped because the service repeated a cursor or offset.
    PaginationLoop,
    /// The answer's body is larger than the client accepts (`maxBodyBytes`).
    ResponseTooLarge,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 13] = [
        Self::ValidationError,
        Self::InvalidCursor,
        Self::Unauthorized,
        Self::NotFound,
        Self::RateLimited,
        Self::InternalError,
        Self::PlatformUnavailable,
        Self::NetworkError,
        Self::Timeout,
        Self::Aborted,
        Self::DecodeError,
        Self::PaginationLoop,
        Self::ResponseTooLarge,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ValidationError => "VALIDATION_ERROR",
            Self::InvalidCursor => "INVALID_CURSOR",
            Self::Unauthorized => "UNAUTHORIZED",
            Self::NotFound => "NOT_FOUND",
            Self::RateLimited => "RATE_LIMITED",
            Self::InternalError => "INTERNAL_ERROR",
            Self::PlatformUnavailable => "PLATFORM_UNAVAILABLE",
            Self::NetworkError => "NETWORK_ERROR",
            Self::Timeout => "TIMEOUT",
            Self::Aborted => "ABORTED",
            Self::DecodeError => "DECODE_ERROR",
            Self::PaginationLoop => "PAGINATION_LOOP",
            Self::ResponseTooLarge => "RESPONSE_TOO_LARGE",
        }
    }

    /// The code the service sends in an error body, if it is one of ours.
    pub fn from_wire(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == code)
    }

    /// Our code for a code the public service sends
    /// (`docs/spec/public-service-facts.md`, "Errors"), ours included;
    /// `None` for a code nobody documents (then the status decides).
    pub fn from_service_code(code: &str) -> Option<Self> {
        Some(match code {
            "INVALID_API_KEY" | "UNAUTHORIZED" => Self::Unauthorized,
            "VALIDATION_ERROR" | "INVALID_PARAMETERS" | "INVALID_LEAGUE" | "AWARD_ID_REQUIRED"
            | "FUTURE_ID_REQUIRED" => Self::ValidationError,
            "NOT_FOUND" | "MARKET_NOT_FOUND" | "USER_NOT_FOUND" | "NO_SNAPSHOTS_FOUND" => {
                Self::NotFound
            }
            "PLATFORM_UNAVAILABLE" | "PLATFORM_ERROR" => Self::PlatformUnavailable,
            other => return Self::from_wire(other),
        })
    }

    /// The HTTP status the service answers with for this code.
    pub fn http_status(self) -> u16 {
        match self {
            Self::ValidationError | Self::InvalidCursor => 400,
            Self::Unauthorized => 401,
            Self::NotFound => 404,
            Self::RateLimited => 429,
            Self::PlatformUnavailable => 503,
            Self::Timeout => 504,
            _ => 500,
        }
    }

    /// The TypeScript union of every code.
    pub fn typescript_union() -> String {
        let parts: Vec<String> = Self::ALL
            .iter()
            .map(|c| format!("\"{}\"", c.as_str()))
            .collect();
        format!("export type ErrorCode = {};", parts.join(" | "))
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the service said when it refused a request.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiFailure {
    pub status: u16,
    /// The service's code, verbatim (may be one this version does not know).
    pub code: String,
    pub message: String,
    pub details: Option<serde_json::Value>,
    /// From `Retry-After` (or `X-RateLimit-Reset`), when the service sent one.
    pub retry_after_ms: Option<u64>,
}

/// One entry of `details.validation_errors`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The parameter, when the service named one.
    pub field: Option<String>,
    pub message: String,
}

impl ApiFailure {
    /// `details.validation_errors` in one shape, whichever the service sent:
    /// a map `field -> [messages]` (or `field -> message`) or an array of
    /// `{field, message}` (`docs/spec/public-service-facts.md`).
    pub fn validation_errors(&self) -> Vec<FieldError> {
        use serde_json::Value;
        let text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let Some(errors) = self
            .details
            .as_ref()
            .and_then(|d| d.get("validation_errors"))
        else {
            return Vec::new();
        };
        match errors {
            Value::Object(map) => map
                .iter()
                .flat_map(|(field, messages)| {
                    let messages: Vec<String> = match messages {
                        Value::Array(list) => list.iter().map(text).collect(),
                        one => vec![text(one)],
                    };
                    messages.into_iter().map(|message| FieldError {
                        field: Some(field.clone()),
                        message,
                    })
                })
                .collect(),
            Value::Array(list) => list
                .iter()
                .map(|item| FieldError {
                    field: item
                        .get("field")
                        .or_else(|| item.get("parameter"))
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    message: item.get("message").map_or_else(|| text(item), text),
                })
                .collect(),
            other => vec![FieldError {
                field: None,
                message: text(other),
            }],
        }
    }
}

impl fmt::Display for ApiFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

/// Every way an operation can fail.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A check of the spec failed before anything was sent.
    #[error("invalid `{parameter}`: {message}")]
    InvalidArgument { parameter: String, message: String },
    /// The service answered 400 `VALIDATION_ERROR`.
    #[error("rejected by the service: {0}")]
    Rejected(ApiFailure),
    #[error("invalid cursor: {0}")]
    InvalidCursor(ApiFailure),
    #[error("unauthorized: {0}")]
    Unauthorized(ApiFailure),
    #[error("not found: {0}")]
    NotFound(ApiFailure),
    #[error("rate limited: {0}")]
    RateLimited(ApiFailure),
    #[error("platform unavailable: {0}")]
    PlatformUnavailable(ApiFailure),
    /// 5xx, or any other status the service should not have sent.
    #[error("server error: {0}")]
    Server(ApiFailure),
    #[error("network error: {message}")]
    Network { message: String },
    /// The service answered with a redirect to another origin, which the
    /// client does not follow: the request carries the API key and the
    /// caller's headers, which are for the service's origin alone.
    #[error(
        "redirected ({status}) to another origin, not followed: {}",
        Quoted(location)
    )]
    Redirected { status: u16, location: String },
    #[error("no answer within {after_ms} ms")]
    Timeout { after_ms: u64 },
    #[error("the request was aborted")]
    Aborted,
    #[error("could not decode the answer ({message}); body starts with: {body_snippet}")]
    Decode {
        status: Option<u16>,
        message: String,
        body_snippet: String,
    },
    #[error("pagination stopped: the service repeated {repeated}")]
    PaginationLoop { repeated: String },
    /// The body was not read past the client's cap (a hostile or broken
    /// server cannot make the client hold an unbounded answer).
    #[error("the answer is larger than {limit_bytes} bytes; not read further")]
    ResponseTooLarge { status: u16, limit_bytes: u64 },
}

/// Longest part of a body kept in a decode error.
const SNIPPET_CHARS: usize = 200;

fn snippet(body: &str) -> String {
    let mut out: String = body.chars().take(SNIPPET_CHARS).collect();
    if body.chars().nth(SNIPPET_CHARS).is_some() {
        out.push('…');
    }
    out
}

impl Error {
    pub fn invalid(parameter: impl Into<String>, message: impl Into<String>) -> Self {
        Self::InvalidArgument {
            parameter: parameter.into(),
            message: message.into(),
        }
    }

    pub fn decode(status: Option<u16>, message: impl fmt::Display, body: &str) -> Self {
        Self::Decode {
            status,
            message: message.to_string(),
            body_snippet: snippet(body),
        }
    }

    /// The error of a non-2xx answer: the JSON error body when there is one,
    /// else what the status says.
    ///
    /// Both envelopes of the public service decode here:
    /// `{error: {code, message, details?, timestamp?}, meta?}` and the
    /// profile operations' `{success: false, error: {...}}`. Without a
    /// `Retry-After` header, `details.retry_after` (seconds) is used.
    pub fn from_response(status: u16, body: &str, retry_after_ms: Option<u64>) -> Self {
        let failure = match serde_json::from_str::<ErrorBody>(body) {
            Ok(parsed) => {
                let retry_after_ms = retry_after_ms
                    .or_else(|| retry_after_in_details(parsed.error.details.as_ref()));
                let code = match parsed.error.code {
                    Some(code) if !code.is_empty() => code,
                    _ => default_code_for_status(status).as_str().to_owned(),
                };
                ApiFailure {
                    status,
                    code,
                    message: parsed.error.message.unwrap_or_default(),
                    details: parsed.error.details,
                    retry_after_ms,
                }
            }
            Err(_) => ApiFailure {
                status,
                code: default_code_for_status(status).as_str().to_owned(),
                message: format!("HTTP {status}: {}", snippet(body)),
                details: None,
                retry_after_ms,
            },
        };
        Self::from_failure(failure)
    }

    /// Sorts a failure by the service's code, falling back to the status.
    pub fn from_failure(failure: ApiFailure) -> Self {
        let code = ErrorCode::from_service_code(&failure.code)
            .unwrap_or_else(|| default_code_for_status(failure.status));
        match code {
            ErrorCode::ValidationError => Self::Rejected(failure),
            ErrorCode::InvalidCursor => Self::InvalidCursor(failure),
            ErrorCode::Unauthorized => Self::Unauthorized(failure),
            ErrorCode::NotFound => Self::NotFound(failure),
            ErrorCode::RateLimited => Self::RateLimited(failure),
            ErrorCode::PlatformUnavailable => Self::PlatformUnavailable(failure),
            _ => Self::Server(failure),
        }
    }

    pub fn code(&self) -> ErrorCode {
        match self {
            Self::InvalidArgument { .. } | Self::Rejected(_) => ErrorCode::ValidationError,
            Self::InvalidCursor(_) => ErrorCode::InvalidCursor,
            Self::Unauthorized(_) => ErrorCode::Unauthorized,
            Self::NotFound(_) => ErrorCode::NotFound,
            Self::RateLimited(_) => ErrorCode::RateLimited,
            Self::PlatformUnavailable(_) => ErrorCode::PlatformUnavailable,
            Self::Server(_) => ErrorCode::InternalError,
            Self::Network { .. } | Self::Redirected { .. } => ErrorCode::NetworkError,
            Self::Timeout { .. } => ErrorCode::Timeout,
            Self::Aborted => ErrorCode::Aborted,
            Self::Decode { .. } => ErrorCode::DecodeError,
            Self::PaginationLoop { .. } => ErrorCode::PaginationLoop,
            Self::ResponseTooLarge { .. } => ErrorCode::ResponseTooLarge,
        }
    }

    pub fn failure(&self) -> Option<&ApiFailure> {
        match self {
            Self::Rejected(f)
            | Self::InvalidCursor(f)
            | Self::Unauthorized(f)
            | Self::NotFound(f)
            | Self::RateLimited(f)
            | Self::PlatformUnavailable(f)
            | Self::Server(f) => Some(f),
            _ => None,
        }
    }

    /// HTTP status, when the service answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Decode { status, .. } => *status,
            Self::ResponseTooLarge { status, .. } | Self::Redirected { status, .. } => {
                Some(*status)
            }
            other => other.failure().map(|f| f.status),
        }
    }

    pub fn retry_after_ms(&self) -> Option<u64> {
        self.failure().and_then(|f| f.retry_after_ms)
    }

    /// The parameter a check named, for client-side checks.
    pub fn parameter(&self) -> Option<&str> {
        match self {
            Self::InvalidArgument { parameter, .. } => Some(parameter),
            _ => None,
        }
    }

    pub fn details(&self) -> Option<&serde_json::Value> {
        self.failure().and_then(|f| f.details.as_ref())
    }

    /// Whether sending the same request again may succeed: 408, 429, 5xx
    /// and network failures. Timeouts are retried too (the request is a
    /// GET). Any other status is the same answer next time, whatever code
    /// its body names: a 405, 413, 414, 422 or 431 says the request itself
    /// is refused.
    pub fn is_retryable(&self) -> bool {
        if let Some(failure) = self.failure()
            && !crate::retry::retryable_status(failure.status)
        {
            return false;
        }
        matches!(
            self,
            Self::RateLimited(_)
                | Self::Server(_)
                | Self::PlatformUnavailable(_)
                | Self::Network { .. }
                | Self::Timeout { .. }
        )
    }
}

fn default_code_for_status(status: u16) -> ErrorCode {
    match status {
        400 => ErrorCode::ValidationError,
        401 | 403 => ErrorCode::Unauthorized,
        404 => ErrorCode::NotFound,
        429 => ErrorCode::RateLimited,
        503 => ErrorCode::PlatformUnavailable,
        _ => ErrorCode::InternalError,
    }
}

/// The JSON error body of the service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorBody {
    pub error: ErrorDetail,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ErrorMeta>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorDetail {
    /// Absent or empty: the status decides.
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub details: Option<serde_json::Value>,
    /// ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            error: ErrorDetail {
                code: Some(code.as_str().to_owned()),
                message: Some(message.into()),
                details: None,
                timestamp: None,
            },
            meta: None,
        }
    }
}

/// `details.retry_after` of an error body (seconds, a number or a numeric
/// string) in milliseconds: the public service's 503s say when to come
/// back there rather than in a `Retry-After` header.
pub fn retry_after_in_details(details: Option<&serde_json::Value>) -> Option<u64> {
    let seconds = details?.get("retry_after")?;
    let seconds = seconds
        .as_f64()
        .or_else(|| crate::number::parse(seconds.as_str()?.trim()))?;
    (seconds.is_finite() && seconds >= 0.0).then_some((seconds * 1000.0) as u64)
}

/// A caller's text in an error message, between double quotes: `"`, `\`
/// and control characters escaped as `{:?}` would. Not `{:?}` itself:
/// that decides which Unicode characters print as they are with tables
/// that cost the npm package's wasm several KB; here every character from
/// U+00A0 up prints as it is.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\0' => f.write_str("\\0")?,
                c if c.is_control() => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_text_reads_as_debug_does() {
        let ascii: String = (0u8..0x80).map(char::from).collect();
        for text in [ascii.as_str(), "Café 中文 ok", "", "a\"b\\c\u{1b}"] {
            assert_eq!(Quoted(text).to_string(), format!("{text:?}"));
        }
    }

    use super::*;

    #[test]
    fn error_body_of_the_service_is_sorted_by_code() {
        let body = r#"{"error":{"code":"INVALID_CURSOR","message":"expired","details":{"parameter":"cursor"},"timestamp":"2025-01-01T00:00:00Z"},"meta":{"request_time":3}}"#;
        let err = Error::from_response(400, body, None);
        assert_eq!(err.code(), ErrorCode::InvalidCursor);
        assert_eq!(err.status(), Some(400));
        assert_eq!(
            err.details()
                .and_then(|d| d.get("parameter"))
                .and_then(|v| v.as_str()),
            Some("cursor")
        );
    }

    #[test]
    fn a_401_without_meta_is_unauthorized() {
        let err = Error::from_response(
            401,
            r#"{"error":{"code":"UNAUTHORIZED","message":"missing key"}}"#,
            None,
        );
        assert!(matches!(err, Error::Unauthorized(_)));
        assert!(!err.is_retryable());
    }

    #[test]
    fn a_non_json_body_falls_back_to_the_status_and_keeps_a_snippet() {
        let html = "<html>".repeat(100);
        let err = Error::from_response(502, &html, Some(1500));
        assert_eq!(err.code(), ErrorCode::InternalError);
        assert!(err.is_retryable());
        assert_eq!(err.retry_after_ms(), Some(1500));
        let message = err.to_string();
        assert!(message.contains("502"), "{message}");
        assert!(message.len() < 400, "snippet is bounded: {}", message.len());
    }

    #[test]
    fn unknown_service_code_uses_the_status() {
        let err = Error::from_response(
            429,
            r#"{"error":{"code":"SLOW_DOWN","message":"x"}}"#,
            Some(2000),
        );
        assert_eq!(err.code(), ErrorCode::RateLimited);
        assert_eq!(err.failure().map(|f| f.code.as_str()), Some("SLOW_DOWN"));
    }

    #[test]
    fn every_listed_code_of_the_public_service_is_mapped() {
        for (status, code, expected) in [
            (401, "INVALID_API_KEY", ErrorCode::Unauthorized),
            (401, "UNAUTHORIZED", ErrorCode::Unauthorized),
            (400, "VALIDATION_ERROR", ErrorCode::ValidationError),
            (400, "INVALID_PARAMETERS", ErrorCode::ValidationError),
            (400, "INVALID_LEAGUE", ErrorCode::ValidationError),
            (400, "AWARD_ID_REQUIRED", ErrorCode::ValidationError),
            (400, "FUTURE_ID_REQUIRED", ErrorCode::ValidationError),
            (400, "INVALID_CURSOR", ErrorCode::InvalidCursor),
            (404, "NOT_FOUND", ErrorCode::NotFound),
            (404, "MARKET_NOT_FOUND", ErrorCode::NotFound),
            (404, "USER_NOT_FOUND", ErrorCode::NotFound),
            (404, "NO_SNAPSHOTS_FOUND", ErrorCode::NotFound),
            (500, "INTERNAL_ERROR", ErrorCode::InternalError),
            (503, "PLATFORM_UNAVAILABLE", ErrorCode::PlatformUnavailable),
            (503, "PLATFORM_ERROR", ErrorCode::PlatformUnavailable),
            // Unknown codes: by status.
            (400, "SOMETHING_NEW", ErrorCode::ValidationError),
            (404, "GONE_AWAY", ErrorCode::NotFound),
            (503, "BUSY", ErrorCode::PlatformUnavailable),
            (418, "TEAPOT", ErrorCode::InternalError),
        ] {
            let body = format!(r#"{{"error":{{"code":"{code}","message":"m"}}}}"#);
            let err = Error::from_response(status, &body, None);
            assert_eq!(err.code(), expected, "{code}");
            assert_eq!(err.failure().map(|f| f.code.as_str()), Some(code));
        }
    }

    #[test]
    fn both_envelopes_and_retry_after_in_details() {
        let profile =
            r#"{"success":false,"error":{"code":"USER_NOT_FOUND","message":"no such user"}}"#;
        let err = Error::from_response(404, profile, None);
        assert_eq!(err.code(), ErrorCode::NotFound);
        assert_eq!(
            err.failure().map(|f| f.message.as_str()),
            Some("no such user")
        );

        let busy = r#"{"error":{"code":"PLATFORM_ERROR","message":"down","details":{"retry_after":30},"timestamp":"2025-01-01T00:00:00.000Z"},"meta":{"request_time":2}}"#;
        let err = Error::from_response(503, busy, None);
        assert_eq!(err.retry_after_ms(), Some(30_000));
        let err = Error::from_response(503, busy, Some(1_000));
        assert_eq!(err.retry_after_ms(), Some(1_000), "the header wins");

        let bare = r#"{"error":{}}"#;
        let err = Error::from_response(401, bare, None);
        assert_eq!(err.code(), ErrorCode::Unauthorized);
    }

    #[test]
    fn validation_errors_as_map_or_array_are_one_shape() {
        let map = r#"{"error":{"code":"VALIDATION_ERROR","message":"bad","details":{"validation_errors":{"limit":["too big","not a number"],"league":"unknown"}}}}"#;
        let array = r#"{"error":{"code":"INVALID_PARAMETERS","message":"bad","details":{"validation_errors":[{"field":"limit","message":"too big"},{"message":"general"}]}}}"#;
        let errors = |body: &str| {
            Error::from_response(400, body, None)
                .failure()
                .map(ApiFailure::validation_errors)
                .unwrap_or_default()
        };
        let field = |f: &str, m: &str| FieldError {
            field: Some(f.to_owned()),
            message: m.to_owned(),
        };
        assert_eq!(
            errors(map),
            [
                field("league", "unknown"),
                field("limit", "too big"),
                field("limit", "not a number")
            ]
        );
        assert_eq!(
            errors(array),
            [
                field("limit", "too big"),
                FieldError {
                    field: None,
                    message: "general".into()
                }
            ]
        );
    }

    #[test]
    fn every_code_round_trips_through_its_wire_name() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_wire(code.as_str()), Some(code));
        }
        assert!(ErrorCode::typescript_union().contains("\"RATE_LIMITED\""));
    }
}
