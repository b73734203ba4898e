//! Scenario 1: a keyed proxy under a traversal sweep, breaker abuse, a
//! hot entry's flood (`hot`) and slow readers, beside a good visitor
//! measuring its own misses.

use super::*;
use crate::attack_common::Report;
use crate::paths::{HOSTILE_PATHS, REFUSED_IN_CORE, reason};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Scenario 1: the keyed proxy under a traversal sweep, breaker abuse and
/// slow readers, while the good visitor measures its own misses.
pub(crate) async fn keyed(
    args: &Args,
    report: &Arc<Report>,
    upstream_addr: SocketAddr,
    upstream: &Arc<Upstream>,
) -> Result<(), String> {
    let proxy = Proxy::start(
        args,
        upstream_addr,
        &[
            "--api-key",
            &format!("{GOOD}:unlimited"),
            "--api-key",
            &format!("{ATTACKER}:unlimited"),
            "--upstream-limit",
            "100000",
            "--breaker-failures",
            "3",
            // Once open (the control), it stays open for the rest.
            "--breaker-cooldown",
            "3600",
            "--max-connections-per-address",
            &PER_ADDRESS.to_string(),
            "--idle-timeout",
            "3600",
        ],
    )?;
    let addr = proxy.addr;
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    tasks.push(tokio::spawn(good_visitor(
        addr,
        report.clone(),
        stop.clone(),
    )));
    tasks.push(tokio::spawn(traversal(addr, report.clone(), stop.clone())));
    // Two loops of five a second: the attacker's failures outnumber every
    // success in the breaker's window (checked below), so only the rule
    // about distinct visitors can keep the circuit closed.
    for seed in 0..2 {
        tasks.push(tokio::spawn(breaker_abuse(
            addr,
            seed,
            report.clone(),
            stop.clone(),
        )));
    }
    let hot = tokio::spawn(hot::flood(addr, report.clone(), stop.clone()));
    let slow = tokio::spawn(slow_readers(
        addr,
        args.slow_readers,
        args.write_timeout,
        report.clone(),
    ));
    tokio::time::sleep(Duration::from_secs_f64(args.seconds)).await;
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        let _ = tokio::time::timeout(CEILING, task).await;
    }
    let _ = tokio::time::timeout(CEILING * 2, slow).await;
    match tokio::time::timeout(CEILING, hot).await {
        Ok(Ok((flood, began))) => hot::rules(report, upstream, &flood, began),
        _ => report.violation("the hot entry's flood did not end".into()),
    }
    abuse_was_strong(report, upstream);

    let state = proxy.metric("predmarket_proxy_circuit_state").await?;
    let refusals = proxy
        .metric("predmarket_proxy_circuit_refusals_total")
        .await?;
    report.rule(state == 0.0 && refusals == 0.0, || {
        format!("the attacker's requests opened the circuit (state {state}, {refusals} refusals)")
    });
    let failures = proxy
        .metric("predmarket_proxy_upstream_requests_total{status=\"502\"}")
        .await
        .unwrap_or(0.0);
    // The abuse reached the upstream and failed there: the breaker had
    // failures to count, and did not open on them.
    report.rule(failures > 0.0, || {
        "no 502 reached the proxy: the abuse tested nothing".into()
    });

    // The control: the upstream failing both visitors' requests opens the
    // circuit (within a bounded number of tries, whatever the window holds).
    let mut opened = false;
    for n in 0..400 {
        let (key, source) = if n % 2 == 0 {
            (GOOD, GOOD_IP)
        } else {
            (ATTACKER, ATTACKER_IP)
        };
        let (status, _, body) = ask(
            addr,
            &format!("/markets/fail502-control-{n}"),
            Some(key),
            source,
        )
        .await?;
        if reason(&body) == "upstream_circuit_open" {
            report.count("control: circuit open", status);
            opened = status == 503;
            break;
        }
    }
    report.rule(opened, || {
        "the circuit never opened while the upstream failed two visitors' requests".into()
    });
    let (status, _, body) = ask(addr, "/markets/good-after-control", Some(GOOD), GOOD_IP).await?;
    report.rule(
        status == 503 && reason(&body) == "upstream_circuit_open",
        || format!("after the control, a miss: {status} {body:.200}"),
    );
    report.rule(
        upstream
            .seen
            .lock()
            .map(|s| !s.iter().any(|r| r.target.contains("good-after-control")))
            .unwrap_or(false),
        || "a request went upstream while the circuit was open".into(),
    );
    Ok(())
}

/// Whether the abuse challenged the breaker: over its last window, the
/// upstream's failures (502s) at least as many as its successes, so a
/// breaker that counted failures of one visitor would have opened.
fn abuse_was_strong(report: &Report, upstream: &Upstream) {
    let window = predmarket_server::proxy::breaker::WINDOW;
    let Ok(seen) = upstream.seen.lock() else {
        return;
    };
    let recent = seen.iter().filter(|r| r.at.elapsed() < window);
    let (mut failed, mut served) = (0, 0);
    for request in recent {
        if request.target.contains("fail502") {
            failed += 1;
        } else if !request.target.contains("html") {
            served += 1;
        }
    }
    report.figure(format!(
        "breaker abuse: over the last {} s the upstream failed {failed} requests and served {served}",
        window.as_secs()
    ));
    report.rule(failed >= served, || {
        format!(
            "the abuse was too weak to test the breaker: {failed} failures, {served} successes \
             at the upstream in its window"
        )
    });
}

/// Distinct misses, five a second: each one must be a 200 MISS.
async fn good_visitor(addr: SocketAddr, report: Arc<Report>, stop: Arc<AtomicBool>) {
    let mut n = 0u64;
    let mut served = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let target = format!("/markets/good-{n}");
        match ask(addr, &target, Some(GOOD), GOOD_IP).await {
            Ok((status, head, body)) => {
                report.count("good visitor's miss", status);
                if status == 200 && x_cache(&head) == "miss" {
                    served += 1;
                } else {
                    report.violation(format!(
                        "good visitor {target}: {status} {} {body:.200}",
                        x_cache(&head)
                    ));
                }
            }
            Err(e) => report.violation(format!("good visitor {target}: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    report.rule(served > 0, || "the good visitor was never served".into());
}

/// The sweep of hostile targets, round after round, each with a fresh
/// `bust` parameter somewhere.
async fn traversal(addr: SocketAddr, report: Arc<Report>, stop: Arc<AtomicBool>) {
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let mut targets: Vec<(String, &[u16], &str)> = Vec::new();
        for target in paths::sweep() {
            let expect: &[u16] = if HOSTILE_PATHS.contains(&target.as_str()) {
                &[400, 404]
            } else {
                &[200, 400, 404]
            };
            targets.push((target, expect, "traversal"));
        }
        for target in REFUSED_IN_CORE {
            targets.push(((*target).to_owned(), &[400], "dot id refused in core"));
        }
        targets.push((
            format!("/trades?market_id=..%2f..%2faccount&bust={round}&api_key=leak"),
            &[200],
            "undeclared parameters",
        ));
        targets.push((
            format!("/markets/ok-id?include_raw=true&bust={round}"),
            &[200],
            "undeclared parameters",
        ));
        for (target, expect, what) in targets {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            match ask(addr, &target, Some(ATTACKER), ATTACKER_IP).await {
                Ok((status, _, body)) => {
                    report.count(what, status);
                    report.rule(expect.contains(&status), || {
                        format!("{what} {target}: {status}, expected {expect:?}: {body:.200}")
                    });
                    if status == 400 {
                        report.rule(body.contains("VALIDATION_ERROR"), || {
                            format!("{target}: a 400 that is not VALIDATION_ERROR: {body:.200}")
                        });
                    }
                }
                Err(e) => report.violation(format!("{what} {target}: {e}")),
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Five requests a second the upstream fails (three of four a 502, the
/// fourth an HTML page); none may be refused for an open circuit. `seed`
/// keeps two loops' ids apart.
async fn breaker_abuse(addr: SocketAddr, seed: u64, report: Arc<Report>, stop: Arc<AtomicBool>) {
    let mut k = 0u64;
    while !stop.load(Ordering::Relaxed) {
        k += 1;
        let n = 2 * k + seed;
        let target = match k % 4 {
            0 if k.is_multiple_of(8) => format!("/events/html200-{n}"),
            0 => format!("/series/html403-{n}"),
            1 => format!("/markets?query=fail502x{n}"),
            _ => format!("/markets/fail502-{n}"),
        };
        match ask(addr, &target, Some(ATTACKER), ATTACKER_IP).await {
            Ok((status, _, body)) => {
                report.count("breaker abuse", status);
                report.rule(status >= 400, || format!("{target}: {status}"));
                report.rule(reason(&body) != "upstream_circuit_open", || {
                    format!("{target}: refused for an open circuit")
                });
            }
            Err(e) => report.violation(format!("breaker abuse {target}: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Readers of the 8 MiB answer that never read, from one address, more of
/// them than its connection cap: the ones above the cap are closed
/// unanswered, the others are cut short by the write timeout.
async fn slow_readers(addr: SocketAddr, count: usize, write_timeout: f64, report: Arc<Report>) {
    let mut readers = Vec::new();
    for i in 0..count {
        readers.push(tokio::spawn(slow_reader(addr, i, write_timeout)));
    }
    let (mut cut, mut refused) = (0, 0);
    for reader in readers {
        match reader.await {
            Ok(SlowReader::Refused) => refused += 1,
            Ok(SlowReader::Cut { got, length }) => {
                cut += 1;
                report.figure(format!("slow reader cut after {got} of {length} bytes"));
            }
            Ok(SlowReader::Whole) => {
                report.violation("a slow reader got the whole answer: no write timeout".into())
            }
            Ok(SlowReader::Failed(e)) => report.violation(format!("slow reader: {e}")),
            Err(e) => report.violation(format!("slow reader task: {e}")),
        }
    }
    report.figure(format!(
        "slow readers: {cut} served and cut short by the write timeout, {refused} refused by \
         the per-address cap ({PER_ADDRESS})"
    ));
    report.rule(cut > 0, || "no slow reader was served at all".into());
    report.rule(cut <= PER_ADDRESS, || {
        format!("{cut} slow readers served at once from one address, cap {PER_ADDRESS}")
    });
    if count > PER_ADDRESS {
        report.rule(refused > 0, || {
            format!("{count} connections from one address, none refused")
        });
    }
}

enum SlowReader {
    Refused,
    Cut { got: usize, length: usize },
    Whole,
    Failed(String),
}

async fn slow_reader(addr: SocketAddr, i: usize, write_timeout: f64) -> SlowReader {
    let attempt = async {
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        socket
            .set_recv_buffer_size(4096)
            .map_err(|e| e.to_string())?;
        socket
            .bind(SocketAddr::new(SLOW_IP, 0))
            .map_err(|e| e.to_string())?;
        let mut stream = socket.connect(addr).await.map_err(|e| e.to_string())?;
        let request = format!(
            "GET /markets/large-{} HTTP/1.1\r\nHost: x\r\nX-API-Key: {ATTACKER}\r\n\r\n",
            i % 2
        );
        if stream.write_all(request.as_bytes()).await.is_err() {
            return Ok(SlowReader::Refused);
        }
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        let end = loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return Ok(SlowReader::Refused),
                Ok(n) => seen.extend_from_slice(&buf[..n]),
            }
            if let Some(at) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
        if !head.starts_with("http/1.1 200") {
            return Err(format!("{:.100}", head));
        }
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .ok_or("no content-length")?;
        let mut got = seen.len() - end;
        // Not reading, for twice the write timeout: the answer cannot be
        // sent within it.
        tokio::time::sleep(Duration::from_secs_f64(write_timeout * 2.0)).await;
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
        Ok::<_, String>(if got >= length {
            SlowReader::Whole
        } else {
            SlowReader::Cut { got, length }
        })
    };
    match tokio::time::timeout(CEILING, attempt).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) => SlowReader::Failed(e),
        Err(_) => SlowReader::Failed(format!(
            "still open {} s after asking: no write timeout",
            CEILING.as_secs()
        )),
    }
}
