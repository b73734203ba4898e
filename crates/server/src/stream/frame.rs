//! The events of a stream as they go on the wire (Server-Sent Events), and
//! the stream's event ids.
//!
//! An event's JSON is written once per resource and shared by every
//! subscriber; only the `id:` line is per stream, since one stream carries
//! several resources and its id says where it is in each of them.

use bytes::Bytes;
pub use predmarket_core::live::Kind;
use predmarket_core::live::{self, Body};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// One event of one resource, its JSON written once.
#[derive(Debug)]
pub struct Frame {
    pub kind: Kind,
    /// The run of the resource's numbering this event belongs to.
    pub epoch: u32,
    /// The resource's event number (`seq` in the JSON).
    pub seq: u64,
    /// `data: …` lines and the blank line that ends the event.
    pub data: Bytes,
}

impl Frame {
    /// An event of `body` (the contract's JSON: its `resource` and `seq`
    /// are the event's), in the numbering `epoch`.
    pub fn new<D: Serialize>(kind: Kind, epoch: u32, body: &Body<D>) -> Frame {
        // A body of strings, numbers and JSON already written cannot fail
        // to serialize; an empty object would still be a valid event.
        let text = serde_json::to_string(body).unwrap_or_else(|_| "{}".into());
        Frame::from_json(kind, epoch, body.seq, &text)
    }

    /// An event of already written JSON (one line: serde_json writes no
    /// raw newline), as another replica published it.
    pub fn from_json(kind: Kind, epoch: u32, seq: u64, json: &str) -> Frame {
        let mut data = String::with_capacity(json.len() + 8);
        data.push_str("data: ");
        data.push_str(json);
        data.push_str("\n\n");
        Frame {
            kind,
            epoch,
            seq,
            data: Bytes::from(data),
        }
    }

    /// The event's JSON (the `data:` line's text).
    pub fn json(&self) -> &[u8] {
        let data = &self.data[..];
        let data = data.strip_prefix(b"data: ").unwrap_or(data);
        data.strip_suffix(b"\n\n").unwrap_or(data)
    }

    /// The event's JSON read back as the contract's body.
    pub fn body(&self) -> Option<Body<Value>> {
        serde_json::from_slice(self.json()).ok()
    }

    /// The same with its answer as written (checked, not parsed).
    pub fn raw_body(&self) -> Option<Body<Box<RawValue>>> {
        serde_json::from_slice(self.json()).ok()
    }

    /// A `resync` of `resource` at `seq`.
    pub fn resync(resource: &str, epoch: u32, seq: u64) -> Frame {
        Frame::new(Kind::Resync, epoch, &Body::<Value>::new(resource, seq))
    }
}

/// Where a stream is in each of its resources: the `id:` of its events,
/// which a reconnecting client sends back as `Last-Event-ID`.
///
/// Written `epoch:seq` per resource, in the order the stream named them,
/// joined by `,`. The epoch tells one run of a resource's poller from the
/// next (a restarted poller numbers its events from 1 again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position(pub Vec<(u32, u64)>);

impl Position {
    fn parts(&self) -> Vec<live::Position> {
        self.0
            .iter()
            .map(|&(epoch, seq)| live::Position { epoch, seq })
            .collect()
    }

    pub fn render(&self) -> String {
        live::render_id(&self.parts())
    }

    /// A `Last-Event-ID` of a stream of `count` resources; anything else
    /// (another count, a malformed part) is no position: the client gets
    /// snapshots, as a new one would.
    pub fn parse(text: &str, count: usize) -> Option<Position> {
        live::parse_id(text, count)
            .map(|parts| Position(parts.into_iter().map(|p| (p.epoch, p.seq)).collect()))
    }
}

/// An event as one stream sends it: its own head (the event's name, the
/// stream's id), then the JSON every stream shares, not copied.
pub fn render(frame: &Frame, position: &Position) -> [Bytes; 2] {
    let id = position.render();
    let mut head = Vec::with_capacity(id.len() + 24);
    head.extend_from_slice(b"event: ");
    head.extend_from_slice(frame.kind.name().as_bytes());
    head.extend_from_slice(b"\nid: ");
    head.extend_from_slice(id.as_bytes());
    head.push(b'\n');
    [Bytes::from(head), frame.data.clone()]
}

/// The first bytes of every stream: how long a client waits before it
/// reconnects.
pub fn preamble() -> Bytes {
    Bytes::from(live::preamble())
}

/// A comment that keeps proxies and the idle timeout from closing a quiet
/// stream, and tells the reader the stream is not silent.
pub const HEARTBEAT: &[u8] = live::HEARTBEAT.as_bytes();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_and_bad_ones_are_none() {
        let p = Position(vec![(0xbeef, 12), (1, 0)]);
        assert_eq!(p.render(), "beef:12,1:0");
        assert_eq!(Position::parse("beef:12,1:0", 2), Some(p));
        for bad in ["beef:12", "x:1,1:0", "1:1,1:-1", "", "1:1,,", "1;1,1:1"] {
            assert_eq!(Position::parse(bad, 2), None, "{bad}");
        }
        let long = format!("1:{}", "9".repeat(100));
        assert_eq!(Position::parse(&long, 1), None);
    }

    #[test]
    fn an_event_is_one_data_line_with_the_stream_id() {
        let mut body = Body::<Value>::new("market:a", 3);
        body.message = Some("two\nlines".into());
        let frame = Frame::new(Kind::Change, 7, &body);
        let [head, data] = render(&frame, &Position(vec![(7, 3)]));
        assert_eq!(data.as_ptr(), frame.data.as_ptr(), "the JSON is shared");
        let text = String::from_utf8([head, data].concat()).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "event: change");
        assert_eq!(lines[1], "id: 7:3");
        assert!(lines[2].starts_with("data: {"));
        assert!(text.ends_with("\n\n"));
        assert_eq!(text.matches("data:").count(), 1);
        assert_eq!(frame.body(), Some(body));
        assert_eq!(frame.json(), &lines[2].as_bytes()["data: ".len()..]);
    }

    #[test]
    fn a_snapshot_of_written_json_is_valid_json_with_the_answer_whole() {
        let answer = serde_json::value::to_raw_value(&serde_json::json!({"data": {"id": "x"}}))
            .expect("raw");
        let mut body = Body::new("orderbook:\"x\"", 4);
        body.age_ms = Some(12);
        body.data = Some(&*answer);
        let frame = Frame::new(Kind::Snapshot, 1, &body);
        let json: Value = serde_json::from_slice(frame.json()).expect("json");
        assert_eq!(json["resource"], "orderbook:\"x\"");
        assert_eq!(json["seq"], 4);
        assert_eq!(json["age_ms"], 12);
        assert_eq!(json["data"]["data"]["id"], "x");
    }
}
