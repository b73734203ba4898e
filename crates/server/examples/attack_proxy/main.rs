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
//!    served, and the same attacker's flood of one hot list page through
//!    its refreshes (`hot`). Then, as the control, two visitors' requests failing at the
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

#[path = "../attack_common/mod.rs"]
mod attack_common;
mod hot;
mod keyed;
#[path = "../../tests/common/paths.rs"]
mod paths;
mod proxy;
mod public;
#[path = "../../tests/common/redis.rs"]
mod redis_kit;
mod redis_stopped;
mod upstream;

use attack_common::Report;
use clap::Parser;
use paths::raw_get;
use proxy::Proxy;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use upstream::{Upstream, start_upstream, upstream_rules};

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

    keyed::keyed(args, &report, upstream_addr, &upstream).await?;
    let public_from = upstream.len();
    public::public(args, &report, upstream_addr, &upstream, public_from).await?;
    redis_stopped::redis_stopped(args, &report, upstream_addr).await?;
    upstream_rules(&report, &upstream);

    println!(
        "proxy attack: keyed proxy {} s (traversal sweep, breaker abuse at 2 × 5/s, {} slow readers), \
         public proxy (one client at 10/s, {PUBLIC_LIMIT} upstream requests a minute), Redis stopped",
        args.seconds, args.slow_readers
    );
    println!("the fake upstream received {} requests", upstream.len());
    Ok(report.print_end())
}
