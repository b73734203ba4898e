//! Events (a group of markets): `GET /events` and `GET /events/{id}`.

use super::{ListMeta, Market, Pagination, PlatformId};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Event {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_synced_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_source_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_start_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_end_at: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "super::wire::int"
    )]
    pub market_count: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_volume: Option<f64>,
    /// Present when nested markets were asked for (`include_nested=true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markets: Option<Vec<Market>>,
}

impl Event {
    /// An event with only its id, for building data and tests.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            platform: None,
            platform_id: None,
            title: None,
            last_synced_at: None,
            series_id: None,
            slug: None,
            description: None,
            image_url: None,
            resolution_source_url: None,
            event_start_at: None,
            event_end_at: None,
            market_count: None,
            total_volume: None,
            markets: None,
        }
    }
}

/// Response of `GET /events` and `GET /events/{id}`: `{pagination, events, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct EventsResponse {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    pub events: Vec<Event>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ListMeta>,
}

/// Response of `listEvents`.
pub type ListEventsResponse = EventsResponse;
/// Response of `getEvent`.
pub type GetEventResponse = EventsResponse;
