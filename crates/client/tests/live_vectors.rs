//! The live vectors (`tests/fixtures/live/stream.json`, read by
//! predmarket-core's tests and the npm package's node tests too), run
//! through the client's own reading of a connection (`live_read`, what
//! the browser's fetch loop in `live` hands its bytes to): what the
//! owner is told (retries, the events not seen before), when a quiet
//! stream is silent and what it then tells, the `Last-Event-ID` each
//! reopening sends, and each resource's state as the demo keeps it (the
//! core's `Watching`).

#[path = "../../core/tests/stream_vectors/mod.rs"]
mod stream_vectors;

use predmarket_client::live_read::{Connection, Told};
use predmarket_core::live::{Kind, StaleReason};
use predmarket_core::sse::Positions;
use stream_vectors::{Ends, States};

#[test]
fn every_case_reads_through_the_client_as_the_vectors_say() {
    let all = stream_vectors::load();
    assert!(all.cases.len() >= 6);
    for case in &all.cases {
        let mut positions = Positions::default();
        let mut states = States::default();
        for (n, conn) in case.connections.iter().enumerate() {
            let at = format!("{}, connection {n}", case.name);
            let resources = &conn.resources;
            assert_eq!(
                positions.last_event_id(resources),
                conn.last_event_id,
                "{at}: Last-Event-ID"
            );
            let mut stream = Connection::new(resources.clone(), conn.opened_ms());
            let (mut retries, mut events) = (Vec::new(), Vec::new());
            for chunk in &conn.chunks {
                for told in stream
                    .chunk(&chunk.text, chunk.at_ms, &mut positions)
                    .expect("fits")
                {
                    match told {
                        Told::Retry(ms) => retries.push(ms),
                        Told::Event(kind, body) => {
                            events.push(serde_json::json!([kind.name(), body.resource, body.seq]));
                            states.after(kind, &body);
                        }
                    }
                }
            }
            assert_eq!(retries, conn.retry_ms, "{at}: retry");
            // The owner is told the new events only.
            assert_eq!(events, conn.new_events(), "{at}: events");
            conn.check_silences(&at, |now| stream.is_silent(now));
            match conn.ends {
                Ends::Dropped => states.told(resources, StaleReason::Disconnected),
                Ends::Silent => {
                    let told = stream.silence(&mut positions, 0.0);
                    let said: Vec<(String, Option<String>)> = told
                        .iter()
                        .map(|e| (e.resource.clone(), e.reason.clone()))
                        .collect();
                    let want: Vec<(String, Option<String>)> = resources
                        .iter()
                        .map(|r| (r.clone(), Some(StaleReason::Silent.name().to_owned())))
                        .collect();
                    assert_eq!(said, want, "{at}: silence");
                    for body in &told {
                        states.after(Kind::Stale, body);
                    }
                    states.told(resources, StaleReason::Silent);
                }
                Ends::Open => {}
            }
            assert_eq!(states.written(resources), conn.states, "{at}: states");
        }
    }
}
