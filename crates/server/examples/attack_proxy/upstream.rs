//! The fake upstream the proxies stand in front of: it logs every request
//! target and header it receives, and answers by the id it is asked for;
//! then the rules over everything it saw.

use super::*;
use crate::attack_common::Report;
use crate::paths::is_an_operation;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One request the fake upstream received.
pub(crate) struct Seen {
    pub(crate) at: Instant,
    pub(crate) target: String,
    pub(crate) key: Option<String>,
    /// Every header value, joined (to look for a visitor's key anywhere).
    pub(crate) headers: String,
}

#[derive(Default)]
pub(crate) struct Upstream {
    pub(crate) seen: Mutex<Vec<Seen>>,
}

impl Upstream {
    pub(crate) fn len(&self) -> usize {
        self.seen.lock().map(|s| s.len()).unwrap_or(0)
    }
}

/// Ids with `fail502`, `html200`, `html403` get that answer, `large` the
/// large one, anything else an empty page of every list.
async fn upstream_answer(
    State(upstream): State<Arc<Upstream>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let target = uri.to_string();
    let key = headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let joined = headers
        .iter()
        .map(|(name, value)| format!("{name}: {}", String::from_utf8_lossy(value.as_bytes())))
        .collect::<Vec<_>>()
        .join("\n");
    if let Ok(mut seen) = upstream.seen.lock() {
        seen.push(Seen {
            at: Instant::now(),
            target: target.clone(),
            key,
            headers: joined,
        });
    }
    let html = |status: StatusCode| {
        let mut response = Response::new(Body::from("<html>no</html>"));
        *response.status_mut() = status;
        response
    };
    if target.contains("fail502") {
        return html(StatusCode::BAD_GATEWAY);
    }
    if target.contains("html200") {
        return html(StatusCode::OK);
    }
    if target.contains("html403") {
        return html(StatusCode::FORBIDDEN);
    }
    if target.contains("large") {
        let filler = "x".repeat(LARGE);
        return axum::Json(serde_json::json!({ "data": { "id": "large", "filler": filler } }))
            .into_response();
    }
    axum::Json(serde_json::json!({
        "data": [], "markets": [], "series": [], "events": [], "trades": [], "platforms": [],
        "pagination": null, "meta": {}
    }))
    .into_response()
}

pub(crate) async fn start_upstream() -> Result<(SocketAddr, Arc<Upstream>), String> {
    let upstream = Arc::new(Upstream::default());
    let app = axum::Router::new()
        .fallback(upstream_answer)
        .with_state(upstream.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("upstream: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((addr, upstream))
}

/// What the fake upstream received, over every scenario.
pub(crate) fn upstream_rules(report: &Report, upstream: &Upstream) {
    let Ok(seen) = upstream.seen.lock() else {
        report.violation("the upstream's log is poisoned".into());
        return;
    };
    report.rule(!seen.is_empty(), || "nothing reached the upstream".into());
    for request in seen.iter() {
        report.rule(is_an_operation(BASE, &request.target), || {
            format!(
                "the upstream saw {}, no operation under {BASE}",
                request.target
            )
        });
        report.rule(
            !request.target.contains("bust") && !request.target.contains("api_key"),
            || {
                format!(
                    "the upstream saw an undeclared parameter: {}",
                    request.target
                )
            },
        );
        report.rule(request.key.as_deref() == Some(UPSTREAM_KEY), || {
            format!("the upstream saw {:?} as the key", request.key)
        });
        report.rule(
            !request.headers.contains(GOOD) && !request.headers.contains(ATTACKER),
            || format!("a visitor's key reached the upstream: {}", request.target),
        );
    }
    report.rule(
        seen.iter()
            .any(|r| r.target == format!("{BASE}/trades?market_id=..%2F..%2Faccount")),
        || "the query-string id never reached the upstream as a query".into(),
    );
}
