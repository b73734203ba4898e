//! `GET /league-info`.

use super::checks;
use super::{HttpRequest, Request};
use crate::error::Error;
use crate::models::{League, LeagueInfoResponse};

/// `GET /league-info`. Without `league` the service returns every league.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetLeagueInfo {
    pub league: Option<League>,
    pub include_teams: Option<bool>,
}

impl Request for GetLeagueInfo {
    const OPERATION: &'static str = "getLeagueInfo";
    type Response = LeagueInfoResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/league-info")
            .param("league", checks::league("league", self.league.as_ref())?)
            .param("include_teams", checks::bool_str(self.include_teams)))
    }
}
