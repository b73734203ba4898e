//! Cursor paging and the `meta` objects shared by the list operations.

use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::time::now_unix;
use crate::error::ApiError;
use crate::state::SharedState;
use predmarket_core::models::{ListMeta, Pagination, PlatformError, PlatformId, SportsMeta};
use std::collections::BTreeMap;

/// Where a page starts and how long it is.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub offset: usize,
    pub limit: u32,
}

impl Window {
    /// `limit` (already capped by the request's checks; `default` when
    /// absent), `cursor` and `offset` of a request: the cursor must verify
    /// for `scope`; without one, the page starts at `offset` (as the public
    /// service's older pages let a client ask; past the end, the page is
    /// empty).
    pub fn read(
        state: &SharedState,
        scope: &Scope,
        limit: Option<u32>,
        (cursor, offset): (Option<&str>, Option<u64>),
        default: u32,
    ) -> Result<Self, ApiError> {
        let offset = match cursor {
            None => usize::try_from(offset.unwrap_or(0)).unwrap_or(usize::MAX),
            Some(token) => state
                .cursors
                .open(scope, token, now_unix().max(0) as u64)
                .map_err(ApiError::invalid_cursor)? as usize,
        };
        Ok(Self {
            offset,
            limit: limit.unwrap_or(default),
        })
    }

    pub fn end(&self) -> usize {
        self.offset.saturating_add(self.limit as usize)
    }

    /// This page of `items`, and how many items there are in all.
    pub fn take<T>(&self, items: impl IntoIterator<Item = T>) -> (usize, Vec<T>) {
        page_of(items, self.offset, self.limit as usize)
    }

    /// The pagination object of this page of a list of `total` items.
    pub fn pagination(&self, state: &SharedState, scope: &Scope, total: usize) -> Pagination {
        let has_more = self.end() < total;
        Pagination {
            total: Some(total as f64),
            limit: Some(f64::from(self.limit)),
            has_more: Some(has_more),
            next_cursor: has_more.then(|| {
                state
                    .cursors
                    .issue(scope, self.end() as u32, now_unix().max(0) as u64)
            }),
            ..Pagination::default()
        }
    }

    /// The JSON of [`Window::pagination`], written directly (the lists'
    /// hot path); a test holds it to serde's text.
    pub fn pagination_json(&self, state: &SharedState, scope: &Scope, total: usize) -> String {
        let next_cursor = (self.end() < total).then(|| {
            state
                .cursors
                .issue(scope, self.end() as u32, now_unix().max(0) as u64)
        });
        write_pagination(total, self.limit, next_cursor.as_deref())
    }
}

/// `{"total":…,"limit":…,"has_more":…,"next_cursor":…}`, more pages when
/// there is a cursor.
fn write_pagination(total: usize, limit: u32, next_cursor: Option<&str>) -> String {
    use std::fmt::Write;
    // One buffer, written once: the lists' hot path.
    let mut out = String::with_capacity(80 + next_cursor.map_or(0, str::len));
    let _ = write!(
        out,
        r#"{{"total":{total},"limit":{limit},"has_more":{},"next_cursor":"#,
        next_cursor.is_some()
    );
    match next_cursor {
        Some(cursor) => push_json_str(&mut out, cursor),
        None => out.push_str("null"),
    }
    out.push('}');
    out
}

/// The `limit` items from `offset` on, and the count of all items: every
/// list operation pages its matches through this one walk.
pub fn page_of<T>(
    items: impl IntoIterator<Item = T>,
    offset: usize,
    limit: usize,
) -> (usize, Vec<T>) {
    let mut total = 0usize;
    let mut page = Vec::with_capacity(limit.min(256));
    for item in items {
        if total >= offset && page.len() < limit {
            page.push(item);
        }
        total += 1;
    }
    (total, page)
}

/// The pagination object of an answer that is one item by id.
pub fn single_page() -> Pagination {
    Pagination {
        total: Some(1.0),
        limit: Some(1.0),
        has_more: Some(false),
        next_cursor: None,
        ..Pagination::default()
    }
}

/// The wire ids of platform labels.
pub fn platform_ids(state: &SharedState, labels: &[&str]) -> Vec<PlatformId> {
    let names = state.data.options.names;
    labels
        .iter()
        .map(|p| PlatformId::from(names.wire(p)))
        .collect()
}

/// 503 for a platform that is down, named as the wire names it.
pub fn unavailable(state: &SharedState, label: &str) -> ApiError {
    ApiError::platform_unavailable(state.data.options.names.wire(label))
}

/// `meta` of markets, events and series.
pub fn list_meta(state: &SharedState, started: &Started, queried: Option<&[&str]>) -> ListMeta {
    ListMeta {
        request_time: Some(started.elapsed_ms()),
        cache_hit: Some(false),
        data_freshness: Some(state.data.freshness().to_owned()),
        platforms_queried: queried.map(|q| platform_ids(state, q)),
        platform_errors: None,
        ..Default::default()
    }
}

/// The platforms of `candidates` that answer, and the errors of those
/// that fail (`--fail-platform`).
pub fn split_down<'a>(
    state: &SharedState,
    candidates: &[&'a str],
) -> (Vec<&'a str>, BTreeMap<String, PlatformError>) {
    let mut up = Vec::with_capacity(candidates.len());
    let mut errors = BTreeMap::new();
    let names = state.data.options.names;
    for p in candidates {
        if state.faults.is_down(p) {
            let wire = names.wire(p);
            errors.insert(
                wire.to_owned(),
                PlatformError {
                    code: Some("PLATFORM_UNAVAILABLE".to_owned()),
                    message: Some(format!("{wire} did not answer")),
                },
            );
        } else {
            up.push(*p);
        }
    }
    (up, errors)
}

/// `meta` of sports answers.
pub fn sports_meta(
    state: &SharedState,
    started: &Started,
    queried: &[&str],
    errors: BTreeMap<String, PlatformError>,
) -> SportsMeta {
    SportsMeta {
        platforms_queried: Some(platform_ids(state, queried)),
        request_time: Some(started.elapsed_ms()),
        data_freshness: Some(state.data.freshness().to_owned()),
        platform_errors: Some(errors),
        ..Default::default()
    }
}

/// `meta` of a list answer as JSON: the text `serde_json` gives for
/// [`list_meta`] with `errors` as its `platform_errors`, written directly,
/// since every page of every list pays for it.
pub fn list_meta_json(
    state: &SharedState,
    started: &Started,
    queried: &[&str],
    errors: &BTreeMap<String, PlatformError>,
) -> String {
    let names = state.data.options.names;
    write_list_meta(
        started.elapsed_ms(),
        state.data.freshness(),
        queried.iter().map(|label| names.wire(label)),
        errors,
    )
}

/// `text` as a JSON string, as `serde_json` writes it: without a copy of
/// its own when nothing in it needs escaping (the data's names and times
/// never do), which saves every list answer an allocation a name.
fn push_json_str(out: &mut String, text: &str) {
    if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        out.push_str(&super::respond::text(&text));
    }
}

/// The start of a list answer's `meta`, up to its request time.
pub const META_TIME: &str = r#"{"request_time":"#;

/// See [`list_meta_json`]; a test holds it to `serde_json` of `ListMeta`.
fn write_list_meta<'a>(
    request_time: f64,
    freshness: &str,
    queried: impl Iterator<Item = &'a str>,
    errors: &BTreeMap<String, PlatformError>,
) -> String {
    let mut out = String::with_capacity(160);
    out.push_str(META_TIME);
    out.push_str(ryu::Buffer::new().format(request_time));
    write_meta_rest(&mut out, freshness, queried, errors);
    out
}

/// A list answer's `meta` after its request time (`,"cache_hit":…}`):
/// the same for every request of one page (`routes::kept`), as the data,
/// its freshness and the failing platforms never change while the server
/// runs.
pub fn list_meta_rest(
    state: &SharedState,
    queried: &[&str],
    errors: &BTreeMap<String, PlatformError>,
) -> String {
    let names = state.data.options.names;
    let mut out = String::with_capacity(140);
    write_meta_rest(
        &mut out,
        state.data.freshness(),
        queried.iter().map(|label| names.wire(label)),
        errors,
    );
    out
}

fn write_meta_rest<'a>(
    out: &mut String,
    freshness: &str,
    queried: impl Iterator<Item = &'a str>,
    errors: &BTreeMap<String, PlatformError>,
) {
    out.push_str(r#","cache_hit":false,"data_freshness":"#);
    push_json_str(out, freshness);
    out.push_str(r#","platforms_queried":["#);
    for (i, wire) in queried.enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_str(out, wire);
    }
    out.push(']');
    if !errors.is_empty() {
        out.push_str(r#","platform_errors":"#);
        out.push_str(&super::respond::text(errors));
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pagination_written_directly_is_serdes() {
        for (total, limit, cursor) in [
            (0, 25, None),
            (5000, 250, Some("abc-_.~")),
            (usize::MAX >> 12, u32::MAX, Some("a\"b")),
        ] {
            let pagination = Pagination {
                total: Some(total as f64),
                limit: Some(f64::from(limit)),
                has_more: Some(cursor.is_some()),
                next_cursor: cursor.map(str::to_owned),
                ..Pagination::default()
            };
            assert_eq!(
                write_pagination(total, limit, cursor),
                super::super::respond::text(&pagination)
            );
        }
    }

    #[test]
    fn the_list_meta_written_directly_is_serdes() {
        let mut errors = BTreeMap::new();
        for failing in [false, true] {
            if failing {
                errors.insert(
                    "kalshi".to_owned(),
                    PlatformError {
                        code: Some("PLATFORM_UNAVAILABLE".to_owned()),
                        message: Some("kalshi did not answer \"now\"".to_owned()),
                    },
                );
            }
            for request_time in [0.0, 1.0, 0.042, 12.345, 1234.5] {
                let queried = ["polymarket", "kalshi", "a\"b"];
                let meta = ListMeta {
                    request_time: Some(request_time),
                    cache_hit: Some(false),
                    data_freshness: Some("2026-11-24T00:00:00Z".to_owned()),
                    platforms_queried: Some(queried.iter().map(|q| PlatformId::from(*q)).collect()),
                    platform_errors: failing.then(|| errors.clone()),
                    ..Default::default()
                };
                let direct = write_list_meta(
                    request_time,
                    "2026-11-24T00:00:00Z",
                    queried.into_iter(),
                    &errors,
                );
                assert_eq!(direct, super::super::respond::text(&meta));
            }
        }
    }
}
