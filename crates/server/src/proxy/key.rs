//! The cache-key phase: a checked request becomes its canonical form (the
//! cache key, also what is sent upstream, kept under the upstream's base
//! path), which is looked up in the cache: a fresh entry is served, one
//! past its freshness is served while one background flight refreshes it,
//! otherwise the visitor waits on the flight for the key (`admit`), and
//! when that fails a stale entry is served if one is kept.

use super::budget;
use super::cache::{self, Entry, Freshness};
use super::judge::Outcome;
use super::respond::{respond, respond_stale};
use super::state::{ProxyState, Route, Who};
use super::upstream::Target;
use crate::encoding::coding::Coding;
use crate::error::ApiError;
use axum::response::{IntoResponse, Response};
use predmarket_core::request::HttpRequest;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Serves one checked request: from the cache, from the request in flight
/// for the same key, or from the upstream. The cache key is the request as
/// it is sent upstream.
pub(super) async fn forward(
    state: Arc<ProxyState>,
    route: Route,
    visitor: Who,
    http: HttpRequest,
    coding: Coding,
) -> Response {
    let http = cache::canonical(http);
    // The cache key is the rendered path and query (`Target::key`). Every
    // entry was stored under the key of a target that passed the check
    // of `Upstream::target`, a function of the key alone, so a fresh hit
    // is served before it: a URL parsed and compared per hit was about
    // one in ten of a hit's allocations (docs/benchmarks.md, "Fifth
    // round: the user-space path"). A key the check refuses is never in
    // the cache, so it is refused as before.
    let key = http.path_and_query();
    let takes = (coding, &state.cache.compressions);
    let now = cache::now_ms();
    let cached = state.cache.get(&key);
    if let Some(entry) = &cached
        && entry.freshness(now) == Freshness::Fresh
    {
        state.metrics.hits.fetch_add(1, Ordering::Relaxed);
        return respond(entry, "HIT", now, takes);
    }
    let target = match state.upstream.target(&http) {
        Ok(target) => target,
        Err(refused) => {
            tracing::warn!(op = route.op.name(), "proxy refused a request: {refused}");
            return ApiError::invalid("path", refused.to_string())
                .with_details(json!({ "reason": "outside_upstream_base" }))
                .into_response();
        }
    };
    if let Some(entry) = cached {
        match entry.freshness(now) {
            // A stream's poller is what keeps the resource live: it waits
            // for the refresh (and so learns when the upstream fails)
            // rather than taking the entry being revalidated.
            Freshness::Revalidate if matches!(visitor, Who::Poll(_)) => {}
            Freshness::Revalidate => return updating(&state, &entry, key, target, route, coding),
            // A fresh entry was served above.
            Freshness::Fresh | Freshness::Stale => {}
        }
    }
    state.metrics.misses.fetch_add(1, Ordering::Relaxed);
    let flight = match state.clone().flight(key.clone(), target, &visitor, route) {
        Ok(flight) => flight,
        Err(refusal) => return refusal.into_response(),
    };
    match flight.await {
        Outcome::Answer(entry) => respond(&entry, "MISS", cache::now_ms(), takes),
        Outcome::Passed(entry) => respond(&entry, "PASS", cache::now_ms(), takes),
        Outcome::Failed(error) => {
            let now = cache::now_ms();
            match state.cache.get(&key).filter(|e| e.usable_stale(now)) {
                // Another flight refreshed it meanwhile.
                Some(entry) if entry.freshness(now) == Freshness::Fresh => {
                    respond(&entry, "HIT", now, takes)
                }
                // A stream's poller holds the last good answer already: it
                // is told why the upstream failed (the status and code its
                // subscribers' `stale` event carries), not a stale copy.
                _ if matches!(visitor, Who::Poll(_)) => respond(&error, "ERROR", now, takes),
                Some(entry) => {
                    state.metrics.stale.fetch_add(1, Ordering::Relaxed);
                    respond_stale(&state, &key, &entry, now)
                }
                None => respond(&error, "ERROR", now, takes),
            }
        }
    }
}

/// An entry past its freshness but within its revalidation window,
/// answered at once (`X-Cache: UPDATING`) while one background flight
/// refreshes it: started here unless one is in flight for `key` already
/// (then joined, as every flight is), so the upstream is asked once per
/// entry per freshness however many visitors ask meanwhile. Shared by the
/// router's path (`forward`) and the front service (`fresh`, after the
/// key's check).
pub(super) fn updating(
    state: &Arc<ProxyState>,
    entry: &Entry,
    key: String,
    target: Target,
    route: Route,
    coding: Coding,
) -> Response {
    state.metrics.revalidations.fetch_add(1, Ordering::Relaxed);
    // Not awaited: the visitor has its answer; the flight runs as a task
    // of its own, once this one yields.
    drop(
        state
            .clone()
            .flight(key, target, &Who::Key(budget::REFRESH_LANE), route),
    );
    let takes = (coding, &state.cache.compressions);
    respond(entry, "UPDATING", cache::now_ms(), takes)
}
