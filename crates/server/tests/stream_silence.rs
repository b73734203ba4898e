//! No silent freeze, over real loopback sockets: the server announces
//! each resource's deadline (`stale_after_ms`, the core's rule of its real
//! interval and heartbeat), a healthy stream read by the core's reader
//! (`sse::Reader`, which predmarket-client's `LiveStream` and the npm
//! package's watch.js run) never goes silent, and a server that keeps the
//! socket open and stops writing is found silent at the deadline it
//! announced, not before.

mod common;

use common::TestServer;
use predmarket_core::live::{self, Kind};
use predmarket_core::sse::{Positions, Read, Reader, Seen};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How long a test waits for what should come, at most.
const CEILING: Duration = Duration::from_secs(60);

/// Milliseconds since `start`, the reader's clock.
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// Reads `response` into `reader` until `until(reads so far)` holds or the
/// stream is silent; returns the events read and whether it went silent.
async fn read_until(
    response: &mut reqwest::Response,
    reader: &mut Reader,
    start: Instant,
    until: impl Fn(&[(Kind, live::StreamEvent)]) -> bool,
) -> (Vec<(Kind, live::StreamEvent)>, bool) {
    let mut positions = Positions::default();
    let mut events = Vec::new();
    let ceiling = Instant::now() + CEILING;
    while !until(&events) && Instant::now() < ceiling {
        let wait = (reader.deadline_ms() - ms(start)).max(0.0);
        match tokio::time::timeout(Duration::from_secs_f64(wait / 1000.0), response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                let text = String::from_utf8_lossy(&chunk).into_owned();
                for read in reader
                    .feed(&text, ms(start), &mut positions)
                    .expect("events within the cap")
                {
                    if let Read::Event {
                        kind,
                        body,
                        seen: Seen::New,
                    } = read
                    {
                        events.push((kind, *body));
                    }
                }
            }
            Ok(other) => panic!("the stream ended: {other:?}"),
            Err(_) if reader.is_silent(ms(start)) => return (events, true),
            Err(_) => {}
        }
    }
    (events, false)
}

#[tokio::test]
async fn a_healthy_stream_announces_its_deadline_and_is_never_silent() {
    let mut config = common::unlimited();
    // Books polled every 50 ms; quiet streams beat every 300 ms.
    config.stream.interval_scale = 0.01;
    config.stream.heartbeat_secs = 0.3;
    let server = TestServer::with(config).await;
    let body = server
        .ok("/markets?status=open&limit=5&platform=platform_a")
        .await;
    let id = body["markets"][0]["id"]
        .as_str()
        .expect("an open market")
        .to_owned();
    // A market changes rarely: its stream is mostly heartbeats.
    let resource = format!("market:{id}");
    let start = Instant::now();
    let mut response = reqwest::Client::new()
        .get(server.url(&format!("/stream?watch={resource}")))
        .header("x-api-key", common::KEY)
        .send()
        .await
        .expect("the stream answers");
    assert_eq!(response.status(), 200);
    let mut reader = Reader::new(vec![resource.clone()], ms(start));
    let (events, silent) = read_until(&mut response, &mut reader, start, |events| {
        events.iter().any(|(k, _)| *k == Kind::Snapshot)
    })
    .await;
    assert!(!silent);
    let snapshot = &events
        .iter()
        .find(|(k, _)| *k == Kind::Snapshot)
        .expect("a snapshot")
        .1;
    // The deadline of the real schedule: the heartbeat (longer than the
    // market's 100 ms interval) and its patience, or, when the budget
    // stretched the interval (through a proxy), that interval's.
    let announced = snapshot.stale_after_ms.expect("a deadline");
    assert!(
        announced >= live::stale_after_ms(100.0, 300.0),
        "{announced}"
    );
    // Three deadlines' worth of a healthy, quiet stream: never silent.
    let quiet_until = ms(start) + 3.0 * 2_300.0;
    let (_, silent) = read_until(&mut response, &mut reader, start, |_| {
        ms(start) >= quiet_until
    })
    .await;
    assert!(!silent, "a healthy stream went silent");
}

/// A server that keeps the socket open after the preamble and one
/// snapshot (announcing `deadline_ms`), and writes nothing more.
async fn silent_server(deadline_ms: u64) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let addr = listener.local_addr().expect("address");
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            let mut body = live::StreamEvent::new("market:m", 1);
            body.stale_after_ms = Some(deadline_ms);
            body.data = Some(serde_json::json!({ "data": { "id": "m" } }));
            let event = format!(
                "{}event: snapshot\nid: 1a:1\ndata: {}\n\n",
                live::preamble(),
                serde_json::to_string(&body).expect("json")
            );
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
            let chunk = format!("{head}{:x}\r\n{event}\r\n", event.len());
            let _ = socket.write_all(chunk.as_bytes()).await;
            // Open, and silent from here.
            held.push(socket);
        }
    });
    (format!("http://{addr}"), task)
}

#[tokio::test]
async fn a_stream_that_goes_quiet_is_silent_at_its_announced_deadline_not_before() {
    let (base, server) = silent_server(1_200).await;
    let start = Instant::now();
    let mut response = reqwest::get(format!("{base}/stream?watch=market:m"))
        .await
        .expect("the stream answers");
    let mut reader = Reader::new(vec!["market:m".to_owned()], ms(start));
    let (events, silent) = read_until(&mut response, &mut reader, start, |_| false).await;
    let heard = events.first().expect("the snapshot");
    assert_eq!(
        (heard.0, heard.1.stale_after_ms),
        (Kind::Snapshot, Some(1_200))
    );
    assert!(silent, "the quiet stream was found silent");
    // Silent at its deadline, not a moment before, in the reader's own
    // clock (the order of events, not a duration of this run).
    let deadline = reader.deadline_ms();
    assert!(
        !reader.is_silent(deadline - 1.0),
        "not silent before its deadline"
    );
    assert!(reader.is_silent(deadline), "silent at its deadline");
    let told = reader.silent_events(ms(start));
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].stale_reason(), Some(live::StaleReason::Silent));
    server.abort();
}
