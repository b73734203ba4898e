//! The server under hostile traffic, over real loopback sockets
//! through the real connection loop (`listen::serve`) and, where the
//! process matters (refusing to start, SIGTERM), the real binary.

mod common;

use common::{ANCHOR, KEY, default_data};
use predmarket_server::config::Config;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long a test waits for something that should happen, at most: long
/// enough that a busy machine never reaches it when the server works,
/// so no test depends on how fast the machine is.
const CEILING: Duration = Duration::from_secs(60);

/// A server on the production connection loop, stopped on drop.
struct Served {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn config() -> Config {
    let mut config = Config::for_tests(&format!("{KEY}:unlimited"));
    config.anchor_date = Some(ANCHOR.to_owned());
    config
}

async fn serve_router(app: axum::Router, config: &Config) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let limits = config.connection_limits();
    tokio::spawn(predmarket_server::listen::serve(
        listener,
        app,
        limits,
        async move {
            let _ = stopped.await;
        },
    ));
    Served {
        addr,
        stop: Some(stop),
    }
}

async fn serve(config: &Config) -> Served {
    serve_router(
        predmarket_server::app_with_data(config, default_data()),
        config,
    )
    .await
}

async fn get(addr: SocketAddr, path: &str, key: &str) -> (u16, reqwest::header::HeaderMap, Value) {
    let response = reqwest::Client::new()
        .get(format!("http://{addr}{path}"))
        .header("X-API-Key", key)
        .header("Origin", "http://example.test")
        .send()
        .await
        .expect("answer");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text:.200}"));
    (status, headers, body)
}

#[tokio::test]
async fn a_query_over_the_cap_is_a_400_that_states_the_cap() {
    let server = serve(&config()).await;
    let many = vec!["e"; 17].join("+");
    let long = "a".repeat(257);
    for list in ["/markets", "/events", "/series"] {
        for (query, says) in [(&many, "16 words"), (&long, "256 bytes")] {
            let (status, _, body) = get(server.addr, &format!("{list}?query={query}"), KEY).await;
            assert_eq!(status, 400, "{list}: {body}");
            assert_eq!(body["error"]["code"], "VALIDATION_ERROR");
            let message = body["error"]["message"].as_str().unwrap_or("");
            assert!(message.contains(says), "{list}: {message}");
            assert_eq!(body["error"]["details"]["max_words"], 16);
            assert_eq!(body["error"]["details"]["max_bytes"], 256);
        }
        // At the cap, and with every word repeated, a search still answers.
        let at_cap = vec!["e"; 16].join("+");
        let (status, _, body) = get(server.addr, &format!("{list}?query={at_cap}"), KEY).await;
        assert_eq!(status, 200, "{list}: {body}");
    }
    // The same search with repeated words finds the same markets.
    let (_, _, once) = get(server.addr, "/markets?query=will+the&limit=5", KEY).await;
    let (_, _, again) = get(server.addr, "/markets?query=the+WILL+will+the&limit=5", KEY).await;
    assert_eq!(once["markets"], again["markets"]);
    assert_eq!(once["pagination"]["total"], again["pagination"]["total"]);
    assert!(
        once["pagination"]["total"].as_f64().unwrap_or(0.0) > 0.0,
        "{once}"
    );
}

/// A route that answers only when the test opens its gate, and reports each
/// request that reached it: requests stay in progress exactly as long as a
/// test needs, whatever the machine's speed.
struct Gate {
    entered: tokio::sync::mpsc::UnboundedReceiver<()>,
    open: tokio::sync::watch::Sender<bool>,
}

impl Gate {
    fn route() -> (axum::routing::MethodRouter, Gate) {
        let (entered_tx, entered) = tokio::sync::mpsc::unbounded_channel();
        let (open, opened) = tokio::sync::watch::channel(false);
        let route = axum::routing::get(move || {
            let entered_tx = entered_tx.clone();
            let mut opened = opened.clone();
            async move {
                let _ = entered_tx.send(());
                let _ = opened.wait_for(|open| *open).await;
                axum::Json(serde_json::json!({ "held": true }))
            }
        });
        (route, Gate { entered, open })
    }

    /// Until `n` more requests are inside the handler.
    async fn entered(&mut self, n: usize) {
        for _ in 0..n {
            let arrived = tokio::time::timeout(CEILING, self.entered.recv()).await;
            assert!(
                matches!(arrived, Ok(Some(()))),
                "a request did not reach the handler"
            );
        }
    }

    fn open(&self) {
        let _ = self.open.send(true);
    }
}

// The app's layer stack (`with_layers`, which `app_with_data` wraps the
// operations in) around a route held open by the test: the slots are
// known to be taken when the third request comes, with no clock involved.
#[tokio::test]
async fn above_max_in_flight_requests_are_shed_with_503_and_retry_after() {
    let mut config = config();
    config.max_in_flight = 2;
    // Held requests end when the test says, not at the request timeout.
    config.request_timeout_secs = 86_400.0;
    let (hold, mut gate) = Gate::route();
    let app = axum::Router::new().route("/hold", hold);
    let server = serve_router(predmarket_server::with_layers(app, &config), &config).await;
    let addr = server.addr;
    let held: Vec<_> = (0..2)
        .map(|_| tokio::spawn(async move { get(addr, "/hold", KEY).await.0 }))
        .collect();
    gate.entered(2).await;
    // Were it let in, it would be held: the ceiling makes that a failure.
    let (status, headers, body) = tokio::time::timeout(CEILING, get(addr, "/hold", KEY))
        .await
        .expect("the request over the cap was let in, not shed");
    assert_eq!(status, 503, "{body}");
    assert_eq!(headers["retry-after"], "1");
    assert_eq!(body["error"]["details"]["reason"], "overloaded");
    assert!(body["error"]["code"].is_string());
    // A browser can read it: CORS headers are on the refusal too.
    assert!(headers.contains_key("access-control-allow-origin"));
    gate.open();
    for task in held {
        assert_eq!(task.await.expect("task"), 200);
    }
    // Slots free again once the held ones are done.
    assert_eq!(get(addr, "/hold", KEY).await.0, 200);
}

// The key check (`auth::check`, as the app's operations middleware runs
// it) in front of a route held open by the test.
#[tokio::test]
async fn one_key_over_its_cap_is_shed_while_another_key_is_served() {
    let mut config = config();
    config.max_in_flight_per_key = 2;
    config.request_timeout_secs = 86_400.0;
    config.api_key = vec![format!("{KEY}:unlimited"), "other-key:unlimited".into()];
    let specs = config.key_specs().expect("keys");
    let keys = std::sync::Arc::new(predmarket_server::auth::Keys::new(
        &specs,
        config.max_in_flight_per_key,
    ));
    let (hold, mut gate) = Gate::route();
    let app = axum::Router::new()
        .route("/hold", hold)
        .layer(axum::middleware::from_fn(
            move |request, next: axum::middleware::Next| {
                let keys = keys.clone();
                async move { predmarket_server::auth::check(&keys, request, |r| next.run(r)).await }
            },
        ));
    let server = serve_router(predmarket_server::with_layers(app, &config), &config).await;
    let addr = server.addr;
    let busy: Vec<_> = (0..2)
        .map(|_| tokio::spawn(async move { get(addr, "/hold", KEY).await.0 }))
        .collect();
    gate.entered(2).await;
    // Were it let in, it would be held: the ceiling makes that a failure.
    let (status, headers, body) = tokio::time::timeout(CEILING, get(addr, "/hold", KEY))
        .await
        .expect("the request over the cap was let in, not shed");
    assert_eq!(status, 503, "{body}");
    assert_eq!(headers["retry-after"], "1");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("this API key")),
        "{body}"
    );
    // Another key gets a slot while the first key's are all taken.
    let other = tokio::spawn(async move { get(addr, "/hold", "other-key").await.0 });
    gate.entered(1).await;
    gate.open();
    assert_eq!(other.await.expect("task"), 200);
    for task in busy {
        assert_eq!(task.await.expect("task"), 200);
    }
}

#[tokio::test]
async fn a_request_over_the_timeout_is_a_json_504() {
    let mut config = config();
    // An hour against a third of a second: only the timeout can answer.
    config.latency_ms = 3_600_000;
    config.request_timeout_secs = 0.3;
    let server = serve(&config).await;
    let (status, headers, body) = get(server.addr, "/platforms", KEY).await;
    assert_eq!(status, 504, "{body}");
    assert_eq!(body["error"]["code"], "TIMEOUT");
    assert!(headers.contains_key("access-control-allow-origin"));
}

/// Whether the server closes `stream` (EOF or reset) within `within`;
/// anything it sends first (a 408, a 431) is read and dropped.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

// Each test below leaves one timeout short and sets the others far beyond
// `CEILING`: a close within the ceiling can only be that timeout's, so
// how quickly it came is not asserted.
#[tokio::test]
async fn the_header_read_timeout_closes_a_slowloris_socket() {
    let mut config = config();
    config.header_read_timeout_secs = 1.0;
    config.idle_timeout_secs = 3_600.0;
    let server = serve(&config).await;
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    stream
        .write_all(b"GET /platforms HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    // One header line every 200 ms keeps the socket busy (no idle timeout)
    // but never finishes the head.
    let trickle = async {
        for i in 0.. {
            if stream
                .write_all(format!("X-Slow-{i}: y\r\n").as_bytes())
                .await
                .is_err()
                || closed_within(&mut stream, Duration::from_millis(200)).await
            {
                return;
            }
        }
    };
    let closed = tokio::time::timeout(CEILING, trickle).await.is_ok();
    assert!(closed, "a slowloris socket stayed open for {CEILING:?}");
}

#[tokio::test]
async fn the_idle_timeout_closes_an_idle_socket() {
    let mut config = config();
    config.header_read_timeout_secs = 3_600.0;
    config.idle_timeout_secs = 1.0;
    let server = serve(&config).await;
    // Connected, never a byte.
    let mut silent = TcpStream::connect(server.addr).await.expect("connect");
    // One request, then idle on keep-alive.
    let mut kept = TcpStream::connect(server.addr).await.expect("connect");
    kept.write_all(
        format!("GET /platforms HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n").as_bytes(),
    )
    .await
    .expect("write");
    let mut head = [0u8; 12];
    kept.read_exact(&mut head).await.expect("answer");
    assert_eq!(&head, b"HTTP/1.1 200");
    assert!(closed_within(&mut silent, CEILING).await);
    assert!(closed_within(&mut kept, CEILING).await);
}

#[tokio::test]
async fn a_head_over_16_kib_is_refused_with_431() {
    let server = serve(&config()).await;
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    let big = "a".repeat(20 * 1024);
    let request = format!("GET /platforms HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\n\r\n");
    let _ = stream.write_all(request.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(CEILING, stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:.200}");
}

#[tokio::test]
async fn a_panics_500_carries_cors_headers() {
    let config = config();
    let app = axum::Router::new().route(
        "/boom",
        axum::routing::get(|| async {
            if std::hint::black_box(true) {
                panic!("secret detail");
            }
            "unreachable"
        }),
    );
    let server = serve_router(predmarket_server::with_layers(app, &config), &config).await;
    let (status, headers, body) = get(server.addr, "/boom", KEY).await;
    assert_eq!(status, 500);
    assert_eq!(body["error"]["code"], "INTERNAL_ERROR");
    assert!(!body.to_string().contains("secret detail"));
    assert_eq!(headers["access-control-allow-origin"], "*");
    assert_eq!(headers["cache-control"], "no-store");
}

#[tokio::test]
async fn api_and_demo_headers() {
    let dir = std::env::temp_dir().join(format!("pm-hostile-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let script = "import init from '/app/predmarket-web-0123456789abcdef.js';await init();";
    std::fs::write(
        dir.join("index.html"),
        format!("<!doctype html><head><script type=\"module\">{script}</script></head>"),
    )
    .expect("index");
    std::fs::write(
        dir.join("predmarket-web-0123456789abcdef_bg.wasm"),
        b"\0asm",
    )
    .expect("wasm");
    let mut config = config();
    config.web = Some(dir.clone());
    let server = serve(&config).await;
    let client = reqwest::Client::new();
    let fetch = |path: &str| client.get(format!("http://{}{path}", server.addr)).send();

    for path in ["/app/", "/app/markets/some-route"] {
        let response = fetch(path).await.expect("answer");
        assert_eq!(response.status(), 200, "{path}");
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().expect("ascii");
        assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
        assert!(csp.contains("'sha256-"), "{csp}");
        let script_src = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap_or("");
        assert!(
            !script_src.contains("unsafe-inline"),
            "scripts stay hash-only: {csp}"
        );
        assert!(csp.contains("object-src 'none'"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "no-referrer");
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
    }
    let response = fetch("/app/predmarket-web-0123456789abcdef_bg.wasm")
        .await
        .expect("answer");
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );

    let (status, headers, _) = get(server.addr, "/platforms", KEY).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let (status, headers, _) = get(server.addr, "/platforms", "wrong").await;
    assert_eq!(status, 401);
    assert_eq!(headers["cache-control"], "no-store");

    let preflight = client
        .request(
            reqwest::Method::OPTIONS,
            format!("http://{}/markets", server.addr),
        )
        .header("Origin", "http://example.test")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "x-api-key")
        .send()
        .await
        .expect("preflight");
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-max-age"], "600");
    let _ = std::fs::remove_dir_all(&dir);
}

const BINARY: &str = env!("CARGO_BIN_EXE_predmarket-server");

fn refused(args: &[&str], env: &[(&str, &str)]) -> String {
    let output = Command::new(BINARY)
        .args(["--addr", "127.0.0.1:0", "-q"])
        .args(args)
        .env_remove("PREDMARKET_API_KEYS")
        .env_remove("PREDMARKET_API_KEY_FILE")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run the server");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "started: {stderr}");
    stderr
}

#[test]
fn an_empty_key_file_or_variable_is_refused_at_start() {
    let dir = std::env::temp_dir().join(format!("pm-hostile-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("keys");
    std::fs::write(&file, "# no keys yet\n\n").expect("write");
    let file = file.to_string_lossy().into_owned();
    let stderr = refused(&["--api-key-file", &file], &[]);
    assert!(stderr.contains("holds no API key"), "{stderr}");
    assert!(stderr.contains("demo key"), "{stderr}");
    for value in ["", " , "] {
        let stderr = refused(&[], &[("PREDMARKET_API_KEYS", value)]);
        assert!(
            stderr.contains("PREDMARKET_API_KEYS"),
            "{value:?}: {stderr}"
        );
    }
    let stderr = refused(&["--api-key", ""], &[]);
    assert!(stderr.contains("holds no API key"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a reader thread saw on one socket: bytes, or its end.
enum Seen {
    Bytes(usize, Vec<u8>),
    End(usize),
}

/// Reads `stream` on a thread of its own, reporting to `to` under `id`.
fn watch(id: usize, mut stream: std::net::TcpStream, to: mpsc::Sender<Seen>) {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        loop {
            match std::io::Read::read(&mut stream, &mut buffer) {
                Ok(0) | Err(_) => {
                    let _ = to.send(Seen::End(id));
                    return;
                }
                Ok(n) => {
                    if to.send(Seen::Bytes(id, buffer[..n].to_vec())).is_err() {
                        return;
                    }
                }
            }
        }
    });
}

#[test]
fn sigterm_exits_within_the_grace_with_connections_open() {
    // A key of one request a minute and an hour of latency: the first
    // request to arrive holds the key's only slot for an hour, any other
    // is refused with a 429 at once (the key check comes before the
    // latency). The refusal shows the other request is in progress.
    let mut child = Command::new(BINARY)
        .args([
            "--addr",
            "127.0.0.1:0",
            "-q",
            "--api-key",
            "k:1",
            "--latency-ms",
            "3600000",
            "--request-timeout",
            "86400",
            "--shutdown-grace",
            "1",
        ])
        .env_remove("PREDMARKET_API_KEYS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut addr = None;
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap_or(0) > 0 {
        // A log line: time and level come first.
        if let Some(rest) = line
            .trim()
            .split("predmarket-server listening on http://")
            .nth(1)
        {
            addr = rest.parse::<SocketAddr>().ok();
            break;
        }
        line.clear();
    }
    let addr = addr.expect("listening line");
    let idle: Vec<_> = (0..20)
        .map(|_| std::net::TcpStream::connect(addr).expect("connect"))
        .collect();
    let (to, seen) = mpsc::channel();
    for id in 0..2 {
        let mut stream = std::net::TcpStream::connect(addr).expect("connect");
        std::io::Write::write_all(
            &mut stream,
            b"GET /platforms HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\n\r\n",
        )
        .expect("write");
        watch(id, stream, to.clone());
    }
    drop(to);
    let Ok(Seen::Bytes(refused, answer)) = seen.recv_timeout(CEILING) else {
        let _ = child.kill();
        panic!("neither request was answered");
    };
    assert!(
        answer.starts_with(b"HTTP/1.1 429"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let busy = 1 - refused;

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    // The busy request would hold the server for an hour; the grace is a
    // second. Any exit within the ceiling is the grace's doing.
    let waiting = std::time::Instant::now();
    let exited = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if waiting.elapsed() < CEILING => {
                std::thread::sleep(Duration::from_millis(50));
            }
            _ => break None,
        }
    };
    let Some(status) = exited else {
        let _ = child.kill();
        panic!("still running {CEILING:?} after SIGTERM, the grace being 1 s");
    };
    assert!(status.success(), "{status}");
    // The busy request was cut, not answered.
    let mut busy_answer = Vec::new();
    while let Ok(event) = seen.recv_timeout(CEILING) {
        match event {
            Seen::Bytes(id, bytes) if id == busy => busy_answer.extend(bytes),
            Seen::End(id) if id == busy => break,
            _ => {}
        }
    }
    assert!(
        !busy_answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&busy_answer)
    );
    drop(idle);
}

#[tokio::test]
async fn connections_above_the_cap_are_closed_on_accept() {
    let mut config = config();
    config.max_connections = 2;
    // Far beyond `CEILING`: a close within it is the cap's.
    config.header_read_timeout_secs = 3_600.0;
    config.idle_timeout_secs = 3_600.0;
    let server = serve(&config).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(server.addr).await.expect("connect");
        stream
            .write_all(
                format!("GET /platforms HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\n\r\n")
                    .as_bytes(),
            )
            .await
            .expect("write");
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await.expect("answer");
        assert_eq!(&head, b"HTTP/1.1 200");
        held.push(stream);
    }
    // A third is accepted by the kernel and closed by the server.
    let mut third = TcpStream::connect(server.addr).await.expect("connect");
    assert!(closed_within(&mut third, CEILING).await);
    // Once one closes, a new connection is served again (as soon as the
    // server has seen the close: asked until then).
    drop(held.pop());
    let served = tokio::time::timeout(CEILING, async {
        loop {
            let answer = reqwest::Client::new()
                .get(format!("http://{}/platforms", server.addr))
                .header("X-API-Key", KEY)
                .send()
                .await;
            if answer.is_ok_and(|a| a.status() == 200) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "no connection served after one closed");
}
