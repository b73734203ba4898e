//! One entry made hot by a flood, through its refreshes: a keyed attacker
//! asks for one list page back to back from four connections for the
//! whole keyed run, while the good visitor measures its own misses
//! (`keyed`). What the flood may cost the operator is the entry's refresh,
//! one upstream request per freshness however many ask (the front answers
//! `UPDATING` while it runs, `proxy::fresh`); what it may cost the flooder
//! is its own key's budget. Rules: every answer is a 200 from the entry
//! (`MISS` only while the first flight is out), the upstream is asked for
//! the page at most once per freshness, and the run saw `UPDATING` (the
//! path under test was taken).

use super::*;
use crate::attack_common::Report;
use predmarket_core::request::Operation;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The page the flood asks for: its `category` names it in the fake
/// upstream's log, where no other scenario writes it.
pub(crate) const HOT_PAGE: &str = "/markets?limit=7&category=hot-entry";
const CONNECTIONS: usize = 4;
/// The flood's own address: the attacker's key from a fourth address, so
/// that its loops do not take the connections the traversal and breaker
/// abuse hold under the per-address cap.
const HOT_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 5));

/// Answers the flood got, by `X-Cache` value (or status when not 200).
#[derive(Default)]
pub(crate) struct Flood {
    answers: Mutex<BTreeMap<String, u64>>,
}

/// Asks for [`HOT_PAGE`] from [`CONNECTIONS`] loops until `stop`.
pub(crate) async fn flood(
    addr: SocketAddr,
    report: Arc<Report>,
    stop: Arc<AtomicBool>,
) -> (Arc<Flood>, Instant) {
    let flood = Arc::new(Flood::default());
    let began = Instant::now();
    let loops: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            let (flood, report, stop) = (flood.clone(), report.clone(), stop.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let seen = match ask(addr, HOT_PAGE, Some(ATTACKER), HOT_IP).await {
                        Ok((200, head, _)) => x_cache(&head).to_owned(),
                        Ok((status, _, body)) => {
                            report.violation(format!("hot entry: {status} {body:.200}"));
                            status.to_string()
                        }
                        Err(e) => {
                            report.violation(format!("hot entry: {e}"));
                            "no answer".to_owned()
                        }
                    };
                    if let Ok(mut answers) = flood.answers.lock() {
                        *answers.entry(seen).or_default() += 1;
                    }
                }
            })
        })
        .collect();
    for handle in loops {
        let _ = tokio::time::timeout(CEILING, handle).await;
    }
    (flood, began)
}

/// The flood's rules, read once it has stopped.
pub(crate) fn rules(report: &Report, upstream: &Upstream, flood: &Flood, began: Instant) {
    let answers = flood.answers.lock().map(|a| a.clone()).unwrap_or_default();
    let count = |how: &str| answers.get(how).copied().unwrap_or(0);
    let asked_upstream = upstream
        .seen
        .lock()
        .map(|seen| {
            seen.iter()
                .filter(|s| s.target.contains("hot-entry"))
                .count()
        })
        .unwrap_or(usize::MAX);
    let fresh_secs = f64::from(Operation::ListMarkets.lifetimes().fresh_secs);
    let allowed = 1 + (began.elapsed().as_secs_f64() / fresh_secs).ceil() as usize;
    println!(
        "hot entry: {} answers ({} hit, {} updating, {} miss), the upstream asked {asked_upstream} times (at most {allowed})",
        answers.values().sum::<u64>(),
        count("hit"),
        count("updating"),
        count("miss"),
    );
    report.rule(asked_upstream <= allowed, || {
        format!("the hot entry cost {asked_upstream} upstream requests, over one per freshness ({allowed})")
    });
    report.rule(count("updating") > 0, || {
        "the flood never met its entry being refreshed: the path was not tested".into()
    });
    // A miss waits on the upstream: only the first flight's joiners may.
    report.rule(count("miss") <= CONNECTIONS as u64, || {
        format!(
            "{} of the flood's answers waited on the upstream",
            count("miss")
        )
    });
}
