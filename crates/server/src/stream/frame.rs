//! The events of a stream as they go on the wire (Server-Sent Events), and
//! the stream's event ids.
//!
//! An event's JSON is written once per resource and shared by every
//! subscriber; only the `id:` line is per stream, since one stream carries
//! several resources and its id says where it is in each of them.

use bytes::Bytes;
use serde_json::{Value, json};

/// What an event says about its resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The whole current answer: first for every subscriber, and after a
    /// `resync`.
    Snapshot,
    /// What changed since the previous answer, and the new answer whole.
    Change,
    /// The data is getting old: a poll failed, waited for the budget, or
    /// the interval was stretched and the data grew older than wanted
    /// (once per poll). `live` follows when fresh data arrives.
    Stale,
    /// Fresh data again after `stale`.
    Live,
    /// The client's position is older than the replay buffer (or the
    /// resource's poller restarted): a `snapshot` follows.
    Resync,
    /// The resource cannot be watched (unknown id, refused request); no
    /// further event of it follows.
    Error,
}

impl Kind {
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
        [
            Kind::Snapshot,
            Kind::Change,
            Kind::Stale,
            Kind::Live,
            Kind::Resync,
            Kind::Error,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

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
    /// An event whose JSON is `fields` plus `resource` and `seq`.
    pub fn new(kind: Kind, resource: &str, epoch: u32, seq: u64, mut fields: Value) -> Frame {
        if let Some(object) = fields.as_object_mut() {
            object.insert("resource".into(), Value::from(resource));
            object.insert("seq".into(), Value::from(seq));
        }
        let text = serde_json::to_string(&fields).unwrap_or_else(|_| "{}".into());
        Frame::from_json(kind, epoch, seq, &text)
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

    /// A `snapshot` whose answer, `data`, is already written as JSON: a
    /// snapshot is made for each subscriber that needs one, with the age
    /// the data has when it is sent, while the answer is written once.
    pub fn snapshot(resource: &str, epoch: u32, seq: u64, head: Value, data: &str) -> Frame {
        let mut text = serde_json::to_string(&head).unwrap_or_else(|_| "{}".into());
        if text.ends_with('}') {
            text.pop();
            if text.len() > 1 {
                text.push(',');
            }
            let resource = serde_json::to_string(resource).unwrap_or_else(|_| "\"\"".into());
            text.push_str(&format!(
                "\"resource\":{resource},\"seq\":{seq},\"data\":{data}}}"
            ));
        }
        Frame::from_json(Kind::Snapshot, epoch, seq, &text)
    }

    /// A `resync` of `resource` at `seq`.
    pub fn resync(resource: &str, epoch: u32, seq: u64) -> Frame {
        Frame::new(Kind::Resync, resource, epoch, seq, json!({}))
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
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.0.len() * 12);
        for (i, (epoch, seq)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&format!("{epoch:x}:{seq}"));
        }
        out
    }

    /// A `Last-Event-ID` of a stream of `count` resources; anything else
    /// (another count, a malformed part) is no position: the client gets
    /// snapshots, as a new one would.
    pub fn parse(text: &str, count: usize) -> Option<Position> {
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() != count || text.len() > count * 40 {
            return None;
        }
        parts
            .into_iter()
            .map(|part| {
                let (epoch, seq) = part.split_once(':')?;
                Some((
                    u32::from_str_radix(epoch, 16).ok()?,
                    seq.parse::<u64>().ok()?,
                ))
            })
            .collect::<Option<Vec<_>>>()
            .map(Position)
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
pub const PREAMBLE: &[u8] = b"retry: 2000\n\n";

/// A comment that keeps proxies and the idle timeout from closing a quiet
/// stream.
pub const HEARTBEAT: &[u8] = b": heartbeat\n\n";

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
        let frame = Frame::new(
            Kind::Change,
            "market:a",
            7,
            3,
            json!({ "title": "two\nlines" }),
        );
        let [head, data] = render(&frame, &Position(vec![(7, 3)]));
        assert_eq!(data.as_ptr(), frame.data.as_ptr(), "the JSON is shared");
        let text = String::from_utf8([head, data].concat()).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "event: change");
        assert_eq!(lines[1], "id: 7:3");
        assert!(lines[2].starts_with("data: {"));
        assert!(text.ends_with("\n\n"));
        assert_eq!(text.matches("data:").count(), 1);
        let json: Value = serde_json::from_str(&lines[2]["data: ".len()..]).expect("json");
        assert_eq!(json["resource"], "market:a");
        assert_eq!(json["seq"], 3);
        assert_eq!(json["title"], "two\nlines");
        assert_eq!(frame.json(), &lines[2].as_bytes()["data: ".len()..]);
    }

    #[test]
    fn a_snapshot_is_valid_json_with_the_answer_whole() {
        let frame = Frame::snapshot(
            "orderbook:\"x\"",
            1,
            4,
            json!({ "as_of": "t", "age_ms": 12 }),
            r#"{"data":{"id":"x"}}"#,
        );
        let json: Value = serde_json::from_slice(frame.json()).expect("json");
        assert_eq!(json["resource"], "orderbook:\"x\"");
        assert_eq!(json["seq"], 4);
        assert_eq!(json["age_ms"], 12);
        assert_eq!(json["data"]["data"]["id"], "x");
    }
}
