//! The attacks of the module doc of `main.rs`, one function each.

use crate::*;

/// Scenario 1: `ATTACKERS` addresses at their per-visitor maxima: 16
/// streams each, 32 resources a stream, as many new books as the quota
/// takes (the rest watch those again). On a proxy with room in the
/// visitors' buckets, so that the topics are made: the scheduler's share
/// and the first polls' lanes are what must keep the good viewer served.
pub(crate) async fn starvation(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let mut held = Vec::new();
    let (mut opened, mut refused) = (0, 0);
    for a in 0..ATTACKERS {
        let attacker = from(&format!("127.0.0.{}", 20 + a))?;
        for s in 0..16 {
            // Streams of as many books as a stream carries: streams 0
            // and 1 start 64 books, the quota; stream 2 tries a stream's
            // worth more (refused), the others watch the first 64 again.
            let whole = live::MAX_RESOURCES;
            let first = if s == 2 { 2 * whole } else { (s % 2) * whole };
            let books: Vec<String> = (first..first + whole)
                .map(|b| format!("orderbook:starve-{a}-{b}"))
                .collect();
            let response = open(&attacker, proxy.addr, &books, &[]).await?;
            if response.status() == 200 {
                opened += 1;
                held.push(read_all(response));
            } else {
                refused += 1;
            }
        }
    }
    report.rule(opened >= ATTACKERS * 15, || {
        format!("starvation: only {opened} of the attackers' streams opened")
    });
    report.figure(format!(
        "starvation: {ATTACKERS} addresses × 16 streams × {} books: {opened} streams open, {refused} refused (over the quota)",
        live::MAX_RESOURCES
    ));
    judge_good(
        report,
        "starvation",
        good_viewer(proxy.addr, "good-1").await,
    );
    for task in held {
        task.abort();
    }
    Ok(())
}

/// Scenario 2: opens and closes of fresh ids, as fast as answered.
pub(crate) async fn churn(
    args: &Args,
    report: &Report,
    proxy: &Proxy,
    upstream: &Upstream,
) -> Result<(), String> {
    let attacker = from("127.0.0.3")?;
    let started = Instant::now();
    let (mut opens, mut refused) = (0u64, 0u64);
    let mut n = 0;
    while started.elapsed().as_secs_f64() < args.seconds {
        // Whole streams of new ids (as many as a stream carries), and
        // small ones of 4 that fit the bucket's burst.
        let size = if opens % 2 == 0 {
            live::MAX_RESOURCES
        } else {
            4
        };
        let books: Vec<String> = (0..size)
            .map(|b| {
                n += 1;
                format!("orderbook:churn-{n}-{b}")
            })
            .collect();
        let response = open(&attacker, proxy.addr, &books, &[]).await?;
        opens += 1;
        if response.status() != 200 {
            refused += 1;
        }
        drop(response);
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    // Give the first polls of what was admitted time to reach the upstream.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let fetched = upstream.distinct("churn-");
    // Its misses bucket (the default 30 a minute, 7 at once) and then
    // some: never the thousands of the finding.
    let allowed = 7.0 + 30.0 * elapsed / 60.0 + 2.0;
    report.rule(fetched as f64 <= allowed, || {
        format!("churn: {fetched} of the attacker's ids fetched upstream in {elapsed:.1} s; its misses allow {allowed:.1}")
    });
    report.rule(refused > 0, || {
        "churn: the attacker was never refused".into()
    });
    report.figure(format!(
        "churn: {opens} opens of 32 or 4 fresh ids in {elapsed:.1} s, {refused} refused, {fetched} ids fetched upstream"
    ));
    judge_good(
        report,
        "churn (a resource nobody watched)",
        good_viewer(proxy.addr, "good-2").await,
    );
    Ok(())
}

/// Scenario 3: opens from another site's page.
pub(crate) async fn cross_site(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let page = from("127.0.0.6")?;
    for headers in [
        [("sec-fetch-site", "cross-site")],
        [("origin", "https://evil.example")],
    ] {
        let response = open(
            &page,
            proxy.addr,
            &["orderbook:good-1".to_owned()],
            &headers,
        )
        .await?;
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        report.rule(status == 403 && body["error"]["code"].is_string(), || {
            format!("cross-site: {headers:?} got {status} {body}")
        });
    }
    Ok(())
}

/// Scenario 4: one address's broken requests and a stream of another
/// broken id, while the good viewer asks for its own book.
pub(crate) async fn breaker(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.4")?;
    let stream = open(
        &attacker,
        proxy.addr,
        &["orderbook:broken-stream".to_owned()],
        &[],
    )
    .await?;
    let held = read_all(stream);
    let good = from(GOOD)?;
    let mut refused_good = 0;
    for i in 0..20 {
        let _ = attacker
            .get(format!(
                "http://{}/markets/broken-{i}/orderbook",
                proxy.addr
            ))
            .send()
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        if i % 4 == 3 {
            let response = good
                .get(format!("http://{}/markets/good-3/orderbook", proxy.addr))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            if status != 200 {
                refused_good += 1;
                report.rule(false, || {
                    format!("breaker: the good viewer's request got {status} {body}")
                });
            }
        }
    }
    held.abort();
    report.figure(format!(
        "breaker: 20 broken requests and a broken stream; the good viewer refused {refused_good} times"
    ));
    judge_good(report, "breaker", good_viewer(proxy.addr, "good-3").await);
    Ok(())
}

/// Scenario 5: a line break in a watched id.
pub(crate) async fn log_forging(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.5")?;
    let forged = "orderbook:x\nFORGED level=ERROR".to_owned();
    let response = open(&attacker, proxy.addr, &[forged], &[]).await?;
    let status = response.status().as_u16();
    drop(response);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let lines = proxy
        .process
        .log
        .lock()
        .map(|l| l.clone())
        .unwrap_or_default();
    report.rule(!lines.iter().any(|l| l.starts_with("FORGED")), || {
        "log forging: a watched id put a line of its own in the log".into()
    });
    report.figure(format!(
        "log forging: the open got {status}; no forged line"
    ));
    judge_good(
        report,
        "log forging",
        good_viewer(proxy.addr, "good-5").await,
    );
    Ok(())
}

/// Waits (up to `CEILING`) until a stream of `books`, opened from an
/// address of its own and read, was told a snapshot of each.
async fn snapshots_held(proxy: &Proxy, books: &[String]) -> Result<(), String> {
    let reader = from("127.0.0.12")?;
    let mut response = open(&reader, proxy.addr, books, &[]).await?;
    let deadline = Instant::now() + CEILING;
    let marker = format!("event: {}", Kind::Snapshot.name());
    let (mut told, mut line) = (0, Vec::new());
    while told < books.len() {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(Ok(Some(chunk))) = tokio::time::timeout(left, response.chunk()).await else {
            return Err(format!(
                "memory: {told} of {} snapshots told within the ceiling",
                books.len()
            ));
        };
        for byte in chunk.iter() {
            if *byte == b'\n' {
                told += usize::from(line == marker.as_bytes());
                line.clear();
            } else {
                line.push(*byte);
            }
        }
    }
    Ok(())
}

/// Scenario 6: 16 streams that never read, of the same 32 big answers.
pub(crate) async fn memory(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.7")?;
    let books: Vec<String> = (0..live::MAX_RESOURCES)
        .map(|b| format!("orderbook:big-{b}"))
        .collect();
    let mut held = Vec::new();
    let first = open(&attacker, proxy.addr, &books, &[]).await?;
    report.rule(first.status() == 200, || {
        format!(
            "memory: the first stream of the big answers got {}",
            first.status()
        )
    });
    held.push(first);
    // Measured once the topics hold their snapshots (a reader on another
    // address was told all of them): then it is one stream's worth. A
    // fixed wait was too short for a debug build on a busy machine, and
    // the snapshots themselves were counted as the streams' growth.
    snapshots_held(proxy, &books).await?;
    let one = proxy.rss_mb().ok_or("no RSS of the proxy")?;
    for _ in 1..16 {
        held.push(open(&attacker, proxy.addr, &books, &[]).await?);
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let sixteen = proxy.rss_mb().ok_or("no RSS of the proxy")?;
    let growth = sixteen.saturating_sub(one);
    report.rule(growth <= MAX_GROWTH_MB, || {
        format!("memory: 15 more non-reading streams grew the proxy by {growth} MiB (at most {MAX_GROWTH_MB})")
    });
    report.figure(format!(
        "memory: RSS {one} MiB with one non-reading stream of {} × 512 KiB answers, {sixteen} MiB with 16 (+{growth} MiB)",
        live::MAX_RESOURCES
    ));
    judge_good(report, "memory", good_viewer(proxy.addr, "good-4").await);
    drop(held);
    Ok(())
}
