//! The live vectors (`tests/fixtures/live/stream.json`) as types, read
//! once here for both readers that run them: predmarket-core's own parts
//! (`tests/live_vectors.rs`) and predmarket-client's connection
//! (`crates/client/tests/live_vectors.rs`, which includes this file by
//! path). The node tests read the same file in JS.
//!
//! What a reader must do with a case is each test's own; what the file
//! says, and how a resource's state is written and kept, is stated here.

#![allow(dead_code)] // each including test uses its own part of it

use predmarket_core::live::{Kind, StaleReason, StreamEvent};
use predmarket_core::sse::Watching;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The whole file.
#[derive(Deserialize)]
pub struct Vectors {
    /// The contract's names and numbers (checked field by field by core).
    pub contract: Value,
    pub cases: Vec<Case>,
}

/// One story: the connections a watcher opens, one after another.
#[derive(Deserialize)]
pub struct Case {
    pub name: String,
    pub connections: Vec<Connection>,
}

/// One connection: what it watches and sends, the bytes it gets, and what
/// a reader must make of them.
#[derive(Deserialize)]
pub struct Connection {
    pub resources: Vec<String>,
    /// The `Last-Event-ID` it opens with.
    pub last_event_id: Option<String>,
    pub chunks: Vec<Chunk>,
    pub retry_ms: Vec<u64>,
    /// `[kind, resource, seq, "new" | "again"]`: every event read.
    pub events: Vec<Value>,
    pub silent: Vec<SilentCheck>,
    pub ends: Ends,
    /// Each watched resource's state at the end, as [`written`] writes it.
    pub states: BTreeMap<String, String>,
}

/// Bytes as they arrive, at a time in ms.
#[derive(Deserialize)]
pub struct Chunk {
    pub at_ms: f64,
    pub text: String,
}

/// Whether the connection counts as silent at a time.
#[derive(Deserialize)]
pub struct SilentCheck {
    pub at_ms: f64,
    pub silent: bool,
}

/// How a connection ends.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Ends {
    /// It is still open when the case moves on.
    Open,
    /// The socket closed.
    Dropped,
    /// The watcher gave up on a socket that stopped writing.
    Silent,
}

impl Connection {
    /// When it opened: its first chunk's time.
    pub fn opened_ms(&self) -> f64 {
        self.chunks.first().map_or(0.0, |c| c.at_ms)
    }

    /// Asserts that `is_silent` answers each of the connection's checks
    /// as the vectors say (`at` names the case and connection).
    pub fn check_silences(&self, at: &str, is_silent: impl Fn(f64) -> bool) {
        for check in &self.silent {
            assert_eq!(
                is_silent(check.at_ms),
                check.silent,
                "{at}: silent at {}",
                check.at_ms
            );
        }
    }

    /// The events the owner is told: the new ones, as `[kind, resource, seq]`.
    pub fn new_events(&self) -> Vec<Value> {
        self.events
            .iter()
            .filter(|e| e[3] == "new")
            .filter_map(|e| e.as_array().map(|e| Value::from(e[..3].to_vec())))
            .collect()
    }
}

/// Reads the file (a test may panic: the file is the repository's).
pub fn load() -> Vectors {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/live/stream.json");
    let text = std::fs::read_to_string(&path).expect("the live vectors");
    serde_json::from_str(&text).expect("the live vectors' shape")
}

/// Each resource's state as the demo keeps it, across a case's
/// connections.
#[derive(Default)]
pub struct States(BTreeMap<String, Watching>);

impl States {
    fn entry(&mut self, resource: &str) -> &mut Watching {
        self.0
            .entry(resource.to_owned())
            .or_insert(Watching::Waiting)
    }

    /// After an event of `kind` for its resource.
    pub fn after(&mut self, kind: Kind, body: &StreamEvent) {
        let state = self.entry(&body.resource);
        *state = state.after(kind, body);
    }

    /// After the watcher itself tells every one of `resources` it is stale.
    pub fn told(&mut self, resources: &[String], reason: StaleReason) {
        for resource in resources {
            let state = self.entry(resource);
            *state = state.told(reason);
        }
    }

    /// The states of `resources`, as the vectors write them.
    pub fn written(&self, resources: &[String]) -> BTreeMap<String, String> {
        resources
            .iter()
            .map(|r| {
                let state = self.0.get(r).unwrap_or(&Watching::Waiting);
                (r.clone(), written(state))
            })
            .collect()
    }
}

/// A state as the vectors write it: `waiting`, `live`, `stale:REASON`,
/// `ended:CODE`.
pub fn written(state: &Watching) -> String {
    match state {
        Watching::Waiting => "waiting".into(),
        Watching::Live => "live".into(),
        Watching::Stale(reason) => format!("stale:{reason}"),
        Watching::Ended(code) => format!("ended:{code}"),
    }
}
