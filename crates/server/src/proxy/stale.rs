//! Stale answers, marked (`meta.stale: true`, `meta.stale_age_seconds`)
//! without parsing and re-serializing the body per request: the marked body
//! is built once per entry as a template split where the age goes, and each
//! answer is the two halves around the age's digits (one copy, no JSON
//! work). While the upstream is down every miss may be a stale answer, so
//! this is the path that must stay cheap then.

use super::cache::{Entry, STALE_KEEP};
use bytes::{BufMut, Bytes, BytesMut};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Stands for the age in the serialized template; found exactly once, or
/// the template is not used. A NUL inside makes it a string no real answer
/// is likely to hold.
const MARK: &str = "\u{0}predmarket-stale-age\u{0}";

/// One entry's marked body, split around the age.
struct Template {
    /// Which version of the entry it was built from.
    fetched_ms: u64,
    /// `None`: the body is not a JSON object (or holds `MARK`), and is
    /// served unmarked.
    halves: Option<(Bytes, Bytes)>,
}

impl Template {
    fn of(entry: &Entry) -> Self {
        let halves = serde_json::from_slice::<Value>(&entry.body)
            .ok()
            .and_then(split);
        Self {
            fetched_ms: entry.fetched_ms,
            halves,
        }
    }
}

fn split(body: Value) -> Option<(Bytes, Bytes)> {
    let Value::Object(mut object) = body else {
        return None;
    };
    let meta = object.entry("meta").or_insert_with(|| json!({}));
    if !meta.is_object() {
        *meta = json!({});
    }
    let meta = meta.as_object_mut()?;
    meta.insert("stale".into(), Value::Bool(true));
    meta.insert("stale_age_seconds".into(), Value::from(MARK));
    let text = serde_json::to_vec(&object).ok()?;
    let mark = serde_json::to_vec(MARK).ok()?;
    let mut found = memchr::memmem::find_iter(&text, &mark);
    let at = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let text = Bytes::from(text);
    Some((text.slice(..at), text.slice(at + mark.len()..)))
}

/// The templates of entries served stale lately, bounded by bytes.
pub struct StaleBodies {
    templates: moka::sync::Cache<Arc<str>, Arc<Template>>,
    /// Templates built so far (a test checks one serves many answers).
    pub built: AtomicU64,
}

impl StaleBodies {
    pub fn new(max_bytes: u64) -> Self {
        let templates = moka::sync::Cache::builder()
            .max_capacity(max_bytes.max(1))
            .weigher(|key: &Arc<str>, template: &Arc<Template>| {
                let body = template
                    .halves
                    .as_ref()
                    .map_or(0, |(head, tail)| head.len() + tail.len());
                u32::try_from(key.len() + body + 64).unwrap_or(u32::MAX)
            })
            .time_to_live(STALE_KEEP)
            .build();
        Self {
            templates,
            built: AtomicU64::new(0),
        }
    }

    /// `entry` (the one cached under `key`) marked stale, `age_secs` old.
    pub fn body(&self, key: &str, entry: &Entry, age_secs: u64) -> Bytes {
        let template = match self.templates.get(key) {
            Some(template) if template.fetched_ms == entry.fetched_ms => template,
            _ => {
                self.built.fetch_add(1, Ordering::Relaxed);
                let template = Arc::new(Template::of(entry));
                self.templates.insert(Arc::from(key), template.clone());
                template
            }
        };
        let Some((head, tail)) = &template.halves else {
            return entry.body.clone();
        };
        let age = age_secs.to_string();
        let mut out = BytesMut::with_capacity(head.len() + age.len() + tail.len());
        out.put_slice(head);
        out.put_slice(age.as_bytes());
        out.put_slice(tail);
        out.freeze()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(body: &'static [u8], fetched_ms: u64) -> Entry {
        Entry {
            status: 200,
            body: Bytes::from_static(body),
            fetched_ms,
            fresh_ms: 1,
            revalidate_ms: 1,
            retry_after: None,
            compressed: std::sync::OnceLock::new(),
        }
    }

    #[test]
    fn one_template_marks_every_answer_of_an_entry() {
        let bodies = StaleBodies::new(1 << 20);
        let first = entry(br#"{"data":[1,"x"],"meta":{"request_id":"r"}}"#, 5);
        for age in [0, 7, 12345] {
            let body: Value = serde_json::from_slice(&bodies.body("k", &first, age)).unwrap();
            assert_eq!(body["meta"]["stale"], true);
            assert_eq!(body["meta"]["stale_age_seconds"], age);
            assert_eq!(body["meta"]["request_id"], "r");
            assert_eq!(body["data"], json!([1, "x"]));
        }
        assert_eq!(bodies.built.load(Ordering::Relaxed), 1);
        // A newer version of the entry gets its own template.
        let second = entry(br#"{"data":[2]}"#, 6);
        let body: Value = serde_json::from_slice(&bodies.body("k", &second, 3)).unwrap();
        assert_eq!(body["data"], json!([2]));
        assert_eq!(body["meta"]["stale_age_seconds"], 3);
        assert_eq!(bodies.built.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn bodies_that_cannot_be_marked_are_served_as_they_are() {
        let bodies = StaleBodies::new(1 << 20);
        let array = entry(b"[1,2]", 1);
        assert_eq!(bodies.body("a", &array, 4), array.body);
        let holds_mark = entry(b"{\"a\":\"\\u0000predmarket-stale-age\\u0000\"}", 1);
        assert_eq!(bodies.body("b", &holds_mark, 4), holds_mark.body);
        let bad_meta = entry(br#"{"meta":3}"#, 1);
        let body: Value = serde_json::from_slice(&bodies.body("c", &bad_meta, 4)).unwrap();
        assert_eq!(body["meta"]["stale"], true);
    }
}
