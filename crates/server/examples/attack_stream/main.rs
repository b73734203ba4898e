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
//!    of its own in the proxy's log, nor spoil the good viewer's stream.
//! 6. **Memory** (on the roomy proxy too): 16 streams that
//!    never read, of the same 32 answers of 512 KiB; the proxy's resident
//!    memory may grow by at most `MAX_GROWTH_MB` from one such stream to
//!    sixteen (each subscriber copied every snapshot: +281 MiB).
//! 7. **Poisoning**: one address watches a book the upstream refuses
//!    (tomorrow's, whose id a public schedule gives away) and is told the
//!    refusal; the book then appears. A viewer on another address who
//!    opens it 6 s later (the finding's delay) must get its snapshot and
//!    changes, not the old refusal, and the attacker's own stream must be
//!    told with a snapshot.
//! 8. **Recorder** (`recorder.rs`): a recording proxy of its own, one visitor at its maxima of topics and `/history`; the archive stays under its quota, rows only for allowed topics, `/history` past the bucket a 429.
//! 9. **Redis connections** (`redis_replicas.rs`, two replicas on a real
//!    `redis-server`): one address watches 64 books on both replicas
//!    (one polls them, the other follows them all); Redis's connected
//!    clients may grow by at most `CONNECTION_SLACK` (one connection per
//!    resource per replica: 7 → 263).
//! 10. **Forged Redis entries**: entries added to a followed resource's
//!     events in Redis, one smuggling an SSE `error` aimed at the good
//!     viewer's own book, one untidy but valid; the good viewer, whose
//!     stream carries that resource too, gets no forged field, and the
//!     untidy entry written anew by serde.
//! 11. **Slow Redis**: behind a link that delays each byte 300 ms each
//!     way, an open of 32 new books answers well within the request
//!     timeout (their readiness awaited together, not each in turn).
//! 12. **Behind a trusted load balancer** (`trusted.rs`,
//!     `--trusted-proxy`): 20 visitors behind one balancer each open a
//!     stream (each counted by its `X-Forwarded-For`, not the balancer's
//!     address); 17 addresses of one IPv6 /64 are one visitor (16 streams,
//!     then 429).
//! 13. **Too large for Redis** (`too_large.rs`): replica A polls a huge
//!     book whose every level changes, each `change` over the 16 MiB
//!     replicas share; a viewer on replica B is told `stale`
//!     `EVENT_TOO_LARGE` and gets no line over the cap.
//!
//! Scenarios 9 to 11 and 13 need `redis-server`: without it they say SKIPPED on
//! stderr, unless `PREDMARKET_REQUIRE_REDIS` is set (`cargo xtask test`
//! sets it), which makes its absence a failure.
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

#[path = "../attack_common/mod.rs"]
mod attack_common;
mod poison;
mod proxy;
mod recorder;
#[path = "../../tests/common/redis.rs"]
mod redis_kit;
mod redis_replicas;
mod scenarios;
mod slow_link;
mod too_large;
mod trusted;
mod upstream;
mod viewer;

use poison::*;
use proxy::*;
use recorder::*;
use redis_replicas::*;
use scenarios::*;
use slow_link::*;
use too_large::*;
use trusted::*;
use upstream::*;
use viewer::*;

use attack_common::Report;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use clap::Parser;
use predmarket_core::live::{self, Kind};
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::process::Command;
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
    let check = args.check;
    attack_common::run_and_exit("attack_stream", check, async move { run(&args).await })
}

async fn run(args: &Args) -> Result<usize, String> {
    let report = Arc::new(Report::default());
    let (upstream_addr, upstream) = start_upstream().await?;
    let proxy = Proxy::start(&args.server, upstream_addr, &["--stream-max-topics", "200"])?;
    churn(args, &report, &proxy, &upstream).await?;
    cross_site(&report, &proxy).await?;
    breaker(&report, &proxy).await?;
    log_forging(&report, &proxy).await?;
    poisoning(&report, &proxy, &upstream).await?;
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
    recording(&args.server, &report).await?;
    through_redis(args, &report, upstream_addr).await?;
    trusted_proxy(args, &report, upstream_addr).await?;

    let busiest = upstream.busiest_minute();
    report.rule(busiest <= LIMIT as usize, || {
        format!("the upstream saw {busiest} requests in one minute, its limit is {LIMIT}")
    });
    report.figure(format!(
        "upstream: {busiest} requests in its busiest minute (limit {LIMIT})"
    ));
    Ok(report.print_end())
}
