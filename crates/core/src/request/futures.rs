//! `GET /futures/{id}` and `GET /list-futures`.

use super::checks::{self, LIST_MAX_LIMIT, SPORTS_PLATFORMS};
use super::{HttpRequest, PagePosition, Paged, Request, path_segment};
use crate::error::Error;
use crate::models::{
    Future, FutureResponse, FutureType, League, ListFuturesResponse, OddsFormat, PlatformId,
};

/// `GET /futures/{id}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetFuture {
    pub id: String,
    /// One of the sports platforms (platform_a, platform_b, platform_f,
    /// platform_g, platform_h).
    pub platform: Option<PlatformId>,
    pub odds_format: Option<OddsFormat>,
}

impl GetFuture {
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }
}

impl Request for GetFuture {
    const OPERATION: &'static str = "getFuture";
    type Response = FutureResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(
            HttpRequest::new(format!("/futures/{}", path_segment("id", &self.id)?))
                .param(
                    "platform",
                    checks::platform(self.platform.as_ref(), SPORTS_PLATFORMS)?,
                )
                .param("odds_format", odds_format(self.odds_format.as_ref())?),
        )
    }
}

pub(crate) fn odds_format(value: Option<&OddsFormat>) -> Result<Option<&str>, Error> {
    value
        .map(|f| checks::known("odds_format", f.as_str(), f.is_known(), OddsFormat::KNOWN))
        .transpose()
}

/// A season year: four digits.
pub(crate) fn season(value: Option<u32>) -> Result<Option<u32>, Error> {
    match value {
        Some(y) if !(1000..=9999).contains(&y) => {
            Err(Error::invalid("season", "must be a four-digit year"))
        }
        other => Ok(other),
    }
}

/// `GET /list-futures`. Pages by offset. `limit` is capped at 25 (the
/// pagination guide's range; the spec gives no maximum here).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListFutures {
    /// Required.
    pub league: Option<League>,
    /// championship, division or conference.
    pub future_type: Option<FutureType>,
    pub season: Option<u32>,
    pub limit: Option<u32>,
    pub offset: Option<u64>,
}

impl ListFutures {
    pub fn new(league: League) -> Self {
        Self {
            league: Some(league),
            ..Self::default()
        }
    }
}

impl Request for ListFutures {
    const OPERATION: &'static str = "listFutures";
    type Response = ListFuturesResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        let future_type = self
            .future_type
            .as_ref()
            .map(|t| checks::known("future_type", t.as_str(), t.is_known(), FutureType::KNOWN))
            .transpose()?;
        Ok(HttpRequest::new("/list-futures")
            .param(
                "league",
                Some(checks::required_league(self.league.as_ref())?),
            )
            .param("future_type", future_type)
            .param("season", season(self.season)?)
            .param("limit", checks::limit(self.limit, LIST_MAX_LIMIT)?)
            .param("offset", self.offset.filter(|o| *o > 0)))
    }
}

impl Paged for ListFutures {
    type Item = Future;
    fn position(&self) -> Option<PagePosition> {
        self.offset.filter(|o| *o > 0).map(PagePosition::Offset)
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.offset = offset_of(position);
    }
    fn next_position(response: &ListFuturesResponse) -> Option<PagePosition> {
        next_offset(response.data.pagination.as_ref())
    }
    fn items(response: &ListFuturesResponse) -> &[Future] {
        &response.data.futures
    }
    fn into_items(response: ListFuturesResponse) -> Vec<Future> {
        response.data.futures
    }
}

pub(crate) fn offset_of(position: Option<PagePosition>) -> Option<u64> {
    match position {
        Some(PagePosition::Offset(o)) => Some(o),
        _ => None,
    }
}

pub(crate) fn next_offset(
    pagination: Option<&crate::models::OffsetPagination>,
) -> Option<PagePosition> {
    pagination.and_then(|p| p.next()).map(PagePosition::Offset)
}
