//! Scenario 8 of `main.rs`: the recorder under attack. A proxy of its own
//! (`--record DIR --record-max-mb 1`, in front of an upstream of its own,
//! so its traffic is judged apart) and one visitor at its per-visitor
//! maxima: its quota of topics, every one a book of `BIG` bytes, more
//! streams of new books past the quota, and `/history` requests until its
//! request bucket is spent. The archive must stay under its quota while
//! the quota is exercised, rows must be written only for the topics the
//! quotas allowed, `/history` past the bucket must be the visitors' JSON
//! 429, and the good viewer must still get its snapshot and changes.

use crate::*;
use predmarket_server::record::{archive, layout};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The archive's quota, in MB (`--record-max-mb`).
const QUOTA_MB: u64 = 1;
/// A visitor's topics at most (`--stream-max-topics-per-visitor`'s
/// default).
const TOPIC_QUOTA: usize = 64;
/// `--visitor-requests`'s default, a minute; its bucket holds a quarter.
const REQUESTS_PER_MINUTE: usize = 240;
/// Opens past the topic quota, each of `MAX_RESOURCES` new books.
const OPENS_PAST_QUOTA: usize = 3;
const ATTACKER: &str = "127.0.0.11";

/// What the archive showed while it was watched: the most bytes of
/// finished parts at once, every part seen (and its size) and the ids of
/// its rows, and the parts deleted before they could be read.
#[derive(Default)]
struct Seen {
    peak_bytes: u64,
    parts: HashSet<PathBuf>,
    bytes_written: u64,
    ids: BTreeSet<String>,
    gone_before_read: usize,
}

impl Seen {
    /// One look at the archive. A listing over the quota is taken again at
    /// once: a part deleted and the next renamed into place while the
    /// directory was being listed can be seen both; a real excess stays.
    fn look(&mut self, dir: &Path) {
        let quota = QUOTA_MB * 1024 * 1024;
        let mut on_disk = bytes(&layout::parts(dir));
        if on_disk > quota {
            on_disk = bytes(&layout::parts(dir));
        }
        self.peak_bytes = self.peak_bytes.max(on_disk);
        for part in layout::parts(dir) {
            if !self.parts.insert(part.path.clone()) {
                continue;
            }
            self.bytes_written += part.bytes;
            match archive::read_part(&part.path) {
                Ok(rows) => self.ids.extend(rows.into_iter().map(|r| r.id)),
                Err(_) => self.gone_before_read += 1,
            }
        }
    }
}

fn bytes(parts: &[layout::Part]) -> u64 {
    parts.iter().map(|p| p.bytes).sum()
}

/// Looks at the archive every 200 ms until `stop`.
fn watch_archive(dir: PathBuf, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<Seen> {
    tokio::task::spawn_blocking(move || {
        let mut seen = Seen::default();
        while !stop.load(Ordering::SeqCst) {
            seen.look(&dir);
            std::thread::sleep(Duration::from_millis(200));
        }
        seen.look(&dir);
        seen
    })
}

pub(crate) async fn recording(server: &str, report: &Report) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("pm-attack-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (upstream_addr, upstream) = start_upstream().await?;
    let dir_text = dir.display().to_string();
    let quota_text = QUOTA_MB.to_string();
    let proxy = Proxy::start(
        server,
        upstream_addr,
        &[
            "--record",
            &dir_text,
            "--record-max-mb",
            &quota_text,
            "--record-part-mb",
            "1",
            "--record-roll-secs",
            "1",
            // Room for the misses of a whole quota of topics: the topic
            // quota is what must bound the recording.
            "--visitor-misses",
            "6000",
        ],
    )?;
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch_archive(dir.clone(), stop.clone());
    let attacker = from(ATTACKER)?;
    let per_stream = TOPIC_QUOTA / 2;
    let mut held = Vec::new();
    for s in 0..2 {
        let books: Vec<String> = (s * per_stream..(s + 1) * per_stream)
            .map(|b| format!("orderbook:big-rec-{b}"))
            .collect();
        let response = open(&attacker, proxy.addr, &books, &[]).await?;
        let status = response.status().as_u16();
        report.rule(status == 200, || {
            format!("recorder: the attacker's open {s} within its topic quota got {status}")
        });
        held.push(read_all(response));
    }
    let mut admitted_past_quota = 0;
    for s in 0..OPENS_PAST_QUOTA {
        let books: Vec<String> = (0..per_stream)
            .map(|b| format!("orderbook:rec-over-{s}-{b}"))
            .collect();
        let response = open(&attacker, proxy.addr, &books, &[]).await?;
        if response.status() == 200 {
            admitted_past_quota += 1;
            held.push(read_all(response));
        }
    }
    report.rule(admitted_past_quota == 0, || {
        format!("recorder: {admitted_past_quota} opens past the topic quota were admitted")
    });
    // The books' first polls and a few parts, then the bucket spent.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let history = history_past_the_bucket(report, &attacker, proxy.addr).await?;
    judge_good(
        report,
        "recorder",
        good_viewer(proxy.addr, "good-rec").await,
    );
    stop.store(true, Ordering::SeqCst);
    let seen = watcher.await.map_err(|e| e.to_string())?;
    for task in held {
        task.abort();
    }
    drop(proxy);
    let _ = std::fs::remove_dir_all(&dir);

    let quota = QUOTA_MB * 1024 * 1024;
    report.rule(seen.peak_bytes <= quota, || {
        format!(
            "recorder: the archive held {} bytes, its quota is {quota}",
            seen.peak_bytes
        )
    });
    report.rule(seen.bytes_written > quota, || {
        format!(
            "recorder: only {} bytes of parts were written, under the {quota} quota: the quota was not exercised",
            seen.bytes_written
        )
    });
    let allowed = |id: &str| {
        id == "good-rec"
            || id
                .strip_prefix("big-rec-")
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| n < TOPIC_QUOTA)
    };
    let strays: Vec<&String> = seen.ids.iter().filter(|id| !allowed(id)).collect();
    report.rule(strays.is_empty(), || {
        format!("recorder: rows for topics the quotas refused: {strays:?}")
    });
    report.rule(seen.ids.iter().any(|id| id.starts_with("big-rec-")), || {
        "recorder: no row of the attacker's books was read back".into()
    });
    let busiest = upstream.busiest_minute();
    report.rule(busiest <= LIMIT as usize, || {
        format!("recorder: its upstream saw {busiest} requests in one minute, the limit is {LIMIT}")
    });
    report.figure(format!(
        "recorder: {} parts ({} bytes) written under a {quota}-byte quota, at most {} bytes at once; \
         {} of the attacker's books recorded (quota {TOPIC_QUOTA}), the good viewer's {}; \
         {} parts deleted before read; /history: {} served then 429 after {} requests",
        seen.parts.len(),
        seen.bytes_written,
        seen.peak_bytes,
        seen.ids.iter().filter(|id| id.starts_with("big-rec-")).count(),
        if seen.ids.contains("good-rec") { "too" } else { "not yet" },
        seen.gone_before_read,
        history.served,
        history.tries,
    ));
    Ok(())
}

/// The attacker's `/history` requests.
struct HistoryTries {
    tries: usize,
    served: usize,
}

/// `/history` as fast as answered, until the first refusal (or
/// `CEILING`): served at most the bucket (a quarter of a minute's
/// requests, the opens took some) and what it refilled meanwhile; the
/// refusal is the visitors' JSON 429.
async fn history_past_the_bucket(
    report: &Report,
    attacker: &reqwest::Client,
    proxy: SocketAddr,
) -> Result<HistoryTries, String> {
    let url = format!("http://{proxy}/history?resource=orderbook:big-rec-0&limit=1");
    let started = Instant::now();
    let mut served = 0;
    let mut tries = 0;
    let mut refusal = None;
    while started.elapsed() < CEILING && refusal.is_none() {
        tries += 1;
        let response = tokio::time::timeout(CEILING, attacker.get(&url).send())
            .await
            .map_err(|_| "no answer to /history within the ceiling".to_owned())?
            .map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let retry_after = response.headers().contains_key("retry-after");
        let body: Value = response.json().await.unwrap_or(Value::Null);
        match status {
            200 if body["data"].is_array() => served += 1,
            429 => refusal = Some((retry_after, body)),
            _ => report.rule(false, || {
                format!("recorder: /history answered {status} {body}")
            }),
        }
    }
    let refill = started.elapsed().as_secs_f64() * REQUESTS_PER_MINUTE as f64 / 60.0;
    let allowed = (REQUESTS_PER_MINUTE / 4) as f64 + refill + 1.0;
    report.rule(served as f64 <= allowed, || {
        format!("recorder: /history served {served} requests; the bucket allows {allowed:.1}")
    });
    match refusal {
        Some((retry_after, body)) => {
            report.rule(
                retry_after
                    && body["error"]["code"] == "RATE_LIMITED"
                    && body["error"]["details"]["reason"] == "visitor_requests",
                || format!("recorder: /history past the bucket was refused with {body}"),
            );
        }
        // An attacker slower than the bucket refills (each read taking
        // over a quarter of a second, as a debug build's can on a busy
        // machine) is within its bucket: no refusal is owed.
        None => report.rule(tries as f64 <= allowed, || {
            format!(
                "recorder: /history was never refused in {tries} requests, more than the bucket allows ({allowed:.1})"
            )
        }),
    }
    Ok(HistoryTries { tries, served })
}
