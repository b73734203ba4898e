//! Events (a group of markets): `GET /events` and `GET /events/{id}`.

use super::{Market, PlatformId};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

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
    /// The public service's name for `slug`.
    pub event_slug: Option<String>,
    pub description: Option<String>,
    pub image_url: Option<String>,
    pub resolution_source_url: Option<String>,
    #[model(timestamp)]
    pub event_start_at: Option<String>,
    #[model(timestamp)]
    pub event_end_at: Option<String>,
    #[model(integer)]
    pub market_count: Option<f64>,
    pub total_volume: Option<f64>,
    /// Present when nested markets were asked for (`include_nested=true`).
    pub markets: Option<Vec<Market>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl Event {
    /// The slug, whichever name it was sent under.
    pub fn slug(&self) -> Option<&str> {
        self.slug.as_deref().or(self.event_slug.as_deref())
    }
}

list_envelope! {
    /// Response of `GET /events` and `GET /events/{id}`: `{pagination, events, meta}`.
    #[cfg_attr(feature = "tsify", tsify(rename = "EventsPage"))]
    EventsResponse { events: Event ["events", "markets"], meta: ListMeta }
}

// The envelopes JS may receive (the spec's shape, declared from the
// struct above by tsify, or the public service's other documented one)
// are the union `EventsResponse` of crates/wasm/js/types/envelopes.d.ts.

/// Response of `listEvents`.
pub type ListEventsResponse = EventsResponse;
/// Response of `getEvent`.
pub type GetEventResponse = EventsResponse;
