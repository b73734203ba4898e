//! `GET /futures/{id}` and `GET /list-futures`; `awards.rs` mirrors it.

use super::checks::{self, LIST_MAX_LIMIT};
use super::{Request, path_segment, wire};
use crate::error::Error;
use crate::models::{
    Future, FutureResponse, FutureType, League, ListFuturesResponse, OddsFormat, PlatformId,
};
use serde::{Deserialize, Serialize};

/// `GET /futures/{id}`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetFutureParams")
)]
pub struct GetFuture {
    /// Like `<league>_<name>_<season>` (path).
    pub id: String,
    /// Only this platform's quotes.
    pub platform: Option<PlatformId>,
    /// american, decimal or probability.
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
    const PATH: &'static str = "/futures/{id}";
    const PATH_PARAMS: &'static [&'static str] = &["id"];
    type Response = FutureResponse;
    fn checked(&self) -> Result<Self, Error> {
        check_sports(&self.platform, &self.odds_format)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        Ok(format!("/futures/{}", path_segment("id", &self.id)?))
    }
}

/// The checks shared by futures and awards, by id and listed.
pub(crate) fn check_sports(
    platform: &Option<PlatformId>,
    odds_format: &Option<OddsFormat>,
) -> Result<(), Error> {
    checks::one_value("platform", platform)?;
    checks::one_value("odds_format", odds_format)
}

/// The checks of list-futures and list-awards (`kind` is `future_type` or
/// `award_type`); the request as sent.
pub(crate) fn check_sports_list<T: AsRef<str>>(
    league: &League,
    kind: (&str, &Option<T>),
    season: Option<u32>,
    limit: &mut Option<u32>,
    offset: &mut Option<u64>,
) -> Result<(), Error> {
    checks::required_value("league", league.as_str())?;
    checks::one_value(kind.0, kind.1)?;
    checks::season(season)?;
    checks::limit(limit, LIST_MAX_LIMIT)?;
    if *offset == Some(0) {
        *offset = None;
    }
    Ok(())
}

/// `GET /list-futures`. Pages by offset; `limit` is capped at 25 (the
/// pagination guide's range; the spec gives no maximum here).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListFuturesParams")
)]
pub struct ListFutures {
    /// One league id.
    pub league: League,
    /// One future type (championship, division, conference, ...).
    pub future_type: Option<FutureType>,
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

impl ListFutures {
    pub fn new(league: League) -> Self {
        Self {
            league,
            ..Self::default()
        }
    }
}

impl Request for ListFutures {
    const OPERATION: &'static str = "listFutures";
    const PATH: &'static str = "/list-futures";
    type Response = ListFuturesResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        check_sports_list(
            &r.league,
            ("future_type", &r.future_type),
            r.season,
            &mut r.limit,
            &mut r.offset,
        )?;
        check_sports(&r.platform, &r.odds_format)?;
        Ok(r)
    }
}

paged!(offset ListFutures => Future, |r| r.data.futures, r.data.pagination.as_ref());
