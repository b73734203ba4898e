//! `GET /league-info`.

use super::{Operation, Request, checks, wire};
use crate::error::Error;
use crate::models::{League, LeagueInfoResponse};
use serde::{Deserialize, Serialize};

/// `GET /league-info`. Without `league` the service returns every league.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetLeagueInfoParams")
)]
pub struct GetLeagueInfo {
    /// One league id; without it, every league.
    pub league: Option<League>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_teams: Option<bool>,
}

impl Request for GetLeagueInfo {
    const OP: Operation = Operation::GetLeagueInfo;
    type Response = LeagueInfoResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::one_value("league", &self.league)?;
        Ok(self.clone())
    }
}
