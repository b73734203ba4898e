//! Proxy mode in operation, over real loopback sockets: Redis paused,
//! gone and full (`noeviction`) under a running proxy, `/metrics` only on its own address, shared
//! entries capped in size, a revalidation's 404. The connection bounds are
//! `proxy_connections.rs`'s; the upstream of both is the small counting fake
//! of `common/fake_upstream.rs`.

use fake_upstream::{CEILING, UPSTREAM_KEY, VISITOR, get, proxy, proxy_config, upstream};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "common/fake_upstream.rs"]
mod fake_upstream;
#[path = "common/process.rs"]
mod process_kit;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;
#[path = "common/redis.rs"]
mod redis_kit;

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
