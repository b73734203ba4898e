//! Where a stream's pollers read their resources: the local data (the
//! operations' own handlers, called in-process) or, in proxy mode, the
//! proxy's cache and upstream, as one more visitor with a lane of its own.
//! Either way a poll is the very request an ordinary reader makes, so a
//! poll refreshes what ordinary readers see, and a fresh cache entry costs
//! a poll nothing.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::response::Response;
use futures::future::BoxFuture;
use predmarket_core::request::Operation;
use predmarket_core::{ErrorCode, HttpRequest};
use serde_json::Value;
use std::sync::Arc;
use tower::ServiceExt;

/// Largest answer a poll reads (an order book or a game is far smaller).
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// Why data is not fresh: the contract's reasons (the server tells the
/// first three).
pub use predmarket_core::live::StaleReason;

/// One poll's answer.
#[derive(Debug)]
pub enum Answer {
    /// A 200 with its JSON, and how old the data was when it was read (a
    /// cached answer's age).
    Fresh { body: Value, age_ms: u64 },
    /// Asking again later may help.
    Failed {
        reason: StaleReason,
        status: Option<u16>,
        code: String,
        message: String,
    },
    /// Asking again cannot help (`change::ends_watch`): an unknown id, a
    /// request the service refuses.
    Refused {
        status: u16,
        code: String,
        message: String,
    },
}

/// The upstream budget the pollers share with visitors.
#[derive(Debug, Clone, Copy)]
pub struct BudgetView {
    pub limit_per_minute: u32,
    pub remaining: u32,
}

/// What pollers read from.
pub trait Source: Send + Sync + 'static {
    /// Reads one resource.
    fn fetch(&self, op: Operation, http: HttpRequest) -> BoxFuture<'static, Answer>;
    /// Reads one resource waiting in budget lane `lane` (a topic's first
    /// poll waits in its opener's); a source without a budget reads it
    /// as `fetch` does.
    fn fetch_in_lane(
        &self,
        op: Operation,
        http: HttpRequest,
        lane: u64,
    ) -> BoxFuture<'static, Answer> {
        let _ = lane;
        self.fetch(op, http)
    }
    /// The budget polls spend, or `None` where they spend none (local data).
    fn budget(&self) -> Option<BudgetView>;
}

/// The local data: the operations' handlers behind no key (the stream's
/// key was checked when it opened).
pub struct Local {
    router: Router,
}

impl Local {
    pub fn new(router: Router) -> Self {
        Self { router }
    }
}

impl Source for Local {
    fn fetch(&self, _op: Operation, http: HttpRequest) -> BoxFuture<'static, Answer> {
        let router = self.router.clone();
        Box::pin(async move {
            let request = match Request::get(http.path_and_query()).body(Body::empty()) {
                Ok(request) => request,
                Err(error) => {
                    return Answer::Refused {
                        status: 400,
                        code: ErrorCode::ValidationError.as_str().into(),
                        message: format!("the watch's request could not be built: {error}"),
                    };
                }
            };
            match router.oneshot(request).await {
                Ok(response) => read(response).await,
                Err(never) => match never {},
            }
        })
    }

    fn budget(&self) -> Option<BudgetView> {
        None
    }
}

/// Proxy mode: through the proxy's cache, single flight, breaker and
/// budget (`proxy::poll`).
pub struct Proxied {
    pub state: Arc<crate::proxy::ProxyState>,
}

impl Source for Proxied {
    fn fetch(&self, op: Operation, http: HttpRequest) -> BoxFuture<'static, Answer> {
        self.fetch_in_lane(op, http, crate::proxy::budget::STREAM_LANE)
    }

    fn fetch_in_lane(
        &self,
        op: Operation,
        http: HttpRequest,
        lane: u64,
    ) -> BoxFuture<'static, Answer> {
        let state = self.state.clone();
        Box::pin(async move { read(crate::proxy::poll(&state, op, http, lane).await).await })
    }

    fn budget(&self) -> Option<BudgetView> {
        Some(BudgetView {
            limit_per_minute: self.state.budget_limit(),
            remaining: self.state.budget_left(),
        })
    }
}

/// A poll's answer read: the status, the JSON, the age of cached data.
async fn read(response: Response) -> Answer {
    let status = response.status();
    let age_ms = age_ms(response.headers());
    let served_stale = response
        .headers()
        .get("x-cache")
        .is_some_and(|v| v.as_bytes() == b"STALE");
    let bytes = match axum::body::to_bytes(response.into_body(), MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(error) => {
            return Answer::Failed {
                reason: StaleReason::PollFailed,
                status: Some(status.as_u16()),
                code: ErrorCode::NetworkError.as_str().into(),
                message: format!("the answer could not be read: {error}"),
            };
        }
    };
    let body: Option<Value> = serde_json::from_slice(&bytes).ok();
    if status == StatusCode::OK {
        return match body {
            // The proxy's last good answer, served because the upstream
            // failed: the stream published that data (or newer) already.
            Some(_) if served_stale => Answer::Failed {
                reason: StaleReason::PollFailed,
                status: Some(200),
                code: ErrorCode::PlatformUnavailable.as_str().into(),
                message: format!(
                    "the upstream failed; the proxy holds data {} s old",
                    age_ms / 1000
                ),
            },
            Some(body) if body.is_object() => Answer::Fresh { body, age_ms },
            _ => Answer::Failed {
                reason: StaleReason::PollFailed,
                status: Some(200),
                code: ErrorCode::DecodeError.as_str().into(),
                message: "the answer was not a JSON object".into(),
            },
        };
    }
    let error = body.as_ref().and_then(|b| b.get("error"));
    let text = |key: &str| {
        error
            .and_then(|e| e.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    // Only the service's own typed refusal (its JSON error, with a code)
    // ends a watch: a bare 404 may be a path or a proxy between, not the
    // resource.
    let typed = text("code");
    let refusal = typed
        .as_deref()
        .is_some_and(|code| predmarket_core::change::ends_watch(Some(status.as_u16()), code));
    let code = typed.unwrap_or_else(|| ErrorCode::InternalError.as_str().into());
    let message = text("message").unwrap_or_else(|| format!("status {}", status.as_u16()));
    let status = status.as_u16();
    if refusal {
        return Answer::Refused {
            status,
            code,
            message,
        };
    }
    Answer::Failed {
        reason: if status == 429 {
            StaleReason::Budget
        } else {
            StaleReason::PollFailed
        },
        status: Some(status),
        code,
        message,
    }
}

/// `Age` in milliseconds (whole seconds on the wire).
fn age_ms(headers: &HeaderMap) -> u64 {
    headers
        .get(axum::http::header::AGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(0, |secs| secs.saturating_mul(1000))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, body: &'static str) -> Response {
        let mut response = Response::new(Body::from(body));
        *response.status_mut() = StatusCode::from_u16(status).expect("status");
        response
    }

    #[tokio::test]
    async fn only_a_typed_refusal_is_a_refusal() {
        let typed = r#"{"error":{"code":"NOT_FOUND","message":"no such market"}}"#;
        assert!(matches!(
            read(response(404, typed)).await,
            Answer::Refused { status: 404, ref code, .. } if code == "NOT_FOUND"
        ));
        // A bare 404 (a path, a proxy between): asked again later.
        assert!(matches!(
            read(response(404, "<html>not found</html>")).await,
            Answer::Failed {
                reason: StaleReason::PollFailed,
                status: Some(404),
                ..
            }
        ));
        // Typed, but not a refusal: 429 and 5xx are asked again.
        let limited = r#"{"error":{"code":"RATE_LIMITED","message":"slow down"}}"#;
        assert!(matches!(
            read(response(429, limited)).await,
            Answer::Failed {
                reason: StaleReason::Budget,
                ..
            }
        ));
    }
}
