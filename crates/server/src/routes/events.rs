//! `GET /events`, `GET /events/{id}`, `GET /series`, `GET /series/{id}`:
//! one list handler and one by-id handler, generic over what differs
//! between events and series ([`Group`]).

use super::markets::{market_json, words};
use super::paging::{Window, list_meta, list_meta_json, single_page, split_down, unavailable};
use super::respond::{array, bytes_response, list_body, text, with_member};
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::Dataset;
use crate::data::catalog::{EventRow, SeriesRow};
use crate::data::platforms::{self, EVENTS};
use crate::data::search::Words;
use crate::error::ApiError;
use crate::query::{Query, platform as one_platform};
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::capabilities::Capability;
use predmarket_core::models::PlatformId;
use predmarket_core::request::{GetEvent, GetSeries, ListEvents, ListSeries, Request};
use std::borrow::Cow;

pub const DEFAULT_LIMIT: u32 = 25;

/// What a list request filters on besides the platform.
pub struct Filter<'a> {
    words: Words,
    /// `series_id` (events only): `Some(None)` is an unknown series.
    series: Option<Option<u32>>,
    /// `category` (events only), any case.
    category: Option<&'a str>,
}

/// The parameters events and series share, as their requests declare them.
pub struct Wanted<'a> {
    platform: &'a Option<PlatformId>,
    include_raw: Option<bool>,
    include_nested: Option<bool>,
}

/// A list request's own parameters besides [`Wanted`].
pub struct ListWanted<'a> {
    wanted: Wanted<'a>,
    limit: Option<u32>,
    cursor: Option<&'a str>,
    offset: Option<u64>,
    query: Option<&'a str>,
    /// Events only.
    series_id: Option<&'a str>,
    /// Events only.
    category: Option<&'a str>,
}

impl<'a> ListWanted<'a> {
    fn of(
        (series_id, category): (Option<&'a str>, Option<&'a str>),
        wanted: Wanted<'a>,
        limit: Option<u32>,
        (cursor, offset): (&'a Option<String>, Option<u64>),
        query: &'a Option<String>,
    ) -> Self {
        Self {
            wanted,
            limit,
            cursor: cursor.as_deref(),
            offset,
            query: query.as_deref(),
            series_id,
            category,
        }
    }
}

/// The [`Wanted`] of a request of either group: the core declares the
/// same fields on all four (`request/group.rs`).
macro_rules! wanted {
    ($r:expr) => {
        Wanted {
            platform: &$r.platform,
            include_raw: $r.include_raw,
            include_nested: $r.include_nested,
        }
    };
}

/// The members of a [`Group`] that only name where its rows are stored
/// and which requests read it.
macro_rules! stored {
    ($row:ident in $rows:ident by $index:ident, key $key:literal, noun $noun:literal,
     $list:ident, $get:ident) => {
        type Row = $row;
        const KEY: &'static str = $key;
        const NOUN: &'static str = $noun;
        type List = $list;
        type Get = $get;
        fn get_wanted(r: &$get) -> (&str, Wanted<'_>) {
            (&r.id, wanted!(r))
        }
        fn rows(data: &Dataset) -> &[$row] {
            &data.catalog.$rows
        }
        fn find<'a>(data: &'a Dataset, id: &str) -> Option<&'a $row> {
            let i = *data.catalog.$index.get(id)?;
            data.catalog.$rows.get(i as usize)
        }
        fn platform(row: &$row) -> u8 {
            row.platform
        }
    };
}

/// A resource grouped under a platform and listed with the same rules:
/// events and series.
pub trait Group: Send + Sync + 'static {
    type Row: Sync;
    type List: Request + Send;
    type Get: Request + Send;
    fn list_wanted(r: &Self::List) -> ListWanted<'_>;
    /// The id and what is wanted of it.
    fn get_wanted(r: &Self::Get) -> (&str, Wanted<'_>);
    /// The member of the answer that holds the items.
    const KEY: &'static str;
    /// The resource's name in a 404.
    const NOUN: &'static str;
    fn rows(data: &Dataset) -> &[Self::Row];
    fn find<'a>(data: &'a Dataset, id: &str) -> Option<&'a Self::Row>;
    /// Index of the row's platform in `EVENTS`.
    fn platform(row: &Self::Row) -> u8;
    fn matches(data: &Dataset, row: &Self::Row, filter: &Filter<'_>) -> bool;
    /// The row's JSON, with its nested children when asked for.
    fn json<'a>(data: &Dataset, row: &'a Self::Row, nested: bool, raw: bool) -> Cow<'a, str>;
}

pub struct Events;
pub struct Series;

impl Group for Events {
    stored!(EventRow in events by event_index, key "events", noun "event", ListEvents, GetEvent);
    fn list_wanted(r: &ListEvents) -> ListWanted<'_> {
        ListWanted::of(
            (r.series_id.as_deref(), r.category.as_deref()),
            wanted!(r),
            r.limit,
            (&r.cursor, r.offset),
            &r.query,
        )
    }
    fn matches(_data: &Dataset, event: &EventRow, filter: &Filter<'_>) -> bool {
        filter.series.is_none_or(|s| s == Some(event.series))
            && filter
                .category
                .is_none_or(|c| event.category.eq_ignore_ascii_case(c))
            && filter.words.all_in(&event.search)
    }
    /// An event's JSON, with its markets when nested ones are asked for.
    fn json<'a>(data: &Dataset, event: &'a EventRow, nested: bool, raw: bool) -> Cow<'a, str> {
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
}

impl Group for Series {
    stored!(SeriesRow in series by series_index, key "series", noun "series", ListSeries, GetSeries);
    fn list_wanted(r: &ListSeries) -> ListWanted<'_> {
        ListWanted::of(
            (None, None),
            wanted!(r),
            r.limit,
            (&r.cursor, r.offset),
            &r.query,
        )
    }
    /// Search mode: a series matches on its own text or on the title of
    /// one of its events.
    fn matches(data: &Dataset, series: &SeriesRow, filter: &Filter<'_>) -> bool {
        let words = &filter.words;
        words.all_in(&series.search)
            || (!words.is_empty()
                && series
                    .events
                    .clone()
                    .any(|e| words.all_in(&data.catalog.events[e as usize].search)))
    }
    /// A series' JSON, with its events (without their markets) when nested
    /// ones are asked for. Series carry no raw platform data of their own.
    fn json<'a>(data: &Dataset, series: &'a SeriesRow, nested: bool, _raw: bool) -> Cow<'a, str> {
        if !nested {
            return Cow::Borrowed(&series.json);
        }
        let events = series
            .events
            .clone()
            .map(|i| data.catalog.events[i as usize].json.as_ref());
        Cow::Owned(with_member(&series.json, "events", &array(events)))
    }
}

fn platform_filter(platform: Option<&str>) -> Option<u8> {
    platform.and_then(platforms::market_index).map(|p| p as u8)
}

pub async fn list<G: Group>(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<G::List>,
) -> Result<Response, ApiError> {
    let w = G::list_wanted(&r);
    let platform = one_platform(&state, w.wanted.platform, Capability::Events)?;
    let query = crate::data::search::query(w.query)?;
    let nested = w.wanted.include_nested.unwrap_or(false);
    let raw = w.wanted.include_raw.unwrap_or(false);
    let scope = Scope::new(G::List::OPERATION)
        .with("platform", platform)
        .with("query", query)
        .with("series_id", w.series_id)
        .with("category", w.category);
    let window = Window::read(&state, &scope, w.limit, (w.cursor, w.offset), DEFAULT_LIMIT)?;
    let data = &state.data;
    let (up, errors) = if platform.is_some() {
        (Vec::new(), Default::default())
    } else {
        split_down(&state, &EVENTS)
    };
    let platform_index = platform_filter(platform);
    let filter = Filter {
        words: words(query),
        series: w
            .series_id
            .map(|id| data.catalog.series_index.get(id).copied()),
        category: w.category,
    };
    let (total, page) = window.take(G::rows(data).iter().filter(|row| {
        let p = G::platform(row);
        let served = match platform_index {
            Some(wanted) => wanted == p,
            None => up.contains(&EVENTS[p as usize]),
        };
        served && G::matches(data, row, &filter)
    }));
    let pagination = window.pagination_json(&state, &scope, total);
    let queried: Vec<&str> = match platform {
        Some(p) => vec![p],
        None => EVENTS.to_vec(),
    };
    let items: Vec<Cow<'_, str>> = page
        .into_iter()
        .map(|row| G::json(data, row, nested, raw))
        .collect();
    Ok(bytes_response(list_body(
        &pagination,
        G::KEY,
        &items,
        &list_meta_json(&state, &started, &queried, &errors),
    )))
}

pub async fn get<G: Group>(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<G::Get>,
) -> Result<Response, ApiError> {
    let (id, w) = G::get_wanted(&r);
    let platform = one_platform(&state, w.platform, Capability::Events)?;
    let nested = w.include_nested.unwrap_or(false);
    let raw = w.include_raw.unwrap_or(false);
    let data = &state.data;
    let row = G::find(data, id)
        .filter(|row| platform_filter(platform).is_none_or(|p| p == G::platform(row)))
        .ok_or_else(|| ApiError::not_found(G::NOUN, id))?;
    let label = EVENTS[G::platform(row) as usize];
    if state.faults.is_down(label) {
        return Err(unavailable(&state, label));
    }
    let meta = list_meta(&state, &started, Some(&[label]));
    let item = G::json(data, row, nested, raw);
    Ok(bytes_response(list_body(
        &text(&single_page()),
        G::KEY,
        &[item],
        &text(&meta),
    )))
}
