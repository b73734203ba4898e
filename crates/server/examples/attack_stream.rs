//! Hostile viewers of `GET /stream` against a public proxy (the built
//! `predmarket-server --public-proxy`, a process of its own on loopback)
//! in front of a fake upstream in this process, each way one client could
//! spoil the streams for everyone attacked while a good viewer on another address (127.0.0.9) watches a
//! book of its own and measures what it gets: its snapshot, then its
//! changes (the upstream moves the book every `CADENCE`).
//!
//! 1. **Starvation**: `ATTACKERS` addresses each open 16 streams × 32
//!    books (the per-address caps; 64 new books each, the quota) on a
//!    proxy with room in the visitors' buckets, and read them: 512 topics,
//!    as in the finding. The good viewer must still get its snapshot and
//!    `CHANGES` changes.
//! 2. **Opens skip admission / the topic cap falls**: one address opens
//!    and closes streams of 32 (and of 4) fresh ids for `--seconds`; what it gets
//!    fetched upstream must stay within its own misses bucket, and the
//!    good viewer must still open a resource nobody watched (no 503).
//! 3. **Cross-site opens**: `Sec-Fetch-Site: cross-site` and a foreign
//!    `Origin` get a 403 JSON error.
//! 4. **Breaker**: one address's broken requests (the upstream answers
//!    502) and a stream of another broken id; the circuit must stay
//!    closed: the good viewer's own requests are answered.
//! 5. **Log forging**: a watched id with a line break must not put a line
//!    of its own in the proxy's log.
//! 6. **Memory** (on the roomy proxy too): 16 streams that
//!    never read, of the same 32 answers of 512 KiB; the proxy's resident
//!    memory may grow by at most `MAX_GROWTH_MB` from one such stream to
//!    sixteen (each subscriber copied every snapshot: +281 MiB).
//!
//! Throughout, the upstream never sees more than the budget's limit in any
//! minute, and the good viewer is never refused. Rules, never latency: the
//! figures are printed. With `--check` a broken rule exits non-zero.
//!
//! ```text
//! cargo build -p predmarket-server --bin predmarket-server --example attack_stream
//! target/debug/examples/attack_stream --server target/debug/predmarket-server --check
//! ```
//! Loopback only; every wait has a ceiling, so every run ends by itself.

use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use clap::Parser;
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Parser, Debug, Clone)]
struct Args {
    /// The predmarket-server binary to start as the proxies.
    #[arg(long)]
    server: String,
    /// Seconds of the open-and-close churn (scenario 2).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Exit non-zero when a rule is broken.
    #[arg(long)]
    check: bool,
}

/// The upstream's limit for the proxy, per minute.
const LIMIT: u32 = 600;
/// How often the good viewer's book changes upstream.
const CADENCE: Duration = Duration::from_secs(2);
/// Changes the good viewer must see in each scenario.
const CHANGES: usize = 3;
/// The longest wait for anything that should come.
const CEILING: Duration = Duration::from_secs(60);
/// The size of each of the memory scenario's answers.
const BIG: usize = 512 * 1024;
/// Resident memory the proxy may gain from one non-reading stream of the
/// big answers to sixteen.
const MAX_GROWTH_MB: u64 = 64;
const GOOD: &str = "127.0.0.9";
/// Attacking addresses of the starvation scenario (each at its maxima:
/// 64 topics, 16 streams).
const ATTACKERS: usize = 8;

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap_or(IpAddr::from([127, 0, 0, 1]))
}

fn main() {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("runtime: {e}");
            std::process::exit(2);
        }
    };
    match runtime.block_on(run(&args)) {
        Ok(0) => {}
        Ok(_) if !args.check => {}
        Ok(_) => std::process::exit(1),
        Err(e) => {
            eprintln!("attack_stream: {e}");
            std::process::exit(2);
        }
    }
    std::process::exit(0);
}

/// Rules broken, and figures to print.
#[derive(Default)]
struct Report {
    violations: Mutex<Vec<String>>,
    figures: Mutex<Vec<String>>,
}

impl Report {
    fn rule(&self, holds: bool, message: impl FnOnce() -> String) {
        if !holds && let Ok(mut v) = self.violations.lock() {
            let message = message();
            eprintln!("VIOLATION: {message}");
            v.push(message);
        }
    }

    fn figure(&self, text: String) {
        if let Ok(mut f) = self.figures.lock() {
            f.push(text);
        }
    }
}

/// The fake upstream: every request's time and target.
#[derive(Default)]
struct Upstream {
    seen: Mutex<Vec<(Instant, String)>>,
    started: Option<Instant>,
}

impl Upstream {
    /// Distinct targets holding `part`.
    fn distinct(&self, part: &str) -> usize {
        let seen = self.seen.lock().map(|s| s.clone()).unwrap_or_default();
        let mut targets: Vec<&String> = seen
            .iter()
            .map(|(_, t)| t)
            .filter(|t| t.contains(part))
            .collect();
        targets.sort();
        targets.dedup();
        targets.len()
    }

    /// The most requests in any 60 s.
    fn busiest_minute(&self) -> usize {
        let at: Vec<Instant> = self
            .seen
            .lock()
            .map(|s| s.iter().map(|(at, _)| *at).collect())
            .unwrap_or_default();
        let mut most = 0;
        let mut start = 0;
        for end in 0..at.len() {
            while at[end].duration_since(at[start]) >= Duration::from_secs(60) {
                start += 1;
            }
            most = most.max(end + 1 - start);
        }
        most
    }
}

/// A book: `broken*` ids answer 502, `big*` ones carry `BIG` bytes, the
/// good viewer's (`good*`) moves every `CADENCE`, the rest stand still.
async fn answer(State(upstream): State<Arc<Upstream>>, uri: Uri) -> Response {
    let target = uri.to_string();
    if let Ok(mut seen) = upstream.seen.lock() {
        seen.push((Instant::now(), target.clone()));
    }
    let path = uri.path();
    let Some(id) = path
        .strip_prefix("/v2/markets/")
        .and_then(|rest| rest.strip_suffix("/orderbook"))
    else {
        let body = json!({ "error": { "code": "NOT_FOUND", "message": "no such path" } });
        return (StatusCode::NOT_FOUND, axum::Json(body)).into_response();
    };
    if id.starts_with("broken") {
        return (StatusCode::BAD_GATEWAY, "<html>bad gateway</html>").into_response();
    }
    let tick = if id.starts_with("good") {
        upstream
            .started
            .map_or(0, |s| s.elapsed().as_secs() / CADENCE.as_secs().max(1))
    } else {
        0
    };
    let price = 0.01 * ((tick % 90) + 1) as f64;
    let mut book = json!({
        "market_id": id,
        "platform": "polymarket",
        "yes": { "bids": [{ "price": price, "size": 100 }], "asks": [{ "price": 0.99, "size": 100 }] },
        "no": { "bids": [], "asks": [] },
    });
    if id.starts_with("big")
        && let Some(object) = book.as_object_mut()
    {
        object.insert("filler".into(), Value::from("x".repeat(BIG)));
    }
    axum::Json(json!({ "data": book, "meta": {} })).into_response()
}

async fn start_upstream() -> Result<(SocketAddr, Arc<Upstream>), String> {
    let upstream = Arc::new(Upstream {
        started: Some(Instant::now()),
        ..Upstream::default()
    });
    let app = axum::Router::new()
        .fallback(answer)
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

/// A proxy process, killed on drop, with the lines of its stderr.
struct Proxy {
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
    addr: SocketAddr,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Proxy {
    fn start(server: &str, upstream: SocketAddr, args: &[&str]) -> Result<Self, String> {
        let mut child = Command::new(server)
            .args(["--addr", "127.0.0.1:0", "--public-proxy"])
            .args(["--upstream", &format!("http://{upstream}/v2")])
            .args(["--upstream-limit", &LIMIT.to_string()])
            // Books poll every second.
            .args(["--stream-interval-scale", "0.2"])
            .args(args)
            .env_clear()
            .env("PREDMARKET_UPSTREAM_KEY", "attack-stream-upstream-key")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{server}: {e}"))?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        // Drained for as long as the proxy runs, so it never blocks on a
        // full pipe.
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if let Ok(mut lines) = lines.lock() {
                    lines.push(line);
                }
            }
        });
        let started = Instant::now();
        let marker = "listening on http://";
        let addr = loop {
            let found = log.lock().ok().and_then(|log| {
                log.iter()
                    .find_map(|line| line.split(marker).nth(1).map(str::to_owned))
            });
            if let Some(rest) = found {
                let text = rest.split(['/', ',', ' ', '"']).next().unwrap_or("");
                break text.parse().map_err(|e| format!("{text}: {e}"))?;
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("the proxy exited ({status}) before it listened"));
            }
            if started.elapsed() > CEILING {
                return Err("the proxy never listened".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Ok(Self { child, log, addr })
    }

    fn rss_mb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        Some(kb / 1024)
    }
}

/// A client whose connections come from `source`.
fn from(source: &str) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .local_address(ip(source))
        .build()
        .map_err(|e| e.to_string())
}

/// `/stream?watch=…` of `resources`.
fn stream_url(proxy: SocketAddr, resources: &[String]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for r in resources {
        query.append_pair("watch", r);
    }
    format!("http://{proxy}/stream?{}", query.finish())
}

/// Opens a stream: the response, or why not.
async fn open(
    client: &reqwest::Client,
    proxy: SocketAddr,
    resources: &[String],
    headers: &[(&str, &str)],
) -> Result<reqwest::Response, String> {
    let mut request = client.get(stream_url(proxy, resources));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    tokio::time::timeout(CEILING, request.send())
        .await
        .map_err(|_| "no answer to an open within the ceiling".to_owned())?
        .map_err(|e| e.to_string())
}

/// Reads a stream to its end (or until dropped), counting bytes.
fn read_all(mut response: reqwest::Response) -> tokio::task::JoinHandle<u64> {
    tokio::spawn(async move {
        let mut bytes = 0;
        while let Ok(Some(chunk)) = response.chunk().await {
            bytes += chunk.len() as u64;
        }
        bytes
    })
}

/// What the good viewer got: ms to its snapshot, and its changes.
struct Watched {
    snapshot_ms: u128,
    changes: usize,
}

/// The good viewer: a stream of one book of its own, read until its
/// snapshot and `CHANGES` changes (or the ceiling).
async fn good_viewer(proxy: SocketAddr, book: &str) -> Result<Watched, String> {
    let client = from(GOOD)?;
    let started = Instant::now();
    let mut response = open(&client, proxy, &[format!("orderbook:{book}")], &[]).await?;
    if response.status() != 200 {
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        return Err(format!("the good viewer's open: {status} {text:.200}"));
    }
    let mut buffer = String::new();
    let mut snapshot_ms = None;
    let mut changes = 0;
    let deadline = started + CEILING;
    while changes < CHANGES {
        let left = deadline.saturating_duration_since(Instant::now());
        let chunk = match tokio::time::timeout(left, response.chunk()).await {
            Ok(Ok(Some(chunk))) => chunk,
            Ok(_) => break,
            Err(_) => break,
        };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let name = block
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("");
            match name {
                "snapshot" => snapshot_ms = Some(started.elapsed().as_millis()),
                "change" => changes += 1,
                "error" => return Err(format!("the good viewer got an error event: {block:.300}")),
                _ => {}
            }
        }
    }
    let snapshot_ms = snapshot_ms.ok_or("the good viewer got no snapshot")?;
    Ok(Watched {
        snapshot_ms,
        changes,
    })
}

/// The good viewer beside scenario `name`: its rules and its figure.
fn judge_good(report: &Report, name: &str, watched: Result<Watched, String>) {
    match watched {
        Ok(w) => {
            report.rule(w.changes >= CHANGES, || {
                format!(
                    "{name}: the good viewer saw {} of {CHANGES} changes",
                    w.changes
                )
            });
            report.figure(format!(
                "{name}: good viewer's snapshot after {} ms, {} changes",
                w.snapshot_ms, w.changes
            ));
        }
        Err(e) => report.rule(false, || format!("{name}: {e}")),
    }
}

async fn run(args: &Args) -> Result<usize, String> {
    let report = Arc::new(Report::default());
    let (upstream_addr, upstream) = start_upstream().await?;
    let proxy = Proxy::start(&args.server, upstream_addr, &["--stream-max-topics", "200"])?;
    churn(args, &report, &proxy, &upstream).await?;
    cross_site(&report, &proxy).await?;
    breaker(&report, &proxy).await?;
    log_forging(&report, &proxy).await?;
    drop(proxy);
    // Room in the visitors' buckets: the attackers' topics are made.
    let roomy = Proxy::start(
        &args.server,
        upstream_addr,
        &["--visitor-misses", "60000", "--visitor-requests", "60000"],
    )?;
    starvation(&report, &roomy).await?;
    memory(&report, &roomy).await?;
    drop(roomy);

    let busiest = upstream.busiest_minute();
    report.rule(busiest <= LIMIT as usize, || {
        format!("the upstream saw {busiest} requests in one minute, its limit is {LIMIT}")
    });
    report.figure(format!(
        "upstream: {busiest} requests in its busiest minute (limit {LIMIT})"
    ));
    if let Ok(figures) = report.figures.lock() {
        for figure in figures.iter() {
            println!("{figure}");
        }
    }
    let violations = report.violations.lock().map(|v| v.len()).unwrap_or(1);
    println!("rules broken: {violations}");
    Ok(violations)
}

/// Scenario 1: `ATTACKERS` addresses at their per-visitor maxima: 16
/// streams each, 32 resources a stream, as many new books as the quota
/// takes (the rest watch those again). On a proxy with room in the
/// visitors' buckets, so that the topics are made: the scheduler's share
/// and the first polls' lanes are what must keep the good viewer served.
async fn starvation(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let mut held = Vec::new();
    let (mut opened, mut refused) = (0, 0);
    for a in 0..ATTACKERS {
        let attacker = from(&format!("127.0.0.{}", 20 + a))?;
        for s in 0..16 {
            // Streams 0 and 1 start 64 books, the quota; stream 2 tries
            // 32 more (refused), the others watch the first 64 again.
            let first = if s == 2 { 64 } else { (s % 2) * 32 };
            let books: Vec<String> = (first..first + 32)
                .map(|b| format!("orderbook:starve-{a}-{b}"))
                .collect();
            let response = open(&attacker, proxy.addr, &books, &[]).await?;
            if response.status() == 200 {
                opened += 1;
                held.push(read_all(response));
            } else {
                refused += 1;
            }
        }
    }
    report.rule(opened >= ATTACKERS * 15, || {
        format!("starvation: only {opened} of the attackers' streams opened")
    });
    report.figure(format!(
        "starvation: {ATTACKERS} addresses × 16 streams × 32 books: {opened} streams open, {refused} refused (over the quota)"
    ));
    judge_good(
        report,
        "starvation",
        good_viewer(proxy.addr, "good-1").await,
    );
    for task in held {
        task.abort();
    }
    Ok(())
}

/// Scenario 2: opens and closes of fresh ids, as fast as answered.
async fn churn(
    args: &Args,
    report: &Report,
    proxy: &Proxy,
    upstream: &Upstream,
) -> Result<(), String> {
    let attacker = from("127.0.0.3")?;
    let started = Instant::now();
    let (mut opens, mut refused) = (0u64, 0u64);
    let mut n = 0;
    while started.elapsed().as_secs_f64() < args.seconds {
        // Whole streams of 32 new ids, and small ones of 4 that fit the
        // bucket's burst.
        let size = if opens % 2 == 0 { 32 } else { 4 };
        let books: Vec<String> = (0..size)
            .map(|b| {
                n += 1;
                format!("orderbook:churn-{n}-{b}")
            })
            .collect();
        let response = open(&attacker, proxy.addr, &books, &[]).await?;
        opens += 1;
        if response.status() != 200 {
            refused += 1;
        }
        drop(response);
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    // Give the first polls of what was admitted time to reach the upstream.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let fetched = upstream.distinct("churn-");
    // Its misses bucket (the default 30 a minute, 7 at once) and then
    // some: never the thousands of the finding.
    let allowed = 7.0 + 30.0 * elapsed / 60.0 + 2.0;
    report.rule(fetched as f64 <= allowed, || {
        format!("churn: {fetched} of the attacker's ids fetched upstream in {elapsed:.1} s; its misses allow {allowed:.1}")
    });
    report.rule(refused > 0, || {
        "churn: the attacker was never refused".into()
    });
    report.figure(format!(
        "churn: {opens} opens of 32 or 4 fresh ids in {elapsed:.1} s, {refused} refused, {fetched} ids fetched upstream"
    ));
    judge_good(
        report,
        "churn (a resource nobody watched)",
        good_viewer(proxy.addr, "good-2").await,
    );
    Ok(())
}

/// Scenario 3: opens from another site's page.
async fn cross_site(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let page = from("127.0.0.6")?;
    for headers in [
        [("sec-fetch-site", "cross-site")],
        [("origin", "https://evil.example")],
    ] {
        let response = open(
            &page,
            proxy.addr,
            &["orderbook:good-1".to_owned()],
            &headers,
        )
        .await?;
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        report.rule(status == 403 && body["error"]["code"].is_string(), || {
            format!("cross-site: {headers:?} got {status} {body}")
        });
    }
    Ok(())
}

/// Scenario 4: one address's broken requests and a stream of another
/// broken id, while the good viewer asks for its own book.
async fn breaker(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.4")?;
    let stream = open(
        &attacker,
        proxy.addr,
        &["orderbook:broken-stream".to_owned()],
        &[],
    )
    .await?;
    let held = read_all(stream);
    let good = from(GOOD)?;
    let mut refused_good = 0;
    for i in 0..20 {
        let _ = attacker
            .get(format!(
                "http://{}/markets/broken-{i}/orderbook",
                proxy.addr
            ))
            .send()
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        if i % 4 == 3 {
            let response = good
                .get(format!("http://{}/markets/good-3/orderbook", proxy.addr))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            if status != 200 {
                refused_good += 1;
                report.rule(false, || {
                    format!("breaker: the good viewer's request got {status} {body}")
                });
            }
        }
    }
    held.abort();
    report.figure(format!(
        "breaker: 20 broken requests and a broken stream; the good viewer refused {refused_good} times"
    ));
    judge_good(report, "breaker", good_viewer(proxy.addr, "good-3").await);
    Ok(())
}

/// Scenario 5: a line break in a watched id.
async fn log_forging(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.5")?;
    let forged = "orderbook:x\nFORGED level=ERROR".to_owned();
    let response = open(&attacker, proxy.addr, &[forged], &[]).await?;
    let status = response.status().as_u16();
    drop(response);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let lines = proxy.log.lock().map(|l| l.clone()).unwrap_or_default();
    report.rule(!lines.iter().any(|l| l.starts_with("FORGED")), || {
        "log forging: a watched id put a line of its own in the log".into()
    });
    report.figure(format!(
        "log forging: the open got {status}; no forged line"
    ));
    Ok(())
}

/// Scenario 6: 16 streams that never read, of the same 32 big answers.
async fn memory(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.7")?;
    let books: Vec<String> = (0..32).map(|b| format!("orderbook:big-{b}")).collect();
    let mut held = Vec::new();
    let first = open(&attacker, proxy.addr, &books, &[]).await?;
    report.rule(first.status() == 200, || {
        format!(
            "memory: the first stream of the big answers got {}",
            first.status()
        )
    });
    held.push(first);
    // The snapshots exist once the topics polled: then one stream's worth.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let one = proxy.rss_mb().ok_or("no RSS of the proxy")?;
    for _ in 1..16 {
        held.push(open(&attacker, proxy.addr, &books, &[]).await?);
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let sixteen = proxy.rss_mb().ok_or("no RSS of the proxy")?;
    let growth = sixteen.saturating_sub(one);
    report.rule(growth <= MAX_GROWTH_MB, || {
        format!("memory: 15 more non-reading streams grew the proxy by {growth} MiB (at most {MAX_GROWTH_MB})")
    });
    report.figure(format!(
        "memory: RSS {one} MiB with one non-reading stream of 32 × 512 KiB answers, {sixteen} MiB with 16 (+{growth} MiB)"
    ));
    judge_good(report, "memory", good_viewer(proxy.addr, "good-4").await);
    drop(held);
    Ok(())
}
