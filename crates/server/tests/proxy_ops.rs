//! Proxy mode in operation, over real loopback sockets: Redis paused,
//! gone and full (`noeviction`) under a running proxy, `/metrics` only on its own address, shared
//! entries capped in size, a revalidation's 404, and the connection bounds
//! (the in-flight slot held by a slow reader, the write timeout, the
//! per-address connection cap). The upstream is a small fake that counts
//! what reaches it.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get as route_get;
use predmarket_server::config::Config;
use proxy_kit::Proxy;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[path = "common/process.rs"]
mod process_kit;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;
#[path = "common/redis.rs"]
mod redis_kit;

const UPSTREAM_KEY: &str = "upstream-ops-Q4x-secret";
const VISITOR: &str = "visitor-ops";
/// How long a test waits for something that should happen, at most.
const CEILING: Duration = Duration::from_secs(60);
/// The size of the fake upstream's large answer: more than the socket
/// buffers of both ends hold, so a reader that stops keeps it unsent.
const LARGE: usize = 12 * 1024 * 1024;

/// The fake upstream's switches and counts.
#[derive(Default)]
struct Fake {
    requests: AtomicUsize,
    /// `/markets/{id}` answers a typed 404 from now on.
    gone: AtomicBool,
}

type Shared = Arc<Fake>;

async fn platforms(State(fake): State<Shared>) -> Response {
    fake.requests.fetch_add(1, Ordering::SeqCst);
    axum::Json(json!({ "data": [{ "id": "kestrel", "name": "Kestrel" }] })).into_response()
}

async fn markets(
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

async fn market(State(fake): State<Shared>, Path(id): Path<String>) -> Response {
    fake.requests.fetch_add(1, Ordering::SeqCst);
    if fake.gone.load(Ordering::SeqCst) {
        let body = json!({ "error": { "code": "NOT_FOUND", "message": "no such market" } });
        return (StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    }
    axum::Json(json!({ "data": { "id": id, "title": "still here" } })).into_response()
}

struct Upstream {
    addr: SocketAddr,
    fake: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn upstream() -> Upstream {
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

fn proxy_config(upstream: SocketAddr) -> Config {
    let mut config = Config::for_tests(&format!("{VISITOR}:unlimited"));
    config.proxy.upstream = Some(format!("http://{upstream}"));
    config.proxy.upstream_key_file = Some(proxy_kit::key_file(
        "pm-ops-upstream-key",
        &format!("{UPSTREAM_KEY}\n"),
    ));
    config.proxy.max_wait_secs = 3.0;
    config
}

async fn proxy(config: Config) -> Proxy {
    proxy_kit::start(&config).await
}

/// Status, `X-Cache` and body text.
async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
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

/// A real `redis-server` started with `extra`, or `None` (SKIPPED loudly)
/// when it is missing and not required (`redis_kit::REQUIRE`).
fn redis_server(extra: &[&str]) -> Option<redis_kit::Redis> {
    redis_kit::start("the proxy under a Redis failure", extra).unwrap_or_else(|e| panic!("{e}"))
}

fn signal(redis: &redis_kit::Redis, signal: &str) {
    redis.signal(signal).unwrap_or_else(|e| panic!("{e}"));
}

/// The proxy binary and the lines of its stderr (JSON events).
struct Binary {
    child: std::process::Child,
    log: Arc<Mutex<Vec<String>>>,
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Binary {
    /// Waits for a log line holding `marker`; the text after it.
    fn after(&self, marker: &str) -> String {
        let started = Instant::now();
        loop {
            let found = self
                .log
                .lock()
                .unwrap()
                .iter()
                .find_map(|line| line.split(marker).nth(1).map(str::to_owned));
            if let Some(rest) = found {
                return rest;
            }
            assert!(started.elapsed() < CEILING, "no log line with {marker}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn lines_with(&self, text: &str) -> usize {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|line| line.contains(text))
            .count()
    }
}

fn start_binary(args: &[&str]) -> Binary {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_predmarket-server"))
        .args(["--addr", "127.0.0.1:0", "--log-format", "json"])
        .args(args)
        .env_clear()
        .env("PREDMARKET_UPSTREAM_KEY", UPSTREAM_KEY)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("server binary");
    let log = process_kit::collect_stderr(&mut child);
    Binary { child, log }
}

/// The address in a log line's text after "http://".
fn address_in(rest: &str) -> SocketAddr {
    rest.split(['/', ',', ' ', '"'])
        .next()
        .unwrap_or("")
        .parse()
        .unwrap_or_else(|e| panic!("{e}: {rest}"))
}

const REDIS_DOWN: &str = "Redis is unavailable";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn redis_paused_then_gone_leaves_misses_answered_and_one_warning() {
    let Some(redis) = redis_server(&[]) else {
        return;
    };
    let upstream = upstream().await;
    let binary = start_binary(&[
        "--api-key",
        VISITOR,
        "--upstream",
        &format!("http://{}", upstream.addr),
        "--redis",
        &redis.url,
        "--redis-fallback-share",
        "0.5",
        "--metrics-addr",
        "127.0.0.1:0",
    ]);
    let addr = address_in(&binary.after("listening on http://"));
    let metrics_addr = address_in(&binary.after("metrics on http://"));

    // `/metrics` is on its own address only.
    let (status, _, text) = get(addr, "/metrics").await;
    assert_eq!(status, 404, "{text}");
    let metrics = reqwest::get(format!("http://{metrics_addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("predmarket_proxy_redis_errors 0"),
        "{metrics}"
    );

    let (status, how, _) = get(addr, "/markets?limit=1").await;
    assert_eq!((status, how.as_str()), (200, "MISS"));
    assert_eq!(binary.lines_with(REDIS_DOWN), 0);
    assert_eq!(fallback_slots(metrics_addr).await, 0);

    // Paused: connections stay open and nothing answers. Every miss is
    // still served from the upstream (at the fallback share of the budget),
    // not a 429 after waiting for a Redis slot. What bounds the first one
    // is `shared::DEADLINE` (1 s): the Redis call on its way gives up then
    // and marks Redis down, so its slot comes from the fallback share (the
    // metric) and the warning is logged before the answer. How long it
    // took is a figure for docs/benchmarks.md, not a rule here.
    signal(&redis, "-STOP");
    let (status, how, body) = get(addr, "/markets?limit=2").await;
    assert_eq!((status, how.as_str()), (200, "MISS"), "{body}");
    assert_eq!(fallback_slots(metrics_addr).await, 1);
    assert_eq!(binary.lines_with(REDIS_DOWN), 1);
    for limit in 3..=6 {
        let (status, how, body) = get(addr, &format!("/markets?limit={limit}")).await;
        assert_eq!((status, how.as_str()), (200, "MISS"), "{body}");
    }
    assert_eq!(fallback_slots(metrics_addr).await, 5);
    // Gone altogether: the same.
    signal(&redis, "-KILL");
    let (status, how, body) = get(addr, "/markets?limit=7").await;
    assert_eq!((status, how.as_str()), (200, "MISS"), "{body}");
    assert_eq!(upstream.fake.requests.load(Ordering::SeqCst), 7);
    // One warning for all of it, not one per request; without the URL.
    assert_eq!(
        binary.lines_with(REDIS_DOWN),
        1,
        "{:#?}",
        binary.log.lock().unwrap()
    );
    let log = binary.log.lock().unwrap().join("\n");
    assert!(!log.contains(&redis.url), "{log}");
    assert!(!log.contains(UPSTREAM_KEY), "{log}");
}

/// `predmarket_proxy_redis_fallback_slots_total` of `/metrics`: upstream
/// slots granted on this replica's fallback share while Redis was down.
async fn fallback_slots(metrics_addr: SocketAddr) -> u64 {
    let text = reqwest::get(format!("http://{metrics_addr}/metrics"))
        .await
        .expect("/metrics")
        .text()
        .await
        .expect("/metrics text");
    text.lines()
        .find_map(|l| l.strip_prefix("predmarket_proxy_redis_fallback_slots_total "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no fallback counter in {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn a_full_redis_under_noeviction_leaves_the_budget_working_and_one_warning() {
    let Some(redis) = redis_server(&["--maxmemory", "4mb", "--maxmemory-policy", "noeviction"])
    else {
        return;
    };
    // Filled until Redis refuses writes, as a full production Redis
    // under `noeviction` does.
    let client = redis::Client::open(redis.url.as_str()).expect("redis URL");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("a connection to redis-server");
    let filler = vec![b'x'; 64 * 1024];
    let mut full = None;
    for i in 0..1_000 {
        let set: redis::RedisResult<()> = redis::cmd("SET")
            .arg(format!("filler:{i}"))
            .arg(&filler)
            .query_async(&mut conn)
            .await;
        if let Err(error) = set {
            full = Some(error.to_string());
            break;
        }
    }
    let full = full.expect("redis-server never refused a write");
    assert!(full.contains("OOM"), "{full}");

    let upstream = upstream().await;
    let binary = start_binary(&[
        "--api-key",
        VISITOR,
        "--upstream",
        &format!("http://{}", upstream.addr),
        "--redis",
        &redis.url,
        "--metrics-addr",
        "127.0.0.1:0",
    ]);
    let addr = address_in(&binary.after("listening on http://"));
    let metrics_addr = address_in(&binary.after("metrics on http://"));
    // The budget's write is refused: Redis is marked down at once and
    // every miss is served on the fallback share.
    for limit in 1..=5 {
        let (status, how, body) = get(addr, &format!("/markets?limit={limit}")).await;
        assert_eq!((status, how.as_str()), (200, "MISS"), "{body}");
    }
    assert_eq!(upstream.fake.requests.load(Ordering::SeqCst), 5);
    assert!(fallback_slots(metrics_addr).await >= 1);
    assert_eq!(
        binary.lines_with(REDIS_DOWN),
        1,
        "{:#?}",
        binary.log.lock().unwrap()
    );
    let log = binary.log.lock().unwrap().join("\n");
    assert!(!log.contains(&redis.url), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn answers_above_the_shared_size_cap_stay_in_each_replica() {
    let Some(redis) = redis_server(&[]) else {
        return;
    };
    let upstream = upstream().await;
    let replica = || {
        let mut config = proxy_config(upstream.addr);
        config.proxy.redis = Some(redis.url.clone());
        config.proxy.redis_max_entry_kb = 4;
        proxy(config)
    };
    let a = replica().await;
    let b = replica().await;
    let small = "/markets?limit=1";
    let large = "/markets?limit=200";
    for path in [small, large] {
        let (status, how, _) = get(a.addr, path).await;
        assert_eq!((status, how.as_str()), (200, "MISS"));
    }
    let (_, _, small_body) = get(b.addr, small).await;
    let (_, _, large_body) = get(b.addr, large).await;
    assert!(
        small_body.len() < 4096 && large_body.len() > 4096,
        "{small_body:.100} {large_body:.100}"
    );
    // B found the small answer in Redis and asked the upstream for the
    // large one itself.
    assert_eq!(b.state.metrics.shared_hits.load(Ordering::Relaxed), 1);
    assert_eq!(upstream.fake.requests.load(Ordering::SeqCst), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revalidations_404_does_not_wipe_a_good_entry() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    // One market: fresh 3 s, then served while revalidating for 15 s.
    config.proxy.cache_ttl_scale = 0.3;
    let proxy = proxy(config).await;
    let path = "/markets/m1";
    let (status, how, _) = get(proxy.addr, path).await;
    assert_eq!((status, how.as_str()), (200, "MISS"));
    upstream.fake.gone.store(true, Ordering::SeqCst);
    // Until two revalidations have gone upstream (the second starts only
    // after the first has stored its outcome), every answer is the good
    // entry, and so is the next.
    let started = Instant::now();
    while upstream.fake.requests.load(Ordering::SeqCst) < 3 {
        assert!(started.elapsed() < CEILING, "no revalidation");
        let (status, how, body) = get(proxy.addr, path).await;
        assert_eq!(status, 200, "{how} {body}");
        assert!(body.contains("still here"), "{body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (status, how, body) = get(proxy.addr, path).await;
    assert_eq!((status, how.as_str()), (200, "UPDATING"), "{body}");
}

/// A client that reads with a tiny receive buffer: the server's answer
/// stays in the server's hands while it does not read.
async fn slow_client(addr: SocketAddr, path: &str) -> (TcpStream, usize, Vec<u8>) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(addr).await.expect("connect");
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nX-API-Key: {VISITOR}\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    // The head, and whatever of the body came with it.
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    let end = loop {
        let n = tokio::time::timeout(CEILING, stream.read(&mut buf))
            .await
            .expect("an answer")
            .expect("read");
        assert!(n > 0, "closed before the head");
        seen.extend_from_slice(&buf[..n]);
        if let Some(at) = memchr::memmem::find(&seen, b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a content-length");
    let body = seen.split_off(end);
    (stream, length, body)
}

/// Until the server answers `/openapi.json` (a slot of `--max-in-flight`
/// is free), at most `CEILING`.
async fn slot_frees(addr: SocketAddr) -> bool {
    tokio::time::timeout(CEILING, async {
        loop {
            if get(addr, "/openapi.json").await.0 == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_holds_its_in_flight_slot_until_its_answer_is_sent() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    config.max_in_flight = 1;
    config.idle_timeout_secs = 3_600.0;
    config.write_timeout_secs = 3_600.0;
    let proxy = proxy(config).await;
    let (reader, length, _) = slow_client(proxy.addr, "/markets").await;
    assert!(length > LARGE);
    // The reader's answer has begun and cannot be sent: its slot is taken.
    let (status, _, body) = get(proxy.addr, "/openapi.json").await;
    assert_eq!(status, 503, "{body:.300}");
    assert!(body.contains("overloaded"), "{body:.300}");
    drop(reader);
    assert!(slot_frees(proxy.addr).await, "the slot stays taken");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_write_timeout_drops_a_reader_that_trickles() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    config.max_in_flight = 1;
    // The idle timer never fires (the reader keeps reading); only the
    // deadline of the whole answer can end it.
    config.idle_timeout_secs = 3_600.0;
    config.write_timeout_secs = 1.0;
    let proxy = proxy(config).await;
    let (mut reader, length, mut body) = slow_client(proxy.addr, "/markets").await;
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let trickle = tokio::spawn(async move {
        // 4 KiB every 50 ms: the 12 MiB would take minutes.
        let mut buf = vec![0u8; 4096];
        while !*stopped.borrow() {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
            tokio::select! {
                _ = stopped.changed() => {}
                () = tokio::time::sleep(Duration::from_millis(50)) => {}
            }
        }
        (reader, body)
    });
    assert!(
        slot_frees(proxy.addr).await,
        "the trickling reader still holds its answer"
    );
    let _ = stop.send(true);
    let (mut reader, mut body) = trickle.await.unwrap();
    // What was sent before the deadline arrives; then the connection ends
    // short of the whole answer.
    let rest = tokio::time::timeout(CEILING, async {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(rest.is_ok(), "the connection stays open");
    assert!(body.len() < length, "{} of {length} bytes", body.len());
}

/// A connection from `from` that has been served one answer (and so was
/// accepted and counted), kept open.
async fn served_connection(addr: SocketAddr, from: [u8; 4]) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback source address");
    let mut stream = socket.connect(addr).await.ok()?;
    stream
        .write_all(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .ok()?;
    let mut head = [0u8; 12];
    match tokio::time::timeout(CEILING, stream.read_exact(&mut head)).await {
        Ok(Ok(_)) if &head == b"HTTP/1.1 200" => Some(stream),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_above_the_per_address_cap_are_closed() {
    let upstream = upstream().await;
    let mut config = proxy_config(upstream.addr);
    config.max_connections_per_address = 2;
    config.header_read_timeout_secs = 3_600.0;
    config.idle_timeout_secs = 3_600.0;
    config.write_timeout_secs = 3_600.0;
    let proxy = proxy(config).await;
    let one = [127, 0, 0, 1];
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(served_connection(proxy.addr, one).await.expect("served"));
    }
    // A third from the same address is closed unanswered.
    assert!(served_connection(proxy.addr, one).await.is_none());
    // Another address is served.
    let other = served_connection(proxy.addr, [127, 0, 0, 2]).await;
    assert!(other.is_some(), "a second address is refused too");
    // Once one closes, the first address is served again (asked until the
    // server has seen the close).
    drop(held.pop());
    let served = tokio::time::timeout(CEILING, async {
        loop {
            if let Some(stream) = served_connection(proxy.addr, one).await {
                return stream;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "no connection served after one closed");
}
