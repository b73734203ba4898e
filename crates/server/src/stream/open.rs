//! `GET /stream`: an open, from its request to its response. The watches
//! it names are checked (`parse_watches`), its viewer admitted at the door
//! (`admission`) and counted against its cap of streams, each resource
//! joined as a topic of the hub (within the viewer's quota), and the
//! response is the stream's bytes (`body`), which hold the stream's
//! `Subscription` until the client goes.

use super::audience::Viewer;
use super::frame::Position;
use super::topic::Topic;
use super::{Hub, Refused, lock};
use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{ConnectInfo, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use predmarket_core::ErrorCode;
use predmarket_core::change::WatchKind;
use predmarket_core::live;
use serde_json::json;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// One stream's hold on its caps and topics, released when the client goes.
struct Subscription {
    hub: Arc<Hub>,
    viewer: Viewer,
    topics: Vec<Arc<Topic>>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        for topic in &self.topics {
            self.hub.leave(self.viewer, topic);
        }
        self.hub.streams.fetch_sub(1, Ordering::SeqCst);
        let mut per_viewer = lock(&self.hub.per_viewer);
        if let Some(count) = per_viewer.get_mut(&self.viewer) {
            *count -= 1;
            if *count == 0 {
                per_viewer.remove(&self.viewer);
            }
        }
    }
}

/// The resources a stream asks for: `watch=KIND:ID`, each checked as the
/// client checks a `watch*` call; repeats count once.
pub fn parse_watches(
    query: &str,
    max: usize,
) -> Result<Vec<(String, WatchKind, String)>, ApiError> {
    let mut out: Vec<(String, WatchKind, String)> = Vec::new();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name != live::WATCH_PARAM {
            continue;
        }
        let invalid = |message: String| {
            ApiError::invalid(live::WATCH_PARAM, message)
                .with_details(json!({ "parameter": live::WATCH_PARAM }))
        };
        let (kind, id) = value
            .split_once(':')
            .ok_or_else(|| invalid("each watch is KIND:ID".into()))?;
        let kind = WatchKind::from_name(kind).ok_or_else(|| {
            invalid(format!(
                "unknown kind; one of {}",
                WatchKind::ALL.map(WatchKind::name).join(", ")
            ))
        })?;
        kind.request(id).map_err(|e| invalid(e.to_string()))?;
        let key = kind.resource(id);
        if !out.iter().any(|(k, _, _)| *k == key) {
            if out.len() == max {
                return Err(invalid(format!("at most {max} resources per stream")));
            }
            out.push((key, kind, id.to_owned()));
        }
    }
    if out.is_empty() {
        return Err(ApiError::invalid(
            live::WATCH_PARAM,
            format!(
                "name at least one resource: {}=orderbook:MARKET_ID (kinds: {})",
                live::WATCH_PARAM,
                WatchKind::ALL.map(WatchKind::name).join(", ")
            ),
        ));
    }
    Ok(out)
}

/// The handler of `GET /stream` (the key, if any, is checked before it).
pub async fn open(
    State(hub): State<Arc<Hub>>,
    connect: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    key: Option<axum::Extension<crate::auth::KeyId>>,
    streaming: Option<axum::Extension<crate::listen::Streaming>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let watches = match parse_watches(
        query.as_deref().unwrap_or_default(),
        hub.settings.max_resources_per_stream,
    ) {
        Ok(watches) => watches,
        Err(error) => return error.into_response(),
    };
    let peer = connect.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0.ip());
    let opener = match hub.door.admit(key.map(|k| k.0.0), peer, &headers) {
        Ok(opener) => opener,
        Err(turned) => return turned.into_response(),
    };
    {
        let mut per_viewer = lock(&hub.per_viewer);
        let count = per_viewer.entry(opener.viewer).or_insert(0);
        if *count >= hub.settings.max_streams_per_address {
            return rate_limited(
                format!(
                    "{} streams are open for this visitor, its limit; close one first",
                    hub.settings.max_streams_per_address
                ),
                "streams_per_address",
            );
        }
        if hub.streams.fetch_add(1, Ordering::SeqCst) >= hub.settings.max_streams {
            hub.streams.fetch_sub(1, Ordering::SeqCst);
            return crate::guard::shed(
                "the server has as many streams open as it serves; retry shortly",
            );
        }
        *count += 1;
    }
    let mut subscription = Subscription {
        hub: hub.clone(),
        viewer: opener.viewer,
        topics: Vec::with_capacity(watches.len()),
    };
    // Dropping the subscription on a refusal gives back what it took.
    for (key, kind, id) in &watches {
        match hub.join(&opener, key, *kind, id) {
            Ok(topic) => subscription.topics.push(topic),
            Err(Refused::Quota) => {
                return rate_limited(
                    format!(
                        "this visitor watches {} resources, its limit (those left in the last \
                         {} s count too); close a stream first",
                        hub.settings.max_topics_per_visitor,
                        hub.settings.grace.as_secs()
                    ),
                    "topics_per_visitor",
                );
            }
            Err(Refused::Full) => {
                return crate::guard::shed(
                    "the server watches as many resources as it can poll; retry shortly",
                );
            }
            Err(Refused::Visitor(refusal)) => return refusal.into_response(),
        }
    }
    drop(opener);
    // With `--redis`, a new topic starts from what Redis holds, so a
    // position from another replica is known here: all of them awaited
    // together.
    futures::future::join_all(
        subscription
            .topics
            .iter()
            .map(|topic| topic.ready(Duration::from_secs(3))),
    )
    .await;
    hub.stats.streams_opened.fetch_add(1, Ordering::Relaxed);
    let last = headers
        .get(live::LAST_EVENT_ID_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|text| Position::parse(text.trim(), watches.len()));
    if let Some(axum::Extension(streaming)) = streaming {
        streaming.mark();
    }
    let heartbeat = hub.settings.heartbeat;
    let topics = subscription.topics.clone();
    let counted = hub.clone();
    let body = super::body::events(topics, subscription, last, heartbeat, move || {
        counted.stats.dropped_slow.fetch_add(1, Ordering::Relaxed);
    });
    let mut response = Response::new(Body::from_stream(body));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(live::MEDIA_TYPE),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Proxies in front (nginx) pass each event on at once.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    // The in-flight cap counts answers being written; a stream has caps of
    // its own.
    response.extensions_mut().insert(crate::guard::LongLived);
    response
}

/// A JSON 429 `RATE_LIMITED` of the streams' own caps.
fn rate_limited(message: String, reason: &str) -> Response {
    let mut response = ApiError::new(ErrorCode::RateLimited, message)
        .with_details(json!({ "reason": reason }))
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watches_are_checked_and_repeats_count_once() {
        let got = parse_watches(
            "watch=orderbook:a&watch=market%3Ab&watch=orderbook:a&x=1",
            4,
        )
        .expect("valid");
        let keys: Vec<&str> = got.iter().map(|(k, _, _)| k.as_str()).collect();
        assert_eq!(keys, ["orderbook:a", "market:b"]);
        for bad in [
            "",
            "x=1",
            "watch=orderbook",
            "watch=book:a",
            "watch=market:",
            "watch=market:..",
            "watch=market:%2e%2e",
            "watch=game:%20",
        ] {
            assert!(parse_watches(bad, 4).is_err(), "{bad}");
        }
        let five = "watch=market:1&watch=market:2&watch=market:3&watch=market:4&watch=market:5";
        assert!(parse_watches(five, 4).is_err());
        // An id with a colon is one id.
        let got = parse_watches("watch=game:A:B", 4).expect("valid");
        assert_eq!(got[0].2, "A:B");
    }
}
