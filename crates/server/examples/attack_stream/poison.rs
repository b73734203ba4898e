//! Scenario 7 of `main.rs`: a refusal must not outlive the resource's
//! appearance, for the viewer who was told it or for anyone after.

use crate::*;
use std::sync::atomic::Ordering;

/// The book nobody may poison (it moves like every `good*` book once it
/// exists).
const TOMORROW: &str = "good-tomorrow";
/// How long after the book appears the second viewer opens it: the delay
/// after which, in the finding, a new viewer was still told `NOT_FOUND`.
const AFTER_APPEARING: Duration = Duration::from_secs(6);

/// The names of the events a stream has delivered so far, read in the
/// background until the stream ends or the task is dropped.
fn event_names(
    mut response: reqwest::Response,
) -> (Arc<Mutex<Vec<String>>>, tokio::task::JoinHandle<()>) {
    let names = Arc::new(Mutex::new(Vec::new()));
    let seen = names.clone();
    let task = tokio::spawn(async move {
        let mut buffer = String::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                if let Some(name) = block.lines().find_map(|l| l.strip_prefix("event: "))
                    && let Ok(mut seen) = seen.lock()
                {
                    seen.push(name.to_owned());
                }
            }
        }
    });
    (names, task)
}

/// Waits (up to `CEILING`) until `names` holds `name` after index `from`;
/// the index where it was found.
async fn wait_for(names: &Mutex<Vec<String>>, name: &str, from: usize) -> Option<usize> {
    let deadline = Instant::now() + CEILING;
    while Instant::now() < deadline {
        let found = names.lock().ok().and_then(|n| {
            n.iter()
                .skip(from)
                .position(|e| e == name)
                .map(|i| i + from)
        });
        if found.is_some() {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

pub(crate) async fn poisoning(
    report: &Report,
    proxy: &Proxy,
    upstream: &Upstream,
) -> Result<(), String> {
    let attacker = from("127.0.0.8")?;
    let response = open(
        &attacker,
        proxy.addr,
        &[format!("orderbook:{TOMORROW}")],
        &[],
    )
    .await?;
    let status = response.status().as_u16();
    report.rule(status == 200, || {
        format!("poisoning: the attacker's open got {status}")
    });
    let (names, task) = event_names(response);
    let Some(refused_at) = wait_for(&names, Kind::Error.name(), 0).await else {
        report.rule(false, || {
            "poisoning: the attacker was never told the refusal".into()
        });
        task.abort();
        return Ok(());
    };
    upstream.tomorrow_exists.store(true, Ordering::SeqCst);
    tokio::time::sleep(AFTER_APPEARING).await;
    judge_good(report, "poisoning", good_viewer(proxy.addr, TOMORROW).await);
    let told = wait_for(&names, Kind::Snapshot.name(), refused_at + 1).await;
    report.rule(told.is_some(), || {
        "poisoning: the attacker's stream was never told the book appeared".into()
    });
    task.abort();
    report.figure(format!(
        "poisoning: the attacker was told the refusal, then {}",
        if told.is_some() {
            "a snapshot when the book appeared"
        } else {
            "nothing"
        }
    ));
    Ok(())
}
