//! Scenario 2: a public proxy; one client sends ten distinct misses a
//! second while another's misses must each be served.

use super::*;
use crate::attack_common::Report;
use crate::paths::reason;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Scenario 2: a public proxy; A at ten distinct misses a second, B's
/// misses must all be served.
pub(crate) async fn public(
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
