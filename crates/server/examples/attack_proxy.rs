//! Hostile traffic against proxy mode: the built `predmarket-server
//! --upstream`, started here as separate processes on loopback, in front
//! of a fake upstream (in this process, under the base path `/v2`) that
//! logs every request target and every header it receives.
//!
//! 1. A keyed proxy, for `--seconds`, all at once: an attacker's traversal
//!    sweep (`\`, `%5c`, `..`, `%2e%2e`, `.%2e`, `%2f`, double encodings,
//!    `?bust=N`, `api_key=`), the same attacker's breaker abuse (ids the
//!    upstream answers 502, HTML 200 or 403, two loops of five a second,
//!    so that its failures outnumber every success), slow readers
//!    of an 8 MiB answer from a third address (more than its connection
//!    cap), and a good visitor whose misses (five a second) must each be
//!    served. Then, as the control, two visitors' requests failing at the
//!    upstream must open the circuit.
//! 2. A public proxy (`--public-proxy`, 30 upstream requests a minute):
//!    client A sends ten distinct misses a second while client B's misses
//!    must each be served.
//! 3. With `redis-server` (required when `PREDMARKET_REQUIRE_REDIS` or
//!    `CI` is set): a proxy with `--redis`, Redis stopped (`SIGSTOP`): the
//!    next miss is served on the fallback budget, with one warning logged.
//!    How long that answer took is printed (docs/benchmarks.md), not
//!    checked: `shared::DEADLINE` bounds it.
//!
//! The rules (with `--check`, any broken one exits non-zero): the upstream
//! only ever sees operations' paths under `/v2`, never `bust` or `api_key`,
//! only the upstream key and no visitor's; each hostile target gets the
//! status of its kind; the good visitor's and B's misses are all 200 MISS;
//! the circuit never opens for the attacker and opens for the control; the
//! slow readers are cut short by `--write-timeout` and the extra ones
//! refused by `--max-connections-per-address`; A is refused by its own
//! buckets and the public proxy never sends more than its budget; Redis
//! stopped leaves a miss served with one warning. Never latency.
//!
//! ```text
//! cargo build -p predmarket-server --bin predmarket-server --example attack_proxy
//! target/debug/examples/attack_proxy --server target/debug/predmarket-server --check
//! ```
//! Loopback only; every wait has a ceiling, so every run ends by itself.

mod attack_common;
#[path = "../tests/common/paths.rs"]
mod paths;
#[path = "../tests/common/redis.rs"]
mod redis_kit;

use attack_common::Report;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use clap::Parser;
use paths::{HOSTILE_PATHS, REFUSED_IN_CORE, is_an_operation, raw_get, reason};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Parser, Debug, Clone)]
struct Args {
    /// The predmarket-server binary to start as the proxies.
    #[arg(long)]
    server: String,
    /// Seconds of the keyed proxy's attack.
    #[arg(long, default_value_t = 12.0)]
    seconds: f64,
    /// Slow readers (from one address whose connection cap is 8).
    #[arg(long, default_value_t = 12)]
    slow_readers: usize,
    /// The proxies' `--write-timeout`, seconds.
    #[arg(long, default_value_t = 2.0)]
    write_timeout: f64,
    /// Exit non-zero when a rule is broken.
    #[arg(long)]
    check: bool,
}

const BASE: &str = "/v2";
const UPSTREAM_KEY: &str = "pm_upstream_secret_Zq81";
const GOOD: &str = "pm_good_visitor_4r7";
const ATTACKER: &str = "pm_attacker_visitor_9k2";
/// The slow readers' connection cap.
const PER_ADDRESS: usize = 8;
/// The fake upstream's large answer: more than both ends' socket buffers.
const LARGE: usize = 8 * 1024 * 1024;
/// The public proxy's upstream budget, requests a minute.
const PUBLIC_LIMIT: u32 = 30;
/// The longest any one wait here may take.
const CEILING: Duration = Duration::from_secs(90);

const GOOD_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
const ATTACKER_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
const SLOW_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));

fn main() {
    let args = Args::parse();
    let check = args.check;
    attack_common::run_and_exit("attack_proxy", check, async move { run(&args).await })
}

/// One request the fake upstream received.
struct Seen {
    at: Instant,
    target: String,
    key: Option<String>,
    /// Every header value, joined (to look for a visitor's key anywhere).
    headers: String,
}

#[derive(Default)]
struct Upstream {
    seen: Mutex<Vec<Seen>>,
}

impl Upstream {
    fn len(&self) -> usize {
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

async fn start_upstream() -> Result<(SocketAddr, Arc<Upstream>), String> {
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

/// A proxy process, killed on drop, with the lines of its stderr.
struct Proxy {
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
    addr: SocketAddr,
    metrics: SocketAddr,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Proxy {
    fn start(attack: &Args, upstream: SocketAddr, args: &[&str]) -> Result<Self, String> {
        let binary = &attack.server;
        let mut child = Command::new(binary)
            .args(["--addr", "127.0.0.1:0", "--log-format", "json"])
            .args(["--metrics-addr", "127.0.0.1:0"])
            .args(["--upstream", &format!("http://{upstream}{BASE}")])
            .args(["--write-timeout", &attack.write_timeout.to_string()])
            .args(args)
            .env_clear()
            .env("PREDMARKET_UPSTREAM_KEY", UPSTREAM_KEY)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{binary}: {e}"))?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        // Drains stderr for as long as the proxy runs, so it never blocks
        // on a full pipe.
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
        let mut proxy = Self {
            child,
            log,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            metrics: SocketAddr::from(([127, 0, 0, 1], 0)),
        };
        proxy.addr = proxy.address_after("proxy listening on http://")?;
        proxy.metrics = proxy.address_after("metrics on http://")?;
        Ok(proxy)
    }

    /// The address in the first log line holding `marker`, waited for.
    fn address_after(&mut self, marker: &str) -> Result<SocketAddr, String> {
        let started = Instant::now();
        loop {
            let found = self.log.lock().ok().and_then(|log| {
                log.iter()
                    .find_map(|line| line.split(marker).nth(1).map(str::to_owned))
            });
            if let Some(rest) = found {
                let text = rest.split(['/', ',', ' ', '"']).next().unwrap_or("");
                return text.parse().map_err(|e| format!("{text}: {e}"));
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("the proxy exited ({status}) before {marker:?}"));
            }
            if started.elapsed() > CEILING {
                return Err(format!("no log line with {marker:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn lines_with(&self, text: &str) -> usize {
        self.log
            .lock()
            .map(|log| log.iter().filter(|l| l.contains(text)).count())
            .unwrap_or(0)
    }

    /// A value of its `/metrics` (`name` with its labels, if any).
    async fn metric(&self, name: &str) -> Result<f64, String> {
        let (status, _, text) = raw_get(self.metrics, "/metrics", None, None).await?;
        if status != 200 {
            return Err(format!("/metrics: {status}"));
        }
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("no {name} in /metrics"))
    }
}

/// `raw_get` within `CEILING`.
async fn ask(
    addr: SocketAddr,
    target: &str,
    key: Option<&str>,
    source: IpAddr,
) -> Result<(u16, String, String), String> {
    tokio::time::timeout(CEILING, raw_get(addr, target, key, Some(source)))
        .await
        .map_err(|_| format!("{target}: no answer within {} s", CEILING.as_secs()))?
}

fn x_cache(head: &str) -> &str {
    head.lines()
        .find_map(|l| l.strip_prefix("x-cache:"))
        .map_or("", str::trim)
}

async fn run(args: &Args) -> Result<usize, String> {
    let report = Arc::new(Report::default());
    let (upstream_addr, upstream) = start_upstream().await?;

    keyed(args, &report, upstream_addr, &upstream).await?;
    let public_from = upstream.len();
    public(args, &report, upstream_addr, &upstream, public_from).await?;
    redis_stopped(args, &report, upstream_addr).await?;
    upstream_rules(&report, &upstream);

    println!(
        "proxy attack: keyed proxy {} s (traversal sweep, breaker abuse at 2 × 5/s, {} slow readers), \
         public proxy (one client at 10/s, {PUBLIC_LIMIT} upstream requests a minute), Redis stopped",
        args.seconds, args.slow_readers
    );
    println!("the fake upstream received {} requests", upstream.len());
    Ok(report.print_end())
}

/// Scenario 1: the keyed proxy under a traversal sweep, breaker abuse and
/// slow readers, while the good visitor measures its own misses.
async fn keyed(
    args: &Args,
    report: &Arc<Report>,
    upstream_addr: SocketAddr,
    upstream: &Arc<Upstream>,
) -> Result<(), String> {
    let proxy = Proxy::start(
        args,
        upstream_addr,
        &[
            "--api-key",
            &format!("{GOOD}:unlimited"),
            "--api-key",
            &format!("{ATTACKER}:unlimited"),
            "--upstream-limit",
            "100000",
            "--breaker-failures",
            "3",
            // Once open (the control), it stays open for the rest.
            "--breaker-cooldown",
            "3600",
            "--max-connections-per-address",
            &PER_ADDRESS.to_string(),
            "--idle-timeout",
            "3600",
        ],
    )?;
    let addr = proxy.addr;
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    tasks.push(tokio::spawn(good_visitor(
        addr,
        report.clone(),
        stop.clone(),
    )));
    tasks.push(tokio::spawn(traversal(addr, report.clone(), stop.clone())));
    // Two loops of five a second: the attacker's failures outnumber every
    // success in the breaker's window (checked below), so only the rule
    // about distinct visitors can keep the circuit closed.
    for seed in 0..2 {
        tasks.push(tokio::spawn(breaker_abuse(
            addr,
            seed,
            report.clone(),
            stop.clone(),
        )));
    }
    let slow = tokio::spawn(slow_readers(
        addr,
        args.slow_readers,
        args.write_timeout,
        report.clone(),
    ));
    tokio::time::sleep(Duration::from_secs_f64(args.seconds)).await;
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        let _ = tokio::time::timeout(CEILING, task).await;
    }
    let _ = tokio::time::timeout(CEILING * 2, slow).await;
    abuse_was_strong(report, upstream);

    let state = proxy.metric("predmarket_proxy_circuit_state").await?;
    let refusals = proxy
        .metric("predmarket_proxy_circuit_refusals_total")
        .await?;
    report.rule(state == 0.0 && refusals == 0.0, || {
        format!("the attacker's requests opened the circuit (state {state}, {refusals} refusals)")
    });
    let failures = proxy
        .metric("predmarket_proxy_upstream_requests_total{status=\"502\"}")
        .await
        .unwrap_or(0.0);
    // The abuse reached the upstream and failed there: the breaker had
    // failures to count, and did not open on them.
    report.rule(failures > 0.0, || {
        "no 502 reached the proxy: the abuse tested nothing".into()
    });

    // The control: the upstream failing both visitors' requests opens the
    // circuit (within a bounded number of tries, whatever the window holds).
    let mut opened = false;
    for n in 0..400 {
        let (key, source) = if n % 2 == 0 {
            (GOOD, GOOD_IP)
        } else {
            (ATTACKER, ATTACKER_IP)
        };
        let (status, _, body) = ask(
            addr,
            &format!("/markets/fail502-control-{n}"),
            Some(key),
            source,
        )
        .await?;
        if reason(&body) == "upstream_circuit_open" {
            report.count("control: circuit open", status);
            opened = status == 503;
            break;
        }
    }
    report.rule(opened, || {
        "the circuit never opened while the upstream failed two visitors' requests".into()
    });
    let (status, _, body) = ask(addr, "/markets/good-after-control", Some(GOOD), GOOD_IP).await?;
    report.rule(
        status == 503 && reason(&body) == "upstream_circuit_open",
        || format!("after the control, a miss: {status} {body:.200}"),
    );
    report.rule(
        upstream
            .seen
            .lock()
            .map(|s| !s.iter().any(|r| r.target.contains("good-after-control")))
            .unwrap_or(false),
        || "a request went upstream while the circuit was open".into(),
    );
    Ok(())
}

/// Whether the abuse challenged the breaker: over its last window, the
/// upstream's failures (502s) at least as many as its successes, so a
/// breaker that counted failures of one visitor would have opened.
fn abuse_was_strong(report: &Report, upstream: &Upstream) {
    let window = predmarket_server::proxy::breaker::WINDOW;
    let Ok(seen) = upstream.seen.lock() else {
        return;
    };
    let recent = seen.iter().filter(|r| r.at.elapsed() < window);
    let (mut failed, mut served) = (0, 0);
    for request in recent {
        if request.target.contains("fail502") {
            failed += 1;
        } else if !request.target.contains("html") {
            served += 1;
        }
    }
    report.figure(format!(
        "breaker abuse: over the last {} s the upstream failed {failed} requests and served {served}",
        window.as_secs()
    ));
    report.rule(failed >= served, || {
        format!(
            "the abuse was too weak to test the breaker: {failed} failures, {served} successes \
             at the upstream in its window"
        )
    });
}

/// Distinct misses, five a second: each one must be a 200 MISS.
async fn good_visitor(addr: SocketAddr, report: Arc<Report>, stop: Arc<AtomicBool>) {
    let mut n = 0u64;
    let mut served = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let target = format!("/markets/good-{n}");
        match ask(addr, &target, Some(GOOD), GOOD_IP).await {
            Ok((status, head, body)) => {
                report.count("good visitor's miss", status);
                if status == 200 && x_cache(&head) == "miss" {
                    served += 1;
                } else {
                    report.violation(format!(
                        "good visitor {target}: {status} {} {body:.200}",
                        x_cache(&head)
                    ));
                }
            }
            Err(e) => report.violation(format!("good visitor {target}: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    report.rule(served > 0, || "the good visitor was never served".into());
}

/// The sweep of hostile targets, round after round, each with a fresh
/// `bust` parameter somewhere.
async fn traversal(addr: SocketAddr, report: Arc<Report>, stop: Arc<AtomicBool>) {
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let mut targets: Vec<(String, &[u16], &str)> = Vec::new();
        for target in paths::sweep() {
            let expect: &[u16] = if HOSTILE_PATHS.contains(&target.as_str()) {
                &[400, 404]
            } else {
                &[200, 400, 404]
            };
            targets.push((target, expect, "traversal"));
        }
        for target in REFUSED_IN_CORE {
            targets.push(((*target).to_owned(), &[400], "dot id refused in core"));
        }
        targets.push((
            format!("/trades?market_id=..%2f..%2faccount&bust={round}&api_key=leak"),
            &[200],
            "undeclared parameters",
        ));
        targets.push((
            format!("/markets/ok-id?include_raw=true&bust={round}"),
            &[200],
            "undeclared parameters",
        ));
        for (target, expect, what) in targets {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            match ask(addr, &target, Some(ATTACKER), ATTACKER_IP).await {
                Ok((status, _, body)) => {
                    report.count(what, status);
                    report.rule(expect.contains(&status), || {
                        format!("{what} {target}: {status}, expected {expect:?}: {body:.200}")
                    });
                    if status == 400 {
                        report.rule(body.contains("VALIDATION_ERROR"), || {
                            format!("{target}: a 400 that is not VALIDATION_ERROR: {body:.200}")
                        });
                    }
                }
                Err(e) => report.violation(format!("{what} {target}: {e}")),
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Five requests a second the upstream fails (three of four a 502, the
/// fourth an HTML page); none may be refused for an open circuit. `seed`
/// keeps two loops' ids apart.
async fn breaker_abuse(addr: SocketAddr, seed: u64, report: Arc<Report>, stop: Arc<AtomicBool>) {
    let mut k = 0u64;
    while !stop.load(Ordering::Relaxed) {
        k += 1;
        let n = 2 * k + seed;
        let target = match k % 4 {
            0 if k.is_multiple_of(8) => format!("/events/html200-{n}"),
            0 => format!("/series/html403-{n}"),
            1 => format!("/markets?query=fail502x{n}"),
            _ => format!("/markets/fail502-{n}"),
        };
        match ask(addr, &target, Some(ATTACKER), ATTACKER_IP).await {
            Ok((status, _, body)) => {
                report.count("breaker abuse", status);
                report.rule(status >= 400, || format!("{target}: {status}"));
                report.rule(reason(&body) != "upstream_circuit_open", || {
                    format!("{target}: refused for an open circuit")
                });
            }
            Err(e) => report.violation(format!("breaker abuse {target}: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Readers of the 8 MiB answer that never read, from one address, more of
/// them than its connection cap: the ones above the cap are closed
/// unanswered, the others are cut short by the write timeout.
async fn slow_readers(addr: SocketAddr, count: usize, write_timeout: f64, report: Arc<Report>) {
    let mut readers = Vec::new();
    for i in 0..count {
        readers.push(tokio::spawn(slow_reader(addr, i, write_timeout)));
    }
    let (mut cut, mut refused) = (0, 0);
    for reader in readers {
        match reader.await {
            Ok(SlowReader::Refused) => refused += 1,
            Ok(SlowReader::Cut { got, length }) => {
                cut += 1;
                report.figure(format!("slow reader cut after {got} of {length} bytes"));
            }
            Ok(SlowReader::Whole) => {
                report.violation("a slow reader got the whole answer: no write timeout".into())
            }
            Ok(SlowReader::Failed(e)) => report.violation(format!("slow reader: {e}")),
            Err(e) => report.violation(format!("slow reader task: {e}")),
        }
    }
    report.figure(format!(
        "slow readers: {cut} served and cut short by the write timeout, {refused} refused by \
         the per-address cap ({PER_ADDRESS})"
    ));
    report.rule(cut > 0, || "no slow reader was served at all".into());
    report.rule(cut <= PER_ADDRESS, || {
        format!("{cut} slow readers served at once from one address, cap {PER_ADDRESS}")
    });
    if count > PER_ADDRESS {
        report.rule(refused > 0, || {
            format!("{count} connections from one address, none refused")
        });
    }
}

enum SlowReader {
    Refused,
    Cut { got: usize, length: usize },
    Whole,
    Failed(String),
}

async fn slow_reader(addr: SocketAddr, i: usize, write_timeout: f64) -> SlowReader {
    let attempt = async {
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        socket
            .set_recv_buffer_size(4096)
            .map_err(|e| e.to_string())?;
        socket
            .bind(SocketAddr::new(SLOW_IP, 0))
            .map_err(|e| e.to_string())?;
        let mut stream = socket.connect(addr).await.map_err(|e| e.to_string())?;
        let request = format!(
            "GET /markets/large-{} HTTP/1.1\r\nHost: x\r\nX-API-Key: {ATTACKER}\r\n\r\n",
            i % 2
        );
        if stream.write_all(request.as_bytes()).await.is_err() {
            return Ok(SlowReader::Refused);
        }
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        let end = loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return Ok(SlowReader::Refused),
                Ok(n) => seen.extend_from_slice(&buf[..n]),
            }
            if let Some(at) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
        if !head.starts_with("http/1.1 200") {
            return Err(format!("{:.100}", head));
        }
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .ok_or("no content-length")?;
        let mut got = seen.len() - end;
        // Not reading, for twice the write timeout: the answer cannot be
        // sent within it.
        tokio::time::sleep(Duration::from_secs_f64(write_timeout * 2.0)).await;
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
        Ok::<_, String>(if got >= length {
            SlowReader::Whole
        } else {
            SlowReader::Cut { got, length }
        })
    };
    match tokio::time::timeout(CEILING, attempt).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) => SlowReader::Failed(e),
        Err(_) => SlowReader::Failed(format!(
            "still open {} s after asking: no write timeout",
            CEILING.as_secs()
        )),
    }
}

/// Scenario 2: a public proxy; A at ten distinct misses a second, B's
/// misses must all be served.
async fn public(
    args: &Args,
    report: &Arc<Report>,
    upstream_addr: SocketAddr,
    upstream: &Arc<Upstream>,
    from: usize,
) -> Result<(), String> {
    let proxy = Proxy::start(
        args,
        upstream_addr,
        &[
            "--public-proxy",
            "--upstream-limit",
            &PUBLIC_LIMIT.to_string(),
            // B waits at most for the slot under way and one of A's: two
            // steady intervals of 60 s / 27, well under this.
            "--upstream-max-wait",
            "8",
            "--request-timeout",
            "30",
        ],
    )?;
    let addr = proxy.addr;
    let started = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let a = {
        let done = done.clone();
        tokio::spawn(async move {
            let mut answers = Vec::new();
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            // At ten a second, bounded by count: at most 60 s of it.
            for i in 0..600 {
                tick.tick().await;
                if done.load(Ordering::Relaxed) {
                    break;
                }
                // One in five a cache buster: dropped, so a hit.
                let target = if i % 5 == 4 {
                    format!("/platforms?bust={i}")
                } else {
                    format!("/markets?query=a{i}")
                };
                answers.push(tokio::spawn(async move {
                    ask(addr, &target, None, GOOD_IP).await
                }));
            }
            let mut out = Vec::new();
            for answer in answers {
                out.push(answer.await.map_err(|e| e.to_string()).and_then(|r| r));
            }
            out
        })
    };
    for n in 1..=4 {
        let target = format!("/markets?limit={n}");
        match ask(addr, &target, None, ATTACKER_IP).await {
            Ok((status, head, body)) => {
                report.count("public: B's miss", status);
                report.rule(status == 200 && x_cache(&head) == "miss", || {
                    format!(
                        "public: B's miss {target}: {status} {} {body:.200}",
                        x_cache(&head)
                    )
                });
            }
            Err(e) => report.violation(format!("public: B's miss {target}: {e}")),
        }
    }
    done.store(true, Ordering::SeqCst);
    let a = a.await.map_err(|e| e.to_string())?;
    let elapsed = started.elapsed().as_secs_f64();
    let mut refused_by_buckets = 0;
    for answer in &a {
        match answer {
            Ok((status, _, body)) => {
                report.count("public: A", *status);
                let why = reason(body);
                if *status == 429 && why.starts_with("visitor_") {
                    refused_by_buckets += 1;
                }
                report.rule(*status == 200 || *status == 429, || {
                    format!("public: A got {status} {body:.200}")
                });
            }
            Err(e) => report.violation(format!("public: A: {e}")),
        }
    }
    report.rule(refused_by_buckets > 0, || {
        "public: A at ten a second was never refused by its own buckets".into()
    });
    let sent = upstream.len() - from;
    let params = predmarket_server::proxy::budget::Params::for_limit(PUBLIC_LIMIT);
    let allowed = f64::from(params.burst) + elapsed * 1000.0 / params.t_ms + 1.0;
    report.rule(sent as f64 <= allowed, || {
        format!(
            "public: {sent} upstream requests in {elapsed:.1} s, the budget allows {allowed:.1}"
        )
    });
    Ok(())
}

/// Scenario 3: Redis stopped under a running proxy.
async fn redis_stopped(
    args: &Args,
    report: &Arc<Report>,
    upstream_addr: SocketAddr,
) -> Result<(), String> {
    let redis = match redis_kit::start("Redis stopped under a running proxy", &[]) {
        Ok(Some(redis)) => redis,
        Ok(None) => return Ok(()),
        Err(e) => {
            report.violation(e);
            return Ok(());
        }
    };
    let proxy = Proxy::start(
        args,
        upstream_addr,
        &["--api-key", GOOD, "--redis", &redis.url],
    )?;
    const DOWN: &str = "Redis is unavailable";
    let fallback = "predmarket_proxy_redis_fallback_slots_total";
    let (status, head, body) = ask(proxy.addr, "/markets/redis-1", Some(GOOD), GOOD_IP).await?;
    report.rule(status == 200 && x_cache(&head) == "miss", || {
        format!("Redis up: {status} {body:.200}")
    });
    report.rule(proxy.metric(fallback).await? == 0.0, || {
        "Redis up: a slot from the fallback share".into()
    });
    redis.signal("-STOP")?;
    let asked = Instant::now();
    let answer = ask(proxy.addr, "/markets/redis-2", Some(GOOD), GOOD_IP).await;
    let took = asked.elapsed();
    let (status, head, body) = answer?;
    report.count("Redis stopped: a miss", status);
    report.rule(status == 200 && x_cache(&head) == "miss", || {
        format!("Redis stopped: {status} {body:.200}")
    });
    report.rule(proxy.metric(fallback).await? == 1.0, || {
        "Redis stopped: the miss's slot did not come from the fallback share".into()
    });
    // The warning is logged before the answer leaves; the pipe may lag.
    let polled = Instant::now();
    while proxy.lines_with(DOWN) == 0 && polled.elapsed() < CEILING {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    report.rule(proxy.lines_with(DOWN) == 1, || {
        format!(
            "Redis stopped: {} warnings, expected one",
            proxy.lines_with(DOWN)
        )
    });
    report.figure(format!(
        "Redis stopped (SIGSTOP): the first miss answered in {:.0} ms (debug build; bounded by \
         shared::DEADLINE, 1 s, plus the upstream)",
        took.as_secs_f64() * 1000.0
    ));
    let _ = redis.signal("-CONT");
    Ok(())
}

/// What the fake upstream received, over every scenario.
fn upstream_rules(report: &Report, upstream: &Upstream) {
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
