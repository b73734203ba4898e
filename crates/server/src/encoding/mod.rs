//! Compressed answers, made once per distinct answer and reused.
//!
//! An answer of the operations is JSON of one shape: `{"pagination":{…}`
//! (lists only), then what the data says, then `"meta":{…}}`. Only the
//! ends change from one request to the next: the pagination's
//! `next_cursor` carries the time it was issued (to the second) and
//! `meta.request_time` how long this request took. So an answer is cut in
//! three ([`Spans`]); its middle is compressed once, in both codings, and
//! kept ([`Answers`], bounded by bytes); each request writes its own head
//! and tail around the kept middle as stored blocks ([`frame`]), so every
//! client gets this request's own answer, byte for byte after
//! decompression, and no request pays for a compression the middle had
//! already had. The cache's key is a hash of the middle, and a hit is
//! compared in full with the kept middle, so a hash collision costs a
//! compression, never a wrong answer. A page of a list goes further: its
//! handler names its middle by what it is made of (the list, the rows and
//! how they are written) and asks for it kept ([`Answers::kept`]) before
//! writing anything, so a page asked for before is neither written, nor
//! hashed, nor compared, and its answer is sent as head, kept middle and
//! tail ([`chunks`]), in every coding, without copying the middle.
//!
//! Answers say they can be treated so by carrying [`Answer`] (set by
//! `routes::respond::bytes_response` and `routes::respond::parts_response`);
//! any other answer (errors, the demo's files) is left to the compression
//! layer outside this one.

pub mod chunks;
pub mod coding;
pub mod frame;
pub mod layer;
pub mod whole;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use bytes::Bytes;
use chunks::Chunks;
use coding::Coding;
use frame::Middle;
use std::sync::Arc;

/// Bytes the kept middles may hold at most (compressed, both codings, and
/// the uncompressed copy).
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Middles shorter than this are not compressed from kept parts: the
/// outer compression layer compresses such answers per request, which
/// costs less than keeping them.
pub const MIN_MIDDLE: usize = 1024;

/// An answer that may be compressed from kept parts; its bytes must be
/// the very bytes of the response's body.
#[derive(Clone)]
pub struct Answer(Shape);

#[derive(Clone)]
enum Shape {
    /// One buffer: cut by [`Spans`], its middle found by a hash of its
    /// bytes.
    Whole(Bytes),
    /// Written by its handler around a middle it found kept
    /// ([`Answers::kept`]): nothing to cut, hash or compare.
    Parts {
        head: Bytes,
        kept: Arc<Kept>,
        tail: Bytes,
    },
}

impl Answer {
    /// The answer `body`, whole.
    pub fn whole(body: Bytes) -> Self {
        Self(Shape::Whole(body))
    }

    /// The answer `head` + the kept middle + `tail`, and its body: the
    /// three pieces as they are, never copied into one buffer.
    pub fn parts(head: Bytes, kept: &Arc<Kept>, tail: Bytes) -> (Self, Chunks) {
        let body = Chunks::new(head.clone(), kept.identity.clone(), tail.clone());
        let answer = Self(Shape::Parts {
            head,
            kept: kept.clone(),
            tail,
        });
        (answer, body)
    }

    /// Bytes of the uncompressed answer.
    fn len(&self) -> usize {
        match &self.0 {
            Shape::Whole(body) => body.len(),
            Shape::Parts { head, kept, tail } => head.len() + kept.identity.len() + tail.len(),
        }
    }
}

/// What a kept middle is found by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// A hash of the middle's bytes (a hit is compared in full).
    Bytes(u128),
    /// A hash of everything the middle is a function of, named by its
    /// handler (the data never changes while the server runs).
    MadeOf(u128),
}

/// Where an answer's varying head ends and its varying tail starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spans {
    pub head_end: usize,
    pub tail_start: usize,
}

/// Bytes an answer's meta takes at most, from its `"meta":{` to the
/// answer's end: its members are a request time, a freshness, a count and
/// the platforms asked (under 200 B with every platform); a tail is
/// written per request as stored blocks, so this bounds what is sent
/// uncompressed too.
const MAX_TAIL: usize = 4096;

impl Spans {
    /// The head is `{` and the pagination object when the answer starts
    /// with one (its members are numbers, booleans and a base64url cursor,
    /// so its first `}` ends it); the tail starts at the last `"meta":{`
    /// when what follows is short enough to be the answer's own meta
    /// (`MAX_TAIL`). A longer one is some other member named `meta`
    /// (the OpenAPI document has schemas of that name): sent as the tail,
    /// its bytes would go out as stored blocks, uncompressed.
    pub fn of(body: &[u8]) -> Self {
        const PAGINATION: &[u8] = b"{\"pagination\":{";
        const META: &[u8] = b"\"meta\":{";
        let head_end = if body.starts_with(PAGINATION) {
            memchr::memchr(b'}', &body[PAGINATION.len()..]).map_or(1, |i| PAGINATION.len() + i + 1)
        } else {
            usize::from(!body.is_empty())
        };
        let tail_start = memchr::memmem::rfind(body, META)
            .filter(|&i| i >= head_end && body.len() - i <= MAX_TAIL)
            .unwrap_or(body.len());
        Self {
            head_end,
            tail_start,
        }
    }
}

/// The kept middles: moka (TinyLFU admission, so a flood of one-off
/// answers does not push out the popular ones), bounded by bytes.
pub struct Answers {
    inner: moka::sync::Cache<Key, Arc<Kept>>,
}

/// A middle kept: its bytes, and once a client has taken a compressed
/// answer of it, both its compressions.
pub struct Kept {
    identity: Bytes,
    /// What it is found by.
    key: Key,
    compressed: Option<Middle>,
}

impl Answers {
    pub fn new(max_bytes: u64) -> Self {
        let inner = moka::sync::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|_: &Key, kept: &Arc<Kept>| {
                let compressed = kept.compressed.as_ref().map_or(0, Middle::weight);
                // Plus the bookkeeping of one entry, roughly.
                u32::try_from(kept.identity.len() + compressed + 128).unwrap_or(u32::MAX)
            })
            .build();
        Self { inner }
    }

    /// The middle named `made_of` (a hash of everything it is a function
    /// of), kept, or made by `build` now and kept uncompressed: an
    /// identity client's answer costs no compression.
    pub fn kept(&self, made_of: u128, build: impl FnOnce() -> Vec<u8>) -> Arc<Kept> {
        self.inner.get_with(Key::MadeOf(made_of), || {
            Arc::new(Kept {
                identity: Bytes::from(build()),
                key: Key::MadeOf(made_of),
                compressed: None,
            })
        })
    }

    /// The answer in `coding`, or `None` to leave it as it is (identity
    /// asked for, a short middle, a compressor that failed).
    pub fn encode(&self, answer: &Answer, coding: Coding) -> Option<Chunks> {
        if coding == Coding::Identity {
            return None;
        }
        let (head, kept, tail) = match &answer.0 {
            Shape::Whole(body) => {
                let spans = Spans::of(body);
                let middle = body.slice(spans.head_end..spans.tail_start);
                if middle.len() < MIN_MIDDLE {
                    return None;
                }
                let kept = self.by_bytes(&middle)?;
                (&body[..spans.head_end], kept, &body[spans.tail_start..])
            }
            Shape::Parts { head, kept, tail } => {
                if kept.identity.len() < MIN_MIDDLE {
                    return None;
                }
                (&head[..], self.compressed(kept)?, &tail[..])
            }
        };
        let compressed = kept.compressed.as_ref()?;
        Some(match coding {
            Coding::Gzip => compressed.gzip(head, tail),
            Coding::Brotli => compressed.brotli(head, tail),
            Coding::Identity => return None,
        })
    }

    /// `kept` with its compressions, made now (and kept in its place) if
    /// it has none yet. Two first compressed requests of one middle at
    /// once may both compress it: once per middle, not per request.
    pub fn compressed(&self, kept: &Arc<Kept>) -> Option<Arc<Kept>> {
        if kept.compressed.is_some() {
            return Some(kept.clone());
        }
        let compressed = Arc::new(Kept {
            identity: kept.identity.clone(),
            key: kept.key,
            compressed: Some(Middle::compress(&kept.identity)?),
        });
        // Weighed again with its compressions.
        self.inner.insert(kept.key, compressed.clone());
        Some(compressed)
    }

    /// The kept compression of `middle`, found by a hash of its bytes,
    /// made now if none is kept.
    fn by_bytes(&self, middle: &Bytes) -> Option<Arc<Kept>> {
        let hash = xxhash_rust::xxh3::xxh3_128(middle);
        let make = || {
            Middle::compress(middle).map(|compressed| {
                Arc::new(Kept {
                    identity: middle.clone(),
                    key: Key::Bytes(hash),
                    compressed: Some(compressed),
                })
            })
        };
        // Concurrent misses of one key wait for one compression.
        let kept = self.inner.optionally_get_with(Key::Bytes(hash), make)?;
        if kept.identity == *middle {
            Some(kept)
        } else {
            // Another middle with the same hash: compressed for this
            // request only.
            make()
        }
    }

    /// Bytes held (approximate: moka settles its counts lazily).
    pub fn weighted_bytes(&self) -> u64 {
        self.inner.run_pending_tasks();
        self.inner.weighted_size()
    }
}

/// An answer of `response`'s, compressed from kept parts in `coding` when
/// its client takes gzip or brotli; every answer that carries an
/// [`Answer`] gets `Vary: Accept-Encoding` ([`layer::EncodeLayer`]).
pub fn encode(answers: &Answers, coding: Coding, mut response: Response) -> Response {
    let Some(answer) = response.extensions_mut().remove::<Answer>() else {
        return response;
    };
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    // A layer that swapped the body would have dropped the extension with
    // it; the length check keeps a mismatch from ever being sent.
    let same_body =
        http_body::Body::size_hint(response.body()).exact() == Some(answer.len() as u64);
    if !same_body || response.headers().contains_key(header::CONTENT_ENCODING) {
        return response;
    }
    if let (Some(encoded), Some(value)) = (answers.encode(&answer, coding), coding.header()) {
        *response.body_mut() = Body::new(encoded);
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_ENCODING, value);
        headers.remove(header::CONTENT_LENGTH);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cut_pagination_and_meta() {
        let list = br#"{"pagination":{"total":3,"has_more":true,"next_cursor":"a-b_c"},"markets":[{"meta":{"x":1}}],"meta":{"request_time":0.01}}"#;
        let spans = Spans::of(list);
        assert_eq!(
            &list[..spans.head_end],
            br#"{"pagination":{"total":3,"has_more":true,"next_cursor":"a-b_c"}"#
        );
        assert_eq!(
            &list[spans.tail_start..],
            br#""meta":{"request_time":0.01}}"#
        );
        let one = br#"{"market":{"id":"m"},"meta":{"request_time":0.01}}"#;
        let spans = Spans::of(one);
        assert_eq!(&one[..spans.head_end], b"{");
        assert_eq!(
            &one[spans.tail_start..],
            br#""meta":{"request_time":0.01}}"#
        );
        let bare = br#"{"pagination":null,"events":[]}"#;
        assert_eq!(
            Spans::of(bare),
            Spans {
                head_end: 1,
                tail_start: bare.len()
            }
        );
        // A `"meta":{` far from the end is not the answer's meta: no tail,
        // so everything after the head is compressed.
        let document = format!(
            r#"{{"components":{{"meta":{{"type":"object"}}}},"paths":"{}"}}"#,
            "p".repeat(MAX_TAIL)
        );
        assert_eq!(
            Spans::of(document.as_bytes()),
            Spans {
                head_end: 1,
                tail_start: document.len()
            }
        );
        assert_eq!(
            Spans::of(b""),
            Spans {
                head_end: 0,
                tail_start: 0
            }
        );
    }

    #[test]
    fn a_middle_is_compressed_once_and_each_answer_is_its_own() {
        let answers = Answers::new(MAX_BYTES);
        let items = "{\"id\":\"m\",\"title\":\"Will it rain\"},".repeat(100);
        let middle = format!(",\"markets\":[{items}],");
        let ends = |time: &str| {
            (
                Bytes::from(format!("{{\"pagination\":{{\"next_cursor\":\"c{time}\"}}")),
                Bytes::from(format!("\"meta\":{{\"request_time\":{time}}}}}")),
            )
        };
        let mut built = 0;
        for time in ["0.01", "0.2", "13"] {
            let (head, tail) = ends(time);
            let whole = [&head[..], middle.as_bytes(), &tail[..]].concat();
            let body = Answer::whole(Bytes::from(whole.clone()));
            let gzip = answers.encode(&body, Coding::Gzip).unwrap().concat();
            assert_eq!(frame::tests::gunzip(&gzip), whole);
            let br = answers.encode(&body, Coding::Brotli).unwrap().concat();
            assert_eq!(frame::tests::unbrotli(&br), whole);
            assert!(answers.encode(&body, Coding::Identity).is_none());
            // Named by what it is made of: built once, one more entry,
            // the same bytes in every coding.
            let kept = answers.kept(7, || {
                built += 1;
                middle.clone().into_bytes()
            });
            let (named, identity) = Answer::parts(head, &kept, tail);
            assert_eq!(identity.concat(), whole);
            let named_gzip = answers.encode(&named, Coding::Gzip).unwrap().concat();
            assert_eq!(named_gzip, gzip);
            let named_br = answers.encode(&named, Coding::Brotli).unwrap().concat();
            assert_eq!(frame::tests::unbrotli(&named_br), whole);
        }
        assert_eq!(built, 1);
        let weight = answers.weighted_bytes();
        assert_eq!(answers.inner.entry_count(), 2);
        assert!(weight > 6_000 && weight < 12_000, "{weight}");
    }

    #[test]
    fn an_identity_client_costs_no_compression() {
        let answers = Answers::new(MAX_BYTES);
        let middle = "{\"id\":\"m\"},".repeat(500);
        let kept = answers.kept(1, || middle.clone().into_bytes());
        assert!(kept.compressed.is_none());
        let (answer, _) = Answer::parts(Bytes::from_static(b"{"), &kept, Bytes::new());
        assert!(answers.encode(&answer, Coding::Identity).is_none());
        assert!(answers.kept(1, Vec::new).compressed.is_none());
        // The first compressed client compresses it, and it is kept so.
        assert!(answers.encode(&answer, Coding::Gzip).is_some());
        assert!(answers.kept(1, Vec::new).compressed.is_some());
    }

    #[test]
    fn the_bound_holds_whatever_is_asked() {
        let answers = Answers::new(200_000);
        for i in 0..200 {
            let body = Answer::whole(Bytes::from(format!(
                "{{\"x\":[{}{i}]}}",
                "1,".repeat(2_000)
            )));
            assert!(answers.encode(&body, Coding::Gzip).is_some());
        }
        assert!(
            answers.weighted_bytes() <= 200_000,
            "{}",
            answers.weighted_bytes()
        );
    }
}
