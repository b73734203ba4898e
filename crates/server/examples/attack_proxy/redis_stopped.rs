//! Scenario 3: Redis stopped under a running proxy; the next miss is
//! served on the fallback budget with one warning logged.

use super::*;
use crate::attack_common::Report;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Scenario 3: Redis stopped under a running proxy.
pub(crate) async fn redis_stopped(
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
