//! Public mode (`--public-proxy`) on loopback, in front of a real
//! predmarket-server with a small per-minute limit for the proxy's key:
//! one client address cannot spend another's share of the upstream
//! budget, joiners of a request in flight wait in their own lanes and are
//! not charged a miss, `X-Forwarded-For` is believed only from trusted
//! peers, CORS is same-origin by default, and a cache hit is served from
//! gzip bytes compressed when the entry was stored.
//!
//! Client addresses: the proxy listens on 127.0.0.1 and each client binds
//! its own loopback source address (127.0.0.1, 127.0.0.2, 127.0.0.3).

mod common;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use predmarket_server::config::Config;
use proxy_kit::Proxy;
use serde_json::Value;
use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const UPSTREAM_KEY: &str = "public-upstream-key";
/// How long a test waits for something that should happen, at most.
const CEILING: Duration = Duration::from_secs(90);

/// What reached the upstream, in order: path and query, status.
type Log = Arc<Mutex<Vec<(String, u16)>>>;

async fn record(State(log): State<Log>, request: Request, next: Next) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let response = next.run(request).await;
    log.lock()
        .unwrap()
        .push((target, response.status().as_u16()));
    response
}

struct Upstream {
    addr: SocketAddr,
    log: Log,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The local server, enforcing `limit` requests a minute on the proxy's key.
async fn upstream(limit: u32) -> Upstream {
    let mut config = common::config();
    config.api_key = vec![format!("{UPSTREAM_KEY}:{limit}")];
    let log: Log = Arc::default();
    let app = predmarket_server::app_with_data(&config, common::default_data())
        .layer(axum::middleware::from_fn_with_state(log.clone(), record));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Upstream { addr, log, task }
}

/// A public proxy in front of `upstream`, its budget `limit` a minute,
/// changed by `tweak`.
async fn public_proxy(upstream: &Upstream, limit: u32, tweak: impl FnOnce(&mut Config)) -> Proxy {
    let mut config = common::config();
    config.api_key.clear();
    config.proxy.upstream = Some(format!("http://{}", upstream.addr));
    config.proxy.public_proxy = true;
    config.proxy.upstream_limit = limit;
    tweak(&mut config);
    let key_file = std::env::temp_dir().join(format!(
        "pm-public-upstream-key-{}-{}",
        std::process::id(),
        upstream.addr.port()
    ));
    std::fs::write(&key_file, UPSTREAM_KEY).unwrap();
    config.proxy.upstream_key_file = Some(key_file.clone());
    let proxy = proxy_kit::start(&config).await;
    let _ = std::fs::remove_file(&key_file);
    proxy
}

/// A client whose connections come from `source`.
fn client_from(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(source.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

/// Status, `X-Cache`, JSON body and headers of one GET.
async fn get(
    client: &reqwest::Client,
    proxy: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String, Value, reqwest::header::HeaderMap) {
    let mut request = client.get(format!("http://{proxy}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let cache = headers
        .get("x-cache")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:.300}"));
    (status, cache, body, headers)
}

/// A 429 of the per-address limits, shaped as the server's own.
fn assert_visitor_429(status: u16, body: &Value, headers: &reqwest::header::HeaderMap) {
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "RATE_LIMITED", "{body}");
    let reason = body["error"]["details"]["reason"].as_str().unwrap_or("");
    assert!(reason.starts_with("visitor_"), "{body}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1);
}

/// Polls `condition` until it holds, failing the test past the ceiling.
async fn until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + CEILING;
    while !condition() {
        assert!(tokio::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Client A sends ten distinct misses a second while client B asks for
/// its own misses one after another: every one of B's is served, and A
/// is refused once over its buckets. The budget is 30 a minute, which
/// A's share of misses alone would overrun; with one shared queue B's
/// misses waited behind A's and were refused.
#[tokio::test]
async fn one_client_at_ten_a_second_cannot_make_another_clients_misses_fail() {
    let upstream = upstream(30).await;
    let proxy = public_proxy(&upstream, 30, |c| {
        // B waits at most for the slot in progress and one of A's: two
        // steady intervals of 61 s / 27, well under this.
        c.proxy.max_wait_secs = 8.0;
        c.request_timeout_secs = 30.0;
    })
    .await;
    let addr = proxy.addr;
    let done = Arc::new(tokio::sync::Notify::new());
    let a = {
        let done = done.clone();
        tokio::spawn(async move {
            let client = client_from("127.0.0.1");
            let mut answers = Vec::new();
            // Pacing of the load, bounded by count: at most 60 s of it.
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            for i in 0..600 {
                tokio::select! {
                    _ = tick.tick() => {}
                    () = done.notified() => break,
                }
                let client = client.clone();
                answers.push(tokio::spawn(async move {
                    get(&client, addr, &format!("/markets?query=a{i}"), &[]).await
                }));
            }
            let mut out = Vec::new();
            for answer in answers {
                out.push(answer.await.expect("client A"));
            }
            out
        })
    };
    let b = client_from("127.0.0.2");
    for n in 1..=4 {
        let path = format!("/markets?limit={n}");
        let (status, cache, body, _) = get(&b, addr, &path, &[]).await;
        assert_eq!(status, 200, "B's miss {path}: {body}");
        assert_eq!(cache, "MISS", "{path}");
    }
    done.notify_one();
    let a = a.await.expect("client A");
    let refused: Vec<_> = a.iter().filter(|(status, ..)| *status == 429).collect();
    assert!(!refused.is_empty(), "A was never refused");
    let by_bucket = refused
        .iter()
        .filter(|(_, _, body, _)| {
            matches!(
                body["error"]["details"]["reason"].as_str(),
                Some("visitor_misses" | "visitor_requests" | "visitor_in_flight")
            )
        })
        .collect::<Vec<_>>();
    assert!(!by_bucket.is_empty(), "A was refused only by the budget");
    for (status, _, body, headers) in by_bucket {
        assert_visitor_429(*status, body, headers);
    }
    // A was served too, and the upstream never had to refuse the proxy.
    assert!(a.iter().any(|(status, ..)| *status == 200));
    let log = upstream.log.lock().unwrap();
    assert!(log.iter().all(|(_, status)| *status != 429), "{log:?}");
}

/// A visitor who joins a request in flight waits in its own lane: A has
/// four requests queued before K, B asks for K and K goes upstream in
/// B's turn, before A's last ones. A joining its own K is not charged a
/// miss: its bucket is empty by then (its next distinct miss is refused),
/// yet the join is served.
#[tokio::test]
async fn joiners_wait_in_their_own_lane_and_are_not_charged_a_miss() {
    let upstream = upstream(20).await;
    let proxy = public_proxy(&upstream, 20, |c| {
        c.proxy.max_wait_secs = 40.0;
        c.request_timeout_secs = 60.0;
        // A quarter of 20: five misses at once.
        c.proxy.visitor_misses = 20;
    })
    .await;
    let addr = proxy.addr;
    let state = proxy.state.clone();
    // C spends the budget's burst (two), so what follows queues.
    let c = client_from("127.0.0.3");
    for n in 1..=2 {
        let (status, ..) = get(&c, addr, &format!("/markets?limit={n}"), &[]).await;
        assert_eq!(status, 200);
    }
    let a = client_from("127.0.0.1");
    let mut waiting = Vec::new();
    let queued: [&'static str; 5] = [
        "/markets?query=a1",
        "/markets?query=a2",
        "/markets?query=a3",
        "/markets?query=a4",
        "/markets?query=k",
    ];
    for (i, path) in queued.into_iter().enumerate() {
        let client = a.clone();
        waiting.push(tokio::spawn(
            async move { get(&client, addr, path, &[]).await },
        ));
        until("A's request queued", || state.queued() > i).await;
    }
    // A's five misses spent its bucket; joining K costs nothing.
    let joined = state.metrics.joined.load(Ordering::Relaxed);
    let a_again = {
        let client = a.clone();
        tokio::spawn(async move { get(&client, addr, "/markets?query=k", &[]).await })
    };
    until("A joined K", || {
        state.metrics.joined.load(Ordering::Relaxed) > joined
    })
    .await;
    // Its own lane already holds K: no second place.
    assert_eq!(state.queued(), 5);
    let (status, _, body, headers) = get(&a, addr, "/markets?query=a5", &[]).await;
    assert_visitor_429(status, &body, &headers);
    assert_eq!(body["error"]["details"]["reason"], "visitor_misses");

    let b = client_from("127.0.0.2");
    let (status, cache, body, _) = get(&b, addr, "/markets?query=k", &[]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(cache, "MISS");
    let (status, _, body, _) = a_again.await.expect("A's join");
    assert_eq!(status, 200, "{body}");
    // K reached the upstream before A's fourth request.
    let log = upstream.log.lock().unwrap().clone();
    let at = |target: &str| log.iter().position(|(t, _)| t == target);
    let k = at("/markets?query=k").expect("K went upstream");
    assert!(at("/markets?query=a4").is_none_or(|a4| k < a4), "{log:?}");
    assert_eq!(
        log.iter().filter(|(t, _)| t == "/markets?query=k").count(),
        1
    );
    for task in waiting {
        task.abort();
    }
}

/// `X-Forwarded-For` names the client only when the peer is a trusted
/// proxy, and then its rightmost untrusted entry.
#[tokio::test]
async fn forwarded_for_is_believed_only_from_a_trusted_peer() {
    let upstream = upstream(100).await;
    let proxy = public_proxy(&upstream, 100, |c| {
        // A quarter of 4: one request at once per address.
        c.proxy.visitor_requests = 4;
        c.proxy.trusted_proxies = vec!["127.0.0.1/32".into()];
    })
    .await;
    let addr = proxy.addr;
    let balancer = client_from("127.0.0.1");
    let xff = |v: &'static str| [("x-forwarded-for", v)];
    // Behind the trusted balancer: one visitor per forwarded address.
    let (status, ..) = get(&balancer, addr, "/platforms", &xff("203.0.113.1")).await;
    assert_eq!(status, 200);
    let (status, _, body, headers) = get(&balancer, addr, "/platforms", &xff("203.0.113.1")).await;
    assert_visitor_429(status, &body, &headers);
    assert_eq!(body["error"]["details"]["reason"], "visitor_requests");
    // What the client wrote left of the balancer's entry is not believed.
    let (status, ..) = get(
        &balancer,
        addr,
        "/platforms",
        &xff("203.0.113.1, 203.0.113.2"),
    )
    .await;
    assert_eq!(status, 200);
    let (status, ..) = get(
        &balancer,
        addr,
        "/platforms",
        &xff("203.0.113.9, 203.0.113.2"),
    )
    .await;
    assert_eq!(status, 429);
    // An untrusted peer is its own address, whatever it forwards.
    let direct = client_from("127.0.0.2");
    let (status, ..) = get(&direct, addr, "/platforms", &xff("203.0.113.3")).await;
    assert_eq!(status, 200);
    let (status, ..) = get(&direct, addr, "/platforms", &xff("203.0.113.4")).await;
    assert_eq!(status, 429);
}

/// No `Access-Control-Allow-Origin` by default in public mode (the demo
/// is same-origin); `--cors-origin` lets listed origins in, only them.
#[tokio::test]
async fn public_mode_is_same_origin_unless_origins_are_listed() {
    let upstream = upstream(100).await;
    let closed = public_proxy(&upstream, 100, |_| {}).await;
    let open = public_proxy(&upstream, 100, |c| {
        c.cors_origins = vec!["https://good.example".into()];
    })
    .await;
    let client = reqwest::Client::new();
    let origin = |o: &'static str| [("origin", o)];
    let (status, _, _, headers) = get(
        &client,
        closed.addr,
        "/platforms",
        &origin("https://evil.example"),
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        !headers.contains_key("access-control-allow-origin"),
        "{headers:?}"
    );
    let preflight = client
        .request(
            reqwest::Method::OPTIONS,
            format!("http://{}/platforms", closed.addr),
        )
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "GET")
        .send()
        .await
        .unwrap();
    assert!(
        !preflight
            .headers()
            .contains_key("access-control-allow-origin")
    );

    let (_, _, _, headers) = get(
        &client,
        open.addr,
        "/platforms",
        &origin("https://good.example"),
    )
    .await;
    assert_eq!(
        headers["access-control-allow-origin"],
        "https://good.example"
    );
    let (_, _, _, headers) = get(
        &client,
        open.addr,
        "/platforms",
        &origin("https://evil.example"),
    )
    .await;
    assert!(!headers.contains_key("access-control-allow-origin"));
}

/// A miss is compressed once when stored; a hit is served from those
/// bytes, compressing nothing; a visitor without gzip gets the same JSON.
/// (Brotli is offered below gzip, so gzip is the one taken.)
#[tokio::test]
async fn cache_hits_are_served_from_gzip_bytes_made_once() {
    let upstream = upstream(100).await;
    let proxy = public_proxy(&upstream, 100, |_| {}).await;
    let client = reqwest::Client::new();
    let url = format!("http://{}/markets?limit=20", proxy.addr);
    let fetch = |gzip: bool| {
        let mut request = client.get(&url);
        if gzip {
            request = request.header("accept-encoding", "br;q=0.5, gzip;q=0.8");
        }
        async move {
            let response = request.send().await.unwrap();
            let headers = response.headers().clone();
            (headers, response.bytes().await.unwrap())
        }
    };
    let (miss, miss_bytes) = fetch(true).await;
    assert_eq!(miss["x-cache"], "MISS");
    assert_eq!(miss["content-encoding"], "gzip");
    let after_miss = proxy.state.compressions();
    assert!(after_miss >= 1);
    for _ in 0..3 {
        let (hit, hit_bytes) = fetch(true).await;
        assert_eq!(hit["x-cache"], "HIT");
        assert_eq!(hit["content-encoding"], "gzip");
        assert_eq!(hit_bytes, miss_bytes, "the stored gzip bytes");
    }
    assert_eq!(proxy.state.compressions(), after_miss, "a hit compressed");
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(&miss_bytes[..])
        .read_to_end(&mut json)
        .unwrap();
    let (plain, plain_bytes) = fetch(false).await;
    assert!(!plain.contains_key("content-encoding"));
    assert_eq!(plain_bytes.as_ref(), json.as_slice());
    let value: Value = serde_json::from_slice(&json).unwrap();
    assert!(value["markets"].is_array(), "{value:.200}");
    assert_eq!(proxy.state.compressions(), after_miss);
    // gzip;q=0 is a refusal of gzip.
    let response = client
        .get(&url)
        .header("accept-encoding", "gzip;q=0")
        .send()
        .await
        .unwrap();
    assert!(!response.headers().contains_key("content-encoding"));
}
