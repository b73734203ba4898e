//! Building answers: JSON bodies from models, and list envelopes spliced
//! from the JSON kept at start-up.

use crate::encoding::{Answer, Answers, Kept};
use crate::error::ApiError;
use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::Arc;

/// A 200 with the JSON of `value`.
pub fn json<T: Serialize>(value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(bytes) => bytes_response(bytes),
        Err(_) => ApiError::internal("could not encode the answer").into_response(),
    }
}

/// A 200 with `bytes` (JSON), marked as an [`Answer`] that may be
/// compressed from kept parts (`crate::encoding`).
pub fn bytes_response(bytes: Vec<u8>) -> Response {
    let body = Bytes::from(bytes);
    answer_response(Body::from(body.clone()), Answer::whole(body))
}

/// What a page of a list is: its middle (`list_middle`) is a function of
/// the list's `key`, its rows and whether they carry raw data, which
/// names it for the kept middles (`encoding::Answers::kept`).
pub struct Page<'a> {
    pub key: &'a str,
    pub include_raw: bool,
    pub rows: &'a [u32],
}

/// The kept middle of `page` (`encoding::Answers::kept`), named by what
/// it is made of; `items` are written only when it is not kept already.
pub fn kept_middle<'a>(
    answers: &Answers,
    page: &Page<'_>,
    items: impl FnOnce() -> Vec<Cow<'a, str>>,
) -> Arc<Kept> {
    let mut made_of = xxhash_rust::xxh3::Xxh3::new();
    made_of.update(page.key.as_bytes());
    made_of.update(&[u8::from(page.include_raw)]);
    for row in page.rows {
        made_of.update(&row.to_le_bytes());
    }
    answers.kept(made_of.digest128(), || {
        let items = items();
        let mut middle = Vec::with_capacity(middle_len(page.key, &items));
        write_middle(&mut middle, page.key, &items);
        middle
    })
}

/// A page of a list (the shape of `list_body`) from its kept middle
/// (`kept_middle`), this request's `pagination` and `meta` written around
/// it: sent as head, kept middle and tail, never copied into one buffer.
pub fn parts_response(kept: &Arc<Kept>, pagination: &str, meta: &str) -> Response {
    let mut head = Vec::with_capacity(pagination.len() + HEAD.len());
    write_head(&mut head, pagination);
    let mut tail = Vec::with_capacity(meta.len() + TAIL.len() + 1);
    write_tail(&mut tail, meta);
    let (answer, body) = Answer::parts(head.into(), kept, tail.into());
    answer_response(Body::new(body), answer)
}

/// The head of a list answer: `{"pagination":` and `pagination`.
pub fn list_head(pagination: &str) -> Vec<u8> {
    let mut head = Vec::with_capacity(pagination.len() + HEAD.len());
    write_head(&mut head, pagination);
    head
}

/// A list answer's tail around its one member that is a function of the
/// request alone, `meta.request_time`: the text before it (a constant)
/// and after it (`meta_rest`, from `paging::list_meta_rest`, and the
/// answer's closing brace). `write_tail` of `list_meta_json`'s text is
/// the same bytes with the time between.
pub fn list_tail_around_time(meta_rest: &str) -> (&'static str, String) {
    const BEFORE: &str = concat!(r#""meta":"#, r#"{"request_time":"#);
    debug_assert_eq!(&BEFORE[..TAIL.len()], TAIL);
    debug_assert_eq!(&BEFORE[TAIL.len()..], super::paging::META_TIME);
    let mut after = String::with_capacity(meta_rest.len() + 1);
    after.push_str(meta_rest);
    after.push('}');
    (BEFORE, after)
}

/// Headers an answer leaves with (its type, `Vary`, `nosniff`,
/// `Cache-Control`, CORS's two, the rate limit's three), room made once:
/// a map grown header by header was reallocated twice per answer
/// (docs/benchmarks.md, "Fourth round").
const ANSWER_HEADERS: usize = 12;

fn answer_response(body: Body, answer: Answer) -> Response {
    let mut response = Response::new(body);
    response.extensions_mut().insert(answer);
    let headers = response.headers_mut();
    headers.reserve(ANSWER_HEADERS);
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// Writes a JSON object from members whose values are JSON already:
/// `object(&[("a", "1"), ("b", "[2]")])` → `{"a":1,"b":[2]}`.
pub fn object(members: &[(&str, &str)]) -> Vec<u8> {
    let size = members
        .iter()
        .map(|(k, v)| k.len() + v.len() + 4)
        .sum::<usize>()
        + 2;
    let mut out = Vec::with_capacity(size);
    out.push(b'{');
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\":");
        out.extend_from_slice(value.as_bytes());
    }
    out.push(b'}');
    out
}

/// A list answer, `{"pagination":…,"<key>":[items],"meta":…}`, written
/// once into a buffer of its exact size: a page of markets is tens of KB,
/// and assembling the array apart and then the object copied it twice.
/// (Handing the stored items to hyper as separate chunks, with no copy at
/// all, was slower: 27 000 against 37 000 req/s in the load bench, as the
/// answer then takes several writes; a page of markets is three pieces,
/// `parts_response`.)
pub fn list_body(pagination: &str, key: &str, items: &[Cow<'_, str>], meta: &str) -> Vec<u8> {
    let size = HEAD.len() + pagination.len() + middle_len(key, items) + TAIL.len() + meta.len() + 1;
    let mut out = Vec::with_capacity(size);
    write_head(&mut out, pagination);
    write_middle(&mut out, key, items);
    write_tail(&mut out, meta);
    out
}

/// A list answer's three parts: the head (what varies per request: the
/// pagination and its cursor), the middle (what the rows say) and the tail
/// (the meta, with this request's time); `encoding::Spans` cuts an answer
/// at the same places.
const HEAD: &str = r#"{"pagination":"#;
const TAIL: &str = r#""meta":"#;

fn write_head(out: &mut Vec<u8>, pagination: &str) {
    out.extend_from_slice(HEAD.as_bytes());
    out.extend_from_slice(pagination.as_bytes());
}

/// `,"<key>":[items],`
fn write_middle(out: &mut Vec<u8>, key: &str, items: &[Cow<'_, str>]) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(item.as_bytes());
    }
    out.extend_from_slice(b"],");
}

fn middle_len(key: &str, items: &[Cow<'_, str>]) -> usize {
    key.len() + items.iter().map(|i| i.len()).sum::<usize>() + items.len().saturating_sub(1) + 7
}

fn write_tail(out: &mut Vec<u8>, meta: &str) {
    out.extend_from_slice(TAIL.as_bytes());
    out.extend_from_slice(meta.as_bytes());
    out.push(b'}');
}

/// A JSON array of JSON texts.
pub fn array<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item);
    }
    out.push(']');
    out
}

/// The JSON text of a value (`null` if it cannot be encoded).
pub fn text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// Adds `"key":value` (value already JSON) to the JSON object `object`.
pub fn with_member(object: &str, key: &str, value: &str) -> String {
    let trimmed = object.trim_end();
    let Some(body) = trimmed.strip_suffix('}') else {
        return object.to_owned();
    };
    let empty = body.trim_end().ends_with('{');
    let mut out = String::with_capacity(object.len() + key.len() + value.len() + 4);
    out.push_str(body);
    if !empty {
        out.push(',');
    }
    out.push('"');
    out.push_str(key);
    out.push_str("\":");
    out.push_str(value);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splicing() {
        assert_eq!(object(&[("a", "1"), ("b", "[2]")]), br#"{"a":1,"b":[2]}"#);
        assert_eq!(array(["{}", "{}"].into_iter()), "[{},{}]");
        assert_eq!(
            with_member(r#"{"id":"x"}"#, "m", "[]"),
            r#"{"id":"x","m":[]}"#
        );
        assert_eq!(with_member("{}", "m", "1"), r#"{"m":1}"#);
        let items = [Cow::Borrowed("{}"), Cow::Owned("[1]".to_owned())];
        let body = list_body("{}", "markets", &items, "{\"m\":2}");
        assert_eq!(
            body,
            br#"{"pagination":{},"markets":[{},[1]],"meta":{"m":2}}"#
        );
        assert_eq!(body.capacity(), body.len());
        let empty = list_body("null", "events", &[], "{}");
        assert_eq!(empty, br#"{"pagination":null,"events":[],"meta":{}}"#);
    }
}
