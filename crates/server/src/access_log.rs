//! One log event per request (`logs`): method, target, status, duration.
//! Never a header (so never `X-API-Key`), and any configured key that a
//! careless client put into the query string is scrubbed from the target
//! before it becomes a field.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;
use std::time::Instant;

/// When the request arrived, for `meta.request_time`.
#[derive(Debug, Clone, Copy)]
pub struct Started(pub Instant);

impl Started {
    /// Milliseconds since the request arrived.
    pub fn elapsed_ms(&self) -> f64 {
        (self.0.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Started {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Started>()
            .copied()
            .unwrap_or(Started(Instant::now())))
    }
}

pub struct AccessLog {
    enabled: bool,
    secrets: Vec<Vec<u8>>,
}

/// Query parameters whose values are never logged, whatever they hold.
const SECRET_PARAMS: [&str; 6] = ["api_key", "apikey", "key", "x-api-key", "token", "secret"];

impl AccessLog {
    pub fn new(enabled: bool, secrets: Vec<Vec<u8>>) -> Self {
        Self { enabled, secrets }
    }

    /// The target (path and query) of one request as it may be logged:
    /// secret-named parameters and every configured key redacted.
    pub fn target(&self, uri: &axum::http::Uri) -> String {
        let mut target = uri.path().to_owned();
        if let Some(query) = uri.query() {
            target.push('?');
            let mut first = true;
            for pair in query.split('&') {
                if !first {
                    target.push('&');
                }
                first = false;
                let name = pair.split('=').next().unwrap_or("");
                if SECRET_PARAMS.iter().any(|s| name.eq_ignore_ascii_case(s)) {
                    target.push_str(name);
                    target.push_str("=[redacted]");
                } else {
                    target.push_str(pair);
                }
            }
        }
        self.redact(target)
    }

    /// `text` with every configured key replaced, or `None` when logging
    /// is off (`--quiet`). For the proxy's own events.
    pub fn scrub(&self, line: &str) -> Option<String> {
        self.enabled.then(|| self.redact(line.to_owned()))
    }

    fn redact(&self, mut line: String) -> String {
        for secret in &self.secrets {
            if let Ok(secret) = std::str::from_utf8(secret)
                && !secret.is_empty()
                && line.contains(secret)
            {
                line = line.replace(secret, "[redacted]");
            }
        }
        line
    }
}

/// Wraps `app` in [`record`] when the log is on. Off (`--quiet`), the layer
/// would only box every request once more: `Started` is then set by the
/// operations' own middleware.
pub fn wrap(app: axum::Router, log: Arc<AccessLog>) -> axum::Router {
    if log.enabled {
        app.layer(axum::middleware::from_fn_with_state(log, record))
    } else {
        app
    }
}

pub async fn record(
    axum::extract::State(log): axum::extract::State<Arc<AccessLog>>,
    mut request: Request,
    next: Next,
) -> Response {
    // Installed only when the log is on (`wrap`).
    let started = Instant::now();
    request.extensions_mut().insert(Started(started));
    let method = request.method().clone();
    let uri = request.uri().clone();
    let response = next.run(request).await;
    log.line(&method, &uri, response.status(), started);
    response
}

impl AccessLog {
    /// Whether lines are written (not `--quiet`).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The line of one request answered `status`, which arrived at
    /// `started`: written by [`record`] and by the front service of kept
    /// answers (`front`) alike.
    pub fn line(
        &self,
        method: &axum::http::Method,
        uri: &axum::http::Uri,
        status: axum::http::StatusCode,
        started: Instant,
    ) {
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        tracing::info!(
            method = method.as_str(),
            target = %self.target(uri),
            status = status.as_u16(),
            ms = (ms * 100.0).round() / 100.0,
            "request"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_never_reach_the_line() {
        let log = AccessLog::new(true, vec![b"s3cr3t".to_vec()]);
        let uri: axum::http::Uri = "/markets?limit=5&api_key=abc&q=s3cr3t".parse().unwrap();
        assert_eq!(
            log.target(&uri),
            "/markets?limit=5&api_key=[redacted]&q=[redacted]"
        );
    }
}
