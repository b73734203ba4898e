//! Series (a group of events): `GET /series` and `GET /series/{id}`.

use super::{Event, Market, PlatformId};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

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
    /// The public service's name for `slug`.
    pub series_slug: Option<String>,
    pub description: Option<String>,
    pub image_url: Option<String>,
    pub category: Option<String>,
    pub tags: Option<Vec<String>>,
    #[model(integer)]
    pub event_count: Option<f64>,
    #[model(integer)]
    pub market_count: Option<f64>,
    pub total_volume: Option<f64>,
    /// Present when nested events were asked for (`include_nested=true`).
    pub events: Option<Vec<Event>>,
    /// Whole markets nested in the series (the public service's older
    /// pages).
    pub markets: Option<Vec<Market>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl Series {
    /// The slug, whichever name it was sent under.
    pub fn slug(&self) -> Option<&str> {
        self.slug.as_deref().or(self.series_slug.as_deref())
    }
}

list_envelope! {
    /// Response of `GET /series` and `GET /series/{id}`: `{pagination, series, meta}`.
    SeriesResponse { series: Series ["series"], meta: ListMeta }
}

/// Response of `listSeries`.
pub type ListSeriesResponse = SeriesResponse;
/// Response of `getSeries`.
pub type GetSeriesResponse = SeriesResponse;
