//! `GET /events` and `GET /events/{id}`.

use super::checks::{self, EVENTS_MAX_LIMIT};
use super::{Request, path_segment, wire};
use crate::error::Error;
use crate::models::{Event, EventsResponse, PlatformId};
use serde::{Deserialize, Serialize};

/// `GET /events`. The spec names `limit`, `cursor` and `platform`; `query`,
/// `series_id`, `include_raw` and `include_nested` are this project's
/// choice, mirroring `GET /series` and `GET /events/{id}`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListEventsParams")
)]
pub struct ListEvents {
    /// Page size; capped at 25.
    #[serde(default, deserialize_with = "wire::whole")]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// One platform id.
    pub platform: Option<PlatformId>,
    /// Search mode, as for series.
    pub query: Option<String>,
    /// Only the events of one series.
    pub series_id: Option<String>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
    /// Include each event's markets.
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_nested: Option<bool>,
}

impl Request for ListEvents {
    const OPERATION: &'static str = "listEvents";
    const PATH: &'static str = "/events";
    type Response = EventsResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::limit(&mut r.limit, EVENTS_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        checks::one_value("platform", &r.platform)?;
        checks::text(&mut r.query);
        checks::text(&mut r.series_id);
        Ok(r)
    }
}

paged!(cursor ListEvents => Event, |r| r.events, r.pagination.as_ref());

/// `GET /events/{id}`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetEventParams")
)]
pub struct GetEvent {
    /// The event id (path).
    pub id: String,
    pub platform: Option<PlatformId>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
    /// Include the event's markets.
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_nested: Option<bool>,
}

impl GetEvent {
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }
}

impl Request for GetEvent {
    const OPERATION: &'static str = "getEvent";
    const PATH: &'static str = "/events/{id}";
    const PATH_PARAMS: &'static [&'static str] = &["id"];
    type Response = EventsResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::one_value("platform", &self.platform)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        Ok(format!("/events/{}", path_segment("id", &self.id)?))
    }
}
