//! The live contract and reader of `GET /stream` for crates/wasm/js/watch.js: the
//! contract's numbers and names (`__liveRules`), the positions a client
//! keeps across its streams (`__LivePositions`) and one stream read from
//! its text (`__LiveReader`: events, `retry:`, the silence rule), all
//! predmarket-core's (`live`, `sse`), so watch.js restates none of them
//! and keeps only what must be JS: the fetch loop and its timers. Not
//! documented (`skip_typescript`): watch.js's business.

use crate::json;
use predmarket_core::live::{self, Kind, StaleReason};
use predmarket_core::sse::{Addressed, Positions, Read, Reader, Seen};
use wasm_bindgen::prelude::*;

/// The contract's numbers and names, read once by watch.js.
#[wasm_bindgen(js_name = __liveRules, skip_typescript)]
pub fn live_rules() -> JsValue {
    let names = |names: Vec<&'static str>| json::array(names, JsValue::from_str);
    json::Obj::new()
        .num("maxResources", live::MAX_RESOURCES as f64)
        .num("heartbeatMs", live::HEARTBEAT_MS as f64)
        .num("retryMs", live::RETRY_MS as f64)
        .num("minRetryMs", live::MIN_RETRY_MS as f64)
        .num("maxBackoffMs", live::MAX_BACKOFF_MS as f64)
        .num("openTimeoutMs", live::OPEN_TIMEOUT_MS as f64)
        .num("minPatienceMs", live::MIN_PATIENCE_MS)
        .str("failoverCode", live::FAILOVER_CODE)
        .str("path", live::PATH)
        .str("watchParam", live::WATCH_PARAM)
        .str("lastEventIdHeader", live::LAST_EVENT_ID_HEADER)
        .str("mediaType", live::MEDIA_TYPE)
        .str("pollFailed", StaleReason::PollFailed.name())
        .str("maxStaleness", StaleReason::MaxStaleness.name())
        .val("kind", &kinds())
        .val(
            "staleReasons",
            &names(StaleReason::ALL.iter().map(|r| r.name()).collect()),
        )
        .val(
            "serverStaleReasons",
            &names(
                StaleReason::ALL
                    .iter()
                    .filter(|r| r.from_server())
                    .map(|r| r.name())
                    .collect(),
            ),
        )
        .build()
}

/// The stream's event kinds, `{ Snapshot: "snapshot", … }`: keyed by
/// their Rust names (`live::Kind`'s variants, which watch.js dispatches
/// on), valued by their wire names, so only predmarket-core states those.
fn kinds() -> JsValue {
    Kind::ALL
        .iter()
        .fold(json::Obj::new(), |kinds, kind| {
            kinds.str(&format!("{kind:?}"), kind.name())
        })
        .build()
}

/// Whether a `stale` of reason `name` is the server's word (only its
/// `live` or a snapshot ends it), or a reader's own.
#[wasm_bindgen(js_name = __staleToldByServer, skip_typescript)]
pub fn stale_told_by_server(name: &str) -> bool {
    StaleReason::told_by_server(name)
}

/// `stale_after_ms` of the contract: the deadline a server announces for
/// a resource polled every `interval_ms` with a heartbeat every
/// `heartbeat_ms`.
#[wasm_bindgen(js_name = __staleAfterMs, skip_typescript)]
pub fn stale_after_ms(interval_ms: f64, heartbeat_ms: f64) -> f64 {
    live::stale_after_ms(interval_ms, heartbeat_ms) as f64
}

/// Where a client is in each resource it streams: outlives its streams.
#[wasm_bindgen(js_name = __LivePositions, skip_typescript)]
#[derive(Default)]
pub struct LivePositions(Positions);

#[wasm_bindgen(js_class = __LivePositions)]
impl LivePositions {
    #[wasm_bindgen(constructor)]
    pub fn new() -> LivePositions {
        LivePositions::default()
    }

    /// Its data came from elsewhere (a poll), or its stream went silent: a
    /// stream reopened sends it a fresh snapshot.
    pub fn forget(&mut self, resource: &str) {
        self.0.forget(resource);
    }

    /// Keeps the positions of `resources` only.
    pub fn retain(&mut self, resources: Vec<String>) {
        self.0.retain(&resources);
    }

    /// The `Last-Event-ID` of a stream of `resources`, if any position is
    /// known.
    #[wasm_bindgen(js_name = lastEventId)]
    pub fn last_event_id(&self, resources: Vec<String>) -> Option<String> {
        self.0.last_event_id(&resources)
    }
}

/// One stream of a client, read from its text as it comes.
#[wasm_bindgen(js_name = __LiveReader, skip_typescript)]
pub struct LiveReader(Reader);

#[wasm_bindgen(js_class = __LiveReader)]
impl LiveReader {
    /// A stream of `resources` (in its request's order) that answered at
    /// `now_ms`.
    #[wasm_bindgen(constructor)]
    pub fn new(resources: Vec<String>, now_ms: f64) -> LiveReader {
        LiveReader(Reader::new(resources, now_ms))
    }

    /// Reads `chunk`, which came at `now_ms`: `{ retryMs }` items and
    /// `{ kind, event }` items of the events not seen before (`event` is
    /// the contract's JSON, parsed). Throws when an event is larger than
    /// the contract allows (the stream is then reopened).
    pub fn feed(
        &mut self,
        positions: &mut LivePositions,
        chunk: &str,
        now_ms: f64,
    ) -> Result<js_sys::Array, JsValue> {
        let reads = self
            .0
            .feed_with(chunk, now_ms, &mut positions.0, ParsedBody::parse)
            .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
        let out = js_sys::Array::new();
        for read in reads {
            match read {
                Read::Retry(ms) => {
                    out.push(&json::Obj::new().num("retryMs", ms as f64).build());
                }
                Read::Event {
                    kind,
                    body,
                    seen: Seen::New,
                } => {
                    out.push(
                        &json::Obj::new()
                            .str("kind", kind.name())
                            .val("event", &body.object)
                            .build(),
                    );
                }
                Read::Event { .. } => {}
            }
        }
        Ok(out)
    }

    /// When the stream is silent unless bytes come first (`Date.now()`
    /// ms).
    #[wasm_bindgen(js_name = deadlineMs)]
    pub fn deadline_ms(&self) -> f64 {
        self.0.deadline_ms()
    }

    #[wasm_bindgen(js_name = isSilent)]
    pub fn is_silent(&self, now_ms: f64) -> bool {
        self.0.is_silent(now_ms)
    }

    /// The `stale` (`silent`) events a silent stream's resources are told.
    #[wasm_bindgen(js_name = silentEvents)]
    pub fn silent_events(&self, now_ms: f64) -> js_sys::Array {
        // Built field by field: serde_json's writer of a body (its JSON
        // tree, float formatting) would cost the wasm more than the rest
        // of the reader. The fields are the ones the core's rule sets.
        let out = js_sys::Array::new();
        for body in self.0.silent_events(now_ms) {
            out.push(
                &json::Obj::new()
                    .str("resource", &body.resource)
                    .num("seq", body.seq as f64)
                    .opt_str("reason", body.reason.as_deref())
                    .opt_str("message", body.message.as_deref())
                    .build(),
            );
        }
        out
    }
}

/// An event's body as `JSON.parse` made it, with the two fields the
/// reader needs read from the object: the JS engine parses the text (as
/// it does every answer, crates/wasm/src/json.rs), so the wasm carries no
/// JSON tree of its own (serde_json's `Value` and float parsing cost the
/// package 44 KB gzip when the reader decoded bodies in Rust).
struct ParsedBody {
    object: JsValue,
    resource: String,
    stale_after_ms: Option<u64>,
}

impl ParsedBody {
    fn parse(data: &str) -> Option<ParsedBody> {
        let object = json::parse(&js_sys::JsString::from(data)).ok()?;
        let resource = json::string(&object, live::field::RESOURCE)?;
        // `seq` is the other field every body has (a whole number).
        json::get(&object, live::field::SEQ)
            .as_f64()
            .filter(|seq| *seq >= 0.0 && seq.fract() == 0.0)?;
        let stale_after_ms = json::get(&object, live::field::STALE_AFTER_MS)
            .as_f64()
            .and_then(live::lenient_ms_of);
        Some(ParsedBody {
            object,
            resource,
            stale_after_ms,
        })
    }
}

impl Addressed for ParsedBody {
    fn resource(&self) -> &str {
        &self.resource
    }

    fn stale_after_ms(&self) -> Option<u64> {
        self.stale_after_ms
    }
}

/// The wait before the `failures`-th reopening of a stream in a row: the
/// core's backoff (`jitter` in 0..1, never before `retry_after_ms`).
#[wasm_bindgen(js_name = __streamBackoffMs, skip_typescript)]
pub fn stream_backoff_ms(
    retry_ms: f64,
    failures: u32,
    jitter: f64,
    retry_after_ms: Option<f64>,
) -> f64 {
    predmarket_core::sse::backoff_ms(
        retry_ms.max(0.0) as u64,
        failures,
        jitter,
        retry_after_ms.map(|ms| ms.max(0.0) as u64),
    ) as f64
}

/// Whether an answer to the stream's request means the server has no
/// streams (poll, for good); else a 200 of an event stream is one, and
/// the rest are refusals for now.
#[wasm_bindgen(js_name = __hasNoStreams, skip_typescript)]
pub fn has_no_streams(status: u16, content_type: Option<String>) -> bool {
    predmarket_core::sse::has_no_streams(status, content_type.as_deref())
}
