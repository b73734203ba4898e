//! Building answers: JSON bodies from models, and list envelopes spliced
//! from the JSON kept at start-up.

use crate::encoding::Answer;
use crate::error::ApiError;
use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::borrow::Cow;

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
    answer_response(bytes, None)
}

/// A page of a list (`list_body`): its middle is a function of the list's
/// `key`, its rows and whether they carry raw data, which names it for
/// the compressed-answer cache without hashing its bytes.
pub fn list_response(bytes: Vec<u8>, key: &str, include_raw: bool, rows: &[u32]) -> Response {
    let mut made_of = xxhash_rust::xxh3::Xxh3::new();
    made_of.update(key.as_bytes());
    made_of.update(&[u8::from(include_raw)]);
    for row in rows {
        made_of.update(&row.to_le_bytes());
    }
    answer_response(bytes, Some(made_of.digest128()))
}

fn answer_response(bytes: Vec<u8>, made_of: Option<u128>) -> Response {
    let body = bytes::Bytes::from(bytes);
    let mut response = Response::new(Body::from(body.clone()));
    response.extensions_mut().insert(Answer { body, made_of });
    response.headers_mut().insert(
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
/// answer then takes several writes.)
pub fn list_body(pagination: &str, key: &str, items: &[Cow<'_, str>], meta: &str) -> Vec<u8> {
    let size = pagination.len()
        + key.len()
        + meta.len()
        + items.iter().map(|i| i.len()).sum::<usize>()
        + items.len().saturating_sub(1)
        + r#"{"pagination":,"":[],"meta":}"#.len();
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(br#"{"pagination":"#);
    out.extend_from_slice(pagination.as_bytes());
    out.extend_from_slice(b",\"");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(item.as_bytes());
    }
    out.extend_from_slice(br#"],"meta":"#);
    out.extend_from_slice(meta.as_bytes());
    out.push(b'}');
    out
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
