//! Scenario 13 of `main.rs`: an event too large for Redis. Replica A polls
//! a huge book (its answer just under what a poll reads) whose every level
//! changes: each `change` is over the cap of what replicas share
//! (`stream::broker::MAX_KEPT_EVENT_BYTES`). Redis must not take it (a viewer
//! on replica B is told `stale` `EVENT_TOO_LARGE` at its number, and gets
//! no line that long), while the good viewer on B keeps its cadence.

use crate::*;
use predmarket_server::stream::broker::MAX_KEPT_EVENT_BYTES;

pub(crate) async fn too_large(report: &Report, a: &Proxy, b: &Proxy) -> Result<(), String> {
    let target = ["orderbook:huge-1".to_owned()];
    let attacker = from("127.0.0.26")?;
    let held = read_all(open(&attacker, a.addr, &target, &[]).await?);
    let observer = from("127.0.0.27")?;
    let (told, watched) = tokio::join!(
        async {
            // Once A polled the snapshot (under the cap: shared).
            tokio::time::sleep(Duration::from_secs(2)).await;
            told_too_large(open(&observer, b.addr, &target, &[]).await?).await
        },
        good_viewer(b.addr, "good-r5"),
    );
    held.abort();
    let (told, longest, seen) = told?;
    report.rule(told, || {
        format!(
            "too large: the viewer on replica B was never told `stale` {}; it was told {seen}; what the replicas warned of: A {}, B {}",
            live::TOO_LARGE_CODE,
            warnings(a),
            warnings(b)
        )
    });
    report.rule(longest <= MAX_KEPT_EVENT_BYTES, || {
        format!("too large: replica B sent a line of {longest} bytes, over the {MAX_KEPT_EVENT_BYTES} replicas share")
    });
    report.figure(format!(
        "too large: changes of a huge book over the {} MiB cap; replica B's viewer told {}: {told}, its longest line {} KiB",
        MAX_KEPT_EVENT_BYTES >> 20,
        live::TOO_LARGE_CODE,
        longest >> 10
    ));
    judge_good(report, "too large", watched);
    Ok(())
}

/// A replica's warnings (Redis marked down, a poll that failed): the
/// first few, so that a failure of this scenario on a busy machine says
/// what the replicas saw.
fn warnings(proxy: &Proxy) -> String {
    const SHOWN: usize = 4;
    let Ok(log) = proxy.process.log.lock() else {
        return "(log unreadable)".into();
    };
    let lines: Vec<&str> = log
        .iter()
        .filter(|l| l.contains(" WARN ") || l.contains(" ERROR "))
        .map(String::as_str)
        .collect();
    if lines.is_empty() {
        return "nothing".into();
    }
    format!(
        "{} line(s): {}",
        lines.len(),
        lines[..lines.len().min(SHOWN)].join(" | ")
    )
}

/// Reads a stream until a `stale` with the too-large code (or twice the
/// ceiling: a debug build on a busy machine takes seconds to poll, diff
/// and write a huge book, and its first polls may fail or wait for the
/// budget): whether it came, and the longest line read.
async fn told_too_large(mut response: reqwest::Response) -> Result<(bool, usize, String), String> {
    if response.status() != 200 {
        return Err(format!(
            "too large: the observer's open got {}",
            response.status()
        ));
    }
    let deadline = Instant::now() + 2 * CEILING;
    let mut line: Vec<u8> = Vec::new();
    let mut longest = 0;
    let mut recent = String::new();
    let mut seen = Seen::default();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(Ok(Some(chunk))) = tokio::time::timeout(left, response.chunk()).await else {
            return Ok((false, longest, seen.told()));
        };
        for byte in chunk.iter() {
            if *byte == b'\n' {
                longest = longest.max(line.len());
                let text = String::from_utf8_lossy(&line);
                if text.starts_with("event: ") {
                    recent = text.into_owned();
                } else if recent == format!("event: {}", Kind::Stale.name())
                    && text.contains(live::TOO_LARGE_CODE)
                {
                    return Ok((true, longest, seen.told()));
                } else if let Some(data) = text.strip_prefix("data: ") {
                    seen.event(&recent, data);
                }
                line.clear();
            } else {
                line.push(*byte);
            }
        }
    }
}

/// The events a viewer was told before the one awaited, for a failure's
/// message: each kind in order, a `stale`'s reason and code with it, runs
/// of one counted.
#[derive(Default)]
struct Seen(Vec<(String, u32)>);

impl Seen {
    fn event(&mut self, event_line: &str, data: &str) {
        let kind = event_line.strip_prefix("event: ").unwrap_or("?");
        let mut name = kind.to_owned();
        if kind == Kind::Stale.name() {
            let body: serde_json::Value = serde_json::from_str(data).unwrap_or_default();
            let field = |f: &str| {
                body.get(f)
                    .and_then(|v| v.as_str())
                    .unwrap_or("-")
                    .to_owned()
            };
            name = format!("{kind} ({}, {})", field("reason"), field("code"));
        }
        match self.0.last_mut() {
            Some((last, count)) if *last == name => *count += 1,
            _ => self.0.push((name, 1)),
        }
    }

    fn told(&self) -> String {
        if self.0.is_empty() {
            return "nothing".into();
        }
        self.0
            .iter()
            .map(|(name, count)| match count {
                1 => name.clone(),
                n => format!("{name} ×{n}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}
