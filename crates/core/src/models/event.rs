//! Events (a group of markets): `GET /events` and `GET /events/{id}`.

use super::SkippedItem;
use super::{ListMeta, Market, Pagination, PlatformId};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub platform_id: Option<String>,
    pub title: Option<String>,
    #[model(timestamp)]
    pub last_synced_at: Option<String>,
    pub series_id: Option<String>,
    pub slug: Option<String>,
    pub description: Option<String>,
    pub image_url: Option<String>,
    pub resolution_source_url: Option<String>,
    #[model(timestamp)]
    pub event_start_at: Option<String>,
    #[model(timestamp)]
    pub event_end_at: Option<String>,
    #[serde(serialize_with = "super::wire::int")]
    pub market_count: Option<f64>,
    pub total_volume: Option<f64>,
    /// Present when nested markets were asked for (`include_nested=true`).
    pub markets: Option<Vec<Market>>,
}

impl Event {
    /// An event with only its id, for building data and tests.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Default::default()
        }
    }
}

/// Response of `GET /events` and `GET /events/{id}`: `{pagination, events, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", tsify(rename = "EventsPage"))]
pub struct EventsResponse {
    pub pagination: Option<Pagination>,
    pub events: Vec<Event>,
    pub meta: Option<ListMeta>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

// Older pages put the events under `markets`.
list_response!(EventsResponse {
    events: ["events", "markets"],
    pagination,
    meta
});

// The envelopes JS may receive (the library hands out the body as parsed):
// the spec's shape, declared from the struct above, or the public
// service's other documented one.
#[cfg(feature = "tsify")]
const _: () = {
    #[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
    const TS: &'static str = "export type EventsResponse = EventsPage | (Omit<EventsPage, \"events\"> & { markets: Event[] });";
};

/// Response of `listEvents`.
pub type ListEventsResponse = EventsResponse;
/// Response of `getEvent`.
pub type GetEventResponse = EventsResponse;
