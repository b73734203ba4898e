//! The hostile visitors: worst-case searches, slowloris and idle sockets,
//! oversize and malformed requests, each counting what it saw.

use super::*;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The costliest searches the caps allow: 16 distinct one-letter words
/// (each found in nearly every title) and 16 words filling 256 bytes.
pub(crate) fn worst_queries() -> Vec<String> {
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
pub(crate) async fn solo_searches(addr: SocketAddr) -> Result<Duration, String> {
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

pub(crate) async fn heavy(
    addr: SocketAddr,
    seed: usize,
    report: Arc<Observed>,
    stop: Arc<AtomicBool>,
) {
    let queries = worst_queries();
    let over_words = vec!["e"; 30].join("+");
    let over_url = vec!["e"; 30_000].join("+");
    let mut connection = KeepAlive::new(addr, Duration::from_millis(20));
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
        let Ok(s) = connection.stream().await else {
            continue;
        };
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
                    connection.close();
                    if status == 503 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            }
            Err(_) => {
                report.seen.count("search: connection closed", 0);
                connection.close();
            }
        }
    }
}

/// Opens a socket, trickles header lines, times how long until the server
/// closes it; again until stopped.
pub(crate) async fn slowloris(
    addr: SocketAddr,
    limit: Duration,
    report: Arc<Observed>,
    stop: Arc<AtomicBool>,
) {
    hold_open(Held::Slowloris, addr, limit, report, stop).await
}

/// Connects and says nothing; times how long until the server closes it.
pub(crate) async fn idle(
    addr: SocketAddr,
    limit: Duration,
    report: Arc<Observed>,
    stop: Arc<AtomicBool>,
) {
    hold_open(Held::Idle, addr, limit, report, stop).await
}

/// The two ways a visitor holds a socket without finishing a request.
#[derive(Clone, Copy)]
enum Held {
    /// A request line, then one more header line every tick, never the
    /// blank line that ends the head.
    Slowloris,
    /// Nothing at all.
    Idle,
}

impl Held {
    fn name(self) -> &'static str {
        match self {
            Held::Slowloris => "slowloris",
            Held::Idle => "idle",
        }
    }

    /// What is written once the socket connects.
    fn opening(self) -> &'static [u8] {
        match self {
            Held::Slowloris => b"GET /platforms HTTP/1.1\r\nHost: x\r\n",
            Held::Idle => b"",
        }
    }

    /// What is written at tick `line`, if anything.
    fn trickle(self, line: u32) -> Option<String> {
        match self {
            Held::Slowloris => Some(format!("X-Slow-{line}: y\r\n")),
            Held::Idle => None,
        }
    }

    /// Seconds each closed socket stayed open, and sockets still open at
    /// the end: this kind's own counters.
    fn counters(self, report: &Observed) -> (&Mutex<Vec<f64>>, &AtomicU64) {
        match self {
            Held::Slowloris => (&report.slow_closed, &report.slow_open_at_end),
            Held::Idle => (&report.idle_closed, &report.idle_open_at_end),
        }
    }
}

/// Holds sockets the `held` way one after another until stopped; each
/// one the server keeps open past `limit` breaks a rule.
async fn hold_open(
    held: Held,
    addr: SocketAddr,
    limit: Duration,
    report: Arc<Observed>,
    stop: Arc<AtomicBool>,
) {
    let (closed_after, open_at_end) = held.counters(&report);
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let opened = Instant::now();
        report.open_now.fetch_add(1, Ordering::Relaxed);
        let _ = stream.write_all(held.opening()).await;
        let mut line = 0u32;
        let mut buffer = [0u8; 1024];
        let closed = loop {
            if stop.load(Ordering::Relaxed) {
                open_at_end.fetch_add(1, Ordering::Relaxed);
                break false;
            }
            line += 1;
            if let Some(header) = held.trickle(line)
                && stream.write_all(header.as_bytes()).await.is_err()
            {
                break true;
            }
            match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break true,
                Ok(Ok(_)) | Err(_) => {}
            }
        };
        report.open_now.fetch_sub(1, Ordering::Relaxed);
        if closed {
            let open = opened.elapsed();
            if let Ok(mut c) = closed_after.lock() {
                c.push(open.as_secs_f64());
            }
            if open > limit {
                report.seen.violation(format!(
                    "{} socket open {:.1} s",
                    held.name(),
                    open.as_secs_f64()
                ));
            }
        }
    }
}

/// Oversize URLs and headers, random keys, forged cursors: each must be a
/// 4xx of the right kind.
pub(crate) async fn odd_requests(addr: SocketAddr, report: Arc<Observed>, stop: Arc<AtomicBool>) {
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

/// Floods `GET /markets?limit=25` (the page the good client reads)
/// without a key and with unknown keys, back to back on keep-alive
/// connections: each must be a 401, and costs the server what a 401
/// costs (the key is looked up, no page is made: the front service
/// makes kept pages only for known keys, and the router refuses before
/// the handler).
pub(crate) async fn keyless_flood(
    addr: SocketAddr,
    seed: u64,
    report: Arc<Observed>,
    stop: Arc<AtomicBool>,
) {
    let mut state = 0x2545_F491_4F6C_DD1Du64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut connection = KeepAlive::new(addr, Duration::from_millis(20));
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let (what, request) = if n.is_multiple_of(2) {
            (
                "keyless page flood",
                format!("GET /markets?limit=25 HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip, br\r\n\r\n")
                    .into_bytes(),
            )
        } else {
            (
                "unknown-key page flood",
                get(addr, "/markets?limit=25", &format!("pm_{state:016x}")),
            )
        };
        let Ok(s) = connection.stream().await else {
            continue;
        };
        match exchange(s, &request).await {
            Ok((status, _)) => {
                report.seen.check_status(what, status);
                report.flood_answered.fetch_add(1, Ordering::Relaxed);
                if status != 401 {
                    report
                        .seen
                        .violation(format!("{what}: {status}, expected 401"));
                }
            }
            Err(_) => {
                report.seen.count(&format!("{what}: connection closed"), 0);
                connection.close();
            }
        }
    }
}
