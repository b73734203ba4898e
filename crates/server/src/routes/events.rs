//! `GET /events`, `GET /events/{id}`, `GET /series`, `GET /series/{id}`.

use super::markets::{market_json, words};
use super::paging::{Window, list_meta, list_meta_json, one_platform, split_down};
use super::{array, bytes_response, object, text, with_member};
use crate::SharedState;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::Dataset;
use crate::data::catalog::{EventRow, SeriesRow};
use crate::data::platforms::{self, EVENTS};
use crate::error::ApiError;
use crate::params::{Id, Params};
use axum::extract::State;
use axum::response::Response;
use predmarket_core::models::Pagination;
use predmarket_core::request::{EVENTS_MAX_LIMIT, SERIES_MAX_LIMIT};
use std::borrow::Cow;

pub const DEFAULT_LIMIT: u32 = 25;

/// An event's JSON, with its markets when nested ones are asked for.
fn event_json<'a>(data: &Dataset, event: &'a EventRow, nested: bool, raw: bool) -> Cow<'a, str> {
    if !nested {
        return Cow::Borrowed(&event.json);
    }
    let markets: Vec<Cow<'_, str>> = event
        .markets
        .clone()
        .map(|i| market_json(data, &data.catalog.markets[i as usize], raw))
        .collect();
    Cow::Owned(with_member(
        &event.json,
        "markets",
        &array(markets.iter().map(|m| m.as_ref())),
    ))
}

/// A series' JSON, with its events (without their markets) when nested
/// ones are asked for.
fn series_json<'a>(data: &Dataset, series: &'a SeriesRow, nested: bool) -> Cow<'a, str> {
    if !nested {
        return Cow::Borrowed(&series.json);
    }
    let events = series
        .events
        .clone()
        .map(|i| data.catalog.events[i as usize].json.as_ref());
    Cow::Owned(with_member(&series.json, "events", &array(events)))
}

fn single() -> Pagination {
    Pagination {
        total: Some(1.0),
        limit: Some(1.0),
        has_more: Some(false),
        next_cursor: None,
    }
}

fn platform_filter(platform: &Option<String>) -> Option<u8> {
    platform
        .as_deref()
        .and_then(platforms::market_index)
        .map(|p| p as u8)
}

pub async fn list_events(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let platform = one_platform(&state, &params, &EVENTS)?;
    let query = crate::data::search::query(&params)?;
    let series_id = params.text("series_id")?;
    let nested = params.flag("include_nested")?.unwrap_or(false);
    let raw = params.flag("include_raw")?.unwrap_or(false);
    let scope = Scope::new("listEvents")
        .with("platform", platform.as_deref())
        .with("query", query.as_deref())
        .with("series_id", series_id.as_deref());
    let window = Window::read(&state, &params, &scope, DEFAULT_LIMIT, EVENTS_MAX_LIMIT)?;
    let data = &state.data;
    let (up, errors) = if platform.is_some() {
        (Vec::new(), Default::default())
    } else {
        split_down(&state, &EVENTS)
    };
    let platform_index = platform_filter(&platform);
    let series_filter = series_id
        .as_deref()
        .map(|id| data.catalog.series_index.get(id).copied());
    let words = words(query.as_deref());
    let mut total = 0usize;
    let mut page = Vec::new();
    for (i, event) in data.catalog.events.iter().enumerate() {
        let label = EVENTS[event.platform as usize];
        let keep = match platform_index {
            Some(p) => p == event.platform,
            None => up.contains(&label),
        } && series_filter.is_none_or(|s| s == Some(event.series))
            && words.all_in(&event.search);
        if keep {
            if total >= window.offset && page.len() < window.limit.applied as usize {
                page.push(i);
            }
            total += 1;
        }
    }
    let pagination = window.pagination(&state, &scope, total);
    let queried: Vec<&str> = match &platform {
        Some(p) => vec![p.as_str()],
        None => EVENTS.to_vec(),
    };
    let meta = list_meta(&state, &started, Some(&queried));
    let items: Vec<Cow<'_, str>> = page
        .iter()
        .map(|&i| event_json(data, &data.catalog.events[i], nested, raw))
        .collect();
    Ok(bytes_response(object(&[
        ("pagination", &text(&pagination)),
        ("events", &array(items.iter().map(|c| c.as_ref()))),
        ("meta", &list_meta_json(&meta, &errors)),
    ])))
}

pub async fn get_event(
    State(state): State<SharedState>,
    started: Started,
    Id(id): Id,
    params: Params,
) -> Result<Response, ApiError> {
    let platform = one_platform(&state, &params, &EVENTS)?;
    let nested = params.flag("include_nested")?.unwrap_or(false);
    let raw = params.flag("include_raw")?.unwrap_or(false);
    let data = &state.data;
    let event = data
        .catalog
        .event_index
        .get(id.as_str())
        .map(|&i| &data.catalog.events[i as usize])
        .filter(|e| platform_filter(&platform).is_none_or(|p| p == e.platform))
        .ok_or_else(|| ApiError::not_found("event", &id))?;
    let label = EVENTS[event.platform as usize];
    if state.faults.is_down(label) {
        return Err(ApiError::platform_unavailable(label));
    }
    let meta = list_meta(&state, &started, Some(&[label]));
    let item = event_json(data, event, nested, raw);
    Ok(bytes_response(object(&[
        ("pagination", &text(&single())),
        ("events", &array(std::iter::once(item.as_ref()))),
        ("meta", &text(&meta)),
    ])))
}

pub async fn list_series(
    State(state): State<SharedState>,
    started: Started,
    params: Params,
) -> Result<Response, ApiError> {
    let platform = one_platform(&state, &params, &EVENTS)?;
    let query = crate::data::search::query(&params)?;
    let nested = params.flag("include_nested")?.unwrap_or(false);
    // Series carry no raw platform data of their own; accepted and checked
    // for the spec's sake.
    let _raw = params.flag("include_raw")?;
    let scope = Scope::new("listSeries")
        .with("platform", platform.as_deref())
        .with("query", query.as_deref());
    let window = Window::read(&state, &params, &scope, DEFAULT_LIMIT, SERIES_MAX_LIMIT)?;
    let data = &state.data;
    let (up, errors) = if platform.is_some() {
        (Vec::new(), Default::default())
    } else {
        split_down(&state, &EVENTS)
    };
    let platform_index = platform_filter(&platform);
    let words = words(query.as_deref());
    // Search mode: a series matches on its own text or on the title of
    // one of its events.
    let matches = |s: &SeriesRow| {
        words.all_in(&s.search)
            || (!words.is_empty()
                && s.events
                    .clone()
                    .any(|e| words.all_in(&data.catalog.events[e as usize].search)))
    };
    let mut total = 0usize;
    let mut page = Vec::new();
    for (i, series) in data.catalog.series.iter().enumerate() {
        let label = EVENTS[series.platform as usize];
        let keep = match platform_index {
            Some(p) => p == series.platform,
            None => up.contains(&label),
        } && matches(series);
        if keep {
            if total >= window.offset && page.len() < window.limit.applied as usize {
                page.push(i);
            }
            total += 1;
        }
    }
    let pagination = window.pagination(&state, &scope, total);
    let queried: Vec<&str> = match &platform {
        Some(p) => vec![p.as_str()],
        None => EVENTS.to_vec(),
    };
    let meta = list_meta(&state, &started, Some(&queried));
    let items: Vec<Cow<'_, str>> = page
        .iter()
        .map(|&i| series_json(data, &data.catalog.series[i], nested))
        .collect();
    Ok(bytes_response(object(&[
        ("pagination", &text(&pagination)),
        ("series", &array(items.iter().map(|c| c.as_ref()))),
        ("meta", &list_meta_json(&meta, &errors)),
    ])))
}

pub async fn get_series(
    State(state): State<SharedState>,
    started: Started,
    Id(id): Id,
    params: Params,
) -> Result<Response, ApiError> {
    let platform = one_platform(&state, &params, &EVENTS)?;
    let nested = params.flag("include_nested")?.unwrap_or(false);
    let _raw = params.flag("include_raw")?;
    let data = &state.data;
    let series = data
        .catalog
        .series_index
        .get(id.as_str())
        .map(|&i| &data.catalog.series[i as usize])
        .filter(|s| platform_filter(&platform).is_none_or(|p| p == s.platform))
        .ok_or_else(|| ApiError::not_found("series", &id))?;
    let label = EVENTS[series.platform as usize];
    if state.faults.is_down(label) {
        return Err(ApiError::platform_unavailable(label));
    }
    let meta = list_meta(&state, &started, Some(&[label]));
    let item = series_json(data, series, nested);
    Ok(bytes_response(object(&[
        ("pagination", &text(&single())),
        ("series", &array(std::iter::once(item.as_ref()))),
        ("meta", &text(&meta)),
    ])))
}
