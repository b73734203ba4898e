//! The good viewer, who measures its own service beside each attack.

use crate::*;

/// What the good viewer got: ms to its snapshot, and its changes.
pub(crate) struct Watched {
    pub(crate) snapshot_ms: u128,
    pub(crate) changes: usize,
}

/// The good viewer: a stream of one book of its own, read until its
/// snapshot and `CHANGES` changes (or the ceiling).
pub(crate) async fn good_viewer(proxy: SocketAddr, book: &str) -> Result<Watched, String> {
    good_viewer_with(proxy, book, &[], None).await
}

/// The good viewer of `book` whose stream also carries `also` (resources
/// an attack aims at), its whole text copied to `transcript` as it reads:
/// only `book`'s snapshot and changes are counted.
pub(crate) async fn good_viewer_with(
    proxy: SocketAddr,
    book: &str,
    also: &[String],
    transcript: Option<&Mutex<String>>,
) -> Result<Watched, String> {
    let client = from(GOOD)?;
    let started = Instant::now();
    let own = format!("orderbook:{book}");
    let mut resources = vec![own.clone()];
    resources.extend_from_slice(also);
    let mine = format!("\"resource\":{}", Value::from(own.as_str()));
    let mut response = open(&client, proxy, &resources, &[]).await?;
    if response.status() != 200 {
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        return Err(format!("the good viewer's open: {status} {text:.200}"));
    }
    let mut buffer = String::new();
    let mut snapshot_ms = None;
    let mut changes = 0;
    let deadline = started + CEILING;
    while changes < CHANGES {
        let left = deadline.saturating_duration_since(Instant::now());
        let chunk = match tokio::time::timeout(left, response.chunk()).await {
            Ok(Ok(Some(chunk))) => chunk,
            Ok(_) => break,
            Err(_) => break,
        };
        let text = String::from_utf8_lossy(&chunk);
        if let Some(transcript) = transcript
            && let Ok(mut t) = transcript.lock()
        {
            t.push_str(&text);
        }
        buffer.push_str(&text);
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            if !block.contains(&mine) {
                continue;
            }
            let name = block
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("");
            match Kind::from_name(name) {
                Some(Kind::Snapshot) => snapshot_ms = Some(started.elapsed().as_millis()),
                Some(Kind::Change) => changes += 1,
                Some(Kind::Error) => {
                    return Err(format!("the good viewer got an error event: {block:.300}"));
                }
                _ => {}
            }
        }
    }
    let snapshot_ms = snapshot_ms.ok_or("the good viewer got no snapshot")?;
    Ok(Watched {
        snapshot_ms,
        changes,
    })
}

/// The good viewer beside scenario `name`: its rules and its figure.
pub(crate) fn judge_good(report: &Report, name: &str, watched: Result<Watched, String>) {
    match watched {
        Ok(w) => {
            report.rule(w.changes >= CHANGES, || {
                format!(
                    "{name}: the good viewer saw {} of {CHANGES} changes",
                    w.changes
                )
            });
            report.figure(format!(
                "{name}: good viewer's snapshot after {} ms, {} changes",
                w.snapshot_ms, w.changes
            ));
        }
        Err(e) => report.rule(false, || format!("{name}: {e}")),
    }
}
