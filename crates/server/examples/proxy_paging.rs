//! Many clients paging markets through one or more proxies (the
//! "done when"): each client follows `next_cursor` from the first page,
//! starts over at the end, and waits `Retry-After` on a 429. Once a second
//! it reads every proxy's `/metrics` (on its `--metrics-addr`) and reports
//! the upstream requests per minute they made together, and any upstream
//! 429.
//!
//! ```text
//! cargo run --release -p predmarket-server --example proxy_paging -- \
//!     --url http://127.0.0.1:8802 --metrics http://127.0.0.1:9102 \
//!     [--url http://127.0.0.1:8803 --metrics http://127.0.0.1:9103] --key bench --clients 50 --seconds 125
//! ```

use clap::Parser;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
struct Args {
    /// Base URL of a proxy (repeatable: clients are spread over them).
    #[arg(long, required = true)]
    url: Vec<String>,
    /// Base URL of a proxy's `--metrics-addr` (repeatable, one per proxy).
    #[arg(long, required = true)]
    metrics: Vec<String>,
    #[arg(long, default_value = "bench")]
    key: String,
    #[arg(long, default_value_t = 50)]
    clients: usize,
    #[arg(long, default_value_t = 125)]
    seconds: u64,
    #[arg(long, default_value_t = 25)]
    limit: u32,
}

#[derive(Default)]
struct Counts {
    ok: AtomicU64,
    limited: AtomicU64,
    other: AtomicU64,
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let client = reqwest::Client::new();
    let counts = Arc::new(Counts::default());
    let end = Instant::now() + Duration::from_secs(args.seconds);
    let mut tasks = Vec::new();
    for n in 0..args.clients {
        let base = args.url[n % args.url.len()].clone();
        let (client, counts, key, limit) =
            (client.clone(), counts.clone(), args.key.clone(), args.limit);
        tasks.push(tokio::spawn(async move {
            let mut cursor: Option<String> = None;
            while Instant::now() < end {
                let mut url = format!("{base}/markets?limit={limit}");
                if let Some(c) = &cursor {
                    url.push_str("&cursor=");
                    url.push_str(
                        &form_urlencoded::byte_serialize(c.as_bytes()).collect::<String>(),
                    );
                }
                let Ok(response) = client.get(&url).header("X-API-Key", &key).send().await else {
                    counts.other.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                };
                let status = response.status().as_u16();
                let retry = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(1);
                let body: serde_json::Value = response.json().await.unwrap_or_default();
                match status {
                    200 => {
                        counts.ok.fetch_add(1, Ordering::Relaxed);
                        cursor = body["pagination"]["next_cursor"]
                            .as_str()
                            .filter(|_| body["pagination"]["has_more"] == true)
                            .map(str::to_owned);
                    }
                    429 => {
                        counts.limited.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_secs(retry.min(10))).await;
                    }
                    _ => {
                        counts.other.fetch_add(1, Ordering::Relaxed);
                        cursor = None;
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }));
    }
    // Upstream requests (all proxies together) sampled each second.
    let mut samples: VecDeque<(Instant, u64)> = VecDeque::new();
    let mut max_per_minute = 0;
    let mut upstream_429 = 0;
    let started = Instant::now();
    let mut last = 0;
    // Requests made before this run are not counted.
    let mut baseline = None;
    while Instant::now() < end {
        let mut total = 0;
        upstream_429 = 0;
        for base in &args.metrics {
            let text = match client.get(format!("{base}/metrics")).send().await {
                Ok(r) => r.text().await.unwrap_or_default(),
                Err(_) => String::new(),
            };
            for line in text.lines() {
                if let Some(rest) =
                    line.strip_prefix("predmarket_proxy_upstream_requests_total{status=\"")
                {
                    let n: u64 = rest
                        .rsplit(' ')
                        .next()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0);
                    total += n;
                    if rest.starts_with("429\"") {
                        upstream_429 += n;
                    }
                }
            }
        }
        let total = match baseline {
            None => {
                baseline = Some(total);
                0
            }
            Some(b) => total.saturating_sub(b),
        };
        let now = Instant::now();
        samples.push_back((now, total));
        while samples
            .front()
            .is_some_and(|(t, _)| now.duration_since(*t) > Duration::from_secs(60))
        {
            samples.pop_front();
        }
        // Requests in the last 60 s: the newest count minus the count just
        // before the window (0 if the run is younger than a minute).
        let before = if now.duration_since(started) > Duration::from_secs(60) {
            samples.front().map_or(0, |(_, n)| *n)
        } else {
            0
        };
        max_per_minute = max_per_minute.max(total - before);
        last = total;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    for task in tasks {
        let _ = task.await;
    }
    println!(
        "{} clients, {} s: pages ok {}, 429 from the proxy {}, other {}; upstream requests {} \
         (max {} in any 60 s), upstream 429 {}",
        args.clients,
        args.seconds,
        counts.ok.load(Ordering::Relaxed),
        counts.limited.load(Ordering::Relaxed),
        counts.other.load(Ordering::Relaxed),
        last,
        max_per_minute,
        upstream_429
    );
}
