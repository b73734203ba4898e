//! The streams' fan-out bench: one proxy (the built `predmarket-server`
//! binary, a process of its own so its memory and CPU are its own) in front
//! of a local upstream that enforces 100 requests a minute for the proxy's
//! key; N clients stream, each watching a few of M order books. Reports
//! what the upstream saw (requests in its busiest minute, 429s), the
//! fan-out latency (the proxy's poll answer to a client's receipt, from
//! each `change` event's `polled_ms`: one machine, one clock), whether
//! every client saw every change of its books (no gap in `seq`), and the
//! proxy's memory and CPU.
//!
//! With `--attacker`, a second key beside the good clients holds its
//! per-visitor maxima (16 streams × 32 books nobody else watches, its
//! topic quota of 64): the good clients' figures are then what they get
//! while it attacks.
//!
//! With `--replicas 2` it starts a `redis-server` and two proxies sharing
//! their pollers through it (`--redis`), both with the same upstream key,
//! and splits the streams between them; memory and CPU are the two
//! proxies' together. `--kill-after S` then kills the first replica S
//! seconds in and reports, per surviving client and book, the time from
//! the kill to `stale` (other than `interval_stretched`, which a stretched
//! book is told every cycle), to `live` after it and to the first fresh
//! data, and how far apart the polls before and after the kill were.
//! Stale events are counted by reason, code and status; `--proxy-log`
//! keeps the proxies' request logs. The upstream runs on a runtime of its
//! own, so the clients' reading cannot delay its answers.
//!
//! ```text
//! cargo build --release -p predmarket-server --bin predmarket-server --example fanout
//! target/release/examples/fanout --streams 1000 --resources 50 --seconds 150
//! target/release/examples/fanout --streams 1000 --resources 50 --seconds 150 --replicas 2
//! target/release/examples/fanout --streams 200 --resources 2 --per-stream 2 --seconds 60 --replicas 2 --kill-after 30
//! ```
//!
//! Loopback only; every run stops by itself.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use clap::Parser;
use predmarket_core::live::{self, Kind, StaleReason};
use predmarket_core::sse;
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "../tests/common/redis.rs"]
mod redis_kit;

#[derive(Parser, Debug)]
struct Args {
    /// Streaming clients.
    #[arg(long, default_value_t = 1000)]
    streams: usize,
    /// Order books watched in all.
    #[arg(long, default_value_t = 50)]
    resources: usize,
    /// Books each client watches.
    #[arg(long, default_value_t = 3)]
    per_stream: usize,
    /// How long the clients stream.
    #[arg(long, default_value_t = 150)]
    seconds: u64,
    /// The upstream's limit for the proxy's key, per minute.
    #[arg(long, default_value_t = 100)]
    upstream_limit: u32,
    /// Proxies (2: sharing their pollers through a `redis-server` this
    /// bench starts).
    #[arg(long, default_value_t = 1)]
    replicas: usize,
    /// With `--replicas 2`: kill the first replica this many seconds into
    /// the run, and report how long the other one's subscribers took to
    /// hear `stale` and `live` again for the books it polled.
    #[arg(long)]
    kill_after: Option<u64>,
    /// Keep the proxies' request logs (stderr) in this file, `.N` added
    /// per replica, to see what their upstream requests met.
    #[arg(long)]
    proxy_log: Option<std::path::PathBuf>,
    /// Adds an attacker beside the good streams, at its per-visitor
    /// maxima (a key of its own): 16 streams × 32 books nobody else
    /// watches, as many as its topic quota (64) takes.
    #[arg(long)]
    attacker: bool,
    /// Keys the good clients are spread over (client `i` shows key
    /// `i % N`): the streams count per viewer, and a thousand readers are
    /// rarely one key.
    #[arg(long, default_value_t = 10)]
    client_keys: usize,
    /// The proxy records its polls into this directory (`--record`), for
    /// the recorder's cost beside a run without it.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
}

const UPSTREAM_KEY: &str = "fanout-upstream";
const CLIENT_KEY: &str = "fanout-client";
const ATTACKER_KEY: &str = "fanout-attacker";

/// What reached the upstream.
#[derive(Default)]
struct Seen {
    at: Vec<Instant>,
    too_many: usize,
}

async fn count(State(seen): State<Arc<Mutex<Seen>>>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if let Ok(mut seen) = seen.lock() {
        seen.at.push(Instant::now());
        if response.status() == 429 {
            seen.too_many += 1;
        }
    }
    response
}

/// What one client saw.
#[derive(Default)]
struct Received {
    /// `now - polled_ms` of each change, in ms.
    latencies: Vec<u64>,
    /// Gaps in a resource's `seq` (an event missed).
    gaps: usize,
    changes: usize,
    stale: usize,
    /// `stale` events by reason (and code and status, when given).
    stale_by: HashMap<String, usize>,
    /// After the kill (`--kill-after`), per book.
    after_kill: HashMap<String, AfterKill>,
    /// The largest `interval_ms` a `stale` event told (the interval the
    /// scheduler granted).
    interval_ms: u64,
}

/// What one (client, book) pair heard after the kill, in ms from it.
#[derive(Default, Clone, Copy)]
struct AfterKill {
    /// The first `stale` that is not the stretched interval's own (which
    /// comes every cycle, kill or not): a failover, a late or failed poll.
    stale_ms: Option<u64>,
    /// The first `live` after that `stale`.
    live_ms: Option<u64>,
    /// The first fresh data (`change` or `live`).
    fresh_ms: Option<u64>,
    /// `polled_ms` of the last fresh data before the kill and of the first
    /// after it: how far apart the polls around the failover were.
    polled_before: Option<u64>,
    polled_after: Option<u64>,
}

/// Unix ms of the kill, 0 before it.
static KILLED_AT: AtomicU64 = AtomicU64::new(0);

fn main() {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fanout: no runtime: {error}");
            std::process::exit(1);
        }
    };
    if let Err(error) = runtime.block_on(run(args)) {
        eprintln!("fanout: {error}");
        std::process::exit(1);
    }
}

/// Kills the proxy process when the bench ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn run(args: Args) -> Result<(), String> {
    let mut config = predmarket_server::config::Config::for_tests(&format!(
        "{UPSTREAM_KEY}:{}",
        args.upstream_limit
    ));
    config.api_key.push(format!("{CLIENT_KEY}:unlimited"));
    let seen = Arc::new(Mutex::new(Seen::default()));
    let upstream = predmarket_server::app(&config)
        .layer(axum::middleware::from_fn_with_state(seen.clone(), count));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let upstream_addr = listener.local_addr().map_err(|e| e.to_string())?;
    // The upstream on a runtime of its own: the clients' reading, a
    // thousand tasks on the bench's runtime, must not delay its answers
    // (the proxy gives up on one after --upstream-timeout).
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async move {
            if let Ok(listener) = tokio::net::TcpListener::from_std(listener) {
                let _ = axum::serve(listener, upstream).await;
            }
        });
    });

    // The books: open markets of the platforms that serve them, read
    // directly from the upstream with an unlimited key.
    let http = reqwest::Client::new();
    let mut books = Vec::new();
    for platform in ["platform_a", "platform_b", "platform_c", "platform_d"] {
        let url =
            format!("http://{upstream_addr}/markets?platform={platform}&status=open&limit=50");
        let body: Value = http
            .get(url)
            .header("X-API-Key", CLIENT_KEY)
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        for market in body["markets"].as_array().into_iter().flatten() {
            if let Some(id) = market["id"].as_str() {
                books.push(format!("orderbook:{id}"));
            }
        }
    }
    // The attacker's: books no good client watches.
    let spare: Vec<String> = books.iter().skip(args.resources).cloned().collect();
    books.truncate(args.resources);
    if books.len() < args.resources {
        return Err(format!("only {} open books", books.len()));
    }

    let redis = if args.replicas > 1 {
        match redis_kit::start("the fan-out of two replicas", &[])? {
            Some(redis) => Some(redis),
            None => return Err("--replicas 2 needs redis-server".into()),
        }
    } else {
        None
    };
    let mut proxies = Vec::new();
    let mut bases = Vec::new();
    for n in 0..args.replicas.max(1) {
        let log = args.proxy_log.as_ref().map(|path| {
            let mut path = path.clone().into_os_string();
            path.push(format!(".{n}"));
            std::path::PathBuf::from(path)
        });
        let (proxy, base) = start_proxy(
            upstream_addr,
            redis.as_ref().map(|r| r.url.as_str()),
            log.as_deref(),
            args.client_keys,
            args.upstream_limit,
            args.record
                .as_ref()
                .map(|dir| dir.join(format!("replica-{n}")))
                .as_deref(),
        )?;
        proxies.push(proxy);
        bases.push(base);
    }
    let pids: Vec<u32> = proxies.iter().map(|p| p.0.id()).collect();
    let rss_before = sum(pids.iter().map(|p| rss_kb(*p)));
    let cpu_before = sum(pids.iter().map(|p| cpu_ticks(*p)));
    let redis_pid = redis.as_ref().map(redis_kit::Redis::pid);
    let redis_cpu_before = redis_pid.and_then(cpu_ticks);

    let received: Arc<Mutex<Vec<Received>>> = Arc::default();
    let stop = Instant::now() + Duration::from_secs(args.seconds);
    let attacker = if args.attacker {
        if spare.is_empty() {
            return Err("no books left for the attacker: lower --resources".into());
        }
        Some(attack(&bases[0], &spare, stop).await)
    } else {
        None
    };
    let mut clients = Vec::new();
    for i in 0..args.streams {
        let watch: Vec<&String> = (0..args.per_stream)
            .map(|k| &books[(i * args.per_stream + k) % books.len()])
            .collect();
        let mut query = form_urlencoded::Serializer::new(String::new());
        for w in &watch {
            query.append_pair(live::WATCH_PARAM, w);
        }
        // Streams split across the replicas.
        let base = &bases[i % bases.len()];
        let url = format!("{base}{}?{}", live::PATH, query.finish());
        let received = received.clone();
        let key = client_key(i % args.client_keys.max(1));
        // The killed replica's clients read what was on its way when it
        // died: not what a surviving subscriber heard after the kill.
        let survives = args.replicas < 2 || i % bases.len() != 0;
        clients.push(tokio::spawn(async move {
            let got = client(&url, &key, stop, survives).await;
            if let Ok(mut all) = received.lock() {
                all.push(got);
            }
        }));
        // Connections opened at a steady pace, not all in one burst.
        if i % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Memory once every stream is open and has had its snapshots.
    let settle = Duration::from_secs(10).min(Duration::from_secs(args.seconds / 2));
    tokio::time::sleep(settle).await;
    let rss_streaming = sum(pids.iter().map(|p| rss_kb(*p)));
    let mut pids = pids;
    // The killed replica's CPU up to its end, counted with the others'.
    let mut killed_ticks = Some(0);
    if let Some(after) = args.kill_after.filter(|_| proxies.len() > 1) {
        tokio::time::sleep(Duration::from_secs(after).saturating_sub(settle)).await;
        // Its streams end with it; the other replica's subscribers are told.
        let first = proxies.remove(0);
        killed_ticks = cpu_ticks(pids[0]);
        KILLED_AT.store(unix_ms(), Ordering::SeqCst);
        drop(first);
        pids.remove(0);
        println!("killed replica 1 at {} s", after.max(settle.as_secs()));
    }
    for client in clients {
        let _ = client.await;
    }
    if let Some(attacker) = attacker {
        let (opened, refused) = attacker.await.unwrap_or_default();
        println!(
            "attacker (a key of its own): 16 streams × 32 of {} other books: {opened} open, {refused} refused",
            spare.len().min(64)
        );
    }
    let cpu_after = sum(pids.iter().map(|p| cpu_ticks(*p)).chain([killed_ticks]));
    let redis_cpu_after = redis_pid.and_then(cpu_ticks);
    let redis_rss = redis_pid.and_then(rss_kb);
    drop(proxies);
    drop(redis);

    let all = received.lock().map_err(|_| "poisoned")?;
    let mut latencies: Vec<u64> = all
        .iter()
        .flat_map(|r| r.latencies.iter().copied())
        .collect();
    latencies.sort_unstable();
    let pct = |p: f64| -> u64 {
        if latencies.is_empty() {
            return 0;
        }
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[i.min(latencies.len() - 1)]
    };
    let seen = seen.lock().map_err(|_| "poisoned")?;
    let busiest = (0..seen.at.len())
        .map(|i| {
            seen.at[i..]
                .iter()
                .take_while(|t| t.duration_since(seen.at[i]) < Duration::from_secs(60))
                .count()
        })
        .max()
        .unwrap_or(0);
    let ticks_per_sec = 100.0;
    println!(
        "fanout: {} streams, {} books, {} per stream, {} s, {} replica(s){}",
        args.streams,
        args.resources,
        args.per_stream,
        args.seconds,
        args.replicas.max(1),
        if args.replicas > 1 { " on Redis" } else { "" }
    );
    println!(
        "upstream: {} requests, busiest minute {busiest} (limit {}), 429s {}",
        seen.at.len(),
        args.upstream_limit,
        seen.too_many
    );
    println!(
        "changes received: {}, gaps: {}, stale events: {}, clients that got a change: {}/{}",
        all.iter().map(|r| r.changes).sum::<usize>(),
        all.iter().map(|r| r.gaps).sum::<usize>(),
        all.iter().map(|r| r.stale).sum::<usize>(),
        all.iter().filter(|r| r.changes > 0).count(),
        all.len()
    );
    println!(
        "fan-out latency (poll answer to client receipt): p50 {} ms, p99 {} ms, max {} ms",
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
    let mut stale_by: Vec<(String, usize)> = all
        .iter()
        .flat_map(|r| r.stale_by.iter())
        .fold(HashMap::new(), |mut sum: HashMap<String, usize>, (k, v)| {
            *sum.entry(k.clone()).or_default() += v;
            sum
        })
        .into_iter()
        .collect();
    stale_by.sort();
    println!("stale events by reason: {stale_by:?}");
    if KILLED_AT.load(Ordering::SeqCst) > 0 {
        let marks: Vec<AfterKill> = all
            .iter()
            .flat_map(|r| r.after_kill.values().copied())
            .collect();
        let spread = |mut v: Vec<u64>| -> String {
            v.sort_unstable();
            match (v.first(), v.get(v.len() / 2), v.last()) {
                (Some(min), Some(mid), Some(max)) => {
                    format!("{} pairs, min {min} / p50 {mid} / max {max} ms", v.len())
                }
                _ => "none".to_owned(),
            }
        };
        println!(
            "after the kill, (surviving client, book) pairs that heard of their book: {}; kill to stale (other than {stretched}): {}; kill to live after it: {}; stale with no live: {}; kill to first fresh data: {}; poll to poll across the kill: {}; largest interval granted: {} ms",
            marks.len(),
            spread(marks.iter().filter_map(|m| m.stale_ms).collect()),
            spread(marks.iter().filter_map(|m| m.live_ms).collect()),
            marks
                .iter()
                .filter(|m| m.stale_ms.is_some() && m.live_ms.is_none())
                .count(),
            spread(marks.iter().filter_map(|m| m.fresh_ms).collect()),
            spread(
                marks
                    .iter()
                    .filter_map(|m| Some(m.polled_after?.saturating_sub(m.polled_before?)))
                    .collect()
            ),
            all.iter().map(|r| r.interval_ms).max().unwrap_or(0),
            stretched = StaleReason::IntervalStretched.name(),
        );
    }
    if let (Some(before), Some(during)) = (rss_before, rss_streaming) {
        let per_1000 =
            (during.saturating_sub(before)) as f64 / 1024.0 * 1000.0 / args.streams.max(1) as f64;
        println!(
            "proxy RSS: {:.1} MB before, {:.1} MB with the streams open: {per_1000:.1} MB per 1,000 streams",
            before as f64 / 1024.0,
            during as f64 / 1024.0
        );
    }
    if let (Some(a), Some(b)) = (cpu_before, cpu_after) {
        let secs = (b.saturating_sub(a)) as f64 / ticks_per_sec;
        println!(
            "proxy CPU: {secs:.2} s over {} s ({:.2} % of one core)",
            args.seconds,
            secs * 100.0 / args.seconds as f64
        );
    }
    if let (Some(a), Some(b), Some(rss)) = (redis_cpu_before, redis_cpu_after, redis_rss) {
        println!(
            "redis-server: CPU {:.1} s, RSS {:.1} MB",
            (b.saturating_sub(a)) as f64 / ticks_per_sec,
            rss as f64 / 1024.0
        );
    }
    Ok(())
}

/// The attacker at its per-visitor maxima: 16 streams of 32 books each,
/// among the first 64 of `spare` (its topic quota), read until `stop`.
/// Resolves with its streams opened and refused.
async fn attack(
    base: &str,
    spare: &[String],
    stop: Instant,
) -> tokio::task::JoinHandle<(usize, usize)> {
    let books: Vec<String> = spare.iter().take(64).cloned().collect();
    let base = base.to_owned();
    tokio::spawn(async move {
        let http = reqwest::Client::new();
        let mut readers = Vec::new();
        let (mut opened, mut refused) = (0, 0);
        for s in 0..16 {
            let url = {
                let mut query = form_urlencoded::Serializer::new(String::new());
                for k in 0..live::MAX_RESOURCES {
                    query.append_pair(
                        live::WATCH_PARAM,
                        &books[(s * live::MAX_RESOURCES + k) % books.len()],
                    );
                }
                format!("{base}{}?{}", live::PATH, query.finish())
            };
            let response = http.get(url).header("X-API-Key", ATTACKER_KEY).send().await;
            match response {
                Ok(mut response) if response.status() == 200 => {
                    opened += 1;
                    readers.push(tokio::spawn(async move {
                        while Instant::now() < stop {
                            let left = stop.saturating_duration_since(Instant::now());
                            match tokio::time::timeout(left, response.chunk()).await {
                                Ok(Ok(Some(_))) => {}
                                _ => break,
                            }
                        }
                    }));
                }
                _ => refused += 1,
            }
        }
        for reader in readers {
            let _ = reader.await;
        }
        (opened, refused)
    })
}

/// The proxy's key of good clients' group `k`.
fn client_key(k: usize) -> String {
    format!("{CLIENT_KEY}-{k}")
}

/// The sum of figures of every proxy, if every one has it.
fn sum(figures: impl Iterator<Item = Option<u64>>) -> Option<u64> {
    figures.sum()
}

/// Reads one stream until `stop`; after a kill, marks what it hears if
/// its replica `survives`.
async fn client(url: &str, key: &str, stop: Instant, survives: bool) -> Received {
    let mut got = Received::default();
    let response = reqwest::Client::new()
        .get(url)
        .header("X-API-Key", key)
        .send()
        .await;
    let Ok(mut response) = response else {
        return got;
    };
    // The core's reader of the stream's bytes and bodies (the contract's
    // names, once), not a hand split of its lines.
    let mut parser = sse::Parser::default();
    let mut last_seq: HashMap<String, u64> = HashMap::new();
    let mut last_polled: HashMap<String, u64> = HashMap::new();
    let deadline = tokio::time::Instant::from_std(stop);
    loop {
        let chunk = tokio::select! {
            chunk = response.chunk() => chunk,
            () = tokio::time::sleep_until(deadline) => break,
        };
        let Ok(Some(chunk)) = chunk else { break };
        let now = unix_ms();
        let Ok(items) = parser.feed(&String::from_utf8_lossy(&chunk)) else {
            // An event over the readers' cap: the stream is broken.
            break;
        };
        for item in items {
            let sse::Item::Event(event) = item else {
                continue;
            };
            let Some((kind, data)) = sse::decode(&event) else {
                continue;
            };
            let resource = data.resource.clone();
            let seq = data.seq;
            if let Some(previous) = last_seq.insert(resource.clone(), seq)
                && seq > previous + 1
            {
                got.gaps += 1;
            }
            match kind {
                Kind::Change => {
                    got.changes += 1;
                    if let Some(polled) = data.polled_ms {
                        got.latencies.push(now.saturating_sub(polled));
                    }
                }
                Kind::Stale => {
                    got.stale += 1;
                    let mut why = data.reason.clone().unwrap_or_else(|| "?".into());
                    if let Some(code) = &data.code {
                        why = format!("{why}/{code}");
                    }
                    if let Some(status) = data.status {
                        why = format!("{why}/{status}");
                    }
                    *got.stale_by.entry(why).or_default() += 1;
                    if let Some(interval) = data.interval_ms {
                        got.interval_ms = got.interval_ms.max(interval as u64);
                    }
                }
                _ => {}
            }
            let fresh = matches!(kind, Kind::Change | Kind::Live | Kind::Snapshot);
            let polled = data.polled_ms.filter(|_| fresh);
            let killed = KILLED_AT.load(Ordering::SeqCst);
            if killed > 0 && survives && !resource.is_empty() {
                let since = now.saturating_sub(killed);
                let before = last_polled.get(&resource).copied();
                let mark = got
                    .after_kill
                    .entry(resource.clone())
                    .or_insert_with(|| AfterKill {
                        polled_before: before,
                        ..AfterKill::default()
                    });
                let stretched = data.stale_reason() == Some(StaleReason::IntervalStretched);
                match kind {
                    Kind::Stale if !stretched && mark.stale_ms.is_none() => {
                        mark.stale_ms = Some(since);
                    }
                    Kind::Live if mark.stale_ms.is_some() && mark.live_ms.is_none() => {
                        mark.live_ms = Some(since);
                    }
                    _ => {}
                }
                if matches!(kind, Kind::Change | Kind::Live) && mark.fresh_ms.is_none() {
                    mark.fresh_ms = Some(since);
                    mark.polled_after = polled;
                }
            }
            if let Some(polled) = polled {
                last_polled.insert(resource, polled);
            }
        }
    }
    got
}

fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The proxy binary beside this example (`target/<profile>/`), and its URL
/// from its start-up line.
fn start_proxy(
    upstream: std::net::SocketAddr,
    redis: Option<&str>,
    log: Option<&std::path::Path>,
    client_keys: usize,
    upstream_limit: u32,
    record: Option<&std::path::Path>,
) -> Result<(Killed, String), String> {
    let keys: Vec<String> = (0..client_keys.max(1))
        .map(|k| format!("{}:unlimited", client_key(k)))
        .chain([format!("{ATTACKER_KEY}:unlimited")])
        .collect();
    let mut log = match log {
        Some(path) => Some(std::fs::File::create(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let binary = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|dir| dir.join("predmarket-server"))
        .ok_or("no binary directory")?;
    if !binary.exists() {
        return Err(format!(
            "{} is missing: build it with `cargo build --release -p predmarket-server --bin predmarket-server`",
            binary.display()
        ));
    }
    let mut child = Command::new(binary)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--upstream",
            &format!("http://{upstream}"),
            "--api-key",
            &keys.join(","),
            "--upstream-limit",
            &upstream_limit.to_string(),
            "--stream-max-per-address",
            "100000",
            "--stream-max",
            "100000",
            "--max-connections",
            "100000",
            "--max-connections-per-address",
            "100000",
        ])
        .args(log.is_none().then_some("--quiet"))
        .args(redis.map(|url| ["--redis", url]).into_iter().flatten())
        .args(
            // Parts written every 10 s, so the run's writes are in its CPU.
            record
                .map(|dir| {
                    [
                        std::ffi::OsStr::new("--record"),
                        dir.as_os_str(),
                        std::ffi::OsStr::new("--record-roll-secs"),
                        std::ffi::OsStr::new("10"),
                    ]
                })
                .into_iter()
                .flatten(),
        )
        .env("PREDMARKET_UPSTREAM_KEY", UPSTREAM_KEY)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("the proxy did not start: {e}"))?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    let child = Killed(child);
    let mut lines = BufReader::new(stderr).lines();
    let url = loop {
        let line = lines
            .next()
            .ok_or("the proxy exited before it listened")?
            .map_err(|e| e.to_string())?;
        if let Some(rest) = line.split("listening on ").nth(1) {
            break rest.split([' ', ',']).next().unwrap_or_default().to_owned();
        }
    };
    // Drained, so the proxy never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if let Some(log) = log.as_mut() {
                use std::io::Write;
                let _ = writeln!(log, "{line}");
            }
        }
    });
    Ok((child, url))
}

/// Resident memory of a process, in KiB.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// User and system CPU time of a process, in clock ticks.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}
