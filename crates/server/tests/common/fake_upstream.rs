//! A small fake upstream that counts what reaches it (a platforms list,
//! a markets list whose unlimited form is larger than both sockets'
//! buffers, a market that can be made gone) and a proxy in front of it,
//! for the proxy's operation tests (`proxy_ops.rs`, `proxy_connections.rs`).

#![allow(dead_code)] // each includer uses a different part

use super::proxy_kit::{self, Proxy};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get as route_get;
use predmarket_server::config::Config;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

pub const UPSTREAM_KEY: &str = "upstream-ops-Q4x-secret";
pub const VISITOR: &str = "visitor-ops";
/// How long a test waits for something that should happen, at most.
pub const CEILING: Duration = Duration::from_secs(60);
/// The size of the fake upstream's large answer: more than the socket
/// buffers of both ends hold, so a reader that stops keeps it unsent.
pub const LARGE: usize = 12 * 1024 * 1024;

/// The fake upstream's switches and counts.
#[derive(Default)]
pub struct Fake {
    pub requests: AtomicUsize,
    /// `/markets/{id}` answers a typed 404 from now on.
    pub gone: AtomicBool,
}

pub type Shared = Arc<Fake>;

pub async fn platforms(State(fake): State<Shared>) -> Response {
    fake.requests.fetch_add(1, Ordering::SeqCst);
    axum::Json(json!({ "data": [{ "id": "kestrel", "name": "Kestrel" }] })).into_response()
}

pub async fn markets(
    State(fake): State<Shared>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Response {
    fake.requests.fetch_add(1, Ordering::SeqCst);
    let limit: usize = query
        .as_deref()
        .and_then(|q| q.strip_prefix("limit="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // No limit: the large answer; `limit=N`: N small items.
    let body = if limit == 0 {
        let filler = "x".repeat(LARGE);
        json!({ "data": [], "filler": filler })
    } else {
        let items: Vec<Value> = (0..limit)
            .map(|i| json!({ "id": format!("m{i}"), "title": "a market of some length" }))
            .collect();
        json!({ "data": items })
    };
    axum::Json(body).into_response()
}

pub async fn market(State(fake): State<Shared>, Path(id): Path<String>) -> Response {
    fake.requests.fetch_add(1, Ordering::SeqCst);
    if fake.gone.load(Ordering::SeqCst) {
        let body = json!({ "error": { "code": "NOT_FOUND", "message": "no such market" } });
        return (StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    }
    axum::Json(json!({ "data": { "id": id, "title": "still here" } })).into_response()
}

pub struct Upstream {
    pub addr: SocketAddr,
    pub fake: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub async fn upstream() -> Upstream {
    let fake = Shared::default();
    let app = Router::new()
        .route("/platforms", route_get(platforms))
        .route("/markets", route_get(markets))
        .route("/markets/{id}", route_get(market))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Upstream { addr, fake, task }
}

pub fn proxy_config(upstream: SocketAddr) -> Config {
    let mut config = Config::for_tests(&format!("{VISITOR}:unlimited"));
    config.proxy.upstream = Some(format!("http://{upstream}"));
    config.proxy.upstream_key_file = Some(proxy_kit::key_file(
        "pm-ops-upstream-key",
        &format!("{UPSTREAM_KEY}\n"),
    ));
    config.proxy.max_wait_secs = 3.0;
    config
}

pub async fn proxy(config: Config) -> Proxy {
    proxy_kit::start(&config).await
}

/// Status, `X-Cache` and body text.
pub async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let response = reqwest::Client::builder()
        .timeout(CEILING)
        .build()
        .unwrap()
        .get(format!("http://{addr}{path}"))
        .header("X-API-Key", VISITOR)
        .send()
        .await
        .expect("an answer");
    let status = response.status().as_u16();
    let cache = response
        .headers()
        .get("x-cache")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    (status, cache, response.text().await.expect("a body"))
}
