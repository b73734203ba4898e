//! `GET /stream` over real loopback HTTP: the local server's streams
//! (snapshots, changes of a ticking book, `Last-Event-ID` replay and
//! resync, the caps, an unknown id), and proxy mode's (one poller however
//! many watch, the stale contract when the upstream fails and recovers).
//! Waits poll for an event under a generous ceiling; nothing is timed.

mod common;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use common::{KEY, TestServer};
use predmarket_server::config::Config;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// How long a test waits for an event that should come, at most.
const CEILING: Duration = Duration::from_secs(60);

/// One Server-Sent Event.
#[derive(Debug, Clone)]
struct Event {
    name: String,
    id: String,
    data: Value,
}

/// A stream being read.
struct Reader {
    response: reqwest::Response,
    buffer: String,
}

impl Reader {
    async fn open(base: &str, query: &str, last_id: Option<&str>) -> Reader {
        let response = request(base, query, last_id).await;
        assert_eq!(response.status(), 200, "{query}");
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert!(kind.starts_with("text/event-stream"), "{kind}");
        Reader {
            response,
            buffer: String::new(),
        }
    }

    /// The next event (heartbeats and the preamble skipped).
    async fn next(&mut self) -> Event {
        tokio::time::timeout(CEILING, self.next_inner())
            .await
            .expect("an event within the ceiling")
    }

    async fn next_inner(&mut self) -> Event {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                if let Some(event) = parse(&block) {
                    return event;
                }
            }
            let chunk = self
                .response
                .chunk()
                .await
                .expect("the stream reads")
                .expect("the stream goes on");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// Events until one named `name` of `resource` (that one included).
    async fn until(&mut self, name: &str, resource: &str) -> Vec<Event> {
        let mut seen = Vec::new();
        loop {
            let event = self.next().await;
            let done = event.name == name && event.data["resource"] == resource;
            seen.push(event);
            if done {
                return seen;
            }
        }
    }
}

fn parse(block: &str) -> Option<Event> {
    let mut name = None;
    let mut id = String::new();
    let mut data = None;
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("event: ") {
            name = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("id: ") {
            id = v.to_owned();
        } else if let Some(v) = line.strip_prefix("data: ") {
            data = Some(serde_json::from_str(v).expect("an event's data is JSON"));
        }
    }
    Some(Event {
        name: name?,
        id,
        data: data?,
    })
}

async fn request(base: &str, query: &str, last_id: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .get(format!("{base}/stream?{query}"))
        .header("X-API-Key", KEY);
    if let Some(id) = last_id {
        request = request.header("Last-Event-ID", id);
    }
    request.send().await.expect("request")
}

/// Books poll every 50 ms (they tick every 5 s); quiet streams beat every
/// 200 ms.
fn fast(mut config: Config) -> Config {
    config.stream.interval_scale = 0.01;
    config.stream.heartbeat_secs = 0.2;
    config
}

/// `watch=…` for each resource, encoded.
fn watch(resources: &[&str]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for r in resources {
        query.append_pair("watch", r);
    }
    query.finish()
}

/// An open market of a platform that serves order books.
async fn book_market(server: &TestServer) -> String {
    let body = server
        .ok("/markets?status=open&limit=50&platform=platform_a")
        .await;
    body["markets"]
        .as_array()
        .and_then(|markets| markets.first())
        .and_then(|m| m["id"].as_str())
        .expect("an open market")
        .to_owned()
}

#[tokio::test]
async fn a_book_and_a_market_stream_snapshots_then_changes() {
    let server = TestServer::with(fast(common::unlimited())).await;
    let id = book_market(&server).await;
    let base = server.url("");
    let book = format!("orderbook:{id}");
    let market = format!("market:{id}");
    let mut reader = Reader::open(
        base.trim_end_matches('/'),
        &watch(&[&book, &market, &book]),
        None,
    )
    .await;
    let mut snapshots: Vec<Event> = Vec::new();
    while snapshots.len() < 2 {
        let event = reader.next().await;
        let first_of_its_resource = !snapshots
            .iter()
            .any(|s| s.data["resource"] == event.data["resource"]);
        if first_of_its_resource {
            assert_eq!(event.name, "snapshot", "{event:?}");
            snapshots.push(event);
        }
    }
    for snapshot in &snapshots {
        assert_eq!(snapshot.data["seq"], 1);
        assert!(snapshot.data["as_of"].is_string(), "{snapshot:?}");
        assert!(
            snapshot.data["data"].is_object(),
            "the answer whole: {snapshot:?}"
        );
    }
    let named: Vec<&Value> = snapshots.iter().map(|s| &s.data["resource"]).collect();
    assert!(named.contains(&&Value::from(book.clone())) && named.contains(&&Value::from(market)));
    // The book ticks: its levels change within a few seconds.
    let events = reader.until("change", &book).await;
    let change = events.last().expect("the change");
    assert_eq!(change.data["seq"], 2);
    let changes = change.data["changes"].as_array().expect("changes");
    assert!(!changes.is_empty());
    for level in changes {
        assert!(
            ["yes", "no"].contains(&level["book"].as_str().unwrap_or_default()),
            "{level}"
        );
        assert!(
            ["bids", "asks"].contains(&level["side"].as_str().unwrap_or_default()),
            "{level}"
        );
        assert!(level["price"].is_number());
        assert!(
            !(level["from"].is_null() && level["to"].is_null()),
            "{level}"
        );
    }
    assert!(
        change.data["data"]["data"]["yes"].is_object(),
        "the new book whole"
    );
    // The stream's id holds its position in both resources.
    assert_eq!(change.id.split(',').count(), 2, "{}", change.id);
}

#[tokio::test]
async fn a_reconnect_replays_what_it_missed_or_resyncs() {
    let server = TestServer::with(fast(common::unlimited())).await;
    let id = book_market(&server).await;
    let base = server.url("");
    let base = base.trim_end_matches('/');
    let book = format!("orderbook:{id}");
    let query = watch(&[&book]);
    let mut reader = Reader::open(base, &query, None).await;
    let snapshot = reader.next().await;
    assert_eq!(snapshot.name, "snapshot");
    let first = reader.until("change", &book).await;
    let missed_seq = first.last().expect("a change").data["seq"].clone();
    drop(reader);
    // Back from the snapshot's position: the change is replayed, no snapshot.
    let mut again = Reader::open(base, &query, Some(&snapshot.id)).await;
    loop {
        // (A busy machine may have made a poll late: `stale` and `live`
        // are replayed too, in their place.)
        let replayed = again.next().await;
        assert!(
            ["change", "stale", "live"].contains(&replayed.name.as_str()),
            "{replayed:?}"
        );
        if replayed.name == "change" {
            assert_eq!(replayed.data["seq"], missed_seq);
            break;
        }
    }
    drop(again);
    // A position of another run of the poller: resync, then a snapshot.
    let (epoch, seq) = snapshot.id.split_once(':').expect("epoch:seq");
    let other = u32::from_str_radix(epoch, 16).expect("hex").wrapping_add(1);
    let stale_id = format!("{other:x}:{seq}");
    let mut resynced = Reader::open(base, &query, Some(&stale_id)).await;
    assert_eq!(resynced.next().await.name, "resync");
    assert_eq!(resynced.next().await.name, "snapshot");
    // A malformed id is no position: a snapshot, as for a new client.
    let mut fresh = Reader::open(base, &query, Some("<script>")).await;
    assert_eq!(fresh.next().await.name, "snapshot");
}

#[tokio::test]
async fn an_unknown_resource_is_an_error_event_and_others_go_on() {
    let server = TestServer::with(fast(common::unlimited())).await;
    let id = book_market(&server).await;
    let base = server.url("");
    let mut reader = Reader::open(
        base.trim_end_matches('/'),
        &watch(&["market:no-such-market", &format!("market:{id}")]),
        None,
    )
    .await;
    let mut names = Vec::new();
    for _ in 0..2 {
        let event = reader.next().await;
        names.push((event.name.clone(), event.data["resource"].clone()));
        if event.name == "error" {
            assert_eq!(event.data["status"], 404);
            assert_eq!(event.data["code"], "NOT_FOUND");
        }
    }
    assert!(
        names.contains(&("error".into(), Value::from("market:no-such-market"))),
        "{names:?}"
    );
    assert!(
        names.contains(&("snapshot".into(), Value::from(format!("market:{id}")))),
        "{names:?}"
    );
}

#[tokio::test]
async fn bad_requests_and_caps_are_json_errors() {
    let mut config = fast(common::unlimited());
    config.stream.max_streams_per_address = 2;
    config.stream.max_resources_per_stream = 2;
    let server = TestServer::with(config).await;
    let base = server.url("");
    let base = base.trim_end_matches('/');
    for (query, status) in [
        ("", 400),
        ("watch=book:a", 400),
        ("watch=market:..", 400),
        ("watch=market:%2e%2e", 400),
        ("watch=market:a&watch=market:b&watch=market:c", 400),
    ] {
        let response = request(base, query, None).await;
        assert_eq!(response.status(), status, "{query}");
        let body: Value = response.json().await.expect("JSON");
        assert_eq!(body["error"]["code"], "VALIDATION_ERROR", "{query}: {body}");
    }
    let without_key = reqwest::get(format!("{base}/stream?watch=market:a"))
        .await
        .expect("request");
    assert_eq!(without_key.status(), 401);
    // Two streams from this address are its share; the third is refused.
    let _one = Reader::open(base, "watch=market:a", None).await;
    let _two = Reader::open(base, "watch=market:b", None).await;
    let third = request(base, "watch=market:c", None).await;
    assert_eq!(third.status(), 429);
    assert!(third.headers().contains_key("retry-after"));
    let body: Value = third.json().await.expect("JSON");
    assert_eq!(body["error"]["details"]["reason"], "streams_per_address");
    // A stream that closes gives its place back.
    drop(_one);
    let mut reopened = None;
    let deadline = tokio::time::Instant::now() + CEILING;
    while tokio::time::Instant::now() < deadline {
        let response = request(base, "watch=market:c", None).await;
        if response.status() == 200 {
            reopened = Some(response);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        reopened.is_some(),
        "the closed stream's place was given back"
    );
}

/// The upstream of the proxy tests: the local server, failing with 503 while
/// `down` is set, refusing order books (a typed 404) while `missing` is,
/// counting the requests for each path.
struct Upstream {
    addr: SocketAddr,
    down: Arc<AtomicBool>,
    missing: Arc<AtomicBool>,
    book_requests: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[derive(Clone)]
struct Switch {
    down: Arc<AtomicBool>,
    missing: Arc<AtomicBool>,
    book_requests: Arc<AtomicUsize>,
}

async fn switch(State(switch): State<Switch>, request: Request, next: Next) -> Response {
    if request.uri().path().ends_with("/orderbook") {
        switch.book_requests.fetch_add(1, Ordering::SeqCst);
    }
    if switch.missing.load(Ordering::SeqCst) && request.uri().path().ends_with("/orderbook") {
        let body =
            serde_json::json!({"error": {"code": "NOT_FOUND", "message": "no such market yet"}});
        return (axum::http::StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    }
    if switch.down.load(Ordering::SeqCst) {
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

const UPSTREAM_KEY: &str = "stream-upstream-key";

async fn upstream() -> Upstream {
    let mut config = common::config();
    config.api_key = vec![format!("{UPSTREAM_KEY}:unlimited")];
    let down = Arc::new(AtomicBool::new(false));
    let missing = Arc::new(AtomicBool::new(false));
    let book_requests = Arc::new(AtomicUsize::new(0));
    let app = predmarket_server::app_with_data(&config, common::default_data()).layer(
        axum::middleware::from_fn_with_state(
            Switch {
                down: down.clone(),
                missing: missing.clone(),
                book_requests: book_requests.clone(),
            },
            switch,
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Upstream {
        addr,
        down,
        missing,
        book_requests,
        task,
    }
}

struct Proxy {
    addr: SocketAddr,
    hub: Arc<predmarket_server::stream::Hub>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn proxy(upstream: &Upstream) -> Proxy {
    proxy_with(upstream, |_| {}).await
}

/// A proxy in front of `upstream`, its config changed by `tune` first.
async fn proxy_with(upstream: &Upstream, tune: impl FnOnce(&mut Config)) -> Proxy {
    let key_file = std::env::temp_dir().join(format!(
        "pm-stream-upstream-key-{}-{}",
        std::process::id(),
        upstream.addr.port()
    ));
    std::fs::write(&key_file, UPSTREAM_KEY).expect("key file");
    let mut config = fast(Config::for_tests(&format!("{KEY}:unlimited")));
    config.proxy.upstream = Some(format!("http://{}", upstream.addr));
    config.proxy.upstream_key_file = Some(key_file.clone());
    config.proxy.upstream_limit = 6_000;
    config.proxy.breaker_cooldown_secs = 0.5;
    config.proxy.max_wait_secs = 3.0;
    tune(&mut config);
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .unwrap_or_else(|e| panic!("proxy: {e}"));
    let _ = std::fs::remove_file(&key_file);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let limits = config.connection_limits();
    let router = built.router;
    let task = tokio::spawn(async move {
        let _ = predmarket_server::listen::serve(listener, router, limits, std::future::pending())
            .await;
    });
    Proxy {
        addr,
        hub: built.hub,
        task,
    }
}

#[tokio::test]
async fn through_the_proxy_one_poller_serves_every_viewer() {
    let upstream = upstream().await;
    let proxy = proxy(&upstream).await;
    let direct = TestServer::with(common::unlimited()).await;
    let id = book_market(&direct).await;
    let base = format!("http://{}", proxy.addr);
    let book = format!("orderbook:{id}");
    let mut readers = Vec::new();
    for _ in 0..12 {
        let mut reader = Reader::open(&base, &watch(&[&book]), None).await;
        assert_eq!(reader.next().await.name, "snapshot");
        readers.push(reader);
    }
    assert_eq!(proxy.hub.topics(), 1, "one poller for the one resource");
    assert_eq!(proxy.hub.streams(), 12);
    // Every viewer gets the same change, with the same number.
    let mut seqs = Vec::new();
    for reader in &mut readers {
        let events = reader.until("change", &book).await;
        seqs.push(events.last().expect("change").data["seq"].clone());
    }
    assert!(seqs.windows(2).all(|w| w[0] == w[1]), "{seqs:?}");
    // However many watch, the upstream is asked at most once per poll.
    let polls = proxy.hub.stats.polls.load(Ordering::SeqCst);
    let asked = upstream.book_requests.load(Ordering::SeqCst);
    assert!(
        asked <= polls as usize,
        "upstream asked {asked} times for {polls} polls"
    );
    drop(readers);
    let deadline = tokio::time::Instant::now() + CEILING;
    while proxy.hub.streams() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(proxy.hub.streams(), 0, "closed streams are let go");
}

#[tokio::test]
async fn a_failing_upstream_is_stale_at_once_and_live_again_after() {
    let upstream = upstream().await;
    let proxy = proxy(&upstream).await;
    let direct = TestServer::with(common::unlimited()).await;
    let id = book_market(&direct).await;
    let base = format!("http://{}", proxy.addr);
    let market = format!("market:{id}");
    let mut reader = Reader::open(&base, &watch(&[&market]), None).await;
    assert_eq!(reader.next().await.name, "snapshot");
    upstream.down.store(true, Ordering::SeqCst);
    let events = reader.until("stale", &market).await;
    let stale = events.last().expect("stale");
    assert_eq!(stale.data["reason"], "poll_failed", "{stale:?}");
    assert!(stale.data["age_ms"].is_number(), "{stale:?}");
    // The upstream's failure itself, not the proxy's stale copy of the book.
    assert!(
        stale.data["status"].as_u64().is_some_and(|s| s >= 500),
        "{stale:?}"
    );
    // A viewer joining now is told the data is stale, after its snapshot.
    let mut late = Reader::open(&base, &watch(&[&market]), None).await;
    assert_eq!(late.next().await.name, "snapshot");
    assert_eq!(late.next().await.name, "stale");
    upstream.down.store(false, Ordering::SeqCst);
    let events = reader.until("live", &market).await;
    assert!(events.iter().all(|e| e.name != "error"), "{events:?}");
    late.until("live", &market).await;
}

/// Open markets of the platforms that serve order books, at most `n`.
async fn book_markets(server: &TestServer, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for platform in ["platform_a", "platform_b", "platform_c", "platform_d"] {
        let body = server
            .ok(&format!(
                "/markets?status=open&limit=50&platform={platform}"
            ))
            .await;
        for market in body["markets"].as_array().into_iter().flatten() {
            if let Some(id) = market["id"].as_str() {
                ids.push(id.to_owned());
            }
        }
    }
    ids.truncate(n);
    ids
}

/// Many resources watched at once start more polls than the budget's
/// burst: the ones beyond it wait for their slots, however far past
/// `--upstream-max-wait` (which bounds a visitor's wait), rather than be
/// refused and told to every subscriber as a `budget` failure.
#[tokio::test]
async fn first_polls_beyond_the_burst_wait_for_their_slots() {
    let upstream = upstream().await;
    // 100 a minute: a burst of 10, then a slot every 0.68 s; a visitor
    // would be refused past 0.5 s of waiting, i.e. at the second in line.
    let proxy = proxy_with(&upstream, |config| {
        config.proxy.upstream_limit = 100;
        config.proxy.max_wait_secs = 0.5;
    })
    .await;
    let direct = TestServer::with(common::unlimited()).await;
    let ids = book_markets(&direct, 20).await;
    assert_eq!(ids.len(), 20, "enough open books");
    let books: Vec<String> = ids.iter().map(|id| format!("orderbook:{id}")).collect();
    let base = format!("http://{}", proxy.addr);
    let mut readers = Vec::new();
    for half in books.chunks(10) {
        let names: Vec<&str> = half.iter().map(String::as_str).collect();
        readers.push((Reader::open(&base, &watch(&names), None).await, half));
    }
    for (reader, half) in &mut readers {
        let mut pending: Vec<&String> = half.iter().collect();
        while !pending.is_empty() {
            let event = reader.next().await;
            // Stretched, as 20 books wanting a poll every 50 ms are; but
            // no poll refused or failed.
            if event.name == "stale" {
                assert_eq!(event.data["reason"], "interval_stretched", "{event:?}");
            }
            assert_ne!(event.name, "error", "{event:?}");
            if event.name == "snapshot" {
                pending.retain(|b| event.data["resource"] != b.as_str());
            }
        }
    }
    // No book polled again while others waited for their first slot (it
    // would have queued behind them, late enough to be told `stale`).
    assert_eq!(proxy.hub.stats.polls.load(Ordering::SeqCst), 20);
    assert_eq!(
        upstream.book_requests.load(Ordering::SeqCst),
        20,
        "one upstream request per book, none refused before it was sent"
    );
}

/// A book whose interval the budget stretches is `live` after each answer
/// and told `stale` (`interval_stretched`) between answers once its data
/// is older than wanted, each time: never left `stale` for good, never
/// silent while its data is older than its kind wants.
#[tokio::test]
async fn a_stretched_book_is_told_stale_each_cycle_and_live_at_each_answer() {
    let upstream = upstream().await;
    // 60 a minute, half for the pollers: two books wanting a poll every
    // 50 ms get one every few seconds, longer than the 50 ms wanted and
    // the 2 s of patience before the data counts as old.
    let proxy = proxy_with(&upstream, |config| {
        config.proxy.upstream_limit = 60;
    })
    .await;
    let direct = TestServer::with(common::unlimited()).await;
    let ids = book_markets(&direct, 2).await;
    let books: Vec<String> = ids.iter().map(|id| format!("orderbook:{id}")).collect();
    let names: Vec<&str> = books.iter().map(String::as_str).collect();
    let base = format!("http://{}", proxy.addr);
    let mut reader = Reader::open(&base, &watch(&names), None).await;
    let book = &books[0];
    // snapshot, stale, live, stale: the stretch told, then each answer.
    let mut told = Vec::new();
    while told.len() < 4 {
        let event = reader.next().await;
        assert_ne!(event.name, "error", "{event:?}");
        if event.data["resource"] != book.as_str() {
            continue;
        }
        if event.name == "stale" {
            // Only the stretch: no poll failed (a poll waiting for its slot
            // past its patience would be `budget`, and is not what this
            // test is about).
            if event.data["reason"] == "budget" {
                continue;
            }
            assert_eq!(event.data["reason"], "interval_stretched", "{event:?}");
            let number = |key: &str| event.data[key].as_f64().unwrap_or(0.0);
            assert!(number("interval_ms") > number("wanted_ms"), "{event:?}");
            assert!(number("age_ms") >= number("wanted_ms"), "{event:?}");
        }
        let name = event.name.as_str();
        let expected = ["snapshot", "stale", "live", "stale"][told.len()];
        if name == expected {
            told.push(event);
        } else {
            // A change may come before the live of the same answer.
            assert!(
                name == "change" && expected == "live",
                "{told:?} then {event:?}"
            );
        }
    }
}

/// A resource the upstream refuses is not refused for good: polled again,
/// it is announced with a `snapshot` on the same stream when it appears
/// (tomorrow's game, watched before it is published), and a viewer who
/// comes later is not told the refusal it no longer holds.
#[tokio::test]
async fn a_refused_book_that_appears_is_announced_with_a_snapshot() {
    let upstream = upstream().await;
    let proxy = proxy(&upstream).await;
    let direct = TestServer::with(common::unlimited()).await;
    let id = book_market(&direct).await;
    let base = format!("http://{}", proxy.addr);
    let book = format!("orderbook:{id}");
    upstream.missing.store(true, Ordering::SeqCst);
    let mut early = Reader::open(&base, &watch(&[&book]), None).await;
    let refused = early.next().await;
    assert_eq!(
        (refused.name.as_str(), refused.data["code"].as_str()),
        ("error", Some("NOT_FOUND"))
    );
    upstream.missing.store(false, Ordering::SeqCst);
    // Polled again after the negative cache's lifetime: the book appears.
    let events = early.until("snapshot", &book).await;
    assert_eq!(events.last().map(|e| e.name.as_str()), Some("snapshot"));
    assert!(events.last().is_some_and(|e| e.data["data"].is_object()));
    // A viewer now gets the book, not the refusal.
    let mut late = Reader::open(&base, &watch(&[&book]), None).await;
    assert_eq!(late.next().await.name, "snapshot");
}
