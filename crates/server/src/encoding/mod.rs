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
//! compression, never a wrong answer; or, for a page of a list, a hash of
//! what its middle is made of (`Answer::made_of`: the list, the rows and
//! how they are written), which spares hashing and comparing tens of KB
//! per request (11 % of the profile of a compressed list answer).
//!
//! Answers say they can be treated so by carrying [`Answer`] (set by
//! `routes::respond::bytes_response` and `routes::respond::list_response`);
//! any other answer (errors, the demo's files) is left to the compression
//! layer outside this one.

pub mod coding;
pub mod frame;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use bytes::Bytes;
use coding::Coding;
use frame::Middle;
use std::sync::Arc;

/// Bytes the kept middles may hold at most (compressed, both codings, and
/// the uncompressed copy a hit is compared with).
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// Middles shorter than this are not kept: the outer compression layer
/// compresses such answers per request, which costs less than keeping them.
pub const MIN_MIDDLE: usize = 1024;

/// The body of an answer that may be compressed from kept parts: it must
/// be the very bytes of the response's body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub body: Bytes,
    /// A hash of everything the middle is a function of, when its maker
    /// can name that (the data never changes while the server runs).
    pub made_of: Option<u128>,
}

/// What a kept middle is found by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// A hash of the middle's bytes (a hit is compared in full).
    Bytes(u128),
    /// `Answer::made_of`.
    MadeOf(u128),
}

/// Where an answer's varying head ends and its varying tail starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spans {
    pub head_end: usize,
    pub tail_start: usize,
}

impl Spans {
    /// The head is `{` and the pagination object when the answer starts
    /// with one (its members are numbers, booleans and a base64url cursor,
    /// so its first `}` ends it); the tail starts at the last `"meta":{`.
    pub fn of(body: &[u8]) -> Self {
        const PAGINATION: &[u8] = b"{\"pagination\":{";
        const META: &[u8] = b"\"meta\":{";
        let head_end = if body.starts_with(PAGINATION) {
            memchr::memchr(b'}', &body[PAGINATION.len()..]).map_or(1, |i| PAGINATION.len() + i + 1)
        } else {
            usize::from(!body.is_empty())
        };
        let tail_start = memchr::memmem::rfind(body, META)
            .filter(|&i| i >= head_end)
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

struct Kept {
    identity: Bytes,
    compressed: Middle,
}

impl Answers {
    pub fn new(max_bytes: u64) -> Self {
        let inner = moka::sync::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|_: &Key, kept: &Arc<Kept>| {
                // Plus the bookkeeping of one entry, roughly.
                u32::try_from(kept.identity.len() + kept.compressed.weight() + 128)
                    .unwrap_or(u32::MAX)
            })
            .build();
        Self { inner }
    }

    /// `body` in `coding`, or `None` to leave it as it is (identity asked
    /// for, a short middle, a compressor that failed).
    pub fn encode(&self, answer: &Answer, coding: Coding) -> Option<Vec<u8>> {
        let body = &answer.body;
        if coding == Coding::Identity {
            return None;
        }
        let spans = Spans::of(body);
        let middle = body.slice(spans.head_end..spans.tail_start);
        if middle.len() < MIN_MIDDLE {
            return None;
        }
        let kept = self.middle(&middle, answer.made_of)?;
        let (head, tail) = (&body[..spans.head_end], &body[spans.tail_start..]);
        Some(match coding {
            Coding::Gzip => kept.compressed.gzip(head, tail),
            Coding::Brotli => kept.compressed.brotli(head, tail),
            Coding::Identity => return None,
        })
    }

    /// The kept compression of `middle`, made now if none is kept.
    fn middle(&self, middle: &Bytes, made_of: Option<u128>) -> Option<Arc<Kept>> {
        let key = made_of.map_or_else(
            || Key::Bytes(xxhash_rust::xxh3::xxh3_128(middle)),
            Key::MadeOf,
        );
        let make = || {
            Middle::compress(middle).map(|compressed| {
                Arc::new(Kept {
                    identity: middle.clone(),
                    compressed,
                })
            })
        };
        // Concurrent misses of one key wait for one compression.
        let kept = self.inner.optionally_get_with(key, make)?;
        let same = match key {
            Key::Bytes(_) => kept.identity == *middle,
            // The maker vouches for it; the length is a free check.
            Key::MadeOf(_) => kept.identity.len() == middle.len(),
        };
        if same {
            Some(kept)
        } else {
            // Another middle with the same key: compressed for this
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

/// The layer's function: an [`Answer`] whose client takes gzip or brotli
/// is compressed from kept parts; every answer that carries one gets
/// `Vary: Accept-Encoding`.
pub async fn encode(State(answers): State<Arc<Answers>>, request: Request, next: Next) -> Response {
    let coding = Coding::accepted(request.headers());
    let mut response = next.run(request).await;
    let Some(answer) = response.extensions_mut().remove::<Answer>() else {
        return response;
    };
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    // A layer that swapped the body would have dropped the extension with
    // it; the length check keeps a mismatch from ever being sent.
    let same_body =
        http_body::Body::size_hint(response.body()).exact() == Some(answer.body.len() as u64);
    if !same_body || response.headers().contains_key(header::CONTENT_ENCODING) {
        return response;
    }
    if let (Some(encoded), Some(value)) = (answers.encode(&answer, coding), coding.header()) {
        *response.body_mut() = Body::from(encoded);
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
        let body = |time: &str| Answer {
            made_of: None,
            body: Bytes::from(format!(
                "{{\"pagination\":{{\"next_cursor\":\"c{time}\"}},\"markets\":[{items}],\"meta\":{{\"request_time\":{time}}}}}"
            )),
        };
        for time in ["0.01", "0.2", "13"] {
            let body = body(time);
            let gzip = answers.encode(&body, Coding::Gzip).unwrap();
            assert_eq!(frame::tests::gunzip(&gzip), body.body);
            let br = answers.encode(&body, Coding::Brotli).unwrap();
            assert_eq!(frame::tests::unbrotli(&br), body.body);
            assert_eq!(answers.encode(&body, Coding::Identity), None);
            // Named by what it is made of: one more entry, the same bytes.
            let named = Answer {
                made_of: Some(7),
                ..body.clone()
            };
            assert_eq!(answers.encode(&named, Coding::Gzip), Some(gzip));
        }
        let weight = answers.weighted_bytes();
        assert_eq!(answers.inner.entry_count(), 2);
        assert!(weight > 6_000 && weight < 12_000, "{weight}");
    }

    #[test]
    fn the_bound_holds_whatever_is_asked() {
        let answers = Answers::new(200_000);
        for i in 0..200 {
            let body = Answer {
                body: Bytes::from(format!("{{\"x\":[{}{i}]}}", "1,".repeat(2_000))),
                made_of: None,
            };
            assert!(answers.encode(&body, Coding::Gzip).is_some());
        }
        assert!(
            answers.weighted_bytes() <= 200_000,
            "{}",
            answers.weighted_bytes()
        );
    }
}
