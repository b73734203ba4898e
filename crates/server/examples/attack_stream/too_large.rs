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
    let (told, longest) = told?;
    report.rule(told, || {
        format!(
            "too large: the viewer on replica B was never told `stale` {}",
            live::TOO_LARGE_CODE
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

/// Reads a stream until a `stale` with the too-large code (or twice the
/// ceiling: a debug build on a busy machine takes seconds to poll, diff
/// and write a huge book, and its first polls may fail or wait for the
/// budget): whether it came, and the longest line read.
async fn told_too_large(mut response: reqwest::Response) -> Result<(bool, usize), String> {
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
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(Ok(Some(chunk))) = tokio::time::timeout(left, response.chunk()).await else {
            return Ok((false, longest));
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
                    return Ok((true, longest));
                }
                line.clear();
            } else {
                line.push(*byte);
            }
        }
    }
}
