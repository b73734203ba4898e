//! `GET /awards/{id}` and `GET /list-awards`, as futures.

use super::futures::{check_sports, check_sports_list};
use super::{Request, path_segment, wire};
use crate::error::Error;
use crate::models::{
    Award, AwardResponse, AwardType, League, ListAwardsResponse, OddsFormat, PlatformId,
};
use serde::{Deserialize, Serialize};

/// `GET /awards/{id}`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetAwardParams")
)]
pub struct GetAward {
    /// The award id (path).
    pub id: String,
    /// Only this platform's quotes.
    pub platform: Option<PlatformId>,
    /// american, decimal or probability.
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
    const PATH: &'static str = "/awards/{id}";
    const PATH_PARAMS: &'static [&'static str] = &["id"];
    type Response = AwardResponse;
    fn checked(&self) -> Result<Self, Error> {
        check_sports(&self.platform, &self.odds_format)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        Ok(format!("/awards/{}", path_segment("id", &self.id)?))
    }
}

/// `GET /list-awards`. Pages by offset; `limit` capped at 25.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListAwardsParams")
)]
pub struct ListAwards {
    /// One league id.
    pub league: League,
    /// One award type (mvp, ...).
    pub award_type: Option<AwardType>,
    /// A year from 1900 to 2200.
    #[serde(default, deserialize_with = "wire::whole")]
    pub season: Option<u32>,
    /// Only this platform's quotes.
    pub platform: Option<PlatformId>,
    /// american, decimal or probability.
    pub odds_format: Option<OddsFormat>,
    /// Page size; capped at 25.
    #[serde(default, deserialize_with = "wire::whole")]
    pub limit: Option<u32>,
    /// `next_offset` of the previous page.
    #[serde(default, deserialize_with = "wire::whole")]
    pub offset: Option<u64>,
}

impl ListAwards {
    pub fn new(league: League) -> Self {
        Self {
            league,
            ..Self::default()
        }
    }
}

impl Request for ListAwards {
    const OPERATION: &'static str = "listAwards";
    const PATH: &'static str = "/list-awards";
    type Response = ListAwardsResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        check_sports_list(
            &r.league,
            ("award_type", &r.award_type),
            r.season,
            &mut r.limit,
            &mut r.offset,
        )?;
        check_sports(&r.platform, &r.odds_format)?;
        Ok(r)
    }
}

paged!(offset ListAwards => Award, |r| r.data.awards, r.data.pagination.as_ref());
