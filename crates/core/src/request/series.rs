//! `GET /series` and `GET /series/{id}`.

use super::checks::{self, SERIES_MAX_LIMIT};
use super::{Request, path_segment, wire};
use crate::error::Error;
use crate::models::{PlatformId, Series, SeriesResponse};
use serde::{Deserialize, Serialize};

/// `GET /series`. `limit` is capped at [`SERIES_MAX_LIMIT`] (25; see there
/// why not 100). With `query` the service runs in search mode.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListSeriesParams")
)]
pub struct ListSeries {
    /// Page size; capped at 25.
    #[serde(default, deserialize_with = "wire::whole")]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// One platform id.
    pub platform: Option<PlatformId>,
    /// Search mode.
    pub query: Option<String>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
    /// Include each series' events (service default: false).
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_nested: Option<bool>,
}

impl Request for ListSeries {
    const OPERATION: &'static str = "listSeries";
    const PATH: &'static str = "/series";
    type Response = SeriesResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::limit(&mut r.limit, SERIES_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        checks::one_value("platform", &r.platform)?;
        checks::text(&mut r.query);
        Ok(r)
    }
}

paged!(cursor ListSeries => Series, |r| r.series, r.pagination.as_ref());

/// `GET /series/{id}`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetSeriesParams")
)]
pub struct GetSeries {
    /// The series id (path).
    pub id: String,
    pub platform: Option<PlatformId>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
    /// Include the series' events.
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_nested: Option<bool>,
}

impl GetSeries {
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }
}

impl Request for GetSeries {
    const OPERATION: &'static str = "getSeries";
    const PATH: &'static str = "/series/{id}";
    const PATH_PARAMS: &'static [&'static str] = &["id"];
    type Response = SeriesResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::one_value("platform", &self.platform)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        Ok(format!("/series/{}", path_segment("id", &self.id)?))
    }
}
