//! `GET /awards/{id}` and `GET /list-awards`.

use super::checks::{self, LIST_MAX_LIMIT, SPORTS_PLATFORMS};
use super::futures::{next_offset, odds_format, offset_of, season};
use super::{HttpRequest, PagePosition, Paged, Request, path_segment};
use crate::error::Error;
use crate::models::{
    Award, AwardResponse, AwardType, League, ListAwardsResponse, OddsFormat, PlatformId,
};

/// `GET /awards/{id}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetAward {
    pub id: String,
    /// One of the sports platforms.
    pub platform: Option<PlatformId>,
    pub odds_format: Option<OddsFormat>,
}

impl GetAward {
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }
}

impl Request for GetAward {
    const OPERATION: &'static str = "getAward";
    type Response = AwardResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(
            HttpRequest::new(format!("/awards/{}", path_segment("id", &self.id)?))
                .param(
                    "platform",
                    checks::platform(self.platform.as_ref(), SPORTS_PLATFORMS)?,
                )
                .param("odds_format", odds_format(self.odds_format.as_ref())?),
        )
    }
}

/// `GET /list-awards`. Pages by offset; `limit` capped at 25. `award_type`
/// is sent as given, known value or not (the set of awards is open).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListAwards {
    /// Required.
    pub league: Option<League>,
    pub award_type: Option<AwardType>,
    pub season: Option<u32>,
    pub limit: Option<u32>,
    pub offset: Option<u64>,
}

impl ListAwards {
    pub fn new(league: League) -> Self {
        Self {
            league: Some(league),
            ..Self::default()
        }
    }
}

impl Request for ListAwards {
    const OPERATION: &'static str = "listAwards";
    type Response = ListAwardsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        let award_type = match &self.award_type {
            Some(t) if t.as_str().trim().is_empty() || t.as_str().contains(',') => {
                return Err(Error::invalid("award_type", "takes exactly one award type"));
            }
            other => other.as_ref().map(AwardType::as_str),
        };
        Ok(HttpRequest::new("/list-awards")
            .param(
                "league",
                Some(checks::required_league(self.league.as_ref())?),
            )
            .param("award_type", award_type)
            .param("season", season(self.season)?)
            .param("limit", checks::limit(self.limit, LIST_MAX_LIMIT)?)
            .param("offset", self.offset.filter(|o| *o > 0)))
    }
}

impl Paged for ListAwards {
    type Item = Award;
    fn position(&self) -> Option<PagePosition> {
        self.offset.filter(|o| *o > 0).map(PagePosition::Offset)
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.offset = offset_of(position);
    }
    fn next_position(response: &ListAwardsResponse) -> Option<PagePosition> {
        next_offset(response.data.pagination.as_ref())
    }
    fn items(response: &ListAwardsResponse) -> &[Award] {
        &response.data.awards
    }
    fn into_items(response: ListAwardsResponse) -> Vec<Award> {
        response.data.awards
    }
}
