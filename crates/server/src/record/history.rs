//! `GET /history?resource=KIND:ID&from=…&to=…&limit=…`: a resource's
//! recorded rows, read from the archive on disk. A documented extension
//! (`x-history` in `/openapi.json`), served where the server records or
//! replays, behind the same key and budget as the operations. Bounded per
//! request: a window of at most `MAX_WINDOW_MS`, at most `MAX_LIMIT` rows,
//! only the day partitions the window touches read; a longer history is
//! paged with `meta.next_from`.

use super::archive::{self, Filter, Recorded};
use super::replay::Clock;
use crate::error::ApiError;
use crate::proxy::{self, ProxyState};
use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use predmarket_core::change::WatchKind;
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

pub use predmarket_core::history::{DEFAULT_LIMIT, MAX_LIMIT, MAX_WINDOW_MS};
use predmarket_core::history::{DEFAULT_WINDOW_MS, PATH};

/// The query, with the names of the document.
#[derive(Debug, Deserialize)]
pub struct HistoryQuery {
    pub resource: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub limit: Option<String>,
}

/// What a valid query asks for.
#[derive(Debug, PartialEq)]
pub struct Asked {
    pub kind: WatchKind,
    pub id: String,
    pub from_ms: i64,
    pub to_ms: i64,
    pub limit: usize,
}

/// Checks a query against the bounds, `now_ms` standing for a missing `to`.
pub fn asked(query: &HistoryQuery, now_ms: i64) -> Result<Asked, ApiError> {
    let resource = query
        .resource
        .as_deref()
        .ok_or_else(|| ApiError::invalid("resource", "required: KIND:ID"))?;
    let (kind, id) = resource
        .split_once(':')
        .and_then(|(k, id)| Some((WatchKind::from_name(k)?, id)))
        .filter(|(_, id)| !id.is_empty())
        .ok_or_else(|| {
            ApiError::invalid(
                "resource",
                "KIND:ID, KIND one of orderbook, market, game, future, award",
            )
        })?;
    let instant = |name: &str, text: &Option<String>| -> Result<Option<i64>, ApiError> {
        text.as_deref()
            .map(|t| {
                predmarket_core::time::timestamp_ms(t).ok_or_else(|| {
                    ApiError::invalid(name, "an instant: ISO 8601, or unix seconds or ms")
                })
            })
            .transpose()
    };
    let to_ms = instant("to", &query.to)?.unwrap_or(now_ms);
    let from_ms = instant("from", &query.from)?.unwrap_or(to_ms - DEFAULT_WINDOW_MS);
    if from_ms >= to_ms {
        return Err(ApiError::invalid("from", "must be before `to`"));
    }
    if to_ms - from_ms > MAX_WINDOW_MS {
        return Err(ApiError::invalid(
            "to",
            format!("a window of at most {} h", MAX_WINDOW_MS / 3_600_000),
        ));
    }
    let limit = match query.limit.as_deref() {
        None => DEFAULT_LIMIT,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_LIMIT).contains(n))
            .ok_or_else(|| {
                ApiError::invalid("limit", format!("an integer from 1 to {MAX_LIMIT}"))
            })?,
    };
    Ok(Asked {
        kind,
        id: id.to_owned(),
        from_ms,
        to_ms,
        limit,
    })
}

/// What "now" is to a history: the wall clock where the server records;
/// where it replays, the replay clock, past which nothing is served yet
/// (as the operations serve the state at that clock).
#[derive(Clone)]
pub enum Now {
    Wall,
    Replay(Clock),
}

impl Now {
    fn ms(&self) -> i64 {
        match self {
            Now::Wall => i64::try_from(crate::stream::topic::unix_ms()).unwrap_or(i64::MAX),
            Now::Replay(clock) => clock.now_ms(),
        }
    }
}

struct Archive {
    dir: PathBuf,
    now: Now,
}

/// The route, reading the archive under `dir` as it stands now.
pub fn router(dir: PathBuf) -> Router {
    router_at(dir, Now::Wall)
}

/// The route, reading the archive under `dir` as it stands at `now`.
pub fn router_at(dir: PathBuf, now: Now) -> Router {
    Router::new()
        .route(PATH, get(history))
        .with_state(Arc::new(Archive { dir, now }))
}

/// The route as a proxy serves it: behind the visitors' keys, or with
/// `--public-proxy` admitted as one request of the client's address (past
/// its bucket, the visitors' JSON 429), so reading the archive is metered
/// like any request.
pub fn proxied(state: &Arc<ProxyState>, dir: PathBuf) -> Router {
    let route = proxy::behind_visitor_key(state, router(dir));
    match state.visitors() {
        Some(visitors) => route.layer(axum::middleware::from_fn_with_state(
            visitors,
            proxy::visitors::admit,
        )),
        None => route,
    }
}

async fn history(
    State(archive): State<Arc<Archive>>,
    Query(query): Query<HistoryQuery>,
) -> Response {
    // `to` is exclusive: a window that ends now holds what came at now.
    let end = archive.now.ms().saturating_add(1);
    let mut asked = match asked(&query, end) {
        Ok(asked) => asked,
        Err(error) => return error.into_response(),
    };
    if let Now::Replay(_) = archive.now {
        // Not yet recorded at the replay clock: an empty window, not an error.
        asked.to_ms = asked.to_ms.min(end).max(asked.from_ms);
    }
    let dir = archive.dir.clone();
    // One more than asked: whether a next page exists.
    let read = tokio::task::spawn_blocking(move || {
        let filter = Filter {
            kind: Some(asked.kind),
            id: Some(&asked.id),
            from_ms: Some(asked.from_ms),
            to_ms: Some(asked.to_ms),
        };
        archive::read(&dir, &filter, asked.limit + 1).map(|rows| (asked, rows))
    })
    .await;
    match read {
        Ok(Ok((asked, rows))) => Json(answer(&asked, rows)).into_response(),
        Ok(Err(error)) => {
            tracing::warn!("{PATH}: {error}");
            ApiError::internal("the archive could not be read").into_response()
        }
        Err(_) => ApiError::internal("the archive could not be read").into_response(),
    }
}

/// The answer: the rows, and where the next page starts when there is one.
fn answer(asked: &Asked, mut rows: Vec<Recorded>) -> Value {
    let more = rows.len() > asked.limit;
    rows.truncate(asked.limit);
    let next_from = more
        .then(|| rows.last().map(|r| r.row.received_ms + 1))
        .flatten();
    let data: Vec<Value> = rows
        .into_iter()
        .map(|r| {
            let row = r.row;
            json!({
                "received": predmarket_core::time::format_rfc3339(row.received_ms),
                "received_ms": row.received_ms,
                "seq": row.seq,
                "continuity": row.continuity.name(),
                "gap_ms": row.continuity.gap_ms(),
                "age_ms": row.age_ms,
                "wanted_ms": row.wanted_ms,
                "answer": serde_json::from_str::<Value>(&row.answer).unwrap_or(Value::Null),
            })
        })
        .collect();
    json!({
        "data": data,
        "meta": {
            "resource": asked.kind.resource(&asked.id),
            "from_ms": asked.from_ms,
            "to_ms": asked.to_ms,
            "count": data.len(),
            "next_from": next_from,
        },
    })
}

/// Adds `x-history` to an OpenAPI document: done only where the server
/// records or replays, so its absence tells a reader (the demo) that
/// asking `GET /history` would be a 404.
pub fn describe_in(doc: &mut Value) {
    if let Some(doc) = doc.as_object_mut() {
        doc.insert("x-history".into(), described());
    }
}

/// `GET /history` as `/openapi.json` describes it (`x-history`), beside
/// the operations: it is served only where the server records or replays.
pub fn described() -> Value {
    json!({
        PATH: {
            "get": {
                "operationId": "history",
                "summary": "A watched resource's recorded answers (with --record or --replay)",
                "description": format!("The rows the recorder wrote for one resource, oldest first, each with \
                    `continuity` (`first`, `continues`, `gap` with `gap_ms`, `resync`): do not carry \
                    state across a `gap` or `resync`. One request reads a window of at most {} h and \
                    answers at most {MAX_LIMIT} rows; when more remain, `meta.next_from` is the `from` \
                    of the next page. Metered as any request of the key.", MAX_WINDOW_MS / 3_600_000),
                "parameters": [
                    { "name": "resource", "in": "query", "required": true,
                      "description": "KIND:ID (kinds: orderbook, market, game, future, award)",
                      "schema": { "type": "string", "pattern": "^(orderbook|market|game|future|award):.+$" } },
                    { "name": "from", "in": "query", "required": false,
                      "description": "Received at or after (ISO 8601, unix s or ms); default: an hour before `to`",
                      "schema": { "type": "string" } },
                    { "name": "to", "in": "query", "required": false,
                      "description": "Received before (ISO 8601, unix s or ms); default: now",
                      "schema": { "type": "string" } },
                    { "name": "limit", "in": "query", "required": false,
                      "description": format!("Rows at most (1 to {MAX_LIMIT}, default {DEFAULT_LIMIT})"),
                      "schema": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT } },
                ],
                "responses": {
                    "200": { "description": "`data`: rows (`received`, `received_ms`, `seq`, `continuity`, `gap_ms`, `age_ms`, `wanted_ms`, `answer`); `meta`: `resource`, `from_ms`, `to_ms`, `count`, `next_from`" },
                    "400": { "description": "A missing or malformed resource, instant or limit, or a window longer than allowed (VALIDATION_ERROR)" },
                    "401": { "description": "No or an unknown API key" },
                    "429": { "description": "The key's budget spent, or behind a public proxy the address's request bucket (RATE_LIMITED)" },
                },
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(
        resource: &str,
        from: Option<&str>,
        to: Option<&str>,
        limit: Option<&str>,
    ) -> HistoryQuery {
        HistoryQuery {
            resource: Some(resource.into()),
            from: from.map(Into::into),
            to: to.map(Into::into),
            limit: limit.map(Into::into),
        }
    }

    #[test]
    fn a_query_is_held_to_its_bounds() {
        let now = 1_800_000_000_000;
        let ok = asked(&query("orderbook:m1", None, None, None), now).unwrap();
        assert_eq!(
            ok,
            Asked {
                kind: WatchKind::Orderbook,
                id: "m1".into(),
                from_ms: now - DEFAULT_WINDOW_MS,
                to_ms: now,
                limit: DEFAULT_LIMIT
            }
        );
        let day = asked(
            &query(
                "game:g",
                Some("1800000000"),
                Some("1800086400"),
                Some("1000"),
            ),
            now,
        )
        .unwrap();
        assert_eq!(
            (day.to_ms - day.from_ms, day.limit),
            (MAX_WINDOW_MS, MAX_LIMIT)
        );
        for (bad, from, to, limit) in [
            ("book:m1", None, None, None),
            ("orderbook:", None, None, None),
            ("orderbook:m1", Some("soon"), None, None),
            ("orderbook:m1", Some("1800000000"), Some("1800086401"), None),
            ("orderbook:m1", Some("1800000001"), Some("1800000000"), None),
            ("orderbook:m1", None, None, Some("0")),
            ("orderbook:m1", None, None, Some("1001")),
        ] {
            assert!(
                asked(&query(bad, from, to, limit), now).is_err(),
                "{bad} {from:?} {to:?} {limit:?}"
            );
        }
    }
}
