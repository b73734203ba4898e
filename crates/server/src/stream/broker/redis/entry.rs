//! An event as Redis keeps it, and back. The answer an event carries
//! whole (`snapshot`, `change`) is kept apart, once per distinct answer
//! (a hash per resource, field: the answer's xxh3), and the event's entry
//! holds the rest of its JSON and the answer's hash: the last answer and
//! the events that carry it share one copy.
//!
//! What comes back is not trusted: whoever can write that Redis could
//! otherwise add lines (SSE fields) to every replica's streams. An entry
//! whose text holds a line break, is not JSON, or names another resource
//! or number is refused; the rest is written again by serde (a body of
//! typed fields and an answer checked as JSON) before it is framed.

use crate::stream::frame::{Frame, Kind};
use predmarket_core::live::Body;
use serde_json::value::RawValue;
use std::sync::Arc;

/// An event split for Redis.
#[derive(Debug, PartialEq, Eq)]
pub struct Split {
    /// The event's JSON without its answer.
    pub json: String,
    /// The answer's hash and text, when the event carries one.
    pub answer: Option<(String, String)>,
}

/// Why an event is not kept in Redis whole.
#[derive(Debug, PartialEq, Eq)]
pub enum Unsplit {
    /// Larger than the broker's cap (bytes).
    TooLarge(usize),
    /// Not the contract's JSON (only a bug writes that).
    Unreadable,
}

/// `frame` as Redis keeps it, within `max_bytes` (its JSON whole).
pub fn split(frame: &Frame, max_bytes: usize) -> Result<Split, Unsplit> {
    let json = frame.json();
    if json.len() > max_bytes {
        return Err(Unsplit::TooLarge(json.len()));
    }
    let mut body: Body<Box<RawValue>> =
        serde_json::from_slice(json).map_err(|_| Unsplit::Unreadable)?;
    let answer = body.data.take().map(|data| {
        let text = data.get().to_owned();
        (answer_hash(&text), text)
    });
    let json = serde_json::to_string(&body).map_err(|_| Unsplit::Unreadable)?;
    Ok(Split { json, answer })
}

/// The field an answer is kept under.
pub fn answer_hash(text: &str) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}

/// An entry read back: its fields as Redis gave them.
pub struct Stored<'a> {
    pub seq: u64,
    pub epoch: &'a str,
    pub kind: &'a str,
    pub json: &'a str,
    /// The answer's text, when the entry names one (`None` when it names
    /// one Redis no longer holds: the entry is refused).
    pub answer: Option<Option<&'a str>>,
}

/// The event of an entry of resource `key`, written anew; `None` when the
/// entry is refused (see the module's doc).
pub fn join(key: &str, stored: &Stored<'_>) -> Option<Arc<Frame>> {
    let epoch = stored.epoch.parse().ok()?;
    let kind = Kind::from_name(stored.kind)?;
    let one_line = |text: &str| !text.bytes().any(|b| b == b'\n' || b == b'\r');
    if !one_line(stored.json) {
        return None;
    }
    let mut body: Body<Box<RawValue>> = serde_json::from_str(stored.json).ok()?;
    if body.resource != key || body.seq != stored.seq || body.data.is_some() {
        return None;
    }
    match stored.answer {
        None => {}
        Some(Some(text)) if one_line(text) => body.data = Some(serde_json::from_str(text).ok()?),
        Some(_) => return None,
    }
    Some(Arc::new(Frame::new(kind, epoch, &body)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn frame(kind: Kind, data: Option<Value>) -> Frame {
        let mut body = Body::<Value>::new("orderbook:a", 3);
        body.age_ms = Some(5);
        body.data = data;
        Frame::new(kind, 7, &body)
    }

    #[test]
    fn an_answer_is_kept_apart_and_joined_back_as_it_was() {
        let original = frame(Kind::Change, Some(json!({"data": {"bids": [[0.5, 10]]}})));
        let split = split(&original, 1 << 20).expect("split");
        let (hash, text) = split.answer.clone().expect("an answer");
        assert!(!split.json.contains("bids"), "{}", split.json);
        let stored = Stored {
            seq: 3,
            epoch: "7",
            kind: "change",
            json: &split.json,
            answer: Some(Some(&text)),
        };
        let back = join("orderbook:a", &stored).expect("joined");
        assert_eq!(back.json(), original.json());
        assert_eq!((back.epoch, back.seq, back.kind), (7, 3, Kind::Change));
        assert_eq!(hash, answer_hash(&text));
        // Without an answer: no hash.
        let stale = split_of(&frame(Kind::Stale, None));
        assert_eq!(stale.answer, None);
    }

    fn split_of(frame: &Frame) -> Split {
        split(frame, 1 << 20).expect("split")
    }

    #[test]
    fn an_event_over_the_cap_is_not_kept() {
        let big = frame(Kind::Snapshot, Some(json!({"data": "x".repeat(2_000)})));
        assert!(matches!(split(&big, 1_000), Err(Unsplit::TooLarge(n)) if n > 2_000));
    }

    #[test]
    fn forged_entries_are_refused_or_written_anew() {
        let json = r#"{"resource":"orderbook:a","seq":3}"#;
        let entry = |json: &'static str, answer: Option<Option<&'static str>>| Stored {
            seq: 3,
            epoch: "7",
            kind: "live",
            json,
            answer,
        };
        assert!(join("orderbook:a", &entry(json, None)).is_some());
        for forged in [
            // An SSE field smuggled after the JSON.
            "{\"resource\":\"orderbook:a\",\"seq\":3}\nevent: error\ndata: {}",
            // A line break as JSON whitespace: valid JSON, still refused.
            "{\"resource\":\"orderbook:a\",\n\"seq\":3}",
            // Another resource, another number, the answer inline.
            r#"{"resource":"orderbook:b","seq":3}"#,
            r#"{"resource":"orderbook:a","seq":4}"#,
            r#"{"resource":"orderbook:a","seq":3,"data":{}}"#,
            "not json",
        ] {
            assert!(
                join("orderbook:a", &entry(forged, None)).is_none(),
                "{forged}"
            );
        }
        for answer in [Some(None), Some(Some("{\"a\":\n1}")), Some(Some("{"))] {
            assert!(
                join("orderbook:a", &entry(json, answer)).is_none(),
                "{answer:?}"
            );
        }
        // Valid but untidy JSON is written anew: one line, serde's spacing.
        let spaced = entry(
            r#"{ "resource" : "orderbook:a", "seq" : 3, "message" : "a\u000ab" }"#,
            None,
        );
        let back = join("orderbook:a", &spaced).expect("joined");
        assert_eq!(
            back.json(),
            br#"{"resource":"orderbook:a","seq":3,"message":"a\nb"}"#
        );
        assert!(!back.data[..back.data.len() - 2].contains(&b'\n'));
    }
}
