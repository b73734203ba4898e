//! The live vectors (`tests/fixtures/live/stream.json`, read by
//! predmarket-core's tests and the npm package's node tests too), run
//! through the client's own reading of a connection (`live_read`, what
//! the browser's fetch loop in `live` hands its bytes to): what the
//! owner is told (retries, the events not seen before), when a quiet
//! stream is silent and what it then tells, the `Last-Event-ID` each
//! reopening sends, and each resource's state as the demo keeps it (the
//! core's `Watching`).

use predmarket_client::live_read::{Connection, Told};
use predmarket_core::live::{Kind, StaleReason};
use predmarket_core::sse::{Positions, Watching};
use serde_json::Value;
use std::collections::BTreeMap;

fn vectors() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/live/stream.json");
    let text = std::fs::read_to_string(&path).expect("the live vectors");
    serde_json::from_str(&text).expect("JSON")
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect()
}

/// A state as the vectors write it.
fn written(state: &Watching) -> String {
    match state {
        Watching::Waiting => "waiting".into(),
        Watching::Live => "live".into(),
        Watching::Stale(reason) => format!("stale:{reason}"),
        Watching::Ended(code) => format!("ended:{code}"),
    }
}

#[test]
fn every_case_reads_through_the_client_as_the_vectors_say() {
    let all = vectors();
    let cases = all["cases"].as_array().expect("cases");
    assert!(cases.len() >= 6);
    for case in cases {
        let name = case["name"].as_str().expect("a name");
        let mut positions = Positions::default();
        let mut states: BTreeMap<String, Watching> = BTreeMap::new();
        for (n, conn) in case["connections"]
            .as_array()
            .expect("connections")
            .iter()
            .enumerate()
        {
            let at = format!("{name}, connection {n}");
            let resources = strings(&conn["resources"]);
            assert_eq!(
                positions.last_event_id(&resources).as_deref(),
                conn["last_event_id"].as_str(),
                "{at}: Last-Event-ID"
            );
            let chunks = conn["chunks"].as_array().expect("chunks");
            let opened = chunks
                .first()
                .map_or(0.0, |c| c["at_ms"].as_f64().expect("ms"));
            let mut stream = Connection::new(resources.clone(), opened);
            let (mut retries, mut events) = (Vec::new(), Vec::new());
            for chunk in chunks {
                let now = chunk["at_ms"].as_f64().expect("ms");
                let text = chunk["text"].as_str().expect("text");
                for told in stream.chunk(text, now, &mut positions).expect("fits") {
                    match told {
                        Told::Retry(ms) => retries.push(Value::from(ms)),
                        Told::Event(kind, body) => {
                            events.push(serde_json::json!([kind.name(), body.resource, body.seq]));
                            let state = states
                                .entry(body.resource.clone())
                                .or_insert(Watching::Waiting);
                            *state = state.after(kind, &body);
                        }
                    }
                }
            }
            assert_eq!(Value::from(retries), conn["retry_ms"], "{at}: retry");
            // The owner is told the new events only.
            let fresh: Vec<Value> = conn["events"]
                .as_array()
                .expect("events")
                .iter()
                .filter(|e| e[3] == "new")
                .map(|e| Value::from(e.as_array().expect("an event")[..3].to_vec()))
                .collect();
            assert_eq!(events, fresh, "{at}: events");
            for check in conn["silent"].as_array().expect("silent") {
                let now = check["at_ms"].as_f64().expect("ms");
                assert_eq!(
                    stream.is_silent(now),
                    check["silent"].as_bool().expect("bool"),
                    "{at}: silent at {now}"
                );
            }
            match conn["ends"].as_str() {
                Some("dropped") => {
                    for resource in &resources {
                        let state = states.entry(resource.clone()).or_insert(Watching::Waiting);
                        *state = state.told(StaleReason::Disconnected);
                    }
                }
                Some("silent") => {
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
                        let state = states
                            .entry(body.resource.clone())
                            .or_insert(Watching::Waiting);
                        *state = state.after(Kind::Stale, body);
                    }
                    for resource in &resources {
                        let state = states.entry(resource.clone()).or_insert(Watching::Waiting);
                        *state = state.told(StaleReason::Silent);
                    }
                }
                _ => {}
            }
            let got: BTreeMap<String, String> = resources
                .iter()
                .map(|r| {
                    let state = states.get(r).cloned().unwrap_or(Watching::Waiting);
                    (r.clone(), written(&state))
                })
                .collect();
            let want: BTreeMap<String, String> =
                serde_json::from_value(conn["states"].clone()).expect("states");
            assert_eq!(got, want, "{at}: states");
        }
    }
}
