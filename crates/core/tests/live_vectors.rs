//! The live vectors (`tests/fixtures/live/stream.json`, read by the npm
//! package's node tests too): the contract's names and numbers are the
//! core's, and a reader made of the core's parts (`sse::Reader`,
//! `Positions`, `Watching`) reads each case's bytes into its events, its
//! resumes, its silences and each resource's state.

mod stream_vectors;

use predmarket_core::live::{self, Kind, StaleReason};
use predmarket_core::sse::{Positions, Read, Reader, Seen};
use serde_json::Value;
use stream_vectors::{Ends, States};

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
    let all = stream_vectors::load();
    let c = &all.contract;
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

#[test]
fn every_case_reads_as_the_vectors_say() {
    let all = stream_vectors::load();
    assert!(all.cases.len() >= 5);
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
            let mut reader = Reader::new(resources.clone(), conn.opened_ms());
            let (mut retries, mut events) = (Vec::new(), Vec::new());
            for chunk in &conn.chunks {
                for read in reader
                    .feed(&chunk.text, chunk.at_ms, &mut positions)
                    .expect("fits")
                {
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
                                states.after(kind, &body);
                            }
                        }
                    }
                }
            }
            assert_eq!(retries, conn.retry_ms, "{at}: retry");
            assert_eq!(events, conn.events, "{at}: events");
            conn.check_silences(&at, |now| reader.is_silent(now));
            match conn.ends {
                Ends::Dropped => states.told(resources, StaleReason::Disconnected),
                Ends::Silent => {
                    // A silent stream's positions are not trusted: the
                    // reopened one starts from snapshots.
                    for resource in resources {
                        positions.forget(resource);
                    }
                    assert_eq!(reader.silent_events(0.0).len(), resources.len());
                    states.told(resources, StaleReason::Silent);
                }
                Ends::Open => {}
            }
            assert_eq!(states.written(resources), conn.states, "{at}: states");
        }
    }
}
