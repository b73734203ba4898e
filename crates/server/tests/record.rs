//! `--record DIR` over real loopback HTTP: a watched book's polls become
//! rows that hold what its stream served; through the proxy, an upstream
//! outage becomes a `gap` row and no key reaches the archive; a failed
//! write pauses recording while serving goes on; the quota deletes the
//! oldest parts first; a limited read answers the first rows of a whole
//! one; `/history` pages behind the key, and behind a public proxy takes
//! its visitor's tokens. Waits poll under a generous ceiling; nothing is
//! timed.

mod common;
#[path = "common/recording.rs"]
mod recording;

use common::{KEY, TestServer};
use predmarket_core::change::WatchKind;
use predmarket_server::config::Config;
use predmarket_server::record::archive::{self, Filter, Recorded};
use predmarket_server::record::continuity::Continuity;
use predmarket_server::record::{Recorder, writer};
use recording::*;
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The Python with DuckDB and pyarrow (`crates/server/archive_query.sh`
/// sets it); without it the archive is not read as users read it.
const PYTHON: &str = "PREDMARKET_ARCHIVE_PYTHON";

/// The archive read with DuckDB and with pyarrow gives the rows the
/// server wrote, and each query of docs/record.md answers (a book at
/// `at_ms`, mid per minute, gaps per day: the archive holds a gap).
fn read_as_users_do(dir: &Path, id: &str, at_ms: i64, written: &[Recorded]) {
    let Some(python) = std::env::var_os(PYTHON) else {
        eprintln!(
            "{PYTHON} unset: the archive is not read with DuckDB and pyarrow (crates/server/archive_query.sh sets it)"
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = std::process::Command::new(python)
        .arg(root.join("tests/archive_query.py"))
        .arg(root.join("../../docs/record.md"))
        .arg(id)
        .arg(at_ms.to_string())
        .current_dir(dir.parent().expect("the archive's parent"))
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let read: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let expected: Vec<Value> = written
        .iter()
        .map(|r| {
            serde_json::json!([
                r.kind.name(),
                r.row.id,
                r.row.seq,
                r.row.continuity.name(),
                r.row.continuity.gap_ms(),
                r.row.received_ms,
                r.row.answer
            ])
        })
        .collect();
    for reader in ["duckdb", "pyarrow"] {
        assert_eq!(read[reader].as_array(), Some(&expected), "{reader}");
    }
    let queries = read["queries"].as_array().expect("queries");
    assert_eq!(queries.len(), 3, "docs/record.md shows three queries");
    for query in queries {
        assert!(
            query["rows"].as_u64().is_some_and(|n| n > 0),
            "no rows: {query}"
        );
    }
}

#[tokio::test]
async fn a_watched_book_is_recorded_as_its_stream_served_it() {
    let dir = archive_dir("served");
    let config = fast(common::unlimited(), &dir);
    let recorder = start(&config);
    let (base, task) = local(&config, &recorder).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut reader = Reader::open(&base, &format!("orderbook:{id}")).await;
    let mut served = vec![reader.next().await];
    assert_eq!(served[0].name, "snapshot");
    served.extend(reader.until("change").await);
    served.extend(reader.until("change").await);
    // Every answer the stream served whole is a recorded answer.
    let whole: Vec<Value> = served
        .iter()
        .filter(|e| e.name == "snapshot" || e.name == "change")
        .map(|e| e.data["data"].clone())
        .collect();
    let rows = rows_until(&dir, |rows| {
        let answers: Vec<Value> = rows.iter().map(answer).collect();
        whole.iter().all(|w| answers.contains(w))
    })
    .await;
    task.abort();
    assert!(rows.len() >= 3);
    assert!(
        rows.iter()
            .all(|r| r.kind == WatchKind::Orderbook && r.row.id == id)
    );
    assert_eq!(rows[0].row.continuity, Continuity::First);
    // Nothing failed: each later row continues (or, on a machine that
    // stalled past GAP_FACTOR intervals of 50 ms, is a gap in time).
    assert!(
        rows[1..]
            .iter()
            .all(|r| matches!(r.row.continuity, Continuity::Continues | Continuity::Gap(_))),
        "{rows:?}"
    );
    let seqs: Vec<i64> = rows.iter().map(|r| r.row.seq).collect();
    assert_eq!(seqs, (1..=rows.len() as i64).collect::<Vec<_>>());
    assert!(rows.iter().all(|r| r.row.wanted_ms == Some(50)));
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

/// The proxy's upstream: the local server, answering 503 while `down`.
#[tokio::test]
async fn through_the_proxy_an_outage_is_a_gap_row_and_no_key_is_written() {
    let dir = archive_dir("outage");
    let config = fast(Config::for_tests(&format!("{KEY}:unlimited")), &dir);
    let (base, down, tasks, proxy) = proxied(&config).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut reader = Reader::open(&base, &format!("orderbook:{id}")).await;
    assert_eq!(reader.next().await.name, "snapshot");
    rows_until(&dir, |rows| rows.len() >= 2).await;
    down.store(true, Ordering::SeqCst);
    reader.until("stale").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    down.store(false, Ordering::SeqCst);
    reader.until("live").await;
    let rows = rows_until(&dir, |rows| {
        rows.iter()
            .any(|r| matches!(r.row.continuity, Continuity::Gap(_)))
    })
    .await;
    let gap = rows
        .iter()
        .find(|r| matches!(r.row.continuity, Continuity::Gap(_)))
        .expect("a gap row");
    let Continuity::Gap(gap_ms) = gap.row.continuity else {
        unreachable!()
    };
    assert!(gap_ms >= 300, "the gap spans the outage: {gap_ms} ms");
    assert_eq!(
        gap.row.seq,
        rows.iter()
            .filter(|r| r.row.received_ms < gap.row.received_ms)
            .count() as i64
            + 1
    );
    // Neither the proxy's upstream key nor the visitor's reaches a row or a file.
    let recorder = proxy.recorder.clone().expect("recording");
    assert!(recorder.flush(CEILING));
    for part in predmarket_server::record::layout::parts(&dir) {
        let bytes = std::fs::read(&part.path).expect("part reads");
        for key in [UPSTREAM_KEY, KEY] {
            assert!(
                !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                "{key} in {}",
                part.path.display()
            );
        }
    }
    tasks.iter().for_each(|t| t.abort());
    let rows = archive::read(&dir, &Filter::default(), usize::MAX).expect("reads");
    for row in &rows {
        assert!(!row.row.answer.contains(UPSTREAM_KEY) && !row.row.answer.contains(KEY));
    }
    read_as_users_do(&dir, &id, gap.row.received_ms, &rows);
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

#[tokio::test]
async fn a_failed_write_pauses_recording_and_serving_goes_on() {
    let dir = archive_dir("paused");
    let config = fast(common::unlimited(), &dir);
    let recorder = start(&config);
    // A file where the partition's directory goes: every write fails, as
    // on a full disk.
    std::fs::create_dir_all(&dir).expect("dir");
    let blocker = dir.join("kind=orderbook");
    std::fs::write(&blocker, b"in the way").expect("blocker");
    let (base, task) = local(&config, &recorder).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut reader = Reader::open(&base, &format!("orderbook:{id}")).await;
    assert_eq!(reader.next().await.name, "snapshot");
    let deadline = tokio::time::Instant::now() + CEILING;
    while recorder.stats.write_errors.load(Ordering::Relaxed) == 0 {
        assert!(tokio::time::Instant::now() < deadline, "no write failed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut metrics = String::new();
    recorder.render_metrics(&mut metrics);
    assert!(
        metrics.contains("predmarket_record_write_errors_total "),
        "{metrics}"
    );
    // Serving goes on while nothing can be written.
    reader.until("change").await;
    reader.until("change").await;
    assert_eq!(recorder.stats.rows_written.load(Ordering::Relaxed), 0);
    std::fs::remove_file(&blocker).expect("blocker removed");
    let rows = rows_until(&dir, |rows| !rows.is_empty()).await;
    task.abort();
    assert!(recorder.stats.rows_lost.load(Ordering::Relaxed) > 0);
    // The rows lost are told: the first row written starts over.
    assert_eq!(
        rows[0].row.continuity,
        Continuity::Resync,
        "{:?}",
        rows[0].row
    );
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

#[tokio::test]
async fn the_quota_deletes_the_oldest_parts_first() {
    let dir = archive_dir("quota");
    let max_bytes = 40_000;
    let recorder = Recorder::start(
        writer::Settings {
            dir: dir.clone(),
            max_bytes: Some(max_bytes),
            part_bytes: usize::MAX,
            roll: Duration::from_secs(3_600),
            pause: Duration::from_secs(1),
            store: None,
        },
        1.0,
    )
    .expect("starts");
    let filler = "x".repeat(4_000);
    for i in 0..40i64 {
        // Distinct text, so compression cannot fold the parts away.
        let text: String = filler
            .chars()
            .enumerate()
            .map(|(j, _)| char::from(b'a' + ((i * 7 + j as i64 * 13) % 26) as u8))
            .collect();
        let body = serde_json::json!({"data": {"market_id": "m", "note": text}});
        recorder.answered(
            WatchKind::Market,
            "m",
            1_700_000_000_000 + i * 1_000,
            0,
            body,
        );
        assert!(recorder.flush(CEILING));
    }
    let parts = predmarket_server::record::layout::parts(&dir);
    let on_disk: u64 = parts.iter().map(|p| p.bytes).sum();
    assert!(on_disk <= max_bytes, "{on_disk} bytes on disk");
    assert!(recorder.stats.parts_deleted.load(Ordering::Relaxed) > 0);
    assert_eq!(
        recorder.stats.bytes_on_disk.load(Ordering::Relaxed),
        on_disk
    );
    // What is left is the newest, up to the last one written.
    let rows = archive::read(&dir, &Filter::default(), usize::MAX).expect("reads");
    let times: Vec<i64> = rows.iter().map(|r| r.row.received_ms).collect();
    let newest = 1_700_000_000_000 + 39 * 1_000;
    assert_eq!(times.last(), Some(&newest));
    assert_eq!(
        times,
        ((newest - (times.len() as i64 - 1) * 1_000)..=newest)
            .step_by(1_000)
            .collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

/// A read with a limit keeps only that many rows from part to part (what
/// bounds one `/history` request) and answers what a whole read cut to
/// the limit answers, for every window and resource.
#[tokio::test]
async fn a_limited_read_answers_the_first_rows_of_a_whole_read() {
    let dir = archive_dir("limited");
    let recorder = Recorder::start(
        writer::Settings {
            dir: dir.clone(),
            max_bytes: None,
            part_bytes: usize::MAX,
            roll: Duration::from_secs(3_600),
            pause: Duration::from_secs(1),
            store: None,
        },
        1.0,
    )
    .expect("starts");
    let start = 1_700_000_000_000i64;
    // Twelve parts of three rows, two resources interleaved, the rows of
    // each part queued out of time order.
    for part in 0..12i64 {
        for i in [2, 0, 1] {
            let at = start + (part * 3 + i) * 1_000;
            let id = if i % 2 == 0 { "a" } else { "b" };
            let body = serde_json::json!({"data": {"market_id": id, "n": part * 3 + i}});
            recorder.answered(WatchKind::Market, id, at, 0, body);
        }
        assert!(recorder.flush(CEILING));
    }
    let whole = archive::read(&dir, &Filter::default(), usize::MAX).expect("reads");
    assert_eq!(whole.len(), 36);
    for (id, from, limit) in [
        (None, None, 5),
        (Some("a"), None, 4),
        (Some("b"), Some(start + 10_000), 7),
        (Some("a"), Some(start + 30_000), 100),
    ] {
        let filter = Filter {
            kind: Some(WatchKind::Market),
            id,
            from_ms: from,
            to_ms: None,
        };
        let limited = archive::read(&dir, &filter, limit).expect("reads");
        let expected: Vec<(i64, String)> = whole
            .iter()
            .filter(|r| id.is_none_or(|id| r.row.id == id))
            .filter(|r| from.is_none_or(|from| r.row.received_ms >= from))
            .take(limit)
            .map(|r| (r.row.received_ms, r.row.id.clone()))
            .collect();
        let got: Vec<(i64, String)> = limited
            .iter()
            .map(|r| (r.row.received_ms, r.row.id.clone()))
            .collect();
        assert_eq!(got, expected, "{id:?} {from:?} {limit}");
    }
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

#[tokio::test]
async fn history_pages_through_the_recorded_rows_behind_the_key() {
    let dir = archive_dir("history");
    let config = fast(common::unlimited(), &dir);
    let recorder = start(&config);
    let (base, task) = local(&config, &recorder).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let resource = format!("orderbook:{id}");
    let mut reader = Reader::open(&base, &resource).await;
    assert_eq!(reader.next().await.name, "snapshot");
    let rows = rows_until(&dir, |rows| rows.len() >= 5).await;
    drop(reader);
    let client = reqwest::Client::new();
    let get = |query: String, key: Option<&'static str>| {
        let mut request = client.get(format!("{base}/history?{query}"));
        if let Some(key) = key {
            request = request.header("X-API-Key", key);
        }
        request.send()
    };
    let from = rows[0].row.received_ms;
    let to = rows[4].row.received_ms + 1;
    let window = |from: i64| {
        form_urlencoded::Serializer::new(String::new())
            .append_pair("resource", &resource)
            .append_pair("from", &from.to_string())
            .append_pair("to", &to.to_string())
            .append_pair("limit", "2")
            .finish()
    };
    // Pages of two, until no next page: the first five rows, in order.
    let mut seen = Vec::new();
    let mut next = Some(from);
    while let Some(from) = next {
        let answer: Value = get(window(from), Some(KEY))
            .await
            .expect("answers")
            .json()
            .await
            .expect("JSON");
        let data = answer["data"].as_array().expect("data").clone();
        assert!(data.len() <= 2, "{answer}");
        seen.extend(data);
        next = answer["meta"]["next_from"].as_i64();
    }
    let expected: Vec<(i64, i64, Value)> = rows[..5]
        .iter()
        .map(|r| (r.row.received_ms, r.row.seq, answer(r)))
        .collect();
    let got: Vec<(i64, i64, Value)> = seen
        .iter()
        .map(|d| {
            (
                d["received_ms"].as_i64().unwrap_or(-1),
                d["seq"].as_i64().unwrap_or(-1),
                d["answer"].clone(),
            )
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(seen[0]["continuity"], "first");
    // Without a key, or beyond the bounds, no rows.
    assert_eq!(
        get(window(from), None).await.expect("answers").status(),
        401
    );
    let too_long = format!("resource={resource}&from=0&to={to}");
    assert_eq!(
        get(too_long, Some(KEY)).await.expect("answers").status(),
        400
    );
    // The document names `/history` where it is served, and only there:
    // how the demo knows not to ask a server that would answer 404.
    let recording: Value = client
        .get(format!("{base}/openapi.json"))
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("JSON");
    assert!(recording.get("x-history").is_some());
    let plain = TestServer::start().await.ok("/openapi.json").await;
    assert!(plain.get("x-streams").is_some() && plain.get("x-history").is_none());
    task.abort();
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

/// Behind a public proxy, `/history` is a request of its visitor: one
/// token of the address's bucket each (a quarter of `--visitor-requests`
/// at once), then the visitors' JSON 429; another address is not charged.
#[tokio::test]
async fn behind_a_public_proxy_history_takes_the_visitors_tokens() {
    let dir = archive_dir("history-public");
    let mut config = fast(common::config(), &dir);
    config.api_key.clear();
    config.proxy.public_proxy = true;
    config.proxy.visitor_requests = 40;
    let burst = 40 / 4;
    let (base, _down, tasks, _proxy) = proxied(&config).await;
    let from = |address: [u8; 4]| {
        reqwest::Client::builder()
            .local_address(std::net::IpAddr::from(address))
            .build()
            .expect("client")
    };
    let url = format!("{base}/history?resource=orderbook:m1");
    let first = from([127, 0, 0, 1]);
    let mut statuses = Vec::new();
    let mut refusal = None;
    for _ in 0..3 * burst {
        let response = first.get(&url).send().await.expect("answers");
        statuses.push(response.status().as_u16());
        if response.status() == 429 && refusal.is_none() {
            let retry = response.headers().get("retry-after").cloned();
            let body: Value = response.json().await.expect("a JSON error");
            refusal = Some((retry, body));
        }
    }
    let served = statuses.iter().filter(|s| **s == 200).count();
    // The burst, and what the bucket refilled meanwhile (40 a minute).
    assert!(served >= burst && served < 2 * burst, "{statuses:?}");
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 429),
        "{statuses:?}"
    );
    let (retry, body) = refusal.expect("a 429 past the bucket");
    assert!(retry.is_some(), "Retry-After");
    assert_eq!(body["error"]["code"], "RATE_LIMITED", "{body}");
    assert_eq!(
        body["error"]["details"]["reason"], "visitor_requests",
        "{body}"
    );
    // Another address has its own bucket; and a request past the bound
    // is still the 400 it is.
    let second = from([127, 0, 0, 2]);
    let ok = second.get(&url).send().await.expect("answers");
    assert_eq!(ok.status(), 200);
    let too_long = format!("{base}/history?resource=orderbook:m1&from=0&to=1800000000");
    assert_eq!(
        second
            .get(&too_long)
            .send()
            .await
            .expect("answers")
            .status(),
        400
    );
    tasks.iter().for_each(|t| t.abort());
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}

#[tokio::test]
async fn every_part_is_copied_to_the_object_store_under_its_hive_path() {
    let dir = archive_dir("store");
    let store = dir.parent().expect("parent").join("store");
    let recorder = storing_recorder(&dir, format!("file://{}", store.display()));
    record_three_days(&recorder);
    let local = predmarket_server::record::layout::parts(&dir);
    assert_eq!(local.len(), 3);
    assert_eq!(recorder.stats.parts_stored.load(Ordering::Relaxed), 3);
    for part in &local {
        let relative = part.path.strip_prefix(&dir).expect("under the archive");
        let copy = std::fs::read(store.join(relative)).expect("copied under the same path");
        assert_eq!(
            copy,
            std::fs::read(&part.path).expect("reads"),
            "{}",
            relative.display()
        );
    }
    // The store reads back as an archive of its own.
    let rows = archive::read(&store, &Filter::default(), usize::MAX).expect("reads");
    assert_eq!(rows.len(), 3);
    // A store that cannot be opened stops the recorder from starting.
    let refused = Recorder::start(
        writer::Settings {
            dir: dir.clone(),
            max_bytes: None,
            part_bytes: usize::MAX,
            roll: Duration::from_secs(3_600),
            pause: Duration::from_secs(1),
            store: Some("nowhere://at-all".into()),
        },
        1.0,
    );
    assert!(refused.is_err());
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}
