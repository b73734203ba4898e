//! `GET /series` and `GET /series/{id}`.

use super::checks::{self, SERIES_EVENTS_PLATFORMS, SERIES_MAX_LIMIT};
use super::{HttpRequest, PagePosition, Paged, Request, path_segment};
use crate::error::Error;
use crate::models::{PlatformId, Series, SeriesResponse};

/// `GET /series`. `limit` is capped at [`SERIES_MAX_LIMIT`] (25; see there
/// why not 100). With `query` the service runs in search mode.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListSeries {
    pub limit: Option<u32>,
    pub cursor: Option<String>,
    /// platform_a or platform_b.
    pub platform: Option<PlatformId>,
    pub query: Option<String>,
    pub include_raw: Option<bool>,
    /// Include each series' events (service default: false).
    pub include_nested: Option<bool>,
}

impl Request for ListSeries {
    const OPERATION: &'static str = "listSeries";
    type Response = SeriesResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/series")
            .param("limit", checks::limit(self.limit, SERIES_MAX_LIMIT)?)
            .param("cursor", checks::cursor(self.cursor.as_deref()))
            .param(
                "platform",
                checks::platform(self.platform.as_ref(), SERIES_EVENTS_PLATFORMS)?,
            )
            .param("query", checks::text(self.query.as_deref()))
            .param("include_raw", checks::bool_str(self.include_raw))
            .param("include_nested", checks::bool_str(self.include_nested)))
    }
}

impl Paged for ListSeries {
    type Item = Series;
    fn position(&self) -> Option<PagePosition> {
        position_of_cursor(self.cursor.as_deref())
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.cursor = cursor_of(position);
    }
    fn next_position(response: &SeriesResponse) -> Option<PagePosition> {
        next_cursor(response.pagination.as_ref())
    }
    fn items(response: &SeriesResponse) -> &[Series] {
        &response.series
    }
    fn into_items(response: SeriesResponse) -> Vec<Series> {
        response.series
    }
}

/// `GET /series/{id}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetSeries {
    pub id: String,
    /// platform_a or platform_b.
    pub platform: Option<PlatformId>,
    pub include_raw: Option<bool>,
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
    type Response = SeriesResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(
            HttpRequest::new(format!("/series/{}", path_segment("id", &self.id)?))
                .param(
                    "platform",
                    checks::platform(self.platform.as_ref(), SERIES_EVENTS_PLATFORMS)?,
                )
                .param("include_raw", checks::bool_str(self.include_raw))
                .param("include_nested", checks::bool_str(self.include_nested)),
        )
    }
}

/// The position a cursor parameter stands for (empty: the first page).
pub(crate) fn position_of_cursor(cursor: Option<&str>) -> Option<PagePosition> {
    cursor
        .filter(|c| !c.is_empty())
        .map(|c| PagePosition::Cursor(c.to_owned()))
}

/// The cursor to send for a page position (an offset has no cursor form).
pub(crate) fn cursor_of(position: Option<PagePosition>) -> Option<String> {
    match position {
        Some(PagePosition::Cursor(c)) => Some(c),
        _ => None,
    }
}

/// The next cursor page, per the rules of service.md.
pub(crate) fn next_cursor(pagination: Option<&crate::models::Pagination>) -> Option<PagePosition> {
    pagination
        .and_then(|p| p.next())
        .map(|c| PagePosition::Cursor(c.to_owned()))
}
