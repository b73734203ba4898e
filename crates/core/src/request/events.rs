//! `GET /events` and `GET /events/{id}`.

use super::checks::{self, EVENTS_MAX_LIMIT, SERIES_EVENTS_PLATFORMS};
use super::series::{cursor_of, next_cursor, position_of_cursor};
use super::{HttpRequest, PagePosition, Paged, Request, path_segment};
use crate::error::Error;
use crate::models::{Event, EventsResponse, PlatformId};

/// `GET /events`. The spec names `limit`, `cursor` and `platform`; `query`,
/// `series_id`, `include_raw` and `include_nested` are this project's
/// choice, mirroring `GET /series` and `GET /events/{id}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListEvents {
    /// Capped at 25.
    pub limit: Option<u32>,
    pub cursor: Option<String>,
    /// platform_a or platform_b.
    pub platform: Option<PlatformId>,
    /// Search mode, as for series.
    pub query: Option<String>,
    /// Only the events of one series.
    pub series_id: Option<String>,
    pub include_raw: Option<bool>,
    /// Include each event's markets.
    pub include_nested: Option<bool>,
}

impl Request for ListEvents {
    const OPERATION: &'static str = "listEvents";
    type Response = EventsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/events")
            .param("limit", checks::limit(self.limit, EVENTS_MAX_LIMIT)?)
            .param("cursor", checks::cursor(self.cursor.as_deref()))
            .param(
                "platform",
                checks::platform(self.platform.as_ref(), SERIES_EVENTS_PLATFORMS)?,
            )
            .param("query", checks::text(self.query.as_deref()))
            .param("series_id", checks::text(self.series_id.as_deref()))
            .param("include_raw", checks::bool_str(self.include_raw))
            .param("include_nested", checks::bool_str(self.include_nested)))
    }
}

impl Paged for ListEvents {
    type Item = Event;
    fn position(&self) -> Option<PagePosition> {
        position_of_cursor(self.cursor.as_deref())
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.cursor = cursor_of(position);
    }
    fn next_position(response: &EventsResponse) -> Option<PagePosition> {
        next_cursor(response.pagination.as_ref())
    }
    fn items(response: &EventsResponse) -> &[Event] {
        &response.events
    }
    fn into_items(response: EventsResponse) -> Vec<Event> {
        response.events
    }
}

/// `GET /events/{id}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetEvent {
    pub id: String,
    /// platform_a or platform_b.
    pub platform: Option<PlatformId>,
    pub include_raw: Option<bool>,
    /// Include the event's markets.
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
    type Response = EventsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(
            HttpRequest::new(format!("/events/{}", path_segment("id", &self.id)?))
                .param(
                    "platform",
                    checks::platform(self.platform.as_ref(), SERIES_EVENTS_PLATFORMS)?,
                )
                .param("include_raw", checks::bool_str(self.include_raw))
                .param("include_nested", checks::bool_str(self.include_nested)),
        )
    }
}
