//! What the recorder's tests share: an archive directory, a fast
//! recording configuration, a stream reader, the local server recorded,
//! and a proxy in front of an upstream that can be switched off
//! (included by `#[path]` beside `mod common`).

#![allow(dead_code)] // each includer uses a different part

use crate::common::{self, KEY, TestServer};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use predmarket_core::change::WatchKind;
use predmarket_server::config::Config;
use predmarket_server::record::archive::{self, Filter, Recorded};
use predmarket_server::record::{Recorder, writer};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub const CEILING: Duration = Duration::from_secs(60);

/// A fresh directory for one test's archive, named `archive` as the
/// queries of docs/record.md name it.
pub fn archive_dir(name: &str) -> PathBuf {
    let parent = std::env::temp_dir().join(format!("pm-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    parent.join("archive")
}

/// Books polled every 50 ms, parts written every 100 ms.
pub fn fast(mut config: Config, dir: &Path) -> Config {
    config.stream.interval_scale = 0.01;
    config.stream.heartbeat_secs = 0.2;
    config.record.dir = Some(dir.to_owned());
    config.record.roll_secs = 0.1;
    config.record.pause_secs = 0.3;
    config
}

/// A recorder writing to `dir` and copying each part to the object store
/// at `store` (a URL), that never rolls a part by size or time itself.
pub fn storing_recorder(dir: &Path, store: String) -> Arc<Recorder> {
    Recorder::start(
        writer::Settings {
            dir: dir.to_owned(),
            max_bytes: None,
            part_bytes: usize::MAX,
            roll: Duration::from_secs(3_600),
            pause: Duration::from_secs(1),
            store: Some(store),
        },
        1.0,
    )
    .expect("starts")
}

/// Three answers of market `m` on three days (a book, a game, a book),
/// each flushed into a part of its own.
pub fn record_three_days(recorder: &Recorder) {
    for (i, kind) in [WatchKind::Orderbook, WatchKind::Game, WatchKind::Orderbook]
        .into_iter()
        .enumerate()
    {
        let body = serde_json::json!({"data": {"market_id": "m", "n": i}});
        recorder.answered(
            kind,
            "m",
            1_700_000_000_000 + i as i64 * 86_400_000,
            0,
            body,
        );
        assert!(recorder.flush(CEILING));
    }
}

/// One Server-Sent Event: its name and data.
#[derive(Debug, Clone)]
pub struct Event {
    pub name: String,
    pub data: Value,
}

pub struct Reader {
    response: reqwest::Response,
    buffer: String,
}

impl Reader {
    pub async fn open(base: &str, resource: &str) -> Reader {
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("watch", resource)
            .finish();
        let response = reqwest::Client::new()
            .get(format!("{base}/stream?{query}"))
            .header("X-API-Key", KEY)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200, "{resource}");
        Reader {
            response,
            buffer: String::new(),
        }
    }

    pub async fn next(&mut self) -> Event {
        tokio::time::timeout(CEILING, async {
            loop {
                while let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    let mut name = None;
                    let mut data = None;
                    for line in block.lines() {
                        if let Some(v) = line.strip_prefix("event: ") {
                            name = Some(v.to_owned());
                        } else if let Some(v) = line.strip_prefix("data: ") {
                            data = serde_json::from_str(v).ok();
                        }
                    }
                    if let (Some(name), Some(data)) = (name, data) {
                        return Event { name, data };
                    }
                }
                let chunk = self
                    .response
                    .chunk()
                    .await
                    .expect("reads")
                    .expect("goes on");
                self.buffer.push_str(&String::from_utf8_lossy(&chunk));
            }
        })
        .await
        .expect("an event within the ceiling")
    }

    pub async fn until(&mut self, name: &str) -> Vec<Event> {
        let mut events = Vec::new();
        loop {
            let event = self.next().await;
            let done = event.name == name;
            events.push(event);
            if done {
                return events;
            }
        }
    }
}

/// The local server on loopback, recorded by `recorder`.
pub async fn local(
    config: &Config,
    recorder: &Arc<Recorder>,
) -> (String, tokio::task::JoinHandle<()>) {
    let app = predmarket_server::app_with_recorder(config, common::default_data(), Some(recorder));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}"), task)
}

pub fn start(config: &Config) -> Arc<Recorder> {
    let settings = config.record.settings().expect("recording on");
    Recorder::start(settings, config.stream.interval_scale).expect("the recorder starts")
}

pub async fn book_market(server: &TestServer) -> String {
    let body = server
        .ok("/markets?status=open&limit=50&platform=platform_a")
        .await;
    body["markets"][0]["id"]
        .as_str()
        .expect("an open market")
        .to_owned()
}

/// The archive's rows once `enough` holds of them.
pub async fn rows_until(dir: &Path, enough: impl Fn(&[Recorded]) -> bool) -> Vec<Recorded> {
    let deadline = tokio::time::Instant::now() + CEILING;
    loop {
        let rows = archive::read(dir, &Filter::default(), usize::MAX).expect("the archive reads");
        if enough(&rows) {
            return rows;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "rows so far: {}",
            rows.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn answer(row: &Recorded) -> Value {
    serde_json::from_str(&row.row.answer).expect("an answer is JSON")
}

#[derive(Clone)]
pub struct Switch(pub Arc<AtomicBool>);

pub async fn switch(State(down): State<Switch>, request: Request, next: Next) -> Response {
    if down.0.load(Ordering::SeqCst) {
        let body =
            serde_json::json!({"error": {"code": "INTERNAL_ERROR", "message": "down for a test"}});
        return (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            axum::Json(body),
        )
            .into_response();
    }
    next.run(request).await
}

pub const UPSTREAM_KEY: &str = "record-upstream-secret-key";

/// The local server behind a switch, and the proxy in front of it with
/// `config`'s recording.
pub async fn proxied(
    config: &Config,
) -> (
    String,
    Arc<AtomicBool>,
    Vec<tokio::task::JoinHandle<()>>,
    predmarket_server::proxy_mode::Proxy,
) {
    let down = Arc::new(AtomicBool::new(false));
    let mut upstream_config = common::config();
    upstream_config.api_key = vec![format!("{UPSTREAM_KEY}:unlimited")];
    let app = predmarket_server::app_with_data(&upstream_config, common::default_data()).layer(
        axum::middleware::from_fn_with_state(Switch(down.clone()), switch),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let upstream: SocketAddr = listener.local_addr().expect("addr");
    let upstream_task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let key_file = std::env::temp_dir().join(format!(
        "pm-record-key-{}-{}",
        std::process::id(),
        upstream.port()
    ));
    std::fs::write(&key_file, UPSTREAM_KEY).expect("key file");
    let mut config = config.clone();
    config.proxy.upstream = Some(format!("http://{upstream}"));
    config.proxy.upstream_key_file = Some(key_file.clone());
    config.proxy.upstream_limit = 6_000;
    config.proxy.breaker_cooldown_secs = 0.2;
    config.proxy.max_wait_secs = 3.0;
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .unwrap_or_else(|e| panic!("proxy: {e}"));
    let _ = std::fs::remove_file(&key_file);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let limits = config.connection_limits();
    let router = built.router.clone();
    let task = tokio::spawn(async move {
        let _ = predmarket_server::listen::serve(listener, router, limits, std::future::pending())
            .await;
    });
    (
        format!("http://{addr}"),
        down,
        vec![upstream_task, task],
        built,
    )
}
