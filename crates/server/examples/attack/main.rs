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
//! - `--keyless` tasks flooding the good client's page, `/markets?limit=25`,
//!   without a key and with unknown keys, back to back (each a 401);
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

#[path = "../attack_common/mod.rs"]
mod attack_common;
mod good_client;
mod hostile;
mod http;
mod report;
mod server_process;

use attack_common::Report;
use clap::Parser;
use good_client::*;
use hostile::*;
use http::*;
use report::*;
use server_process::*;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Tasks flooding `/markets?limit=25` without a key and with unknown
    /// keys, back to back on keep-alive connections.
    #[arg(long, default_value_t = 4)]
    keyless: usize,
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
    /// Answers to the keyless and unknown-key flood.
    flood_answered: AtomicU64,
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
    for i in 0..args.keyless {
        requests.push(tokio::spawn(keyless_flood(
            addr,
            i as u64,
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
