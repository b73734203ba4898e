//! Record → replay → the same answers: the local server as the upstream
//! of a recording proxy, with a scripted outage; the archive replayed
//! answers, at each recorded instant, exactly what was recorded then (a
//! book and a market), the last answer with its gap inside the outage,
//! and its `/stream` tells the outage as `stale`, then `live`; what it
//! cannot answer names what the archive lacks, and `/history` stops at
//! the replay clock.

mod common;
#[path = "common/recording.rs"]
mod recording;

use axum::body::Body;
use common::{KEY, TestServer};
use predmarket_core::change::WatchKind;
use predmarket_core::request::Operation;
use predmarket_server::config::Config;
use predmarket_server::record::archive::{self, Filter, Recorded};
use predmarket_server::record::continuity::Continuity;
use predmarket_server::record::replay::{Clock, Replayed, Timeline};
use predmarket_server::record::replay_mode::{self, GAP_HEADER};
use predmarket_server::record::unrecorded;
use recording::*;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tower::ServiceExt;

/// A gap row of `kind` with at least two rows before and after it.
fn settled(rows: &[Recorded], kind: WatchKind) -> bool {
    let mine: Vec<&Recorded> = rows.iter().filter(|r| r.kind == kind).collect();
    mine.iter()
        .position(|r| matches!(r.row.continuity, Continuity::Gap(_)))
        .is_some_and(|at| at >= 2 && mine.len() >= at + 3)
}

fn replay_config() -> Config {
    let mut config = common::unlimited();
    config.stream.interval_scale = 0.01;
    config.stream.heartbeat_secs = 0.2;
    config
}

/// `kind` `id`'s answer from the replay frozen at `at_ms`: its status,
/// its gap header, its JSON.
async fn replayed_at(
    timeline: &Arc<Timeline>,
    dir: &std::path::Path,
    kind: WatchKind,
    id: &str,
    at_ms: i64,
) -> (u16, Option<String>, Value) {
    let path = kind.request(id).expect("a request").path_and_query();
    get_at(timeline, dir, at_ms, &path).await
}

/// `path` from the replay frozen at `at_ms`, with the key: its status,
/// its gap header, its JSON.
async fn get_at(
    timeline: &Arc<Timeline>,
    dir: &std::path::Path,
    at_ms: i64,
    path: &str,
) -> (u16, Option<String>, Value) {
    let replayed = Arc::new(Replayed {
        timeline: timeline.clone(),
        clock: Clock::new(at_ms, 0.0),
    });
    let router = replay_mode::router(&replay_config(), replayed, dir);
    let request = axum::http::Request::get(path)
        .header("X-API-Key", KEY)
        .body(Body::empty())
        .expect("request");
    let response = router.oneshot(request).await.expect("answers");
    let status = response.status().as_u16();
    let gap = response
        .headers()
        .get(GAP_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("body");
    (status, gap, serde_json::from_slice(&bytes).expect("JSON"))
}

#[tokio::test]
async fn a_recording_replays_the_same_answers_and_its_outage_as_stale() {
    let dir = archive_dir("replay");
    let config = fast(Config::for_tests(&format!("{KEY}:unlimited")), &dir);
    let (base, down, tasks, proxy) = proxied(&config).await;
    let id = book_market(&TestServer::with(common::unlimited()).await).await;
    let mut book = Reader::open(&base, &format!("orderbook:{id}")).await;
    let mut market = Reader::open(&base, &format!("market:{id}")).await;
    assert_eq!(book.next().await.name, "snapshot");
    assert_eq!(market.next().await.name, "snapshot");
    rows_until(&dir, |rows| rows.len() >= 6).await;
    down.store(true, Ordering::SeqCst);
    book.until("stale").await;
    market.until("stale").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    down.store(false, Ordering::SeqCst);
    rows_until(&dir, |rows| {
        settled(rows, WatchKind::Orderbook) && settled(rows, WatchKind::Market)
    })
    .await;
    let recorder = proxy.recorder.clone().expect("recording");
    drop((book, market));
    tasks.iter().for_each(|t| t.abort());
    assert!(recorder.flush(Duration::from_secs(60)));
    let rows = archive::read(&dir, &Filter::default(), usize::MAX).expect("reads");
    let timeline = Arc::new(Timeline::load(&dir).expect("loads"));

    // At each recorded instant, each resource's answer is the one
    // recorded then.
    for row in &rows {
        let (status, gap, body) =
            replayed_at(&timeline, &dir, row.kind, &row.row.id, row.row.received_ms).await;
        assert_eq!((status, gap), (200, None), "{:?}", row.row);
        assert_eq!(
            body,
            answer(row),
            "{} at {}",
            row.kind.name(),
            row.row.received_ms
        );
    }
    // What the archive cannot hold, each operation says, by name.
    let last_ms = rows.iter().map(|r| r.row.received_ms).max().expect("rows");
    for &op in Operation::ALL {
        let Some(missing) = unrecorded::missing(op) else {
            continue;
        };
        let path = op
            .path()
            .split('/')
            .map(|s| if s.starts_with('{') { "x" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        let (status, _, body) = get_at(&timeline, &dir, last_ms, &path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["error"]["code"], "NOT_FOUND", "{path}: {body}");
        assert_eq!(body["error"]["details"]["operation"], op.name(), "{body}");
        assert_eq!(body["error"]["details"]["missing"], missing, "{body}");
    }
    // The document names `/history`; a history read at the replay clock
    // holds the rows recorded by then, and none after.
    let (status, _, document) = get_at(&timeline, &dir, last_ms, "/openapi.json").await;
    assert_eq!(status, 200);
    assert!(document.get("x-history").is_some());
    let books: Vec<&Recorded> = rows
        .iter()
        .filter(|r| r.kind == WatchKind::Orderbook)
        .collect();
    let midway = books[books.len() / 2].row.received_ms;
    let history = format!("/history?resource=orderbook:{id}&limit=1000");
    let (status, _, page) = get_at(&timeline, &dir, midway, &history).await;
    assert_eq!(status, 200, "{page}");
    let seen: Vec<i64> = page["data"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["received_ms"].as_i64().unwrap_or(-1))
        .collect();
    let expected: Vec<i64> = books
        .iter()
        .map(|r| r.row.received_ms)
        .filter(|&ms| ms <= midway)
        .collect();
    assert_eq!(seen, expected);

    // Inside the outage: the last answer before it, with the gap's length.
    for kind in [WatchKind::Orderbook, WatchKind::Market] {
        let mine: Vec<&Recorded> = rows.iter().filter(|r| r.kind == kind).collect();
        let at = mine
            .iter()
            .position(|r| matches!(r.row.continuity, Continuity::Gap(_)))
            .expect("a gap row");
        let (before, gap_row) = (mine[at - 1], mine[at]);
        let Continuity::Gap(gap_ms) = gap_row.row.continuity else {
            unreachable!()
        };
        let inside = before.row.received_ms + before.row.wanted_ms.expect("wanted") + 1;
        assert!(inside < gap_row.row.received_ms);
        let (status, gap, body) = replayed_at(&timeline, &dir, kind, &id, inside).await;
        assert_eq!(
            (status, gap),
            (200, Some(gap_ms.to_string())),
            "{}",
            kind.name()
        );
        assert_eq!(body, answer(before));
        // Before the archive's first answer there is nothing to replay.
        let (status, _, _) =
            replayed_at(&timeline, &dir, kind, &id, mine[0].row.received_ms - 1).await;
        assert_eq!(status, 404);
    }

    // `/stream` over the replay, from just before the book's outage: the
    // answer recorded then, `stale` when its polls failed, `live` after.
    let mine: Vec<&Recorded> = rows
        .iter()
        .filter(|r| r.kind == WatchKind::Orderbook)
        .collect();
    let at = mine
        .iter()
        .position(|r| matches!(r.row.continuity, Continuity::Gap(_)))
        .expect("a gap row");
    let start = mine[at - 1].row.received_ms;
    let replayed = Arc::new(Replayed {
        timeline: timeline.clone(),
        clock: Clock::new(start, 1.0),
    });
    let router = replay_mode::router(&replay_config(), replayed, &dir);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    let mut stream = Reader::open(&format!("http://{addr}"), &format!("orderbook:{id}")).await;
    let snapshot = stream.next().await;
    assert_eq!(snapshot.name, "snapshot");
    assert_eq!(snapshot.data["data"], answer(mine[at - 1]));
    let stale = stream.until("stale").await;
    assert_eq!(stale.last().expect("stale").data["reason"], "poll_failed");
    let live = stream.until("live").await;
    assert!(live.iter().all(|e| e.name != "error"), "{live:?}");
    server.abort();
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
}
