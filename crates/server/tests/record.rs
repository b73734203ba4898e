//! `--record DIR` over real loopback HTTP: a watched book's polls become
//! rows that hold what its stream served; through the proxy, an upstream
//! outage becomes a `gap` row and no key reaches the archive; a failed
//! write pauses recording while serving goes on; the quota deletes the
//! oldest parts first. Waits poll under a generous ceiling; nothing is
//! timed.

mod common;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use common::{KEY, TestServer};
use predmarket_core::change::WatchKind;
use predmarket_server::config::Config;
use predmarket_server::record::archive::{self, Filter, Recorded};
use predmarket_server::record::continuity::Continuity;
use predmarket_server::record::{Recorder, writer};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const CEILING: Duration = Duration::from_secs(60);

/// A fresh directory for one test's archive, named `archive` as the
/// queries of docs/record.md name it.
fn archive_dir(name: &str) -> PathBuf {
    let parent = std::env::temp_dir().join(format!("pm-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    parent.join("archive")
}

/// The Python with DuckDB and pyarrow (`crates/server/archive_query.sh`
/// sets it); without it the archive is not read as users read it.
const PYTHON: &str = "PREDMARKET_ARCHIVE_PYTHON";

/// The archive read with DuckDB and with pyarrow gives the rows the
/// server wrote, and each query of docs/record.md answers (a book at
/// `at_ms`, mid per minute, gaps per day: the archive holds a gap).
fn read_as_users_do(dir: &Path, id: &str, at_ms: i64, written: &[Recorded]) {
    let Some(python) = std::env::var_os(PYTHON) else {
        eprintln!(
            "{PYTHON} unset: the archive is not read with DuckDB and pyarrow (crates/server/archive_query.sh sets it)"
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = std::process::Command::new(python)
        .arg(root.join("tests/archive_query.py"))
        .arg(root.join("../../docs/record.md"))
        .arg(id)
        .arg(at_ms.to_string())
        .current_dir(dir.parent().expect("the archive's parent"))
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let read: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let expected: Vec<Value> = written
        .iter()
        .map(|r| {
            serde_json::json!([
                r.kind.name(),
                r.row.id,
                r.row.seq,
                r.row.continuity.name(),
                r.row.continuity.gap_ms(),
                r.row.received_ms,
                r.row.answer
            ])
        })
        .collect();
    for reader in ["duckdb", "pyarrow"] {
        assert_eq!(read[reader].as_array(), Some(&expected), "{reader}");
    }
    let queries = read["queries"].as_array().expect("queries");
    assert_eq!(queries.len(), 3, "docs/record.md shows three queries");
    for query in queries {
        assert!(
            query["rows"].as_u64().is_some_and(|n| n > 0),
            "no rows: {query}"
        );
    }
}

/// Books polled every 50 ms, parts written every 100 ms.
fn fast(mut config: Config, dir: &Path) -> Config {
    config.stream.interval_scale = 0.01;
    config.stream.heartbeat_secs = 0.2;
    config.record.dir = Some(dir.to_owned());
    config.record.roll_secs = 0.1;
    config.record.pause_secs = 0.3;
    config
}

/// One Server-Sent Event: its name and data.
#[derive(Debug, Clone)]
struct Event {
    name: String,
    data: Value,
}

struct Reader {
    response: reqwest::Response,
    buffer: String,
}

impl Reader {
    async fn open(base: &str, resource: &str) -> Reader {
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

    async fn next(&mut self) -> Event {
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

    async fn until(&mut self, name: &str) -> Vec<Event> {
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
async fn local(config: &Config, recorder: &Arc<Recorder>) -> (String, tokio::task::JoinHandle<()>) {
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

fn start(config: &Config) -> Arc<Recorder> {
    let settings = config.record.settings().expect("recording on");
    Recorder::start(settings, config.stream.interval_scale).expect("the recorder starts")
}

async fn book_market(server: &TestServer) -> String {
    let body = server
        .ok("/markets?status=open&limit=50&platform=platform_a")
        .await;
    body["markets"][0]["id"]
        .as_str()
        .expect("an open market")
        .to_owned()
}

/// The archive's rows once `enough` holds of them.
async fn rows_until(dir: &Path, enough: impl Fn(&[Recorded]) -> bool) -> Vec<Recorded> {
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

fn answer(row: &Recorded) -> Value {
    serde_json::from_str(&row.row.answer).expect("an answer is JSON")
}

#[tokio::test]
async fn a_watched_book_is_recorded_as_its_stream_served_it() {
    let dir = archive_dir("served");
    let config = fast(common::unlimited(), &dir);
    let recorder = start(&config);
    let (base, task) = local(&config, &recorder).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut reader = Reader::open(&base, &format!("orderbook:{id}")).await;
    let mut served = vec![reader.next().await];
    assert_eq!(served[0].name, "snapshot");
    served.extend(reader.until("change").await);
    served.extend(reader.until("change").await);
    // Every answer the stream served whole is a recorded answer.
    let whole: Vec<Value> = served
        .iter()
        .filter(|e| e.name == "snapshot" || e.name == "change")
        .map(|e| e.data["data"].clone())
        .collect();
    let rows = rows_until(&dir, |rows| {
        let answers: Vec<Value> = rows.iter().map(answer).collect();
        whole.iter().all(|w| answers.contains(w))
    })
    .await;
    task.abort();
    assert!(rows.len() >= 3);
    assert!(
        rows.iter()
            .all(|r| r.kind == WatchKind::Orderbook && r.row.id == id)
    );
    assert_eq!(rows[0].row.continuity, Continuity::First);
    // Nothing failed: each later row continues (or, on a machine that
    // stalled past GAP_FACTOR intervals of 50 ms, is a gap in time).
    assert!(
        rows[1..]
            .iter()
            .all(|r| matches!(r.row.continuity, Continuity::Continues | Continuity::Gap(_))),
        "{rows:?}"
    );
    let seqs: Vec<i64> = rows.iter().map(|r| r.row.seq).collect();
    assert_eq!(seqs, (1..=rows.len() as i64).collect::<Vec<_>>());
    assert!(rows.iter().all(|r| r.row.wanted_ms == Some(50)));
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

/// The proxy's upstream: the local server, answering 503 while `down`.
#[derive(Clone)]
struct Switch(Arc<AtomicBool>);

async fn switch(State(down): State<Switch>, request: Request, next: Next) -> Response {
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

const UPSTREAM_KEY: &str = "record-upstream-secret-key";

/// The local server behind a switch, and the proxy in front of it with
/// `config`'s recording.
async fn proxied(
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

#[tokio::test]
async fn through_the_proxy_an_outage_is_a_gap_row_and_no_key_is_written() {
    let dir = archive_dir("outage");
    let config = fast(Config::for_tests(&format!("{KEY}:unlimited")), &dir);
    let (base, down, tasks, proxy) = proxied(&config).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut reader = Reader::open(&base, &format!("orderbook:{id}")).await;
    assert_eq!(reader.next().await.name, "snapshot");
    rows_until(&dir, |rows| rows.len() >= 2).await;
    down.store(true, Ordering::SeqCst);
    reader.until("stale").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    down.store(false, Ordering::SeqCst);
    reader.until("live").await;
    let rows = rows_until(&dir, |rows| {
        rows.iter()
            .any(|r| matches!(r.row.continuity, Continuity::Gap(_)))
    })
    .await;
    let gap = rows
        .iter()
        .find(|r| matches!(r.row.continuity, Continuity::Gap(_)))
        .expect("a gap row");
    let Continuity::Gap(gap_ms) = gap.row.continuity else {
        unreachable!()
    };
    assert!(gap_ms >= 300, "the gap spans the outage: {gap_ms} ms");
    assert_eq!(
        gap.row.seq,
        rows.iter()
            .filter(|r| r.row.received_ms < gap.row.received_ms)
            .count() as i64
            + 1
    );
    // Neither the proxy's upstream key nor the visitor's reaches a row or a file.
    let recorder = proxy.recorder.clone().expect("recording");
    assert!(recorder.flush(CEILING));
    for part in predmarket_server::record::layout::parts(&dir) {
        let bytes = std::fs::read(&part.path).expect("part reads");
        for key in [UPSTREAM_KEY, KEY] {
            assert!(
                !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                "{key} in {}",
                part.path.display()
            );
        }
    }
    tasks.iter().for_each(|t| t.abort());
    let rows = archive::read(&dir, &Filter::default(), usize::MAX).expect("reads");
    for row in &rows {
        assert!(!row.row.answer.contains(UPSTREAM_KEY) && !row.row.answer.contains(KEY));
    }
    read_as_users_do(&dir, &id, gap.row.received_ms, &rows);
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

#[tokio::test]
async fn a_failed_write_pauses_recording_and_serving_goes_on() {
    let dir = archive_dir("paused");
    let config = fast(common::unlimited(), &dir);
    let recorder = start(&config);
    // A file where the partition's directory goes: every write fails, as
    // on a full disk.
    std::fs::create_dir_all(&dir).expect("dir");
    let blocker = dir.join("kind=orderbook");
    std::fs::write(&blocker, b"in the way").expect("blocker");
    let (base, task) = local(&config, &recorder).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut reader = Reader::open(&base, &format!("orderbook:{id}")).await;
    assert_eq!(reader.next().await.name, "snapshot");
    let deadline = tokio::time::Instant::now() + CEILING;
    while recorder.stats.write_errors.load(Ordering::Relaxed) == 0 {
        assert!(tokio::time::Instant::now() < deadline, "no write failed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut metrics = String::new();
    recorder.render_metrics(&mut metrics);
    assert!(
        metrics.contains("predmarket_record_write_errors_total "),
        "{metrics}"
    );
    // Serving goes on while nothing can be written.
    reader.until("change").await;
    reader.until("change").await;
    assert_eq!(recorder.stats.rows_written.load(Ordering::Relaxed), 0);
    std::fs::remove_file(&blocker).expect("blocker removed");
    let rows = rows_until(&dir, |rows| !rows.is_empty()).await;
    task.abort();
    assert!(recorder.stats.rows_lost.load(Ordering::Relaxed) > 0);
    // The rows lost are told: the first row written starts over.
    assert_eq!(
        rows[0].row.continuity,
        Continuity::Resync,
        "{:?}",
        rows[0].row
    );
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

#[tokio::test]
async fn the_quota_deletes_the_oldest_parts_first() {
    let dir = archive_dir("quota");
    let max_bytes = 40_000;
    let recorder = Recorder::start(
        writer::Settings {
            dir: dir.clone(),
            max_bytes: Some(max_bytes),
            part_bytes: usize::MAX,
            roll: Duration::from_secs(3_600),
            pause: Duration::from_secs(1),
        },
        1.0,
    )
    .expect("starts");
    let filler = "x".repeat(4_000);
    for i in 0..40i64 {
        // Distinct text, so compression cannot fold the parts away.
        let text: String = filler
            .chars()
            .enumerate()
            .map(|(j, _)| char::from(b'a' + ((i * 7 + j as i64 * 13) % 26) as u8))
            .collect();
        let body = serde_json::json!({"data": {"market_id": "m", "note": text}});
        recorder.answered(
            WatchKind::Market,
            "m",
            1_700_000_000_000 + i * 1_000,
            0,
            body,
        );
        assert!(recorder.flush(CEILING));
    }
    let parts = predmarket_server::record::layout::parts(&dir);
    let on_disk: u64 = parts.iter().map(|p| p.bytes).sum();
    assert!(on_disk <= max_bytes, "{on_disk} bytes on disk");
    assert!(recorder.stats.parts_deleted.load(Ordering::Relaxed) > 0);
    assert_eq!(
        recorder.stats.bytes_on_disk.load(Ordering::Relaxed),
        on_disk
    );
    // What is left is the newest, up to the last one written.
    let rows = archive::read(&dir, &Filter::default(), usize::MAX).expect("reads");
    let times: Vec<i64> = rows.iter().map(|r| r.row.received_ms).collect();
    let newest = 1_700_000_000_000 + 39 * 1_000;
    assert_eq!(times.last(), Some(&newest));
    assert_eq!(
        times,
        ((newest - (times.len() as i64 - 1) * 1_000)..=newest)
            .step_by(1_000)
            .collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}
