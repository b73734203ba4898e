//! The live vectors (`tests/fixtures/live/stream.json`, read by the npm
//! package's node tests too): the contract's names and numbers are the
//! core's, and a reader made of the core's parts (`sse::Reader`,
//! `Positions`, `Watching`) reads each case's bytes into its events, its
//! resumes, its silences and each resource's state.

use predmarket_core::live::{self, Kind, StaleReason};
use predmarket_core::sse::{Positions, Read, Reader, Seen, Watching};
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

fn number(value: &Value) -> u64 {
    value.as_u64().expect("a number")
}

#[test]
fn the_contract_is_the_cores() {
    let all = vectors();
    let c = &all["contract"];
    let kinds: Vec<String> = Kind::ALL.iter().map(|k| k.name().to_owned()).collect();
    assert_eq!(strings(&c["kinds"]), kinds);
    let reasons: Vec<String> = StaleReason::ALL
        .iter()
        .map(|r| r.name().to_owned())
        .collect();
    assert_eq!(strings(&c["stale_reasons"]), reasons);
    let server: Vec<String> = StaleReason::ALL
        .iter()
        .filter(|r| r.from_server())
        .map(|r| r.name().to_owned())
        .collect();
    assert_eq!(strings(&c["server_stale_reasons"]), server);
    assert_eq!(c["failover_code"], live::FAILOVER_CODE);
    assert_eq!(c["too_large_code"], live::TOO_LARGE_CODE);
    assert_eq!(number(&c["max_resources"]), live::MAX_RESOURCES as u64);
    assert_eq!(number(&c["heartbeat_ms"]), live::HEARTBEAT_MS);
    assert_eq!(number(&c["retry_ms"]), live::RETRY_MS);
    assert_eq!(number(&c["min_retry_ms"]), live::MIN_RETRY_MS);
    assert_eq!(number(&c["max_backoff_ms"]), live::MAX_BACKOFF_MS);
    assert_eq!(number(&c["open_timeout_ms"]), live::OPEN_TIMEOUT_MS);
    assert_eq!(number(&c["min_patience_ms"]) as f64, live::MIN_PATIENCE_MS);
    assert_eq!(c["preamble"], live::preamble());
    assert_eq!(c["heartbeat"], live::HEARTBEAT);
    for row in c["stale_after_ms"].as_array().expect("rows") {
        let [interval, heartbeat, after] = [0, 1, 2].map(|i| number(&row[i]));
        assert_eq!(
            live::stale_after_ms(interval as f64, heartbeat as f64),
            after,
            "{row}"
        );
    }
}

/// A state as the vectors write it: `waiting`, `live`, `stale:REASON`,
/// `ended:CODE`.
fn written(state: &Watching) -> String {
    match state {
        Watching::Waiting => "waiting".into(),
        Watching::Live => "live".into(),
        Watching::Stale(reason) => format!("stale:{reason}"),
        Watching::Ended(code) => format!("ended:{code}"),
    }
}

#[test]
fn every_case_reads_as_the_vectors_say() {
    let all = vectors();
    let cases = all["cases"].as_array().expect("cases");
    assert!(cases.len() >= 5);
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
            let mut reader = Reader::new(resources.clone(), opened);
            let (mut retries, mut events) = (Vec::new(), Vec::new());
            for chunk in chunks {
                let now = chunk["at_ms"].as_f64().expect("ms");
                let text = chunk["text"].as_str().expect("text");
                for read in reader.feed(text, now, &mut positions).expect("fits") {
                    match read {
                        Read::Retry(ms) => retries.push(ms),
                        Read::Event { kind, body, seen } => {
                            events.push(serde_json::json!([
                                kind.name(),
                                body.resource,
                                body.seq,
                                if seen == Seen::New { "new" } else { "again" }
                            ]));
                            if seen == Seen::New {
                                let state = states
                                    .entry(body.resource.clone())
                                    .or_insert(Watching::Waiting);
                                *state = state.after(kind, &body);
                            }
                        }
                    }
                }
            }
            let expected: Vec<u64> = conn["retry_ms"]
                .as_array()
                .expect("retry_ms")
                .iter()
                .map(number)
                .collect();
            assert_eq!(retries, expected, "{at}: retry");
            assert_eq!(&Value::from(events), &conn["events"], "{at}: events");
            for check in conn["silent"].as_array().expect("silent") {
                let now = check["at_ms"].as_f64().expect("ms");
                assert_eq!(
                    reader.is_silent(now),
                    check["silent"].as_bool().expect("bool"),
                    "{at}: silent at {now}"
                );
            }
            let told = match conn["ends"].as_str() {
                Some("dropped") => Some(StaleReason::Disconnected),
                Some("silent") => {
                    // A silent stream's positions are not trusted: the
                    // reopened one starts from snapshots.
                    for resource in &resources {
                        positions.forget(resource);
                    }
                    assert_eq!(reader.silent_events(0.0).len(), resources.len());
                    Some(StaleReason::Silent)
                }
                _ => None,
            };
            for resource in &resources {
                let state = states.entry(resource.clone()).or_insert(Watching::Waiting);
                if let Some(reason) = told {
                    *state = state.told(reason);
                }
            }
            let got: BTreeMap<String, String> = resources
                .iter()
                .map(|r| (r.clone(), written(&states[r])))
                .collect();
            let want: BTreeMap<String, String> =
                serde_json::from_value(conn["states"].clone()).expect("states");
            assert_eq!(got, want, "{at}: states");
        }
    }
}
