//! The respond phase: an entry becomes the visitor's answer, with its
//! `X-Cache` verdict, its age, its compressed bytes in the coding the
//! visitor takes, and (served stale) the marked body.

use super::cache::Entry;
use super::state::ProxyState;
use crate::encoding::coding::Coding;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

/// The coding the visitor takes, and the counter of compressions (for an
/// answer not compressed yet).
pub(super) type Takes<'a> = (Coding, &'a std::sync::atomic::AtomicU64);

/// An entry's answer: its bytes in the visitor's coding, compressed once
/// when it was stored (the compression layers leave an answer with a
/// `Content-Encoding` alone), else its body.
pub(super) fn respond(entry: &Entry, how: &'static str, now_ms: u64, takes: Takes<'_>) -> Response {
    let (coding, compressions) = takes;
    let compressed = match coding {
        Coding::Identity => None,
        Coding::Gzip => entry.compressed(compressions).gzip.clone(),
        Coding::Brotli => entry.compressed(compressions).brotli.clone(),
    };
    let encoding = compressed.as_ref().and(coding.header());
    let mut response = Response::new(Body::from(compressed.unwrap_or_else(|| entry.body.clone())));
    *response.status_mut() =
        StatusCode::from_u16(entry.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(encoding) = encoding {
        headers.insert(header::CONTENT_ENCODING, encoding);
    }
    headers.insert("x-cache", HeaderValue::from_static(how));
    if matches!(how, "HIT" | "UPDATING" | "STALE") {
        headers.insert(header::AGE, HeaderValue::from(entry.age_ms(now_ms) / 1000));
    }
    if let Some(secs) = entry.retry_after {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// A stale entry, marked: `X-Cache: STALE` and `meta.stale: true` with
/// `meta.stale_age_seconds` (`stale`: no JSON work per request).
pub(super) fn respond_stale(state: &ProxyState, key: &str, entry: &Entry, now_ms: u64) -> Response {
    let body = state.stale.body(key, entry, entry.age_ms(now_ms) / 1000);
    // Uncompressed: the body is swapped for the marked one (the server's
    // compression layer compresses it for a visitor who asks).
    let mut response = respond(
        entry,
        "STALE",
        now_ms,
        (Coding::Identity, &state.cache.compressions),
    );
    *response.body_mut() = Body::from(body);
    response.headers_mut().remove(header::RETRY_AFTER);
    response
}
