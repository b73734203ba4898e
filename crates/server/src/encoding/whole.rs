//! Whole answers kept for the second they are true: a page of a list in
//! one coding, everything but its tail already written and compressed,
//! kept for the exact query that asked for it, and served again only in
//! the second it was made.
//!
//! Why a page is the same answer for a whole second, and what is still
//! each request's own: a page is a function of its query (as sent), the
//! data (which never changes while the server runs), the failing
//! platforms (fixed at start-up) and the current second, which its
//! pagination's `next_cursor` carries (the cursor is a deterministic
//! HMAC of the list, the offset and the second it was issued, `cursor`;
//! a cursor in the query is checked against the same second). So within
//! that second every byte of the head and the middle is what this
//! request would have written itself. The one member that is a function
//! of the request alone, `meta.request_time` (how long it took), is
//! written for each request into the tail, after the rest: a stored
//! block of a few hundred bytes, the gzip CRC carried on from the kept
//! state of everything before it. Nothing is frozen past its second, and
//! no request waits for a compression its page had already had.
//!
//! Compared to assembling the page per request (`encoding::Answers`
//! with the head written per request), a hit skips reading the query,
//! selecting the rows, the cursor's HMAC, naming and finding the kept
//! middle, and the head's stored block and CRC combination: the answer is
//! one kept piece and a tail (docs/benchmarks.md, "Seventh round").

use super::coding::Coding;
use super::frame;
use super::{Answers, Kept, MIN_MIDDLE};
use crate::encoding::chunks::Chunks;
use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use bytes::Bytes;
use std::sync::Arc;
use std::time::Duration;

/// Bytes the kept whole answers may hold at most.
pub const MAX_BYTES: u64 = 32 * 1024 * 1024;
/// How long an entry stays at most: it is served only in the second it
/// was made, so anything older is dead weight (moka drops it).
const LIFETIME: Duration = Duration::from_secs(2);

/// Whole answers by (query, coding): moka, bounded by bytes and by time.
pub struct WholeAnswers {
    inner: moka::sync::Cache<u128, Arc<Whole>>,
}

/// One page in one coding, but for its tail's request time.
pub struct Whole {
    /// What it answers, compared in full on a hit (the cache's key is a
    /// hash of them).
    query: Box<str>,
    coding: Coding,
    /// The Unix second its head was written in.
    second: i64,
    /// The answer up to its tail, in its coding (for gzip and brotli the
    /// stream's header, the head as stored blocks, the kept compressed
    /// middle): sent as it is.
    front: Bytes,
    /// gzip: the CRC-32 state of the uncompressed bytes before the tail.
    crc: crc32fast::Hasher,
    /// Uncompressed bytes before the tail.
    len_before: usize,
    /// The tail is `tail_before`, this request's time in milliseconds,
    /// `tail_after`.
    tail_before: &'static str,
    tail_after: Box<str>,
}

/// The parts a page is made of, but for its request time.
pub struct PageParts<'a> {
    /// The head, as written (`{"pagination":{…}`).
    pub head: &'a [u8],
    pub kept: &'a Arc<Kept>,
    pub tail_before: &'static str,
    pub tail_after: &'a str,
}

impl WholeAnswers {
    pub fn new(max_bytes: u64) -> Self {
        let inner = moka::sync::Cache::builder()
            .max_capacity(max_bytes)
            .time_to_live(LIFETIME)
            .weigher(|_: &u128, whole: &Arc<Whole>| {
                let bytes = whole.front.len() + whole.query.len() + whole.tail_after.len() + 160;
                u32::try_from(bytes).unwrap_or(u32::MAX)
            })
            .build();
        Self { inner }
    }

    /// The page kept for `query` in `coding`, if it was made in `second`.
    pub fn find(&self, query: &str, coding: Coding, second: i64) -> Option<Arc<Whole>> {
        let whole = self.inner.get(&key(query, coding))?;
        (whole.second == second && whole.coding == coding && *whole.query == *query)
            .then_some(whole)
    }

    /// The page of `parts`, made in `second`, kept for `query` in
    /// `coding`; `None` when it is not kept so (a middle too short to
    /// compress from kept parts, a compressor that failed): the caller
    /// answers as before.
    pub fn keep(
        &self,
        answers: &Answers,
        (query, coding): (&str, Coding),
        second: i64,
        parts: &PageParts<'_>,
    ) -> Option<Arc<Whole>> {
        let PageParts { head, kept, .. } = parts;
        let middle_len = kept.identity.len();
        let mut crc = crc32fast::Hasher::new();
        let front = match coding {
            Coding::Identity => [*head, &kept.identity[..]].concat(),
            _ if middle_len < MIN_MIDDLE => return None,
            Coding::Gzip => {
                let kept = answers.compressed(kept)?;
                let middle = kept.compressed.as_ref()?;
                crc = middle.crc_after(head);
                let mut front = Vec::with_capacity(head.len() + middle.deflate.len() + 32);
                frame::gzip_prefix(&mut front, head);
                front.extend_from_slice(&middle.deflate);
                front
            }
            Coding::Brotli => {
                let kept = answers.compressed(kept)?;
                let middle = kept.compressed.as_ref()?;
                let mut front = Vec::with_capacity(head.len() + middle.brotli.len() + 16);
                frame::brotli_prefix(&mut front, head);
                front.extend_from_slice(&middle.brotli);
                front
            }
        };
        let whole = Arc::new(Whole {
            query: query.into(),
            coding,
            second,
            front: Bytes::from(front),
            crc,
            len_before: head.len() + middle_len,
            tail_before: parts.tail_before,
            tail_after: parts.tail_after.into(),
        });
        self.inner.insert(key(query, coding), whole.clone());
        Some(whole)
    }

    /// Bytes held (approximate: moka settles its counts lazily).
    pub fn weighted_bytes(&self) -> u64 {
        self.inner.run_pending_tasks();
        self.inner.weighted_size()
    }
}

fn key(query: &str, coding: Coding) -> u128 {
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    hash.update(&[coding as u8]);
    hash.update(query.as_bytes());
    hash.digest128()
}

impl Whole {
    /// This request's answer: the kept front, then the tail with
    /// `request_time_ms`, in the page's coding, with the headers a page
    /// leaves the encode layer with (`encoding::encode`).
    pub fn answer(&self, request_time_ms: f64) -> Response {
        let mut tail = Vec::with_capacity(self.tail_before.len() + self.tail_after.len() + 40);
        tail.extend_from_slice(self.tail_before.as_bytes());
        tail.extend_from_slice(ryu::Buffer::new().format(request_time_ms).as_bytes());
        tail.extend_from_slice(self.tail_after.as_bytes());
        let piece = match self.coding {
            Coding::Identity => tail,
            Coding::Gzip => {
                let mut piece = Vec::with_capacity(tail.len() + 16);
                frame::gzip_suffix(&mut piece, &tail, self.crc.clone(), self.len_before);
                piece
            }
            Coding::Brotli => {
                let mut piece = Vec::with_capacity(tail.len() + 8);
                frame::brotli_suffix(&mut piece, &tail);
                piece
            }
        };
        let body = Chunks::new(self.front.clone(), Bytes::new(), Bytes::from(piece));
        let mut response = Response::new(Body::new(body));
        let headers = response.headers_mut();
        // Room for the headers the layers add (as `routes::respond` makes).
        headers.reserve(12);
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        if let Some(value) = self.coding.header() {
            headers.insert(header::CONTENT_ENCODING, value);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::frame::tests::{gunzip, unbrotli};

    async fn body_of(response: Response) -> Vec<u8> {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await;
        bytes.map(|b| b.to_vec()).unwrap_or_default()
    }

    fn decoded(coding: Coding, bytes: &[u8]) -> Vec<u8> {
        match coding {
            Coding::Identity => bytes.to_vec(),
            Coding::Gzip => gunzip(bytes),
            Coding::Brotli => unbrotli(bytes),
        }
    }

    #[tokio::test]
    async fn a_kept_page_is_each_requests_own_in_every_coding() {
        let answers = Answers::new(crate::encoding::MAX_BYTES);
        let wholes = WholeAnswers::new(MAX_BYTES);
        let middle = ",\"markets\":[".to_owned() + &"{\"id\":\"m\"},".repeat(300) + "{}],";
        let kept = answers.kept(3, || middle.clone().into_bytes());
        let head = br#"{"pagination":{"next_cursor":"c"}"#;
        let (before, after) = (r#""meta":{"request_time":"#, r#","cache_hit":false}}"#);
        let parts = PageParts {
            head,
            kept: &kept,
            tail_before: before,
            tail_after: after,
        };
        for coding in [Coding::Identity, Coding::Gzip, Coding::Brotli] {
            let whole = wholes.keep(&answers, ("limit=25", coding), 100, &parts);
            let whole = whole.expect("kept");
            for time in [0.003, 12.5] {
                let expected = format!(
                    "{}{middle}{before}{}{after}",
                    std::str::from_utf8(head).unwrap_or_default(),
                    ryu::Buffer::new().format(time)
                );
                let response = whole.answer(time);
                assert_eq!(
                    response.headers().get(header::CONTENT_ENCODING),
                    coding.header().as_ref()
                );
                let got = decoded(coding, &body_of(response).await);
                assert_eq!(String::from_utf8_lossy(&got), expected, "{coding:?}");
            }
            // Found for its query, coding and second only.
            assert!(wholes.find("limit=25", coding, 100).is_some());
            assert!(wholes.find("limit=25", coding, 101).is_none());
            assert!(wholes.find("limit=26", coding, 100).is_none());
        }
        assert!(wholes.find("limit=25", Coding::Gzip, 100).is_some());
    }

    #[test]
    fn a_short_middle_is_not_kept_compressed() {
        let answers = Answers::new(crate::encoding::MAX_BYTES);
        let wholes = WholeAnswers::new(MAX_BYTES);
        let kept = answers.kept(4, || b",\"markets\":[]".to_vec());
        let parts = PageParts {
            head: b"{\"pagination\":{}",
            kept: &kept,
            tail_before: "\"meta\":{\"request_time\":",
            tail_after: "}}",
        };
        assert!(
            wholes
                .keep(&answers, ("", Coding::Gzip), 1, &parts)
                .is_none()
        );
        assert!(
            wholes
                .keep(&answers, ("", Coding::Brotli), 1, &parts)
                .is_none()
        );
        assert!(
            wholes
                .keep(&answers, ("", Coding::Identity), 1, &parts)
                .is_some()
        );
    }

    #[test]
    fn the_bound_holds_whatever_is_asked() {
        let answers = Answers::new(crate::encoding::MAX_BYTES);
        let wholes = WholeAnswers::new(300_000);
        let kept = answers.kept(5, || "{\"id\":1},".repeat(2_000).into_bytes());
        let parts = PageParts {
            head: b"{\"pagination\":{}",
            kept: &kept,
            tail_before: "\"meta\":{\"request_time\":",
            tail_after: "}}",
        };
        for i in 0..200 {
            let query = format!("offset={i}");
            assert!(
                wholes
                    .keep(&answers, (&query, Coding::Identity), 1, &parts)
                    .is_some()
            );
        }
        assert!(
            wholes.weighted_bytes() <= 300_000,
            "{}",
            wholes.weighted_bytes()
        );
    }
}
