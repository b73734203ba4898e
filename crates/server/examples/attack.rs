//! Hostile traffic against predmarket-server, while a
//! well-behaved client measures its own latency throughout.
//!
//! Runs, at the same time and for `--seconds`:
//! - `--heavy` tasks sending worst-case searches to /markets, /events and
//!   /series (the most words and bytes allowed, all common letters), plus
//!   queries over the cap (which must be 400) and one as long as a URL can be
//!   (which must be 414/431);
//! - `--slowloris` sockets that trickle a header line every 500 ms and never
//!   finish the head, reconnecting when closed;
//! - `--idle` sockets that connect and send nothing, reconnecting when closed;
//! - oversize URLs and headers, random keys, forged cursors;
//! - one good client on its own key: `/platforms` and `/markets?limit=25`
//!   back to back on one keep-alive connection.
//!
//! Then, with the idle and slow sockets still open, it sends SIGTERM to the
//! server (when it started it) and times the exit.
//!
//! With `--check` it exits non-zero on a broken rule: a 5xx other than the
//! 503 of shedding, a good-client request refused or failed, a slow or idle
//! socket open past its timeout (plus `--slack`), an answer of the wrong
//! kind, or SIGTERM not exiting within `--exit-within` (10 s). Latency figures are printed,
//! never asserted on.
//!
//! ```text
//! cargo build --release -p predmarket-server --examples
//! target/release/examples/attack --server target/release/predmarket-server \
//!     --heavy 16 --slowloris 500 --idle 1000 --seconds 40
//! ```
//! Loopback only; every run stops by itself.

mod attack_common;

use attack_common::Report;
use clap::Parser;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[derive(Parser, Debug, Clone)]
struct Args {
    /// A predmarket-server binary to start (on a free loopback port) and to
    /// stop with SIGTERM at the end.
    #[arg(long, conflicts_with = "url")]
    server: Option<String>,
    /// A running server instead (loopback only); its keys must include
    /// `good:unlimited` and `attacker:unlimited`, and `--header-read-timeout`
    /// and `--idle-timeout` must be given as it was started with.
    #[arg(long)]
    url: Option<String>,
    /// Seconds of attack.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Concurrent worst-case searches.
    #[arg(long, default_value_t = 16)]
    heavy: usize,
    /// Slowloris sockets.
    #[arg(long, default_value_t = 500)]
    slowloris: usize,
    /// Idle sockets.
    #[arg(long, default_value_t = 1_000)]
    idle: usize,
    /// The server's header-read timeout, seconds (passed on when started here).
    #[arg(long, default_value_t = 2.0)]
    header_read_timeout: f64,
    /// The server's idle timeout, seconds (passed on when started here).
    #[arg(long, default_value_t = 3.0)]
    idle_timeout: f64,
    /// Seconds a socket may stay open past its timeout before it counts as
    /// not closed (scheduling on a loaded machine).
    #[arg(long, default_value_t = 3.0)]
    slack: f64,
    /// Seconds the server may take to exit after SIGTERM before it counts
    /// as not shutting down.
    #[arg(long, default_value_t = 10.0)]
    exit_within: f64,
    /// Scale of the data of a server started here.
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
    /// Exit non-zero when a rule is broken.
    #[arg(long)]
    check: bool,
}

const GOOD_KEY: &str = "good";
const ATTACKER_KEY: &str = "attacker";

fn main() {
    let args = Args::parse();
    let check = args.check;
    attack_common::run_and_exit("attack", check, run(args))
}

/// What every part of the attack saw.
#[derive(Default)]
struct Observed {
    /// Answers counted, rules broken.
    seen: Report,
    /// Microseconds of each good request, per path.
    good: Mutex<BTreeMap<&'static str, Vec<u64>>>,
    /// Microseconds of each answered search (200).
    heavy_ok: Mutex<Vec<u64>>,
    /// Seconds each slow / idle socket stayed open.
    slow_closed: Mutex<Vec<f64>>,
    idle_closed: Mutex<Vec<f64>>,
    slow_open_at_end: AtomicU64,
    idle_open_at_end: AtomicU64,
    /// Attack sockets connected right now.
    open_now: AtomicU64,
}

async fn run(args: Args) -> Result<usize, String> {
    let mut server = None;
    let addr = match (&args.server, &args.url) {
        (Some(binary), _) => {
            let (child, addr) = start(binary, &args).await?;
            server = Some(child);
            addr
        }
        (None, Some(url)) => {
            let host = url.trim_start_matches("http://").trim_end_matches('/');
            let addr: SocketAddr = host.parse().map_err(|e| format!("{host}: {e}"))?;
            addr
        }
        (None, None) => return Err("give --server BINARY or --url URL".into()),
    };
    if !addr.ip().is_loopback() {
        return Err("only loopback addresses are attacked".into());
    }
    let report = Arc::new(Observed::default());
    // Requests stop before SIGTERM (a request refused by a stopping server
    // breaks no rule); the slow and idle sockets stay until after it.
    let stop_requests = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let slow_limit = Duration::from_secs_f64(args.header_read_timeout + args.slack);
    let idle_limit =
        Duration::from_secs_f64(args.header_read_timeout.min(args.idle_timeout) + args.slack);

    let solo = solo_searches(addr).await?;
    let mut tasks = Vec::new();
    // The good client starts first and runs throughout.
    let mut requests = Vec::new();
    requests.push(tokio::spawn(good_client(
        addr,
        report.clone(),
        stop_requests.clone(),
    )));
    tokio::time::sleep(Duration::from_millis(300)).await;
    for i in 0..args.heavy {
        requests.push(tokio::spawn(heavy(
            addr,
            i,
            report.clone(),
            stop_requests.clone(),
        )));
    }
    for _ in 0..args.slowloris {
        tasks.push(tokio::spawn(slowloris(
            addr,
            slow_limit,
            report.clone(),
            stop.clone(),
        )));
    }
    for _ in 0..args.idle {
        tasks.push(tokio::spawn(idle(
            addr,
            idle_limit,
            report.clone(),
            stop.clone(),
        )));
    }
    requests.push(tokio::spawn(odd_requests(
        addr,
        report.clone(),
        stop_requests.clone(),
    )));

    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop_requests.store(true, Ordering::SeqCst);
    for task in requests {
        let _ = tokio::time::timeout(Duration::from_secs(15), task).await;
    }
    // SIGTERM while the slow and idle sockets are still connected.
    let mut sigterm_secs = None;
    if let Some(child) = server.as_mut() {
        let open = report.open_now.load(Ordering::Relaxed);
        sigterm_secs = Some((
            sigterm(child, &report, Duration::from_secs_f64(args.exit_within)).await,
            open,
        ));
    }
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    }
    println!(
        "worst-case searches alone, before the attack (5 rounds of each list and query): worst {:.2} ms",
        solo.as_secs_f64() * 1000.0
    );
    // The timeouts must act, whatever the slack: a run in which the server
    // closed none of the slow or idle sockets breaks a rule.
    for (name, wanted, closed) in [
        ("slowloris", args.slowloris, &report.slow_closed),
        ("idle", args.idle, &report.idle_closed),
    ] {
        if wanted > 0 && closed.lock().map(|c| c.is_empty()).unwrap_or(true) {
            report
                .seen
                .violation(format!("the server closed none of the {name} sockets"));
        }
    }
    Ok(print_report(&args, &report, sigterm_secs))
}

async fn start(binary: &str, args: &Args) -> Result<(Child, SocketAddr), String> {
    // Every socket of this attack comes from 127.0.0.1: the per-address
    // cap would refuse most of them at once (which is its job, tested on
    // its own in tests/proxy_ops.rs); here it is raised above what the
    // attack opens, so the timeouts and the shedding are what is tested.
    let per_address = (args.slowloris + args.idle + args.heavy + 256).to_string();
    let mut child = Command::new(binary)
        .args([
            "--max-connections-per-address",
            &per_address,
            "--addr",
            "127.0.0.1:0",
            "-q",
            "--api-key",
            &format!("{GOOD_KEY}:unlimited"),
            "--api-key",
            &format!("{ATTACKER_KEY}:unlimited"),
            "--header-read-timeout",
            &args.header_read_timeout.to_string(),
            "--idle-timeout",
            &args.idle_timeout.to_string(),
            "--scale",
            &args.scale.to_string(),
        ])
        .env_remove("PREDMARKET_API_KEYS")
        .env_remove("PREDMARKET_API_KEY_FILE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{binary}: {e}"))?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    // A thread reads the server's stderr (and keeps draining it so the
    // server never blocks on a full pipe).
    let (found, listening) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut found = Some(found);
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            // A log line: time and level come first.
            if let Some(rest) = line.split("predmarket-server listening on http://").nth(1)
                && let Some(found) = found.take()
            {
                let _ = found.send(rest.trim().parse::<SocketAddr>().ok());
            }
        }
    });
    let addr = tokio::task::spawn_blocking(move || {
        listening
            .recv_timeout(Duration::from_secs(120))
            .ok()
            .flatten()
    })
    .await
    .ok()
    .flatten()
    .ok_or("the server did not start")?;
    Ok((child, addr))
}

async fn sigterm(child: &mut Child, report: &Observed, exit_within: Duration) -> f64 {
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    if !killed.is_ok_and(|s| s.success()) {
        report.seen.violation("could not send SIGTERM".into());
    }
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                if !status.success() {
                    report
                        .seen
                        .violation(format!("server exited with {status} on SIGTERM"));
                }
                break;
            }
            Ok(None) if sent.elapsed() > exit_within => {
                report.seen.violation(format!(
                    "server still running {} s after SIGTERM",
                    exit_within.as_secs_f64()
                ));
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            Ok(None) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => {
                report.seen.violation(format!("wait: {e}"));
                break;
            }
        }
    }
    sent.elapsed().as_secs_f64()
}

/// One answer's status and body, over a keep-alive connection.
async fn exchange(stream: &mut TcpStream, request: &[u8]) -> Result<(u16, Vec<u8>), String> {
    stream.write_all(request).await.map_err(|e| e.to_string())?;
    read_response(stream).await
}

async fn read_response(stream: &mut TcpStream) -> Result<(u16, Vec<u8>), String> {
    let mut buffer = Vec::with_capacity(16 * 1024);
    let mut chunk = [0u8; 16 * 1024];
    let header_end = loop {
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed".into());
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..header_end]).to_ascii_lowercase();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buffer.len() < header_end + length {
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed mid-body".into());
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    Ok((status, buffer[header_end..header_end + length].to_vec()))
}

fn get(addr: SocketAddr, path: &str, key: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-API-Key: {key}\r\nAccept: application/json\r\n\r\n")
        .into_bytes()
}

/// The well-behaved client: never refused, never failed.
async fn good_client(addr: SocketAddr, report: Arc<Observed>, stop: Arc<AtomicBool>) {
    let paths: [&'static str; 2] = ["/platforms", "/markets?limit=25"];
    let requests: Vec<Vec<u8>> = paths.iter().map(|p| get(addr, p, GOOD_KEY)).collect();
    let mut stream: Option<TcpStream> = None;
    let mut i = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let which = i % 2;
        i += 1;
        let started = Instant::now();
        if stream.is_none() {
            match TcpStream::connect(addr).await {
                Ok(s) => {
                    let _ = s.set_nodelay(true);
                    stream = Some(s);
                }
                Err(e) => {
                    report
                        .seen
                        .violation(format!("good client: connect refused: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            }
        }
        let Some(s) = stream.as_mut() else { continue };
        match exchange(s, &requests[which]).await {
            Ok((status, _)) => {
                let micros = started.elapsed().as_micros() as u64;
                report.seen.count("good", status);
                if status != 200 {
                    report
                        .seen
                        .violation(format!("good client: {} -> {status}", paths[which]));
                }
                if let Ok(mut good) = report.good.lock() {
                    good.entry(paths[which]).or_default().push(micros);
                }
            }
            Err(e) => {
                if !stop.load(Ordering::Relaxed) {
                    report
                        .seen
                        .violation(format!("good client: {}: {e}", paths[which]));
                }
                stream = None;
            }
        }
        // A steady client, not a flood: about 100 requests a second.
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The costliest searches the caps allow: 16 distinct one-letter words
/// (each found in nearly every title) and 16 words filling 256 bytes.
fn worst_queries() -> Vec<String> {
    let letters = "e a o i t n s r l h d c u m w b";
    let long: Vec<String> = ["the", "will", "win", "above", "by", "on", "in", "of"]
        .iter()
        .cycle()
        .take(16)
        .enumerate()
        .map(|(i, w)| {
            let mut word = w.repeat(1 + i % 3);
            word.truncate(15);
            word
        })
        .collect();
    let mut long = long.join("+");
    long.truncate(256);
    vec![letters.replace(' ', "+"), long]
}

/// The slowest of the worst-case searches sent one at a time, on a quiet
/// server: the cost of one search, without queueing behind others.
async fn solo_searches(addr: SocketAddr) -> Result<Duration, String> {
    let mut stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        for list in ["/markets", "/events", "/series"] {
            for query in worst_queries() {
                let request = get(
                    addr,
                    &format!("{list}?limit=250&query={query}"),
                    ATTACKER_KEY,
                );
                let started = Instant::now();
                let (status, _) = exchange(&mut stream, &request).await?;
                if status != 200 {
                    return Err(format!("{list} worst-case search alone: {status}"));
                }
                worst = worst.max(started.elapsed());
            }
        }
    }
    Ok(worst)
}

async fn heavy(addr: SocketAddr, seed: usize, report: Arc<Observed>, stop: Arc<AtomicBool>) {
    let queries = worst_queries();
    let over_words = vec!["e"; 30].join("+");
    let over_url = vec!["e"; 30_000].join("+");
    let mut stream: Option<TcpStream> = None;
    let mut n = seed;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let list = ["/markets", "/events", "/series"][n % 3];
        let (path, expect): (String, &[u16]) = match n % 10 {
            // Refused by the cap, quickly.
            8 => (format!("{list}?query={over_words}"), &[400, 503]),
            // Longer than a request head may be.
            9 => (format!("{list}?query={over_url}"), &[414, 431]),
            _ => (
                format!("{list}?limit=250&query={}", queries[n % queries.len()]),
                &[200, 503],
            ),
        };
        if stream.is_none() {
            match TcpStream::connect(addr).await {
                Ok(s) => stream = Some(s),
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            }
        }
        let Some(s) = stream.as_mut() else { continue };
        let started = Instant::now();
        match exchange(s, &get(addr, &path, ATTACKER_KEY)).await {
            Ok((status, _)) => {
                let what = match n % 10 {
                    8 => "search over the cap",
                    9 => "search longer than a head",
                    _ => "worst-case search",
                };
                report.seen.check_status(what, status);
                if !expect.contains(&status) {
                    report
                        .seen
                        .violation(format!("{what}: {status}, expected {expect:?}"));
                }
                if status == 200
                    && let Ok(mut h) = report.heavy_ok.lock()
                {
                    h.push(started.elapsed().as_micros() as u64);
                }
                if status == 431 || status == 414 || status == 503 {
                    // hyper closes after 431; shed clients back off.
                    stream = None;
                    if status == 503 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            }
            Err(_) => {
                report.seen.count("search: connection closed", 0);
                stream = None;
            }
        }
    }
}

/// Opens a socket, trickles header lines, times how long until the server
/// closes it; again until stopped.
async fn slowloris(
    addr: SocketAddr,
    limit: Duration,
    report: Arc<Observed>,
    stop: Arc<AtomicBool>,
) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let opened = Instant::now();
        report.open_now.fetch_add(1, Ordering::Relaxed);
        let mut line = 0u32;
        let _ = stream
            .write_all(b"GET /platforms HTTP/1.1\r\nHost: x\r\n")
            .await;
        let closed = loop {
            if stop.load(Ordering::Relaxed) {
                report.slow_open_at_end.fetch_add(1, Ordering::Relaxed);
                break false;
            }
            line += 1;
            if stream
                .write_all(format!("X-Slow-{line}: y\r\n").as_bytes())
                .await
                .is_err()
            {
                break true;
            }
            let mut buffer = [0u8; 1024];
            match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break true,
                Ok(Ok(_)) | Err(_) => {}
            }
        };
        report.open_now.fetch_sub(1, Ordering::Relaxed);
        if closed {
            let open = opened.elapsed();
            if let Ok(mut c) = report.slow_closed.lock() {
                c.push(open.as_secs_f64());
            }
            if open > limit {
                report
                    .seen
                    .violation(format!("slowloris socket open {:.1} s", open.as_secs_f64()));
            }
        }
    }
}

/// Connects and says nothing; times how long until the server closes it.
async fn idle(addr: SocketAddr, limit: Duration, report: Arc<Observed>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let opened = Instant::now();
        report.open_now.fetch_add(1, Ordering::Relaxed);
        let mut buffer = [0u8; 256];
        let closed = loop {
            if stop.load(Ordering::Relaxed) {
                report.idle_open_at_end.fetch_add(1, Ordering::Relaxed);
                break false;
            }
            match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break true,
                Ok(Ok(_)) | Err(_) => {}
            }
        };
        report.open_now.fetch_sub(1, Ordering::Relaxed);
        if closed {
            let open = opened.elapsed();
            if let Ok(mut c) = report.idle_closed.lock() {
                c.push(open.as_secs_f64());
            }
            if open > limit {
                report
                    .seen
                    .violation(format!("idle socket open {:.1} s", open.as_secs_f64()));
            }
        }
    }
}

/// Oversize URLs and headers, random keys, forged cursors: each must be a
/// 4xx of the right kind.
async fn odd_requests(addr: SocketAddr, report: Arc<Observed>, stop: Arc<AtomicBool>) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ std::process::id() as u64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let (what, request, expect): (&str, Vec<u8>, &[u16]) = match n % 4 {
            0 => (
                "oversize URL",
                get(addr, &format!("/markets?x={}", "a".repeat(20_000)), GOOD_KEY),
                &[414, 431],
            ),
            1 => (
                "oversize header",
                format!(
                    "GET /platforms HTTP/1.1\r\nHost: x\r\nX-API-Key: {GOOD_KEY}\r\nX-Big: {}\r\n\r\n",
                    "b".repeat(20_000)
                )
                .into_bytes(),
                &[431],
            ),
            2 => (
                "random key",
                get(addr, "/platforms", &format!("pm_{:016x}", random())),
                &[401],
            ),
            _ => (
                "forged cursor",
                get(
                    addr,
                    &format!("/markets?cursor={:016x}{:016x}", random(), random()),
                    ATTACKER_KEY,
                ),
                &[400],
            ),
        };
        if let Ok(mut stream) = TcpStream::connect(addr).await {
            match exchange(&mut stream, &request).await {
                Ok((status, body)) => {
                    report.seen.check_status(what, status);
                    if !expect.contains(&status) {
                        report
                            .seen
                            .violation(format!("{what}: {status}, expected {expect:?}"));
                    }
                    if what == "forged cursor"
                        && !String::from_utf8_lossy(&body).contains("INVALID_CURSOR")
                    {
                        report
                            .seen
                            .violation("forged cursor: not INVALID_CURSOR".into());
                    }
                }
                // hyper answers 431 and closes while the rest of an
                // oversize head is still arriving; the kernel then resets
                // the connection, which may beat the 431 to the client.
                Err(e) if what.starts_with("oversize") && e.contains("reset") => {
                    report.seen.count(&format!("{what} (reset)"), 0);
                }
                Err(e) => report.seen.violation(format!("{what}: no answer: {e}")),
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn print_report(args: &Args, report: &Observed, sigterm_secs: Option<(f64, u64)>) -> usize {
    println!(
        "attack: {:.0} s, {} worst-case search tasks, {} slowloris sockets, {} idle sockets \
         (server timeouts: header read {} s, idle {} s)",
        args.seconds,
        args.heavy,
        args.slowloris,
        args.idle,
        args.header_read_timeout,
        args.idle_timeout
    );
    if let Ok(good) = report.good.lock() {
        for (path, micros) in good.iter() {
            let mut sorted = micros.clone();
            sorted.sort_unstable();
            println!(
                "good client {path}: {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                sorted.len(),
                percentile(&sorted, 0.5),
                percentile(&sorted, 0.99),
                percentile(&sorted, 1.0)
            );
        }
    }
    if let Ok(heavy) = report.heavy_ok.lock() {
        let mut sorted = heavy.clone();
        sorted.sort_unstable();
        println!(
            "worst-case searches answered: {}, p50 {:.2} ms, p99 {:.2} ms, worst {:.2} ms",
            sorted.len(),
            percentile(&sorted, 0.5),
            percentile(&sorted, 0.99),
            percentile(&sorted, 1.0)
        );
    }
    for (name, closed, open) in [
        ("slowloris", &report.slow_closed, &report.slow_open_at_end),
        ("idle", &report.idle_closed, &report.idle_open_at_end),
    ] {
        if let Ok(closed) = closed.lock() {
            let max = closed.iter().copied().fold(0.0, f64::max);
            let mean = closed.iter().sum::<f64>() / closed.len().max(1) as f64;
            println!(
                "{name} sockets closed by the server: {}, open for mean {mean:.2} s, max {max:.2} s; \
                 still open at the end: {}",
                closed.len(),
                open.load(Ordering::Relaxed)
            );
        }
    }
    if let Some((secs, open)) = sigterm_secs {
        println!("SIGTERM to exit, with {open} slow and idle sockets open: {secs:.2} s");
    }
    report.seen.print_end()
}
