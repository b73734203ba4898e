//! The live contract of `GET /stream`, stated once: what the server writes
//! and every reader (predmarket-client, the demo, the npm package through
//! its wasm) reads. The vocabulary ([`Kind`], [`StaleReason`],
//! [`FAILOVER_CODE`], [`TOO_LARGE_CODE`]), an event's JSON ([`Body`], and
//! the names of the fields a reader picks from it, [`field`]), the stream's `id:`
//! ([`Position`], [`render_id`], [`parse_id`]), the caps
//! ([`MAX_RESOURCES`], [`MAX_READ_EVENT_BYTES`]) and the timing ([`HEARTBEAT_MS`],
//! [`RETRY_MS`], [`patience_ms`], [`stale_after_ms`]) and the request's
//! names ([`PATH`], [`WATCH_PARAM`], [`LAST_EVENT_ID_HEADER`],
//! [`MEDIA_TYPE`]).
//!
//! How a reader turns bytes into events, positions and its own `silent`
//! is `sse`; the vectors in `tests/fixtures/live/` hold the server's
//! writing, the Rust reader and the npm package's to this module.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// Where a service serves its stream, on its base URL.
pub const PATH: &str = "/stream";
/// The query parameter naming one watched resource, `KIND:ID` (repeated:
/// `?watch=orderbook:A&watch=game:B`).
pub const WATCH_PARAM: &str = "watch";
/// The header a reconnecting reader sends its last [`render_id`] in
/// (`Last-Event-ID`; lower case, as HTTP/2 writes header names).
pub const LAST_EVENT_ID_HEADER: &str = "last-event-id";
/// The media type of a stream (its `Content-Type`, a reader's `Accept`).
pub const MEDIA_TYPE: &str = "text/event-stream";

/// Resources one stream may carry (the reference server's
/// `--stream-max-resources` by default); a reader polls the rest.
pub const MAX_RESOURCES: usize = 32;
/// The largest event a reader reads (one event's `data:` lines together,
/// bytes): one answer whole is in each. A server sends none larger (the
/// reference server keeps none over half of it); a larger one breaks the
/// stream, which the reader reopens.
pub const MAX_READ_EVENT_BYTES: usize = 32 * 1024 * 1024;
/// A comment this often on a quiet stream (the server's
/// `--stream-heartbeat` by default): a reader that hears nothing for
/// longer than [`stale_after_ms`] knows the stream went silent.
pub const HEARTBEAT_MS: u64 = 15_000;
/// The wait before reopening a stream, until the server's `retry:` says
/// (the server's first bytes say this).
pub const RETRY_MS: u64 = 2_000;
/// The shortest wait before a reconnect a server's `retry:` may ask for.
pub const MIN_RETRY_MS: u64 = 500;
/// The longest wait between two attempts to open a stream.
pub const MAX_BACKOFF_MS: u64 = 30_000;
/// A stream that has not answered by then is given up (and retried).
pub const OPEN_TIMEOUT_MS: u64 = 15_000;
/// The shortest wait for a poll's answer (or a stream's next bytes)
/// before the data is called late.
pub const MIN_PATIENCE_MS: f64 = 2_000.0;
/// The `code` of a `stale` sent when a replica took over the polls of
/// one that stopped.
pub const FAILOVER_CODE: &str = "REPLICA_FAILOVER";
/// The `code` of a `stale` sent, with several replicas, in place of an
/// event larger than they share: the data is as old as before it.
pub const TOO_LARGE_CODE: &str = "EVENT_TOO_LARGE";

/// What an event says about its resource (its `event:` name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The whole current answer: first for every subscriber, and after a
    /// `resync`.
    Snapshot,
    /// What changed since the previous answer, and the new answer whole.
    Change,
    /// The data is getting old: a poll failed, waited for the budget, or
    /// the interval was stretched and the data grew older than wanted.
    /// `live` follows when fresh data arrives.
    Stale,
    /// Fresh data again after `stale`.
    Live,
    /// The reader's position is older than the replay buffer (or the
    /// resource's numbering started again): a `snapshot` follows.
    Resync,
    /// The upstream refused the resource (its own typed refusal: a 4xx
    /// that [`crate::change::ends_watch`] calls final ends a reader's
    /// watch). The server polls it again with backoff and sends a
    /// `snapshot` if it appears; a viewer who comes after the refusal grew
    /// older than the proxy's negative cache is not told it.
    Error,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Snapshot,
        Kind::Change,
        Kind::Stale,
        Kind::Live,
        Kind::Resync,
        Kind::Error,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Snapshot => "snapshot",
            Kind::Change => "change",
            Kind::Stale => "stale",
            Kind::Live => "live",
            Kind::Resync => "resync",
            Kind::Error => "error",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Why data is not fresh: the first three are the server's word (a
/// `stale` event's `reason`), the others a reader's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StaleReason {
    /// The poll failed (network, timeout, 5xx, an unreadable answer), or
    /// the proxy served its last good answer because the upstream failed.
    PollFailed,
    /// The poll was refused or delayed by the upstream budget (429).
    Budget,
    /// The budget cannot afford the interval wanted: polls come further
    /// apart than asked.
    IntervalStretched,
    /// The reader heard neither an event nor a heartbeat within the
    /// deadline the server announced (`stale_after_ms`): the connection
    /// went quiet without closing. The reader reconnects.
    Silent,
    /// The stream dropped or could not be opened; the reader reconnects.
    Disconnected,
    /// The data is older than the caller's `maxStalenessMs` (npm).
    MaxStaleness,
}

impl StaleReason {
    pub const ALL: [StaleReason; 6] = [
        StaleReason::PollFailed,
        StaleReason::Budget,
        StaleReason::IntervalStretched,
        StaleReason::Silent,
        StaleReason::Disconnected,
        StaleReason::MaxStaleness,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StaleReason::PollFailed => "poll_failed",
            StaleReason::Budget => "budget",
            StaleReason::IntervalStretched => "interval_stretched",
            StaleReason::Silent => "silent",
            StaleReason::Disconnected => "disconnected",
            StaleReason::MaxStaleness => "max_staleness",
        }
    }

    pub fn from_name(name: &str) -> Option<StaleReason> {
        StaleReason::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the server says it (else a reader tells it itself, and the
    /// next data from the stream ends it).
    pub fn from_server(self) -> bool {
        matches!(
            self,
            StaleReason::PollFailed | StaleReason::Budget | StaleReason::IntervalStretched
        )
    }

    /// Whether a `stale` of reason `name` is the server's word (which only
    /// its `live`, or a snapshot, ends): a reason this reader does not
    /// know came from a newer server.
    pub fn told_by_server(name: &str) -> bool {
        StaleReason::from_name(name).is_none_or(StaleReason::from_server)
    }
}

/// An event's JSON: `resource` and `seq` always, the rest by kind. The
/// server writes it with `D` the answer (already written JSON for a
/// snapshot); readers read it with [`Value`]. Absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Body<D = Value> {
    /// `KIND:ID`, as the stream named it.
    pub resource: String,
    /// The resource's event number (the `seq` of its position).
    pub seq: u64,
    /// The time the data is from (a book's `timestamp`, the answer's
    /// `data_freshness`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// The data's age when the event was sent (ms).
    #[serde(
        default,
        deserialize_with = "lenient_ms",
        skip_serializing_if = "Option::is_none"
    )]
    pub age_ms: Option<u64>,
    /// When the poll behind the data answered (Unix ms).
    #[serde(
        default,
        deserialize_with = "lenient_ms",
        skip_serializing_if = "Option::is_none"
    )]
    pub polled_ms: Option<u64>,
    /// How long a reader may go without hearing anything (an event, a
    /// heartbeat) before it calls the stream silent: [`stale_after_ms`]
    /// of the interval the resource is polled at now.
    #[serde(
        default,
        deserialize_with = "lenient_ms",
        skip_serializing_if = "Option::is_none"
    )]
    pub stale_after_ms: Option<u64>,
    /// Why the data is stale (`stale`): a [`StaleReason`] name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The interval granted and the one wanted (`stale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wanted_ms: Option<f64>,
    /// A failed poll's or an `error`'s status, code and message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What changed (`change`): the core's `change` rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Value>,
    /// The answer whole (`snapshot`, `change`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<D>,
}

/// The names of [`Body`]'s fields a reader picks from an event's JSON
/// without decoding it whole (the npm package's wasm, which leaves the
/// parsing to the JS engine): serde's names of those fields, held to them
/// by a test.
pub mod field {
    /// [`Body::resource`](super::Body::resource).
    pub const RESOURCE: &str = "resource";
    /// [`Body::seq`](super::Body::seq).
    pub const SEQ: &str = "seq";
    /// [`Body::stale_after_ms`](super::Body::stale_after_ms).
    pub const STALE_AFTER_MS: &str = "stale_after_ms";
}

/// What a stream's readers receive: the answer as a JSON value.
pub type StreamEvent = Body<Value>;

impl<D> Body<D> {
    /// A body of `resource` at `seq` with nothing else yet.
    pub fn new(resource: &str, seq: u64) -> Self {
        Body {
            resource: resource.to_owned(),
            seq,
            as_of: None,
            age_ms: None,
            polled_ms: None,
            stale_after_ms: None,
            reason: None,
            interval_ms: None,
            wanted_ms: None,
            status: None,
            code: None,
            message: None,
            changes: None,
            data: None,
        }
    }

    /// The [`StaleReason`] of a `stale` body, when it names a known one.
    pub fn stale_reason(&self) -> Option<StaleReason> {
        self.reason.as_deref().and_then(StaleReason::from_name)
    }
}

/// A number of ms as any JSON number (a float rounds); anything else is
/// no number, not an unreadable event (tolerant reader).
fn lenient_ms<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let value = Option::<Value>::deserialize(deserializer)?;
    Ok(value
        .as_ref()
        .and_then(Value::as_f64)
        .and_then(lenient_ms_of))
}

/// A body's number of ms as a reader takes it: a float rounds; a negative
/// or non-finite number is none.
pub fn lenient_ms_of(ms: f64) -> Option<u64> {
    (ms.is_finite() && ms >= 0.0).then(|| ms.round() as u64)
}

/// Where a stream is in one resource: the run of its numbering (`epoch`,
/// written in hex: a restarted numbering is told apart) and its last event
/// number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub epoch: u32,
    pub seq: u64,
}

/// The position a reader sends for a resource it has none of.
pub const NO_POSITION: Position = Position { epoch: 0, seq: 0 };

/// The longest `epoch:seq` a stream's id holds per resource; a longer
/// `Last-Event-ID` is no position.
const MAX_PART_CHARS: usize = 40;

impl Position {
    /// `epoch:seq` (epoch in hex).
    pub fn render(self) -> String {
        format!("{:x}:{}", self.epoch, self.seq)
    }

    /// One `epoch:seq`; `None` when malformed.
    pub fn parse(part: &str) -> Option<Position> {
        let (epoch, seq) = part.split_once(':')?;
        if epoch.is_empty() || !epoch.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        if seq.is_empty() || !seq.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Position {
            epoch: u32::from_str_radix(epoch, 16).ok()?,
            seq: seq.parse().ok()?,
        })
    }
}

/// A stream's `id:` (and a reconnect's `Last-Event-ID`): one position per
/// resource, in the order the stream named them, joined by `,`.
pub fn render_id(positions: &[Position]) -> String {
    let parts: Vec<String> = positions.iter().map(|p| p.render()).collect();
    parts.join(",")
}

/// The positions of an id of a stream of `count` resources; anything else
/// (another count, a malformed part, an id too long) is no position.
pub fn parse_id(text: &str, count: usize) -> Option<Vec<Position>> {
    if text.len() > count.saturating_mul(MAX_PART_CHARS) {
        return None;
    }
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != count {
        return None;
    }
    parts.into_iter().map(Position::parse).collect()
}

/// How long past its due time a poll's answer (or a quiet stream's next
/// bytes) may be before the data is called late: the interval itself,
/// and never less than [`MIN_PATIENCE_MS`] (not the blink of a busy
/// machine when intervals are short).
pub fn patience_ms(interval_ms: f64) -> f64 {
    interval_ms.max(MIN_PATIENCE_MS)
}

/// When data polled every `interval_ms` counts as older than wanted: the
/// interval and its patience.
pub fn overdue_after_ms(interval_ms: f64) -> f64 {
    interval_ms + patience_ms(interval_ms)
}

/// The deadline a server announces with each event of a resource polled
/// every `interval_ms` on a stream with a heartbeat every `heartbeat_ms`:
/// by then the reader has heard something (the next event, or a
/// heartbeat), or the stream is silent.
pub fn stale_after_ms(interval_ms: f64, heartbeat_ms: f64) -> u64 {
    overdue_after_ms(interval_ms.max(heartbeat_ms)).round() as u64
}

/// The first bytes of every stream: how long a reader waits before it
/// reconnects.
pub fn preamble() -> String {
    format!("retry: {RETRY_MS}\n\n")
}

/// A comment: the heartbeat of a quiet stream.
pub const HEARTBEAT: &str = ": heartbeat\n\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        for reason in StaleReason::ALL {
            assert_eq!(StaleReason::from_name(reason.name()), Some(reason));
        }
        assert_eq!(Kind::from_name("message"), None);
    }

    #[test]
    fn ids_round_trip_and_bad_ones_are_none() {
        let ps = [
            Position {
                epoch: 0xbeef,
                seq: 12,
            },
            Position { epoch: 1, seq: 0 },
        ];
        assert_eq!(render_id(&ps), "beef:12,1:0");
        assert_eq!(parse_id("beef:12,1:0", 2).as_deref(), Some(&ps[..]));
        for bad in [
            "beef:12", "x:1,1:0", "1:1,1:-1", "", "1:1,,", "1;1,1:1", "1:+1,1:1", ":1,1:1",
        ] {
            assert_eq!(parse_id(bad, 2), None, "{bad}");
        }
        assert_eq!(parse_id(&format!("1:{}", "9".repeat(100)), 1), None);
        assert_eq!(parse_id("1ffffffff:1", 1), None, "wider than an epoch");
    }

    #[test]
    fn a_body_leaves_absent_fields_out_and_reads_floats() {
        let mut body = Body::<Value>::new("orderbook:a", 3);
        body.age_ms = Some(1_000);
        let text = serde_json::to_string(&body).expect("json");
        assert_eq!(text, r#"{"resource":"orderbook:a","seq":3,"age_ms":1000}"#);
        let read: StreamEvent =
            serde_json::from_str(r#"{"resource":"r","seq":1,"age_ms":12.6,"polled_ms":"x"}"#)
                .expect("read");
        assert_eq!((read.age_ms, read.polled_ms), (Some(13), None));
    }

    #[test]
    fn the_field_names_readers_pick_are_the_bodys() {
        let mut body = Body::<Value>::new("orderbook:a", 1);
        body.stale_after_ms = Some(30_000);
        let json = serde_json::to_value(&body).expect("json");
        for name in [field::RESOURCE, field::SEQ, field::STALE_AFTER_MS] {
            assert!(json.get(name).is_some(), "{name} is not a field of {json}");
        }
    }

    #[test]
    fn the_deadline_covers_the_interval_or_the_heartbeat_and_their_patience() {
        assert_eq!(stale_after_ms(5_000.0, 15_000.0), 30_000);
        assert_eq!(stale_after_ms(60_000.0, 15_000.0), 120_000);
        assert_eq!(stale_after_ms(100.0, 500.0), 2_500);
        assert_eq!(overdue_after_ms(1_000.0), 3_000.0);
        assert_eq!(preamble(), "retry: 2000\n\n");
    }
}
