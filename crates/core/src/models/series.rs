//! Series (a group of events): `GET /series` and `GET /series/{id}`.

use super::SkippedItem;
use super::{Event, ListMeta, Pagination, PlatformId};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub id: String,
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub platform_id: Option<String>,
    pub title: Option<String>,
    #[model(timestamp)]
    pub last_synced_at: Option<String>,
    pub slug: Option<String>,
    pub description: Option<String>,
    pub image_url: Option<String>,
    pub category: Option<String>,
    pub tags: Option<Vec<String>>,
    #[serde(serialize_with = "super::wire::int")]
    pub event_count: Option<f64>,
    #[serde(serialize_with = "super::wire::int")]
    pub market_count: Option<f64>,
    pub total_volume: Option<f64>,
    /// Present when nested events were asked for (`include_nested=true`).
    pub events: Option<Vec<Event>>,
}

impl Series {
    /// A series with only its id, for building data and tests.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Default::default()
        }
    }
}

/// Response of `GET /series` and `GET /series/{id}`: `{pagination, series, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesResponse {
    pub pagination: Option<Pagination>,
    pub series: Vec<Series>,
    pub meta: Option<ListMeta>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(SeriesResponse {
    series: ["series"],
    pagination,
    meta
});

/// Response of `listSeries`.
pub type ListSeriesResponse = SeriesResponse;
/// Response of `getSeries`.
pub type GetSeriesResponse = SeriesResponse;
